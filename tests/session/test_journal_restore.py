"""Restoring a journal checks every entry with the rules of the game its `start` entry names.

An illegal or unreadable entry is refused with its number and reason (JournalError,
and one line with exit status 1 from `cardtable replay`), never replayed into a
wrong state.
"""
from __future__ import annotations

import random

import pytest

from table.cli import main
from table.events import EventBus
from table.registry import GAMES
from table.games.feira_torio import rules as ft
from table.games.kit.codec import to_json
from table.layout import load_layout
from table.session.table_session import JournalError, TableSession
from table.storage.journal import Journal

LAYOUT = load_layout("sim-6-single")
START = ("start", {"game": "feira-torio", "options": {}, "seats": [1, 2, 3], "first": 0})
JOINS = [("join", {"seat": s}) for s in (1, 2, 3)]


def restore(entries, path=":memory:") -> TableSession:
    journal = Journal(path)
    for kind, data in entries:
        journal.append(kind, data)
    return TableSession(LAYOUT, None, journal, EventBus())


def bidding_entries(seed: int = 1) -> tuple[list, ft.State]:
    """A legal journal up to the first bid of round 1, and the engine state there."""
    state = ft.new_game(GAMES["feira-torio"].deck, 3, 0)
    entries = [*JOINS, START]
    rng = random.Random(seed)
    while state.phase != "bidding":
        action = rng.choice(ft.legal_actions(state))
        entries.append(("action", to_json(action)))
        state = ft.apply(state, action)
    return entries, state


def test_a_legal_journal_restores_to_the_engine_state():
    entries, state = bidding_entries()
    assert restore(entries).state == state


def test_a_bid_on_a_locked_slot_is_refused_with_its_entry_number():
    entries, state = bidding_entries()
    first, second = ft.legal_actions(state)[0], ft.legal_actions(state)[1]
    overwrite = ft.Bid(first.player, first.position, second.card)
    entries += [("action", to_json(first)), ("action", to_json(overwrite))]
    with pytest.raises(JournalError) as error:
        restore(entries)
    assert error.value.seq == len(entries)
    assert "slot_locked" in str(error.value) and f"entry {len(entries)}" in str(error.value)


def test_a_bid_with_a_card_the_seat_does_not_hold_is_refused():
    """Round 2: every hand is known; a bid of another seat's card would put a card in two places."""
    state = ft.new_game(GAMES["feira-torio"].deck, 3, 0)
    entries, rng = [*JOINS, START], random.Random(5)
    while not (state.phase == "bidding" and state.round == 2):
        action = rng.choice(ft.legal_actions(state))
        entries.append(("action", to_json(action)))
        state = ft.apply(state, action)
    other = sorted(state.hands[1])[0]
    entries.append(("action", to_json(ft.Bid(0, state.first, other))))
    with pytest.raises(JournalError) as error:
        restore(entries)
    assert error.value.seq == len(entries) and "card_not_held" in error.value.reason


@pytest.mark.parametrize("bad, reason", [
    (("start", {**START[1], "game": "chess"}), "unknown game"),
    (("start", {**START[1], "options": {"turbo": True}}), "no option turbo"),
    (("start", {**START[1], "seats": [1, 2]}), "cannot start"),
    (("dance", {}), "unknown entry kind"),
    (("action", {"type": "Bid", "player": 0}), "not an action"),
    (("action", {"type": "Teleport"}), "not an action"),
    (("join", {"seat": 9}), "cannot join"),
    (("cursor", {"at": 0}), "no prompt"),
])
def test_unknown_or_unfit_entries_are_refused_by_number(bad, reason):
    entries = [*JOINS, START] if bad[0] in ("action", "cursor") else [*JOINS]
    entries.append(bad)
    with pytest.raises(JournalError) as error:
        restore(entries)
    assert error.value.seq == len(entries) and reason in error.value.reason


def test_cardtable_replay_says_which_entry_in_one_line_and_exits_1(tmp_path, capsys):
    entries, state = bidding_entries()
    action = ft.legal_actions(state)[0]
    entries += [("action", to_json(action))] * 2   # the same bid twice: its slot is locked
    path = tmp_path / "bad.sqlite"
    restore(entries[:-1], path).journal.close()
    journal = Journal(path)
    journal.append(*entries[-1])
    journal.close()
    assert main(["replay", str(path), "--json"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.endswith(f"journal entry {len(entries)}: Bid refused by the rules of feira-torio: "
                        f"Siège {action.player + 1} : Mise déjà posée à cet emplacement.\n")   # the screen's words
    assert main(["replay", str(path), "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert err.endswith(f"Seat {action.player + 1}: This slot already holds a bid.\n") and err.count("\n") == 1
