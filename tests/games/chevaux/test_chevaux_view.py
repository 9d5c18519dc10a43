"""What Chevaux's pages show, read from the view without pygame: the note under the board, a round's result
lines, who is out."""
from __future__ import annotations

from games.chevaux.test_chevaux_rules import HEIGHT, WALK, game, play
from games.tables import Keys, table_view
from table.games.chevaux import view as shown
from table.games.chevaux.rules import Choose, Keep, Reveal, TimeUp
from table.registry import GAMES

GAME = GAMES["chevaux"]


def test_the_note_says_how_the_cards_were_dealt_then_that_time_is_up():
    table = table_view(GAME, game(WALK, 2))
    assert shown.table_note(Keys(), table).startswith("deal")
    assert shown.table_note(Keys(), table_view(GAME, play(game(WALK, 2), Reveal(0, "g0"), Choose(0, HEIGHT)))) == ""


def test_a_round_won_names_the_winner_the_best_value_and_the_bar():
    state = play(game(WALK, 2), Reveal(0, "g0"), Choose(0, HEIGHT), Reveal(1, "y1"), Keep(1))
    table = table_view(GAME, state, seats=[3, 6])
    headline, details, bar = shown.result_lines(Keys(), table)
    assert headline == "winner_takes(n=2, seat=3)"
    assert details == "best_value(value=unit_cm(value=150))"
    assert bar == "bar_take(n=2, seat=3)"
    board = table["view"]["last_round"]
    assert not any(shown.is_out(board, board["counts"], p, board["winner"]) for p in range(2))
    over = table_view(GAME, play(game(WALK, 2, minutes=5), TimeUp()))
    assert shown.table_note(Keys(), over) == "time_up_note"
