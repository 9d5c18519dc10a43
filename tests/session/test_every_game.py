"""The table session's own promises, kept for every registered game, on single pads and on one pad per slot.

Each game is played through a `Desk` (a session fed presence events) by
random legal acts: every accepted input is journaled before it is
acknowledged; a session restored from its journal at any position equals
the live one, and its engine state equals the rules' own replay of the
journal (a session restored where the table draws journals the draw
itself); random and hostile input (any tag on any pad, any button, the
staff card) never raises, and a refused input changes nothing.
"""
from __future__ import annotations

import random
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from table.events import Accepted, Refused
from table.registry import GAMES
from table.storage.journal import Journal
from table.storage.registry import Tag
from tests.session.desk import (SINGLE, SLOTS, STAFF_UID, Desk, engine_replay, entry_count, make_registry, restored,
                                snapshot)

CASES = [(name, layout) for name in GAMES for layout in (SINGLE, SLOTS)]
OTHER_DECK_UID = "0400C0FFEE00CC"


def started(desk: Desk, rng: random.Random) -> None:
    """A random number of the game's seats join (at most the layout's six) and one of them starts it."""
    players = desk.session.chosen.info.players
    seats = sorted(rng.sample(range(1, 7), rng.choice([n for n in players if n <= 6])))
    desk.join(*seats)
    desk.press(rng.choice(seats), "ok")
    assert desk.session.state is not None


@pytest.mark.parametrize("name, layout", CASES)
def test_every_accepted_input_is_in_the_journal_file_before_it_is_acknowledged(tmp_path, name, layout):
    path = tmp_path / "journal.sqlite"
    desk = Desk(layout, Journal(path), game=name)
    reader = sqlite3.connect(path)   # another connection: sees only what was durably committed
    seen: list[tuple[str, int]] = []
    desk.bus.subscribe(Accepted, lambda event: seen.append(
        (event.what, reader.execute("SELECT count(*) FROM entries").fetchone()[0])))
    rng = random.Random(name)
    started(desk, rng)
    desk.play_until(rng, lambda session: session.over, keep=layout == SLOTS, limit=20_000)
    entries = list(desk.journal.entries())
    assert len(seen) == len(entries) > 10
    for k, (what, count) in enumerate(seen):
        assert count >= k + 1, f"accepted input {k + 1} ({what}) was acknowledged before it was journaled"
        assert entries[k][1] == what
    reader.close()
    desk.journal.close()


@pytest.mark.parametrize("name, layout", CASES)
def test_a_session_restored_at_any_journal_position_equals_the_live_one(name, layout):
    """Restored at the first dozen positions and every 25th (a view may hold the game's whole past: snapshots of
    every position would cost the square of a long game), at a few random ones, and at the end."""
    desk = Desk(layout, game=name)
    rng = random.Random(f"{name} {layout}")
    chosen = {*range(12), *rng.sample(range(12, 2000), 12)}
    live: dict[int, tuple] = {}

    def snapshot_when_chosen(event: Accepted) -> None:
        count = entry_count(desk.journal)
        if count in chosen or count % 25 == 0:
            live[count] = (desk.session.public(), desk.session.table_view()["joined"], desk.session.players)

    desk.bus.subscribe(Accepted, snapshot_when_chosen)
    started(desk, rng)
    desk.play_until(rng, lambda session: session.over, keep=layout == SLOTS, limit=20_000)
    desk.press(desk.session.players[0], "ok")   # back to the lobby: the game is archived in the journal's history
    entries = list(desk.journal.entries())
    assert len(live) >= min(len(entries), 12)
    for k in sorted(live):
        session = restored(entries[:k], layout)
        assert (session.public(), session.table_view()["joined"], session.players) == live[k], k
        assert (session.state, session.players) == engine_replay(list(session.journal.entries())), k   # with a table draw it made
    assert restored(entries, layout).state is None and desk.session.state is None


hostile_uid = st.one_of(
    st.just(STAFF_UID), st.just(OTHER_DECK_UID), st.text("0123456789ABCDEF", min_size=8, max_size=20),
    st.text(max_size=12))


@pytest.mark.parametrize("name", list(GAMES))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(layout=st.sampled_from([SINGLE, SLOTS]), seed=st.integers(0, 2**16), data=st.data())
def test_random_and_hostile_input_never_raises_and_a_refused_input_changes_nothing(name, layout, seed, data):
    registry = make_registry()
    registry.enrol(OTHER_DECK_UID, Tag("card", "other-deck", "X1"))
    desk = Desk(layout, registry=registry, game=name)
    session, rng = desk.session, random.Random(seed)
    started(desk, rng)
    pads = desk.layout.pads
    for _ in range(data.draw(st.integers(5, 60), label="steps")):
        move = data.draw(st.integers(0, 9), label="move")
        before, start = snapshot(session), len(desk.events)
        if move < 5 and session.state is not None and not session.over and not session.staff.open:
            desk.act(rng, keep=rng.random() < 0.5)   # a legal step, so the game gets somewhere
        elif move < 7:   # any card of the game's deck, or any tag, on any pad
            uid = desk.uid(rng.choice(desk.cards)) if rng.random() < 0.5 else data.draw(hostile_uid, label="uid")
            desk.place_uid(data.draw(st.sampled_from(pads), label="pad"), uid)
        elif move == 7:
            desk.remove(data.draw(st.sampled_from(pads), label="pad"))
        else:
            desk.press(data.draw(st.integers(1, 6), label="seat"),
                       data.draw(st.sampled_from(["next", "ok", "back"]), label="button"))
        new = desk.events[start:]
        journaled = [e for e in new if isinstance(e, Accepted)]
        if not journaled:
            assert snapshot(session) == before, new
        else:
            assert snapshot(session)[-1] == before[-1] + len(journaled)
        for event in new:
            if isinstance(event, Refused) and event.seat is not None:
                assert "card" not in dict(event.params) and "player" not in dict(event.params)
    again = restored(list(desk.journal.entries()), layout)
    assert (again.public(), again.table_view()["joined"], again.players) == \
        (session.public(), session.table_view()["joined"], session.players)
