"""Kitty at the table: physical acts (a card on a pad) to actions, and back.

Every act is a card on a pad; there are no button choices. A card on the
centre pad is a target shown. A card on a seat's pad (any of its pads) means,
by phase: a registered card, the seat's pass, its bid, the target it picks
(soft), or, during the 1's gift, the target it receives.
"""
from __future__ import annotations

from table.games.contract import Act, CardOnPad, PadShape, Prompt, Refusal
from table.games.kitty.rules import (Action, Bid, Pass, Pick, Receive, Register, Show, State, check)


def interpret(state: State, act: Act) -> Action | Refusal | None:
    """The action an act asks for (still to be checked), or None for no act.

    A card read again in the role it already has is no act: a target already shown on the centre pad, a
    card this seat registered (or holds, while the targets are being shown), its pass or bid of this round
    (or of the round just resolved), a target it just picked or received. A reader losing a card for a
    moment must never blink red.
    """
    if not isinstance(act, CardOnPad):
        return None            # Kitty has no button choices: a press is nothing
    card, player = act.card, act.player
    phase = state.phase
    if player is None:
        if card in state.targets or _just_shown(state, card):
            return None
        if phase == "targets":
            return Show(card)
        return Refusal.of("game_over") if phase == "over" else Refusal.of("not_now_show", card=card)
    if not 0 <= player < state.players:
        return Refusal.of("no_such_player", player=player)
    if phase == "register":
        if card in state.hands[player] or _echo(state, player, card):
            return None
        return Register(player, card)
    action: Action | Refusal
    if phase == "pass":
        action = Pass(player, card)
    elif phase == "bid":
        action = Bid(player, card)
    elif phase == "pick":
        action = Pick(player, card)
    elif phase == "gift":
        action = Receive(player, card)
    elif phase == "targets":
        if card in state.hands[player]:
            return None        # a card the seat registered (or holds): its role until the target is shown
        action = Refusal.of("not_now_seat", player=player)
    else:
        action = Refusal.of("game_over")
    if isinstance(action, Refusal) or check(state, action) is not None:
        if _echo(state, player, card):
            return None
    return action


def _echo(state: State, player: int, card: str) -> bool:
    """Whether `card` already has a role at this seat: its pass or bid of the round in play (or just
    resolved), or a target it picked or received in that round."""
    if state.passes and card in (state.passes[player], state.bids[player] if state.bids else None):
        return True
    steps = state.steps
    if not state.passes and state.log and state.log[-1].deal == state.deal:
        last = state.log[-1]
        if card in (last.passes[player], last.bids[player]):
            return True
        steps = last.steps
    return any(s.card == card and (s.to == player if s.kind == "gift" else s.player == player) for s in steps
               if s.kind in ("pick", "gift"))


def _just_shown(state: State, card: str) -> bool:
    """A target of the round just resolved, read again on the centre pad before the next target."""
    return not state.targets and bool(state.log) and state.log[-1].deal == state.deal \
        and card in state.log[-1].targets and state.phase == "targets"


def acts_for(state: State, action: Action, shape: PadShape) -> tuple[Act, ...]:
    """The acts that produce `action`: its card on the seat's pad (or the centre pad for a target)."""
    match action:
        case Show(card):
            return (CardOnPad(card, None, None if shape.centre == 1 else 0),)
        case Register(player, card) | Pass(player, card) | Bid(player, card) | Pick(player, card) \
                | Receive(player, card):
            return (CardOnPad(card, player, None if shape.seat == 1 else 0),)
    return ()


def must_clear(state: State) -> bool:
    """The table gate: the last step's cards may still lie on the pads (registered cards, bids, a target
    just taken), from that step until the next card is acted on."""
    phase = state.phase
    if phase == "targets":
        return not state.targets
    if phase in ("pick", "gift"):
        return True
    if phase == "register":
        return state.deal > 1 and not any(state.hands)
    return False


def prompt(state: State) -> Prompt | None:
    """None: every Kitty choice is a card tapped (secret or designated), never a button cursor."""
    return None
