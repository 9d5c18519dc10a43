"""Venture bots: a pure seeded strategy deciding from a seat's view (TABLE-PROTOCOLS 7.4).

`choose(view, legal, rng)` picks one of the seat's legal actions from
`observe(state, seat)` only. The table never knows hands, so the engine's
legal bids are every card nobody has seen; a simulated table that knows the
seat's physical hand passes only the bids of those cards (the strategy then
also knows its own hand, and leaves it out of what the others may bid).

- Draft: OK (the draft itself is physical: `draft_keep` says which 3 cards
  to keep at each pass).
- Bid: Monte Carlo with 20 samples. The other seats bid uniformly from the
  cards the seat has not seen; each candidate rank is fired against the same
  samples, and scored by the change of the seat's deal points (-1 per card
  captured, + a rank it would complete with the centre). The best mean wins.

`Players` are these bots at a simulated table, acting on its `World`.
"""
from __future__ import annotations

import random
from functools import cache
from typing import Any, Sequence

from table.assets import deck_data
from table.games.venture.rules import INFO, Bid, DraftDone, Tables, _fire, make_deck, observe, points, tables
from table.bots import world
from table.bots.players import Bots

SAMPLES = 20


@cache
def _tables() -> Tables:
    return tables(make_deck(deck_data(INFO.deck)))


def choose(view: dict, legal: Sequence[Any], rng: random.Random) -> Any:
    """One of `legal` (this seat's legal actions) for the seat whose view this is."""
    done = [a for a in legal if isinstance(a, DraftDone)]
    if done:
        return done[0]
    bids = [a for a in legal if isinstance(a, Bid)]
    if not bids:
        return rng.choice(list(legal))
    return _best_bid(view, bids, rng)


def _best_bid(view: dict, bids: list[Bid], rng: random.Random) -> Bid:
    t = _tables()
    seat, n = view["seat"], view["players"]
    by_rank: dict[int, list[Bid]] = {}
    for bid in bids:
        by_rank.setdefault(t.rank[bid.card], []).append(bid)
    if len(by_rank) == 1:
        return rng.choice(next(iter(by_rank.values())))
    unseen = view["unseen"]
    mine = {b.card for b in bids}
    knows_hand = len(mine) < len(unseen)
    others = [c for c in unseen if c not in mine] if knows_hand else list(unseen)
    centre = tuple(view["centre"])
    pile = tuple(view["piles"][seat])
    samples = []
    for _ in range(SAMPLES):
        drawn = rng.sample(others, min(len(others), n))
        samples.append(drawn)
    best: list[int] = []
    best_value = None
    for r, group in sorted(by_rank.items()):
        card = group[0].card
        total = 0
        for drawn in samples:
            rest = [c for c in drawn if c != card][:n - 1]
            if len(rest) < n - 1:
                continue
            round_bids = tuple(rest[:seat]) + (card,) + tuple(rest[seat:])
            steps, left = _fire(t, centre, round_bids)
            gained = ()
            for _, _, _, taker, taken, _, _ in steps:
                if taker == seat:
                    gained = taken
            if gained:
                total += (points(t.sizes, t.rank, pile + gained, left) - points(t.sizes, t.rank, pile, left))
        if best_value is None or total > best_value:
            best, best_value = [r], total
        elif total == best_value:
            best.append(r)
    return rng.choice(by_rank[rng.choice(best)])


def draft_keep(view: dict, hand: Sequence[str], rng: random.Random) -> list[str]:
    """The 3 cards to keep at a draft pass: those whose ranks are most common among the cards the seat has
    not seen (a likely tie), ties towards middle ranks, then at random."""
    t = _tables()
    held = set(hand)
    count: dict[int, int] = {}
    for c in view["unseen"]:
        if c not in held:
            count[t.rank[c]] = count.get(t.rank[c], 0) + 1
    order = sorted(hand, key=lambda c: (-count.get(t.rank[c], 0), abs(t.rank[c] - 5.5), rng.random()))
    return order[:3]


# ---------------------------------------------------------------- a simulated table

class World(world.World):
    """The cards of a simulated Venture table. The dealer deals every card: the slug stays face down (the
    pile, shown card by card on the centre pads) and the rest makes the hands; with the draft option the
    seats draft at once (keep 3, pass the rest left, until nothing is left to pass). Bids are laid from the
    hand; after a firing the captures go to the score piles and the rest to the centre (`pick_up`), and a
    new deal is dealt when one starts."""

    def _deal(self) -> None:
        """Deal the slug face down and the hands; draft when the option is on."""
        state, seats = self.session.state, self.session.players
        view = self.rules.observe(state, None)
        cards = self.sim.cards(self.sim.deck)
        self.rng.shuffle(cards)
        self.pile, rest = cards[:view["slug_size"]], cards[view["slug_size"]:]
        size = view["hand_size"]
        hands = [rest[p * size:(p + 1) * size] for p in range(len(seats))]
        if view["options"]["draft"]:
            hands = self._draft(hands)
        self.hands = {seat: self.in_order(hand) for seat, hand in zip(seats, hands)}

    def _draft(self, packets: list[list[str]]) -> list[list[str]]:
        """Each seat keeps 3 of its packet (`draft_keep`) and passes the rest left, until nothing is passed."""
        state = self.session.state
        kept: list[list[str]] = [[] for _ in packets]
        while any(packets):
            passed = []
            for p, packet in enumerate(packets):
                keep = draft_keep(observe(state, p), packet, self.rng) if len(packet) > 3 else packet
                kept[p] += keep
                passed.append([c for c in packet if c not in keep])
            packets = [passed[p - 1] for p in range(len(packets))]
        return kept

    def _resume(self) -> bool:
        """Hands are never known to the table: deal the unseen cards again at random (the slug left first)."""
        state, seats = self.session.state, self.session.players
        view = self.rules.observe(state, None)
        pool = sorted(view["unseen"])
        self.rng.shuffle(pool)
        missing = view["slug_size"] - len(view["slug"]) if view["phase"] in ("draft", "slug") else 0
        self.pile, pool = pool[:missing], pool[missing:]
        for p, seat in enumerate(seats):
            self.hands[seat], pool = self.in_order(pool[:view["in_hand"][p]]), pool[view["in_hand"][p]:]
        return True


class Players(Bots):
    """Seeded bots at a simulated Venture table."""

    World = World
