"""Festival bots: their choices from a seat's view (TABLE-PROTOCOLS 4.4), and whole games at a table with one pad
per seat and at one with several (the pad says the face)."""
from __future__ import annotations

import random

import pytest

from table.assets import deck_data
from table.registry import GAMES
from table.games.festival.bots import choose, face_up
from table.games.festival.rules import Draw, Face, Keep, apply, check, legal_actions, make_deck, new_game, observe
from table.games.kit.codec import from_json
from table.layout import load_layout
from table.sim.simulated_table import SimulatedTable
from table.storage.journal import Journal

DECK = make_deck(deck_data("festival"))
RNG = random.Random(0)


def run(state, *actions):
    for action in actions:
        assert check(state, action) is None, (action, check(state, action))
        state = apply(state, action)
    return state


def turn(state, packet: str, *keeps):
    state = run(state, *(Draw(state.first, c) for c in packet.split()))
    return run(state, *(Keep(p, c, up) for p, c, up in keeps))


@pytest.mark.parametrize("card, held, up", [
    ("MI3a", ["MI5a"], True),            # 3 or less: face up, it competes for first player
    ("MI9a", [], False),                 # two stars: face down
    ("DA6a", ["DA4a"], False),           # it would show a majority chase
    ("DA6a", ["MI4a"], True),            # a new profession
])
def test_the_face(card, held, up):
    assert face_up(card, held) is up


def test_the_first_player_keeps_the_card_worth_most_to_it():
    # seat 0 holds four professions face down: a clown makes five (+10 for the set, +6 for the clowns)
    state = new_game(DECK, 4, 0)
    for packet, mine in (("MI4a DA2b GL6a TA7a CL6a", "MI4a"), ("MI5a DA4a GL4a TA5a CL7a", "DA4a"),
                         ("MI6a DA6a GL5a TA6a CL4a", "GL5a"), ("MI7a DA7a GL7a TA4a CL2a", "TA4a")):
        rest = [c for c in packet.split() if c != mine]
        state = turn(state, packet, (0, mine, False), (1, rest[0], False), (2, rest[1], False), (3, rest[2], False))
    state = run(state, *(Draw(0, c) for c in "MI9a DA9a GL9a TA9a CL5a".split()))
    action = choose(observe(state, 0), legal_actions(state), RNG)
    assert (action.player, action.card) == (0, "CL5a")


def test_the_giver_hands_the_packet_to_the_seat_it_helps_least():
    # turn 1: seats 1 and 2 show a minstrel each, seat 3 a gladiator; seat 1 (the 1) is first in turn 2 and must
    # serve seats 2 and 3 first. The rest is four minstrels: a second one takes seat 2 from a tie (4 gold) to
    # most (6), +2; a first one puts seat 3 in a three-way tie for most, +4. Seat 1 hands the packet to seat 2.
    state = turn(new_game(DECK, 4, 0), "MI1a MI2a DA7a GL7a TA7a",
                 (0, "DA7a", False), (1, "MI1a", True), (2, "MI2a", True), (3, "GL7a", True))
    assert state.first == 1 and state.priority == (1, 2, 3)
    state = run(state, *(Draw(1, c) for c in "MI4a MI5a MI6a MI7a DA6a".split()), Keep(1, "DA6a", False))
    legal = [a for a in legal_actions(state) if a.up is None]
    assert {a.player for a in legal} == {2, 3}
    assert choose(observe(state, 1), legal, RNG).player == 2


def test_with_the_pads_the_face_comes_with_the_card_and_without_them_from_the_prompt():
    state = run(new_game(DECK, 4, 0), *(Draw(0, c) for c in "MI1a DA9a GL6a TA7a CL7a".split()))
    pads = [a for a in legal_actions(state) if a.up is not None]
    action = choose(observe(state, 0), pads, RNG)
    assert action.up is face_up(action.card, [])
    state = run(state, Keep(0, "MI1a", None))
    assert choose(observe(state, 0), legal_actions(state), RNG) == Face(0, True)


def test_in_the_simplified_game_the_highest_number_is_kept():
    state = run(new_game(DECK, 5, 0, {"simplified": True}), *(Draw(0, c) for c in
                                                               "MI1a DA2a GL3a TA4a CL5a MI2a".split()))
    assert choose(observe(state, 0), legal_actions(state), RNG).card == "CL5a"


def test_bots_play_a_whole_game_at_a_table_whose_pads_say_the_face():
    sim = SimulatedTable(load_layout("sim-6-slots"), Journal(), game="festival", seed=3)
    bots = GAMES["festival"].bots.Players(sim, [1, 2, 3, 4, 5], random.Random(3))
    bots.join_and_start()
    final = bots.play()
    actions = [from_json(GAMES["festival"].rules.ACTIONS, data) for _, kind, data in sim.session.journal.entries()
               if kind == "action"]
    sim.close()
    assert final["winners"]
    keeps = [a for a in actions if isinstance(a, Keep)]
    assert len(keeps) == 50 and all(a.up is not None for a in keeps)
    assert {a.up for a in keeps} == {False, True} and not any(isinstance(a, Face) for a in actions)
