"""The final public state of a journal, for `cardtable replay`."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from table.events import EventBus
from table.games.kit.seats import seated
from table.layout import load_layout
from table.session.table_session import JournalError, TableSession
from table.storage.journal import Journal

FORMAT = 2   # of the public state: 2 names every player by seat (1, before 2026-11-28: by player index)
REPLAY_LAYOUT = "sim-8-single"   # inputs are replayed, not read: any game's journal fits its 8 seats


def replay_command(path: Path, as_json: bool, lang: str = "fr") -> int:
    """`cardtable replay JOURNAL`: the final public state as JSON (on one line with `as_json`, else indented); one
    line on stderr when there is no journal there or it does not replay (a rules' refusal in the words the
    screen uses, in `lang`)."""
    if not path.exists() and not Path(f"{path}-wal").exists():   # a lone -wal: the journal says it
        print(f"cardtable replay: no journal at {path}", file=sys.stderr)
        return 1
    try:
        state = replay_journal(path)
    except JournalError as error:
        print(f"cardtable replay: {path}: journal entry {error.seq}: {_in_words(error, lang)}", file=sys.stderr)
        return 1
    print(json.dumps(state, ensure_ascii=False, indent=None if as_json else 2))
    return 0


def _in_words(error: JournalError, lang: str) -> str:
    """Why an entry does not replay: a rules' refusal as the screen says it, in `lang`."""
    if error.refusal is None:
        return error.reason
    from table.screen.i18n import message_text   # the screen's texts, loaded only to say a refusal
    return f"{error.why}: {message_text(lang, error.refusal, error.game)}"


def replay_journal(path: str | Path) -> dict:
    """Replay a journal, checking every entry with its game's rules (JournalError names the first bad one)."""
    journal = Journal(path, read_only=True)
    try:
        session = TableSession(load_layout(REPLAY_LAYOUT), None, journal, EventBus())
    finally:
        journal.close()
    return public_state(session)


def public_state(session: TableSession) -> dict:
    """The session's public state: who sits where, and the game's whole public view with players as seats.

    Keys: format, game, phase, seats (the playing seats, in player order), and then
    everything the game's public view holds, where every player it names is
    given as its seat number (the game's NAMED_PLAYERS; lists with one item per
    player follow the order of `seats`); `totals` by seat; `to_act`
    (who must act and how), `prompt` (a seat's open button choice and its cursor), `clock` (a game
    clock's seconds left and allowed and whether it is paused, at the last entry; None without one) and `names`
    (the regulars whose player cards named a seat, by seat: their id and name, as the table's screen shows them).
    """
    view = session.public()
    if view is None:
        return {"format": FORMAT, "game": session.menu.game, "phase": "lobby", "joined": session.joined,
                "options": dict(session.menu.options), "names": _names(session, session.joined)}
    seats = list(session.players)
    return {
        **seated(view, seats, ("winners/*", *session.game.rules.NAMED_PLAYERS)),
        "format": FORMAT,
        "game": session.game.name,
        "options": dict(session.menu.options),
        "seats": seats,
        "totals": {str(seat): total for seat, total in zip(seats, view["totals"])},
        "to_act": to_act(session),
        "prompt": session.prompt_view(),
        "clock": session.clock_view(),
        "names": _names(session, seats),
    }


def _names(session: TableSession, seats: list[int]) -> dict:
    """The players named at `seats` by their player cards: seat -> {"id", "name"} (guests are absent)."""
    return {str(seat): {"id": pid, "name": name} for seat, (pid, name, _) in sorted(session.names.items())
            if seat in seats}


def to_act(session: TableSession) -> dict:
    """Who must act now, by seat, and how: "turn" (each listed seat, in public), "sealed" (each commits in
    secret), "any_of" (one of them; `by` decides), "chance" (a card shown; `by` shows it, None: anyone),
    "table_draw" (the table draws it itself) or "done". Never the chance outcomes: they may be secret."""
    need = session.game.rules.need(session.state)
    how = ("done" if need.done else "table_draw" if need.table_draw else "chance" if need.chance
           else "sealed" if need.simultaneous else "any_of" if need.any_of else "turn")
    seats = session.players
    return {"how": how, "seats": [seats[p] for p in need.players],
            "by": None if need.by is None else seats[need.by]}
