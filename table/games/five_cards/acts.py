"""Five Cards at the table: physical acts (a card on a pad, a seat button) to actions, and back.

A card on a centre pad during a round's setup is a card shown (a target or a
repeat set aside). A card on a seat pad is that seat's draw. The column is
chosen with a seat prompt (the session moves its cursor with Next/Back and
plays the option under it on OK); one legal column needs no prompt. Any pad
of a seat is the seat's pad, any centre pad is the centre.
"""
from __future__ import annotations

from table.games.contract import Act, ButtonPress, CardOnPad, PadShape, Prompt, Refusal
from table.games.five_cards.rules import Action, Draw, Place, Show, State, legal_columns


def interpret(state: State, act: Act) -> Action | Refusal | None:
    """The action an act asks for (still to be checked), or None for no act.

    A card read again in the role it already has is no act: a setup card on the
    centre pad, a card on the seat's own side of a column, the seat's card
    waiting for its column, the card that ended the last round.
    """
    phase = state.phase
    match act:
        case CardOnPad(card, None, _):
            if card in state.round.shown:
                return None
            if phase == "setup":
                return Show(card)
            return Refusal.of("game_over" if phase == "over" else "not_now_show", card=card)
        case CardOnPad(card, player, _):
            if _read_again(state, player, card):
                return None
            if phase == "over":
                return Refusal.of("game_over")
            return Draw(player, card)
        case ButtonPress(player, _):
            if phase == "place" and player != state.active:
                return Refusal.of("not_your_turn", player=player)
            return Refusal.of("no_choice_now", player=player)
    return Refusal.of("unknown_action")


def _read_again(state: State, player: int, card: str) -> bool:
    if state.phase == "place" and player == state.active and card == state.drawn:
        return True
    if not 0 <= player < 2:
        return False
    if any(card in state.sides[2 * c + player] for c in range(len(state.targets))):
        return True
    # the card that ended the last round, until the next round shows it on the centre pad
    result = state.match.result
    if result is None or (result.ender.player, result.ender.card) != (player, card):
        return False
    return state.phase == "over" or (state.phase == "setup" and card not in state.round.shown)


def acts_for(state: State, action: Action, shape: PadShape) -> tuple[Act, ...]:
    """The acts that produce `action`: a card on a pad, or the prompt's Next presses then OK; () for the
    table draw (no act carries it)."""
    match action:
        case Show(card):
            return (CardOnPad(card, None, None if shape.centre == 1 else 0),)
        case Draw(player, card):
            return (CardOnPad(card, player, None if shape.seat == 1 else 0),)
        case Place():
            open_prompt = prompt(state)
            return () if open_prompt is None else open_prompt.presses(action)
    return ()


def must_clear(state: State) -> bool:
    """Whether the last round's cards may still lie on the pads: from a round's end until its next setup
    card (the card that ended the round was just tapped; the round's cards are gathered and shuffled)."""
    return state.phase == "setup" and state.match.result is not None and not state.round.shown


def prompt(state: State) -> Prompt | None:
    """The active seat's column choice, when its card has two or more legal columns: one option per
    legal column, low to high, labelled with the column's target; the cursor starts on the first."""
    if state.phase != "place":
        return None
    player = state.active
    rank = state.tables.rank
    places = state.tables.places[player]
    columns = legal_columns(state, state.drawn)
    labels = tuple(("prompt_column", (("column", c + 1), ("rank", rank[state.targets[c]]))) for c in columns)
    return Prompt(player, tuple(places[c] for c in columns), labels, 0)
