"""What Neurotrio's pages show, read from the view without pygame: what to do and who does it, the prompt's cell,
the bids on each card, what a seat box shows, the end pages' order, a bid's score spelled out."""
from __future__ import annotations

from games.tables import Keys, first_state, table_view
from table.games.neurotrio import view as shown
from table.registry import GAMES

GAME = GAMES["neurotrio"]


def test_the_bar_names_who_places_and_the_prompt_cell_is_read():
    state = first_state(GAME, 4, lambda s: s.phase == "build" and s.chosen is not None)
    table = table_view(GAME, state, seats=[2, 3, 5, 8], cursor=0)
    view = table["view"]
    assert shown.instruction(Keys(), table) == f"bar_place(seat={table['joined'][view['active']]})"
    assert shown.cursor_cell(table) == tuple(view["cells"][0][:2])
    assert shown.to_act(view) == view["active"]
    assert shown.seat_piece(view, view["active"]) == "chosen"
    assert shown.pages(table) == [("domain", None)]


def test_a_bid_under_way_is_its_bidders_piece_and_marks_its_card():
    table = table_view(GAME, first_state(GAME, 4, lambda s: s.phase == "bid" and s.neuro.piece is not None
                                         and s.neuro.piece.card is not None and s.neuro.piece.base is not None))
    view = table["view"]
    bidder = view["bid"]["bidder"]
    assert shown.to_act(view) == bidder and shown.seat_piece(view, bidder) == "bid"
    assert (view["bid"], True) in shown.bids_on(view)[view["bid"]["card"]]
    assert shown.notes(Keys(), table)[0].startswith("neuro_round(") and shown.neuro_note(view)


def test_the_end_pages_rows_and_a_bids_score():
    table = table_view(GAME, first_state(GAME, 4, lambda s: s.phase == "over"))
    view = table["view"]
    assert shown.pages(table)[:3] == [("finish", None), ("treasure", None), ("bids", None)]
    order = shown.finish_order(view)
    assert sorted(order) == [0, 1, 2, 3] and order[:len(view["finished"])] == view["finished"]
    assert [shown.place(view, p) for p in view["finished"] if not view["counts"][p]] == \
        [view["finished"].index(p) + 1 for p in view["finished"] if not view["counts"][p]]
    totals = [view["totals"][p] for p in shown.ranking(view)]
    assert totals == sorted(totals, reverse=True)
    bid = {"bidder": 0, "base": 7, "card": "2SGa", "token": "2", "score": -14}
    assert shown.bid_text(Keys(), bid, (2, "S", "G"), (1, "S", "B")) == "score_number_1(base=7, score=−14, token=2)"
    assert shown.bid_text(Keys(), dict(bid, token="nature", score=7), (2, "S", "G"), (1, "S", "B")) == \
        "score_nature_same(base=7, score=+7)"
