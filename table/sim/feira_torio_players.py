"""The people at a simulated Feira Torio table: seeded random players who handle real (virtual) cards.

They do what people do at the table: the dealer shuffles and deals 6 cards,
everyone discards 2 unseen, the dealer turns up 4 lots on the centre pads,
the First Bid holder points the First Bid card with the seat buttons, and
everyone lays their 4 bids on their pads. They know only their own hands,
and after each reveal they pick up what the public view tells them.
"""
from __future__ import annotations

import random
from typing import Callable

from table.games.feira_torio import LOTS, resolution_order
from table.sim.simulated_table import SimulatedTable


class FeiraTorioPlayers:
    """Seeded random players sitting at `seats` of a simulated table."""

    def __init__(self, sim: SimulatedTable, seats: list[int], rng: random.Random) -> None:
        self.sim = sim
        self.seats = sorted(seats)
        self.rng = rng
        self.layout = sim.table.layout
        self.hands: list[list[str]] = []
        self.pile: list[str] = []

    def join_and_start(self) -> None:
        """Every seat taps a card on its pad to join; the first seat presses OK and deals first."""
        for seat in self.seats:
            self.sim.tap(self._pads(seat)[0], "TA01")
        self.sim.press(self.seats[0], "ok")

    def play(self, after_round: Callable[[dict], None] = lambda view: None) -> dict:
        """Play until the game is over; `after_round` sees the table view after each reveal."""
        session = self.sim.session
        while not session.over:
            if session.state.round == 1:
                self._deal()
            self._round()
            after_round(self.sim.table.table_view())
        return session.public()

    def _deal(self) -> None:
        state = self.sim.session.state
        cards = sorted(state.deck.for_players(state.players))
        self.rng.shuffle(cards)
        n = state.players
        dealt = [cards[i * 6:(i + 1) * 6] for i in range(n)]
        order = [(state.dealer + 1 + i) % n for i in range(n)]   # from the dealer's left
        self.hands = [[] for _ in range(n)]
        discards = []
        for player, six in zip(order, dealt):
            self.rng.shuffle(six)
            self.hands[player], gone = six[:4], six[4:]
            discards += gone
        self.pile = cards[6 * n:] + discards
        self.rng.shuffle(self.pile)

    def _round(self) -> None:
        session = self.sim.session
        centre = self.layout.centre
        for position in range(LOTS):
            card = self.pile.pop()
            if len(centre) == LOTS:
                self.sim.put(centre[position], card)
            else:
                self.sim.tap(centre[0], card)
        holder = self.seats[session.state.first_bid]
        for _ in range(self.rng.randrange(LOTS)):
            self.sim.press(holder, "next")
        self.sim.press(holder, "ok")
        order = resolution_order(session.state.first)
        queues = {}
        for player, hand in enumerate(self.hands):
            queues[player] = list(zip(order, self.rng.sample(hand, LOTS)))   # laid in resolution order
        while queues:
            player = self.rng.choice(sorted(queues))   # seats bid at the same time, interleaved
            position, card = queues[player].pop(0)
            if not queues[player]:
                del queues[player]
            pads = self._pads(self.seats[player])
            if len(pads) == 1:
                self.sim.tap(pads[0], card)
            else:
                self.sim.put(pads[position], card)
        self.sim.clear()
        holdings = session.public()["holdings"]
        self.hands = [list(h) if h is not None else [] for h in holdings]

    def _pads(self, seat: int) -> tuple[str, ...]:
        return self.layout.seats[seat - 1].pads
