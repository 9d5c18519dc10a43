"""Chevaux rules, hand-worked: each RULINGS line (C1-C4, PR-C1..PR-C4) on small decks whose values are set here.

A test deck card is (id, rarity, height, year): height higher wins (trait 0), the year older wins (trait 1).
"""
from __future__ import annotations

import pytest

from table.assets import deck_data
from table.games.chevaux.rules import (
    ALL_CARDS, BY_FIRST, BY_NO_CARD, BY_RARITY, BY_REDRAW, BY_VALUE, INFO, TIME, Choose, Keep, Reveal, Switch,
    TimeUp, apply, check, legal_actions, make_deck, need, new_game, observe, time_limit, time_up,
)

HEIGHT, YEAR = 0, 1


def deck(*cards: tuple[str, int, int, int]):
    return make_deck({
        "traits": [{"key": "height", "unit": "cm", "wins": "higher"}, {"key": "year", "unit": "year", "wins": "lower"}],
        "cards": [{"id": c, "rarity": r, "height": h, "year": y} for c, r, h, y in cards],
    })


def game(cards, players: int, first: int = 0, minutes: int = 0):
    return new_game(deck(*cards), players, first, {"time_limit": minutes})


def play(state, *actions):
    """Each action checked, then applied."""
    for action in actions:
        refusal = check(state, action)
        assert refusal is None, (action, refusal)
        state = apply(state, action)
    return state


def refused(state, action) -> str:
    refusal = check(state, action)
    assert refusal is not None, action
    return refusal.key


# ---------------------------------------------------------------- C1: the deck is data

def test_the_reference_deck_has_real_breeds_with_rarity_and_directed_characteristics():
    data = deck_data("chevaux")
    reference = make_deck(data)
    assert data["reference_values"] is True
    assert len(reference.cards) >= 32
    assert {reference.rarity[c] for c in reference.cards} == {1, 2, 3, 4}
    assert [(t.key, t.higher) for t in reference.traits] == [("height", True), ("weight", True), ("appeared", False)]
    for row in data["cards"]:
        assert row["fr"] and row["en"] and row["sources"], row["id"]
        assert all(s.startswith("http") for s in row["sources"])
        assert set(row.get("estimated", [])) <= {"height", "weight", "appeared"}


def test_a_deck_row_without_a_number_or_a_rarity_is_refused():
    with pytest.raises(ValueError, match="rarity"):
        deck(("a", 5, 150, 1800))
    with pytest.raises(ValueError, match="number"):
        make_deck({"traits": [{"key": "height", "unit": "cm", "wins": "higher"}],
                   "cards": [{"id": "a", "rarity": 1, "height": "tall"}]})


# ---------------------------------------------------------------- C2 and PR-C4: the walk and the switches

WALK = [("g0", 1, 150, 1800), ("y1", 2, 140, 1700), ("o2", 3, 170, 1900), ("g3", 1, 160, 1600),
        ("r4", 4, 100, 1500), ("y5", 2, 155, 1750), ("o6", 3, 120, 1950), ("g7", 1, 130, 1850)]


def test_a_switch_then_a_second_switch_back_to_an_earlier_characteristic():
    state = play(game(WALK, 4), Reveal(0, "g0"))
    assert state.phase == "choose" and need(state).players == (0,)
    state = play(state, Choose(0, HEIGHT), Reveal(1, "y1"))
    assert (state.phase, state.at) == ("switch", 1)             # yellow beats the chooser's green
    assert refused(state, Switch(1, HEIGHT)) == "same_trait"
    assert refused(state, Reveal(2, "o2")) == "not_your_turn"
    state = play(state, Switch(1, YEAR))
    assert (state.phase, state.at, state.round.chooser) == ("reveal", 2, 1)   # the walk starts again from its left
    state = play(state, Reveal(2, "o2"))
    assert (state.phase, state.at) == ("switch", 2)             # orange beats the new chooser's yellow
    state = play(state, Switch(2, HEIGHT), Reveal(3, "g3"))     # PR-C4: an earlier characteristic again
    # g3 is not rarer than o2; g0 and y1 are not either: back at the chooser, the round is decided on height
    result = state.results[-1]
    assert result.round.chain == ((0, HEIGHT), (1, YEAR), (2, HEIGHT))
    assert (result.winner, result.how) == (2, BY_VALUE)        # 170 cm
    assert state.counts == (1, 1, 5, 1) and (state.phase, state.at) == ("reveal", 2)   # 2 cards dealt each


def test_a_seat_already_revealed_may_switch_again_when_rarer_than_the_new_chooser():
    state = play(game(WALK, 4), Reveal(0, "g0"), Choose(0, HEIGHT), Reveal(1, "o2"))
    assert state.phase == "switch"
    state = play(state, Keep(1), Reveal(2, "y1"))
    assert (state.phase, state.at) == ("switch", 2)             # yellow beats green, the chooser's
    state = play(state, Switch(2, YEAR), Reveal(3, "g3"))
    assert (state.phase, state.at) == ("switch", 1)             # the walk reaches seat 1 again: orange > yellow
    assert legal_actions(state) == [Keep(1), Switch(1, HEIGHT)]
    state = play(state, Switch(1, HEIGHT))
    result = state.results[-1]
    assert result.round.chain == ((0, HEIGHT), (2, YEAR), (1, HEIGHT)) and result.winner == 1


def test_a_card_as_rare_as_the_choosers_may_not_switch():
    state = play(game(WALK, 3), Reveal(0, "y1"), Choose(0, YEAR), Reveal(1, "y5"))
    assert (state.phase, state.at) == ("reveal", 2)
    assert refused(state, Keep(1)) == "not_now_switch"


def test_at_most_three_switches_as_rarity_rises_with_each():
    state = play(game(WALK, 4), Reveal(0, "g0"), Choose(0, HEIGHT), Reveal(1, "y1"), Switch(1, YEAR),
                 Reveal(2, "o2"), Switch(2, HEIGHT), Reveal(3, "r4"), Switch(3, YEAR))
    result = state.results[-1]
    assert [p for p, _ in result.round.chain] == [0, 1, 2, 3]
    assert (result.winner, result.how) == (3, BY_VALUE)        # 1500, the oldest


# ---------------------------------------------------------------- C3 and PR-C1: ties

TIES = [("a2", 2, 150, 1800), ("b2", 2, 150, 1700), ("c1", 1, 140, 1600), ("d1", 1, 100, 1500),
        ("e1", 1, 90, 1400), ("f3", 3, 80, 1300), ("g2", 2, 70, 1200), ("h1", 1, 60, 1100), ("i1", 1, 50, 1000)]


def test_a_rarity_tie_then_a_redraw_tie_then_a_win():
    state = play(game(TIES, 3), Reveal(0, "a2"), Choose(0, HEIGHT), Reveal(1, "b2"), Reveal(2, "c1"))
    # 150 cm twice, both yellow: only seats 0 and 1 re-draw, in any order
    assert state.phase == "redraw" and need(state).players == (0, 1)
    assert refused(state, Reveal(2, "d1")) == "not_your_turn"
    state = play(state, Reveal(1, "d1"))
    assert need(state).players == (0,)
    assert refused(state, Reveal(1, "e1")) == "already_redrawn"
    state = play(state, Reveal(0, "e1"))                       # green and green: again
    assert state.phase == "redraw" and need(state).players == (0, 1)
    state = play(state, Reveal(0, "f3"), Reveal(1, "g2"))      # orange beats yellow
    result = state.results[-1]
    assert (result.winner, result.how) == (0, BY_REDRAW)
    assert result.round.tie.value == (0, 1) and result.round.tie.rarity == (0, 1)
    assert [[(p, c) for p, c in step] for step in result.round.tie.steps] == [[(1, "d1"), (0, "e1")],
                                                                           [(0, "f3"), (1, "g2")]]
    assert state.counts == (7, 0, 2) and result.out == (1,)     # seat 0 takes all 7 cards; seat 1 is out
    assert refused(state, Reveal(0, "h1")) == "card_not_in_stack"   # its 7 cards are the 7 it just won
    state = play(state, Reveal(0, "c1"), Choose(0, HEIGHT))
    assert (state.phase, state.at) == ("reveal", 2)            # seat 1 is skipped
    public = observe(state, None)
    assert public["out"] == [1] and public["current"]["playing"] == [0, 2]


def test_a_tie_on_the_value_goes_to_the_rarest_card():
    cards = [("a", 1, 150, 1800), ("b", 3, 150, 1700), ("c", 2, 150, 1600), ("d", 1, 10, 10), ("e", 1, 10, 10),
             ("f", 1, 10, 10)]
    state = play(game(cards, 3), Reveal(0, "a"), Choose(0, HEIGHT), Reveal(1, "b"), Keep(1), Reveal(2, "c"),
                 Keep(2))
    result = state.results[-1]
    assert (result.winner, result.how, result.round.tie.value, result.round.tie.rarity) == (1, BY_RARITY, (0, 1, 2),
                                                                                              (1,))


def test_a_tied_player_with_no_card_left_loses_the_tie_break():
    cards = [("a", 1, 160, 1800), ("b", 1, 150, 1700), ("c", 1, 140, 1600), ("d", 1, 150, 1500),
             ("e", 1, 150, 1400), ("f", 1, 100, 1300)]
    state = play(game(cards, 3), Reveal(0, "a"), Choose(0, HEIGHT), Reveal(1, "b"), Reveal(2, "c"))
    assert state.counts == (4, 1, 1)
    state = play(state, Reveal(0, "d"), Choose(0, HEIGHT), Reveal(1, "e"), Reveal(2, "f"))
    # 150 cm and 150 cm, both green: seat 1 has revealed its last card, seat 0 wins without a re-draw
    result = state.results[-1]
    assert (result.winner, result.how, result.round.tie.no_card) == (0, BY_NO_CARD, (1,))
    assert (state.phase, state.ended, state.winners, state.counts) == ("over", ALL_CARDS, (0,), (6, 0, 0))


def test_when_no_tied_player_can_redraw_the_first_clockwise_from_the_leader_wins():
    cards = [("a", 1, 150, 1800), ("b", 1, 150, 1700), ("c", 2, 90, 1600), ("d", 2, 80, 1500)]
    state = play(game(cards, 2, first=1), Reveal(1, "a"), Choose(1, HEIGHT), Reveal(0, "b"))
    assert state.phase == "redraw"
    state = play(state, Reveal(0, "c"), Reveal(1, "d"))       # yellow and yellow, and no card left
    result = state.results[-1]
    assert (result.winner, result.how, result.round.tie.no_card) == (1, BY_FIRST, (1, 0))
    assert (state.phase, state.winners, state.counts) == ("over", (1,), (0, 4))


# ---------------------------------------------------------------- C4 and PR-C2: the time limit

CLOCK = [("a", 1, 150, 1800), ("b", 1, 150, 1700), ("c", 1, 140, 1600), ("d", 2, 130, 1500), ("e", 1, 120, 1400),
         ("f", 1, 110, 1300)]


def test_the_clock_ending_mid_round_finishes_the_round_redraws_included():
    state = game(CLOCK, 2, minutes=15)
    assert time_limit(state) == 900.0 and time_up() == TimeUp()
    state = play(state, Reveal(0, "a"), Choose(0, HEIGHT), Reveal(1, "b"))
    assert state.phase == "redraw"
    state = play(state, TimeUp())
    assert state.time_up and state.phase == "redraw" and need(state).players == (0, 1)
    assert time_limit(state) is None and refused(state, TimeUp()) == "no_clock"
    state = play(state, Reveal(1, "c"), Reveal(0, "d"))       # yellow wins the re-draw: the round is finished
    assert state.results[-1].winner == 0
    assert (state.phase, state.ended, state.counts, state.winners) == ("over", TIME, (5, 1), (0,))


def test_time_up_between_rounds_ends_the_game_at_once_and_ties_share():
    state = play(game(CLOCK, 2, minutes=5), Reveal(0, "c"), Choose(0, HEIGHT), Reveal(1, "d"), Keep(1))
    assert state.counts == (4, 2) and not state.pot
    state = play(state, TimeUp())
    assert (state.phase, state.ended, state.winners) == ("over", TIME, (0,))
    state = play(game(CLOCK, 2, minutes=5), TimeUp())
    assert state.winners == (0, 1)                            # 3 cards each: both win


def test_without_a_time_limit_no_clock_runs():
    state = game(CLOCK, 2, minutes=0)
    assert time_limit(state) is None and refused(state, TimeUp()) == "no_clock"
    assert INFO.defaults() == {"time_limit": 15}
    assert TimeUp() not in legal_actions(game(CLOCK, 2, minutes=15))   # the table's, never a player's


# ---------------------------------------------------------------- PR-C3 and what the table knows

def test_leftover_cards_are_set_aside_and_a_known_stack_cannot_hold_an_unseen_card():
    cards = [("a", 1, 150, 1800), ("b", 1, 140, 1700), ("c", 1, 130, 1600), ("d", 1, 160, 1500), ("e", 1, 90, 1)]
    state = game(cards, 2)
    assert state.counts == (2, 2) and observe(state, None)["aside"] == 1    # 5 cards, 2 each, 1 aside unseen
    state = play(state, Reveal(0, "a"), Choose(0, HEIGHT))
    assert refused(state, Reveal(1, "a")) == "card_revealed"
    state = play(state, Reveal(1, "b"))                       # seat 0 wins a and b: its stack holds c?, a, b
    assert refused(state, Reveal(1, "a")) == "not_your_turn"
    assert refused(state, Reveal(0, "zz")) == "card_not_in_game"
    state = play(state, Reveal(0, "c"), Choose(0, HEIGHT), Reveal(1, "d"))   # seat 1 wins c and d
    assert state.counts == (2, 2) and state.at == 1
    assert refused(state, Reveal(1, "a")) == "card_in_other_stack"
    assert refused(state, Reveal(1, "e")) == "card_not_in_stack"            # both its cards are known: c and d
    assert {a.card for a in legal_actions(state)} == {"c", "d"}
    play(state, Reveal(1, "d"))


def test_the_leader_must_choose_before_the_walk_goes_on():
    state = play(game(WALK, 3), Reveal(0, "g0"))
    assert refused(state, Reveal(0, "g3")) == "choose_first"
    assert refused(state, Reveal(1, "g3")) == "not_your_turn"
    assert refused(state, Choose(1, HEIGHT)) == "not_now_choose"
    assert refused(state, Choose(0, 7)) == "no_such_trait"
    assert legal_actions(state) == [Choose(0, HEIGHT), Choose(0, YEAR)]


def test_a_finished_game_refuses_everything():
    cards = [("a", 1, 150, 1800), ("b", 1, 140, 1700)]
    state = play(game(cards, 2), Reveal(0, "a"), Choose(0, HEIGHT), Reveal(1, "b"))
    assert state.phase == "over" and need(state).done and legal_actions(state) == []
    assert refused(state, Reveal(0, "a")) == "game_over"


@pytest.mark.parametrize("players", [1, 9])
def test_player_counts_outside_two_to_eight_are_refused(players):
    with pytest.raises(ValueError):
        game(WALK, players)
