"""Behaviour of the table session: lobby, refusals, the journal behind it, restarts, the clear-table gate.

Two harnesses, both playing Feira Torio here (tests/session/test_every_game.py runs the session's
properties over every game):

- `Desk` (tests/session/desk.py): a TableSession fed presence events, with no
  hardware at all, driven by random legal acts. Fast enough for hypothesis
  and for restoring a session at every journal position.
- `SimulatedTable`: the whole pipeline on virtual readers and mock pins, for
  what a seat light shows.
"""
from __future__ import annotations

import contextlib

import json
import os
import random
import sqlite3
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, event as note_event, given, settings, strategies as st

from table.assets import deck_data
from table.events import Accepted, EventBus, Refused
from table.games.feira_torio import rules as ft
from table.games.kit.codec import from_json
from table.hardware import lights as lights_module
from table.hardware.ports import LightState
from table.layout import load_layout
from table.session.table_session import TableSession
from table.games.feira_torio.bots import Players as FeiraTorioPlayers
from table.sim.simulated_table import SimulatedTable
from table.storage.journal import Journal
from table.storage.registry import Tag, TagRegistry
from tests.session.desk import (SINGLE, SLOTS, STAFF_UID, Desk, engine_replay, entry_count, legal_act, make_registry,
                                restored, snapshot)

GAME = "feira-torio"
CARDS = [c["id"] for c in deck_data(GAME)["cards"]]
UNKNOWN_UID = "DEADBEEF0000AA"


REGISTRY = make_registry()
UID = {card: REGISTRY.uid_of(Tag("card", GAME, card)) for card in CARDS}


def refused(events: list, key: str, seat: int | None) -> Refused:
    assert [type(e) for e in events] == [Refused], events
    event = events[0]
    assert (event.message, event.seat) == (key, seat)
    return event


# ---------------------------------------------------------------- invariants

def check_conservation(state: ft.State) -> None:
    """Every card of the N-player deck is in exactly one of: lots, bids, known hands (less their bids),
    the discard, unseen."""
    in_play = state.deck.in_play[state.players]
    lots = [c for c in state.lots if c is not None]
    bids = [c for row in state.bids for c in row if c is not None]
    held = []
    for player, hand in enumerate(state.hands):
        if hand is not None:
            assert len(hand) == ft.LOTS, (player, hand)
            mine = {c for c in state.bids[player] if c is not None}
            assert mine <= hand, (player, mine, hand)   # a known hand bids only its own cards
            held += sorted(hand - mine)
    places = lots + bids + held + sorted(state.discard) + sorted(ft.unseen(state))
    assert len(places) == len(set(places)), "a card is in two places"
    assert set(places) == in_play, "a card is lost or foreign"


# ---------------------------------------------------------------- lobby

@pytest.mark.parametrize("layout", [SINGLE, SLOTS])
def test_a_seat_joins_with_any_card_of_the_game_on_any_of_its_pads(layout):
    desk = Desk(layout)
    pads = desk.layout.seats[1].pads
    events = desk.tap(pads[-1], "FO07")
    assert [(type(e), e.seat, e.what) for e in events] == [(Accepted, 2, "join")]
    desk.tap(desk.pad(5), "VA03")
    assert desk.session.table_view()["joined"] == [2, 5]
    assert desk.session.table_view()["mode"] == "lobby"
    assert [(k, d) for _, k, d in desk.journal.entries()] == [("join", {"seat": 2}), ("join", {"seat": 5})]


def test_a_second_card_from_a_joined_seat_is_refused_and_changes_nothing():
    desk = Desk(SLOTS)
    desk.tap(desk.pad(3, 0), "TA01")
    before = snapshot(desk.session)
    refused(desk.tap(desk.pad(3, 2), "AB02"), "seat_already_joined", 3)
    assert snapshot(desk.session) == before
    assert desk.session.message == {"key": "seat_already_joined", "params": {"seat": 3}, "seat": 3}


def test_a_card_on_the_centre_in_the_lobby_asks_to_join_at_a_seat():
    desk = Desk()
    before = snapshot(desk.session)
    refused(desk.tap("centre", "TA01"), "join_at_seat", None)
    assert snapshot(desk.session) == before


def test_ok_with_two_players_is_refused_too_few_players():
    desk = Desk()
    desk.join(1, 4)
    before = snapshot(desk.session)
    event = refused(desk.press(4, "ok"), "too_few_players", 4)
    assert dict(event.params)["min_players"] == 3
    assert snapshot(desk.session) == before
    assert desk.session.state is None
    # the staff menu cannot start it either, and no player's seat blinks for it
    desk.staff()
    refused(desk.press(2, "ok"), "too_few_players", None)
    assert snapshot(desk.session) == before


def test_ok_from_a_seat_that_did_not_join_is_refused_in_the_lobby():
    desk = Desk()
    desk.join(1, 2, 3)
    before = snapshot(desk.session)
    refused(desk.press(5, "ok"), "join_first", 5)   # "this seat has not joined: place a card to join"
    assert snapshot(desk.session) == before
    assert desk.press(5, "next") == [] and snapshot(desk.session) == before   # "next" does nothing in the lobby


@pytest.mark.parametrize("starter", [2, 4, 6])
def test_three_or_more_start_and_the_seat_that_pressed_ok_deals_first(starter):
    desk = Desk()
    desk.join(6, 2, 4)
    events = desk.press(starter, "ok")
    assert [(type(e), e.seat, e.what) for e in events] == [(Accepted, starter, "start")]
    session = desk.session
    assert session.players == (2, 4, 6)
    assert session.table_view()["joined"] == [2, 4, 6]
    view = session.public()
    assert view["players"] == 3 and view["phase"] == "lots" and view["hand"] == 1 and view["round"] == 1
    assert session.players[view["dealer"]] == starter
    assert session.players[view["first_bid"]] == starter


@pytest.mark.parametrize("pressed_at", [5, 1])
def test_the_staff_start_the_game_from_their_menu_with_the_lowest_seat_dealing(pressed_at):
    desk = Desk()
    desk.join(5, 3, 4, 6)
    assert desk.staff() == []   # the staff menu opens on its first line: start
    assert desk.session.table_view()["staff"]["lines"][0] == "start"
    events = desk.press(pressed_at, "ok")   # any seat's OK, joined or not
    assert [(type(e), e.what) for e in events] == [(Accepted, "start")]
    assert desk.session.players == (3, 4, 5, 6)
    assert desk.session.players[desk.session.public()["dealer"]] == 3
    assert desk.session.table_view()["staff"] is None


def test_the_staff_card_during_a_game_opens_the_staff_menu_and_changes_nothing():
    desk = Desk()
    desk.start()
    before = snapshot(desk.session)
    assert desk.place_uid(desk.pad(2), STAFF_UID) + desk.remove(desk.pad(2)) == []
    assert desk.session.table_view()["staff"]["lines"][0] == "end_game"
    assert snapshot(desk.session) == before


def test_a_seat_that_did_not_join_is_refused_during_the_game():
    desk = Desk()
    desk.start((1, 2, 3))
    rng = random.Random(3)
    checked = set()
    # through every phase of a round: lots, First Bid, bidding
    while desk.session.public()["round"] == 1:
        phase = desk.session.public()["phase"]
        if phase not in checked:
            checked.add(phase)
            before = snapshot(desk.session)
            refused(desk.press(5, "ok"), "seat_not_joined", 5)
            refused(desk.press(5, "next"), "seat_not_joined", 5)
            refused(desk.tap(desk.pad(5), "TA10"), "seat_not_joined", 5)
            assert snapshot(desk.session) == before
            assert desk.session.message["key"] == "seat_not_joined" and desk.session.message["seat"] == 5
        desk.act(rng)
    assert checked == {"lots", "first", "bidding"}


def test_after_the_game_ok_goes_back_to_the_lobby_with_the_same_seats():
    desk = Desk()
    desk.start((2, 3, 5), dealer=3)
    desk.play_until(random.Random(5), lambda s: s.over)
    refused(desk.press(6, "ok"), "seat_not_joined", 6)
    events = desk.press(3, "ok")
    assert [(type(e), e.what) for e in events] == [(Accepted, "lobby")]
    assert desk.session.state is None and desk.session.table_view()["joined"] == [2, 3, 5]
    desk.press(5, "ok")   # the same seats play again, seat 5 deals
    assert desk.session.players[desk.session.public()["dealer"]] == 5


def test_a_seventh_seat_is_refused_when_the_table_is_full(tmp_path):
    seats = "".join(f'[[seats]]\npads = ["s{n}"]\nboard = "b{n}"\nlight = [2, 3, 4]\nbuttons = {{ next = 5, ok = 6 }}\n'
                    for n in range(1, 8))
    (tmp_path / "seven.toml").write_text(f'name = "seven"\n{seats}[centre]\npads = ["c"]\n')
    desk = Desk(tmp_path / "seven.toml")
    desk.join(1, 2, 3, 4, 5, 6)
    before = snapshot(desk.session)
    refused(desk.tap("s7", "TA01"), "table_full", 7)
    assert snapshot(desk.session) == before
    refused(desk.press(7, "ok"), "join_first", 7)
    desk.press(7 - 1, "ok")
    assert desk.session.players == (1, 2, 3, 4, 5, 6)


def test_the_logs_never_name_a_card(caplog):
    caplog.set_level("DEBUG")
    desk = Desk(SLOTS)
    desk.start((1, 2, 3, 4))
    desk.place_uid(desk.pad(5), UNKNOWN_UID)
    desk.play_until(random.Random(13), lambda s: s.over, keep=True)
    assert len(caplog.records) > 100
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert not [card for card in CARDS if card in text]
    assert not [uid for uid in UID.values() if uid in text] and UNKNOWN_UID not in text


# ---------------------------------------------------------------- refusals, on the simulated table

@pytest.fixture
def long_flash(monkeypatch):
    """The red flash lasts long enough that "right after" cannot miss it on a slow machine."""
    monkeypatch.setattr(lights_module, "FLASH_S", 1.0)


def sim_table(layout: str, **kw) -> SimulatedTable:
    return SimulatedTable(load_layout(layout), **kw)


def sim_put_uid(sim: SimulatedTable, pad: str, uid: str) -> None:
    """Lay a raw tag on a virtual reader and poll until the table has seen it."""
    sim.pads[pad].place(uid)
    sim._until(lambda: sim.on_pad.get(pad) == uid, f"{uid} on {pad}")


def sim_act(sim: SimulatedTable, rng: random.Random) -> None:
    """One legal step on the simulated table: cards stay on slot pads, are tapped on single pads."""
    session = sim.session
    if session.clearing:
        sim.clear()
    steps, _ = legal_act(session, rng)
    for kind, where, what in steps:
        if kind == "button":
            sim.press(where, what)
        elif where in ("centre", *(s.pads[0] for s in sim.table.layout.seats if len(s.pads) == 1)):
            sim.tap(where, what)
        else:
            sim.put(where, what)


def sim_play_until(sim: SimulatedTable, rng: random.Random, done) -> None:
    for _ in range(3000):
        if done(sim.session):
            return
        sim_act(sim, rng)
    raise AssertionError("never reached")


class Refusals:
    """Records Refused events of a simulated table and checks each refusal's whole outcome."""

    def __init__(self, sim: SimulatedTable) -> None:
        self.sim = sim
        self.events: list[Refused] = []
        sim.table.bus.subscribe(Refused, self.events.append)

    def check(self, act, key: str, seat: int | None) -> Refused:
        session = self.sim.session
        before = snapshot(session)
        start = len(self.events)
        act()
        new = self.events[start:]
        assert [(e.message, e.seat) for e in new] == [(key, seat)]
        assert snapshot(session) == before, "a refused input changed the state or the journal"
        assert session.message["key"] == key and session.message["seat"] == seat
        if seat is not None:
            assert self.sim.table.lights[seat].state == LightState.REFUSED
            assert "card" not in dict(new[0].params), "a seat's refusal names a card"
            assert "card" not in session.message["params"]
        return new[0]


def test_refusals_in_the_lobby_blink_red_and_change_nothing(long_flash):
    sim = sim_table(SINGLE)
    try:
        sim.registry.enrol("0400C0FFEE0001", Tag("card", "other-deck", "X1"))
        refusals = Refusals(sim)
        sim.tap("seat2", "TA01")
        refusals.check(lambda: sim_put_uid(sim, "seat1", UNKNOWN_UID), "unknown_tag", 1)
        sim.lift("seat1")
        refusals.check(lambda: sim_put_uid(sim, "seat3", "0400C0FFEE0001"), "other_game_card", 3)
        sim.lift("seat3")
        refusals.check(lambda: sim.tap("seat2", "VA05"), "seat_already_joined", 2)
        assert sim.session.table_view()["joined"] == [2]
    finally:
        sim.close()


def test_refusals_in_round_one_single_pads(long_flash):
    sim = sim_table(SINGLE)
    try:
        sim.registry.enrol("0400C0FFEE0002", Tag("card", "other-deck", "X1"))
        refusals = Refusals(sim)
        for seat in (1, 2, 3):
            sim.tap(f"seat{seat}", "TA01")
        sim.press(1, "ok")
        rng = random.Random(7)
        # lots being laid: a seat's card is not a bid yet
        sim.tap("centre", "TA03")
        refusals.check(lambda: sim.tap("seat2", "VA02"), "not_now_bid", 2)
        sim_play_until(sim, rng, lambda s: s.state.phase == "first")
        # the First Bid card is not marked yet: no bid
        refusals.check(lambda: sim.tap("seat3", "VA02"), "not_now_bid", 3)
        holder = sim.session.players[sim.session.state.first_bid]
        other = next(s for s in (1, 2, 3) if s != holder)
        refusals.check(lambda: sim.press(other, "next"), "not_your_turn", other)
        sim.press(holder, "ok")
        assert sim.session.state.phase == "bidding"
        lot = next(c for c in sim.session.state.lots)
        refusals.check(lambda: sim.tap("seat1", lot), "card_on_table", 1)        # a lot as a bid
        refusals.check(lambda: sim_put_uid(sim, "seat2", UNKNOWN_UID), "unknown_tag", 2)
        sim.lift("seat2")
        refusals.check(lambda: sim_put_uid(sim, "seat3", "0400C0FFEE0002"), "other_game_card", 3)
        sim.lift("seat3")
        # a card another seat bid is on the table too; refused without naming it
        free = sorted(ft.unseen(sim.session.state))
        sim.tap("seat1", free[0])
        refusals.check(lambda: sim.tap("seat2", free[0]), "card_on_table", 2)
        # the same card read again on its own seat's pad is no act at all (a flaky read)
        before = snapshot(sim.session)
        count = len(refusals.events)
        sim.tap("seat1", free[0])
        assert snapshot(sim.session) == before and len(refusals.events) == count
        # a card of the 6-player deck at a 3-player table
        refusals.check(lambda: sim.tap("seat3", "TA10"), "card_not_for_players", 3)
    finally:
        sim.close()


def test_refusals_with_one_pad_per_slot_and_in_round_two(long_flash):
    sim = sim_table(SLOTS)
    try:
        refusals = Refusals(sim)
        seats = (2, 3, 4)
        for seat in seats:
            sim.tap(sim.table.layout.seats[seat - 1].pads[1], "TA01")
        sim.press(2, "ok")
        rng = random.Random(11)
        sim_play_until(sim, rng, lambda s: s.state.phase == "bidding")
        state = sim.session.state
        free = sorted(ft.unseen(state))
        pads = sim.table.layout.seats[3 - 1].pads
        sim.put(pads[2], free[0])
        assert state.bids[1] == (None,) * 4 and sim.session.state.bids[1][2] == free[0]   # the pad's slot
        # a different card on the filled slot pad: the slot is locked
        refusals.check(lambda: sim.put(pads[2], free[1]), "slot_locked", 3)
        assert sim.session.state.bids[1][2] == free[0]
        # putting the bid back is no act
        sim.put(pads[2], free[0])
        # round 2: every hand is known
        sim_play_until(sim, rng, lambda s: s.state.round == 2 and s.state.phase == "bidding")
        state = sim.session.state
        holdings = sim.session.public()["holdings"]
        other_hand = holdings[0]                     # seat 2's cards
        pad = sim.table.layout.seats[3 - 1].pads[state.first]
        refusals.check(lambda: sim.put(pad, other_hand[0]), "card_not_held", 3)
        discarded = sorted(state.discard)
        if discarded:
            refusals.check(lambda: sim.put(pad, discarded[0]), "card_not_held", 3)
        # after refusals, the seat's own card is accepted
        mine = holdings[1][0]
        sim.put(pad, mine)
        assert sim.session.state.bids[1][state.first] == mine
    finally:
        sim.close()


def test_a_refused_bid_never_names_the_card_on_screen_or_in_the_event():
    desk = Desk()
    desk.start()
    rng = random.Random(2)
    desk.play_until(rng, lambda s: s.state.phase == "bidding")
    lot = desk.session.state.lots[0]
    free = sorted(ft.unseen(desk.session.state))
    desk.tap(desk.pad(1), free[0])
    for pad_seat, card in ((2, lot), (2, free[0]), (3, "TA10")):
        event = refused(desk.tap(desk.pad(pad_seat), card), event_key(desk, card), pad_seat)
        params = dict(event.params)
        assert "card" not in params and "player" not in params
        assert card not in repr(event) and card not in repr(desk.session.message)


def event_key(desk: Desk, card: str) -> str:
    return "card_not_for_players" if card == "TA10" else "card_on_table"


# ---------------------------------------------------------------- single pad and slot pads

def test_single_pad_bids_fill_the_next_open_slot_in_resolution_order():
    desk = Desk(SINGLE)
    desk.start((1, 2, 3))
    rng = random.Random(4)
    desk.play_until(rng, lambda s: s.state.phase == "first")
    holder = desk.session.players[desk.session.state.first_bid]
    desk.press(holder, "next")
    desk.press(holder, "next")
    desk.press(holder, "ok")
    state = desk.session.state
    assert state.first == 2
    order = ft.resolution_order(2)
    free = sorted(ft.unseen(state))[:4]
    for k, card in enumerate(free):
        desk.tap(desk.pad(2), card)
        assert desk.session.state.bids[1] == tuple(
            free[order.index(p)] if order.index(p) <= k else None for p in range(4))
        assert desk.session.public()["committed"][1] == [order.index(p) <= k for p in range(4)]
    # a fifth card: every slot is locked
    refused(desk.tap(desk.pad(2), sorted(ft.unseen(desk.session.state))[0]), "slot_locked", 2)


def test_slot_pads_bid_on_their_own_slot():
    desk = Desk(SLOTS)
    desk.start((1, 2, 3))
    desk.play_until(random.Random(6), lambda s: s.state.phase == "bidding")
    free = sorted(ft.unseen(desk.session.state))[:4]
    for slot, card in zip((3, 0, 2, 1), free):
        desk.place(desk.pad(1, slot), card)
        assert desk.session.state.bids[0][slot] == card
    assert desk.session.public()["committed"][0] == [True] * 4
    assert desk.session.public()["committed"][1] == [False] * 4


# ---------------------------------------------------------------- the clear-table gate

@pytest.mark.parametrize("layout", [SINGLE, SLOTS])
def test_after_a_reveal_nothing_counts_until_every_pad_is_empty(layout):
    desk = Desk(layout)
    desk.start((1, 2, 3))
    rng = random.Random(8)
    # cards stay where they were laid (the last bid at least stays in single-pad mode)
    desk.play_until(rng, lambda s: s.state.round == 2, keep=True)
    session = desk.session
    assert session.state.reveal and session.clearing
    assert session.table_view()["clearing"] is True
    dealer = session.players[session.state.dealer]
    lot = sorted(ft.unseen(session.state))[0]
    centre = desk.layout.centre[0]
    before = snapshot(session)
    events = desk.place(centre, lot)       # read while last round's cards lie on the pads
    assert events == []                    # no refusal blink, nothing accepted
    assert session.message == {"key": "clear_table", "params": {}, "seat": None}
    assert snapshot(session) == before and session.clearing
    desk.place(desk.pad(2), sorted(ft.unseen(session.state))[1])   # a seat card too: ignored
    assert snapshot(session) == before
    held = [p for p in desk.on]
    for pad in held[:-1]:
        assert desk.remove(pad) == [] and session.clearing
    assert desk.remove(held[-1]) == []    # the table is clear: no acknowledgement, nothing journaled
    assert not session.clearing and session.message is None
    assert snapshot(session) == before
    # now the dealer's next lot counts
    events = desk.place(centre, lot)
    assert [(type(e), e.seat, e.what) for e in events] == [(Accepted, None, "action")]
    assert lot in session.state.lots
    assert dealer == session.players[session.state.dealer]


def test_a_reveal_with_every_card_already_lifted_does_not_gate():
    desk = Desk(SINGLE)
    desk.start((1, 2, 3))
    rng = random.Random(9)
    desk.play_until(rng, lambda s: s.state.round == 2)   # taps: pads are empty after each card
    assert not desk.session.clearing
    events = desk.tap("centre", sorted(ft.unseen(desk.session.state))[0])
    assert [(type(e), e.what) for e in events] == [(Accepted, "action")]


# ---------------------------------------------------------------- journal first, restarts

def test_every_accepted_input_is_in_the_journal_file_before_it_is_acknowledged(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    desk = Desk(SLOTS, journal)
    reader = sqlite3.connect(path)   # another connection: sees only what was durably committed
    seen: list[tuple[str, int]] = []

    def on_accepted(event: Accepted) -> None:
        seen.append((event.what, reader.execute("SELECT count(*) FROM entries").fetchone()[0]))

    desk.bus.subscribe(Accepted, on_accepted)
    desk.join(1, 2, 3, 4)
    desk.press(2, "ok")
    desk.play_until(random.Random(10), lambda s: s.over, keep=True)
    entries = list(journal.entries())
    assert len(seen) == len(entries) > 100
    for k, (what, count) in enumerate(seen):
        assert count >= k + 1, f"accepted input {k + 1} ({what}) was acknowledged before it was journaled"
        assert entries[k][1] == what
    reader.close()
    journal.close()


@pytest.fixture(scope="module")
def recorded_game(tmp_path_factory):
    """A whole bot game on the simulated table (slot pads), its journal file, and the live state
    after every accepted input, by journal length."""
    path = tmp_path_factory.mktemp("recorded") / "journal.sqlite"
    journal = Journal(path)
    sim = SimulatedTable(load_layout(SLOTS), journal, seed=3)
    live: dict[int, tuple] = {}

    def on_accepted(event: Accepted) -> None:
        session = sim.session
        live[entry_count(journal)] = (session.public(), session.table_view()["joined"])

    sim.table.bus.subscribe(Accepted, on_accepted)
    try:
        players = FeiraTorioPlayers(sim, [1, 3, 4, 6], random.Random(3))
        players.join_and_start()
        players.play()
        final = (sim.session.public(), sim.session.table_view()["joined"])
    finally:
        sim.close()
        journal.close()
    entries = list(Journal(path).entries())
    return path, entries, live, final


def test_a_session_restored_at_every_journal_position_equals_the_live_one(recorded_game):
    path, entries, live, final = recorded_game
    assert len(entries) > 100
    assert len(live) >= 0.9 * len(entries)   # nearly every position has a live snapshot
    restored_session = None
    for k in range(len(entries) + 1):
        restored_session = restored(entries[:k], SLOTS)
        got = (restored_session.public(), restored_session.table_view()["joined"])
        if k in live:
            assert got == live[k], f"restart after {k} entries differs from the live session"
        state, players = engine_replay(entries[:k])
        assert restored_session.state == state and restored_session.players == players
    assert (restored_session.public(), restored_session.table_view()["joined"]) == final


def test_a_restart_mid_round_with_bids_committed_then_play_goes_on(recorded_game, tmp_path):
    path, entries, live, final = recorded_game
    kinds = [(k, d) for _, k, d in entries]
    # positions inside bidding phases, with some but not all bids committed; plus a few others
    mid_bids = [k for k in range(1, len(entries))
                if kinds[k - 1][0] == "action" and kinds[k - 1][1]["type"] == "Bid"
                and kinds[k][1].get("type") == "Bid"]
    rng = random.Random(12)
    positions = sorted(set(rng.sample(mid_bids, 5) + [1, 4, 5, 6, len(entries) // 2]))
    for k in positions:
        # on disk, through a real file reopened, as after a power cut
        file = tmp_path / f"cut-{k}.sqlite"
        restored(entries[:k], SLOTS, file).journal.close()
        desk = Desk(SLOTS, Journal(file))
        session = desk.session
        if k in live:
            assert (session.public(), session.table_view()["joined"]) == live[k]
        if session.state is not None and session.state.phase == "bidding":
            committed = session.public()["committed"]
            assert any(any(row) for row in committed)
        # play on to the end from there
        if session.state is None:
            missing = [s for s in range(1, 7) if s not in session.joined][:max(0, 3 - len(session.joined))]
            desk.join(*missing)
            desk.press(session.joined[0], "ok")
        play_rng = random.Random(k)
        steps = 0
        while not session.over:
            desk.act(play_rng)
            check_conservation(session.state)
            steps += 1
            assert steps < 5000
        assert entry_count(desk.journal) > k
        again = restored(list(desk.journal.entries()), SLOTS)
        assert again.public() == session.public()
        desk.journal.close()


KILLED = textwrap.dedent("""
    import os, random, sys
    from table.events import Accepted
    from table.layout import load_layout
    from table.games.feira_torio.bots import Players as FeiraTorioPlayers
    from table.sim.simulated_table import SimulatedTable
    from table.storage.journal import Journal

    path, stop = sys.argv[1], int(sys.argv[2])
    journal = Journal(path)
    sim = SimulatedTable(load_layout("sim-6-slots"), journal, seed=3)
    def maybe_die(event):
        if sum(1 for _ in journal.entries()) >= stop:
            os._exit(9)   # no close, no checkpoint, no cleanup: as if the power went
    sim.table.bus.subscribe(Accepted, maybe_die)
    players = FeiraTorioPlayers(sim, [1, 3, 4, 6], random.Random(3))
    players.join_and_start()
    players.play()
    os._exit(0)
""")


@pytest.mark.parametrize("stop", [40, 97])
def test_a_process_killed_mid_game_restarts_where_it_was(recorded_game, tmp_path, stop):
    path, entries, live, final = recorded_game
    file = tmp_path / "killed.sqlite"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    result = subprocess.run([sys.executable, "-c", KILLED, str(file), str(stop)], env=env, timeout=60)
    assert result.returncode == 9
    journal = Journal(file)
    try:
        got = list(journal.entries())
        assert [(k, d) for _, k, d in got] == [(k, d) for _, k, d in entries[:len(got)]]
        assert len(got) >= stop
        session = TableSession(load_layout(SLOTS), make_registry(), journal, EventBus())
        if len(got) in live:
            assert (session.public(), session.table_view()["joined"]) == live[len(got)]
    finally:
        journal.close()


# ---------------------------------------------------------------- hostile input, with hypothesis

PADS = {name: load_layout(name).pads for name in (SINGLE, SLOTS)}


def legal_step(desk: Desk, rng: random.Random) -> None:
    """One step a careful table would take: join, start, play a legal act, or go back to the lobby."""
    session = desk.session
    if session.state is None and session.menu.game != "feira-torio" and session.joined:
        seat = session.joined[0]   # a hostile press moved the menu to another game: choose Feira Torio again
        while session.menu.line != "game":
            desk.press(seat, "next")
        while session.menu.game != "feira-torio":
            desk.press(seat, "ok")
        desk.press(seat, "back")   # the cursor back on Start
    elif session.state is None:
        free = [s for s in range(1, 7) if s not in session.joined]
        if len(session.joined) >= 3 and (not free or rng.random() < 0.3):
            desk.press(rng.choice(session.joined), "ok")
        else:   # a Feira Torio card (by its tag: staff may have chosen another game, which the card changes back)
            pad = desk.pad(rng.choice(free), 0)
            desk.place_uid(pad, UID[rng.choice(CARDS)])
            desk.remove(pad)
    elif session.over:
        desk.press(rng.choice(session.players), "ok")
    else:
        count = entry_count(desk.journal)
        action = desk.act(rng, keep=rng.random() < 0.5)
        assert entry_count(desk.journal) == count + 1, f"a legal act was not taken: {action}"
        last = desk.journal._db.execute("SELECT data FROM entries ORDER BY seq DESC LIMIT 1").fetchone()[0]
        assert from_json(ft.ACTIONS, json.loads(last)) == action


OTHER_DECK_UID = "0400C0FFEE00CC"

hostile_uid = st.one_of(
    st.sampled_from(CARDS).map(UID.get),
    st.sampled_from(CARDS).map(lambda c: UID[c].lower()),
    st.just(STAFF_UID),
    st.just(OTHER_DECK_UID),
    st.text("0123456789ABCDEF", min_size=8, max_size=20),
    st.text(max_size=12),
)


def hostile_registry() -> TagRegistry:
    registry = make_registry()
    registry.enrol(OTHER_DECK_UID, Tag("card", "other-deck", "X1"))
    return registry


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(layout=st.sampled_from([SINGLE, SLOTS]), seed=st.integers(0, 2**16), data=st.data())
def test_random_and_hostile_input_never_crashes_never_changes_state_when_refused_and_conserves_cards(
        layout, seed, data):
    desk = Desk(layout, registry=hostile_registry())
    session = desk.session
    rng = random.Random(seed)
    pads = PADS[layout]
    steps = data.draw(st.integers(5, 150), label="steps")
    for _ in range(steps):
        move = data.draw(st.integers(0, 19), label="move")
        before = snapshot(session)
        start = len(desk.events)
        if move < 12:   # a burst of legal steps, so games get somewhere (and end, and start again)
            for _ in range(rng.randint(1, 60)):
                legal_step(desk, rng)
                if session.state is not None:
                    check_conservation(session.state)
        elif move < 16:   # any tag on any pad (a staff card's menu closed again: the legal steps need the buttons)
            desk.place_uid(data.draw(st.sampled_from(pads), label="pad"), data.draw(hostile_uid, label="uid"))
            if session.staff.open:
                desk.staff()
        elif move < 18:
            desk.remove(data.draw(st.sampled_from(pads), label="pad"))
        elif move == 18:
            desk.press(data.draw(st.integers(1, 6), label="seat"), data.draw(st.sampled_from(["next", "ok"])))
        else:   # the staff menu, opened, worked by a few buttons, then closed if still open
            desk.staff()
            for button in data.draw(st.lists(st.sampled_from(["next", "ok", "back"]), max_size=4), label="staff"):
                if session.staff.open:   # once closed, the buttons are the game's again
                    desk.press(data.draw(st.integers(1, 6), label="seat"), button)
            if session.staff.open:
                desk.staff()
        new = desk.events[start:]
        journaled = [e for e in new if isinstance(e, Accepted)]
        after = snapshot(session)
        if not journaled:
            assert after == before, new
        else:
            assert after[-1] == before[-1] + len(journaled)
            assert not any(isinstance(e, Refused) for e in new)
        for event in new:
            if isinstance(event, Refused) and event.seat is not None:
                assert "card" not in dict(event.params) and "player" not in dict(event.params)
        if any(isinstance(e, Refused) for e in new):
            assert session.message is not None and session.message["key"] == new[-1].message
        if session.state is not None:
            check_conservation(session.state)
    note_event(f"games finished: {sum(1 for _, kind, _ in desk.journal.entries() if kind == 'lobby')}")
    note_event(f"reached hand {session.state.hand if session.state else 'lobby'}, "
               f"phase {session.state.phase if session.state else '-'}")
    # and the journal gives back the same session
    again = restored(list(desk.journal.entries()), layout)
    assert (again.public(), again.table_view()["joined"], again.players) == \
        (session.public(), session.table_view()["joined"], session.players)


# ---------------------------------------------------------------- restart with cards still on the pads

def restart_with_cards_on_pads(tmp_path, done, seed: int):
    """Play on slot pads until `done`, cut the power, start a new table on the same journal with the
    same cards still lying on the same pads; the new table's Accepted/Refused events and the sessions."""
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    sim = sim_table(SLOTS, journal=journal, seed=seed)
    try:
        for seat in (1, 2, 3):
            sim.tap(sim.table.layout.seats[seat - 1].pads[0], "TA01")
        sim.press(1, "ok")
        sim_play_until(sim, random.Random(seed), done)
        before = (sim.session.public(), entry_count(journal))
        lying = {pad: reader.card for pad, reader in sim.pads.items() if reader.card}
    finally:
        sim.close()
        journal.close()
    journal = Journal(path)
    again = sim_table(SLOTS, journal=journal, seed=seed + 1)
    events = []
    again.table.bus.subscribe(Accepted, events.append)
    again.table.bus.subscribe(Refused, events.append)
    try:
        assert (again.session.public(), entry_count(journal)) == before
        for pad, uid in lying.items():
            again.pads[pad].place(uid)
        for _ in range(10):
            again.table.step()
        gate = [again.session.clearing]
        for pad in lying:
            again.pads[pad].lift()
        for _ in range(10):
            again.table.step()
        gate.append(again.session.clearing)
        return lying, events, before, (again.session.public(), entry_count(journal)), gate
    finally:
        again.close()
        journal.close()


def test_a_restart_mid_bidding_with_the_cards_on_their_pads_reads_them_as_no_act(tmp_path):
    lying, events, before, after, _ = restart_with_cards_on_pads(
        tmp_path, lambda s: s.state.phase == "bidding" and sum(map(sum, s.public()["committed"])) == 7, seed=4)
    assert len(lying) == 4 + 7           # the lots and the seven bids made so far
    assert events == [] and after == before


def test_a_restart_just_after_a_hand_ends_does_not_take_the_old_lots_as_new_ones(tmp_path):
    lying, events, before, after, gate = restart_with_cards_on_pads(
        tmp_path, lambda s: s.state.hand == 2 and s.clearing, seed=1)
    assert len(lying) == 4 + 4 * 3
    assert after == before, "last hand's lots were journaled as new lots"
    assert not [e for e in events if isinstance(e, Refused)], "seats blinked red for cards nobody just laid"
    assert gate == [True, False], "the gate holds while the old cards lie there and opens once they are gone"


@contextlib.contextmanager
def restarted_after_a_reveal(tmp_path):
    """A slot table played until a reveal, stopped, and started again on its journal with the pads emptied."""
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    sim = sim_table(SLOTS, journal=journal, seed=2)
    try:
        for seat in (1, 2, 3):
            sim.tap(sim.table.layout.seats[seat - 1].pads[0], "TA01")
        sim.press(1, "ok")
        sim_play_until(sim, random.Random(2), lambda s: s.clearing)
    finally:
        sim.close()
        journal.close()
    journal = Journal(path)
    again = sim_table(SLOTS, journal=journal, seed=3)
    try:
        yield again
    finally:
        again.close()
        journal.close()


def test_a_restart_after_a_reveal_with_a_dead_reader_opens_the_gate_once_the_reader_is_given_up(tmp_path):
    with restarted_after_a_reveal(tmp_path) as again:
        again.pads["seat2-c"].broken = True           # this pad's reader died while the power was off
        polls = 0
        while again.session.clearing:
            again.table.step()
            polls += 1
            assert polls < 200, "the gate waits for a dead reader forever"
        assert again.table.faults.pads == {"seat2-c": "dead"}


def test_a_restart_after_a_reveal_opens_the_gate_only_once_every_pad_has_been_seen_empty(tmp_path):
    with restarted_after_a_reveal(tmp_path) as again:
        assert again.session.clearing and again.session.table_view()["clearing"]
        polls = 0
        while again.session.clearing:
            again.table.step()
            polls += 1
        assert polls == again.table.presence.remove_after   # every pad read empty M times, no sooner
        assert again.session.message is None
