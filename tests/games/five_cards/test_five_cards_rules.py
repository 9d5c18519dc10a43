"""Five Cards, hand-worked: the rule text's example, each of RULINGS P4 and PR-F1..F3, refusals, acts."""
from __future__ import annotations

from dataclasses import replace

import pytest

from table.assets import deck_data
from table.games.contract import ButtonPress, CardOnPad, PadShape, Refusal
from table.games.five_cards import acts
from table.games.five_cards.bots import choose, column_value
from table.games.five_cards.rules import (
    INFO, Draw, DrawFirst, Match, Place, Show, apply, check, deck_cards, legal_actions, legal_columns, make_deck,
    need, new_game, next_starter, observe, score_column, winners_of,
)

DECK = make_deck(deck_data("pairs"))
ALL = sorted(DECK.ranks)
TARGETS = ("3a", "5a", "6a", "7a", "9a")       # the rule text's example: columns 3, 5, 6, 7, 9


def play(state, *actions):
    """Apply actions, each checked first."""
    for action in actions:
        refusal = check(state, action)
        assert refusal is None, (action, refusal)
        state = apply(state, action)
    return state


def ready(first_player=0, targets=TARGETS, state=None):
    """A game (or `state`, in its setup) with `targets` shown and, in round 1, `first_player` drawn."""
    state = state or new_game(DECK, 2, 0, {})
    state = play(state, *map(Show, targets))
    if state.phase == "first":
        state = play(state, DrawFirst(first_player))
    return state


def put(state, player, card, column=None):
    """`player` draws `card` and, when a prompt opens, places it in `column`."""
    state = play(state, Draw(player, card))
    if state.phase == "place":
        state = play(state, Place(player, column))
    else:
        assert column is None or state.turns[-1].column == column
    return state


def example_round(state):
    """The rule text's example, player 0 (the top player) first: the top player stands to win the 3, 5, 6
    and 9, the bottom player the 7; every column holds a 7, so the 7 drawn next ends the round."""
    top, bottom = 0, 1
    state = put(state, top, "7b", 0)
    state = put(state, bottom, "8a", 3)
    state = put(state, top, "7c", 1)
    state = put(state, bottom, "1a", 3)
    state = put(state, top, "7d", 2)
    state = put(state, bottom, "2a", 3)
    state = put(state, top, "7e")                # only the 9 column is left for a 7: placed by itself
    assert state.turns[-1].how == "auto" and state.turns[-1].column == 4
    return play(state, Draw(bottom, "7f"))


# ---------------------------------------------------------------- players and setup

@pytest.mark.parametrize("players", [1, 3, 4, 8])
def test_P4_five_cards_is_for_two_players_only(players):
    assert INFO.players == range(2, 3)
    with pytest.raises(ValueError):
        new_game(DECK, players, 0, {})


def test_setup_needs_centre_cards_shown_by_anyone():
    state = new_game(DECK, 2, 1, {})
    n = need(state)
    assert (n.chance, n.by, n.table_draw, n.players) == (True, None, False, ())
    assert sorted(n.outcomes) == ALL
    assert legal_actions(state) == [Show(c) for c in n.outcomes]


def test_setup_repeated_rank_is_set_aside_and_goes_back_into_the_deck():
    state = play(new_game(DECK, 2, 0, {}), Show("7a"), Show("7b"))
    view = observe(state, None)
    assert view["targets"] == ["7a"]
    assert view["setup"]["last"] == {"card": "7b", "rank": 7, "role": "aside", "duplicate_of": "7a"}
    assert view["setup"]["aside"] == ["7b"] and view["setup"]["targets_needed"] == 4
    assert "7b" not in need(state).outcomes
    state = play(state, Show("10a"), Show("3a"), Show("10b"), Show("1a"))
    assert state.phase == "setup" and observe(state, None)["setup"]["aside"] == ["7b", "10b"]
    state = play(state, Show("5a"))
    view = observe(state, None)
    assert view["targets"] == ["1a", "3a", "5a", "7a", "10a"]      # sorted low to high
    assert view["target_ranks"] == [1, 3, 5, 7, 10]
    assert view["setup"]["done"] and view["setup"]["aside_back_to_deck"]
    assert [s["role"] for s in view["setup"]["shown"]] == ["target", "aside", "target", "target", "aside",
                                                          "target", "target"]
    # back into the deck: both set-aside cards can be drawn; the targets cannot
    assert {"7b", "10b"} <= set(deck_cards(state)) and len(deck_cards(state)) == 50
    assert view["deck_count"] == 50


def test_round_one_first_player_is_a_table_draw():
    state = play(new_game(DECK, 2, 1, {}), *map(Show, TARGETS))
    n = need(state)
    assert state.phase == "first"
    assert (n.chance, n.table_draw, n.by, n.outcomes) == (True, True, None, ("0", "1"))
    assert legal_actions(state) == [DrawFirst(0), DrawFirst(1)]
    state = play(state, DrawFirst(1))
    view = observe(state, None)
    assert (view["starter"], view["starter_reason"], view["active"]) == (1, "draw", 1)


def test_a_draw_is_a_chance_outcome_shown_by_the_active_seat():
    state = ready(first_player=1)
    n = need(state)
    assert (n.chance, n.by, n.table_draw) == (True, 1, False)
    assert len(n.outcomes) == 50 and not set(TARGETS) & set(n.outcomes)
    assert legal_actions(state) == [Draw(1, c) for c in n.outcomes]


# ---------------------------------------------------------------- columns

def test_a_rank_already_in_a_column_is_not_playable_there_target_or_either_side():
    state = ready()
    assert legal_columns(state, "7b") == [0, 1, 2, 4]                 # the 7 target
    state = put(state, 0, "8a", 0)                                     # own side, column 3
    state = put(state, 1, "4a", 1)                                     # other side, column 5
    assert legal_columns(state, "8b") == [1, 2, 3, 4]
    assert legal_columns(state, "4b") == [0, 2, 3, 4]
    state = play(state, Draw(0, "4b"))
    assert check(state, Place(0, 1)) == Refusal.of("column_not_legal", column=1, player=0, target=5)
    assert [a.column for a in legal_actions(state)] == [0, 2, 3, 4]


def test_several_legal_columns_open_a_prompt_cursor_on_the_first():
    state = play(ready(), Draw(0, "7b"))
    assert state.phase == "place" and need(state).players == (0,)
    prompt = acts.prompt(state)
    assert prompt.player == 0 and prompt.start == 0
    assert prompt.options == (Place(0, 0), Place(0, 1), Place(0, 2), Place(0, 4))
    assert [dict(params)["rank"] for _, params in prompt.labels] == [3, 5, 6, 9]
    assert observe(state, None)["last_draw"] == {"player": 0, "card": "7b", "rank": 7, "column": None,
                                                 "how": "pending"}
    assert observe(state, None)["legal_columns"] == [0, 1, 2, 4]
    # Next twice then OK places the card on the 6
    assert acts.acts_for(state, Place(0, 2), PadShape()) == (
        ButtonPress(0, "next"), ButtonPress(0, "next"), ButtonPress(0, "ok"))
    state = play(state, Place(0, 2))
    assert state.phase == "play" and state.active == 1 and acts.prompt(state) is None
    view = observe(state, None)
    assert view["columns"][2]["sides"] == [["7b"], []] and view["columns"][2]["sums"] == [7, 0]
    assert view["last_draw"]["how"] == "chosen"


def test_exactly_one_legal_column_places_the_card_without_a_prompt():
    state = ready()
    for player, card, column in [(0, "7b", 0), (1, "7c", 1), (0, "7d", 2)]:
        state = put(state, player, card, column)
    state = play(state, Draw(1, "7e"))
    assert state.phase == "play" and acts.prompt(state) is None and state.active == 0
    assert observe(state, None)["columns"][4]["sides"] == [[], ["7e"]]
    assert observe(state, None)["last_draw"] == {"player": 1, "card": "7e", "rank": 7, "column": 4, "how": "auto"}


# ---------------------------------------------------------------- the rule text's example and scoring

def test_rule_text_example_a_seven_ends_the_round_top_wins_3_5_6_9_bottom_the_7():
    state = example_round(ready(first_player=0))
    view = observe(state, None)
    result = view["round_result"]
    assert result["ender"] == {"player": 1, "card": "7f", "rank": 7, "column": None, "how": "blocked"}
    assert [c["winner"] for c in result["columns"]] == [0, 0, 0, 1, 0]
    assert [c["points"] for c in result["columns"]] == [[3, 0], [5, 0], [6, 0], [0, 7], [9, 0]]
    assert [c["sums"] for c in result["columns"]] == [[7, 0], [7, 0], [7, 0], [0, 11], [7, 0]]
    assert result["scores"] == [23, 7] and view["totals"] == [23, 7] and view["history"] == [[23, 7]]
    # a fresh round: the whole deck again, the lower scorer starts (P4)
    assert (view["phase"], view["round"], view["starter"], view["starter_reason"]) == (
        "setup", 2, 1, "scored_less")
    assert sorted(need(state).outcomes) == ALL and view["columns"] == [] and view["turns"] == []


def test_P4_larger_side_takes_the_target_a_tie_splits_it_rounded_down():
    assert score_column(9, (12, 11)) == (0, (9, 0))
    assert score_column(9, (3, 10)) == (1, (0, 9))
    assert score_column(9, (5, 5)) == (None, (4, 4))
    assert score_column(6, (8, 8)) == (None, (3, 3))
    # at the table: on the 9, 8 against 2 + 6 is a tie (4 each); 8s fill the other columns, the 6th 8 ends it
    state = ready(first_player=0)
    for player, card, column in [(0, "8a", 4), (1, "2a", 4), (0, "8b", 0), (1, "6b", 4), (0, "8c", 1),
                                 (1, "8d", 3), (0, "8e", None)]:
        state = put(state, player, card, column)
    assert state.turns[-1].column == 2
    state = play(state, Draw(1, "8f"))
    result = observe(state, None)["round_result"]
    assert [c["sums"] for c in result["columns"]] == [[8, 0], [8, 0], [8, 0], [0, 8], [8, 8]]
    assert [c["winner"] for c in result["columns"]] == [0, 0, 0, 1, None]
    assert [c["points"] for c in result["columns"]] == [[3, 0], [5, 0], [6, 0], [0, 7], [4, 4]]
    assert result["scores"] == [18, 11]


def test_PR_F1_a_column_empty_on_both_sides_is_a_tie_halved_rounded_down():
    assert score_column(7, (0, 0)) == (None, (3, 3))
    assert score_column(1, (0, 0)) == (None, (0, 0))
    # at the table: 7s fill the 1, 3, 5 and 9 columns; the 7 column stays empty on both sides
    state = ready(first_player=0, targets=("1a", "3a", "5a", "7a", "9a"))
    for player, card, column in [(0, "7b", 1), (1, "7c", 2), (0, "7d", 0), (1, "7e", None)]:
        state = put(state, player, card, column)
    state = play(state, Draw(0, "7f"))
    result = observe(state, None)["round_result"]
    col7 = result["columns"][3]
    assert (col7["rank"], col7["sums"], col7["winner"], col7["split"], col7["points"]) == (
        7, [0, 0], None, True, [3, 3])
    assert result["scores"] == [1 + 3 + 3, 5 + 3 + 9]


def equal_round(state, starter):
    """A round (targets 1 2 3 4 6) both players score 8 in: the starter takes the 1 and the 4, the other the
    2 and the 3 (6s on one side each), the 6 column stays empty (3 each); the sixth 6 ends the round."""
    other = 1 - starter
    state = ready(first_player=starter, targets=("1a", "2a", "3a", "4a", "6a"), state=state)
    assert state.active == starter
    for player, card, column in [(starter, "6b", 0), (other, "6c", 1), (starter, "6d", 3), (other, "6e", None)]:
        state = put(state, player, card, column)
    return play(state, Draw(starter, "6f"))


def test_PR_F2_equal_scores_the_player_who_did_not_start_starts():
    assert next_starter((10, 10), 0) == (1, "equal_alternate")
    assert next_starter((10, 10), 1) == (0, "equal_alternate")
    for starter in (0, 1):
        view = observe(equal_round(None, starter), None)
        assert view["round_result"]["scores"] == [8, 8]
        assert (view["round"], view["starter"], view["starter_reason"]) == (2, 1 - starter, "equal_alternate")


def test_P4_the_player_who_scored_less_starts_the_next_round():
    assert next_starter((3, 10), 1) == (0, "scored_less")
    assert next_starter((30, 10), 1) == (1, "scored_less")
    state = example_round(ready(first_player=0))                      # 23 and 7, player 0 started
    assert (state.round.starter, state.round.reason) == (1, "scored_less")
    state = equal_round(state, 1)                                      # no table draw after round 1
    assert state.round.number == 3 and (state.round.starter, state.round.reason) == (0, "equal_alternate")
    assert state.totals == (31, 15)


def test_PR_F3_first_to_100_wins_at_the_end_of_a_round():
    assert winners_of((99, 98)) == ()
    assert winners_of((100, 98)) == (0,)
    assert winners_of((101, 120)) == (1,)
    assert winners_of((110, 110)) == (0, 1)
    state = ready(first_player=0)
    state = replace(state, match=Match(totals=(77, 50)))
    state = example_round(state)                                       # 23 and 7: exactly 100
    view = observe(state, None)
    assert (view["phase"], view["winners"], view["totals"]) == ("over", [0], [100, 57])
    assert need(state).done and legal_actions(state) == []


def test_PR_F3_both_reach_100_in_the_same_round_higher_total_wins():
    state = replace(ready(first_player=0), match=Match(totals=(80, 98)))
    state = example_round(state)                                       # 103 and 105
    assert observe(state, None)["winners"] == [1] and state.phase == "over"


def test_PR_F3_both_reach_100_with_equal_totals_share_the_win():
    state = replace(ready(first_player=0), match=Match(totals=(90, 106)))
    state = example_round(state)                                       # 113 and 113
    assert observe(state, None)["winners"] == [0, 1]


def test_below_100_the_game_goes_on():
    state = replace(ready(first_player=0), match=Match(totals=(76, 92)))
    state = example_round(state)                                       # 99 and 99
    assert state.phase == "setup" and state.winners == () and state.totals == (99, 99)


# ---------------------------------------------------------------- refusals

def _refused(state, action, key):
    before = (state, observe(state, None))
    refusal = check(state, action)
    assert isinstance(refusal, Refusal) and refusal.key == key, refusal
    assert (state, observe(state, None)) == before


def test_refusals_during_setup():
    state = play(new_game(DECK, 2, 0, {}), Show("4a"))
    _refused(state, Show("4a"), "card_seen")
    _refused(state, Show("11a"), "card_not_in_game")
    _refused(state, Draw(0, "5a"), "wait_for_targets")
    _refused(state, Place(0, 0), "not_now_place")
    _refused(state, DrawFirst(0), "not_now_table_draw")
    _refused(state, "a card", "unknown_action")
    state = play(state, *map(Show, ("1a", "2a", "3a", "5a")))
    _refused(state, Draw(0, "6a"), "wait_for_targets")
    _refused(state, DrawFirst(2), "no_such_player")


def test_refusals_during_play():
    state = ready(first_player=0)
    _refused(state, Show("4a"), "not_now_show")
    _refused(state, Draw(1, "4a"), "not_your_turn")
    _refused(state, Draw(2, "4a"), "no_such_player")
    _refused(state, Draw(0, "3a"), "card_on_table")                   # a target
    _refused(state, Draw(0, "x"), "card_not_in_game")
    _refused(state, Place(0, 0), "not_now_place")
    _refused(state, DrawFirst(0), "not_now_table_draw")
    state = put(state, 0, "8a", 0)
    _refused(state, Draw(1, "8a"), "card_on_table")                   # in a column
    state = play(state, Draw(1, "4a"))
    _refused(state, Draw(1, "4b"), "choose_column_first")
    _refused(state, Draw(0, "4b"), "not_your_turn")
    _refused(state, Place(0, 0), "not_your_turn")
    _refused(state, Place(1, 5), "no_such_column")
    _refused(state, Place(3, 0), "no_such_player")
    state = play(state, Place(1, 0))
    state = play(state, Draw(0, "4b"))
    _refused(state, Place(0, 0), "column_not_legal")


def test_refusals_after_the_game():
    state = example_round(replace(ready(first_player=0), match=Match(totals=(90, 0))))
    assert state.phase == "over"
    for action in (Show("4a"), Draw(0, "4a"), Place(0, 0), DrawFirst(0)):
        _refused(state, action, "game_over")


# ---------------------------------------------------------------- acts

def test_acts_a_centre_card_is_a_setup_card_read_again_it_is_no_act():
    state = new_game(DECK, 2, 0, {})
    assert acts.interpret(state, CardOnPad("4a")) == Show("4a")
    assert acts.interpret(state, CardOnPad("4a", None, 3)) == Show("4a")
    state = play(state, Show("4a"), Show("4b"))
    assert acts.interpret(state, CardOnPad("4a")) is None             # a target read again
    assert acts.interpret(state, CardOnPad("4b")) is None             # a set-aside card read again
    state = ready(state=state, targets=("1a", "2a", "3a", "5a"))
    assert acts.interpret(state, CardOnPad("5a")) is None
    assert acts.interpret(state, CardOnPad("6a")) == Refusal.of("not_now_show", card="6a")


def test_acts_a_seat_card_is_a_draw_read_again_it_is_no_act():
    state = ready(first_player=0)
    assert acts.interpret(state, CardOnPad("8a", 0)) == Draw(0, "8a")
    assert acts.interpret(state, CardOnPad("8a", 0, 2)) == Draw(0, "8a")   # any pad of the seat
    assert acts.interpret(state, CardOnPad("8a", 1)) == Draw(1, "8a")      # refused by check: not your turn
    state = play(state, Draw(0, "8a"))
    assert acts.interpret(state, CardOnPad("8a", 0)) is None               # waiting for its column
    assert acts.interpret(state, CardOnPad("8b", 0)) == Draw(0, "8b")      # check: choose_column_first
    state = play(state, Place(0, 1))
    assert acts.interpret(state, CardOnPad("8a", 0)) is None               # on its own side now
    assert acts.interpret(state, CardOnPad("8a", 1)) == Draw(1, "8a")      # check: card_on_table
    assert check(state, acts.interpret(state, CardOnPad("8a", 1))).key == "card_on_table"


def test_acts_buttons_outside_a_prompt_and_the_other_seat():
    state = ready(first_player=0)
    assert acts.interpret(state, ButtonPress(0, "ok")) == Refusal.of("no_choice_now", player=0)
    state = play(state, Draw(0, "8a"))
    assert acts.interpret(state, ButtonPress(1, "next")) == Refusal.of("not_your_turn", player=1)


def test_table_gate_after_a_round_until_the_next_setup_card():
    state = ready(first_player=0)
    assert not acts.must_clear(state)
    state = example_round(state)
    assert acts.must_clear(state)
    # the card that ended the round, read again on its seat's pad, is no act
    assert acts.interpret(state, CardOnPad("7f", 1)) is None
    assert check(state, acts.interpret(state, CardOnPad("7f", 0))).key == "wait_for_targets"
    state = play(state, Show("2a"))
    assert not acts.must_clear(state)


def test_acts_for_single_and_several_pads():
    state = new_game(DECK, 2, 0, {})
    assert acts.acts_for(state, Show("4a"), PadShape(1, 1)) == (CardOnPad("4a", None, None),)
    assert acts.acts_for(state, Show("4a"), PadShape(4, 4)) == (CardOnPad("4a", None, 0),)
    state = ready(state=state)
    assert acts.acts_for(state, Draw(0, "4a"), PadShape(1, 1)) == (CardOnPad("4a", 0, None),)
    assert acts.acts_for(state, Draw(0, "4a"), PadShape(4, 4)) == (CardOnPad("4a", 0, 0),)
    assert acts.acts_for(play(new_game(DECK, 2, 0, {}), *map(Show, TARGETS)), DrawFirst(0), PadShape()) == ()


# ---------------------------------------------------------------- views and bots

def test_views_hold_everything_and_nothing_is_secret():
    state = play(ready(first_player=1), Draw(1, "8a"))
    public = observe(state, None)
    for p in (0, 1):
        assert observe(state, p) == {**public, "seat": p}
    for key in ("phase", "players", "totals", "winners", "targets", "columns", "active", "last_draw",
                "starter", "starter_reason", "setup", "round_result"):
        assert key in public


def test_bot_turns_a_lost_column_into_a_win_on_the_higher_target():
    # losing 0 vs 3 on the 9: a 4 wins it (+9); on the 5 (0 vs 0) a 4 wins it too (+2.5) : the 9
    assert column_value(9, 0, 3, 4) > column_value(5, 0, 0, 4)
    # a column already won by more than 10 is avoided
    assert column_value(10, 15, 0, 2) < column_value(1, 0, 5, 2)
    state = play(ready(first_player=0), Draw(0, "8a"))
    action = choose(observe(state, 0), legal_actions(state), None)
    assert action == Place(0, 4)                                       # every column 0-0: the highest target
