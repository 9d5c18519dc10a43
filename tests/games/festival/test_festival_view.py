"""What Festival's pages show, read from the view without pygame: what to do and who does it, who plays first."""
from __future__ import annotations

from games.tables import Keys, first_state, table_view
from table.games.festival import view as shown
from table.registry import GAMES

GAME = GAMES["festival"]


def test_the_bar_names_who_draws_and_the_first_player_is_tagged():
    table = table_view(GAME, first_state(GAME, 4, lambda s: s.phase == "draw"), seats=[2, 3, 5, 8], clearing=False)
    view = table["view"]
    assert shown.instruction(Keys(), table).startswith(f"prompt_draw(drawn={view['drawn']}, ")
    assert [p for p in range(4) if shown.plays_first(view, p)] == [view["first"]]
    assert shown.instruction(Keys(), {**table, "clearing": True}) == "prompt_clear"
    over = table_view(GAME, first_state(GAME, 4, lambda s: s.phase == "over"))["view"]
    assert not any(shown.plays_first(over, p) for p in range(4))
