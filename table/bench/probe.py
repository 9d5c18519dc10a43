"""The probe `cardtable bench engines` measures every engine beside: a bare sealed-bid game, about the least an
engine of the contract (table/games/contract.py) does per action.

Each of `ROUNDS` rounds, every player seals a bid of 0 to `BIDS - 1` at once; when the last is in, the
highest bid no one else made takes a point. An engine's actions per CPU second over the probe's, measured side
by side, says how heavy the engine is whatever the machine and its load.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

from table.games.contract import Game, GameInfo, Need, Refusal

ROUNDS = 20
BIDS = 3
INFO = GameInfo("probe", deck="pairs", players=range(2, 5))


@dataclass(frozen=True, slots=True)
class Bid:
    player: int
    value: int


@dataclass(frozen=True, slots=True)
class State:
    round: int
    bids: tuple[int | None, ...]     # this round's sealed bids, by player
    totals: tuple[int, ...]


def make_deck(data: dict) -> None:
    return None


def new_game(deck: None, players: int, first: int, options: dict | None = None) -> State:
    return State(0, (None,) * players, (0,) * players)


def need(state: State) -> Need:
    if state.round == ROUNDS:
        return DONE
    waiting = tuple(p for p, bid in enumerate(state.bids) if bid is None)
    found = _SEALED.get(waiting)
    if found is None:
        found = _SEALED[waiting] = Need(waiting, simultaneous=True)
    return found


DONE = Need()
_SEALED: dict[tuple[int, ...], Need] = {}   # the players still to bid -> what the game needs, made when first met


def check(state: State, action: Bid) -> Refusal | None:
    if state.round == ROUNDS:
        return Refusal.of("game_over")
    if state.bids[action.player] is not None:
        return Refusal.of("already_bid")
    return None


def legal_actions(state: State) -> list[Bid]:
    return [Bid(p, value) for p in need(state).players for value in range(BIDS)]


def apply(state: State, action: Bid) -> State:
    bids = state.bids[:action.player] + (action.value,) + state.bids[action.player + 1:]
    if None in bids:
        return State(state.round, bids, state.totals)
    single = [bid for bid in bids if bids.count(bid) == 1]
    best = max(single, default=None)
    totals = tuple(total + (bid == best) for total, bid in zip(state.totals, bids))
    return State(state.round + 1, (None,) * len(bids), totals)


PROBE = Game(INFO, sys.modules[__name__], None, __name__)
