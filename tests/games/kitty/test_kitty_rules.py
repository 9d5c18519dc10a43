"""Kitty rules, hand-worked (pairs-encheres.fr.md "Chaton" as settled by RULINGS P2, PR-K1, PR-K2, PR-V3).

Cards are Pairs ids: the rank then a letter for the copy ("7c" is a 7; "1a" is the single 1).
"""
from __future__ import annotations

import pytest

from table.assets import deck_data
from table.games.kitty.rules import (
    INFO, Bid, Pass, Pick, Receive, Register, Show, apply, check, hand_size, legal_actions, make_deck, need,
    new_game, observe, ranking, score, settle,
)

DECK = make_deck(deck_data("pairs"))
ALL = sorted(DECK.ranks)


def run(state, actions):
    """Check then apply each action, as the table does; every one must be accepted."""
    for action in actions:
        assert check(state, action) is None, (action, check(state, action))
        state = apply(state, action)
    return state


def registered(players, hands=None, kitty=(), options=None, first=0):
    """A game whose hands are all registered: `hands` fixes some cards of some seats, the rest of each hand
    is filled from the deck in order; `kitty` cards stay unregistered (they will be shown as targets)."""
    state = new_game(DECK, players, first, options)
    hands = {p: list((hands or {}).get(p, ())) for p in range(players)}
    used = {c for h in hands.values() for c in h} | set(kitty)
    free = [c for c in ALL if c not in used]
    for p in range(players):
        while len(hands[p]) < state.hand_size:
            hands[p].append(free.pop(0))
    return run(state, [Register(p, c) for p in range(players) for c in hands[p]])


def play(state, targets, bids, passes=None, keep=()):
    """One round up to the reveal: the targets shown, every seat's pass (by default a card nobody bids and
    not in `keep`), then every seat's bid."""
    state = run(state, [Show(c) for c in targets])
    if passes is None:
        used = set(bids.values()) | set(keep)
        passes = {p: next(c for c in state.hands[p] if c not in used) for p in range(state.players)}
    state = run(state, [Pass(p, c) for p, c in passes.items()])
    return run(state, [Bid(p, c) for p, c in bids.items()])


def steps(state):
    return observe(state, None)["resolution"]["steps"]


def refused(state, action):
    refusal = check(state, action)
    assert refusal is not None and action not in legal_actions(state)
    return refusal.key


# ---------------------------------------------------------------- setup and registration (TABLE-PROTOCOLS 1.4)

@pytest.mark.parametrize("players, size, unseen", [(3, 16, 7), (4, 12, 7), (5, 9, 10), (6, 8, 7)])
def test_P2_deal_the_kitty_of_7_and_at_5_players_set_3_aside(players, size, unseen):
    state = new_game(DECK, players, 0, INFO.defaults())
    assert hand_size(55, players) == size == state.hand_size
    assert need(state).players == tuple(range(players)) and need(state).simultaneous
    state = registered(players)
    assert len(state.pile) == unseen and state.phase == "targets"
    assert need(state).chance and need(state).outcomes == state.pile and need(state).by is None
    assert not need(state).table_draw


@pytest.mark.parametrize("players", [2, 7])
def test_player_count_outside_3_to_6_is_refused(players):
    with pytest.raises(ValueError):
        new_game(DECK, players, 0, INFO.defaults())


def test_registration_counts_and_refusals():
    state = new_game(DECK, 4, 0, INFO.defaults())
    state = run(state, [Register(0, "5a"), Register(1, "5b")])
    view = observe(state, None)
    assert view["registered"] == [1, 1, 0, 0] and "5a" not in str(view)
    assert observe(state, 0)["hand"] == ["5a"]
    assert refused(state, Register(2, "5a")) == "card_registered"
    assert refused(state, Register(0, "5a")) == "already_registered"
    assert refused(state, Register(0, "zz")) == "card_not_in_game"
    assert refused(state, Register(9, "5c")) == "no_such_player"
    assert refused(state, Show("5c")) == "not_now_show"
    assert refused(state, Pass(0, "5a")) == "not_now_pass"
    full = run(state, [Register(0, c) for c in ALL if c not in ("5a", "5b")][:11])
    assert len(full.hands[0]) == 12 and 0 not in need(full).players
    assert refused(full, Register(0, "9i")) == "hand_complete"


def test_registration_result_does_not_depend_on_the_order_of_the_taps():
    a = registered(3)
    order = [Register(p, c) for p in range(3) for c in a.hands[p]]
    b = run(new_game(DECK, 3, 0, INFO.defaults()), list(reversed(order)))
    assert a == b


# ---------------------------------------------------------------- a round (RULINGS P2)

def test_P2_targets_are_shown_then_everyone_passes_left_then_bids():
    state = registered(4, {0: ["3a"], 1: ["6a"], 2: ["8a"], 3: ["9a"]}, kitty=["7a"])
    assert refused(state, Pass(0, "3a")) == "not_now_pass"
    assert refused(state, Show(state.hands[0][0])) == "not_in_kitty"
    state = run(state, [Show("7a")])
    assert state.phase == "pass" and need(state).players == (0, 1, 2, 3) and need(state).simultaneous
    assert refused(state, Bid(0, "3a")) == "not_now_bid"
    state = run(state, [Pass(0, "3a"), Pass(1, "6a"), Pass(2, "8a")])
    assert refused(state, Pass(0, state.hands[0][0])) == "already_passed"
    assert "3a" in state.hands[0]                      # moved only when every pass is in
    state = run(state, [Pass(3, "9a")])
    assert state.phase == "bid"
    assert "3a" in state.hands[1] and "6a" in state.hands[2] and "8a" in state.hands[3] and "9a" in state.hands[0]
    assert "3a" not in state.hands[0]
    assert refused(state, Bid(0, "3a")) == "card_not_held"
    # the card just received may be bid
    assert check(state, Bid(1, "3a")) is None


def test_P2_lowest_unique_bid_wins_and_tied_bids_are_ignored():
    state = registered(4, {0: ["3a"], 1: ["3b"], 2: ["5a"], 3: ["7b"]}, kitty=["9a"])
    state = play(state, ["9a"], {0: "3a", 1: "3b", 2: "5a", 3: "7b"})
    assert steps(state) == [
        {"step": "tie", "rank": 3, "players": [0, 1], "cards": ["3a", "3b"]},
        {"step": "win", "player": 2, "card": "9a", "bid": "5a"},
    ]
    assert "9a" in state.hands[2] and state.phase == "targets" and state.round == 2


def test_P2_no_unique_bid_discards_the_target():
    state = registered(4, {0: ["4a"], 1: ["4b"], 2: ["6a"], 3: ["6b"]}, kitty=["10a"])
    state = play(state, ["10a"], {0: "4a", 1: "4b", 2: "6a", 3: "6b"})
    assert [s["step"] for s in steps(state)] == ["tie", "tie", "discard"]
    assert steps(state)[-1] == {"step": "discard", "card": "10a", "why": "no_unique"}
    assert "10a" in state.out and all("10a" not in h for h in state.hands)


def test_P2_bids_leave_the_game():
    state = registered(3, {0: ["2a"], 1: ["5a"], 2: ["8a"]}, kitty=["7a"])
    state = play(state, ["7a"], {0: "2a", 1: "5a", 2: "8a"})
    assert {"2a", "5a", "8a"} <= state.out
    assert all(c not in h for h in state.hands for c in ("2a", "5a", "8a"))
    assert observe(state, None)["counts"] == [16, 15, 15]      # bid one, won one


def test_P2_the_single_1_always_wins_and_its_player_gives_the_target_to_another():
    state = registered(4, {0: ["2a"], 1: ["1a"], 2: ["3a"], 3: ["4a"]}, kitty=["9a"])
    state = play(state, ["9a"], {0: "2a", 1: "1a", 2: "3a", 3: "4a"})
    assert state.phase == "gift"
    assert steps(state)[-1] == {"step": "one", "player": 1, "card": "9a", "bid": "1a"}
    n = need(state)
    assert n.any_of and n.players == (0, 2, 3)
    assert observe(state, None)["gift"] == {"giver": 1, "card": "9a", "receivers": [0, 2, 3]}
    assert refused(state, Receive(1, "9a")) == "gift_to_self"
    assert refused(state, Receive(2, "3b")) == "not_the_gift"
    assert set(legal_actions(state)) == {Receive(0, "9a"), Receive(2, "9a"), Receive(3, "9a")}
    state = run(state, [Receive(3, "9a")])
    assert "9a" in state.hands[3] and "9a" not in state.hands[1]
    assert steps(state)[-1] == {"step": "gift", "player": 1, "card": "9a", "to": 3}
    assert state.phase == "targets" and state.round == 2


def test_P2_the_1_wins_even_when_it_is_the_only_card_not_tied():
    state = registered(3, {0: ["1a"], 1: ["6a"], 2: ["6b"]}, kitty=["8a"])
    state = play(state, ["8a"], {0: "1a", 1: "6a", 2: "6b"})
    assert state.phase == "gift" and state.giver == 0


def test_P2_partners_give_the_1s_target_to_another_team():
    state = registered(4, {0: ["1a"], 1: ["2a"], 2: ["3a"], 3: ["4a"]}, kitty=["9a"], options={"partners": True})
    assert observe(state, None)["teams"] == [[0, 2], [1, 3]]
    state = play(state, ["9a"], {0: "1a", 1: "2a", 2: "3a", 3: "4a"})
    assert need(state).players == (1, 3)
    assert refused(state, Receive(2, "9a")) == "gift_to_partner"
    state = run(state, [Receive(1, "9a")])
    assert "9a" in state.hands[1]


def test_partners_sit_opposite_at_6_and_are_ignored_at_3_or_5():
    six = new_game(DECK, 6, 0, {**INFO.defaults(), "partners": True})
    assert observe(six, None)["teams"] == [[0, 3], [1, 4], [2, 5]]
    for players in (3, 5):
        state = new_game(DECK, players, 0, {**INFO.defaults(), "partners": True})
        assert state.teams is None and observe(state, None)["options"]["partners"] is False


def test_P2_hard_game_is_7_rounds_of_one_target():
    state = registered(3)
    assert observe(state, None)["rounds"] == 7
    for r in range(1, 8):
        assert state.round == r and state.phase == "targets"
        bids = {p: state.hands[p][-1] for p in range(3)}
        state = play(state, [state.pile[0]], bids)
        if state.phase == "gift":
            state = run(state, [legal_actions(state)[0]])
    assert state.phase == "over" and len(state.log) == 7 and len(state.pile) == 0


# ---------------------------------------------------------------- soft (Variantes: Doux) and PR-K1

def test_soft_targets_are_1_2_2_2():
    state = registered(4, options={"soft": True})
    view = observe(state, None)
    assert view["rounds"] == 4 and view["targets_per_round"] == [1, 2, 2, 2] and view["kitty_left"] == 7
    state = run(state, [Show(state.pile[0])])
    assert state.phase == "pass"


def soft_round_two(players=4, hands=None, kitty=("8a", "9a", "10a"), options=None):
    """A soft game after round 1 (target kitty[0] won by someone), about to show round 2's two targets."""
    state = registered(players, hands, kitty=kitty, options={"soft": True, **(options or {})})
    keep = {c for h in hands.values() for c in h}
    bids = {p: next(c for c in reversed(state.hands[p]) if c not in keep) for p in range(players)}
    state = play(state, [kitty[0]], bids, keep=keep)
    if state.phase == "gift":
        state = run(state, [legal_actions(state)[0]])
    assert state.round == 2
    return state


def test_soft_lowest_unique_picks_a_target_second_lowest_takes_the_other():
    state = soft_round_two(hands={0: ["2a", "2b"], 1: ["4a"], 2: ["6a"], 3: ["6b"]})
    state = play(state, ["9a", "10a"], {0: "2a", 1: "4a", 2: "6a", 3: "6b"})
    assert state.phase == "pick" and need(state).players == (0,)
    assert set(legal_actions(state)) == {Pick(0, "9a"), Pick(0, "10a")}
    assert refused(state, Pick(1, "9a")) == "not_picker"
    assert refused(state, Pick(0, "8b")) == "not_a_target"
    state = run(state, [Pick(0, "9a")])
    assert "9a" in state.hands[0] and "10a" in state.hands[1]
    assert [s["step"] for s in steps(state)] == ["tie", "pick", "take"]
    assert steps(state)[-1] == {"step": "take", "player": 1, "card": "10a", "bid": "4a"}


def test_soft_a_single_unique_bid_picks_and_the_other_target_is_discarded():
    state = soft_round_two(hands={0: ["2a"], 1: ["5a"], 2: ["5b"], 3: ["5c"]})
    state = play(state, ["9a", "10a"], {0: "2a", 1: "5a", 2: "5b", 3: "5c"})
    assert state.phase == "pick"
    state = run(state, [Pick(0, "10a")])
    assert steps(state)[-1] == {"step": "discard", "card": "9a", "why": "no_second"}
    assert "9a" in state.out


def test_PR_K1_the_1_picks_a_target_gives_it_away_and_the_second_lowest_takes_the_other():
    state = soft_round_two(hands={0: ["1a", "2a"], 1: ["3a"], 2: ["5a"], 3: ["7a"]})
    state = play(state, ["9a", "10a"], {0: "1a", 1: "3a", 2: "5a", 3: "7a"})
    assert state.phase == "pick" and state.picker == 0
    state = run(state, [Pick(0, "10a")])
    assert state.phase == "gift" and state.gift == "10a" and need(state).players == (1, 2, 3)
    assert "9a" in state.hands[1] and "10a" not in state.hands[0]
    state = run(state, [Receive(2, "10a")])
    assert "10a" in state.hands[2]
    assert [s["step"] for s in steps(state)] == ["pick", "take", "gift"]
    assert observe(state, None)["taken"][0].count("10a") == 0 and "10a" in observe(state, None)["taken"][2]


def test_PR_K1_with_partners_the_1s_pick_goes_to_another_team():
    state = soft_round_two(hands={0: ["1a", "2a"], 1: ["3a"], 2: ["5a"], 3: ["7a"]}, options={"partners": True})
    state = play(state, ["9a", "10a"], {0: "1a", 1: "3a", 2: "5a", 3: "7a"})
    state = run(state, [Pick(0, "9a")])
    assert need(state).players == (1, 3)
    assert refused(state, Receive(2, "9a")) == "gift_to_partner"


# ---------------------------------------------------------------- scoring (P2) and the text's examples

def test_P2_the_player_with_most_8s_scores_8_and_ties_all_score():
    state = new_game(DECK, 3, 0, INFO.defaults())
    hands = (("8a", "8b", "8c", "5a"), ("8d", "5b", "3a"), ("5c", "3b"))
    result = score(state, hands)
    rows = dict(zip(result.ranks, zip(*result.counts)))
    assert rows[8] == (3, 1, 0)
    assert result.scorers[result.ranks.index(8)] == (0,)
    assert result.scorers[result.ranks.index(5)] == (0, 1, 2)        # one 5 each: all score 5
    assert result.scorers[result.ranks.index(3)] == (1, 2)
    assert result.scorers[result.ranks.index(10)] == ()              # nobody holds a 10: nobody scores
    assert result.points == (8 + 5, 5 + 3, 5 + 3)


def test_P2_partners_hands_are_combined_for_the_score():
    state = new_game(DECK, 4, 0, {**INFO.defaults(), "partners": True})
    hands = (("9a",), ("9b", "9c"), ("9d", "9e"), ("4a",))
    result = score(state, hands)
    assert result.units == ((0, 2), (1, 3))
    assert result.scorers[result.ranks.index(9)] == (0,)             # 3 nines against 2
    assert result.points == (9, 4, 9, 4)


def test_stakes_example_of_the_text_19_against_15_and_13():
    """"si le gagnant a 19 points, il gagnera 4 pieces d'un joueur a 15 points et 6 d'un joueur a 13"."""
    result = settle(((0,), (1,), (2,)), (19, 15, 13), 1, 3)
    assert [(p.payer, p.payee, p.amount) for p in result.payments] == [((1,), (0,), 4), ((2,), (0,), 6)]
    assert result.net == (10, -4, -6)


def test_PR_K2_tied_winners_each_collect_from_each_non_winner_and_pay_each_other_nothing():
    result = settle(((0,), (1,), (2,), (3,)), (20, 20, 14, 11), 5, 4)
    assert [(p.payer, p.payee, p.points, p.amount) for p in result.payments] == [
        ((2,), (0,), 6, 30), ((3,), (0,), 9, 45), ((2,), (1,), 6, 30), ((3,), (1,), 9, 45)]
    assert result.net == (75, 75, -60, -90)


def test_stakes_with_partners_settle_team_against_team():
    result = settle(((0, 2), (1, 3)), (30, 21), 2, 4)
    assert [(p.payer, p.payee, p.amount) for p in result.payments] == [((1, 3), (0, 2), 18)]
    assert result.net == (18, -18, 18, -18)


def test_ranking_lists_ties_low_to_high_and_uniques_lowest_first():
    ties, unique = ranking(("7a", "3a", "7b", "2a", "3b", "9a"), DECK.ranks)
    assert [(s.rank, s.players) for s in ties] == [(3, (1, 4)), (7, (0, 2))]
    assert unique == (3, 5)


# ---------------------------------------------------------------- whole games: end, PR-V3, long game, stakes

def finish(state, choose=lambda legal: legal[0]):
    while not need(state).done:
        state = run(state, [choose(legal_actions(state))])
    return state


def test_PR_V3_tied_totals_share_the_win_and_stakes_are_settled_at_the_end():
    state = finish(new_game(DECK, 4, 0, {**INFO.defaults(), "stakes": 2}))
    top = max(state.totals)
    assert state.phase == "over" and state.winners == tuple(p for p, t in enumerate(state.totals) if t == top)
    view = observe(state, None)
    assert view["winners"] == list(state.winners)
    assert view["stakes"]["net"] == list(settle(((0,), (1,), (2,), (3,)), state.totals, 2, 4).net)
    assert sum(view["stakes"]["net"]) == 0


def test_PR_V3_equal_totals_both_win():
    state = new_game(DECK, 3, 0, INFO.defaults())
    # Hand-made final hands: seats 0 and 1 each hold most of ranks worth 10, seat 2 less.
    from table.games.kitty.rules import _end_deal, _evolve
    hands = (("10a",), ("9a", "1a"), ("8a",))
    over = _end_deal(_evolve(state, hands=hands))
    assert over.totals == (10, 10, 8) and over.winners == (0, 1) and over.phase == "over"


def test_long_game_deals_again_until_someone_reaches_100():
    state = new_game(DECK, 3, 1, {**INFO.defaults(), "long": True})
    deals = 0
    while not need(state).done:
        deal = state.deal
        state = run(state, [legal_actions(state)[0]])
        if state.deal != deal:
            deals += 1
            assert state.phase == "register" and max(state.totals) < 100
            assert state.dealer == (1 + deals) % 3 and state.hands == ((), (), ())
            assert observe(state, None)["history"] == [list(h) for h in state.history]
    assert max(state.totals) >= 100 and deals == len(state.history) - 1 >= 1
    assert list(state.totals) == [sum(h[p] for h in state.history) for p in range(3)]


def test_the_game_over_refuses_everything():
    state = finish(new_game(DECK, 3, 0, INFO.defaults()))
    assert need(state).done and legal_actions(state) == []
    assert check(state, Show("1a")).key == "game_over"
    assert check(state, Bid(0, "1a")).key == "game_over"


# ---------------------------------------------------------------- secrecy (TABLE-PROTOCOLS 6.3)

def test_passes_are_never_public_bids_are_public_only_after_the_reveal():
    state = registered(3, {0: ["2a", "6a"], 1: ["3a", "7a"], 2: ["4a", "8a"]}, kitty=["9a"])
    state = run(state, [Show("9a"), Pass(0, "6a"), Pass(1, "7a")])
    view = observe(state, None)
    assert view["passed"] == [True, True, False]
    assert "6a" not in str(view) and "7a" not in str(view)
    assert observe(state, 0)["my_pass"] == "6a" and observe(state, 1)["my_pass"] == "7a"
    state = run(state, [Pass(2, "8a"), Bid(0, "2a")])
    assert observe(state, 1)["my_passes"] == [{"round": 1, "gave": "7a", "got": "6a"}]
    view = observe(state, None)
    assert view["bid"] == [True, False, False] and "2a" not in str(view)
    assert observe(state, 0)["my_bid"] == "2a" and observe(state, 1)["my_bid"] is None
    state = run(state, [Bid(1, "3a"), Bid(2, "4a")])
    view = observe(state, None)
    assert view["log"][0]["bids"] == ["2a", "3a", "4a"]
    assert not any(c in str(view) for c in ("6a", "7a", "8a"))


def test_the_hands_are_shown_at_the_end_of_the_deal():
    state = finish(new_game(DECK, 3, 0, INFO.defaults()))
    assert observe(state, None)["scores"]["hands"] == [list(h) for h in state.hands]
