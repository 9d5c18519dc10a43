"""Input the session sees but must not act on.

The pad gate after a restart: a card found lying on a pad was there before the cut (the card a seat acted
with last, or one the table refused); until that pad is seen empty, it is no act (it never takes a new
role). And an event from a pad or seat the layout does not have is logged and dropped.
"""
from __future__ import annotations

import random

from table.assets import deck_data
from table.events import Accepted, ButtonDown, CardPlaced, CardRemoved, EventBus, PadSeenEmpty, Refused
from table.registry import GAMES
from table.games.kit.codec import to_json
from table.layout import load_layout
from table.session.table_session import TableSession
from table.storage.journal import Journal
from table.storage.registry import Tag, TagRegistry, enrol_simulated

LAYOUT = load_layout("sim-6-single")
KITTY = GAMES["kitty"]


def registered_kitty(seed: int = 3):
    """A Kitty journal (3 seats) up to the passes, and the card seat 1 registered last."""
    rules = KITTY.rules
    journal = Journal(":memory:")
    for seat in (1, 2, 3):
        journal.append("join", {"seat": seat})
    journal.append("start", {"game": "kitty", "options": {}, "seats": [1, 2, 3], "first": 0})
    state, rng, last = rules.new_game(GAMES["kitty"].deck, 3, 0, KITTY.info.defaults()), random.Random(seed), None
    while state.phase != "pass":
        action = rng.choice(rules.legal_actions(state))
        if type(action).__name__ == "Register" and action.player == 0:
            last = action.card
        journal.append("action", to_json(action))
        state = rules.apply(state, action)
    return journal, state, last


def session_on(journal: Journal):
    registry = TagRegistry()
    enrol_simulated(registry, "pairs", [c["id"] for c in deck_data("pairs")["cards"]])
    bus = EventBus()
    heard = []
    bus.subscribe(Accepted, heard.append)
    bus.subscribe(Refused, heard.append)
    return TableSession(LAYOUT, registry, journal, bus), bus, registry, heard


def test_the_last_registered_card_read_again_after_a_restart_is_no_pass():
    journal, state, last = registered_kitty()
    session, bus, registry, heard = session_on(journal)
    pad = LAYOUT.seats[0].pads[0]
    uid = registry.uid_of(Tag("card", "pairs", last))
    bus.publish(CardPlaced(pad, uid))
    bus.dispatch()
    assert session.state == state and heard == [] and session.message is None
    # lifted, then tapped again on purpose: now it is the seat's pass
    bus.publish(CardRemoved(pad, uid))
    bus.publish(CardPlaced(pad, uid))
    bus.dispatch()
    assert [type(e) for e in heard] == [Accepted]
    assert KITTY.rules.observe(session.state, 0)["my_pass"] == last


def test_a_pad_seen_empty_after_the_restart_opens_the_gate():
    journal, state, last = registered_kitty(4)
    session, bus, registry, heard = session_on(journal)
    pad = LAYOUT.seats[0].pads[0]
    bus.publish(PadSeenEmpty(pad))
    bus.publish(CardPlaced(pad, registry.uid_of(Tag("card", "pairs", last))))
    bus.dispatch()
    assert [type(e) for e in heard] == [Accepted]


def test_any_card_found_lying_after_a_restart_is_no_act_until_laid_again():
    """Another card on the pad may be one the table refused before the cut (say a bid laid while the lots
    were shown, left there): the restart must not turn it into the seat's act. Laid again, it is read."""
    journal, state, last = registered_kitty(5)
    session, bus, registry, heard = session_on(journal)
    pad = LAYOUT.seats[0].pads[0]
    other = registry.uid_of(Tag("card", "pairs", next(c for c in sorted(KITTY.rules.observe(state, 0)["hand"])
                                                      if c != last)))
    bus.publish(CardPlaced(pad, other))
    bus.dispatch()
    assert session.state == state and heard == []
    bus.publish(CardRemoved(pad, other))
    bus.publish(CardPlaced(pad, other))
    bus.dispatch()
    assert [type(e) for e in heard] == [Accepted]
    assert KITTY.rules.observe(session.state, 0)["my_pass"] == registry.lookup(other).card


def test_an_event_from_a_pad_or_seat_the_layout_lacks_is_dropped(caplog):
    """Logged and dropped: never the end of the event loop, never a change."""
    journal, state, _ = registered_kitty(6)
    session, bus, registry, heard = session_on(journal)
    bus.publish(CardPlaced("seat9-pad", registry.uid_of(Tag("card", "pairs", "5a"))))
    bus.publish(ButtonDown(12, "ok"))
    bus.publish(ButtonDown(1, "jump"))
    bus.dispatch()
    assert session.state == state and heard == []
    assert sum("layout does not have" in r.getMessage() for r in caplog.records) == 3
