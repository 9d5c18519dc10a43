"""What Venture's pages show, read from the view without pygame: what to do and who does it."""
from __future__ import annotations

from games.tables import Keys, first_state, table_view
from table.games.venture import view as shown
from table.registry import GAMES
from table.screen.i18n import Translator

GAME = GAMES["venture"]


def test_the_prompt_names_everyone_or_the_seats_still_to_act():
    bidding = table_view(GAME, first_state(GAME, 3, lambda s: s.phase == "bidding"), seats=[2, 4, 7])
    assert shown.prompt(Keys(), bidding) == "prompt_bid(who=everyone)"
    assert shown.who(Keys(), bidding, [0, 2]) == "seats(2, 7)"
    pads = table_view(GAME, first_state(GAME, 3, lambda s: s.phase == "bidding"), seat_pads=4)
    assert shown.prompt(Keys(), pads).startswith("prompt_bid_pads(")
    assert shown.prompt(Keys(), table_view(GAME, first_state(GAME, 3, lambda s: s.phase == "over"))) == ""


def test_the_score_pile_is_said_to_count_at_the_deals_end_beside_the_total():
    assert shown.table_columns({"phase": "bidding"}) == ["col_bid", "col_hand_count", "col_pile", "col_total"]
    assert shown.table_columns({"phase": "draft"})[0] == "col_draft"
    assert shown.table_columns({"phase": "over"}) == ["col_hand_count", "col_pile", "col_total"]
    assert Translator("fr", "venture")("col_pile") == "Pile de score (face visible), comptée en fin de donne"
    assert Translator("en", "venture")("col_pile") == "Score pile (face up), counted at the end of the deal"
