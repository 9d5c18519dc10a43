"""Sweep bots: a pure seeded strategy (TABLE-PROTOCOLS 5.4), deciding from `observe(state, player)` only.

Which card to play: for each card it may play, simulate the round's capture
with the cards already played, each later player playing a card of the median
unseen rank; the value is the change in the ranks it would score (its
majorities, against what the others are publicly known to have taken) plus a
little for every card gained (cards are what one plays with). Ties in the
simulation split as the rules say, so a rank already played is avoided unless
the split pays; the lowest card taking the centre's top rank is found the same
way. A tie pick: the target rank that gains or keeps it a majority, else the
highest. Registrations, centre cards and the table draw are not decisions (in
the simulated table the world deals them): any legal one. `Players` are these
bots at a simulated table, acting on its `World`.
"""
from __future__ import annotations

import random
from string import ascii_letters
from typing import Any

from table.games.sweep.rules import HAND, Play, Register, Take, observe, resolve
from table.bots import world
from table.bots.players import Bots

RANKS = range(1, 11)
COPIES = {r: r for r in RANKS}              # the Pairs deck: one 1, two 2s ... ten 10s
CARD_WORTH = 0.3                            # a card gained, beyond what it scores now


def rank_of(card: str) -> int:
    """A Pairs card's rank from its id (the rank, then a copy letter: "7c"), as the deck file keeps them."""
    return int(card.rstrip(ascii_letters))


def choose(view: dict, legal: list, rng: random.Random) -> Any:
    """One of `legal` (the seat's legal actions) for the seat whose view this is."""
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        return _play(view, plays, rng)
    takes = [a for a in legal if isinstance(a, Take)]
    if takes:
        return _take(view, takes)
    return rng.choice(legal)


# ---------------------------------------------------------------- what a seat knows

def _mine(view: dict) -> dict[int, int]:
    counts = dict.fromkeys(RANKS, 0)
    for card in view["hand"]:
        counts[rank_of(card)] += 1
    for loose in view["loose"]:
        counts[loose["rank"]] += loose["count"]
    return counts


def _others(view: dict) -> list[dict[int, int]]:
    """Each player's ranks as publicly known this deal: what they took, less what they played since."""
    counts = [dict.fromkeys(RANKS, 0) for _ in range(view["players"])]
    rounds = list(view["log"])
    for record in rounds:
        for step in record["steps"]:
            for taken in step["taken"]:
                counts[taken["player"]][taken["rank"]] += 1
        for player, card in record["played"]:
            r = rank_of(card)
            counts[player][r] = max(0, counts[player][r] - 1)
    for player, card in view["played"]:
        r = rank_of(card)
        counts[player][r] = max(0, counts[player][r] - 1)
    return counts


def _value(mine: dict[int, int], best_other: dict[int, int]) -> float:
    """The ranks this holding scores against the others' best known counts, plus a little per card."""
    points = sum(r for r in RANKS if mine[r] and mine[r] >= best_other[r])
    return points + CARD_WORTH * sum(mine.values())


def _gain(mine: dict[int, int], best_other: dict[int, int], rank: int) -> float:
    """What one more card of `rank` is worth to this holding."""
    after = dict(mine)
    after[rank] += 1
    return _value(after, best_other) - _value(mine, best_other)


def _best_other(view: dict) -> dict[int, int]:
    others = _others(view)
    seat = view["seat"]
    return {r: max((c[r] for p, c in enumerate(others) if p != seat), default=0) for r in RANKS}


# ---------------------------------------------------------------- decisions

def _take(view: dict, takes: list) -> Take:
    """The target rank where one more card gains or keeps a majority most, else the highest rank."""
    mine, best = _mine(view), _best_other(view)
    return max(takes, key=lambda a: (_gain(mine, best, rank_of(a.card)), rank_of(a.card)))


def _play(view: dict, plays: list, rng: random.Random) -> Play:
    seat = view["seat"]
    mine, best = _mine(view), _best_other(view)
    now = _value(mine, best)
    centre = tuple(view["centre"])
    played = tuple((p, c) for p, c in view["played"])
    order = view["order"]
    later = order[order.index(seat) + 1:]
    guess = _median_unseen(view, mine)
    ranks = {c: rank_of(c) for c in centre}
    ranks.update((c, rank_of(c)) for _, c in played)
    fakes = tuple((p, f"?{i}") for i, p in enumerate(later))
    ranks.update((c, guess) for _, c in fakes)
    by_rank: dict[int, Play] = {}
    for action in plays:
        by_rank.setdefault(rank_of(action.card), action)
    scored = []
    for r, action in sorted(by_rank.items()):
        ranks[action.card] = r
        after = dict(mine)
        after[r] -= 1
        for gained in _simulate(ranks, view["players"], centre, played + ((seat, action.card),) + fakes, seat,
                                after, best):
            after[gained] += 1
        scored.append((_value(after, best) - now, -r, action))
    top = max(s[:2] for s in scored)
    return rng.choice([a for *key, a in scored if tuple(key) == top])


def _simulate(ranks: dict[str, int], players: int, centre: tuple[str, ...], played: tuple[tuple[int, str], ...],
              seat: int, mine: dict[int, int], best: dict[int, int]) -> list[int]:
    """The ranks `seat` would take; in ties it picks for itself the rank worth most, the others the highest."""
    chosen: list[str] = []
    while True:
        res = resolve(ranks, players, centre, played, chosen)
        if res.tie is None:
            gained = [ranks[c] for c in res.gains[seat]]
            for pool in res.pools:
                gained += [pool.rank] * pool.shares[seat]
            return gained
        if res.picker == seat:
            chosen.append(max(res.left, key=lambda card: (_gain(mine, best, ranks[card]), ranks[card])))
        else:
            chosen.append(max(res.left, key=ranks.__getitem__))


def _median_unseen(view: dict, mine: dict[int, int]) -> int:
    """The median rank of the cards this seat cannot see (in others' hands or the pile)."""
    unseen = dict(COPIES)
    for r, n in mine.items():
        unseen[r] -= n
    for card in view["centre"]:
        unseen[rank_of(card)] -= 1
    for _, card in view["played"]:
        unseen[rank_of(card)] -= 1
    ranks = [r for r in RANKS for _ in range(max(0, unseen[r]))]
    return ranks[len(ranks) // 2] if ranks else 5


# ---------------------------------------------------------------- a simulated table

class World(world.World):
    """The cards of a simulated Sweep table. The dealer deals 5 cards to every seat and the rest is the
    pile; seats register their cards (tap, and keep them in hand); the dealer shows the round's centre off
    the pile (`show`); seats play from their hand, and a tied seat takes a centre card by tapping it
    (`lay` reaches it on the table). After a capture everyone takes into hand what the table knows they
    now hold, the centre's leftovers are discarded (`pick_up`), and a new deal is dealt when one starts."""

    def _picked_up(self) -> None:
        """After a capture: captures into the hands, the centre's leftovers discarded."""
        self.table = []
        self.hands = self._known_hands()

    def _deal(self) -> None:
        """Shuffle, deal 5 cards to every seat; the rest is the pile."""
        cards = self.sim.cards(self.sim.deck)
        self.rng.shuffle(cards)
        seats = self.session.players
        self.hands = {seat: self.in_order(cards[p * HAND:(p + 1) * HAND]) for p, seat in enumerate(seats)}
        self.pile = cards[HAND * len(seats):]

    def _landed(self, seat: int | None, card: str, action) -> None:
        """A registered card goes back into its seat's hand."""
        if isinstance(action, Register):
            self.table.remove(card)
            self.hands[seat] = self.in_order(self.hands[seat] + [card])

    def _known_hands(self) -> dict[int, list[str]]:
        """What each seat holds as the table knows it: its own cards, and its share of each pool of copies
        taken automatically (the copies shared out in seat order)."""
        state, hands, shared = self.session.state, {}, set()
        for p, seat in enumerate(self.session.players):
            mine = observe(state, p)
            hand = list(mine["hand"])
            for pool in mine["loose"]:
                free = [c for c in pool["cards"] if c not in shared]
                hand += free[:pool["count"]]
                shared.update(free[:pool["count"]])
            hands[seat] = self.in_order(hand)
        return hands

    def _resume(self) -> bool:
        """Hands as the table knows them (unregistered cards dealt again at random); the rest is the pile."""
        state = self.session.state
        view = observe(state, None)
        self.hands = self._known_hands()
        self.table = list(view["centre"]) + [card for _, card in view["played"]]
        known = set(self.table).union(*self.hands.values(), *(r["discarded"] for r in view["log"]))
        pool = [c for c in self.sim.cards(self.sim.deck) if c not in known]
        self.rng.shuffle(pool)
        redealt = False
        for p, seat in enumerate(self.session.players):
            missing = view["expected"] - len(self.hands[seat]) if state.phase == "register" else 0
            if missing > 0:
                self.hands[seat] += [pool.pop() for _ in range(missing)]
                redealt = True
        self.pile = pool
        return redealt


class Players(Bots):
    """Seeded bots at a simulated Sweep table."""

    World = World
