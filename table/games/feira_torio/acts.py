"""Feira Torio at the table: physical acts (a card on a pad, a seat button) to actions, and back.

A card on a centre pad is a lot: on that lot's pad, or the next empty lot
clockwise from the top when the centre has a single pad. A card on a seat pad
is a bid: on that slot, or the seat's next open slot in resolution order when
the seat has a single pad. The First Bid holder's Next button moves the First
Bid card round the cross, OK settles it.
"""
from __future__ import annotations

from table.games.contract import Act, ButtonPress, CardOnPad, PadShape, Prompt, Refusal
from table.games.feira_torio.rules import (LOTS, Action, Bid, MarkFirst, PlaceLot, PointFirst, State,
                                          resolution_order)


def interpret(state: State, act: Act) -> Action | Refusal | None:
    """The action an act asks for (still to be checked), or None for no act.

    A card the game already has there (a lot read again, a seat's own bid read
    again) is no act: a reader losing a card for a moment must not blink red.
    """
    match act:
        case CardOnPad(card, None, _) if card in state.lots:
            return None
        case CardOnPad(card, player, _) if player is not None and card in state.bids[player]:
            return None
        case CardOnPad(card, None, slot):
            if state.phase != "lots":
                return Refusal.of("not_now_lot")
            position = slot if slot is not None else state.lots.index(None)
            return PlaceLot(position, card)
        case CardOnPad(card, player, slot):
            if state.phase != "bidding":
                return Refusal.of("not_now_bid", player=player)
            if slot is None:
                slot = next_slot(state, player)
                if slot is None:
                    return Refusal.of("slot_locked", player=player)
            return Bid(player, slot, card)
        case ButtonPress(player, button):
            if state.phase != "first":
                return Refusal.of("no_choice_now", player=player)
            if player != state.first_bid:
                return Refusal.of("not_your_turn", player=player)
            if button == "next":
                return PointFirst(player, (state.pointer + 1) % LOTS)
            if button == "back":
                return PointFirst(player, (state.pointer - 1) % LOTS)
            return MarkFirst(player, state.pointer)
    return Refusal.of("unknown_action")


def next_slot(state: State, player: int) -> int | None:
    """The seat's next open bid slot in resolution order (where a single pad's bid goes), None when all are full."""
    row = state.bids[player]
    return next((p for p in resolution_order(state.first or 0) if row[p] is None), None)


def acts_for(state: State, action: Action, shape: PadShape) -> tuple[Act, ...]:
    """The acts that produce `action`; () when no act can (a bid off the next slot on a single pad,
    a pointer move that is not one step)."""
    match action:
        case PlaceLot(position, card):
            if shape.centre == 1:
                return (CardOnPad(card),) if position == state.lots.index(None) else ()
            return (CardOnPad(card, None, position),)
        case Bid(player, position, card):
            if shape.seat == 1:
                return (CardOnPad(card, player),) if position == next_slot(state, player) else ()
            return (CardOnPad(card, player, position),)
        case PointFirst(player, position):
            step = {1: "next", LOTS - 1: "back"}.get((position - state.pointer) % LOTS)
            return (ButtonPress(player, step),) if step else ()
        case MarkFirst(player, position):
            return (ButtonPress(player, "ok"),) if position == state.pointer else ()
    return ()


def must_clear(state: State) -> bool:
    """Whether the last round's cards may still lie on the pads: true from a reveal until the next lot."""
    return state.phase == "lots" and bool(state.reveal) and not any(state.lots)


def prompt(state: State) -> Prompt | None:
    """None: the First Bid card is the game's own pointer (PointFirst), journaled as actions."""
    return None
