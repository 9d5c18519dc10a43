"""Feira Torio: a hidden simultaneous auction for 3 to 6 players.

The rules are ../shared/rules/feira-torio.fr.md as settled by RULINGS F1-F10;
its README records the table's own readings. The engine sees
what the table sees: the 2-of-6 discard is physical (F10), so in the first
round of a hand it does not know the hands and accepts any card not yet seen;
from round 2 every hand is known (all cards were face up after the reveal).

Lot positions are the arms of the cross, clockwise: 0 top, 1 right,
2 bottom, 3 left. Players are numbered clockwise; "left" is the next one.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from itertools import compress, product, repeat
from operator import attrgetter, contains, itemgetter
from typing import Any, Callable, Iterable, Mapping

from table.games.contract import GameInfo, Need, PadNeeds, Refusal, chance_need
from table.games.kit.evolve import evolver

NAME = "feira-torio"
MIN_PLAYERS = 3
MAX_PLAYERS = 6
LOTS = 4
ROUNDS = 4
TARGET = 50
BONUS = 5
CATEGORIES = ("taureau", "vache", "abri", "fourrage")

# One pad per seat or one per bid slot (4), one centre pad or one per lot (4); Next and OK for the First Bid card.
INFO = GameInfo(NAME, deck="feira-torio", players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
                pads=PadNeeds(seat_pads=(1, LOTS), centre_pads=(1, LOTS), buttons=("next", "ok")))


# ---------------------------------------------------------------- data

@dataclass(frozen=True, slots=True)
class Card:
    """One card of the deck: bid points (fingers), victory points (stars), player-count marker."""

    id: str
    category: str
    fingers: int
    stars: int
    players: int


@dataclass(frozen=True, slots=True)
class Deck:
    """The deck's cards by id, with tables derived from them once (the engine's hot paths use them).

    Every action on a card is built once, by card id: `lot_actions[position]`,
    `bid_actions[player][position]`. `ids` are the card ids, sorted.
    """

    cards: Mapping[str, Card]
    ids: tuple[str, ...] = field(init=False, repr=False, compare=False)
    fingers: Mapping[str, int] = field(init=False, repr=False, compare=False)
    in_play: Mapping[int, frozenset[str]] = field(init=False, repr=False, compare=False)
    lot_actions: tuple[Mapping[str, PlaceLot], ...] = field(init=False, repr=False, compare=False)
    bid_actions: tuple[tuple[Mapping[str, Bid], ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ids = tuple(sorted(self.cards))
        tables = {
            "ids": ids,
            "fingers": {cid: self.cards[cid].fingers for cid in ids},
            "in_play": {n: self.for_players(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)},
            "lot_actions": tuple({cid: PlaceLot(p, cid) for cid in ids} for p in range(LOTS)),
            "bid_actions": tuple(tuple({cid: Bid(player, p, cid) for cid in ids} for p in range(LOTS))
                                 for player in range(MAX_PLAYERS)),
        }
        for name, table in tables.items():
            object.__setattr__(self, name, table)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "Deck":
        """Build the deck from the parsed deck file (assets/decks/feira-torio.toml)."""
        cards = {}
        for row in data["cards"]:
            card = Card(row["id"], row["category"], int(row["fingers"]), int(row["stars"]), int(row["players"]))
            if card.category not in CATEGORIES:
                raise ValueError(f"card {card.id}: unknown category {card.category!r}")
            cards[card.id] = card
        return cls(cards)

    def for_players(self, players: int) -> frozenset[str]:
        """The cards used with this many players (RULINGS F1); `in_play` caches it per player count."""
        return frozenset(c.id for c in self.cards.values() if c.players <= players)


make_deck = Deck.from_data


@dataclass(frozen=True, slots=True)
class PlaceLot:
    """Chance: the dealer turns up `card` as the lot at `position`."""

    position: int
    card: str


@dataclass(frozen=True, slots=True)
class PointFirst:
    """The First Bid holder points the First Bid card at a lot (not yet final)."""

    player: int
    position: int


@dataclass(frozen=True, slots=True)
class MarkFirst:
    """The First Bid holder settles which lot resolves first."""

    player: int
    position: int


@dataclass(frozen=True, slots=True)
class Bid:
    """A sealed bid: `player` puts `card` face down on the lot at `position`."""

    player: int
    position: int
    card: str


Action = PlaceLot | PointFirst | MarkFirst | Bid
ACTIONS = (PlaceLot, PointFirst, MarkFirst, Bid)

# The First Bid holder's choices, made once: (MarkFirst, PointFirst) actions by holder and lot.
_FIRST_ACTIONS = tuple(
    (tuple(MarkFirst(holder, p) for p in range(LOTS)), tuple(PointFirst(holder, p) for p in range(LOTS)))
    for holder in range(MAX_PLAYERS))

# Every Need but a chance node's, made once (Need is frozen): the holder's turn, the end, and the sealed bids
# keyed by which players still have an open slot (`None in row` for each row).
_FIRST_NEEDS = tuple(Need(players=(holder,)) for holder in range(MAX_PLAYERS))
_DONE = Need()
_BIDDING_NEEDS = {open_rows: Need(players=tuple(compress(range(n), open_rows)), simultaneous=True)
                  for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) for open_rows in product((False, True), repeat=n)}


@dataclass(frozen=True, slots=True)
class LotResult:
    """One step of the reveal: the bids on a lot and what became of them."""

    position: int
    lot: str
    bids: tuple[tuple[int, str], ...]          # (player, card) for every bid still in play on this lot
    cancelled: tuple[int, ...]                 # players whose bid tied with another bid
    winner: int | None                         # None: nobody won, the lot is discarded
    withdrawn: tuple[tuple[int, tuple[str, ...]], ...]  # the winner takes back these bids from later lots


@dataclass(frozen=True, slots=True)
class HandScore:
    """One player's score for a hand: the best card per category, multiplied, plus the bonus."""

    player: int
    kept: tuple[str, ...]
    factors: tuple[int, ...]
    bonus: int
    score: int


@dataclass(frozen=True, slots=True)
class Standing:
    """What changes at most once a round (at the reveal): kept apart from `State` so that an action copies only
    the few fields it may change."""

    deck: Deck
    players: int
    dealer: int
    first_bid: int
    hand: int = 1
    round: int = 1
    hands: tuple[frozenset[str] | None, ...] = ()  # None: not known (round 1)
    discard: frozenset[str] = frozenset()
    totals: tuple[int, ...] = ()
    scores: tuple[HandScore, ...] = ()          # the last finished hand's scores
    history: tuple[tuple[int, ...], ...] = ()   # every finished hand's scores
    winners: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class State:
    """The whole game as the table knows it: the `standing`, and what the actions of a round change. Never shown
    as is: see `observe`. The standing's fields read as the state's own (`state.hands`, `state.round`...)."""

    standing: Standing
    phase: str = "lots"                         # lots, first, bidding, over
    lots: tuple[str | None, ...] = (None,) * LOTS
    pointer: int = 0                            # where the First Bid card points (phase first)
    first: int | None = None                    # the lot that resolves first (bidding)
    bids: tuple[tuple[str | None, ...], ...] = ()
    reveal: tuple[LotResult, ...] = ()          # the last round's reveal, until the next round's lots are out
    # Derived from the fields above, so that `need` and `legal_actions` do not work them out on every call:
    # `__post_init__` works them out (`_needed`, `_offers`), `apply` updates them (by slicing).
    # - needed: what `need` answers; in phase lots its outcomes are the cards the dealer may turn up (`unseen`),
    #   sorted;
    # - offers (phase bidding, else ()): per player, the cards it may bid (sorted) and its legal bids (for each
    #   open slot in order, a Bid per card), or None when its hand is unknown (round 1: then `cards` is one
    #   tuple shared by all such players, and `legal_actions` picks their bids from the deck's tables).
    needed: Need = field(init=False, repr=False, compare=False)
    offers: tuple[tuple[tuple[str, ...], tuple[Bid, ...] | None], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "needed", _needed(self))
        object.__setattr__(self, "offers", _offers(self) if self.phase == "bidding" else ())

    # The standing's fields, read through the state (the bots, the screen and the tests read `state.hands`...):
    deck = property(attrgetter("standing.deck"))
    players = property(attrgetter("standing.players"))
    dealer = property(attrgetter("standing.dealer"))
    first_bid = property(attrgetter("standing.first_bid"))
    hand = property(attrgetter("standing.hand"))
    round = property(attrgetter("standing.round"))
    hands = property(attrgetter("standing.hands"))
    discard = property(attrgetter("standing.discard"))
    totals = property(attrgetter("standing.totals"))
    scores = property(attrgetter("standing.scores"))
    history = property(attrgetter("standing.history"))
    winners = property(attrgetter("standing.winners"))


assert ("standing", "phase", "lots", "pointer", "first", "bids", "reveal", "needed", "offers") == tuple(
    f.name for f in fields(State)), "_make must set every field of State"
_set_standing, _set_phase, _set_lots, _set_pointer, _set_first, _set_bids, _set_reveal, _set_needed, _set_offers = (
    getattr(State, f.name).__set__ for f in fields(State))
_new = object.__new__
_evolve_standing = evolver(Standing)   # dataclasses.replace at a third of its cost: a round's end runs it


def _make(standing: Standing, phase: str, lots: tuple[str | None, ...], pointer: int, first: int | None,
          bids: tuple[tuple[str | None, ...], ...], reveal: tuple[LotResult, ...], needed: Need,
          offers: tuple) -> State:
    """A State from all its fields, derived ones included, at a fraction of `State(...)`'s cost (which works the
    derived ones out): it runs on every action (the fields are checked against State at import)."""
    new = _new(State)
    _set_standing(new, standing)
    _set_phase(new, phase)
    _set_lots(new, lots)
    _set_pointer(new, pointer)
    _set_first(new, first)
    _set_bids(new, bids)
    _set_reveal(new, reveal)
    _set_needed(new, needed)
    _set_offers(new, offers)
    return new


# ---------------------------------------------------------------- setup

def new_game(deck: Deck, players: int, first: int = 0, options: Mapping[str, Any] | None = None) -> State:
    """A new game: the first hand, round 1, waiting for the lots of the dealer (`first`, the starting seat)."""
    dealer = first
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Feira Torio is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    if not 0 <= dealer < players:
        raise ValueError(f"dealer {dealer} is not one of the {players} players")
    in_play = deck.for_players(players)
    if len(in_play) != 16 + 4 * players:
        raise ValueError(f"the deck has {len(in_play)} cards for {players} players, needs {16 + 4 * players}")
    return State(Standing(deck, players, dealer, dealer, hands=(None,) * players, totals=(0,) * players),
                 bids=((None,) * LOTS,) * players)



# ---------------------------------------------------------------- queries

def resolution_order(first: int) -> tuple[int, ...]:
    """Lot positions in the order they resolve: from the First Bid lot, clockwise."""
    return _ORDERS[first]


_ORDERS = tuple(tuple((first + i) % LOTS for i in range(LOTS)) for first in range(LOTS))   # made once, by first


def _on_table(state: State) -> set[str]:
    """Cards face up in the centre or face down as bids."""
    cards = set(state.lots).union(*state.bids)
    cards.discard(None)
    return cards


def unseen(state: State) -> frozenset[str]:
    """Cards the dealer may still turn up: in play, not known to be anywhere else."""
    # Empty lots and slots (None) are never in play; filter(None, ...) skips the unknown hands.
    return state.deck.in_play[state.players].difference(
        state.lots, *state.bids, state.discard, *filter(None, state.hands))


def _needed(state: State) -> Need:
    """`State.needed` worked out from the table."""
    if state.phase == "lots":
        return _chance(state.standing.dealer, _sorted(state.deck, unseen(state)))
    if state.phase == "first":
        return _FIRST_NEEDS[state.standing.first_bid]
    if state.phase == "bidding":
        return _sealed(state.bids)
    return _DONE


def _chance(dealer: int, pool: tuple[str, ...]) -> Need:
    """The dealer turns up a lot, one of the `pool`."""
    return chance_need(pool, dealer)


def _sealed(bids: tuple[tuple[str | None, ...], ...]) -> Need:
    """The sealed bids of every player with an open slot."""
    return _BIDDING_NEEDS[tuple(map(contains, bids, repeat(None)))]   # `None in row`, row by row


def _sorted(deck: Deck, cards: frozenset[str]) -> tuple[str, ...]:
    """`tuple(sorted(cards))` for cards of the deck, by filtering its sorted ids (faster)."""
    return tuple(filter(cards.__contains__, deck.ids))


def need(state: State) -> Need:
    """What the game waits for now (worked out with the state: `State.needed`)."""
    return state.needed


def check(state: State, action: Action) -> Refusal | None:
    """None when the action is legal now, else why not. Checks nothing the table cannot see."""
    if state.phase == "over":
        return Refusal.of("game_over")
    match action:
        case PlaceLot(position=position, card=card):
            if state.phase != "lots":
                return Refusal.of("not_now_lot")
            if not 0 <= position < LOTS or state.lots[position] is not None:
                return Refusal.of("lot_taken")
            return _card_refusal(state, card) or (
                None if card in unseen(state) else Refusal.of("card_seen", card=card))
        case PointFirst(player=player, position=position) | MarkFirst(player=player, position=position):
            if state.phase != "first":
                return Refusal.of("not_now_first")
            if player != state.first_bid:
                return Refusal.of("not_first_bid_holder", player=player)
            if not 0 <= position < LOTS:
                return Refusal.of("no_such_lot")
            return None
        case Bid(player=player, position=position, card=card):
            if state.phase != "bidding":
                return Refusal.of("not_now_bid", player=player)
            if not 0 <= player < state.players or not 0 <= position < LOTS:
                return Refusal.of("no_such_slot", player=player)
            if state.bids[player][position] is not None:
                return Refusal.of("slot_locked", player=player)
            if refusal := _card_refusal(state, card):
                return refusal
            if card in _on_table(state):
                return Refusal.of("card_on_table", card=card, player=player)
            hand = state.hands[player]
            if hand is None:
                if card in state.discard:
                    return Refusal.of("card_discarded", card=card, player=player)
            elif card not in hand:
                return Refusal.of("card_not_held", card=card, player=player)
            return None
    return Refusal.of("unknown_action")


def _card_refusal(state: State, card: str) -> Refusal | None:
    if card not in state.deck.cards:
        return Refusal.of("card_not_in_game", card=card)
    if state.deck.cards[card].players > state.players:
        return Refusal.of("card_not_for_players", card=card, players=state.players)
    return None


def legal_actions(state: State) -> list[Action]:
    """Every legal action now, for every player who must act (or every chance outcome)."""
    deck = state.standing.deck
    if state.phase == "lots":
        return list(map(deck.lot_actions[state.lots.index(None)].__getitem__, state.needed.outcomes))
    if state.phase == "first":
        marks, points = _FIRST_ACTIONS[state.standing.first_bid]
        return [*marks, *(a for a in points if a.position != state.pointer)]
    if state.phase == "bidding":
        actions = []
        pick = None
        for (cards, bids), row, tables in zip(state.offers, state.bids, deck.bid_actions):
            if bids is not None:
                actions += bids
                continue
            if pick is None:
                pick = _picker(cards)
            for table, slot in zip(tables, row):
                if slot is None:
                    actions += pick(table)
        return actions
    return []


def _picker(cards: tuple[str, ...]) -> Callable[[Mapping[str, Bid]], tuple[Bid, ...]]:
    """A function picking the bids on `cards` from a slot's table in one call (`itemgetter`, which gives a lone
    item rather than a tuple for one card)."""
    if len(cards) > 1:
        return itemgetter(*cards)
    return lambda table: tuple(table[card] for card in cards)


def _offers(state: State) -> tuple[tuple[tuple[str, ...], tuple[Bid, ...] | None], ...]:
    """`State.offers` worked out from the table: a player may bid any card in hand not on the table, or
    (hand unknown, round 1) any card in play neither on the table nor discarded."""
    deck = state.deck
    on_table = _on_table(state)
    free = None
    offers = []
    for player, row in enumerate(state.bids):
        hand = state.hands[player]
        if hand is None:
            if free is None:
                free = tuple(sorted(deck.in_play[state.players] - on_table - state.discard))
            offers.append((free, None))
            continue
        cards = tuple(sorted(hand - on_table))
        pick = _picker(cards)
        bids = []
        for table, slot in zip(deck.bid_actions[player], row):
            if slot is None:
                bids += pick(table)
        offers.append((cards, tuple(bids)))
    return tuple(offers)


def _strike(state: State, player: int, position: int, card: str) -> tuple:
    """`state.offers` once `player` has bid `card` on the open slot `position`: that slot's bids go, and the card
    is offered to nobody."""
    offers = list(state.offers)
    closed = state.bids[player][:position].count(None)     # the slot's run in the bidder's bids
    free = cut = None                   # the unknown hands' shared cards, and the same without `card`
    for other, (cards, bids) in enumerate(state.offers):
        if cards is free:
            offers[other] = (cut, None)
        elif card in cards:
            at = cards.index(card)
            if bids is None:
                free, cut = cards, cards[:at] + cards[at + 1:]
                offers[other] = (cut, None)
            else:
                offers[other] = (cards[:at] + cards[at + 1:],
                                 _cut(bids, len(cards), at, closed if other == player else None))
    cards, bids = state.offers[player]
    if bids is not None and card not in cards:
        size = len(cards)
        offers[player] = (cards, bids[:closed * size] + bids[(closed + 1) * size:])
    return tuple(offers)


def _cut(bids: tuple[Bid, ...], size: int, at: int, closed: int | None) -> tuple[Bid, ...]:
    """`bids` (runs of `size`) without the bid at `at` in each run and without the run `closed`: one slice
    between each two cuts."""
    kept = []
    start = 0
    for run, run_start in enumerate(range(0, len(bids), size)):
        if run == closed:
            kept += bids[start:run_start]
            start = run_start + size
        else:
            kept += bids[start:run_start + at]
            start = run_start + at + 1
    kept += bids[start:]
    return tuple(kept)


# ---------------------------------------------------------------- transitions

def apply(state: State, action: Action) -> State:
    """The state after a legal action (call `check` first: apply trusts its input)."""
    match action:
        case Bid():         # (a class pattern with positional fields would cost three times as much)
            player, position, card = action.player, action.position, action.card
            row = state.bids[player]
            row = row[:position] + (card,) + row[position + 1:]
            bids = state.bids[:player] + (row,) + state.bids[player + 1:]
            needed = state.needed
            if None not in row:         # the bidder's last slot: it is no longer waited for
                needed = _sealed(bids)
                if not needed.players:
                    return _end_round(state, bids)
            if state.phase != "bidding" or state.bids[player][position] is not None:   # not legal: from scratch
                return replace(state, bids=bids)
            return _make(state.standing, "bidding", state.lots, state.pointer, state.first, bids, state.reveal,
                         needed, _strike(state, player, position, card))
        case PlaceLot():
            position, card = action.position, action.card
            lots = state.lots[:position] + (card,) + state.lots[position + 1:]
            if None not in lots:
                return _make(state.standing, "first", lots, 0, state.first, state.bids, (),
                             _FIRST_NEEDS[state.standing.first_bid], state.offers)
            if state.phase != "lots" or state.lots[position] is not None:   # not legal: from scratch
                return replace(state, lots=lots)
            pool = state.needed.outcomes
            if card in pool:
                at = pool.index(card)
                pool = pool[:at] + pool[at + 1:]
            return _make(state.standing, "lots", lots, state.pointer, state.first, state.bids, state.reveal,
                         _chance(state.standing.dealer, pool), state.offers)
        case PointFirst():
            return _make(state.standing, state.phase, state.lots, action.position, state.first, state.bids,
                         state.reveal, state.needed, state.offers)
        case MarkFirst():
            position = action.position
            return _make(state.standing, "bidding", state.lots, position, position, state.bids, state.reveal,
                         _sealed(state.bids), _offers(state))
    raise TypeError(f"not a Feira Torio action: {action!r}")


def resolve(players: int, lots: tuple[str, ...], bids: tuple[tuple[str, ...], ...], first: int,
            fingers: Mapping[str, int]) -> tuple[LotResult, ...]:
    """The reveal, lot by lot (RULINGS F6, F7): highest unique bid wins; the winner withdraws."""
    order = _ORDERS[first]
    active = list(range(players))
    results = []
    for step, position in enumerate(order):
        cards = [bids[p][position] for p in active]
        shown = list(map(fingers.__getitem__, cards))
        tied = [shown.count(v) > 1 for v in shown]
        unique = [v for v, t in zip(shown, tied) if not t]
        winner = active[shown.index(max(unique))] if unique else None
        cancelled = tuple(compress(active, tied))
        in_play = tuple(zip(active, cards))
        withdrawn: tuple[tuple[int, tuple[str, ...]], ...] = ()
        if winner is not None and not (players == 3 and step == 0):
            active.remove(winner)
            if step < LOTS - 1:
                withdrawn = ((winner, tuple([bids[winner][q] for q in order[step + 1:]])),)
        results.append(LotResult(position, lots[position], in_play, cancelled, winner, withdrawn))
    return tuple(results)


def _end_round(state: State, bids: tuple[tuple[str, ...], ...]) -> State:
    """The reveal once every slot holds a bid (`bids`), then the next round or the hand's score."""
    standing = state.standing
    players = standing.players
    reveal = resolve(players, state.lots, bids, state.first, standing.deck.fingers)
    hands = [set(row) for row in bids]
    discard = set(standing.discard)
    won = [0] * players
    last_winner = None
    for result in reveal:
        if result.winner is None:
            discard.add(result.lot)
            continue
        bid = bids[result.winner][result.position]
        hands[result.winner].discard(bid)
        hands[result.winner].add(result.lot)
        discard.add(bid)
        won[result.winner] += 1
        last_winner = result.winner
    winless = [p for p in range(players) if not won[p]]
    if len(winless) > 1:
        clockwise = [(standing.dealer + i) % players for i in range(1, players + 1)]
        first_bid = next(p for p in clockwise if p in winless)
    elif winless:
        first_bid = winless[0]
    else:
        first_bid = last_winner
    hands = tuple(map(frozenset, hands))
    discard = frozenset(discard)
    if standing.round >= ROUNDS:
        return _end_hand(_evolve_standing(standing, first_bid=first_bid, hands=hands, discard=discard), state.pointer,
                         reveal)
    # The next round's lots: every card in play not held or discarded (`unseen`, with nothing on the table).
    pool = _sorted(standing.deck, standing.deck.in_play[players].difference(discard, *hands))
    standing = _evolve_standing(standing, round=standing.round + 1, first_bid=first_bid, hands=hands, discard=discard)
    return _make(standing, "lots", (None,) * LOTS, state.pointer, None, ((None,) * LOTS,) * players, reveal,
                 _chance(standing.dealer, pool), ())


def score(deck: Deck, player: int, cards: Iterable[str]) -> HandScore:
    """A hand's score (RULINGS F3, F4): highest stars per category present, multiplied; +5 with all four. Of two
    cards with the most stars of a category, the first by id is the one kept (whatever order `cards` is in)."""
    best: dict[str, Card] = {}
    for cid in sorted(cards):
        card = deck.cards[cid]
        if card.category not in best or card.stars > best[card.category].stars:
            best[card.category] = card
    kept = tuple(best[c] for c in CATEGORIES if c in best)
    product = 1
    for card in kept:
        product *= card.stars
    bonus = BONUS if len(kept) == len(CATEGORIES) else 0
    return HandScore(player, tuple(c.id for c in kept), tuple(c.stars for c in kept), bonus, product + bonus)


def _end_hand(standing: Standing, pointer: int, reveal: tuple[LotResult, ...]) -> State:
    """The state after the last round's `reveal` (`standing`: after it): the hand's scores, then the next hand or
    the end."""
    deck, players = standing.deck, standing.players
    scores = tuple(score(deck, p, standing.hands[p]) for p in range(players))
    totals = tuple(t + s.score for t, s in zip(standing.totals, scores))
    history = standing.history + (tuple(s.score for s in scores),)
    no_lots, no_bids = (None,) * LOTS, ((None,) * LOTS,) * players
    if max(totals) > TARGET:
        top = max(totals)
        standing = _evolve_standing(standing, scores=scores, totals=totals, history=history,
                                    winners=tuple(p for p, t in enumerate(totals) if t == top))
        return _make(standing, "over", no_lots, pointer, None, no_bids, reveal, _DONE, ())
    dealer = (standing.dealer + 1) % players
    standing = _evolve_standing(standing, scores=scores, totals=totals, history=history, hand=standing.hand + 1,
                                round=1, dealer=dealer, first_bid=dealer, hands=(None,) * players,
                                discard=frozenset())
    pool = _sorted(deck, deck.in_play[players])   # a new deal: every card unseen
    return _make(standing, "lots", no_lots, pointer, None, no_bids, reveal, _chance(dealer, pool), ())


# ---------------------------------------------------------------- views

# Where the public view names a player: by its index here, by its seat in `replay --json` (kit/seats.py).
NAMED_PLAYERS = ("dealer", "first_bid", "reveal/*/bids/*/0", "reveal/*/cancelled/*", "reveal/*/winner",
                 "reveal/*/withdrawn/*/0", "scores/*/player")


def observe(state: State, player: int | None) -> dict:
    """What `player` may know (None: the public view, the only thing the screen draws).

    Before the reveal nobody but the bidder learns a bid card: others only see
    which slots hold a face-down card.
    """
    view: dict[str, Any] = {
        "game": NAME,
        "phase": state.phase,
        "players": state.players,
        "hand": state.hand,
        "round": state.round,
        "dealer": state.dealer,
        "first_bid": state.first_bid,
        "totals": list(state.totals),
        "holdings": [sorted(h) if h is not None else None for h in state.hands],
        "discards": sorted(state.discard),
        "centre": {
            "lots": list(state.lots),
            "pointer": state.pointer if state.phase == "first" else None,
            "first": state.first,
            "order": list(resolution_order(state.first)) if state.first is not None else None,
        },
        "committed": [[c is not None for c in row] for row in state.bids],
        "reveal": [_result_view(r) for r in state.reveal],
        "scores": [_score_view(s) for s in state.scores],
        "history": [list(h) for h in state.history],
        "winners": list(state.winners),
    }
    if player is not None:
        view["seat"] = player
        view["my_bids"] = list(state.bids[player])
    return view


def _result_view(r: LotResult) -> dict:
    return {
        "position": r.position, "lot": r.lot, "bids": [[p, c] for p, c in r.bids],
        "cancelled": list(r.cancelled), "winner": r.winner,
        "withdrawn": [[p, list(cs)] for p, cs in r.withdrawn],
    }


def _score_view(s: HandScore) -> dict:
    return {"player": s.player, "kept": list(s.kept), "factors": list(s.factors), "bonus": s.bonus, "score": s.score}
