"""Chevaux at the table: physical acts (a card on a pad, a seat button) to actions, and back.

A card on a seat's pad is that seat's reveal: the top card of its stack, tapped
face down (nobody else sees it). The characteristic is chosen, and a switch
made or declined, with the seat prompt (the session moves its cursor with
Next/Back and plays the option under it on OK). Any pad of a seat is the seat's
pad; at a seat with several pads the walk's card goes on the first and each
re-draw on the next. The centre pads are not used.
"""
from __future__ import annotations

from table.games.chevaux.rules import Action, Choose, Keep, Reveal, Round, State, Switch
from table.games.contract import Act, ButtonPress, CardOnPad, PadShape, Prompt, Refusal


def interpret(state: State, act: Act) -> Action | Refusal | None:
    """The action an act asks for (still to be checked), or None for no act.

    A card read again in the role it already has is no act: a card the seat revealed this round, or, until
    the next round's first card, one it revealed in the round just decided (the cards are being picked up).
    """
    match act:
        case CardOnPad(_, None, _):
            return Refusal.of("centre_unused")         # never the card's name: it is secret
        case CardOnPad(card, player, _):
            if not 0 <= player < state.players:
                return Refusal.of("no_such_player", player=player)
            if card in _revealed(state, player):
                return None
            if state.phase == "over":
                return Refusal.of("game_over")
            return Reveal(player, card)
        case ButtonPress(player, _):
            open_prompt = prompt(state)
            if open_prompt is not None and open_prompt.player != player:
                return Refusal.of("not_your_turn", player=player)
            return Refusal.of("no_choice_now", player=player)
    return Refusal.of("unknown_action")


def _revealed(state: State, player: int) -> set[str]:
    """The cards `player` revealed in the round whose cards may still lie on its pad."""
    if state.pot or not state.results:
        return revealed_by(state.cards, state.round, player)
    last = state.results[-1]
    return revealed_by(last.cards, last.round, player)


def revealed_by(cards: tuple[str | None, ...], r: Round, player: int) -> set[str]:
    """The cards `player` revealed in a round: on the walk (`cards`), then in each re-draw of round `r`."""
    steps = r.tie.steps if r.tie else ()
    return {cards[player], *(card for step in steps for p, card in step if p == player)} - {None}


def acts_for(state: State, action: Action, shape: PadShape) -> tuple[Act, ...]:
    """The acts that produce `action`: the card on the seat's pad (the walk's card on the first pad, each
    re-draw on the next), or the prompt's Next presses then OK; () for the table's `TimeUp` and for a card
    that would be read as lying there still."""
    match action:
        case Reveal(player, card):
            if card in _revealed(state, player):
                return ()
            slot = None if shape.seat == 1 else len(revealed_by(state.cards, state.round, player)) % shape.seat
            return (CardOnPad(card, player, slot),)
        case Choose() | Switch() | Keep():
            open_prompt = prompt(state)
            return () if open_prompt is None else open_prompt.presses(action)
    return ()


def must_clear(state: State) -> bool:
    """Whether the last round's cards may still lie on the pads: from a round's end until the next round's
    first card (and at the end of the game)."""
    return bool(state.results) and not state.pot


def prompt(state: State) -> Prompt | None:
    """The leader's choice of characteristic (every one, in the deck's order), or a rarer seat's switch: "keep"
    first (the cursor starts there), then every other characteristic."""
    t = state.tables
    traits = t.deck.traits
    if state.phase == "choose":
        p = state.at
        return Prompt(p, t.chooses[p], tuple((f"trait_{trait.key}", ()) for trait in traits))
    if state.phase == "switch":
        p, current = state.at, state.round.trait
        others = [k for k in range(len(traits)) if k != current]
        return Prompt(p, (t.keeps[p], *(t.switches[p][k] for k in others)),
                      (("prompt_keep", ()), *((f"trait_{traits[k].key}", ()) for k in others)))
    return None
