"""What Kitty's pages show, read from the view without pygame: the scoring units, the bidders from the lowest up."""
from __future__ import annotations

from table.games.kitty import view as shown


def test_units_are_the_teams_or_each_player_and_bids_go_lowest_first():
    assert shown.units({"teams": None, "players": 3}) == [[0], [1], [2]]
    assert shown.units({"teams": [[0, 2], [1, 3]], "players": 4}) == [[0, 2], [1, 3]]
    assert shown.bid_order(["b", "a", "b"], {"a": 1, "b": 5}) == [1, 0, 2]
