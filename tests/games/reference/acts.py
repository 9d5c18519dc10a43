"""High Card at the table: a card on a seat's pad is that seat's sealed card; nothing else is an act."""
from __future__ import annotations

from table.games.contract import Act, ButtonPress, CardOnPad, PadShape, Prompt, Refusal
from tests.games.reference.rules import Bid, State


def interpret(state: State, act: Act) -> Bid | Refusal | None:
    """A card on a seat's pad bids it (the same card read again is no act); the centre takes no card."""
    match act:
        case CardOnPad(card, None, _):
            return Refusal.of("not_on_centre")
        case CardOnPad(card, player, _):
            if state.phase == "over" or state.bids[player] == card:
                return None
            return Bid(player, card)
        case ButtonPress():
            return None
    return Refusal.of("unknown_action")


def acts_for(state: State, action: Bid, shape: PadShape) -> tuple[Act, ...]:
    return (CardOnPad(action.card, action.player, None if shape.seat == 1 else 0),)


def must_clear(state: State) -> bool:
    """The last round's cards may lie on the pads until the next card is laid."""
    return state.fresh and state.phase != "over"


def prompt(state: State) -> Prompt | None:
    return None
