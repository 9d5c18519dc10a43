"""Sweep at the table: physical acts (a card on a pad) to actions, and back.

A card on a seat pad is, by phase: a registered card (registration), the card
played (that seat's turn), or the target taken (the tied seat to pick: it taps
the centre card on its own pad). A card on a centre pad is a centre card shown.
Any pad of a seat is the seat's pad, any centre pad the centre. No buttons: the
first player is a table draw, and a tie pick is a tap.
"""
from __future__ import annotations

from table.games.contract import Act, ButtonPress, CardOnPad, PadShape, Prompt, Refusal
from table.games.sweep.rules import Action, DrawFirst, Play, Register, Show, State, Take, holds, turn


def interpret(state: State, act: Act) -> Action | Refusal | None:
    """The action an act asks for (still to be checked), or None for no act.

    A card read again in the role it already has is no act: a card this seat
    registered (while the centre is dealt: nothing is asked of seats then), a
    centre card already shown, the card a seat just played or took this round.
    """
    match act:
        case CardOnPad(card, None, _):
            return _centre(state, card)
        case CardOnPad(card, player, _):
            return _seat(state, player, card)
        case ButtonPress(player, _):   # Sweep is played with cards alone
            return Refusal.of("no_buttons", player=player)
    return Refusal.of("unknown_action")


def _centre(state: State, card: str) -> Action | Refusal | None:
    if card in state.centre or state.phase == "over":
        return None
    if state.phase == "centre":
        return Show(card)
    if state.phase in ("play", "pick"):
        return Refusal.of("centre_full", card=card)
    return Refusal.of("not_now_centre", card=card)


def _seat(state: State, player: int, card: str) -> Action | Refusal | None:
    if not 0 <= player < state.players:
        return Refusal.of("no_such_player", player=player)
    phase = state.phase
    if phase == "over":
        return None
    if phase == "register":
        return None if card in state.hands[player] else Register(player, card)
    if (player, card) in state.played or (player, card) in state.round.chosen:
        return None
    if phase in ("play", "pick"):
        if player != turn(state):
            return Refusal.of("not_your_turn", player=player)
        return Play(player, card) if phase == "play" else Take(player, card)
    # draw, centre: a held card read again (the last one registered) is nothing; any other is too early
    return None if holds(state, player, card) else Refusal.of("not_now_play", player=player)


def acts_for(state: State, action: Action, shape: PadShape) -> tuple[Act, ...]:
    """The acts that produce `action`; () for the table draw (the table draws it itself)."""
    seat_slot = None if shape.seat == 1 else 0
    match action:
        case Register(player, card) | Play(player, card) | Take(player, card):
            return (CardOnPad(card, player, seat_slot),)
        case Show(card):
            return (CardOnPad(card, None, None if shape.centre == 1 else 0),)
        case DrawFirst():
            return ()
    return ()


def must_clear(state: State) -> bool:
    """Whether the last capture's cards may still lie on the pads: from a capture until the next card is
    acted on (the next centre card, or the next deal's first registration)."""
    if state.round.last is None:
        return False
    if state.phase == "centre":
        return not state.centre
    if state.phase == "register":
        return not any(state.hands)
    return False


def prompt(state: State) -> Prompt | None:
    """None: Sweep makes no choice with buttons (a tied pick is a tap, PR-S1)."""
    return None
