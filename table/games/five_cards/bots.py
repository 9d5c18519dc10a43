"""Five Cards bots: a pure seeded strategy deciding from a seat's view (TABLE-PROTOCOLS 8.4).

The only decision is the column. Each legal column is worth the target times
the change the card makes to "I win this column" (losing 0, tied 1/2, winning
1), plus a little for widening a lead still below 10; a column already won by
more than 10 is avoided; ties go to the higher target. Anything else (a chance
outcome) is picked at random. `Players` are these bots at a simulated table,
acting on its `World`.
"""
from __future__ import annotations

import random
from typing import Any

from table.games.five_cards.rules import Place, Show
from table.bots import world
from table.bots.players import Bots
from table.bots.world import CannotDo

SAFE_MARGIN = 10


def _standing(mine: int, theirs: int) -> float:
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def column_value(target: int, mine: int, theirs: int, card: int) -> float:
    """What putting a card of rank `card` on my side of a column is worth to me."""
    lead = mine - theirs
    if lead > SAFE_MARGIN:
        return -1000.0 + target / 100
    value = target * (_standing(mine + card, theirs) - _standing(mine, theirs))
    if 0 < lead + card and lead < SAFE_MARGIN:
        # securing a margin below 10: a share of the target for the part of the card that widens it
        value += target * 0.25 * (min(lead + card, SAFE_MARGIN) - max(lead, 0)) / SAFE_MARGIN
    return value


def choose(view: dict[str, Any], legal: list, rng: random.Random):
    """The action this seat takes among `legal` (its legal actions), from its own view only."""
    places = [a for a in legal if isinstance(a, Place)]
    if not places:
        return rng.choice(legal)
    me = view["seat"]
    card = view["last_draw"]["rank"]
    columns = view["columns"]

    def value(action: Place) -> tuple[float, int]:
        col = columns[action.column]
        return column_value(col["rank"], col["sums"][me], col["sums"][1 - me], card), col["rank"]

    return max(places, key=value)


# ---------------------------------------------------------------- a simulated table

class World(world.World):
    """The cards of a simulated Five Cards table: the whole deck, shuffled, is the pile. Setup cards and each
    turn's draw come off its top (`show`); the set-aside setup cards go back into the deck, shuffled, once the
    five targets are out; at a round's end everyone gathers every card and shuffles again (`pick_up`)."""

    def pick_up(self) -> bool:
        """After a round: gather every card, shuffle the whole deck."""
        if not self.round_over:
            raise CannotDo("sim_nothing_to_pick_up")
        self._gather(deal=True)
        return True

    def _deal(self) -> None:
        self.pile = self.sim.cards(self.sim.deck)
        self.rng.shuffle(self.pile)

    def _landed(self, seat: int | None, card: str, action) -> None:
        """A set-aside setup card goes back into the deck once the five targets are out."""
        setup = self.rules.observe(self.session.state, None)["setup"]
        if setup["done"] and isinstance(action, Show):
            aside = {shown["card"] for shown in setup["shown"] if shown["role"] != "target"}
            self.pile += [c for c in self.table if c in aside]
            self.table = [c for c in self.table if c not in aside]
            self.rng.shuffle(self.pile)

    def _resume(self) -> bool:
        """Rebuild the table from a resumed session: the targets and columns are known, the rest is the pile."""
        view = self.rules.observe(self.session.state, None)
        self.table = [c["target"] for c in view["columns"]] + [card for c in view["columns"]
                                                               for side in c["sides"] for card in side]
        if view["drawn"]:
            self.table.append(view["drawn"])
        self.pile = [c for c in self.sim.cards(self.sim.deck) if c not in self.table]
        self.rng.shuffle(self.pile)
        return False


class Players(Bots):
    """Seeded bots at a simulated Five Cards table."""

    World = World
