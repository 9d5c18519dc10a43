"""What Kitty's pages show, read from the view without pygame: the scoring units, the bidders from the lowest up,
what to do, each seat's progress, a step, a deal's points and the stakes in words."""
from __future__ import annotations

from games.tables import Keys
from table.games.kitty import view as shown
from table.screen.i18n import Translator


def test_units_are_the_teams_or_each_player_and_bids_go_lowest_first():
    assert shown.units({"teams": None, "players": 3}) == [[0], [1], [2]]
    assert shown.units({"teams": [[0, 2], [1, 3]], "players": 4}) == [[0, 2], [1, 3]]
    assert shown.bid_order(["b", "a", "b"], {"a": 1, "b": 5}) == [1, 0, 2]


def test_the_prompt_the_seats_progress_and_a_steps_words():
    table = {"joined": [2, 5, 7], "view": {"phase": "pick", "picker": 1}}
    assert shown.prompt(Keys(), table) == "prompt_pick(seat=5)"
    assert shown.prompt(Keys(), {**table, "clearing": True}) == "prompt_clear"
    register = {"phase": "register", "hand_size": 4, "registered": [4, 1], "counts": [0, 0]}
    assert [shown.progress(register, p) for p in (0, 1)] == [("4/4", True), ("1/4", False)]
    assert shown.held(register, 1) == 4
    assert shown.progress({"phase": "bid", "bid": [True, False]}, 1) == ("", False)
    give = {"step": "give", "player": 0, "card": "c1", "players": [1, 2]}
    assert shown.step_text(Keys(), table, give, str.upper, {}) == \
        "step_give(card=C1, receivers=seats_or(5, 7), seat=2)"


def test_a_deals_points_and_the_stakes_in_words():
    scores = {"ranks": [2, 7, 9], "scorers": [[0], [0, 1], [0]], "unit_points": [18, 7]}
    assert [shown.formula(scores, u) for u in (0, 1)] == ["2 + 7 + 9 = 18", "7"]
    table = {"joined": [1, 3], "view": {"stakes": {"payments": [{"from": [1], "to": [0], "amount": 8}]}}}
    assert shown.settlement_text(Keys(), table, [0]) == "stakes_gets(items=from_unit(amount=8, unit=seats(3)))"
    assert shown.settlement_text(Keys(), table, [1]) == "stakes_pays(items=to_unit(amount=8, unit=seats(1)))"


def test_the_1s_gift_says_who_decides_how_and_to_whom_in_both_languages():
    table = {"joined": [2, 5, 7], "view": {"phase": "gift", "gift": {"giver": 0, "card": "8a", "receivers": [1, 2]}}}
    give = {"step": "give", "player": 0, "card": "8a", "players": [1, 2]}
    assert shown.prompt(Keys(), table) == "prompt_gift(receivers=seats_or(5, 7), seat=2)"
    fr, en = Translator("fr", "kitty"), Translator("en", "kitty")
    assert shown.step_text(fr, table, give, lambda card: "8", {}) == \
        "Siège 2 (le 1) choisit qui reçoit la cible 8 : Siège 5 ou 7"
    assert shown.step_text(en, table, give, lambda card: "8", {}) == "Seat 2 (the 1) chooses who gets target 8: Seat 5 or 7"
    assert shown.prompt(fr, table) == \
        "Siège 2 : tendez la cible à Siège 5 ou 7, au choix ; qui la reçoit la touche sur son lecteur"
    assert shown.prompt(en, table) == \
        "Seat 2: hand the target to Seat 5 or 7, your choice; whoever gets it taps it on their reader"
