"""Venture rules, hand-worked (pairs-encheres.fr.md "Entreprise" as settled by RULINGS P3, PR-VE1..3, PR-V3).

Cards are named by the deck's ids ("7c" is a 7); the rules look only at ranks.
"""
from __future__ import annotations

import pytest

from table.assets import deck_data
from table.games.contract import Need
from table.games.venture import rules
from table.games.venture.rules import (
    HAND, INFO, SLUG, Bid, DraftDone, Show, apply, breakdown, check, fire, legal_actions, need, new_game, observe,
    points, tables,
)

DECK = rules.make_deck(deck_data("pairs"))
T = tables(DECK)


def run(state, actions):
    """Check then apply each action, as the table does; every one must be accepted."""
    for action in actions:
        assert check(state, action) is None, (action, check(state, action))
        state = apply(state, action)
    return state


def slug(state, cards):
    return run(state, [Show(c) for c in cards])


def bids(state, cards):
    """One round: player p bids cards[p]."""
    return run(state, [Bid(p, c) for p, c in enumerate(cards)])


def step_summary(step):
    return (step["rank"], [b["seat"] for b in step["bids"]], step["result"], step["taker"], step["taken"], step["by"])


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("players", range(3, 9))
def test_slug_and_hand_sizes_by_player_count(players):
    assert SLUG[players] + HAND[players] * players == 55
    assert (SLUG[players], HAND[players]) == {3: (4, 17), 4: (3, 13), 5: (5, 10), 6: (7, 8), 7: (6, 7),
                                              8: (7, 6)}[players]
    state = new_game(DECK, players, 0, {})
    assert state.phase == "slug"
    view = observe(state, None)
    assert (view["slug_size"], view["rounds"], view["in_hand"]) == (SLUG[players], HAND[players],
                                                                    [HAND[players]] * players)


@pytest.mark.parametrize("players", [0, 1, 2, 9])
def test_player_count_outside_3_to_8_is_refused(players):
    with pytest.raises(ValueError):
        new_game(DECK, players, 0, {})


def test_bad_options_are_refused():
    with pytest.raises(ValueError):
        new_game(DECK, 4, 0, {"deals": 7})
    with pytest.raises(ValueError):
        new_game(DECK, 4, 0, {"draft": "yes"})


def test_info_declares_the_options_and_pads():
    assert INFO.name == "venture" and INFO.deck == "pairs" and INFO.players == range(3, 9)
    assert INFO.defaults() == {"draft": False, "deals": 1}
    assert {o.name: o.choices for o in INFO.options} == {"draft": (False, True), "deals": (1, 2, 3, 4, 5)}
    assert INFO.pads.seat_pads is None and INFO.pads.centre_pads is None and INFO.pads.buttons == ("ok",)


def test_slug_is_shown_card_by_card_as_chance_then_bidding_opens():
    state = new_game(DECK, 4, 2, {})
    n = need(state)
    assert n.chance and n.by is None and not n.table_draw and len(n.outcomes) == 55
    state = slug(state, ["10a", "3b"])
    assert state.phase == "slug" and observe(state, None)["slug"] == ["10a", "3b"]
    assert "10a" not in need(state).outcomes and len(need(state).outcomes) == 53
    state = slug(state, ["7c"])
    assert state.phase == "bidding"
    assert observe(state, None)["centre"] == ["3b", "7c", "10a"]
    assert need(state) == Need(players=(0, 1, 2, 3), simultaneous=True)


# ---------------------------------------------------------------- the rule text's worked example

def test_worked_example_round_by_round():
    """5 players, slug 4, 5, 6, 8, 10. Round 1: bids 2, 3, 4, 5, 6 ("le 9 attrape les deux 5" is the 6: P3).
    Round 2: bids 5, 5, 7, 9, 9 (PR-VE1: the tied 5s miss and nobody takes the 9s)."""
    state = slug(new_game(DECK, 5, 0, {}), ["4a", "5a", "6a", "8a", "10a"])
    assert observe(state, None)["centre"] == ["4a", "5a", "6a", "8a", "10a"]

    state = bids(state, ["2a", "3a", "4b", "5b", "6b"])
    view = observe(state, None)
    steps = [step_summary(s) for s in view["last_round"]["steps"]]
    assert steps == [
        (2, [0], "highest", 0, ["10a"], None),        # the 2 fires first and takes the 10
        (3, [1], "lower", 1, ["2a"], None),           # the 3 takes the 2
        (4, [2], "lower", 2, ["3a"], None),           # the 4 takes the 3
        (5, [3], "lower", 3, ["4a", "4b"], None),     # the 5 takes both 4s
        (6, [4], "lower", 4, ["5a", "5b"], None),     # the 6 takes both 5s
    ]
    assert view["centre"] == ["6a", "6b", "8a"]      # "Cela laisse au centre 6, 6 et 8."
    assert view["last_round"]["to_centre"] == ["6b"]
    assert view["piles"] == [["10a"], ["2a"], ["3a"], ["4a", "4b"], ["5a", "5b"]]
    assert view["round"] == 2 and state.phase == "bidding"

    state = bids(state, ["5c", "5d", "7a", "9a", "9b"])
    view = observe(state, None)
    steps = [step_summary(s) for s in view["last_round"]["steps"]]
    assert steps == [
        (5, [0, 1], "missed", None, [], None),                      # tied: they miss, nobody takes the 9s
        (7, [2], "lower", 2, ["5c", "5d", "6a", "6b"], None),       # the 7 takes the 5s and the 6s
        (9, [3, 4], "missed", None, [], None),                      # tied: they miss
    ]
    assert view["centre"] == ["7a", "8a", "9a", "9b"]              # "au centre 7, 8, 9 et 9"
    assert view["last_round"]["to_centre"] == ["7a", "9a", "9b"]
    assert view["piles"][2] == ["3a", "5c", "5d", "6a", "6b"]
    assert [r["round"] for r in view["rounds_log"]] == [1, 2]


def test_worked_example_score_minus_one():
    """A player captured 11 cards, all five 5s among them: 6 cards of incomplete ranks -6, the five 5s +5."""
    pile = ["5a", "5b", "5c", "5d", "5e", "2a", "3a", "3b", "7a", "8a", "9a"]
    centre = ["9b", "10a"]
    assert points(T.sizes, T.rank, pile, centre) == -1
    score = breakdown(T, 0, pile, centre)
    assert score.points == -1
    assert [(r.rank, r.complete, r.points) for r in score.ranks] == [
        (2, False, -1), (3, False, -2), (5, True, 5), (7, False, -1), (8, False, -1), (9, False, -1)]


# ---------------------------------------------------------------- P3 / PR-VE1: the lowest bid

def test_P3_lowest_bid_takes_the_highest_rank_of_centre_and_bids():
    """The lowest bid takes every card of the highest rank on the table, bids included; the others take lower."""
    steps = fire(T, ("3a", "10a"), ("2a", "10b", "6a"))
    assert [(s.rank, s.result, s.taker, s.taken) for s in steps] == [
        (2, "highest", 0, ("10a", "10b")),            # the centre's 10 and seat 1's 10 bid
        (6, "lower", 2, ("2a", "3a")),                # the 2 bid fired and stays on the table: it can be taken
        (10, "captured", None, ()),                   # seat 1's 10 was taken before it fired (PR-VE2)
    ]


def test_P3_lowest_bid_may_take_a_rank_lower_than_other_bids_when_it_is_the_highest_on_the_table():
    """Highest rank on the table, not higher than the lowest bid: with bids 1, 4, 5 and a centre of 2s, the
    highest rank is the 5 (a bid)."""
    steps = fire(T, ("2a", "2b"), ("1a", "4a", "5a"))
    assert [(s.rank, s.result, s.taker, s.taken) for s in steps] == [
        (1, "highest", 0, ("5a",)), (4, "lower", 1, ("1a", "2a", "2b")), (5, "captured", None, ())]


def test_PR_VE1_tied_lowest_rank_misses_and_nobody_takes_the_highest_rank():
    steps = fire(T, ("10a",), ("3a", "3b", "8a", "9a"))
    assert [(s.rank, s.result, s.taker, s.taken) for s in steps] == [
        (3, "missed", None, ()),                       # tied lowest: misses
        (8, "lower", 2, ("3a", "3b")),                 # the 8 is not "the lowest firing bid": it takes lower
        (9, "lower", 3, ("8a",)),
    ]


def test_PR_VE1_missed_bids_stay_on_the_table_and_can_be_captured_later_in_the_round():
    state = slug(new_game(DECK, 3, 0, {}), ["10a", "10b", "10c", "10d"])
    state = bids(state, ["4a", "4b", "6a"])
    view = observe(state, None)
    assert [step_summary(s) for s in view["last_round"]["steps"]] == [
        (4, [0, 1], "missed", None, [], None), (6, [2], "lower", 2, ["4a", "4b"], None)]
    assert view["piles"] == [[], [], ["4a", "4b"]]
    assert view["centre"] == ["6a", "10a", "10b", "10c", "10d"]


def test_PR_VE1_a_missed_tie_is_captured_in_a_later_round():
    state = slug(new_game(DECK, 3, 0, {}), ["10a", "10b", "10c", "10d"])
    state = bids(state, ["8a", "8b", "2a"])          # the 2 takes the highest rank, the four 10s; the 8s miss
    view = observe(state, None)
    assert [step_summary(s) for s in view["last_round"]["steps"]] == [
        (2, [2], "highest", 2, ["10a", "10b", "10c", "10d"], None), (8, [0, 1], "missed", None, [], None)]
    assert view["centre"] == ["2a", "8a", "8b"]
    state = bids(state, ["1a", "10e", "9b"])         # the 1 takes the 10; the 9 takes the 1, the 2 and the 8s
    view = observe(state, None)
    assert [step_summary(s) for s in view["last_round"]["steps"]] == [
        (1, [0], "highest", 0, ["10e"], None), (9, [2], "lower", 2, ["1a", "2a", "8a", "8b"], None),
        (10, [1], "captured", None, [], 0)]
    assert view["centre"] == ["9b"]
    assert view["piles"] == [["10e"], [], ["1a", "2a", "8a", "8b", "10a", "10b", "10c", "10d"]]


# ---------------------------------------------------------------- PR-VE2: captured before firing

def test_PR_VE2_a_bid_captured_before_it_fires_does_not_fire():
    """The 2 takes the highest rank, seat 1's 10 bid; that 10 would have taken the 7 and the 4, but never fires."""
    state = slug(new_game(DECK, 3, 0, {}), ["4a", "6a", "6b", "1a"])
    state = bids(state, ["2a", "10a", "7a"])
    view = observe(state, None)
    assert [step_summary(s) for s in view["last_round"]["steps"]] == [
        (2, [0], "highest", 0, ["10a"], None),
        (7, [2], "lower", 2, ["1a", "2a", "4a", "6a", "6b"], None),
        (10, [1], "captured", None, [], 0),
    ]
    assert view["last_round"]["steps"][2]["by_step"] == 0
    assert view["piles"] == [["10a"], [], ["1a", "2a", "4a", "6a", "6b"]]
    assert view["centre"] == ["7a"]                  # the 7 fired and stays: it joins the centre


def test_PR_VE2_a_tied_highest_rank_is_captured_whole_and_neither_fires():
    steps = fire(T, ("5a",), ("2a", "9a", "9b"))
    assert [(s.rank, [p for p, _ in s.bids], s.result, s.taken, s.by) for s in steps] == [
        (2, [0], "highest", ("9a", "9b"), None), (9, [1, 2], "captured", (), 0)]


# ---------------------------------------------------------------- PR-VE3: complete ranks and the centre

def test_PR_VE3_complete_rank_counts_centre_cards_for_the_capturer():
    """"huit 9 + le dernier au centre = 9 points"."""
    nines = sorted(T.deck.of_rank(9))
    assert points(T.sizes, T.rank, nines[:8], [nines[8]]) == 9
    score = breakdown(T, 0, nines[:8], [nines[8], "10a"])
    assert [(r.rank, r.complete, r.centre, r.points) for r in score.ranks] == [(9, True, (nines[8],), 9)]


def test_PR_VE3_rank_only_in_the_centre_scores_for_nobody():
    sevens = sorted(T.deck.of_rank(7))
    assert points(T.sizes, T.rank, [], sevens) == 0
    assert points(T.sizes, T.rank, ["2a"], sevens) == -1
    assert breakdown(T, 0, [], sevens).ranks == ()


def test_PR_VE3_incomplete_rank_costs_one_per_card_even_with_centre_cards():
    sixes = sorted(T.deck.of_rank(6))
    assert points(T.sizes, T.rank, sixes[:3], sixes[3:5]) == -3       # one 6 is in another pile
    assert points(T.sizes, T.rank, sixes[:3], sixes[3:]) == 6
    assert points(T.sizes, T.rank, ["1a"], []) == 1                   # the lone 1 is a whole rank


def test_PR_VE3_and_PR_V3_deal_with_every_bid_tied_scores_nothing_and_everyone_shares_the_win():
    """8 players: the slug leaves an even count of each rank; every round is bid in tied pairs, so nothing
    is ever captured, every rank lies in the centre, and every rank scores for nobody: all win at 0."""
    slug_cards = ["1a", "2a", "2b", "3a", "5a", "7a", "9a"]
    rest = [c for c in T.order if c not in slug_cards]
    state = slug(new_game(DECK, 8, 3, {}), slug_cards)
    for r in range(6):
        state = bids(state, rest[8 * r:8 * r + 8])
        assert all(s["result"] == "missed" for s in observe(state, None)["last_round"]["steps"])
    assert state.phase == "over"
    view = observe(state, None)
    assert view["totals"] == [0] * 8 and view["winners"] == list(range(8))
    assert sorted(view["centre"]) == sorted(T.order) and view["piles"] == [[]] * 8
    assert all(p["ranks"] == [] and p["points"] == 0 for p in view["scores"]["players"])


def test_PR_VE3_and_PR_V3_end_of_deal_breakdown_and_sole_winner():
    """8 players. Five rounds bid in tied pairs (nothing captured); in the last round the 1 (seat 0, the unique
    lowest) takes the highest rank, every 10 (four in the centre, six tied bids): a complete rank, +10. Seat 1's
    3 then takes the 1 and both 2s: two complete ranks, +1 and +2. The 3s and the rest lie in the centre and
    score for nobody."""
    slug_cards = ["2a", "2b", "3a", "3b", "5a", "7a", "9a"]
    tens = list(T.deck.of_rank(10))
    others = [c for c in T.order if c not in slug_cards and T.rank[c] not in (1, 3, 10)]
    assert len(others) == 36                         # 4 fours, 4 fives, 6 sixes, 6 sevens, 8 eights, 8 nines
    plan = [others[0:8], others[8:16], others[16:24], others[24:32], others[32:36] + tens[0:4]]
    state = slug(new_game(DECK, 8, 0, {}), slug_cards)
    for cards in plan:
        state = bids(state, cards)
        assert all(s["result"] == "missed" for s in observe(state, None)["last_round"]["steps"])
    assert sorted(observe(state, None)["centre"]) == sorted(slug_cards + others + tens[:4])
    state = bids(state, ["1a", "3c"] + tens[4:10])
    view = observe(state, None)
    assert [step_summary(s) for s in view["last_round"]["steps"]] == [
        (1, [0], "highest", 0, sorted(tens, key=T.key.get), None),
        (3, [1], "lower", 1, ["1a", "2a", "2b"], None),
        (10, [2, 3, 4, 5, 6, 7], "captured", None, [], 0),
    ]
    assert state.phase == "over"
    assert view["totals"] == [10, 3, 0, 0, 0, 0, 0, 0] and view["history"] == [[10, 3, 0, 0, 0, 0, 0, 0]]
    assert view["winners"] == [0]
    seat0, seat1 = view["scores"]["players"][0], view["scores"]["players"][1]
    assert seat0["ranks"] == [{"rank": 10, "cards": sorted(tens, key=T.key.get), "centre": [], "complete": True,
                               "points": 10}]
    assert seat1["ranks"] == [{"rank": 1, "cards": ["1a"], "centre": [], "complete": True, "points": 1},
                              {"rank": 2, "cards": ["2a", "2b"], "centre": [], "complete": True, "points": 2}]
    assert "3c" in view["centre"] and all(p["ranks"] == [] for p in view["scores"]["players"][2:])


def scripted_deal(state, last):
    """The deal above: five rounds of tied pairs, then `last` (a card per seat) from 1a, 3c and six 10s."""
    slug_cards = ["2a", "2b", "3a", "3b", "5a", "7a", "9a"]
    tens = list(T.deck.of_rank(10))
    others = [c for c in T.order if c not in slug_cards and T.rank[c] not in (1, 3, 10)]
    plan = [others[0:8], others[8:16], others[16:24], others[24:32], others[32:36] + tens[0:4]]
    state = slug(state, slug_cards)
    for cards in plan:
        state = bids(state, cards)
    return bids(state, last)


def test_PR_V3_tied_totals_share_the_win_over_two_deals():
    """Deal 1: seat 0's 1 takes the ten 10s (+10), seat 1's 3 takes 1, 2, 2 (+3). Deal 2: the other way round.
    Totals 13 and 13: seats 0 and 1 share the win."""
    tens = list(T.deck.of_rank(10))
    state = new_game(DECK, 8, 0, {"deals": 2})
    state = scripted_deal(state, ["1a", "3c"] + tens[4:10])
    assert state.phase == "slug" and observe(state, None)["totals"] == [10, 3, 0, 0, 0, 0, 0, 0]
    state = scripted_deal(state, ["3c", "1a"] + tens[4:10])
    view = observe(state, None)
    assert state.phase == "over"
    assert view["history"] == [[10, 3, 0, 0, 0, 0, 0, 0], [3, 10, 0, 0, 0, 0, 0, 0]]
    assert view["totals"] == [13, 13, 0, 0, 0, 0, 0, 0] and view["winners"] == [0, 1]
    assert [d["deal"] for d in view["deal_scores"]] == [1, 2] and view["scores"] == view["deal_scores"][1]
    assert [p["points"] for p in view["deal_scores"][0]["players"]] == [10, 3, 0, 0, 0, 0, 0, 0]
    assert view["deal_scores"][1]["players"][1]["ranks"][0]["rank"] == 10


# ---------------------------------------------------------------- rounds, deals, draft

def test_bids_are_sealed_until_the_last_is_in():
    state = slug(new_game(DECK, 3, 0, {}), ["4a", "5a", "6a", "8a"])
    before = observe(state, None)
    state = run(state, [Bid(1, "10a")])
    view = observe(state, None)
    assert view["committed"] == [False, True, False]
    assert "10a" in view["unseen"] and "10a" not in str({k: v for k, v in view.items() if k != "unseen"})
    assert view["unseen"] == before["unseen"]
    assert observe(state, 1)["my_bid"] == "10a" and observe(state, 0)["my_bid"] is None
    assert need(state).players == (0, 2)
    assert view["in_hand"] == [17, 16, 17]


def test_deals_option_plays_several_deals_with_running_totals():
    state = new_game(DECK, 8, 6, {"deals": 2})
    slug_cards = ["1a", "2a", "2b", "3a", "5a", "7a", "9a"]
    rest = [c for c in T.order if c not in slug_cards]
    state = slug(state, slug_cards)
    for r in range(5):
        state = bids(state, rest[8 * r:8 * r + 8])
    last = rest[40:48]
    assert [T.rank[c] for c in last] == [10] * 8
    state = bids(state, last)                       # eight 10s tied: they miss, the deal ends at 0 each
    assert state.phase == "slug" and state.match.deal == 2 and state.match.dealer == 7
    view = observe(state, None)
    assert view["history"] == [[0] * 8] and view["totals"] == [0] * 8
    assert view["centre"] == [] and view["piles"] == [[]] * 8 and view["slug"] == [] and view["round"] == 1
    assert view["scores"]["deal"] == 1 and len(view["unseen"]) == 55
    assert view["last_round"]["deal"] == 1 and view["rounds_log"] == []


def test_draft_option_waits_for_each_seat_ok_in_any_order_before_the_slug():
    state = new_game(DECK, 4, 0, {"draft": True})
    assert state.phase == "draft"
    assert need(state) == Need(players=(0, 1, 2, 3))
    assert legal_actions(state) == [DraftDone(p) for p in range(4)]
    assert check(state, Show("1a")).key == "not_now_show"
    state = run(state, [DraftDone(2), DraftDone(0)])
    assert need(state).players == (1, 3) and observe(state, None)["drafted"] == [True, False, True, False]
    assert check(state, DraftDone(2)).key == "already_drafted"
    state = run(state, [DraftDone(3), DraftDone(1)])
    assert state.phase == "slug" and need(state).chance
    assert check(state, DraftDone(1)).key == "not_now_draft"


def test_no_draft_view_has_no_draft_flags():
    assert observe(new_game(DECK, 4, 0, {}), None)["drafted"] is None


# ---------------------------------------------------------------- refusals (state unchanged)

def refused(state, action, key):
    before = observe(state, None)
    refusal = check(state, action)
    assert refusal is not None and refusal.key == key, refusal
    assert observe(state, None) == before
    return refusal


def test_refusals():
    state = new_game(DECK, 3, 0, {})
    refused(state, Bid(0, "5a"), "not_now_bid")
    refused(state, Show("zz"), "card_not_in_game")
    refused(state, DraftDone(0), "not_now_draft")
    state = slug(state, ["4a", "5a"])
    refused(state, Show("4a"), "card_seen")
    state = slug(state, ["6a", "8a"])
    refused(state, Show("9a"), "not_now_show")
    refused(state, Bid(3, "9a"), "no_such_player")
    refused(state, Bid(0, "4a"), "bid_seen")
    refused(state, Bid(0, "zz"), "bid_not_in_game")
    state = run(state, [Bid(0, "9a")])
    refused(state, Bid(0, "9b"), "already_bid")
    refused(state, Bid(1, "9a"), "bid_taken")
    state = run(state, [Bid(1, "9b"), Bid(2, "2a")])
    refused(state, Bid(0, "9a"), "bid_seen")        # an earlier bid
    refused(state, Bid(0, "8a"), "bid_seen")        # a slug card, in the centre
    refused(state, Bid(0, "2a"), "bid_seen")
    refused(state, DraftDone(7), "no_such_player")
    assert check(state, "nonsense").key == "unknown_action"


def test_seat_refusals_never_carry_the_card():
    state = slug(new_game(DECK, 3, 0, {}), ["4a", "5a", "6a", "8a"])
    state = run(state, [Bid(0, "9a")])
    for action in (Bid(0, "9b"), Bid(1, "9a"), Bid(1, "4a"), Bid(1, "zz")):
        assert "card" not in check(state, action).args


def test_game_over_refuses_everything():
    slug_cards = ["1a", "2a", "2b", "3a", "5a", "7a", "9a"]
    rest = [c for c in T.order if c not in slug_cards]
    state = slug(new_game(DECK, 8, 0, {}), slug_cards)
    for r in range(6):
        state = bids(state, rest[8 * r:8 * r + 8])
    assert need(state).done and legal_actions(state) == []
    for action in (Show("1a"), Bid(0, "1a"), DraftDone(0)):
        assert check(state, action).key == "game_over"
