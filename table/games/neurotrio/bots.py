"""Neurotrio bots: a pure seeded strategy (TABLE-PROTOCOLS 3.4) that decides from `observe(state, player)` only.

`choose(view, legal, rng)` picks one of the player's legal actions, `interrupt(view, legal, rng)` says
whether a player outside the turn calls "neuro" in the call window (its `Call`, or None):

- register: the deal is chance from a seat's side (the simulated world deals the real cards), so any card;
- place or pass: the legal (card, cell) with the highest reward, ties broken by the card with the fewest
  legal cells, then reading order (the cells as the bot reads them on the domain of its view); once the
  card is chosen, that cell (the view's `best`); pass only when no card has a cell;
- call: when its best expected bid with the highest base left is worth 3 points or more (any player with a
  token left, the active one before it plays);
- bid: it believes P(treasure = kind) proportional to the copies of the kind it has not seen (neither in its
  hand nor on the domain, chosen card included), takes the highest base left and the (domain card, token)
  of best expected value (a number token t: base x t x the expected 3/1/-1/-2 by attributes shared with the
  treasure; an attribute token: base x (2p - 1), p the chance the treasure shares that attribute). It bids
  when that is above 0; the caller must bid, and bluffs with its 0 token when nothing is. The pieces come
  base, card, then token (the commit), so the bid is complete when the token is in.

`Players` are these bots at a simulated table, acting on its `World`.
"""
from __future__ import annotations

import random
from functools import cache
from typing import Any, NamedTuple

from table.games.neurotrio import GAME
from table.games.neurotrio.rules import (REWARDS, TOKEN_KINDS, BidBase, BidCard, BidToken, Call, Choose, Deck,
                                         NoBid, Pass, Register, Show, Wager, bid_score, observe)
from table.bots import world
from table.bots.players import Bots

CALL_FROM = 3              # the expected points of its best bid that make a bot call "neuro"
BLUFF = "0"                # the token a caller bids when no bid is worth anything
STEPS = ((-1, 0), (0, -1), (0, 1), (1, 0))


@cache
def _deck() -> Deck:
    """The deck (public knowledge)."""
    return GAME.deck


@cache
def _units() -> dict[tuple[int, str], tuple[float, ...]]:
    """The score of a bid with a base worth 1, by the kind of the card bet on and the token's kind: one per
    kind of treasure (`bid_score`, which is linear in the base)."""
    deck = _deck()
    card = {kind: c for c, kind in deck.kind.items()}
    token = {kind: t for t, (_, kind) in deck.tokens.items()}
    base = next(iter(deck.bases))
    kinds = range(len(deck.kinds))
    return {(k, kind): tuple(bid_score(deck, card[t], Wager(0, base, card[k], token[kind])) / deck.bases[base]
                             for t in kinds) for k in kinds for kind in TOKEN_KINDS}


def choose(view: dict, legal: list, rng: random.Random) -> Any:
    """The bot's action among `legal` (the legal actions it can make), from its own view only."""
    phase = view["phase"]
    if phase == "bid":
        return _bid(view, legal)
    if phase != "build":
        return rng.choice(legal)            # registration: any card of its hand
    if view["chosen"] is not None:
        row, col, _ = view["cells"][view["best"]]
        return next(a for a in legal if a.row == row and a.col == col)
    return interrupt(view, legal, rng) or _place(view, legal)


def interrupt(view: dict, legal: list, rng: random.Random) -> Call | None:
    """Its `Call` when it may call and its best bid is worth calling for, else None."""
    call = next((a for a in legal if isinstance(a, Call)), None)
    if call is None or plan(view).value < CALL_FROM:
        return None
    return call


def _place(view: dict, legal: list) -> Choose | Pass:
    """The card to lay: the best reward, then the card with the fewest cells, then reading order; or pass."""
    choices = [a for a in legal if isinstance(a, Choose)]
    if not choices:
        return next(a for a in legal if isinstance(a, Pass))
    spaces = frontier(view)
    kind = _deck().kind

    def rank(action: Choose) -> tuple:
        spots = cells(spaces, kind[action.card])
        row, col, reward = max(spots, key=lambda s: (s[2], -s[0], -s[1]))
        return -reward, len(spots), row, col, action.card
    return min(choices, key=rank)


def frontier(view: dict) -> list[tuple[int, int, tuple[int, ...]]]:
    """The empty cells touching the domain where a card may go without breaking the limits (N3), in reading
    order, each with the kinds of the cards it touches."""
    deck = _deck()
    at = {(r, c): deck.kind[card] for r, c, card in view["domain"]}
    box, (rows, cols) = view["box"], view["limits"]
    top, left = box["top"], box["left"]
    bottom, right = top + box["rows"] - 1, left + box["cols"] - 1
    found = []
    for r, c in sorted({(r + dr, c + dc) for r, c in at for dr, dc in STEPS} - set(at)):
        height = max(bottom, r) - min(top, r) + 1
        width = max(right, c) - min(left, c) + 1
        if height <= rows and width <= cols and width <= 2 * height and height <= 2 * width:
            found.append((r, c, tuple(at[r + dr, c + dc] for dr, dc in STEPS if (r + dr, c + dc) in at)))
    return found


def cells(spaces: list[tuple[int, int, tuple[int, ...]]], kind: int) -> list[tuple[int, int, int]]:
    """Where a card of `kind` may be laid among these `spaces` (a `frontier`; N2): (row, col, reward) in
    reading order."""
    shared = _deck().shared[kind]
    found = []
    for r, c, touched in spaces:
        compatible = sum(shared[t] >= 2 for t in touched)
        if compatible >= min(2, len(touched)):
            found.append((r, c, REWARDS[compatible] if len(touched) > 1 else 0))
    return found


class Plan(NamedTuple):
    """A bid as a bot would make it, and the points it expects from it."""

    value: float
    base: str
    card: str
    token: str                              # the token's kind


def belief(view: dict) -> list[float]:
    """P(treasure = kind), per kind: proportional to the copies of the kind this player has not seen."""
    deck = _deck()
    seen = {*view["hand"], *(card for _, _, card in view["domain"]), view["chosen"]} - {None}
    unseen = [2] * len(deck.kinds)
    for card in seen:
        unseen[deck.kind[card]] -= 1
    total = sum(unseen)
    return [n / total for n in unseen]


def plan(view: dict) -> Plan:
    """The best bid this player could make now (it has a token left, and a base is left): the highest base
    left, and the (domain card, token) of best expected value, the first in domain order, then token order,
    among equals; its token is the one in its bid when there is one."""
    deck, units = _deck(), _units()
    value = max(view["bases_left"])
    p = [(t, q) for t, q in enumerate(belief(view)) if q]

    @cache
    def expected(kind: int, token: str) -> float:
        return value * sum(q * units[kind, token][t] for t, q in p)

    tokens = [view["my_token"]] if view["my_token"] else view["tokens"]
    card, token = max(((card, token) for _, _, card in view["domain"] for token in tokens),
                      key=lambda pair: expected(deck.kind[pair[0]], pair[1]))
    base = next(b for b, v in deck.bases.items() if v == value)
    return Plan(expected(deck.kind[card], token), base, card, token)


def _bid(view: dict, legal: list) -> Any:
    """The next piece of its bid (base, card, then token), or NoBid when no bid is worth anything."""
    best = plan(view)
    if best.value <= 0 and view["my_token"] is None:
        if view["caller"] != view["seat"]:
            return next(a for a in legal if isinstance(a, NoBid))
        if BLUFF in view["tokens"]:
            best = best._replace(token=BLUFF)
    bid = view["bid"]
    if bid["base"] != _deck().bases[best.base]:
        return next(a for a in legal if isinstance(a, BidBase) and a.base == best.base)
    if bid["card"] != best.card:
        return next(a for a in legal if isinstance(a, BidCard) and a.card == best.card)
    kinds = _deck().tokens
    return next(a for a in legal if isinstance(a, BidToken) and kinds[a.token][1] == best.token)


# ---------------------------------------------------------------- a simulated table

class World(world.World):
    """The things of a simulated Neurotrio table. The pile is the 54 cards shuffled; the start card is turned
    up from it onto a centre pad (`show`) and laid where the domain starts, off every pad; then one card is put
    aside unseen and the 52 others are dealt clockwise from the first player. The 10 base cards lie in the
    centre and token set k by seat k. Every act is a tap (laid on the seat's pad, lifted): a registered card
    goes back into its hand, a chosen card leaves the hand for the domain, a bid's base and token are laid on
    the domain card bet on. `reach` is what a seat may tap now: its hand and its unused tokens, and for the
    bidder the bases left and the domain's cards (lifted, tapped, put back)."""

    LEAVE_ON_SLOTS = False

    def moment(self) -> object:
        """A demo frame each time the domain grows by a card."""
        state = self.session.state
        return None if state is None or state.domain is None else len(state.domain.placed)

    def reach(self, seat: int) -> list[str]:
        """What `seat` may tap now: its hand, its unused tokens, and as the bidder the domain and the bases."""
        hand = self.hands.get(seat, [])
        state = self.session.state
        if state is None or seat not in self.session.players:
            return hand
        view = observe(state, self.session.players.index(seat))
        deck = _deck()
        kinds = set(view["tokens"]) - {view["my_token"]}
        free = {t for t in deck.sets[view["token_set"] or seat] if deck.tokens[t][1] in kinds}
        if view["bidder"] == view["seat"]:
            free.update(card for _, _, card in view["domain"])
            free.update(b for b, value in deck.bases.items() if value in view["bases_left"])
        return hand + [thing for thing in self.table if thing in free]

    def _deal(self) -> None:
        """The 54 cards shuffled into the pile; nobody holds a card yet."""
        self.pile = list(_deck().cards)
        self.rng.shuffle(self.pile)
        self.hands = {seat: [] for seat in self.session.players}
        self.table = self._accessories()

    def _accessories(self) -> list[str]:
        """The bases, in the centre, and each seat's token set, by it."""
        deck = _deck()
        return [*deck.bases, *(t for seat in self.session.players for t in deck.sets[seat])]

    def _landed(self, seat: int | None, card: str, action) -> None:
        """The start card shown: one card put aside unseen, the rest dealt. A registered card back in hand."""
        if isinstance(action, Show):
            self.pile.pop()                             # put aside unseen
            players, first = self.session.players, observe(self.session.state, None)["first"]
            for i, dealt in enumerate(reversed(self.pile)):
                self.hands[players[(first + i) % len(players)]].append(dealt)
            self.pile = []
            self.hands = {s: self.in_order(hand) for s, hand in self.hands.items()}
        elif isinstance(action, Register):
            self.table.remove(card)
            self.hands[seat] = self.in_order(self.hands[seat] + [card])

    def _resume(self) -> bool:
        """Rebuild the things from the table's knowledge: hands as registered (during registration the cards
        nobody registered are dealt again at random, one put aside), the domain with the chosen card, the
        bases and the token sets."""
        state = self.session.state
        view = observe(state, None)
        if view["phase"] == "show":
            self._deal()
            return False
        players = self.session.players
        chosen = [view["chosen"]] if view["chosen"] else []
        self.hands = {seat: [c for c in observe(state, p)["hand"] if c not in chosen] for p, seat in enumerate(players)}
        self.table = [card for _, _, card in view["domain"]] + chosen + self._accessories()
        if view["phase"] == "register":
            known = set(self.table).union(*self.hands.values())
            pool = [c for c in _deck().cards if c not in known]
            self.rng.shuffle(pool)
            pool.pop()
            for p, seat in enumerate(players):
                missing = view["dealt"][p] - len(self.hands[seat])
                self.hands[seat] = self.in_order(self.hands[seat] + [pool.pop() for _ in range(missing)])
        return view["phase"] == "register"


class Players(Bots):
    """Seeded bots at a simulated Neurotrio table."""

    World = World
