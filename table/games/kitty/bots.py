"""Kitty bots: a pure seeded strategy (TABLE-PROTOCOLS 6.4) that decides from `observe(state, seat)` only.

`choose(view, legal, rng)` picks one of the seat's legal actions:

- register: the deal is chance from a seat's side (a simulated world deals the real cards), so any card;
- pass: a card of a rank where it has no hope of a majority, never the 1, preferring ranks its left
  neighbour is not collecting (by public wins) and keeping low cards for bidding;
- bid: on a target whose rank it contests, its lowest card whose rank nobody else seems to hold (few
  unknown copies: a tie is unlikely); the 1 when the target would give an opponent a majority of a high
  rank; otherwise its highest card that is useless to it;
- soft pick: the target of the rank it contests more;
- the 1's gift (the giver decides; call the giver's bot with every `Receive` of the gift): the receiver
  whose side gains least from the target's rank.

`Players` are these bots at a simulated table, acting on its `World`.
"""
from __future__ import annotations

import random
from functools import cache
from typing import Any

from table.assets import deck_data
from table.games.kitty.rules import KITTY, Bid, Pass, Pick, Receive, Register, make_deck, observe
from table.bots import world
from table.bots.players import Bots


@cache
def _ranks() -> dict[str, int]:
    """Every card's rank (the deck is public knowledge)."""
    return dict(make_deck(deck_data("pairs")).ranks)


def choose(view: dict, legal: list, rng: random.Random) -> Any:
    """The bot's action among `legal` (this seat's legal actions), from its own view only."""
    first = legal[0]
    if isinstance(first, Pass):
        return _pass(Knowledge(view), legal, rng)
    if isinstance(first, Bid):
        return _bid(Knowledge(view), legal, rng)
    if isinstance(first, Pick):
        k = Knowledge(view)
        return max(legal, key=lambda a: (k.gain(k.rank[a.card]), rng.random()))
    if isinstance(first, Receive):
        return _gift(Knowledge(view), legal, rng)
    return rng.choice(legal)            # registration (the deal) and shown targets are chance


class Knowledge:
    """What a seat's view tells about each rank: its own cards, what each side took, what is out."""

    def __init__(self, view: dict) -> None:
        self.rank = rank = _ranks()
        self.view = view
        n = view["players"]
        me = view["seat"]
        teams = view["teams"]
        self.mine_side = tuple(next(t for t in teams if me in t)) if teams else (me,)
        self.sides = [tuple(t) for t in teams] if teams else [(p,) for p in range(n)]
        self.left = (me + 1) % n
        copies: dict[int, int] = {}
        for r in rank.values():
            copies[r] = copies.get(r, 0) + 1
        mine = dict.fromkeys(copies, 0)
        for c in view["hand"]:
            mine[rank[c]] += 1
        side_taken = [dict.fromkeys(copies, 0) for _ in self.sides]
        side_of = {p: i for i, side in enumerate(self.sides) for p in side}
        for p, cards in enumerate(view["taken"]):
            for c in cards:
                side_taken[side_of[p]][rank[c]] += 1
        # Cards I passed this deal lie (as far as I know) with my left neighbour's side.
        for row in view["my_passes"]:
            if row["gave"] is not None:
                side_taken[side_of[self.left]][rank[row["gave"]]] += 1
        out = dict.fromkeys(copies, 0)
        for c in view["out"]:
            out[rank[c]] += 1
        self.mine = mine
        me_side = side_of[me]
        partner = {r: side_taken[me_side][r] for r in copies} if teams else dict.fromkeys(copies, 0)
        self.ours = {r: mine[r] + partner[r] for r in copies}
        others = [i for i in range(len(self.sides)) if i != me_side]
        self.side_taken = side_taken
        self.others = others
        self.unknown = {r: max(0, copies[r] - mine[r] - out[r] - sum(side_taken[i][r] for i in others)
                               - partner[r]) for r in copies}
        self.best_other = {r: max((side_taken[i][r] for i in others), default=0) for r in copies}
        share = max(1, len(others))
        self.margin = {r: self.ours[r] - self.best_other[r] - self.unknown[r] / share for r in copies}

    def keep(self, r: int) -> float:
        """How much holding a card of rank `r` is worth to me: its value if I may hold the majority."""
        m = self.margin[r]
        return r if m >= 0 else r * max(0.0, 1 + m / 2)

    def gain(self, r: int) -> float:
        """What taking one more card of rank `r` is worth to me."""
        before, after = self.margin[r], self.margin[r] + 1
        if after < -1:
            return 0.1 * r
        return r * (1.5 if before < 0 <= after else 1.0)

    def tie_risk(self, r: int) -> float:
        """How likely another seat bids rank `r` too: the unknown copies per other seat."""
        return self.unknown[r] / max(1, self.view["players"] - 1)


def _pass(k: Knowledge, legal: list, rng: random.Random) -> Pass:
    left_taken = k.side_taken[next(i for i, s in enumerate(k.sides) if k.left in s)]

    def cost(action: Pass) -> tuple:
        r = k.rank[action.card]
        return (r == 1, k.keep(r) + (r if left_taken[r] else 0) + (3 if r <= 3 else 0), rng.random())
    return min(legal, key=cost)


def _bid(k: Knowledge, legal: list, rng: random.Random) -> Bid:
    targets = k.view["targets"]
    ranks = [k.rank[c] for c in targets]
    gain = max(k.gain(r) for r in ranks)
    plain = [a for a in legal if k.rank[a.card] != 1] or legal
    one = [a for a in legal if k.rank[a.card] == 1]
    if one:
        threat = any(r >= 6 and k.best_other[r] >= max(1, k.ours[r]) for r in ranks)
        if threat and gain < max(ranks):
            return one[0]
    if gain >= min(ranks) and gain >= 3:
        return min(plain, key=lambda a: (k.rank[a.card] + 3 * k.tie_risk(k.rank[a.card])
                                         + 0.5 * k.keep(k.rank[a.card]), rng.random()))
    return max(plain, key=lambda a: (k.rank[a.card] - 2 * k.keep(k.rank[a.card]), rng.random()))


def _gift(k: Knowledge, legal: list, rng: random.Random) -> Receive:
    r = k.rank[legal[0].card]
    side_of = {p: i for i, side in enumerate(k.sides) for p in side}
    return min(legal, key=lambda a: (k.side_taken[side_of[a.player]][r], rng.random()))


# ---------------------------------------------------------------- a simulated table

class World(world.World):
    """The cards of a simulated Kitty table. The dealer deals the kitty face down (the pile, 7 cards), sets
    3 cards aside unseen at 5 players and deals the rest; seats register their cards (tap, and keep them in
    hand). Targets come off the kitty onto the centre (`show`); passes and bids are laid from the hand, a
    picked or received target is tapped from the table (`lay` reaches it). Once the hands are registered,
    the hands are what the table knows each seat holds, less what lies on the table: passes change hands
    when the last one is in. After a reveal the bids and the targets nobody took are discarded
    (`pick_up`), and a new deal is dealt when one starts."""

    def _picked_up(self) -> None:
        """After a reveal: bids and untaken targets discarded (a target still to be picked or given stays)."""
        self.table = [c for c in self.table if c in self._named()]
        self._follow_the_table()

    def _deal(self) -> None:
        """Shuffle; the kitty face down, the cards set aside, the hands."""
        view = observe(self.session.state, None)
        cards = self.sim.cards(self.sim.deck)
        self.rng.shuffle(cards)
        size, seats = view["hand_size"], self.session.players
        self.hands = {seat: self.in_order(cards[p * size:(p + 1) * size]) for p, seat in enumerate(seats)}
        self.pile = cards[size * len(seats):][:KITTY]

    def _landed(self, seat: int | None, card: str, action) -> None:
        """A registered card goes back into its seat's hand; later, the hands follow the table's knowledge."""
        if isinstance(action, Register):
            self.table.remove(card)
            self.hands[seat] = self.in_order(self.hands[seat] + [card])
        elif self.session.state.phase != "register":
            self._follow_the_table()

    def _follow_the_table(self) -> None:
        """Each seat holds what the table knows it holds, less its sealed pass and bid lying on the table."""
        state = self.session.state
        for p, seat in enumerate(self.session.players):
            mine = observe(state, p)
            laid = {mine["my_pass"], mine["my_bid"]}
            self.hands[seat] = self.in_order(c for c in mine["hand"] if c not in laid)
        held = set().union(*self.hands.values())
        self.table = [c for c in self.table if c not in held]

    def _resume(self) -> bool:
        """Registered hands from the table's knowledge, the rest dealt again at random; the kitty left is the
        pile (the cards nobody registered, shown or bid; at 5 players the 3 set aside are among them)."""
        state = self.session.state
        view = observe(state, None)
        for p, seat in enumerate(self.session.players):
            mine = observe(state, p)
            self.hands[seat] = self.in_order(mine["hand"])
            self.table += [c for c in (mine["my_pass"], mine["my_bid"]) if c]
        gone = [card for r in view["log"] for card in (*r["targets"], *r["bids"])]
        known = set(self.table).union(*self.hands.values(), view["targets"], gone)
        pool = [c for c in self.sim.cards(self.sim.deck) if c not in known]
        self.rng.shuffle(pool)
        redealt = state.phase == "register"
        if redealt:
            for p, seat in enumerate(self.session.players):
                missing = view["hand_size"] - len(self.hands[seat])
                self.hands[seat] += [pool.pop() for _ in range(missing)]
        self.pile = pool[:view["kitty_left"]]
        if not redealt:
            self._follow_the_table()
        return redealt


class Players(Bots):
    """Seeded bots at a simulated Kitty table."""

    World = World
