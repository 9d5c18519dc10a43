"""Feira Torio on a simulated table: its physical world, and seeded random players who act on it.

`World` is what lies on and around the table: the deck, each seat's hand,
the pile and the cards on the table. The dealer shuffles and deals 6 cards at
the start of each hand and everyone discards 2 unseen (at random here), the
dealer turns up 4 lots on the centre pads (`show`), the First Bid holder
points the First Bid card with the seat buttons, and everyone lays their 4
bids on their pads (`lay`). After each reveal everyone picks up what the
public view says they now hold.
"""
from __future__ import annotations

from typing import Callable

from table.games.feira_torio.rules import INFO, LOTS, observe, resolution_order, unseen
from table.bots import world
from table.bots.players import Bots
from table.bots.world import CannotDo

class World(world.World):
    """The cards of a simulated Feira Torio table. Built on a session resumed from its journal, it
    rebuilds what it can (see `note`)."""

    @property
    def round_over(self) -> bool:
        """Cards of a finished round still lie on the table: the next step is to pick them up."""
        state = self.session.state
        return bool(self.table) and state is not None and not any(state.lots) and not any(map(any, state.bids))

    def show(self) -> bool:
        """The dealer turns up the top card of the pile as the next lot; a refused card goes back on the pile."""
        centre, state = self.layout.centre, self.session.state
        self._can_show()
        if len(centre) > 1 and state is not None:
            centre = tuple(pad for pad, lot in zip(centre, state.lots) if lot is None)
        free = [pad for pad in centre if self.sim.pads[pad].card is None]
        if not free:
            raise CannotDo("sim_no_free_pad")
        return self._lay(self.pile.pop(), free[0], self.pile)

    def lay(self, seat: int, card: str) -> bool:
        """The seat lays `card` from its hand as its next bid, in resolution order; refused, back to the hand."""
        pads, state = self.pads(seat), self.session.state
        if self.round_over:
            raise CannotDo("sim_pick_up_first")
        pad = pads[0]
        if len(pads) > 1 and state is not None:
            mine = observe(state, self.session.players.index(seat))["my_bids"]
            free = [pads[p] for p in resolution_order(state.first or 0) if mine[p] is None]
            if not free:
                raise CannotDo("sim_no_free_pad")
            pad = free[0]
        hand = self.hands[seat]
        at = hand.index(card)
        hand.pop(at)
        return self._lay(card, pad, hand, at)

    def pick_up(self) -> bool:
        """After a reveal everyone takes what they now hold; when it ended a hand, the dealer gathers and deals."""
        if not self.round_over:
            raise CannotDo("sim_nothing_to_pick_up")
        state = self.session.state
        if state.phase != "over" and state.round == 1:
            self._gather(deal=True)
        else:
            self.sim.clear()
            self.table = []
            self.hands = {seat: sorted(state.hands[p]) for p, seat in enumerate(self.session.players)}
        return True

    # ------------------------------------------------------------ inner workings

    def _deal(self) -> None:
        """Shuffle this game's cards, deal 6 from the dealer's left; each seat discards 2 at random, under the pile."""
        state, seats = self.session.state, self.session.players
        cards = sorted(state.deck.for_players(state.players))
        self.rng.shuffle(cards)
        n = state.players
        dealt = [cards[i * 6:(i + 1) * 6] for i in range(n)]
        order = [(state.dealer + 1 + i) % n for i in range(n)]   # from the dealer's left
        discards = []
        for player, six in zip(order, dealt):
            self.rng.shuffle(six)
            self.hands[seats[player]], gone = six[:4], six[4:]
            discards += gone
        self.pile = cards[6 * n:] + discards
        self.rng.shuffle(self.pile)

    def _resume(self) -> bool:
        """Rebuild the cards from a session resumed from its journal.

        Lots and bids come from the game state, known hands from the public
        holdings. Hands the table never saw (round 1 of a hand) are dealt
        again at random from the cards nobody has seen.
        """
        state, seats = self.session.state, self.session.players
        self.table = [c for c in state.lots if c] + [c for row in state.bids for c in row if c]
        pool = sorted(unseen(state))
        self.rng.shuffle(pool)
        redealt = False
        for p, seat in enumerate(seats):
            laid = {c for c in state.bids[p] if c}
            if state.hands[p] is not None:
                self.hands[seat] = sorted(state.hands[p] - laid)
            else:
                self.hands[seat] = [pool.pop() for _ in range(LOTS - len(laid))]
                redealt = True
        self.pile = pool
        return redealt


class Players(Bots):
    """Seeded random players sitting at `seats` of a simulated table; they act through its `world`, a phase at a
    time (every lot, the First Bid, every missing bid)."""

    World = World

    def play(self, after_round: Callable[[dict], None] = lambda view: None,
             each_step: Callable[[], None] = lambda: None) -> dict:
        """Play until the game is over; `after_round` sees the table view after each reveal and pick-up;
        `each_step` is called after each phase of a round."""
        session = self.sim.session
        while not session.over:
            for phase in (self.lay_lots, self.choose_first, self.lay_bids, self.world.pick_up):
                phase()
                each_step()
            after_round(self.sim.table.table_view())
        return session.public()

    def step(self) -> None:
        """Play the table's next step for everyone: join and start, pick up, lots, First Bid, or every missing bid."""
        session, world = self.sim.session, self.world
        if session.state is None:
            free = [s for s in self.seats if s not in session.joined]
            if len(session.joined) < INFO.players.start and free:
                world.join(free[0])
            elif session.joined:
                world.press(session.joined[0], "ok")
        elif world.round_over:
            world.pick_up()
        elif session.state.phase == "lots":
            self.lay_lots()
        elif session.state.phase == "first":
            self.choose_first()
        elif session.state.phase == "bidding":
            self.lay_bids()

    def lay_lots(self) -> None:
        """The dealer turns up the missing lots."""
        state = self.sim.session.state
        while state.phase == "lots" and self.world.show():
            state = self.sim.session.state

    def choose_first(self) -> None:
        """The First Bid holder points the First Bid card a random number of times, then settles it."""
        state = self.sim.session.state
        if state.phase != "first":
            return
        holder = self.sim.session.players[state.first_bid]
        for _ in range(self.rng.randrange(LOTS)):
            self.world.press(holder, "next")
        self.world.press(holder, "ok")

    def lay_bids(self) -> None:
        """Every seat lays its missing bids from its hand, at random; seats bid at the same time, interleaved."""
        session = self.sim.session
        if session.state.phase != "bidding":
            return
        queues = {}
        for player, row in enumerate(session.state.bids):
            seat = session.players[player]
            missing = row.count(None)
            if missing:
                queues[player] = self.rng.sample(self.world.hands[seat], missing)
        while queues:
            player = self.rng.choice(sorted(queues))
            card = queues[player].pop(0)
            if not queues[player]:
                del queues[player]
            self.world.lay(session.players[player], card)
