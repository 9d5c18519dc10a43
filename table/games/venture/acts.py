"""Venture at the table: physical acts (a card on a pad, the OK button) to actions, and back.

A card on a centre pad is a slug card shown. A card on a seat pad is that
seat's sealed bid (any pad of the seat is the seat's pad). OK on a seat, during
the draft, says that seat's physical draft is done. Nothing else is a choice
with buttons, so there is no prompt.
"""
from __future__ import annotations

from table.games.contract import Act, ButtonPress, CardOnPad, PadShape, Prompt, Refusal
from table.games.venture.rules import Action, Bid, DraftDone, Show, State


def interpret(state: State, act: Act) -> Action | Refusal | None:
    """The action an act asks for (still to be checked), or None for no act.

    A card read again in the role it already has is no act: a centre card
    already in the centre, the bid this seat committed this round, or (until
    the next card is acted on) the bid it committed in the round just fired.
    A second OK from a seat that has finished its draft, and any button outside
    the draft, is no act either.
    """
    match act:
        case CardOnPad(card, None, _):
            if card in state.centre or state.phase == "over":
                return None
            if state.phase == "slug":
                return Show(card)
            return Refusal.of("not_now_show", card=card)
        case CardOnPad(card, player, _):
            if not isinstance(player, int) or not 0 <= player < state.players:
                return Refusal.of("no_such_player", player=player)
            if state.phase == "over" or state.bids[player] == card:
                return None
            if state.fresh and state.board.last is not None and state.board.last.bids[player] == card:
                return None
            if state.phase == "bidding":
                return Bid(player, card)
            return Refusal.of("not_now_bid", player=player)
        case ButtonPress(player, "ok") if state.phase == "draft":
            if not 0 <= player < state.players:
                return Refusal.of("no_such_player", player=player)
            return None if state.board.drafted[player] else DraftDone(player)
        case ButtonPress():
            return None
    return Refusal.of("unknown_action")


def acts_for(state: State, action: Action, shape: PadShape) -> tuple[Act, ...]:
    """The acts that produce `action`."""
    match action:
        case Bid(player, card):
            return (CardOnPad(card, player, None if shape.seat == 1 else 0),)
        case Show(card):
            return (CardOnPad(card, None, None if shape.centre == 1 else 0),)
        case DraftDone(player):
            return (ButtonPress(player, "ok"),)
    return ()


def must_clear(state: State) -> bool:
    """Whether the last firing's cards may still lie on the pads: from a firing until the next card is
    acted on (the next bid, or the next deal's first slug card)."""
    return state.fresh and state.phase != "over"


def prompt(state: State) -> Prompt | None:
    """None: Venture makes no public choice with buttons (OK after the draft is a plain action)."""
    return None
