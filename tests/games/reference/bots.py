"""High Card's simulated table: each seat is dealt one card per round, and a bot lays its highest card."""
from __future__ import annotations

import random

from table.bots import world
from table.bots.players import Bots
from tests.games.reference import GAME
from tests.games.reference.rules import ROUNDS, Bid


def choose(view: dict, legal: list[Bid], rng: random.Random) -> Bid:
    """The seat's highest card (by the deck's ranks), ties at random."""
    rank = dict(GAME.deck)
    return max(legal, key=lambda bid: (rank[bid.card], rng.random()))


class World(world.World):
    """Each seat holds `ROUNDS` cards from the shuffled deck; a card laid stays out once the round is shown."""

    def _deal(self) -> None:
        cards = self.sim.cards(self.sim.deck)
        self.rng.shuffle(cards)
        self.hands = {seat: self.in_order(cards[i * ROUNDS:(i + 1) * ROUNDS])
                      for i, seat in enumerate(self.session.players)}
        self.pile = []

    def _resume(self) -> bool:
        """The table never knows hands: each seat gets again, at random among the unseen cards, one per round
        left (less the card it has sealed)."""
        state = self.session.state
        unseen = [c for c in self.sim.cards(self.sim.deck) if c not in state.seen and c not in state.bids]
        self.rng.shuffle(unseen)
        left = ROUNDS - state.round + 1
        self.table = [c for c in state.bids if c]
        for p, seat in enumerate(self.session.players):
            count = left - (state.bids[p] is not None)
            self.hands[seat], unseen = self.in_order(unseen[:count]), unseen[count:]
        return True


class Players(Bots):
    """Seeded bots at a simulated High Card table."""

    World = World
