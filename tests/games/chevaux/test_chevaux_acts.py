"""Chevaux's physical acts: a card on a seat's pad is its reveal, a re-read is no act, buttons answer the prompts."""
from __future__ import annotations

from games.chevaux.test_chevaux_rules import HEIGHT, TIES, WALK, YEAR, game, play
from table.games.chevaux import acts
from table.games.chevaux.rules import Choose, Keep, Reveal, Switch, TimeUp
from table.games.contract import ButtonPress, CardOnPad, PadShape

ONE, FOUR = PadShape(1, 1), PadShape(4, 1)


def test_a_card_on_a_seat_pad_is_its_reveal_and_the_centre_is_not_used():
    state = game(WALK, 3)
    assert acts.interpret(state, CardOnPad("g0", 0)) == Reveal(0, "g0")
    assert acts.interpret(state, CardOnPad("g0", 2, 3)) == Reveal(2, "g0")       # any pad of the seat
    refusal = acts.interpret(state, CardOnPad("g0", None))
    assert refusal.key == "centre_unused" and refusal.args == {}                  # never the secret card's name
    assert acts.interpret(state, CardOnPad("g0", 5)).key == "no_such_player"


def test_a_card_read_again_is_no_act_until_the_next_round_begins():
    state = play(game(WALK, 3), Reveal(0, "g3"), Choose(0, HEIGHT))
    assert acts.interpret(state, CardOnPad("g3", 0)) is None                      # still lying on its pad
    assert acts.interpret(state, CardOnPad("g3", 1)) == Reveal(1, "g3")           # another seat: checked, refused
    state = play(state, Reveal(1, "g0"), Reveal(2, "g7"))                        # 160 cm wins: seat 0 leads again
    assert acts.must_clear(state)
    assert acts.interpret(state, CardOnPad("g3", 0)) is None
    assert acts.interpret(state, CardOnPad("g0", 1)) is None
    assert acts.acts_for(state, Reveal(0, "g3"), ONE) == ()                      # the table cannot tell it apart
    assert acts.acts_for(state, Reveal(0, "g0"), ONE) == (CardOnPad("g0", 0),)
    state = play(state, Reveal(0, "g0"))
    assert not acts.must_clear(state)
    assert acts.interpret(state, CardOnPad("g3", 0)) == Reveal(0, "g3")         # picked up and played again


def test_at_a_seat_with_several_pads_each_redraw_goes_on_the_next_pad():
    state = play(game(TIES, 3), Reveal(0, "a2"), Choose(0, HEIGHT))
    assert acts.acts_for(state, Reveal(1, "b2"), FOUR) == (CardOnPad("b2", 1, 0),)
    state = play(state, Reveal(1, "b2"), Reveal(2, "c1"), Reveal(0, "d1"))
    assert acts.acts_for(state, Reveal(1, "e1"), FOUR) == (CardOnPad("e1", 1, 1),)
    assert acts.acts_for(state, Reveal(1, "e1"), ONE) == (CardOnPad("e1", 1, None),)


def test_the_prompts_and_the_buttons():
    state = play(game(WALK, 3), Reveal(0, "g0"))
    prompt = acts.prompt(state)
    assert (prompt.player, prompt.options, prompt.start) == (0, (Choose(0, HEIGHT), Choose(0, YEAR)), 0)
    assert [key for key, _ in prompt.labels] == ["trait_height", "trait_year"]
    assert acts.acts_for(state, Choose(0, YEAR), ONE) == (ButtonPress(0, "next"), ButtonPress(0, "ok"))
    assert acts.interpret(state, ButtonPress(1, "ok")).key == "not_your_turn"
    state = play(state, Choose(0, YEAR), Reveal(1, "y1"))
    prompt = acts.prompt(state)
    assert prompt.options == (Keep(1), Switch(1, HEIGHT)) and prompt.labels[0] == ("prompt_keep", ())
    assert acts.acts_for(state, Keep(1), ONE) == (ButtonPress(1, "ok"),)
    state = play(state, Keep(1))
    assert acts.prompt(state) is None
    assert acts.interpret(state, ButtonPress(2, "next")).key == "no_choice_now"
    assert acts.acts_for(state, TimeUp(), ONE) == ()                              # the table journals it


def test_the_end_of_the_game_keeps_its_last_cards_as_no_act():
    state = play(game(WALK[:2], 2), Reveal(0, "g0"), Choose(0, HEIGHT), Reveal(1, "y1"), Keep(1))
    assert state.phase == "over" and acts.must_clear(state)
    assert acts.interpret(state, CardOnPad("y1", 1)) is None
    assert acts.interpret(state, CardOnPad("g7", 1)).key == "game_over"
