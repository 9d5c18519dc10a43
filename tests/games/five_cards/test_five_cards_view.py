"""What Five cards' pages show, read from the view without pygame: what to do while the targets are set out and
while a card's column is chosen, the setup notice."""
from __future__ import annotations

from games.tables import Keys, first_state, table_view
from table.games.five_cards import view as shown
from table.registry import GAMES

GAME = GAMES["five-cards"]


def test_setup_says_what_to_do_and_what_the_last_card_was():
    setup = table_view(GAME, first_state(GAME, 2, lambda s: s.phase == "setup" and not s.round.shown))
    assert shown.laying_out(setup["view"]) and not shown.round_just_ended(setup["view"])
    assert shown.instruction(Keys(), setup)
    notice = shown.setup_notice(Keys(), setup["view"])
    assert len(notice) == 2


def test_placing_names_the_column_under_the_cursor():
    place = table_view(GAME, first_state(GAME, 2, lambda s: s.phase == "place"), cursor=1)
    assert not shown.laying_out(place["view"])
    assert shown.instruction(Keys(), place)
    assert shown.cursor_column(place) in range(5)
