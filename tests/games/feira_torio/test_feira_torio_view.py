"""What Feira Torio's pages show, read from the view without pygame: the prompt, the seat tags, the slot order,
the arrow, the lots nobody won, the round and hand on show."""
from __future__ import annotations

from games.tables import Keys, first_state, game, table_view
from table.games.feira_torio import view as shown
from table.screen.i18n import Translator

GAME = game("feira-torio")


def test_the_table_page_says_who_acts_and_tags_the_dealer_and_first_bid():
    state = first_state(GAME, 3, lambda s: s.phase == "lots" and not any(s.lots))
    table = table_view(GAME, state, seats=[2, 4, 5])
    view = table["view"]
    assert shown.prompt(Keys(), table) == f"prompt_lots(seat={[2, 4, 5][view['dealer']]})"
    assert shown.seat_tags(view, view["dealer"])[0] == "dealer"
    assert "first_bid" in shown.seat_tags(view, view["first_bid"])
    assert shown.slot_order(view) == [0, 1, 2, 3] and shown.aim(view) is None
    bidding = table_view(GAME, first_state(GAME, 3, lambda s: s.phase == "bidding"), seat_pads=4)
    assert shown.prompt(Keys(), bidding) == "prompt_bid_slots"
    assert shown.aim(bidding["view"]) == bidding["view"]["centre"]["first"]
    assert sorted(shown.slot_order(bidding["view"])) == [0, 1, 2, 3]


def test_after_a_reveal_the_pages_show_the_round_it_ended():
    state = first_state(GAME, 4, lambda s: s.phase == "lots" and not any(s.lots) and s.reveal)
    view = table_view(GAME, state, clearing=False)["view"]
    hand, rnd = shown.revealed_round(view)
    assert (hand, rnd) == ((view["hand"] - 1, 4) if view["round"] == 1 else (view["hand"], view["round"] - 1))
    assert shown.discarded(view) == [r["lot"] for r in view["reveal"] if r["winner"] is None]
    over = table_view(GAME, first_state(GAME, 3, lambda s: s.phase == "over"))["view"]
    assert shown.revealed_round(over) == (over["hand"], 4) and shown.scored_hand(over) == over["hand"]
    assert shown.prompt(Keys(), table_view(GAME, first_state(GAME, 3, lambda s: s.phase == "over"))) == ""


def test_tied_bids_are_called_a_tie_and_said_cancelled_in_both_languages():
    tied = {"winner": 2, "cancelled": [0, 1]}
    assert [shown.bid_mark(tied, p) for p in (0, 1, 2, 3)] == ["tie", "tie", "wins", None]
    assert shown.lot_notes(tied) == ["ties_cancelled"]
    assert shown.lot_notes({"winner": None, "cancelled": [0, 1]}) == ["ties_cancelled", "no_winner"]
    assert shown.lot_notes({"winner": 0, "cancelled": []}) == []
    fr, en = Translator("fr", "feira-torio"), Translator("en", "feira-torio")
    assert (fr("tie"), fr("ties_cancelled")) == ("égalité", "Égalité : mises annulées")
    assert (en("tie"), en("ties_cancelled")) == ("tie", "Tied bids: cancelled")
