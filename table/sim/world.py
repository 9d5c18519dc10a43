"""The physical side of a simulated table, common to every game: hands, pile, cards laid, and the acts on them.

A game's bots module subclasses `World` with its own physical rules (how it
deals, where a laid card goes, what players pick up after a resolution) and
gives `Players`, seeded bots acting through that world. The simulated
window and the demo use only what is here: `join`, `press`, `staff`, `show`
(the top of the pile onto the centre), `lay` (a card from a seat's hand onto
its pad), `pick_up`, `hands`, `pile`, `note`, `round_over`.
"""
from __future__ import annotations

import random
from typing import Callable

from table.events import Accepted, Refused
from table.sim.simulated_table import SimulatedTable

STAFF_CARD = "staff-1"


class CannotDo(Exception):
    """A physical act that cannot be done now; the argument is an i18n key saying why (for the operator)."""


class World:
    """The cards of a simulated table and the physical acts on them.

    Acts return whether the table accepted them, and raise `CannotDo` when they
    cannot be done at all. When a game starts the world deals (`_deal`); when
    the table goes back to the lobby everyone hands the cards back.
    """

    def __init__(self, sim: SimulatedTable, rng: random.Random) -> None:
        self.sim = sim
        self.rng = rng
        self.layout = sim.table.layout
        self.hands: dict[int, list[str]] = {}   # seat -> cards in hand
        self.pile: list[str] = []               # face down; the top is the end
        self.table: list[str] = []              # cards lying on the table
        self.note: str | None = None            # an i18n key for the operator, after a resume
        self._answer: Accepted | Refused | None = None
        sim.table.bus.subscribe(Accepted, self._heard)
        sim.table.bus.subscribe(Refused, self._heard)
        if self.session.state is not None:
            self._resume()

    @property
    def session(self):
        return self.sim.session

    def pads(self, seat: int) -> tuple[str, ...]:
        return self.layout.seats[seat - 1].pads

    @property
    def round_over(self) -> bool:
        """Cards of a finished resolution still lie on the table: the next step is to pick them up."""
        return bool(self.table) and self.session.state is not None and \
            self.session.game.acts.must_clear(self.session.state)

    # ------------------------------------------------------------ acts

    def join(self, seat: int, card: str | None = None) -> bool:
        """The seat taps a card on its pad: to join, in the lobby (any card of the deck will do)."""
        if self.session.state is not None:
            raise CannotDo("sim_join_in_lobby")
        card = card or self.sim.cards(self.sim.deck)[0]
        return self._act(lambda: self.sim.tap(self.pads(seat)[0], card))

    def press(self, seat: int, button: str) -> bool:
        """The seat presses one of its buttons."""
        return self._act(lambda: self.sim.press(seat, button))

    def staff(self) -> bool:
        """Staff tap the staff card on a free pad, the centre first: OK on the lobby's menu, or ends a finished game."""
        pad = next(p for p in self.layout.centre + self.layout.pads if self.sim.pads[p].card is None)
        return self._act(lambda: self.sim.tap(pad, STAFF_CARD))

    def show(self) -> bool:
        """Turn up the top card of the pile onto the centre."""
        raise CannotDo("sim_nothing_to_show")

    def lay(self, seat: int, card: str) -> bool:
        """The seat lays `card` from its hand on its pad."""
        raise CannotDo("sim_no_card")

    def pick_up(self) -> bool:
        """After a resolution everyone takes up what the rules say."""
        raise CannotDo("sim_nothing_to_pick_up")

    # ------------------------------------------------------------ inner workings

    def _deal(self) -> None:
        """The game's deal, when it starts."""

    def _resume(self) -> None:
        """Rebuild the cards from a session resumed from its journal."""

    def _gather(self, deal: bool) -> None:
        """Everyone hands every card back (off the pads too); then the game deals if asked."""
        if any(reader.card for reader in self.sim.pads.values()):
            self.sim.clear()
        self.hands, self.pile, self.table = {}, [], []
        if deal:
            self._deal()

    def _lay(self, card: str, pad: str, back: list[str]) -> bool:
        """Lay `card` on `pad` (tapped on a single pad, else left there); on the table if accepted, else `back`."""
        tapped = self.layout.pad_place(pad)[1] is None
        accepted = self._act(lambda: self.sim.tap(pad, card) if tapped else self.sim.put(pad, card))
        if accepted:
            self.table.append(card)
        else:
            if not tapped:
                self.sim.lift(pad)
            back.append(card)
        return accepted

    def _act(self, act: Callable[[], None]) -> bool:
        """Do a physical act; whether the table accepted it. A game that starts is dealt, one that ends handed back."""
        self._answer = None
        act()
        answer = self._answer
        if isinstance(answer, Accepted) and answer.what in ("start", "lobby"):
            self._gather(deal=answer.what == "start")
        return isinstance(answer, Accepted)

    def _heard(self, event: Accepted | Refused) -> None:
        """The table's first answer to the act under way."""
        if self._answer is None:
            self._answer = event
