"""Venture (Entreprise): a sealed-bid capture game with the Pairs deck for 3 to 8 players.

The rules are ../shared/rules/pairs-encheres.fr.md ("Entreprise", its worked
example and "Règle optionnelle: la draft") as settled by RULINGS P3, PR-VE1,
PR-VE2, PR-VE3 and PR-V3; ../shared/games/TABLE-PROTOCOLS.md section 7 says how
the table plays it, and the package README records the readings taken.

A deal: the hands are dealt physically and never known to the table (nothing
that scores depends on them). With the draft option every seat presses OK once
its physical draft is done. The slug is shown card by card on the centre pad
(chance). Then as many rounds as a hand has cards: every seat commits a sealed
bid, a card nobody has seen this deal; the bids are revealed and fire from the
lowest rank up. Tied ranks miss; the lowest rank, when not tied, takes every
card of the highest rank on the table (PR-VE1); any other firing bid takes
every card of lower rank on the table; a bid captured before it fires does not
fire (PR-VE2). Captures go to the capturer's face-up score pile, bids not
captured join the centre. At the end: -1 per captured card, except a complete
rank (own captures + centre, at least one captured, PR-VE3): +1 per card of it.

Players are numbered clockwise; "left" is the next one.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field, fields
from operator import itemgetter
from typing import Any, Iterable, Mapping

from table.games.contract import GameInfo, Need, Option, PadNeeds, Refusal, chance_need
from table.games.kit.ranked import RankedDeck
from table.games.kit.seats import under

NAME = "venture"
MIN_PLAYERS = 3
MAX_PLAYERS = 8
SLUG = {3: 4, 4: 3, 5: 5, 6: 7, 7: 6, 8: 7}       # P3: the slug's size by player count
HAND = {3: 17, 4: 13, 5: 10, 6: 8, 7: 7, 8: 6}    # the rest of the 55 cards dealt evenly: also the rounds per deal
DEALS = (1, 2, 3, 4, 5)

INFO = GameInfo(NAME, deck="pairs", players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
                options=(Option("draft", False, (False, True)), Option("deals", 1, DEALS)),
                pads=PadNeeds(seat_pads=None, centre_pads=None, buttons=("ok",)))

make_deck = RankedDeck.from_data


# ---------------------------------------------------------------- actions

@dataclass(frozen=True, slots=True)
class DraftDone:
    """`player` presses OK: their physical draft is done (draft option only)."""

    player: int


@dataclass(frozen=True, slots=True)
class Show:
    """Chance: `card` of the slug is turned up and shown on the centre pad."""

    card: str


@dataclass(frozen=True, slots=True)
class Bid:
    """Sealed: `player` taps `card` face down on their own pad as this round's bid."""

    player: int
    card: str


Action = DraftDone | Show | Bid
ACTIONS = (DraftDone, Show, Bid)


# ---------------------------------------------------------------- deck tables

@dataclass(frozen=True, slots=True)
class Tables:
    """The deck with what the hot paths need, built once per deck (`tables`)."""

    deck: RankedDeck
    rank: Mapping[str, int]
    order: tuple[str, ...]                  # every card, by rank then id (the order views list cards in)
    key: Mapping[str, int]                  # a card's place in `order`
    sizes: Mapping[int, int]                # how many cards each rank has
    show: Mapping[str, Show]
    bids: tuple[tuple[Bid, ...], ...]       # per player, a Bid of each card of `order`
    done: tuple[DraftDone, ...]
    sealed: tuple[Need, ...]                # the bidding Need of each set of seats still to bid (bit p: seat p)
    drafting: tuple[Need, ...]              # the draft Need of each set of seats still to draft


_TABLES: dict[int, Tables] = {}


def tables(deck: RankedDeck) -> Tables:
    """The tables of `deck`, cached by identity (a deck is built once per game kind)."""
    found = _TABLES.get(id(deck))
    if found is not None and found.deck is deck:
        return found
    rank = dict(deck.ranks)
    order = tuple(sorted(rank, key=lambda c: (rank[c], c)))
    sizes: dict[int, int] = {}
    for r in rank.values():
        sizes[r] = sizes.get(r, 0) + 1
    found = Tables(
        deck=deck, rank=rank, order=order, key={c: i for i, c in enumerate(order)}, sizes=sizes,
        show={c: Show(c) for c in order},
        bids=tuple(tuple(Bid(p, c) for c in order) for p in range(MAX_PLAYERS)),
        done=tuple(DraftDone(p) for p in range(MAX_PLAYERS)),
        sealed=tuple(Need(players=_seats(mask), simultaneous=True) for mask in range(1 << MAX_PLAYERS)),
        drafting=tuple(Need(players=_seats(mask)) for mask in range(1 << MAX_PLAYERS)),
    )
    _TABLES[id(deck)] = found
    return found


def _seats(mask: int) -> tuple[int, ...]:
    """The seats of a set of seats as bits (bit p: seat p), in seat order."""
    return tuple(p for p in range(MAX_PLAYERS) if mask >> p & 1)


# ---------------------------------------------------------------- records

@dataclass(frozen=True, slots=True)
class Step:
    """One step of the firing: the bids of one rank, lowest rank first, and what became of them.

    `result`: "highest" (the lowest rank, not tied: it takes every card of the
    highest rank on the table), "lower" (it takes every card of lower rank),
    "missed" (a tied rank: it captures nothing and stays on the table) or
    "captured" (taken by an earlier step before it could fire: it does not fire).
    """

    rank: int
    bids: tuple[tuple[int, str], ...]       # (player, card) of every bid of this rank, by seat
    result: str
    taker: int | None                       # highest / lower: the seat that fired
    taken: tuple[str, ...]                  # highest / lower: the cards it took, by rank (may be none for "lower")
    by: int | None                          # captured: the seat whose firing took these bids
    by_step: int | None                     # captured: the index of that step


@dataclass(frozen=True, slots=True)
class RoundLog:
    """A finished round: its revealed bids and the centre they fired on (`outcome` replays the firing)."""

    deal: int
    round: int
    bids: tuple[str, ...]                   # the card each player bid
    centre: tuple[str, ...]                 # the centre before the firing, by rank


@dataclass(frozen=True, slots=True)
class Outcome:
    """A round's firing as the public sees it, step by step, and where the cards went."""

    steps: tuple[Step, ...]
    gains: tuple[tuple[str, ...], ...]      # per player, the cards that went to their score pile
    to_centre: tuple[str, ...]              # bids not captured: they join the centre
    centre: tuple[str, ...]                 # the centre after the round


@dataclass(frozen=True, slots=True)
class RankScore:
    """A player's captured cards of one rank and what they score."""

    rank: int
    cards: tuple[str, ...]                  # captured by the player
    centre: tuple[str, ...]                 # complete ranks only: the centre's cards of the rank (they count too)
    complete: bool
    points: int                             # complete: +1 per card of the rank; else -1 per captured card


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's score for a deal, rank by rank."""

    player: int
    ranks: tuple[RankScore, ...]
    points: int


@dataclass(frozen=True, slots=True)
class DealScore:
    """A finished deal: its final centre and score piles, and each player's points (`breakdown` details them)."""

    deal: int
    centre: tuple[str, ...]
    piles: tuple[tuple[str, ...], ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Board:
    """The public cards of the deal under way (changed once per round, not per bid)."""

    drafted: tuple[bool, ...]
    slug: tuple[str, ...]                   # this deal's slug cards shown so far, in order
    centre: tuple[str, ...]                 # the cards in the centre, by rank
    piles: tuple[tuple[str, ...], ...]      # each seat's face-up score pile, by rank
    log: tuple[RoundLog, ...]               # this deal's finished rounds
    last: RoundLog | None                   # the latest finished round (kept into the next deal)


@dataclass(frozen=True, slots=True)
class Match:
    """The match around the deals: options, deal number, dealer, totals and scores."""

    draft: bool                             # the draft option
    deals: int                              # the deals option: how many deals the match has
    deal: int                               # 1-based
    dealer: int                             # deals the cards (the starting seat, then one seat left each deal)
    totals: tuple[int, ...]
    scores: tuple[DealScore, ...]           # every finished deal, in order
    history: tuple[tuple[int, ...], ...]    # every finished deal's points
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class State:
    """The whole game as the table knows it. Never shown as is: see `observe`."""

    tables: Tables = field(compare=False, repr=False)
    players: int
    phase: str                              # draft, slug, bidding, over
    round: int                              # 1-based; HAND[players] rounds per deal
    bids: tuple[str | None, ...]            # this round's sealed bids
    pool: tuple[str, ...]                   # cards nobody has seen this deal (in hands or sealed bids), by rank
    free: tuple[str, ...]                   # the pool less this round's sealed bids: what a bid may still be
    offers: tuple[tuple[Bid, ...], ...] = field(compare=False, repr=False)  # per player yet to bid: a Bid per free card
    waiting: int = field(compare=False, repr=False)   # the seats yet to bid (bidding) or draft (draft), as bits
    fresh: bool                             # no card acted on since the latest firing (the table gate)
    board: Board
    match: Match

    @property
    def centre(self) -> tuple[str, ...]:
        return self.board.centre

    @property
    def winners(self) -> tuple[int, ...]:
        return self.match.winners


_SETTERS = tuple(getattr(State, f.name).__set__ for f in fields(State))
(_set_tables, _set_players, _set_phase, _set_round, _set_bids, _set_pool, _set_free, _set_offers, _set_waiting,
 _set_fresh, _set_board, _set_match) = _SETTERS
_new = object.__new__


def _make(tables: Tables, players: int, phase: str, round: int, bids: tuple, pool: tuple, free: tuple,
          offers: tuple, waiting: int, fresh: bool, board: Board, match: Match) -> State:
    """A State without the dataclass `__init__` (it runs on every action)."""
    new = _new(State)
    _set_tables(new, tables)
    _set_players(new, players)
    _set_phase(new, phase)
    _set_round(new, round)
    _set_bids(new, bids)
    _set_pool(new, pool)
    _set_free(new, free)
    _set_offers(new, offers)
    _set_waiting(new, waiting)
    _set_fresh(new, fresh)
    _set_board(new, board)
    _set_match(new, match)
    return new


def _offers(t: Tables, players: int, pool: tuple[str, ...]) -> tuple[tuple[Bid, ...], ...]:
    """Each player's Bid of each pool card, once per round (bids slice them, legal_actions joins them)."""
    pick = itemgetter(*map(t.key.__getitem__, pool))
    if len(pool) == 1:
        return tuple((pick(t.bids[p]),) for p in range(players))
    return tuple(map(pick, t.bids[:players]))


# ---------------------------------------------------------------- setup

def new_game(deck: RankedDeck, players: int, first: int = 0, options: Mapping[str, Any] | None = None) -> State:
    """A new game: `first` (the starting seat) deals the first deal; then the draft (option) or the slug."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Venture is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    if not 0 <= first < players:
        raise ValueError(f"dealer {first} is not one of the {players} players")
    options = {**INFO.defaults(), **(options or {})}
    if options["draft"] not in (False, True) or options["deals"] not in DEALS:
        raise ValueError(f"bad Venture options: {options}")
    t = tables(deck)
    size = SLUG[players] + HAND[players] * players
    if len(t.order) != size:
        raise ValueError(f"the deck has {len(t.order)} cards, Venture needs {size}")
    match = Match(draft=bool(options["draft"]), deals=int(options["deals"]), deal=1, dealer=first,
                  totals=(0,) * players, scores=(), history=(), winners=())
    return _start_deal(t, players, match, None)


def _start_deal(t: Tables, players: int, match: Match, last: RoundLog | None) -> State:
    """A deal's start: the draft (option) or the slug; `last` is the previous deal's last round."""
    board = Board(drafted=(False,) * players, slug=(), centre=(), piles=((),) * players, log=(), last=last)
    return _make(t, players, "draft" if match.draft else "slug", 1, (None,) * players, t.order, t.order, (),
                 (1 << players) - 1 if match.draft else 0, last is not None, board, match)



# ---------------------------------------------------------------- queries

def in_hand(state: State, player: int) -> int:
    """How many cards `player` still holds (a committed bid lies face down in front: not in hand)."""
    if state.phase == "over":
        return 0
    return HAND[state.players] - (state.round - 1) - (state.bids[player] is not None)


def unseen(state: State) -> tuple[str, ...]:
    """Cards nobody has seen this deal (in hands or committed face down), by rank: public knowledge."""
    return state.pool


def need(state: State) -> Need:
    phase = state.phase
    if phase == "bidding":
        return state.tables.sealed[state.waiting]
    if phase == "slug":
        return chance_need(state.pool)
    if phase == "draft":
        return state.tables.drafting[state.waiting]
    return Need()


def check(state: State, action: Action) -> Refusal | None:
    """None when the action is legal now, else why not. Checks nothing the table cannot see:
    a bid is never checked against the bidder's hand (the table does not know hands)."""
    if state.phase == "over":
        return Refusal.of("game_over")
    match action:
        case Bid(player=player, card=card):
            if not isinstance(player, int) or not 0 <= player < state.players:
                return Refusal.of("no_such_player", player=player)
            if state.phase != "bidding":
                return Refusal.of("not_now_bid", player=player)
            if state.bids[player] is not None:
                return Refusal.of("already_bid", player=player)
            if not isinstance(card, str) or card not in state.tables.rank:
                return Refusal.of("bid_not_in_game", player=player)
            if card in state.bids:
                return Refusal.of("bid_taken", player=player)
            if card not in state.free:
                return Refusal.of("bid_seen", player=player)
            return None
        case Show(card=card):
            if state.phase != "slug":
                return Refusal.of("not_now_show", card=card)
            if not isinstance(card, str) or card not in state.tables.rank:
                return Refusal.of("card_not_in_game", card=card)
            if card not in state.pool:
                return Refusal.of("card_seen", card=card)
            return None
        case DraftDone(player=player):
            if not isinstance(player, int) or not 0 <= player < state.players:
                return Refusal.of("no_such_player", player=player)
            if state.phase != "draft":
                return Refusal.of("not_now_draft", player=player)
            if state.board.drafted[player]:
                return Refusal.of("already_drafted", player=player)
            return None
    return Refusal.of("unknown_action")


def legal_actions(state: State) -> list[Action]:
    """Every legal action now, for every player who must act (or every chance outcome)."""
    phase = state.phase
    if phase == "bidding":
        actions: list[Action] = []
        for offer in state.offers:
            actions += offer
        return actions
    if phase == "slug":
        return list(map(state.tables.show.__getitem__, state.pool))
    if phase == "draft":
        done = state.tables.done
        return [done[p] for p, d in enumerate(state.board.drafted) if not d]
    return []


# ---------------------------------------------------------------- transitions

def apply(state: State, action: Action) -> State:
    """The state after a legal action (call `check` first: apply trusts its input)."""
    match action:
        case Bid(player=player, card=card):   # keyword patterns: positional ones cost a lookup of __match_args__
            bids = state.bids[:player] + (card,) + state.bids[player + 1:]
            free = state.free
            i = free.index(card)
            j = i + 1
            waiting = state.waiting & ~(1 << player)
            if not waiting:
                return _end_round(state, bids, free[:i] + free[j:])
            offers = [o[:i] + o[j:] if o else o for o in state.offers]
            offers[player] = ()
            return _make(state.tables, state.players, "bidding", state.round, bids, state.pool, free[:i] + free[j:],
                         tuple(offers), waiting, False, state.board, state.match)
        case Show(card=card):
            t, pool = state.tables, state.pool
            i = pool.index(card)
            pool = pool[:i] + pool[i + 1:]
            b = state.board
            slug = b.slug + (card,)
            board = Board(b.drafted, slug, _by_rank(t, b.centre + (card,)), b.piles, b.log, b.last)
            if len(slug) < SLUG[state.players]:
                return _make(t, state.players, "slug", state.round, state.bids, pool, pool, (), 0, False, board,
                             state.match)
            return _make(t, state.players, "bidding", state.round, state.bids, pool, pool,
                         _offers(t, state.players, pool), (1 << state.players) - 1, False, board, state.match)
        case DraftDone(player=player):
            b = state.board
            drafted = b.drafted[:player] + (True,) + b.drafted[player + 1:]
            board = Board(drafted, b.slug, b.centre, b.piles, b.log, b.last)
            waiting = state.waiting & ~(1 << player)
            return _make(state.tables, state.players, "draft" if waiting else "slug", state.round,
                         state.bids, state.pool, state.free, (), waiting, state.fresh, board, state.match)
    raise TypeError(f"not a Venture action: {action!r}")


def _by_rank(t: Tables, cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=t.key.__getitem__))


# A firing step as plain data (the hot path): (rank, ((player, card), ...), result, taker, taken, by, by_step).
RawStep = tuple[int, tuple[tuple[int, str], ...], str, "int | None", tuple[str, ...], "int | None", "int | None"]


def _fire(t: Tables, centre: tuple[str, ...], bids: tuple[str, ...]) -> tuple[list[RawStep], list[str]]:
    """The firing of one round's revealed bids (one per player) on this centre (by rank), lowest rank first;
    and the cards left on the table after it, by rank.

    P3 as settled by PR-VE1 and PR-VE2: tied ranks miss; the lowest rank, only
    when not tied, takes every card of the highest rank on the table (centre
    and bids); every other rank takes every card of lower rank on the table; a
    rank already captured does not fire. Cards stay on the table until taken,
    so the table sorted by rank loses a suffix (the highest rank) or a prefix
    (every lower rank) at each capture. Ranks fire upwards, so only the first
    step (taking the highest rank) can capture a bid that has yet to fire.
    """
    rank = t.rank
    by_rank = rank.__getitem__
    groups: dict[int, list[tuple[int, str]]] = {}
    for player, card in enumerate(bids):
        r = rank[card]
        if r in groups:
            groups[r].append((player, card))
        else:
            groups[r] = [(player, card)]
    table = sorted(centre + bids, key=t.key.__getitem__)
    top = None                                          # the rank the first step took, if it took the highest
    steps: list[RawStep] = []
    for index, r in enumerate(sorted(groups)):
        group = tuple(groups[r])
        if r == top:
            steps.append((r, group, "captured", None, (), steps[0][3], 0))
        elif len(group) > 1:
            steps.append((r, group, "missed", None, (), None, None))
        elif index == 0:
            top = by_rank(table[-1])
            cut = bisect_left(table, top, key=by_rank)
            steps.append((r, group, "highest", group[0][0], tuple(table[cut:]), None, None))
            del table[cut:]
        else:
            cut = bisect_left(table, r, key=by_rank)
            steps.append((r, group, "lower", group[0][0], tuple(table[:cut]), None, None))
            del table[:cut]
    return steps, table


def fire(t: Tables, centre: Iterable[str], bids: tuple[str, ...]) -> tuple[Step, ...]:
    """The firing of one round's revealed bids (`bids[p]`: player p's card) on this centre, step by step."""
    return tuple(Step(*raw) for raw in _fire(t, tuple(centre), tuple(bids))[0])


def outcome(t: Tables, log: RoundLog) -> Outcome:
    """What a finished round did: its steps, each seat's gains, the bids that joined the centre, the centre after."""
    raw, left = _fire(t, log.centre, log.bids)
    steps = tuple(Step(*r) for r in raw)
    gains: list[tuple[str, ...]] = [()] * len(log.bids)
    for step in steps:
        if step.taker is not None:
            gains[step.taker] = step.taken
    to_centre = tuple(c for c in left if c in log.bids)
    return Outcome(steps, tuple(gains), to_centre, tuple(left))


def _end_round(state: State, bids: tuple[str, ...], pool: tuple[str, ...]) -> State:
    """The round's last bid is in (`bids`; `pool`: the cards still unseen): fire, then the next round or deal."""
    t = state.tables
    b = state.board
    piles = list(b.piles)
    steps, centre = _fire(t, b.centre, bids)
    for _, _, _, taker, taken, _, _ in steps:
        if taken:
            piles[taker] = _by_rank(t, piles[taker] + taken)
    record = RoundLog(state.match.deal, state.round, bids, b.centre)
    board = Board(b.drafted, b.slug, tuple(centre), tuple(piles), b.log + (record,), record)
    if state.round < HAND[state.players]:
        return _make(t, state.players, "bidding", state.round + 1, (None,) * state.players, pool, pool,
                     _offers(t, state.players, pool), (1 << state.players) - 1, True, board, state.match)
    return _end_deal(t, state.players, state.round, board, state.match)


def points(sizes: Mapping[int, int], rank: Mapping[str, int], pile: Iterable[str], centre: Iterable[str]) -> int:
    """A player's points for a deal (P3, PR-VE3): -1 per captured card, except a complete rank (the player's
    captures of it plus the centre's make the whole rank, at least one captured): +1 per card of the rank."""
    mine: dict[int, int] = {}
    for c in pile:
        r = rank[c]
        mine[r] = mine.get(r, 0) + 1
    if not mine:
        return 0
    middle: dict[int, int] = {}
    for c in centre:
        r = rank[c]
        middle[r] = middle.get(r, 0) + 1
    total = 0
    for r, n in mine.items():
        total += sizes[r] if n + middle.get(r, 0) == sizes[r] else -n
    return total


def breakdown(t: Tables, player: int, pile: Iterable[str], centre: Iterable[str]) -> PlayerScore:
    """`points` rank by rank, for the score page: each rank the player captured, complete or not."""
    centre = tuple(centre)
    ranks = []
    for r in sorted({t.rank[c] for c in pile}):
        cards = _by_rank(t, [c for c in pile if t.rank[c] == r])
        there = _by_rank(t, [c for c in centre if t.rank[c] == r])
        if len(cards) + len(there) == t.sizes[r]:
            ranks.append(RankScore(r, cards, there, True, t.sizes[r]))
        else:
            ranks.append(RankScore(r, cards, (), False, -len(cards)))
    return PlayerScore(player, tuple(ranks), sum(s.points for s in ranks))


def _end_deal(t: Tables, players: int, round: int, board: Board, match: Match) -> State:
    centre = board.centre
    scored = tuple([points(t.sizes, t.rank, pile, centre) for pile in board.piles])
    totals = tuple([a + b for a, b in zip(match.totals, scored)])
    scores = match.scores + (DealScore(match.deal, centre, board.piles, scored),)
    history = match.history + (scored,)
    if match.deal >= match.deals:
        top = max(totals)
        winners = tuple(p for p, total in enumerate(totals) if total == top)
        match = Match(match.draft, match.deals, match.deal, match.dealer, totals, scores, history, winners)
        return _make(t, players, "over", round, (None,) * players, (), (), (), 0, True, board, match)
    match = Match(match.draft, match.deals, match.deal + 1, (match.dealer + 1) % players, totals, scores, history, ())
    return _start_deal(t, players, match, board.last)


# ---------------------------------------------------------------- views

# Where the public view names a player: by its index here, by its seat in `replay --json` (kit/seats.py).
_ROUND_PLAYERS = ("bids/*/seat", "steps/*/bids/*/seat", "steps/*/taker", "steps/*/by")
NAMED_PLAYERS = ("dealer", *under("rounds_log/*", _ROUND_PLAYERS), *under("last_round", _ROUND_PLAYERS),
                 "scores/players/*/player", "deal_scores/*/players/*/player")


def observe(state: State, player: int | None) -> dict:
    """What `player` may know (None: the public view, the only thing the screen draws).

    Sealed bids are secret until the last one is in: the public sees only who
    has committed. Hands are never known to the table. Everything else (slug,
    centre, revealed bids, score piles) is public.
    """
    t, n, board, match = state.tables, state.players, state.board, state.match
    view: dict[str, Any] = {
        "game": NAME,
        "phase": state.phase,
        "players": n,
        "options": {"draft": match.draft, "deals": match.deals},
        "deal": match.deal,
        "deals": match.deals,
        "dealer": match.dealer,
        "round": state.round,
        "rounds": HAND[n],
        "hand_size": HAND[n],
        "slug_size": SLUG[n],
        "slug": list(board.slug),
        "centre": list(board.centre),
        "drafted": list(board.drafted) if match.draft else None,
        "committed": [c is not None for c in state.bids],
        "in_hand": [in_hand(state, p) for p in range(n)],
        "unseen": list(state.pool),
        "piles": [list(pile) for pile in board.piles],
        "pile_counts": [len(pile) for pile in board.piles],
        "rounds_log": [_round_view(t, r) for r in board.log],
        "last_round": _round_view(t, board.last) if board.last is not None else None,
        "scores": _scores_view(t, match.scores[-1]) if match.scores else None,
        "deal_scores": [_scores_view(t, d) for d in match.scores],
        "history": [list(h) for h in match.history],
        "totals": list(match.totals),
        "winners": list(match.winners),
    }
    if player is not None:
        view["seat"] = player
        view["my_bid"] = state.bids[player]
    return view


def _step_view(s: Step) -> dict:
    return {
        "rank": s.rank, "bids": [{"seat": p, "card": c} for p, c in s.bids], "tied": len(s.bids) > 1,
        "result": s.result, "taker": s.taker, "taken": list(s.taken), "by": s.by, "by_step": s.by_step,
    }


def _round_view(t: Tables, r: RoundLog) -> dict:
    o = outcome(t, r)
    return {
        "deal": r.deal, "round": r.round, "bids": [{"seat": p, "card": c} for p, c in enumerate(r.bids)],
        "centre_before": list(r.centre), "steps": [_step_view(s) for s in o.steps],
        "gains": [list(g) for g in o.gains], "to_centre": list(o.to_centre), "centre_after": list(o.centre),
    }


def _scores_view(t: Tables, d: DealScore) -> dict:
    players = []
    for p, pile in enumerate(d.piles):
        s = breakdown(t, p, pile, d.centre)
        players.append({
            "player": p, "points": d.points[p],
            "ranks": [{"rank": r.rank, "cards": list(r.cards), "centre": list(r.centre), "complete": r.complete,
                       "points": r.points} for r in s.ranks],
        })
    return {"deal": d.deal, "centre": list(d.centre), "players": players}
