"""Seeded bots for any game whose bots module decides with `choose(view, legal, rng)`.

Each bot decides from its own seat's view (`observe(state, player)`) among
the legal actions it can physically make (the cards it can reach), and acts
through the world with the physical acts the game's `acts_for` gives: a card
on its pad, button presses. Chance cards come off the world's pile; the
table draws what no card carries by itself.
"""
from __future__ import annotations

import random
from typing import Callable

from table.bots.world import CannotDo, SimTable, World
from table.games.contract import ButtonPress, CardOnPad


class Bots:
    """Seeded players sitting at `seats` of a simulated table, acting through the game's `World`."""

    World: type[World] = World   # the game's physical world

    def __init__(self, sim: SimTable, seats: list[int], rng: random.Random) -> None:
        self.sim = sim
        self.seats = sorted(seats)
        self.rng = rng
        self.world = self.World(sim, rng)

    def join_and_start(self) -> None:
        """Every seat taps a card on its pad to join; the first seat presses OK and starts."""
        for seat in self.seats:
            self.world.join(seat)
        self.world.press(self.seats[0], "ok")

    def play(self, after_round: Callable[[dict], None] = lambda view: None,
             each_step: Callable[[], None] = lambda: None) -> dict:
        """Play until the game is over; `after_round` sees the table view after each resolution (and when the
        world's `moment` changes); `each_step` is called after each step (a demo's clock moves on)."""
        session, moment = self.sim.session, self.world.moment()
        while not session.over:
            self.step()
            each_step()
            if self.world.round_over or session.over:
                after_round(self.sim.table.table_view())
                if not session.over:
                    self.world.pick_up()
            elif moment != (moment := self.world.moment()):
                after_round(self.sim.table.table_view())
        return session.public()

    def step(self) -> None:
        """The table's next step for everyone: join and start, pick up, show a chance card, or one seat acts
        (nothing once the game is over)."""
        session, world = self.sim.session, self.world
        if session.staff.open:
            raise CannotDo("sim_staff_menu_open")   # the seats' buttons work the staff menu now
        if session.state is None:
            free = [s for s in self.seats if s not in session.joined]
            if len(session.joined) < session.chosen.info.players.start and free:
                world.join(free[0])
            elif session.joined:
                world.press(session.joined[0], "ok")
            return
        need = session.game.rules.need(session.state)
        if world.round_over:
            world.pick_up()
        elif need.chance:
            if not world.show():
                raise CannotDo("sim_pile_refused")   # the world and the table disagree: never loop on it
        elif need.any_of and need.by is not None:
            self.act(need.by, need.players)          # the giver decides who takes it
        elif need.players and not self.interrupted(need.interrupt):
            player = self.rng.choice(need.players)
            self.act(player, (player,))

    def step_all(self) -> None:
        """The next step for everyone: one `step`, and when that is a seat's part of a sealed step (bids, a
        registration), the rest of the step, until it resolves or the table waits for something else."""
        sealed = () if self.world.round_over else self._sealed()   # picking up is a step of its own
        self.step()
        while sealed and not self.world.round_over:
            now, state = self._sealed(), self.sim.session.state
            if not now or not set(now) <= set(sealed):
                return
            self.step()
            if self.sim.session.state is state:   # nothing taken: never loop on it
                return
            sealed = now

    def _sealed(self) -> tuple[int, ...]:
        """The players a sealed step waits for now (empty: the game waits for no sealed step)."""
        session = self.sim.session
        if session.state is None or session.staff.open:
            return ()
        need = session.game.rules.need(session.state)
        return need.players if need.simultaneous else ()

    def interrupted(self, players: tuple[int, ...]) -> bool:
        """Whether one of `players`, who may interrupt the turn (a call), did: each in turn, in a random order,
        decides from its own view with the game's `interrupt(view, legal, rng)` (None: it lets the turn go on)."""
        session = self.sim.session
        decide = getattr(session.game.bots, "interrupt", None)
        for player in self.rng.sample(players, len(players)) if decide else ():
            legal = self.legal((player,))
            action = decide(session.game.rules.observe(session.state, player), legal, self.rng) if legal else None
            if action is not None:
                self.perform(action)
                return True
        return False

    def legal(self, players: tuple[int, ...]) -> list:
        """The legal actions of `players` they can physically make: acts this table's pads allow, with the cards
        (and accessories) they can reach."""
        session = self.sim.session
        state, acts_for = session.state, session.game.acts.acts_for
        reach = {p: set(self.world.reach(session.players[p])) for p in players}   # once per player
        return [a for a in session.game.rules.legal_actions(state) if getattr(a, "player", None) in reach
                and _within(acts_for(state, a, session.shape), reach[a.player])]

    def act(self, decider: int, players: tuple[int, ...]) -> None:
        """`decider` chooses, from its own view, among the legal actions `players` can physically make."""
        session = self.sim.session
        legal = self.legal(players)
        if not legal:
            raise CannotDo("sim_no_card")
        self.perform(session.game.bots.choose(session.game.rules.observe(session.state, decider), legal, self.rng))

    def perform(self, action) -> None:
        """The chosen action's player makes its physical acts."""
        session = self.sim.session
        state, acts_for = session.state, session.game.acts.acts_for
        seat = session.players[action.player]
        for act in acts_for(state, action, session.shape):
            if isinstance(act, ButtonPress):
                self.world.press(seat, act.button)
            elif isinstance(act, CardOnPad) and not self.world.lay(seat, act.card, act.slot):
                raise CannotDo("sim_card_refused")


def _within(acts: tuple, reach: set[str]) -> bool:
    """Whether `acts` are some acts, every card they lay within `reach`."""
    return bool(acts) and all(act.card in reach for act in acts if isinstance(act, CardOnPad))
