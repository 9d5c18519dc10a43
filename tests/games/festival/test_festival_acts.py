"""Festival at the table: physical acts to actions and back, re-reads, the face prompt and the pads that say the
face, the table gate between turns, and a turn played through a live session with nothing secret on show."""
from __future__ import annotations

import json
import random

from hypothesis import given, settings, strategies as st

from table.assets import deck_data
from table.events import Accepted, ButtonDown, CardPlaced, CardRemoved, EventBus, PadSeenEmpty, Refused
from table.games.contract import ButtonPress, CardOnPad, PadShape, Refusal
from table.games.festival.acts import acts_for, interpret, must_clear, prompt
from table.games.festival.rules import Draw, Face, Keep, apply, check, legal_actions, make_deck, need, new_game
from table.layout import load_layout
from table.session.table_session import TableSession
from table.storage.journal import Journal
from table.storage.registry import Tag, TagRegistry, enrol_simulated

DECK = make_deck(deck_data("festival"))
SINGLE, SLOTS = PadShape(1, 1), PadShape(4, 4)


def run(state, *actions):
    for action in actions:
        assert check(state, action) is None, (action, check(state, action))
        state = apply(state, action)
    return state


def drawn(packet: str = "MI1a DA2a GL3a TA4a CL5a", first: int = 0):
    """A 4-player game whose first player has drawn `packet`."""
    state = new_game(DECK, 4, first)
    return run(state, *(Draw(first, c) for c in packet.split()))


def tap(state, card, player, slot=None):
    return interpret(state, CardOnPad(card, player, slot))


@settings(max_examples=20, deadline=None)
@given(players=st.integers(4, 5), simplified=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_every_legal_action_comes_back_from_its_acts_at_one_table_or_the_other(players, simplified, seed):
    rng = random.Random(seed)
    state = new_game(DECK, players, seed % players, {"simplified": simplified})
    while not need(state).done:
        for action in legal_actions(state):
            made = [shape for shape in (SINGLE, SLOTS) if acts_for(state, action, shape)]
            if isinstance(action, Keep):
                assert made == ([SINGLE] if action.up is None else [SLOTS])
            else:
                assert made == [SINGLE, SLOTS]
            acts = acts_for(state, action, made[0])
            if isinstance(action, Face):
                options = prompt(state).options
                assert acts[-1] == ButtonPress(action.player, "ok") and len(acts) - 1 == options.index(action)
            else:
                assert [interpret(state, act) for act in acts] == [action]
        state = apply(state, rng.choice(legal_actions(state)))


def test_the_packet_is_tapped_by_the_first_player_and_a_card_drawn_read_again_is_no_act():
    state = new_game(DECK, 4, 2)
    assert tap(state, "MI1a", 2) == Draw(2, "MI1a")
    state = run(state, Draw(2, "MI1a"))
    assert tap(state, "MI1a", 2) is None
    other = tap(state, "DA1a", 1)
    assert other == Draw(1, "DA1a") and check(state, other).key == "not_your_turn"
    assert tap(state, "MI8a", 2) == Draw(2, "MI8a") and check(state, Draw(2, "MI8a")).key == "card_not_in_play"


def test_the_card_kept_says_its_face_by_the_pad_or_waits_for_the_prompt():
    state = drawn()
    assert tap(state, "DA2a", 0) == Keep(0, "DA2a", None)
    assert tap(state, "DA2a", 0, slot=0) == Keep(0, "DA2a", False)
    assert tap(state, "DA2a", 0, slot=1) == Keep(0, "DA2a", True)
    assert tap(state, "DA2a", 0, slot=3) == Keep(0, "DA2a", True)
    assert prompt(state) is None
    state = run(state, Keep(0, "DA2a", None))
    open_prompt = prompt(state)
    assert open_prompt.player == 0 and open_prompt.options == (Face(0, False), Face(0, True))
    assert [key for key, _ in open_prompt.labels] == ["face_down", "face_up"] and open_prompt.start == 0
    assert acts_for(state, Face(0, True), SINGLE) == (ButtonPress(0, "next"), ButtonPress(0, "ok"))
    assert tap(state, "DA2a", 0) is None                                   # the card kept, read again
    assert check(state, tap(state, "MI1a", 0)).key == "choose_face_first"
    assert interpret(state, ButtonPress(1, "ok")) == Refusal.of("no_choice_now", player=1)   # not its prompt


def test_a_receiver_tap_is_its_keep_and_a_card_kept_earlier_is_never_an_act_again():
    state = run(drawn(), Keep(0, "DA2a", True))
    assert tap(state, "GL3a", 2, slot=1) == Keep(2, "GL3a", True)
    state = run(state, Keep(2, "GL3a", True), Keep(1, "TA4a", False), Keep(3, "MI1a", True))
    state = run(state, *(Draw(state.first, c) for c in "MI2a DA1a GL1a TA1a CL1a".split()))
    assert tap(state, "GL3a", 2) is None and tap(state, "TA4a", 1) is None
    assert check(state, tap(state, "CL5a", 3)).key == "not_in_packet"    # last turn's discard


def test_the_centre_is_not_used():
    assert tap(new_game(DECK, 4, 0), "MI1a", None) == Refusal.of("centre_unused", card="MI1a")


def test_the_table_gate_closes_between_turns_only():
    state = drawn()
    assert not must_clear(new_game(DECK, 4, 0)) and not must_clear(state)
    state = run(state, Keep(0, "DA2a", True), Keep(2, "GL3a", True), Keep(1, "TA4a", False))
    assert not must_clear(state)
    state = run(state, Keep(3, "MI1a", True))
    assert must_clear(state)
    assert not must_clear(run(state, Draw(state.first, "MI2a")))


# ---------------------------------------------------------------- through a live session


class Table:
    """A session at a simulated layout, fed presence and button events directly; seats 1-4 play."""

    def __init__(self, layout: str) -> None:
        self.layout = load_layout(layout)
        self.registry = TagRegistry()
        enrol_simulated(self.registry, "festival", list(DECK.cards))
        self.journal = Journal(":memory:")
        for seat in (1, 2, 3, 4):
            self.journal.append("join", {"seat": seat})
        self.journal.append("start", {"game": "festival", "options": {}, "seats": [1, 2, 3, 4], "first": 0})
        self.bus = EventBus()
        self.session = TableSession(self.layout, self.registry, self.journal, self.bus)
        for pad in self.layout.pads:                  # restored from its journal: the pads seen bare first
            self.bus.publish(PadSeenEmpty(pad))
        self.bus.dispatch()
        self.heard: list = []
        self.bus.subscribe(Accepted, self.heard.append)
        self.bus.subscribe(Refused, self.heard.append)

    def tap(self, seat: int, card: str, pad: int = 0):
        name = self.layout.seats[seat - 1].pads[pad]
        self.heard.clear()
        uid = self.registry.uid_of(Tag("card", "festival", card))
        self.bus.publish(CardPlaced(name, uid))
        self.bus.publish(CardRemoved(name, uid))
        self.bus.dispatch()
        return self.heard[0] if self.heard else None

    def press(self, seat: int, button: str):
        self.heard.clear()
        self.bus.publish(ButtonDown(seat, button))
        self.bus.dispatch()
        return self.heard[0] if self.heard else None


def test_a_turn_at_single_pads_with_the_face_prompt_and_nothing_secret_on_show():
    table = Table("sim-6-single")
    assert isinstance(table.tap(1, "MI1a"), Accepted)
    assert table.tap(1, "MI1a") is None                                   # a card drawn, read again
    for card in "DA2a GL3a TA4a CL5a".split():
        assert isinstance(table.tap(1, card), Accepted)
    assert isinstance(table.tap(1, "DA2a"), Accepted)                     # the packet is complete: the card kept
    assert table.session.prompt_view()["player"] == 0
    assert isinstance(table.press(1, "ok"), Accepted)                     # face down
    assert isinstance(table.tap(2, "GL3a"), Accepted)                     # seat 2 receives the packet
    table.press(2, "next")
    table.press(2, "ok")                                                  # face up
    state = table.session.state
    assert [(c.player, c.card, c.up) for c in state.choices] == [(0, "DA2a", False), (1, "GL3a", True)]
    shown = json.dumps(table.session.table_view())
    assert "GL3a" in shown and not any(card in shown for card in ("DA2a", "MI1a", "TA4a", "CL5a"))
    assert isinstance(table.tap(1, "TA4a"), Refused)                      # seat 1 has chosen this turn


def test_at_slot_pads_the_pad_says_the_face():
    table = Table("sim-6-slots")
    for card in "MI1a DA2a GL3a TA4a CL5a".split():
        assert isinstance(table.tap(1, card, pad=2), Accepted)
    assert isinstance(table.tap(1, "DA2a", pad=1), Accepted)              # the 2nd pad: face up
    assert table.session.prompt is None
    assert isinstance(table.tap(3, "GL3a", pad=0), Accepted)              # the 1st pad: face down
    state = table.session.state
    assert [(c.player, c.card, c.up) for c in state.choices] == [(0, "DA2a", True), (2, "GL3a", False)]
