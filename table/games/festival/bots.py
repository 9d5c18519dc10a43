"""Festival bots: a pure seeded strategy (TABLE-PROTOCOLS 4.4) that decides from `observe(state, seat)` only.

`choose(view, legal, rng)` picks one of the legal actions the deciding seat may make:

- which card to keep: the one that adds most to its gold as far as it can see (the face-up cards of the
  others, its own tableau): majority races, a new profession for a set, 1 gold less for a two-star card;
  the simplified game: the highest number;
- who receives (the giver decides, with every allowed seat's `Keep`): the seat whose best card in the rest
  adds least to that seat's gold by its public tableau; it keeps that best card;
- face up or down (the seat prompt, or the pad at a multi-pad seat): face up for a number of 3 or less (it
  competes for first player and puts the seat in next turn's priority), face down for a two-star card or a
  card of a profession the seat already collects (it would show a majority chase), face up otherwise;
- the packet's draws are chance: the simulated world supplies them.

`Players` are these bots at a simulated table, acting on its `World`.
"""
from __future__ import annotations

import random
from functools import cache
from typing import Any

from table.assets import deck_data
from table.games.festival.rules import INFO, Deck, Draw, Face, Keep, in_play, make_deck, observe, score
from table.bots import world
from table.bots.players import Bots

CHASE_UP_TO = 3            # a number this low goes face up even in a profession the seat collects


@cache
def _deck() -> Deck:
    """The deck (public knowledge)."""
    return make_deck(deck_data(INFO.deck))


def choose(view: dict, legal: list, rng: random.Random) -> Any:
    """The bot's action among `legal` (the legal actions it may make), from its own view only."""
    first = legal[0]
    if isinstance(first, Keep):
        return _keep(Knowledge(view), legal, rng)
    if isinstance(first, Face):
        card = next(entry["card"] for entry in view["tableau"] if entry["up"] is None)
        up = face_up(card, [entry["card"] for entry in view["tableau"] if entry["card"] != card])
        return next(a for a in legal if a.up == up)
    return rng.choice(legal)


def face_up(card: str, held: list[str]) -> bool:
    """Whether to lay `card` face up, next to the cards `held`."""
    cards = _deck().cards
    c = cards[card]
    if c.number <= CHASE_UP_TO:
        return True
    return c.stars == 1 and all(cards[h].profession != c.profession for h in held)


class Knowledge:
    """What a seat knows of every tableau: its own cards, and the face-up cards of the others."""

    def __init__(self, view: dict) -> None:
        self.me = view["seat"]
        self.simplified = view["options"]["simplified"]
        self.known = [[c for cards in t["up"].values() for c in cards] for t in view["tableaus"]]
        self.known[self.me] = [entry["card"] for entry in view["tableau"]]
        self.base = [g.total for g in score(self.known, _deck(), self.simplified)]

    def gain(self, player: int, card: str) -> int:
        """How much gold `card` adds to `player`'s, as far as this seat knows."""
        held = list(self.known)
        held[player] = held[player] + [card]
        return score(held, _deck(), self.simplified)[player].total - self.base[player]


def _keep(k: Knowledge, legal: list[Keep], rng: random.Random) -> Keep:
    """The receiver (itself, or the seat gaining least) and the card it keeps (its best), with its face."""
    variants: dict[tuple[int, str], list[Keep]] = {}
    for action in legal:
        variants.setdefault((action.player, action.card), []).append(action)
    gains = {(p, card): (k.gain(p, card), rng.random()) for p, card in variants}
    best = {}
    for (p, card), gain in gains.items():
        if p not in best or gain > gains[p, best[p]]:
            best[p] = card
    receiver = k.me if k.me in best else min(best, key=lambda p: gains[p, best[p]])
    card = best[receiver]
    options = variants[receiver, card]
    up = face_up(card, k.known[receiver])
    return next((a for a in options if a.up is None), None) or next(a for a in options if a.up == up)


# ---------------------------------------------------------------- a simulated table

class World(world.World):
    """The cards of a simulated Festival table. The pile is the game's cards, shuffled. The first player draws
    the packet off the pile (`show` taps each card on its pad, then it holds them); a seat taps the card it
    keeps from its hand (the first player) or from the rest of the packet, which lies on the table between
    the seats once handed on (`lay` reaches it for the seats that may receive it). Every card is tapped and
    laid beside the pad, never left on one. At the end of a turn the kept cards join the tableaus and the last
    card is discarded (`pick_up`)."""

    LEAVE_ON_SLOTS = False

    def _deal(self) -> None:
        """The game's cards (V1) shuffled into the pile; nobody holds a card."""
        self.pile = in_play(self.session.state)
        self.rng.shuffle(self.pile)
        self.hands = {seat: [] for seat in self.session.players}

    def _landed(self, seat: int | None, card: str, action) -> None:
        """A card drawn goes into the first player's hand; once a seat keeps a card it hands on the rest."""
        if isinstance(action, Draw):
            self.table.remove(card)
            self.hands[seat].append(card)
        elif isinstance(action, Keep):
            self.table += self.hands[seat]
            self.hands[seat] = []

    def _resume(self) -> bool:
        """Rebuild the cards from the table's knowledge: the packet (with its holder, or handed on), the cards
        nobody drew back in the pile; the kept and discarded cards are out of reach."""
        state = self.session.state
        seats = self.session.players
        views = [observe(state, p) for p in range(len(seats))]
        seen = {entry["card"] for view in views for entry in view["tableau"]} | \
            {card for view in views for card in view["discards"]}
        holder = views[0]["holder"]
        packet = views[holder]["packet_cards"] if holder is not None else []
        self.hands = {seat: [] for seat in seats}
        if state.choices:
            self.table = list(packet)
        elif holder is not None:
            self.hands[seats[holder]] = list(packet)
        self.pile = [c for c in in_play(state) if c not in seen and c not in packet]
        self.rng.shuffle(self.pile)
        return False


class Players(Bots):
    """Seeded bots at a simulated Festival table."""

    World = World
