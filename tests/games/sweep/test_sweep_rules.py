"""Sweep rules: the text's example, a hand-worked case per ruling (P1, PR-S1, PR-S2, PR-V3), refusals."""
from __future__ import annotations

import pytest

from table.assets import deck_data
from table.games.contract import Need
from table.games.sweep import rules
from table.games.sweep.rules import (
    INFO, DrawFirst, Play, Register, Show, Take, apply, check, legal_actions, need, new_game, observe,
)

DECK = rules.make_deck(deck_data("pairs"))


def ok(state, action):
    """Apply `action` after checking it is legal and listed."""
    refusal = check(state, action)
    assert refusal is None, refusal
    assert action in legal_actions(state)
    return apply(state, action)


def start(hands, first, centre, options=None, dealer=0):
    """A deal with these registered hands, `first` drawn to play first, and `centre` shown."""
    state = new_game(DECK, len(hands), dealer, options)
    for player, hand in enumerate(hands):
        for card in hand:
            state = ok(state, Register(player, card))
    state = ok(state, DrawFirst(first))
    for card in centre:
        state = ok(state, Show(card))
    return state


def play(state, *cards):
    """Each seat in turn plays the next of `cards`."""
    for card in cards:
        state = ok(state, Play(rules.turn(state), card))
    return state


def refused(state, action, key):
    refusal = check(state, action)
    assert refusal is not None and refusal.key == key, refusal
    assert action not in legal_actions(state)


def held(state, player):
    """A player's ranks, sorted."""
    ranks = [DECK.rank(c) for c in state.hands[player]]
    for pool in state.pools:
        ranks += [pool.rank] * pool.shares[player]
    return sorted(ranks)


THREE = (("4a", "2a", "3b", "10a", "10b"),
         ("7a", "6a", "8a", "10c", "10d"),
         ("7b", "6b", "8b", "10e", "10f"))


# ---------------------------------------------------------------- setup

def test_info_and_options():
    assert INFO.name == "sweep" and INFO.deck == "pairs" and INFO.players == range(3, 7)
    assert INFO.defaults() == {"match": False}
    assert INFO.pads.seat_pads is None and INFO.pads.centre_pads is None and INFO.pads.buttons == ("ok",)


@pytest.mark.parametrize("players", [2, 7])
def test_player_count_outside_three_to_six_is_refused(players):
    with pytest.raises(ValueError):
        new_game(DECK, players, 0, {"match": False})


def test_registration_is_sealed_then_the_first_player_is_a_table_draw():
    state = new_game(DECK, 3, 1, {"match": False})
    assert need(state) == Need(players=(0, 1, 2), simultaneous=True)
    for card in THREE[1]:
        state = ok(state, Register(1, card))
    assert need(state) == Need(players=(0, 2), simultaneous=True)
    view = observe(state, None)
    assert view["registered"] == [0, 5, 0] and view["expected"] == 5
    assert not any(c in str(view) for c in THREE[1])
    assert observe(state, 1)["hand"] == sorted(THREE[1])
    for player in (0, 2):
        for card in THREE[player]:
            state = ok(state, Register(player, card))
    assert need(state) == Need(chance=True, outcomes=("0", "1", "2"), by=None, table_draw=True)
    assert legal_actions(state) == [DrawFirst(0), DrawFirst(1), DrawFirst(2)]
    state = ok(state, DrawFirst(2))
    # the dealer (the starting seat) shows the centre; any card not registered may come up
    assert need(state).chance and need(state).by == 1 and not need(state).table_draw
    assert set(need(state).outcomes) == set(DECK.ranks) - {c for h in THREE for c in h}
    view = observe(state, None)
    assert (view["first_player"], view["first_reason"], view["order"]) == (2, "draw", [2, 0, 1])


# ---------------------------------------------------------------- the text's example and P1

def test_text_example_the_lowest_card_a_4_takes_both_9s():
    """"si la plus petite carte est un 4, et la plus grande valeur au centre est deux 9, alors ce joueur
    prend les deux 9" - then the 4 lies in the centre, where the higher cards take it."""
    state = start(THREE, 0, ("9a", "9b", "5a", "1a", "3a"))
    state = play(state, "4a", "8a", "10e")
    steps = state.round.last.steps
    assert [(s.rank, s.players, s.rule, set(s.targets)) for s in steps] == [
        (4, (0,), "highest", {"9a", "9b"}),
        (8, (1,), "lower", {"5a", "1a", "3a", "4a"}),      # the 4 joined the centre after capturing
        (10, (2,), "lower", {"8a"}),
    ]
    assert held(state, 0) == [2, 3, 9, 9, 10, 10]
    assert held(state, 1) == [1, 3, 4, 5, 6, 7, 10, 10]
    assert held(state, 2) == [6, 7, 8, 8, 10]
    assert state.round.discard == {"10e"}
    assert state.round.last.last_taker == 2


def test_the_lowest_card_takes_the_highest_rank_even_when_it_is_lower_than_itself():
    state = start(THREE, 1, ("2b", "3c", "1a", "5a", "3a"))
    state = play(state, "8a", "10e", "10a")
    assert state.phase == "pick"                    # the 10s tie over 1, 2, 3, 3, 8
    step = state.round.work.steps[0]
    assert (step.rank, step.rule, step.targets) == (8, "highest", ("5a",))


def test_P1_captured_cards_go_into_the_hand_and_are_played_again():
    state = start(THREE, 0, ("9a", "9b", "5a", "1a", "3a"))
    state = play(state, "4a", "8a", "10e")
    assert {"9a", "9b"} <= state.hands[0] and "4a" in state.hands[1] and "8a" in state.hands[2]
    assert state.round.first == 2 and state.round.reason == "last_taker"   # seat 2 took the last card
    for card in ("9c", "9d", "9e", "5b", "5c"):
        state = ok(state, Show(card))
    state = play(state, "8a", "9a", "4a")           # each seat plays a card it captured
    steps = state.round.last.steps
    assert [(s.rank, s.players, set(s.targets)) for s in steps] == [
        (4, (1,), {"9c", "9d", "9e"}), (8, (2,), {"5b", "5c", "4a"}), (9, (0,), {"8a"})]
    assert state.round.first == 0
    assert [rules.hand_count(state, p) for p in range(3)] == [6, 10, 7]


def test_P1_plays_go_in_turn_from_the_first_player():
    state = start(THREE, 1, ("9a", "9b", "5a", "1a", "3a"))
    assert need(state) == Need(players=(1,))
    refused(state, Play(0, "4a"), "not_your_turn")
    state = ok(state, Play(1, "7a"))
    assert need(state) == Need(players=(2,))
    refused(state, Play(1, "6a"), "not_your_turn")
    view = observe(state, None)
    assert view["played"] == [[1, "7a"]] and view["turn"] == 2 and view["hand_counts"] == [5, 4, 5]


def test_P1_a_tie_takes_one_card_at_a_time_from_whoever_played_first():
    # 4 (seat 0) takes the 9s; the 7s of seats 2 then 1 (seat 2 played first) share 5, 1, 3, 4
    state = start(THREE, 2, ("9a", "9b", "5a", "1a", "3a"))
    state = play(state, "7b", "4a", "7a")
    assert state.phase == "pick"
    assert need(state) == Need(players=(2,))
    assert set(rules.legal_actions(state)) == {Take(2, c) for c in ("5a", "1a", "3a", "4a")}
    state = ok(state, Take(2, "5a"))
    assert need(state) == Need(players=(1,))
    state = ok(state, Take(1, "1a"))
    state = ok(state, Take(2, "4a"))
    # one card left: seat 1 takes it without a pick
    assert state.phase == "centre"
    step = state.round.last.steps[1]
    assert [(t[0], t[1], t[3]) for t in step.taken] == [
        (2, "5a", "chose"), (1, "1a", "chose"), (2, "4a", "chose"), (1, "3a", "auto")]
    assert state.round.last.last_taker == 1 and state.round.first == 1
    assert state.round.discard == {"7a", "7b"}


def test_P1_a_seat_with_an_empty_hand_skips_the_round():
    state = new_game(DECK, 3, 0, {"match": False})
    for player, hand in enumerate(THREE):
        for card in hand:
            state = ok(state, Register(player, card))
    # seat 1 has played out its hand (as after five rounds without a capture)
    state = rules._evolve(state, hands=(state.hands[0], frozenset(), state.hands[2]))
    state = ok(state, DrawFirst(0))
    assert state.round.order == (0, 2)
    for card in ("9a", "9b", "5a", "1a", "3a"):
        state = ok(state, Show(card))
    view = observe(state, None)
    assert view["order"] == [0, 2] and view["skipped"] == [1]
    state = play(state, "4a", "8b")
    assert state.round.last.skipped == (1,) and state.round.last.played == ((0, "4a"), (2, "8b"))


@pytest.mark.parametrize("players, count", [(3, 8), (4, 7), (5, 6), (6, 5)])
def test_P1_rounds_per_player_count_use_up_the_pile(players, count):
    assert rules.ROUNDS[players] == count
    assert 55 - 5 * players == 5 * count


def test_P1_score_counts_held_cards_by_majority_ties_all_score():
    # ranks 1..3: seat 0 holds two 3s, seat 1 one 3; the 2s tie; nobody holds a 1
    scorers, points = rules.score((1, 2, 3), ((0, 1, 2), (0, 1, 1), (0, 0, 0)))
    assert scorers == ((), (0, 1), (0,))
    assert points == (5, 2, 0)


# ---------------------------------------------------------------- PR-S1: the tied player chooses

def test_PR_S1_the_tied_player_chooses_among_the_targets_left():
    state = start(THREE, 1, ("9a", "9b", "5a", "1a", "3a"))
    state = play(state, "7a", "7b", "4a")
    assert rules.turn(state) == 1 and observe(state, None)["capture"]["picker"] == 1
    refused(state, Take(1, "9a"), "not_a_target")     # taken by the 4 already
    refused(state, Take(1, "7b"), "not_a_target")     # a tied card itself
    refused(state, Take(2, "5a"), "not_your_turn")
    state = ok(state, Take(1, "3a"))                  # not the highest: the player chooses
    capture = observe(state, None)["capture"]
    assert capture["tie"]["taken"] == [{"player": 1, "card": "3a", "rank": 3, "how": "chose"}]
    assert capture["left"] == ["1a", "4a", "5a"] and capture["picker"] == 2


def test_PR_S1_the_pick_is_automatic_when_one_rank_is_left_and_the_copies_pool():
    # the 3s tie at the lowest rank: they share the three 9s one at a time, no pick (one rank)
    hands = (("3a", "2a", "8a", "10a", "10b"),
             ("3b", "6a", "8b", "10c", "10d"),
             ("7b", "6b", "8c", "10e", "10f"))
    state = start(hands, 0, ("9a", "9b", "9c", "2b", "1a"))
    state = play(state, "3a", "3b", "7b")
    assert state.phase == "centre"
    first = state.round.last.steps[0]
    assert [(t[0], t[1], t[2], t[3]) for t in first.taken] == [
        (0, None, 9, "auto"), (1, None, 9, "auto"), (0, None, 9, "auto")]
    # which 9 each seat took is not known: either may play any 9 while its share lasts
    assert state.pools == (rules.Pool(frozenset({"9a", "9b", "9c"}), 9, (2, 1, 0)),)
    assert held(state, 0).count(9) == 2 and held(state, 1).count(9) == 1
    assert observe(state, 1)["loose"] == [{"rank": 9, "count": 1, "cards": ["9a", "9b", "9c"]}]
    assert state.round.first == 2                     # the 7 took the last cards (1, 2, 3s)
    for card in ("5a", "5b", "5c", "4a", "4b"):
        state = ok(state, Show(card))
    state = ok(state, Play(2, "8c"))
    state = ok(state, Play(0, "9b"))
    state = ok(state, Play(1, "9a"))
    # what is left of the pool (9c) is seat 0's
    assert state.pools == () or all(9 != p.rank for p in state.pools)
    assert "9c" in state.hands[0]


def test_PR_S1_a_pool_card_is_refused_once_the_seat_has_played_its_share():
    hands = (("3a", "2a", "8a", "10a", "10b"),
             ("3b", "6a", "8b", "10c", "10d"),
             ("7b", "6b", "8c", "10e", "10f"))
    state = start(hands, 0, ("9a", "9b", "9c", "2b", "1a"))
    state = play(state, "3a", "3b", "7b")
    for card in ("5a", "5b", "5c", "4a", "4b"):
        state = ok(state, Show(card))
    state = play(state, "8c", "9b")                  # seat 0 plays one of its two 9s
    assert state.pools == (rules.Pool(frozenset({"9a", "9c"}), 9, (1, 1, 0)),)
    assert check(state, Play(1, "9a")) is None and check(state, Play(1, "9c")) is None
    state = ok(state, Play(1, "9c"))                 # seat 1's share is gone: the last 9 is seat 0's
    assert all(pool.rank != 9 for pool in state.pools)
    assert "9a" in state.hands[0] and not any(DECK.rank(c) == 9 for c in state.hands[1])
    crafted = rules._evolve(state, phase="play", played=(), pools=(rules.Pool(frozenset({"9d", "9e"}), 9, (0, 2, 0)),),
                            round=rules.Round(3, 0, "last_taker", (0, 1, 2)))
    refused(crafted, Play(0, "9d"), "card_not_held")


# ---------------------------------------------------------------- PR-V3 and PR-S2: who wins

def ending(hands, totals=None, match=False):
    """A deal's end with these final hands (and match totals before it)."""
    players = len(hands)
    state = new_game(DECK, players, 0, {"match": match})
    state = rules._evolve(state, hands=tuple(frozenset(h) for h in hands), pile=bytes(55), phase="play")
    if totals is not None:
        d = state.deal
        state = rules._evolve(state, deal=rules.Deal(d.match, d.number, d.dealer, totals))
    return rules._end_deal(state)


def test_PR_V3_tied_players_share_the_win():
    state = ending([{"10a"}, {"10b"}, {"1a"}])
    assert state.phase == "over" and state.deal.totals == (10, 10, 1) and state.deal.winners == (0, 1)
    view = observe(state, None)
    assert view["winners"] == [0, 1] and view["totals"] == [10, 10, 1]
    ten = view["scores"]["ranks"][9]
    assert ten == {"rank": 10, "counts": [1, 1, 0], "most": 1, "scorers": [0, 1], "points": 10}
    assert view["scores"]["ranks"][1]["scorers"] == [] and view["scores"]["ranks"][1]["points"] == 0


def test_PR_S2_several_reach_150_the_highest_total_wins():
    state = ending([{"10a"}, {"10b"}, {"1a"}], totals=(145, 141, 100), match=True)
    assert state.phase == "over" and state.deal.totals == (155, 151, 101) and state.deal.winners == (0,)


def test_PR_S2_equal_highest_totals_share():
    state = ending([{"10a"}, {"10b"}, {"1a"}], totals=(141, 141, 149), match=True)
    assert state.deal.totals == (151, 151, 150) and state.deal.winners == (0, 1)


def test_PR_S2_below_150_the_match_deals_again_with_the_next_dealer():
    state = ending([{"10a"}, {"10b"}, {"1a"}], totals=(100, 0, 0), match=True)
    assert state.phase == "register" and state.deal.number == 2 and state.deal.dealer == 1
    assert state.deal.totals == (110, 10, 1) and state.deal.history == ((10, 10, 1),)
    assert state.hands == (frozenset(),) * 3 and len(rules.pile_cards(state)) == 55
    view = observe(state, None)
    assert view["scores"]["points"] == [10, 10, 1] and view["winners"] == [] and view["deal"] == 2


def test_without_the_match_option_one_deal_decides():
    state = ending([{"9a", "9b"}, {"10b"}, {"9c", "8a"}], totals=None)
    assert state.phase == "over" and state.deal.totals == (9, 10, 8) and state.deal.winners == (1,)


# ---------------------------------------------------------------- refusals

def test_registration_refusals():
    state = new_game(DECK, 3, 0, {"match": False})
    state = ok(state, Register(0, "4a"))
    refused(state, Register(0, "4a"), "already_registered")
    refused(state, Register(1, "4a"), "card_registered")
    refused(state, Register(1, "11z"), "card_not_in_game")
    refused(state, Register(5, "4b"), "no_such_player")
    refused(state, Show("4b"), "not_now_centre")
    refused(state, Play(0, "4a"), "not_now_play")
    refused(state, DrawFirst(0), "not_now_draw")
    for card in ("4b", "4c", "4d", "5a"):
        state = ok(state, Register(0, card))
    refused(state, Register(0, "5b"), "hand_complete")
    assert check(state, Register(0, "5b")).args == {"player": 0}     # the card is not needed to say why


def test_play_and_centre_refusals():
    state = start(THREE, 0, ("9a", "9b", "5a", "1a"))
    refused(state, Show("9a"), "card_seen")
    refused(state, Show("4a"), "card_seen")          # registered in a hand
    refused(state, Play(0, "4a"), "not_now_play")
    state = ok(state, Show("3a"))
    refused(state, Show("3c"), "centre_full")
    refused(state, Play(0, "7a"), "card_not_held")   # seat 1's card
    refused(state, Play(0, "9c"), "card_not_held")   # in the pile
    refused(state, Take(0, "9a"), "not_now_pick")
    refused(state, Register(0, "9c"), "not_now_register")


def test_game_over_refuses_everything():
    state = ending([{"10a"}, {"10b"}, {"1a"}])
    assert need(state).done and legal_actions(state) == []
    refused(state, Show("2a"), "game_over")
