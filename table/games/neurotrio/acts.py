"""Neurotrio at the table: physical acts (a card, base or token on a pad, a seat button) to actions, and back.

The start card is shown on a centre pad; everything else is tapped on a
seat's own pads (any of them: a seat's pads all work alike). A card on a
seat's pad is, by phase: a card of its hand registered, the card it chooses
to place, or (bidding) the domain card it bets on; a base card or a token
only bids. The cell of the chosen card is taken with the seat prompt over
its legal cells (the cursor starts on the best reward). OK opens a seat menu
when the seat has one: the active seat's "Pass (-1)" and "Neuro!", another
seat's "Neuro!" in the call window, a bidder's "Pass".
"""
from __future__ import annotations

from table.games.contract import Act, ButtonPress, CardOnPad, PadShape, Prompt, Refusal
from table.games.neurotrio.rules import (BID, BUILD, OVER, REGISTER, SHOW, Action, BidBase, BidCard, BidToken, Call,
                                         Choose, NoBid, Pass, Place, Register, Show, State, best_cell, cell_index,
                                         check, legal_cells)


def interpret(state: State, act: Act) -> Action | Refusal | None:
    """The action an act asks for (still to be checked), or None for no act: a card read again in the role it
    has (a card of the seat's registered hand, its chosen card, a piece already in its bid)."""
    match act:
        case CardOnPad(card, None, _):
            return Show(card) if state.phase == SHOW else Refusal.of("centre_unused")
        case CardOnPad(card, player, _):
            return _seat(state, player, card)
        case ButtonPress(player, "ok") if state.phase == BID:   # no menu: why this seat may not pass its bid
            return check(state, state.setup.deck.no_bids[player]) or Refusal.of("nothing_to_choose", player=player)
        case ButtonPress(player, "ok") if state.phase == BUILD:
            return Refusal.of("nothing_to_choose", player=player)   # no menu for this seat now (e.g. too late)
        case ButtonPress():
            return None   # the cell prompt and the seat menus are the session's
    return Refusal.of("unknown_action")


def _seat(state: State, player: int, card: str) -> Action | Refusal | None:
    if not 0 <= player < state.players:
        return Refusal.of("no_such_player", player=player)
    deck, phase = state.setup.deck, state.phase
    if phase == OVER:
        return Refusal.of("game_over")
    if phase == SHOW:
        return Refusal.of("show_on_centre")
    if card in deck.bases:
        return BidBase(player, card)
    if card in deck.tokens:
        return BidToken(player, card)
    if phase == REGISTER:
        return None if card in state.hands[player] else Register(player, card)
    if phase == BUILD:
        return None if card == state.chosen and player == state.active else Choose(player, card)
    piece = state.neuro.piece
    if phase == BID and piece is not None and piece.bidder == player and piece.card == card:
        return None
    return BidCard(player, card)


def acts_for(state: State, action: Action, shape: PadShape) -> tuple[Act, ...]:
    """The acts that produce `action`: a card on a pad (the centre's first pad, or the seat's), the prompt's
    Next presses then OK, or OK, Next... OK through the seat's menu."""
    slot = None if shape.seat == 1 else 0
    match action:
        case Show(card):
            return (CardOnPad(card, None, None if shape.centre == 1 else 0),)
        case Register(player, card) | Choose(player, card) | BidCard(player, card):
            return (CardOnPad(card, player, slot),)
        case BidBase(player, base):
            return (CardOnPad(base, player, slot),)
        case BidToken(player, token):
            return (CardOnPad(token, player, slot),)
        case Place():
            open_prompt = prompt(state)
            return () if open_prompt is None else open_prompt.presses(action)
        case Pass(player) | Call(player) | NoBid(player):
            open_menu = menu(state, player)
            return () if open_menu is None else open_menu.menu_presses(action)
    return ()


def must_clear(state: State) -> bool:
    """Never: no card stays on a pad in Neurotrio (each is tapped, then laid on the domain or kept in hand)."""
    return False


def prompt(state: State) -> Prompt | None:
    """The active seat that chose a card takes its cell: the legal cells in reading order, each with its
    reward, the cursor on the best reward (first in reading order among equals)."""
    if state.phase != BUILD or state.chosen is None:
        return None
    cells = legal_cells(state, state.chosen)
    deck = state.setup.deck
    return Prompt(state.active, tuple(deck.place(state.active, cell_index(row, col)) for row, col, _ in cells),
                  tuple(("cell", (("col", col), ("reward", reward), ("row", row))) for row, col, reward in cells),
                  best_cell(cells))


def menu(state: State, player: int) -> Prompt | None:
    """What `player`'s OK opens: pass or call (the active seat, no card chosen), call (another seat in the
    call window), pass (a bidder that may). None when there is nothing to take."""
    deck = state.setup.deck
    if state.phase == BUILD:
        options = (deck.passes[player], deck.calls[player]) if player == state.active else (deck.calls[player],)
    elif state.phase == BID and state.neuro.order[0] == player:
        options = (deck.no_bids[player],)
    else:
        return None
    options = tuple(a for a in options if check(state, a) is None)
    labels = {Pass: ("menu_pass", (("cost", 1),)), Call: ("menu_call", ()), NoBid: ("menu_no_bid", ())}
    return Prompt(player, options, tuple(labels[type(a)] for a in options)) if options else None
