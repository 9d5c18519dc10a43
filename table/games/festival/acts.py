"""Festival at the table: physical acts (a card on a pad, a seat button) to actions, and back.

Every card is tapped on a seat's own pad; the centre is not used. A card on a
seat's pad is, by phase: a card of the packet the first player draws (each of
the X + 1), or the card a seat keeps (the first player's, then the card of the
seat that received the packet: its tap says who received it). With one pad
per seat the face is chosen next with the seat prompt (the cursor starts on
face down: OK; Next then OK for face up). At a seat with several pads the pad
says it: the first pad face down, any other face up.
"""
from __future__ import annotations

from table.games.contract import Act, ButtonPress, CardOnPad, PadShape, Prompt, Refusal
from table.games.festival.rules import Action, Draw, Face, Keep, State, kept_by

FACE_LABELS = (("face_down", ()), ("face_up", ()))   # the prompt's options, in the order of rules' faces


def interpret(state: State, act: Act) -> Action | Refusal | None:
    """The action an act asks for (still to be checked), or None for no act.

    A card read again in the role it already has is no act: a card the seat kept (this turn or before), a
    card the first player has already drawn into this turn's packet.
    """
    match act:
        case CardOnPad(card, None, _):
            return Refusal.of("centre_unused", card=card)
        case CardOnPad(card, player, slot):
            return _seat(state, player, card, slot)
        case ButtonPress(player, _):   # the face prompt is the session's: a press here has nothing to choose
            return Refusal.of("no_choice_now", player=player)
    return Refusal.of("unknown_action")


def _seat(state: State, player: int, card: str, slot: int | None) -> Action | Refusal | None:
    if not 0 <= player < state.players:
        return Refusal.of("no_such_player", player=player)
    if any(choice.card == card for _, choice in kept_by(state, player)):
        return None
    phase = state.phase
    if phase == "over":
        return Refusal.of("game_over")
    if phase == "draw":
        return None if player == state.first and card in state.packet else Draw(player, card)
    return Keep(player, card, None if slot is None else slot > 0)


def acts_for(state: State, action: Action, shape: PadShape) -> tuple[Act, ...]:
    """The acts that produce `action`: a card on the seat's pad (at a multi-pad seat the face's pad; a face
    left to the prompt needs a single pad), or the prompt's Next presses then OK."""
    single = shape.seat == 1
    match action:
        case Draw(player, card):
            return (CardOnPad(card, player, None if single else 0),)
        case Keep(player, card, up):
            if (up is None) != single:
                return ()
            return (CardOnPad(card, player, None if single else int(up)),)
        case Face():
            open_prompt = prompt(state)
            return () if open_prompt is None else open_prompt.presses(action)
    return ()


def must_clear(state: State) -> bool:
    """The table gate between turns: the last card kept may still lie on its pad, from the end of a turn until
    the next first player's first draw."""
    return state.phase == "draw" and not state.packet and state.turn > 1


def prompt(state: State) -> Prompt | None:
    """The seat that has just kept a card on a single pad lays it face down (OK) or face up (Next, OK)."""
    if state.phase != "face":
        return None
    player = state.choices[-1].player
    return Prompt(player, state.setup.tables.faces[player], FACE_LABELS, 0)
