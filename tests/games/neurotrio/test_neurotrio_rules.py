"""Neurotrio rules, hand-worked (neurotrio-chasse-au-tresor.fr.txt as settled by RULINGS N1-N7, PR-N1..PR-N4).

Card ids: the strength, the nature (H heart, S star, R rose), the background (K black, G green, B blue), the
copy: "2SGa" is a 2 star green. Two cards are compatible when they share two attributes or more.
Cells are (row, col) from the start card at (0, 0). Geometry cases build the domain directly (`laid`).
"""
from __future__ import annotations

import json
import random

import pytest

from table.assets import deck_data
from table.games.neurotrio.rules import (
    INFO, BidBase, BidCard, BidToken, Call, Choose, NoBid, Pass, Place, Register, Show, Tally, Wager, _evolve,
    _lay, apply, best_cell, bid_score, cell_index, check, legal_actions, legal_cells, make_deck, need, new_game,
    observe, start_domain, treasure,
)

DECK = make_deck(deck_data("neurotrio"))
ALL = list(DECK.cards)


def run(state, actions):
    """Check then apply each action, as the table does; every one must be accepted."""
    for action in actions:
        assert check(state, action) is None, (action, check(state, action))
        state = apply(state, action)
    return state


def refused(state, action):
    refusal = check(state, action)
    assert refusal is not None and action not in legal_actions(state)
    return refusal.key


def registered(players, start="1HKa", hands=None, removed="3RBa", first=0):
    """A game with `start` shown and every hand registered: `hands` fixes the first cards of some hands, the
    rest are dealt from the deck in order; `removed` is the one card nobody registers."""
    state = run(new_game(DECK, players, first), [Show(start)])
    hands = {p: list((hands or {}).get(p, ())) for p in range(players)}
    free = [c for c in ALL if c not in {start, removed}.union(*hands.values())]
    for p in range(players):
        while len(hands[p]) < state.setup.counts[p]:
            hands[p].append(free.pop(0))
    return run(state, [Register(p, c) for p in range(players) for c in hands[p]])


def laid(*cells):
    """A domain of these (row, col, card), laid in this order whether legal or not; the first at (0, 0)."""
    (row, col, card), *rest = cells
    assert (row, col) == (0, 0)
    domain = start_domain(DECK, card)
    for row, col, card in rest:
        domain = _lay(DECK, domain, cell_index(row, col), card, DECK.kind[card])
    return domain


def table(domain, *hands, active=0, **changes):
    """A building-phase state over `domain` with these hands (player 0 first), the removed card one that is
    nowhere else."""
    state = new_game(DECK, len(hands), 0)
    used = set(domain.cards).union(*hands)
    removed = next(c for c in ALL if c not in used and DECK.twin[c] not in used)
    return _evolve(state, phase="build", domain=domain, hands=tuple(tuple(sorted(h)) for h in hands),
                   unseen=(removed,), active=active, **changes)


def cells(state, card):
    return [(row, col) for row, col, _ in legal_cells(state, card)]


# ---------------------------------------------------------------- deck, setup and registration

def test_N1_the_deck_has_27_kinds_printed_twice_and_the_accessories_apart():
    assert len(ALL) == 54 and len(set(DECK.kind.values())) == 27
    assert all(sorted(c for c in ALL if DECK.kind[c] == k) == [c[:3] + "a", c[:3] + "b"]
               for k in range(27) for c in ALL if DECK.kind[c] == k)
    assert DECK.twin["2SGa"] == "2SGb" and DECK.kinds[DECK.kind["2SGa"]] == (2, "star", "green")
    assert list(DECK.bases.values()) == list(range(1, 11)) and list(DECK.bases)[6] == "B7"
    assert len(DECK.tokens) == 48 and DECK.tokens["T3-nature"] == (3, "nature")
    assert DECK.sets[8] == ("T8-0", "T8-1", "T8-2", "T8-nature", "T8-background", "T8-strength")
    assert not {"B1", "T1-0"} & set(ALL)


def test_a_deck_with_a_kind_printed_once_is_refused():
    data = deck_data("neurotrio")
    with pytest.raises(ValueError, match="twice"):
        make_deck({**data, "cards": data["cards"][1:]})


def test_the_game_is_declared_for_3_to_8_players_with_ok_and_next():
    assert INFO.name == INFO.deck == "neurotrio" and INFO.players == range(3, 9) and INFO.defaults() == {}
    assert INFO.pads.seat_pads is None and INFO.pads.centre_pads is None and set(INFO.pads.buttons) == {"ok", "next"}
    for players in (2, 9):
        with pytest.raises(ValueError):
            new_game(DECK, players, 0)


@pytest.mark.parametrize("players, first, counts, start", [
    (3, 0, (18, 17, 17), (6, 5, 5)),
    (4, 2, (13, 13, 13, 13), (5, 5, 5, 5)),
    (5, 3, (10, 10, 10, 11, 11), (5, 5, 5, 6, 6)),
    (8, 6, (7, 7, 6, 6, 6, 6, 7, 7), (6, 6, 5, 5, 5, 5, 6, 6)),
])
def test_PR_N2_the_first_52_mod_n_players_from_the_starter_hold_one_more_and_start_with_6(players, first, counts,
                                                                                         start):
    state = new_game(DECK, players, first)
    assert state.setup.counts == counts and sum(counts) == 52
    assert observe(state, None)["totals"] == list(start)
    assert need(state).chance and need(state).outcomes == DECK.cards and legal_actions(state) == [
        Show(c) for c in DECK.cards]


def test_registration_counts_and_refusals():
    state = run(new_game(DECK, 3, 0), [Show("1HKa")])
    assert refused(state, Show("1HKb")) == "not_now_show"
    assert need(state).simultaneous and need(state).players == (0, 1, 2)
    state = run(state, [Register(0, "2SGa"), Register(1, "3RBb")])
    view = observe(state, None)
    assert view["counts"] == [1, 1, 0] and "2SGa" not in json.dumps(view)
    assert observe(state, 0)["hand"] == ["2SGa"]
    assert refused(state, Register(0, "2SGa")) == "already_registered"
    assert refused(state, Register(2, "2SGa")) == "card_registered"
    assert refused(state, Register(2, "1HKa")) == "card_shown"
    assert refused(state, Register(2, "ZZZa")) == "card_not_in_game"
    assert refused(state, Register(2, "B3")) == "accessory_not_card"
    assert refused(state, Register(2, "T1-0")) == "accessory_not_card"
    assert refused(state, Register(3, "1SGa")) == "no_such_player"
    full = run(state, [Register(1, c) for c in ALL if c not in ("1HKa", "2SGa", "3RBb")][:16])
    assert len(full.hands[1]) == 17 and need(full).players == (0, 2)
    assert refused(full, Register(1, "3RBa")) == "hand_complete"


def test_registration_result_does_not_depend_on_the_order_of_the_taps():
    a = registered(4)
    taps = [Register(p, c) for p in range(4) for c in a.hands[p]]
    random.Random(1).shuffle(taps)
    assert run(run(new_game(DECK, 4, 0), [Show("1HKa")]), taps) == a


def test_N7_the_one_card_nobody_registers_was_removed_and_its_twin_is_the_treasure():
    state = registered(4, removed="3RBa")
    assert state.phase == "build" and state.unseen == ("3RBa",) and treasure(state) == "3RBb"
    assert state.active == 0 and need(state).players == (0,) and not need(state).simultaneous
    view = json.dumps(observe(state, None))
    assert "3RBa" not in view and "3RBb" not in view and observe(state, None)["end"] is None
    rng = random.Random(3)
    while not need(state).done:
        state = apply(state, rng.choice(legal_actions(state)))
    end = observe(state, None)["end"]
    assert end["treasure"] == "3RBb" and end["removed"] == "3RBa"
    assert "hands" not in end and sum(observe(state, None)["counts"]) == sum(map(len, state.hands))


# ---------------------------------------------------------------- placement legality (N2, N3)

def test_N2_touching_one_card_the_card_must_be_compatible_with_it():
    state = table(laid((0, 0, "1HKa")), ["1HGa", "2SGa", "1SGa"], ["3RBa"], ["3RBb"])
    assert legal_cells(state, "1HGa") == ((-1, 0, 0), (0, -1, 0), (0, 1, 0), (1, 0, 0))   # reading order
    assert legal_cells(state, "2SGa") == () and legal_cells(state, "1SGa") == ()   # 0 and 1 attribute shared
    refusal = check(state, Choose(0, "2SGa"))
    assert refusal.key == "no_place_for_card" and "card" not in refusal.args
    assert legal_actions(state) == [Choose(0, "1HGa"), Pass(0)]
    state = run(state, [Choose(0, "1HGa")])
    assert legal_actions(state) == [Place(0, -1, 0), Place(0, 0, -1), Place(0, 0, 1), Place(0, 1, 0)]
    assert refused(state, Place(0, 1, 1)) == "not_a_legal_cell"
    assert refused(state, Place(0, 5, 5)) == "not_a_legal_cell"
    state = run(state, [Place(0, 0, 1)])
    assert observe(state, None)["domain"] == [[0, 0, "1HKa"], [0, 1, "1HGa"]]
    assert state.rewards == (0, 0, 0) and state.active == 1


def test_N2_touching_two_cards_the_card_must_be_compatible_with_both():
    state = table(laid((0, 0, "1HKa"), (0, 1, "1HGa"), (1, 1, "1HBa")), ["1HGb", "1SKa", "2HKa"], ["3RBa"],
                  ["3RBb"])
    assert (1, 0, 1) in legal_cells(state, "1HGb")          # compatible with 1HK and 1HB: +1
    assert (1, 0) not in cells(state, "1SKa")              # 1SK: with 1HK only
    assert (1, 0) not in cells(state, "2HKa")              # 2HK: with 1HK only
    assert (-1, 0) in cells(state, "1SKa")                 # touching 1HK alone it fits


def ring(north, west, east, south):
    """A ring of eight cards around the empty cell (1, 1), with these four touching it."""
    around = {(0, 1): north, (1, 0): west, (1, 2): east, (2, 1): south}
    order = [(0, 0, "3RKa"), (0, 1, north), (0, 2, "3RKb"), (1, 2, east), (2, 2, "1RBa"), (2, 1, south),
             (2, 0, "1RBb"), (1, 0, west)]
    assert all(around[(r, c)] == card for r, c, card in order if (r, c) in around)
    return laid(*order)


@pytest.mark.parametrize("north, west, east, south, points", [
    ("2SKa", "2SBa", "2HGa", "1SGa", 20),    # compatible with all four
    ("2SKa", "2SBa", "2HGa", "3RBa", 5),     # with three of the four
    ("2SKa", "2SBa", "1HKa", "3RBa", 1),     # with two of the four
    ("2SKa", "3HKa", "1HKa", "3RBa", None),  # with one of four: not here
])
def test_N2_touching_four_cards_the_reward_counts_the_compatible_ones(north, west, east, south, points):
    state = table(ring(north, west, east, south), ["2SGa", "3HBa"], ["3RBb"], ["1HKb"])
    found = {(r, c): p for r, c, p in legal_cells(state, "2SGa")}
    assert found.get((1, 1)) == points
    if points is not None:
        after = run(state, [Choose(0, "2SGa"), Place(0, 1, 1)])
        assert after.rewards[0] == points and observe(after, None)["points"][0]["rewards"] == points


def test_N3_a_card_may_not_open_a_seventh_row_at_the_start():
    column = [(r, 0, c) for r, c in enumerate(["1HKa", "2SGa", "2SBa", "2RGa", "2RBa", "3SGa"])]
    state = table(laid(*column, (5, 1, "3SBa"), (5, 2, "3RGa"), (5, 3, "3RBa")), ["1HKb"], ["3RBb"], ["3SBb"])
    assert state.domain.bottom - state.domain.top + 1 == 6
    assert (-1, 0) not in cells(state, "1HKb")             # a 7th row: R = 6
    assert {(0, -1), (0, 1)} <= set(cells(state, "1HKb"))  # a 5th column, or within the box
    shorter = table(laid(*column[:5], (4, 1, "3SBa"), (4, 2, "3RGa"), (4, 3, "3RBa")), ["1HKb"], ["3RBb"],
                    ["3SBb"])
    assert (-1, 0) in cells(shorter, "1HKb")               # a 6th row is open


def test_N3_a_card_may_not_open_a_twelfth_column_at_the_start():
    row = [(0, c, card) for c, card in enumerate(
        ["1HKa", "2SGa", "2SBa", "2RGa", "2RBa", "3SGa", "3SBa", "3RGa", "3RBa", "2SGb", "2SBb"])]
    state = table(laid(*row, *((r, 0, c) for r, c in enumerate(["2RGb", "2RBb", "3SGb", "3SBb", "3RGb"], 1))),
                  ["1HKb"], ["3RBb"], ["1SKa"])
    assert state.domain.right - state.domain.left + 1 == 11
    assert (0, -1) not in cells(state, "1HKb")             # a 12th column: C = 11
    assert (-1, 0) not in cells(state, "1HKb")             # a 7th row: R = 6
    assert (1, 1) not in cells(state, "1HKb")              # touches 2SG and 2RB: compatible with neither


def test_N3_columns_at_most_twice_the_rows_and_rows_at_most_twice_the_columns():
    state = table(laid((0, 0, "1HKa"), (0, 1, "2SGa")), ["2SGb"], ["3RBb"], ["1SKa"])
    assert (0, 2) not in cells(state, "2SGb")              # 1 row x 3 columns
    assert {(-1, 1), (1, 1)} <= set(cells(state, "2SGb"))
    state = table(laid((0, 0, "1HKa"), (1, 0, "2SGa")), ["2SGb"], ["3RBb"], ["1SKa"])
    assert (2, 0) not in cells(state, "2SGb")              # 3 rows x 1 column
    assert {(1, -1), (1, 1)} <= set(cells(state, "2SGb"))


def test_the_cell_prompt_starts_on_the_best_reward_first_in_reading_order():
    assert best_cell(((-1, 0, 0), (0, 2, 1), (1, 1, 5), (2, 0, 5))) == 2
    assert best_cell(((0, 1, 0), (1, 0, 0))) == 0 and best_cell(()) is None
    state = run(table(ring("2SKa", "2SBa", "2HGa", "3RBa"), ["2SGa"], ["3RBb"], ["1HKb"]), [Choose(0, "2SGa")])
    view = observe(state, None)
    assert view["chosen"] == "2SGa" and view["cells"][view["best"]] == [1, 1, 5]


# ---------------------------------------------------------------- growth and the deadlock (PR-N4, PR-N1)

# The start card 1HK in the corner of a comb (row 0: 11 columns, column 0: 6 rows) of cards sharing no attribute
# with it; cards compatible with 1HK then fit only above it (a 7th row) or left of it (a 12th column).
COMB = [(0, c, card) for c, card in enumerate(
    ["1HKa", "2SBa", "2RGa", "2RBa", "3SGa", "3SBa", "3RGa", "3RBa", "2SBb", "2SGa"])] + [
    (r, 0, card) for r, card in enumerate(["2RGb", "2RBb", "3SGb", "3SBb", "3RGb"], 1)]


def test_PR_N4_when_every_holder_is_blocked_one_more_row_and_column_are_allowed():
    state = table(laid(*COMB), ["2SGb", "1HGa"], ["1SKa", "2HKa"], ["3HKa"])
    assert legal_cells(state, "1HGa")                      # not blocked yet: (0, -1) opens an 11th column
    state = run(state, [Choose(0, "2SGb"), Place(0, 0, 10)])
    view = observe(state, None)
    assert view["limits"] == [7, 12] and view["grown"] == 1 and view["box"]["cols"] == 11
    assert cells(state, "1SKa") == [(-1, 0), (0, -1)] and state.active == 1


def test_PR_N1_when_growth_unblocks_nobody_the_building_ends_and_every_holder_pays():
    state = table(laid((0, 0, "2SGa")), ["2SGb", "1HKa"], ["1HKb", "3RBa"], ["1RKa", "3HBa", "1HBa", "3RKa"])
    state = run(state, [Choose(0, "2SGb"), Place(0, 0, 1)])
    view = observe(state, None)
    assert state.phase == "over" and need(state).done and view["end"]["reason"] == "deadlock"
    assert [p["penalty"] for p in view["points"]] == [-1, -2, -20]
    assert [p["finishing"] for p in view["points"]] == [0, 0, 0]
    assert view["totals"] == [6 - 1, 5 - 2, 5 - 20] and view["winners"] == [0]
    assert refused(state, Call(1)) == "game_over"


# ---------------------------------------------------------------- passing (N4) and the end (N5)

def test_N4_a_pass_costs_one_point_and_the_turn_moves_on():
    state = registered(3)
    state = run(state, [Pass(0)])
    view = observe(state, None)
    assert view["passes"] == [1, 0, 0] and view["points"][0]["passes"] == -1 and view["totals"][0] == 6 - 1
    assert state.active == 1 and view["turn"] == 1


def test_N4_after_deux_cartes_a_pass_is_refused_unless_no_placement_exists():
    state = table(laid((0, 0, "1HKa")), ["1HGa", "1HBa", "2HKa"], ["3RBa", "1SKa", "3RKa", "2SGa"], ["3RBb"])
    assert check(state, Pass(0)) is None
    state = run(state, [Choose(0, "1HGa"), Place(0, 0, 1)])
    assert observe(state, None)["two_cards"] == 0 and state.active == 1
    assert refused(state, Pass(1)) == "must_place"         # 1SK fits below 1HK
    state = run(state, [Choose(1, "1SKa"), Place(1, 1, 0)])
    assert not legal_cells(state, "3RBb") and check(state, Pass(2)) is None   # blocked: may pass
    assert refused(run(state, [Pass(2), Choose(0, "1HBa")]), Pass(0)) == "card_chosen"


@pytest.mark.parametrize("left, penalty", [(1, 1), (2, 2), (3, 5), (4, 20), (6, 20)])
def test_N5_the_last_holder_pays_for_the_cards_left_and_the_first_to_empty_score_5_3_1(left, penalty):
    last = ["3RBa", "3RBb", "3RKa", "3SBa", "2RBa", "3HBb"][:left]
    state = table(laid((0, 0, "1HKa")), ["1HGa"], last, [], tally=Tally((0, 0, 0), (2,)))
    state = run(state, [Choose(0, "1HGa"), Place(0, 0, 1)])
    view = observe(state, None)
    assert state.phase == "over" and view["end"]["reason"] == "one_left" and view["finished"] == [2, 0]
    assert [p["finishing"] for p in view["points"]] == [3, 0, 5]
    assert [p["penalty"] for p in view["points"]] == [0, -penalty, 0]
    assert view["totals"] == [6 + 3, 5 - penalty, 5 + 5]
    assert view["counts"] == [0, left, 0] and "hands" not in view["end"]   # the last hand stays hidden


# ---------------------------------------------------------------- neuro: calls and bidding (N6, PR-N3)

def after_first_play(players=5):
    """A registered game after its first play (player 0 passed): the window for a call is open."""
    return run(registered(players), [Pass(0)])


def test_PR_N3_no_call_before_the_first_play_and_one_round_at_most_between_two_plays():
    state = registered(4, hands={1: ["1HGa"]})
    assert refused(state, Call(2)) == "call_before_first_play"
    state = run(state, [Pass(0)])
    assert {a for a in legal_actions(state) if isinstance(a, Call)} == {Call(p) for p in range(4)}
    assert observe(state, None)["callers"] == [0, 1, 2, 3]
    assert refused(run(state, [Choose(1, "1HGa")]), Call(2)) == "call_after_choice"
    state = run(state, [Call(3)])
    assert refused(state, Call(1)) == "not_now_call"
    state = run(state, [BidBase(3, "B5"), BidCard(3, "1HKa"), BidToken(3, "T2-1"), NoBid(0), NoBid(1)])
    assert observe(state, None)["passed"] == [0, 1] and observe(state, None)["to_bid"] == [2]   # public
    state = run(state, [NoBid(2)])
    assert state.phase == "build" and state.active == 1 and observe(state, None)["passed"] == []
    assert refused(state, Call(2)) == "call_already_made"
    assert check(run(state, [Pass(1)]), Call(2)) is None        # the next play opens a new window


def test_PR_N3_the_caller_needs_a_token_and_a_base_left():
    state = after_first_play(4)
    n = state.neuro
    no_tokens = _evolve(state, neuro=n._replace(tokens=(6, 0, 6, 6)))
    assert refused(no_tokens, Call(1)) == "no_token_left" and check(no_tokens, Call(2)) is None
    no_bases = _evolve(state, neuro=n._replace(bases=()))
    assert refused(no_bases, Call(2)) == "no_base_left" and observe(no_bases, None)["callers"] == []


def test_N6_bidding_goes_clockwise_from_the_caller_skipping_players_without_tokens():
    state = after_first_play(5)
    state = _evolve(state, neuro=state.neuro._replace(tokens=(6, 6, 6, 0, 6)))
    state = run(state, [Call(2)])
    assert state.phase == "bid" and state.neuro.order == (2, 4, 0, 1) and need(state).players == (2,)
    assert refused(state, NoBid(2)) == "caller_must_bid"
    assert refused(state, BidBase(4, "B1")) == "not_your_bid"
    # three taps in any order; the token is the commit
    state = run(state, [BidToken(2, "T6-2"), BidCard(2, "1HKa"), BidBase(2, "B9")])
    assert state.neuro.bids == (Wager(2, "B9", "1HKa", "T6-2"),) and need(state).players == (4,)
    assert refused(state, BidBase(4, "B9")) == "base_used"
    assert refused(state, BidToken(4, "T6-0")) == "another_players_token"
    state = run(state, [NoBid(4)])
    # another base or card tapped before the bid is complete replaces the earlier one
    state = run(state, [BidBase(0, "B1"), BidBase(0, "B2"), BidCard(0, "1HKa")])
    assert refused(state, BidBase(0, "B2")) == "already_in_bid"
    assert observe(state, None)["bid"] == {"bidder": 0, "base": 2, "card": "1HKa", "token": None}
    state = run(state, [BidToken(0, "T1-nature")])
    assert state.neuro.bids[-1] == Wager(0, "B2", "1HKa", "T1-nature")
    state = run(state, [BidCard(1, "1HKa"), BidToken(1, "T3-0")])
    assert refused(state, NoBid(1)) == "token_in_bid"
    assert refused(state, BidToken(1, "T3-1")) == "token_in_bid"
    state = run(state, [BidBase(1, "B10")])
    assert state.phase == "build" and state.active == 1 and state.neuro.tokens == (5, 5, 5, 0, 6)
    assert observe(state, None)["bases_left"] == [1, 3, 4, 5, 6, 7, 8]


def test_N6_tokens_a_set_belongs_to_its_first_user_and_each_token_and_base_serves_once():
    state = run(after_first_play(3), [Call(0), BidBase(0, "B1"), BidCard(0, "1HKa"), BidToken(0, "T5-1"),
                                     NoBid(1), NoBid(2)])
    state = run(state, [Pass(1), Call(0)])
    assert refused(state, BidToken(0, "T5-1")) == "token_used"
    assert refused(state, BidToken(0, "T4-2")) == "not_your_token_set"
    assert refused(state, BidBase(0, "B1")) == "base_used"
    assert refused(state, BidCard(0, "2SGa")) == "not_on_domain"
    assert refused(state, BidCard(0, "B2")) == "accessory_not_card"
    assert refused(state, BidBase(0, "1HKa")) == "not_a_base"
    assert refused(state, BidToken(0, "B2")) == "not_a_token"
    assert observe(state, 0)["tokens"] == ["0", "2", "nature", "background", "strength"]
    assert observe(state, 1)["tokens"] == list(("0", "1", "2", "nature", "background", "strength"))
    state = run(state, [BidToken(0, "T5-2"), BidBase(0, "B2"), BidCard(0, "1HKa"), BidToken(1, "T1-0")])
    assert observe(state, 1)["my_token"] == "0" and observe(state, None)["bid"]["token"] == "hidden"


def test_N6_the_round_ends_early_when_the_bases_run_out():
    state = after_first_play(4)
    state = _evolve(state, neuro=state.neuro._replace(bases=("B4",)))
    state = run(state, [Call(2), BidBase(2, "B4"), BidCard(2, "1HKa"), BidToken(2, "T1-0")])
    assert state.phase == "build" and observe(state, None)["bases_left"] == []
    assert refused(state, Call(0)) == "call_already_made"


def test_N6_bidding_is_allowed_with_an_empty_hand():
    state = table(laid((0, 0, "1HKa")), ["1HGa", "2SGa"], ["1HBa", "3RBa"], [], turn=1,
                  tally=Tally((0, 0, 0), (2,)))
    state = run(state, [Call(2), BidBase(2, "B3"), BidCard(2, "1HKa"), BidToken(2, "T2-strength")])
    assert state.neuro.bids[0].bidder == 2


# ---------------------------------------------------------------- scoring the bids (N7)

TREASURE = "2SGa"


@pytest.mark.parametrize("token, on_treasure, two_shared, one_shared, none_shared", [
    ("0", 0, 0, 0, 0),
    ("1", 21, 7, -7, -14),
    ("2", 42, 14, -14, -28),
    ("nature", 7, 7, -7, -7),            # the cards below: 2 star green, 2 star blue, 2 heart black, 1 heart black
    ("background", 7, -7, -7, -7),
    ("strength", 7, 7, 7, -7),
])
def test_N7_each_token_scores_by_what_its_card_shares_with_the_treasure(token, on_treasure, two_shared,
                                                                        one_shared, none_shared):
    scores = [bid_score(DECK, TREASURE, Wager(0, "B7", card, f"T1-{token}"))
              for card in ("2SGb", "2SBa", "2HKa", "1HKa")]
    assert scores == [on_treasure, two_shared, one_shared, none_shared]


def test_N7_at_the_end_every_bid_is_scored_and_counted_in_the_totals():
    domain = laid((0, 0, "1HKa"), (0, 1, "1HGa"), (1, 1, "2HGa"))
    state = table(domain, ["1HKb"], ["3RBa", "3RBb"], [], turn=1, tally=Tally((0, 0, 0), (2,)))
    state = _evolve(state, unseen=("1HGb",))               # the treasure: 1HGa, on the domain
    state = run(state, [Call(1), BidBase(1, "B10"), BidCard(1, "1HGa"), BidToken(1, "T1-2"),
                        BidBase(2, "B5"), BidCard(2, "2HGa"), BidToken(2, "T2-background"),
                        BidBase(0, "B1"), BidCard(0, "1HKa"), BidToken(0, "T3-nature")])
    before = observe(state, None)
    assert [b["token"] for b in before["bids"]] == ["hidden"] * 3 and "score" not in before["bids"][0]
    state = run(state, [Choose(0, "1HKb"), Place(0, -1, 0)])
    view = observe(state, None)
    assert view["end"]["treasure"] == "1HGa" and view["end"]["removed"] == "1HGb"
    assert [(b["token"], b["score"]) for b in view["bids"]] == [("2", 60), ("background", 5), ("nature", 1)]
    assert [p["bids"] for p in view["points"]] == [1, 60, 5]
    assert view["totals"] == [6 + 3 + 1, 5 + 60 - 2, 5 + 5 + 5] and view["winners"] == [1]


# ---------------------------------------------------------------- secrecy (TABLE-PROTOCOLS 3.3)

def test_the_public_view_names_no_hand_no_token_and_no_treasure_before_the_end():
    state = after_first_play(4)
    state = run(state, [Call(1), BidBase(1, "B2"), BidCard(1, "1HKa"), BidToken(1, "T4-strength"),
                        BidToken(2, "T7-nature")])
    view = observe(state, None)
    text = json.dumps(view)
    assert not any(card in text for hand in state.hands for card in hand)
    assert "T4" not in text and "strength" not in text and "nature" not in text and "T7" not in text
    assert "3RBa" not in text and "3RBb" not in text and "hand" not in view and "tokens" not in view
    assert view["bids"] == [{"bidder": 1, "base": 2, "card": "1HKa", "token": "hidden"}]
    assert view["bid"] == {"bidder": 2, "base": None, "card": None, "token": "hidden"}
    assert view["tokens_left"] == [6, 5, 6, 6]
    other = run(after_first_play(4), [Call(1), BidBase(1, "B2"), BidCard(1, "1HKa"), BidToken(1, "T4-0"),
                                     BidToken(2, "T7-2")])
    assert observe(other, None) == view and observe(other, 1) != observe(state, 1)
