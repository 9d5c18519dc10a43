"""The final public state of a journal, for `cardtable replay`."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from table.events import EventBus
from table.layout import load_layout
from table.session.table_session import JournalError, TableSession
from table.storage.journal import Journal

REPLAY_LAYOUT = "sim-8-single"   # inputs are replayed, not read: any game's journal fits its 8 seats


def replay_command(path: Path, as_json: bool) -> int:
    """`cardtable replay JOURNAL`: the final public state as JSON (on one line with `as_json`, else indented); one
    line on stderr when there is no journal there or it does not replay."""
    if not path.exists() and not Path(f"{path}-wal").exists():   # a lone -wal: the journal says it
        print(f"cardtable replay: no journal at {path}", file=sys.stderr)
        return 1
    try:
        state = replay_journal(path)
    except JournalError as error:
        print(f"cardtable replay: {path}: {error}", file=sys.stderr)
        return 1
    print(json.dumps(state, ensure_ascii=False, indent=None if as_json else 2))
    return 0


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

    Keys: game, phase, seats (player index -> seat number), and then everything
    the game's public view holds (players stay engine indices there, as on screen:
    `seats[p]` is player p's seat); `totals` and `winners` also by seat; `to_act`
    (who must act and how), `prompt` (a seat's open button choice and its cursor) and `clock` (a game
    clock's seconds left and allowed and whether it is paused, at the last entry; None without one).
    """
    view = session.public()
    if view is None:
        return {"game": session.menu.game, "phase": "lobby", "joined": session.joined,
                "options": dict(session.menu.options)}
    seats = list(session.players)
    return {
        **view,
        "game": session.game.name,
        "options": dict(session.menu.options),
        "seats": seats,
        "totals": {str(seat): total for seat, total in zip(seats, view["totals"])},
        "winners": [seats[p] for p in view["winners"]],
        "to_act": to_act(session),
        "prompt": session.prompt_view(),
        "clock": session.clock_view(),
    }


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
