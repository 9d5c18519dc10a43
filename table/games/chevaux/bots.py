"""Chevaux bots: a pure seeded strategy (TABLE-PROTOCOLS 2.4) that decides from `observe(state, seat)` only.

`choose(view, legal, rng)` picks one of the legal actions the deciding seat may make:

- the leader's characteristic: the one where its card's value ranks best among the deck's values for it
  (its percentile, the direction taken into account);
- a rarer seat's switch: to its best characteristic other than the current one when that ranks 0.2 or more
  above the current one, or when a value already shown beats its own on the current one; else keep;
- a reveal is no decision: the simulated world supplies each stack's top card.

`Players` are these bots at a simulated table, acting on its `World`.
"""
from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from functools import cache
from typing import Any

from table.games.chevaux import GAME
from table.games.chevaux.acts import revealed_by
from table.games.chevaux.rules import UNSEEN, Choose, Keep, Switch
from table.bots import world
from table.bots.players import Bots

MARGIN = 0.2               # how much better another characteristic must rank to switch to it


@cache
def _sorted_values() -> tuple[tuple[float, ...], ...]:
    """Per characteristic, every card's value in the deck, sorted (public knowledge)."""
    deck = GAME.deck
    return tuple(tuple(sorted(deck.values[c][k] for c in deck.cards)) for k in range(len(deck.traits)))


def percentile(trait: int, value: float, higher: bool) -> float:
    """How `value` ranks among the deck's values of characteristic `trait`: 0 the worst, 1 the best (ties
    count half)."""
    values = _sorted_values()[trait]
    below, above = bisect_left(values, value), len(values) - bisect_right(values, value)
    beaten = below if higher else above
    return (beaten + (len(values) - below - above - 1) / 2) / max(len(values) - 1, 1)


def choose(view: dict[str, Any], legal: list, rng: random.Random) -> Any:
    """The bot's action among `legal` (the legal actions it may make), from its own view only."""
    first = legal[0]
    if not isinstance(first, Choose | Keep | Switch):
        return rng.choice(legal)               # a reveal: the card on top of the stack
    mine = view["mine"]
    traits = view["traits"]
    ranks = [percentile(k, mine["values"][t["key"]], t["wins"] == "higher") for k, t in enumerate(traits)]
    if isinstance(first, Choose):
        return max(legal, key=lambda a: ranks[a.trait])
    current = next(k for k, t in enumerate(traits) if t["key"] == view["current"]["trait"])
    switches = [a for a in legal if isinstance(a, Switch)]
    best = max(switches, key=lambda a: ranks[a.trait])
    if ranks[best.trait] >= ranks[current] + MARGIN or _beaten(view, current):
        return best
    return next(a for a in legal if isinstance(a, Keep))


def _beaten(view: dict[str, Any], trait: int) -> bool:
    """Whether a value already shown on the current characteristic beats this seat's own."""
    higher = view["traits"][trait]["wins"] == "higher"
    mine = view["mine"]["values"][view["traits"][trait]["key"]]
    shown = [s["value"] for p, s in enumerate(view["current"]["seats"]) if s["revealed"] and p != view["seat"]]
    return any(v > mine if higher else v < mine for v in shown)


# ---------------------------------------------------------------- a simulated table

class World(world.World):
    """The cards of a simulated Chevaux table. The deck is shuffled and dealt into one face-down stack per seat
    (its top is the end of `hands[seat]`), the cards left over set aside unseen (PR-C3). A seat reaches only the
    top of its stack, taps it and lays it beside its pad (never left on a pad). After a round the winner puts
    every card of the round under its stack, its own last (`pick_up`)."""

    LEAVE_ON_SLOTS = False
    LAID_IN_VIEW = True   # the leader reads its revealed card's values to choose the characteristic

    @property
    def round_over(self) -> bool:
        """A decided round's cards still lie beside the pads (the winner has not taken them yet)."""
        state = self.session.state
        return bool(self.table) and state is not None and self.acts.must_clear(state)

    def reach(self, seat: int) -> list[str]:
        """The top card of the seat's stack."""
        stack = self.hands.get(seat)
        return stack[-1:] if stack else []

    def _deal(self) -> None:
        cards = self.sim.cards(self.sim.deck)
        self.rng.shuffle(cards)
        seats = self.session.players
        hand = len(cards) // len(seats)
        self.hands = {seat: cards[p * hand:(p + 1) * hand] for p, seat in enumerate(seats)}   # the rest: aside

    def _picked_up(self) -> None:
        """The winner slides the round's cards under its stack: the others' in a random order, its own at the
        very bottom (so that its top card is never one it just tapped)."""
        last = self.session.state.results[-1]
        winner = self.session.players[last.winner]
        own = revealed_by(last.cards, last.round, last.winner)
        others = [card for card in self.table if card not in own]
        self.rng.shuffle(others)
        self.hands[winner] = [card for card in self.table if card in own] + others + self.hands[winner]
        self.table = []

    def _resume(self) -> bool:
        """Stacks as the table knows them: each seat's won cards at the bottom, unseen cards dealt at random on
        top up to its count; this round's cards on the table; the unseen rest set aside."""
        state = self.session.state
        cards = state.tables.deck.cards
        unseen = [card for card, where in zip(cards, state.where) if where == UNSEEN]
        self.rng.shuffle(unseen)
        self.hands, redealt = {}, False
        for p, seat in enumerate(self.session.players):
            known = [card for card, where in zip(cards, state.where) if where == p + 1]
            self.rng.shuffle(known)
            missing = state.counts[p] - len(known)
            redealt |= missing > 0
            self.hands[seat] = known + [unseen.pop() for _ in range(missing)]
        self.table = list(state.pot)
        return redealt


class Players(Bots):
    """Seeded bots at a simulated Chevaux table."""

    World = World
