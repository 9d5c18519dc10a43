"""Neurotrio, the treasure hunt: a growing domain of cards and secret "neuro" bids, for 3 to 8 players.

The rules are ../shared/rules/neurotrio-chasse-au-tresor.fr.txt as settled by
RULINGS N1-N7 and PR-N1..PR-N4; ../shared/games/TABLE-PROTOCOLS.md section 3
says how the table plays it, and the package README records the readings taken.

Setup: the start card is shown on a centre pad (chance) and lies at cell
(0, 0); 52 cards are dealt clockwise from the first player and every seat
registers its hand (sealed). The one card nobody registered was removed unseen;
its twin, the only card of its kind in play, is the treasure. Building: the
active player taps a card (which commits it) and lays it on one of its legal
cells, or passes (-1 point). After any play anyone may call "neuro": each
player from the caller clockwise then bids once (a base, a domain card, a
secret token). The game ends when one player alone holds cards, or when
everybody holding cards is blocked for good (PR-N1); the treasure then scores
the bids.

Players are numbered clockwise. A cell is (row, col) from the start card: rows
grow downwards, columns to the right; reading order is row by row.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field, fields
from operator import itemgetter
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple, Sequence

from table.games.contract import GameInfo, Need, PadNeeds, Refusal, chance_need

NAME = "neurotrio"
MIN_PLAYERS = 3
MAX_PLAYERS = 8
START_POINTS = 5                            # everyone's, +1 for a player dealt one card more (N5)
ROWS, COLS = 6, 11                          # the open rows and columns allowed at the start (N3)
REWARDS = (0, 0, 1, 5, 20)                  # by compatible neighbours, for a card touching 2 or more (N2)
FINISHING = (5, 3, 1)                       # the first three to empty their hand (N5)
PENALTIES = (0, 1, 2, 5, 20)                # cards left in hand at the end: 0, 1, 2, 3, 4 or more (N5)
ATTRIBUTES = ("strength", "nature", "background")
NUMBERS = ("0", "1", "2")
TOKEN_KINDS = NUMBERS + ("nature", "background", "strength")
HIDDEN = "hidden"                           # a token in the public view before the end

# phases
SHOW, REGISTER, BUILD, BID, OVER = "show", "register", "build", "bid", "over"
# why the game ended
ONE_LEFT, DEADLOCK = "one_left", "deadlock"

# Pads: any number per seat, at least one in the centre; Next and OK for the cell prompt and the seat menu.
INFO = GameInfo(NAME, deck="neurotrio", players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
                pads=PadNeeds(seat_pads=None, centre_pads=None, buttons=("ok", "next")))

# Cells as one int: (row + OFF) * W + col + OFF. A domain of 53 cards grows less than 53 cells any way.
W = 128
OFF = 64
STEPS = (-W, -1, 1, W)                      # the four cells sharing an edge
ORIGIN = OFF * W + OFF


def cell_index(row: int, col: int) -> int:
    """The index of cell (row, col)."""
    return (row + OFF) * W + col + OFF


def row_col(index: int) -> tuple[int, int]:
    """The (row, col) of a cell index."""
    row, col = divmod(index, W)
    return row - OFF, col - OFF


# ---------------------------------------------------------------- actions

@dataclass(frozen=True, slots=True)
class Show:
    """Chance: the start card, shown on a centre pad; it lies at cell (0, 0)."""

    card: str


@dataclass(frozen=True, slots=True)
class Register:
    """Sealed: `player` taps one of their dealt cards on their own pad."""

    player: int
    card: str


@dataclass(frozen=True, slots=True)
class Choose:
    """The active `player` taps `card` from their hand: it is committed, and laid next."""

    player: int
    card: str


@dataclass(frozen=True, slots=True)
class Place:
    """The active `player` lays the chosen card at (`row`, `col`): the seat prompt's choice."""

    player: int
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class Pass:
    """The active `player` passes (-1 point; N4)."""

    player: int


@dataclass(frozen=True, slots=True)
class Call:
    """Any `player` calls "neuro" after a play (N6, PR-N3): a bidding round starts with them."""

    player: int


@dataclass(frozen=True, slots=True)
class BidBase:
    """The bidding `player` taps a base card (public)."""

    player: int
    base: str


@dataclass(frozen=True, slots=True)
class BidCard:
    """The bidding `player` taps the domain card they bet on (public)."""

    player: int
    card: str


@dataclass(frozen=True, slots=True)
class BidToken:
    """The bidding `player` taps one of their tokens face down (secret until the end)."""

    player: int
    token: str


@dataclass(frozen=True, slots=True)
class NoBid:
    """The bidding `player` (not the caller) does not bid this round."""

    player: int


Action = Show | Register | Choose | Place | Pass | Call | BidBase | BidCard | BidToken | NoBid
ACTIONS = (Show, Register, Choose, Place, Pass, Call, BidBase, BidCard, BidToken, NoBid)


# ---------------------------------------------------------------- the deck

@dataclass(frozen=True, eq=False)
class Deck:
    """The cards and accessories, each card's kind and how kinds compare, and every action built once
    (random play lists thousands of them per game). One per game kind: compared by identity."""

    cards: tuple[str, ...]                          # sorted
    kind: Mapping[str, int]                         # card -> its kind (an index into `kinds`)
    bit: Mapping[str, int]                          # card -> 1 << its kind
    twin: Mapping[str, str]                         # card -> the other copy of its kind
    kinds: tuple[tuple[int, str, str], ...]         # per kind: strength, nature, background
    shared: tuple[tuple[int, ...], ...]             # attributes two kinds have in common
    compat: tuple[int, ...]                         # per kind: the mask of the kinds compatible with it (N2)
    bases: Mapping[str, int]                        # base id -> value, in the file's order
    tokens: Mapping[str, tuple[int, str]]           # token id -> (set, kind)
    sets: Mapping[int, tuple[str, ...]]             # set -> its token ids
    show: Mapping[str, Show]
    register: tuple[Mapping[str, Register], ...]    # per player, per card
    choose: tuple[Mapping[str, Choose], ...]
    bid_cards: tuple[Mapping[str, BidCard], ...]
    bid_bases: tuple[Mapping[str, BidBase], ...]
    bid_tokens: tuple[Mapping[str, BidToken], ...]
    passes: tuple[Pass, ...]                        # per player
    calls: tuple[Call, ...]
    no_bids: tuple[NoBid, ...]
    places: tuple[dict[int, Place], ...] = field(
        default_factory=lambda: tuple({} for _ in range(MAX_PLAYERS)))   # per player, filled as cells are offered
    fits: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = field(default_factory=dict)   # see `_fit`

    def place(self, player: int, index: int) -> Place:
        """The Place action of `player` at cell `index`, built once."""
        found = self.places[player].get(index)
        if found is None:
            found = self.places[player][index] = Place(player, *row_col(index))
        return found


def make_deck(data: Mapping[str, Any]) -> Deck:
    """The deck from its parsed file (assets/decks/neurotrio.toml); ValueError when a kind of card is not
    printed exactly twice or a token set lacks one of the six tokens."""
    attributes = {row["id"]: (int(row["strength"]), str(row["nature"]), str(row["background"]))
                  for row in data["cards"]}
    kinds = tuple(sorted(set(attributes.values())))
    index = {k: i for i, k in enumerate(kinds)}
    kind = {card: index[a] for card, a in attributes.items()}
    copies: dict[int, list[str]] = {}
    for card in sorted(kind):
        copies.setdefault(kind[card], []).append(card)
    if any(len(pair) != 2 for pair in copies.values()):
        raise ValueError("every kind of Neurotrio card must be printed twice (RULINGS N1)")
    twin = {a: b for pair in copies.values() for a, b in (pair, pair[::-1])}
    shared = tuple(tuple(sum(x == y for x, y in zip(a, b)) for b in kinds) for a in kinds)
    tokens = {row["id"]: (int(row["set"]), str(row["kind"])) for row in data["tokens"]}
    sets: dict[int, tuple[str, ...]] = {}
    for token, (number, _) in tokens.items():
        sets[number] = sets.get(number, ()) + (token,)
    if any(sorted(tokens[t][1] for t in ids) != sorted(TOKEN_KINDS) for ids in sets.values()):
        raise ValueError(f"every token set must hold the six tokens {', '.join(TOKEN_KINDS)}")
    bases = {row["id"]: int(row["value"]) for row in data["bases"]}
    cards = tuple(sorted(kind))
    seats = range(MAX_PLAYERS)
    return Deck(
        cards=cards, kind=kind, bit={c: 1 << k for c, k in kind.items()}, twin=twin, kinds=kinds, shared=shared,
        compat=tuple(sum(1 << j for j, n in enumerate(row) if n >= 2) for row in shared),
        bases=bases, tokens=tokens, sets=dict(sorted(sets.items())),
        show={c: Show(c) for c in cards},
        register=tuple({c: Register(p, c) for c in cards} for p in seats),
        choose=tuple({c: Choose(p, c) for c in cards} for p in seats),
        bid_cards=tuple({c: BidCard(p, c) for c in cards} for p in seats),
        bid_bases=tuple({b: BidBase(p, b) for b in bases} for p in seats),
        bid_tokens=tuple({t: BidToken(p, t) for t in tokens} for p in seats),
        passes=tuple(Pass(p) for p in seats), calls=tuple(Call(p) for p in seats),
        no_bids=tuple(NoBid(p) for p in seats))


# ---------------------------------------------------------------- the domain

class Domain(NamedTuple):
    """The cards laid so far, and what the next placement may use (N2, N3), kept up to date card by card.
    (Records built on most actions are NamedTuples: they are built several times faster than dataclasses.)"""

    placed: tuple[tuple[int, int, str], ...]        # (row, col, card), in the order laid
    cards: tuple[str, ...]                          # the same cards alone
    frontier: Mapping[int, tuple[int, tuple[int, ...], tuple[int, ...], int]]
    # ^ read-only: every empty cell touching the domain, by cell index: (the mask of the kinds it accepts, the
    #   reward per kind, the kinds it touches (sorted), which of its sides touch a card: bit d for STEPS[d])
    top: int                                        # the bounding box: first and last row and column,
    bottom: int                                     # as in a cell index (row + OFF, col + OFF)
    left: int
    right: int
    rows: int                                       # the limits R and C
    cols: int
    placeable: int                                  # the mask of the kinds that have a legal cell now


def accepted(compat: tuple[int, ...], touched: tuple[int, ...]) -> int:
    """The mask of the kinds that may be laid on a cell touching cards of these kinds (N2): compatible with
    the one touched card, or with at least two of several."""
    if len(touched) == 1:
        return compat[touched[0]]
    once = twice = 0
    for k in touched:
        m = compat[k]
        twice |= once & m
        once |= m
    return twice


def _fit(deck: Deck, touched: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """What a cell touching these kinds (sorted) accepts, and the reward of each kind it accepts (N2: by the
    number of touched cards it is compatible with, nothing when it touches one): worked out once per deck and
    kinds touched (`Deck.fits`)."""
    found = deck.fits.get(touched)
    if found is None:
        compat = deck.compat
        fit = accepted(compat, touched)
        several = len(touched) > 1
        found = deck.fits[touched] = (fit, tuple(
            REWARDS[sum(mask >> k & 1 for k in touched)] if several and fit >> c & 1 else 0
            for c, mask in enumerate(compat)))
    return found


def _open(top: int, bottom: int, left: int, right: int, rows: int, cols: int) -> tuple[bool, bool]:
    """Whether a card may open a row, and a column (N3): within R and C, and columns <= 2 x rows and
    rows <= 2 x columns after laying it. A frontier cell opens at most one: a cell outside the box's rows
    touches it from above or below, so it lies within its columns, and the other way round."""
    height, width = bottom - top + 1, right - left + 1
    return height < rows and height < 2 * width, width < cols and width < 2 * height


def _placeable(frontier: Mapping[int, tuple], top: int, bottom: int, left: int, right: int, rows: int,
               cols: int) -> int:
    """The mask of the kinds that have a legal cell on this frontier, in this box, under these limits."""
    new_row, new_col = _open(top, bottom, left, right, rows, cols)
    mask = 0
    if new_row and new_col:
        for spot in frontier.values():
            mask |= spot[0]
        return mask
    first, last = top * W, bottom * W + W - 1
    for index, spot in frontier.items():
        if (new_row or first <= index <= last) and (new_col or left <= index % W <= right):
            mask |= spot[0]
    return mask


# Per side of a cell: its bit, the step to the cell beyond it, and the bit of that cell's side facing back.
_SIDES = tuple((1 << d, step, 1 << (3 - d)) for d, step in enumerate(STEPS))


def start_domain(deck: Deck, card: str) -> Domain:
    """The domain of the start card alone, at (0, 0), with the starting limits."""
    return _lay(deck, Domain((), (), MappingProxyType({}), OFF, OFF, OFF, OFF, ROWS, COLS, 0), ORIGIN, card,
                deck.kind[card])


def _lay(deck: Deck, domain: Domain, index: int, card: str, kind: int) -> Domain:
    """The domain with `card` (of `kind`) laid at cell `index` (a legal cell, or the origin of an empty domain)."""
    fits = deck.fits
    frontier = domain.frontier.copy()
    sides = frontier.pop(index)[3] if frontier else 0
    for side, step, facing in _SIDES:
        if not sides & side:                        # an empty neighbour: now on the frontier, or touching more
            near = index + step
            spot = frontier.get(near)
            if spot is None:
                touched = (kind,)
            else:
                touched = tuple(sorted(spot[2] + (kind,)))
                facing |= spot[3]
            fit, rewards = fits.get(touched) or _fit(deck, touched)
            frontier[near] = (fit, rewards, touched, facing)
    row, col = divmod(index, W)
    top, bottom = min(domain.top, row), max(domain.bottom, row)
    left, right = min(domain.left, col), max(domain.right, col)
    return Domain(domain.placed + ((row - OFF, col - OFF, card),), domain.cards + (card,),
                  MappingProxyType(frontier), top, bottom, left, right, domain.rows, domain.cols,
                  _placeable(frontier, top, bottom, left, right, domain.rows, domain.cols))


def _grown(domain: Domain) -> Domain:
    """The domain with one more row and one more column allowed (N3, PR-N4)."""
    d = domain
    return d._replace(rows=d.rows + 1, cols=d.cols + 1, placeable=_placeable(
        d.frontier, d.top, d.bottom, d.left, d.right, d.rows + 1, d.cols + 1))


def _cells(domain: Domain, kind: int) -> list[int]:
    """The index of every legal cell for a card of `kind`, in reading order."""
    bit = 1 << kind
    top, bottom, left, right = domain.top, domain.bottom, domain.left, domain.right
    new_row, new_col = _open(top, bottom, left, right, domain.rows, domain.cols)
    if new_row and new_col:
        cells = [index for index, spot in domain.frontier.items() if spot[0] & bit]
    else:
        first, last = top * W, bottom * W + W - 1
        cells = [index for index, spot in domain.frontier.items() if spot[0] & bit
                 and (new_row or first <= index <= last) and (new_col or left <= index % W <= right)]
    cells.sort()
    return cells


def legal_cells(state: State, card: str) -> tuple[tuple[int, int, int], ...]:
    """Where `card` may be laid now (N2, N3): (row, col, reward) in reading order; empty before the start card."""
    domain = state.domain
    if domain is None:
        return ()
    kind = state.setup.deck.kind[card]
    return tuple(row_col(index) + (domain.frontier[index][1][kind],) for index in _cells(domain, kind))


def best_cell(cells: tuple[tuple[int, int, int], ...]) -> int | None:
    """Where the cell prompt starts: the first cell, in reading order, with the best reward (None: no cell)."""
    if not cells:
        return None
    top = max(points for _, _, points in cells)
    return next(i for i, (_, _, points) in enumerate(cells) if points == top)


# ---------------------------------------------------------------- state

@dataclass(frozen=True, slots=True)
class Setup:
    """What the game is played with, fixed at its start."""

    deck: Deck
    players: int
    first: int                                      # the starting seat: dealt first, plays first (PR-N2)
    counts: tuple[int, ...]                         # cards dealt to each player
    start: tuple[int, ...]                          # each player's starting points (N5)


class Tally(NamedTuple):
    """What the building phase counts besides rewards: passes per player, the players who emptied their hand
    in order, and the first player down to two cards ("deux cartes", None before)."""

    passes: tuple[int, ...]
    finished: tuple[int, ...] = ()
    two_cards: int | None = None


class Wager(NamedTuple):
    """A neuro bid, made or under way: the bidder, a base, the domain card bet on, a secret token."""

    bidder: int
    base: str | None = None
    card: str | None = None
    token: str | None = None


class Neuro(NamedTuple):
    """The neuro bidding: the bids made, tokens left per player, the token set each player uses (None before
    their first bid), the bases left, the turn of the last call, and the round under way (its caller, the
    bidders still to bid with the one bidding first, the bid under way, who passed so far)."""

    bids: tuple[Wager, ...]
    tokens: tuple[int, ...]
    sets: tuple[int | None, ...]
    bases: tuple[str, ...]
    called: int = -1
    caller: int | None = None
    order: tuple[int, ...] = ()
    piece: Wager | None = None
    passed: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class End:
    """The game's end: why, each player's penalty (N5, PR-N1), each bid's score (N7), totals, winners."""

    reason: str
    penalties: tuple[int, ...]
    scores: tuple[int, ...]                         # per bid, in the order made
    totals: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class State:
    """The whole game as the table knows it. Never shown as is: see `observe`."""

    setup: Setup
    neuro: Neuro
    tally: Tally
    rewards: tuple[int, ...]                        # points per player from placements (N2)
    hands: tuple[tuple[str, ...], ...]              # sorted
    unseen: tuple[str, ...]                         # neither shown nor registered; at last the removed card alone
    phase: str = SHOW
    domain: Domain | None = None
    active: int = 0
    chosen: str | None = None                       # the card the active player tapped, to be laid
    turn: int = 0                                   # plays so far (placements and passes)
    end: End | None = None

    players = property(lambda self: self.setup.players)


_FIELDS = ("setup", "neuro", "tally", "rewards", "hands", "unseen", "phase", "domain", "active", "chosen", "turn",
           "end")
assert _FIELDS == tuple(f.name for f in fields(State)), "_evolve must copy every field of State"
(_set_setup, _set_neuro, _set_tally, _set_rewards, _set_hands, _set_unseen, _set_phase, _set_domain, _set_active,
 _set_chosen, _set_turn, _set_end) = (getattr(State, name).__set__ for name in _FIELDS)
_new = object.__new__


def _evolve(state: State, **changes: Any) -> State:
    """`dataclasses.replace` for a State at a fraction of its cost: it runs on every action (written out field
    by field, the fastest way; `_FIELDS` is checked against State's fields at import). `setup` never changes."""
    new = _new(State)
    get = changes.get
    _set_setup(new, state.setup)
    _set_neuro(new, get("neuro", state.neuro))
    _set_tally(new, get("tally", state.tally))
    _set_rewards(new, get("rewards", state.rewards))
    _set_hands(new, get("hands", state.hands))
    _set_unseen(new, get("unseen", state.unseen))
    _set_phase(new, get("phase", state.phase))
    _set_domain(new, get("domain", state.domain))
    _set_active(new, get("active", state.active))
    _set_chosen(new, get("chosen", state.chosen))
    _set_turn(new, get("turn", state.turn))
    _set_end(new, get("end", state.end))
    return new


def dealt(cards: int, players: int, first: int) -> tuple[int, ...]:
    """Cards dealt to each player: all but the removed and the start card, clockwise from `first`, so the
    first (dealt mod players) in turn order get one more (PR-N2)."""
    size, extra = divmod(cards - 2, players)
    return tuple(size + ((p - first) % players < extra) for p in range(players))


def new_game(deck: Deck, players: int, first: int = 0, options: Mapping[str, Any] | None = None) -> State:
    """A new game waiting for the start card; `first` is the starting seat (PR-N2). No options."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Neurotrio is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    if not 0 <= first < players:
        raise ValueError(f"starting seat {first} is not one of the {players} players")
    counts = dealt(len(deck.cards), players, first)
    zeros = (0,) * players
    return State(setup=Setup(deck, players, first, counts, tuple(START_POINTS + (c > min(counts)) for c in counts)),
                 neuro=Neuro((), (len(TOKEN_KINDS),) * players, (None,) * players, tuple(deck.bases)),
                 tally=Tally(zeros), rewards=zeros,
                 hands=((),) * players, unseen=deck.cards, active=first)


# ---------------------------------------------------------------- queries

def treasure(state: State) -> str | None:
    """The treasure: the twin of the card nobody registered (None until every hand is registered)."""
    if state.phase in (SHOW, REGISTER):
        return None
    return state.setup.deck.twin[state.unseen[0]]


def calling(state: State) -> bool:
    """Whether "neuro" may be called now (PR-N3), by a player with a token left: after a play, until the active
    player taps a card or passes, once between two plays, while a base is left."""
    return (state.phase == BUILD and state.turn > 0 and state.neuro.called != state.turn and state.chosen is None
            and bool(state.neuro.bases))


def _can_place(state: State, player: int) -> bool:
    """Whether a card of `player`'s hand has a legal cell."""
    bit, placeable = state.setup.deck.bit, state.domain.placeable
    return any(bit[c] & placeable for c in state.hands[player])


def _free_tokens(deck: Deck, neuro: Neuro, player: int) -> list[str]:
    """The tokens `player` may tap: the unused ones of their set, or with no set yet (a set belongs to the first
    player who bids one of its tokens) every token of every set nobody uses."""
    number = neuro.sets[player]
    if number is not None:
        used = {w.token for w in neuro.bids}
        return [t for t in deck.sets[number] if t not in used]
    return [t for n, ids in deck.sets.items() if n not in neuro.sets for t in ids]


_TURNS = tuple(Need(players=(p,)) for p in range(MAX_PLAYERS))
_SEALED: dict[tuple[int, ...], Need] = {}
_WINDOWS: dict[tuple[int, tuple[int, ...]], Need] = {}
_DONE = Need()


def need(state: State) -> Need:
    """What the game waits for: the start card (chance), every incomplete hand (sealed), the active player or
    the bidder (a turn; during the call window the other players with a token left may interrupt it with a
    `Call`), or nothing once over."""
    phase = state.phase
    if phase == BUILD:
        if not calling(state):
            return _TURNS[state.active]
        key = (state.active, state.neuro.tokens)
        found = _WINDOWS.get(key)
        if found is None:
            others = tuple(p for p, left in enumerate(state.neuro.tokens) if left and p != state.active)
            found = _WINDOWS[key] = Need(players=(state.active,), interrupt=others)
        return found
    if phase == BID:
        return _TURNS[state.neuro.order[0]]
    if phase == REGISTER:
        players = tuple([p for p, (h, n) in enumerate(zip(state.hands, state.setup.counts)) if len(h) < n])
        found = _SEALED.get(players)
        if found is None:
            found = _SEALED[players] = Need(players=players, simultaneous=True)
        return found
    if phase == SHOW:
        return chance_need(state.setup.deck.cards)
    return _DONE


# ---------------------------------------------------------------- refusals

def check(state: State, action: Action) -> Refusal | None:
    """None when the action is legal now, else why not. A refusal about a seat's card or token never needs
    the card or the token."""
    if state.phase == OVER:
        return Refusal.of("game_over")
    deck = state.setup.deck
    match action:
        case Show(card=card):
            if state.phase != SHOW:
                return Refusal.of("not_now_show", card=card)
            return _card_refusal(deck, card)
        case Register(player=player, card=card):
            return _seat_refusal(state, player) or _card_refusal(deck, card) or _register_refusal(state, player, card)
        case Choose(player=player, card=card):
            if refusal := _seat_refusal(state, player) or _card_refusal(deck, card) or _turn_refusal(state, player):
                return refusal
            if state.chosen is not None:
                return Refusal.of("card_chosen", player=player)
            if card not in state.hands[player]:
                return Refusal.of("card_not_held", player=player)
            return None if deck.bit[card] & state.domain.placeable else Refusal.of("no_place_for_card", player=player)
        case Place(player=player, row=row, col=col):
            if refusal := _seat_refusal(state, player) or _turn_refusal(state, player):
                return refusal
            if state.chosen is None:
                return Refusal.of("choose_first", player=player)
            if _is_int(row) and _is_int(col) and abs(row) < OFF and abs(col) < OFF:
                if cell_index(row, col) in _cells(state.domain, deck.kind[state.chosen]):
                    return None
            return Refusal.of("not_a_legal_cell", player=player, row=row, col=col)
        case Pass(player=player):
            if refusal := _seat_refusal(state, player) or _turn_refusal(state, player):
                return refusal
            if state.chosen is not None:
                return Refusal.of("card_chosen", player=player)
            if state.tally.two_cards is not None and _can_place(state, player):
                return Refusal.of("must_place", player=player)
            return None
        case Call(player=player):
            return _seat_refusal(state, player) or _call_refusal(state, player)
        case BidBase(player=player, base=base):
            if refusal := _bidder_refusal(state, player):
                return refusal
            if base not in deck.bases:
                return Refusal.of("not_a_base", player=player)
            if base == state.neuro.piece.base:
                return Refusal.of("already_in_bid", player=player)
            if base not in state.neuro.bases:
                return Refusal.of("base_used", player=player, base=deck.bases[base])
            return None
        case BidCard(player=player, card=card):
            if refusal := _bidder_refusal(state, player) or _card_refusal(deck, card):
                return refusal
            if card == state.neuro.piece.card:
                return Refusal.of("already_in_bid", player=player)
            return None if card in state.domain.cards else Refusal.of("not_on_domain", player=player)
        case BidToken(player=player, token=token):
            return _bidder_refusal(state, player) or _token_refusal(state, player, token)
        case NoBid(player=player):
            if refusal := _bidder_refusal(state, player):
                return refusal
            if player == state.neuro.caller:
                return Refusal.of("caller_must_bid", player=player)
            return Refusal.of("token_in_bid", player=player) if state.neuro.piece.token is not None else None
    return Refusal.of("unknown_action")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat_refusal(state: State, player: Any) -> Refusal | None:
    if _is_int(player) and 0 <= player < state.players:
        return None
    return Refusal.of("no_such_player", player=player)


def _card_refusal(deck: Deck, card: Any) -> Refusal | None:
    """A card of this deck (an accessory is not a card)."""
    if card in deck.kind:
        return None
    if card in deck.bases or card in deck.tokens:
        return Refusal.of("accessory_not_card")
    return Refusal.of("card_not_in_game")


def _register_refusal(state: State, player: int, card: str) -> Refusal | None:
    if state.phase != REGISTER:
        return Refusal.of("not_now_register", player=player)
    hand = state.hands[player]
    if card in hand:
        return Refusal.of("already_registered", player=player, card=card)
    if card == state.domain.cards[0]:
        return Refusal.of("card_shown", player=player, card=card)
    if len(hand) >= state.setup.counts[player]:
        return Refusal.of("hand_complete", player=player, count=state.setup.counts[player])
    return None if card in state.unseen else Refusal.of("card_registered", player=player, card=card)


def _turn_refusal(state: State, player: int) -> Refusal | None:
    if state.phase != BUILD:
        return Refusal.of("not_now_play", player=player)
    return None if player == state.active else Refusal.of("not_your_turn", player=player)


def _call_refusal(state: State, player: int) -> Refusal | None:
    if state.phase != BUILD:
        return Refusal.of("not_now_call", player=player)
    if state.turn == 0:
        return Refusal.of("call_before_first_play", player=player)
    if state.neuro.called == state.turn:
        return Refusal.of("call_already_made", player=player)
    if state.chosen is not None:
        return Refusal.of("call_after_choice", player=player)
    if not state.neuro.tokens[player]:
        return Refusal.of("no_token_left", player=player)
    if not state.neuro.bases:
        return Refusal.of("no_base_left", player=player)
    return None


def _bidder_refusal(state: State, player: Any) -> Refusal | None:
    if refusal := _seat_refusal(state, player):
        return refusal
    if state.phase != BID:
        return Refusal.of("not_now_bid", player=player)
    return None if player == state.neuro.order[0] else Refusal.of("not_your_bid", player=player)


def _token_refusal(state: State, player: int, token: Any) -> Refusal | None:
    """A token of the bidder's set, unused (never naming it: tokens are secret)."""
    deck, neuro = state.setup.deck, state.neuro
    if token not in deck.tokens:
        return Refusal.of("not_a_token", player=player)
    if neuro.piece.token is not None:
        return Refusal.of("token_in_bid", player=player)
    number = deck.tokens[token][0]
    if number in neuro.sets and neuro.sets.index(number) != player:
        return Refusal.of("another_players_token", player=player)
    if any(w.token == token for w in neuro.bids):
        return Refusal.of("token_used", player=player)
    if neuro.sets[player] not in (None, number):
        return Refusal.of("not_your_token_set", player=player)
    return None


# ---------------------------------------------------------------- legal actions

def legal_actions(state: State) -> list[Action]:
    """Every legal action now: the active player's (and during the call window every player's Call), the
    bidder's, every sealed registration, or every chance outcome."""
    phase = state.phase
    deck = state.setup.deck
    if phase == BUILD:
        player = state.active
        if state.chosen is not None:
            places = deck.places[player]
            return [places.get(index) or deck.place(player, index)
                    for index in _cells(state.domain, deck.kind[state.chosen])]
        bit, placeable, choose = deck.bit, state.domain.placeable, deck.choose[player]
        actions: list[Action] = [choose[c] for c in state.hands[player] if bit[c] & placeable]
        if state.tally.two_cards is None or not actions:
            actions.append(deck.passes[player])
        if calling(state):
            calls = deck.calls
            actions += [calls[p] for p, left in enumerate(state.neuro.tokens) if left]
        return actions
    if phase == BID:
        return _bid_actions(state, deck)
    if phase == REGISTER:
        get = itemgetter(*state.unseen)             # two cards or more: a tuple of actions
        actions = []
        for player, (hand, count) in enumerate(zip(state.hands, state.setup.counts)):
            if len(hand) < count:
                actions += get(deck.register[player])
        return actions
    if phase == SHOW:
        return list(deck.show.values())
    return []


def _pick(table: Mapping[str, Action], keys: Sequence[str]) -> tuple[Action, ...]:
    """The actions of `keys` from an action table, in order (itemgetter: the fastest way to list many)."""
    return itemgetter(*keys)(table) if len(keys) > 1 else tuple(table[k] for k in keys)


def _bid_actions(state: State, deck: Deck) -> list[Action]:
    """The bidder's pieces: another base or domain card than those in the bid, a free token while none is in,
    and with no token in (not for the caller) NoBid."""
    neuro = state.neuro
    piece = neuro.piece
    player = piece.bidder
    bases, cards = deck.bid_bases[player], deck.bid_cards[player]
    actions: list[Action] = [bases[b] for b in neuro.bases if b != piece.base]
    start = len(actions)
    actions += _pick(cards, state.domain.cards)
    if piece.card is not None:                      # by its place: list.remove would compare actions
        del actions[start + state.domain.cards.index(piece.card)]
    if piece.token is None:
        actions += _pick(deck.bid_tokens[player], _free_tokens(deck, neuro, player))
        if player != neuro.caller:
            actions.append(deck.no_bids[player])
    return actions


# ---------------------------------------------------------------- transitions

def apply(state: State, action: Action) -> State:
    """The state after a legal action (call `check` first: apply trusts its input)."""
    transition = _TRANSITIONS.get(type(action))
    if transition is None:
        raise TypeError(f"not a Neurotrio action: {action!r}")
    return transition(state, action)


def _shown(state: State, action: Show) -> State:
    i = state.unseen.index(action.card)
    return _evolve(state, phase=REGISTER, unseen=state.unseen[:i] + state.unseen[i + 1:],
                   domain=start_domain(state.setup.deck, action.card))


def _registered(state: State, action: Register) -> State:
    """The card in its player's hand; with every hand in, the one card left unseen is the removed card."""
    player, card = action.player, action.card
    hand = state.hands[player]
    i = bisect_left(hand, card)
    hands = state.hands[:player] + (hand[:i] + (card,) + hand[i:],) + state.hands[player + 1:]
    unseen = state.unseen
    i = unseen.index(card)
    unseen = unseen[:i] + unseen[i + 1:]
    if len(unseen) > 1:
        return _evolve(state, hands=hands, unseen=unseen)
    domain = _unblocked(state.setup.deck, state.domain, hands)
    if domain is None:
        return _over(_evolve(state, hands=hands, unseen=unseen), DEADLOCK)
    return _evolve(state, phase=BUILD, hands=hands, unseen=unseen, domain=domain)


def _chosen(state: State, action: Choose) -> State:
    return _evolve(state, chosen=action.card)


def _passed(state: State, action: Pass) -> State:
    player, t = action.player, state.tally
    passes = t.passes[:player] + (t.passes[player] + 1,) + t.passes[player + 1:]
    return _evolve(state, tally=Tally(passes, t.finished, t.two_cards), turn=state.turn + 1,
                   active=_next_holder(state.hands, player))


def _called(state: State, action: Call) -> State:
    """A bidding round: from the caller clockwise, skipping the players with no token left."""
    player, n, neuro = action.player, state.players, state.neuro
    order = (player,) + tuple(p for p in ((player + i) % n for i in range(1, n)) if neuro.tokens[p])
    return _evolve(state, phase=BID, neuro=Neuro(neuro.bids, neuro.tokens, neuro.sets, neuro.bases, state.turn,
                                                 player, order, Wager(player)))


def _bid_base(state: State, action: BidBase) -> State:
    piece = state.neuro.piece
    return _bid(state, Wager(action.player, action.base, piece.card, piece.token))


def _bid_card(state: State, action: BidCard) -> State:
    piece = state.neuro.piece
    return _bid(state, Wager(action.player, piece.base, action.card, piece.token))


def _bid_token(state: State, action: BidToken) -> State:
    piece = state.neuro.piece
    return _bid(state, Wager(action.player, piece.base, piece.card, action.token))


def _no_bid(state: State, action: NoBid) -> State:
    n = state.neuro
    return _next_bidder(state, n._replace(passed=n.passed + (action.player,)))


def _next_holder(hands: tuple[tuple[str, ...], ...], player: int) -> int:
    """The next player clockwise after `player` who holds cards (players with an empty hand are skipped)."""
    n = len(hands)
    p = (player + 1) % n
    while not hands[p]:
        p = (p + 1) % n
    return p


def _placed(state: State, action: Place) -> State:
    """The chosen card laid: its reward, the finishing order, "deux cartes", then the end or the next player."""
    player, index = action.player, cell_index(action.row, action.col)
    deck, card = state.setup.deck, state.chosen
    kind = deck.kind[card]
    domain = state.domain
    points = domain.frontier[index][1][kind]
    rewards = state.rewards
    if points:
        rewards = rewards[:player] + (rewards[player] + points,) + rewards[player + 1:]
    hand = state.hands[player]
    i = hand.index(card)
    hand = hand[:i] + hand[i + 1:]
    hands = state.hands[:player] + (hand,) + state.hands[player + 1:]
    tally = state.tally
    if not hand:
        tally = tally._replace(finished=tally.finished + (player,))
    elif len(hand) == 2 and tally.two_cards is None:
        tally = tally._replace(two_cards=player)
    domain = _lay(deck, domain, index, card, kind)
    if not hand and sum(map(bool, hands)) == 1:
        reason = ONE_LEFT
    else:
        grown = _unblocked(deck, domain, hands)
        if grown is not None:
            return _evolve(state, hands=hands, domain=grown, chosen=None, turn=state.turn + 1, rewards=rewards,
                           tally=tally, active=_next_holder(hands, player))
        reason = DEADLOCK
    return _over(_evolve(state, hands=hands, domain=domain, chosen=None, turn=state.turn + 1, rewards=rewards,
                         tally=tally), reason)


def _unblocked(deck: Deck, domain: Domain, hands: tuple[tuple[str, ...], ...]) -> Domain | None:
    """PR-N4 and PR-N1, after the domain changed: when every player holding cards is blocked, the domain with
    one more row and column allowed; if that unblocks nobody, None (the building phase ends). One growth is
    always enough: the box never exceeds the limits, so one more row and column open every cell they bar."""
    if _anyone_can(deck, domain, hands):
        return domain
    grown = _grown(domain)
    return grown if _anyone_can(deck, grown, hands) else None


def _anyone_can(deck: Deck, domain: Domain, hands: tuple[tuple[str, ...], ...]) -> bool:
    """Whether a card of some hand has a legal cell on `domain`."""
    bit, placeable = deck.bit, domain.placeable
    for hand in hands:
        for card in hand:
            if bit[card] & placeable:
                return True
    return False


def _bid(state: State, wager: Wager) -> State:
    """A piece of the bid under way; with base, card and token all in, the bid is made."""
    n = state.neuro
    if wager.base is None or wager.card is None or wager.token is None:
        return _evolve(state, neuro=Neuro(n.bids, n.tokens, n.sets, n.bases, n.called, n.caller, n.order, wager,
                                          n.passed))
    p = wager.bidder
    tokens = n.tokens[:p] + (n.tokens[p] - 1,) + n.tokens[p + 1:]
    sets = n.sets[:p] + (state.setup.deck.tokens[wager.token][0],) + n.sets[p + 1:]
    bases = tuple(b for b in n.bases if b != wager.base)
    return _next_bidder(state, Neuro(n.bids + (wager,), tokens, sets, bases, n.called, n.caller, n.order, wager,
                                     n.passed))


def _next_bidder(state: State, n: Neuro) -> State:
    """The round (`n`: the bidding) goes on to the next bidder, or ends when everyone has had a turn or the
    bases ran out."""
    order = n.order[1:]
    if order and n.bases:
        return _evolve(state, neuro=Neuro(n.bids, n.tokens, n.sets, n.bases, n.called, n.caller, order,
                                          Wager(order[0]), n.passed))
    return _evolve(state, phase=BUILD, neuro=Neuro(n.bids, n.tokens, n.sets, n.bases, n.called))


_TRANSITIONS = {Show: _shown, Register: _registered, Choose: _chosen, Place: _placed, Pass: _passed, Call: _called,
                BidBase: _bid_base, BidCard: _bid_card, BidToken: _bid_token, NoBid: _no_bid}


def penalty(cards: int) -> int:
    """The points lost for cards left in hand at the end (N5): 1, 2, 5, then 20 for 4 or more."""
    return PENALTIES[min(cards, len(PENALTIES) - 1)]


def bid_score(deck: Deck, treasure_card: str, wager: Wager) -> int:
    """A bid's points once the treasure is known (N7). A number token t is worth v = base x t: on the treasure
    +3v, on a card sharing two attributes with it +v, one -v, none -2v. An attribute token wins its base when
    the card has the treasure's value of that attribute, and loses it otherwise."""
    base = deck.bases[wager.base]
    token = deck.tokens[wager.token][1]
    mine, hidden = deck.kind[wager.card], deck.kind[treasure_card]
    if token in NUMBERS:
        return base * int(token) * (-2, -1, 1, 3)[deck.shared[mine][hidden]]
    i = ATTRIBUTES.index(token)
    return base if deck.kinds[mine][i] == deck.kinds[hidden][i] else -base


def _over(state: State, reason: str) -> State:
    """The end (N5, N7, PR-N1): every player still holding cards pays for them, the treasure scores the bids."""
    deck = state.setup.deck
    penalties = tuple(penalty(len(h)) for h in state.hands)
    found = deck.twin[state.unseen[0]]
    scores = tuple(bid_score(deck, found, w) for w in state.neuro.bids)
    bids = [0] * state.players
    for wager, score in zip(state.neuro.bids, scores):
        bids[wager.bidder] += score
    totals = tuple(sum(row.values()) - p + b for row, p, b in zip(_running(state), penalties, bids))
    top = max(totals)
    return _evolve(state, phase=OVER, end=End(reason, penalties, scores, totals,
                                              tuple(p for p, t in enumerate(totals) if t == top)))


def _running(state: State) -> list[dict[str, int]]:
    """Each player's points that do not wait for the end: start, rewards, passes, finishing bonus."""
    t = state.tally
    finishing = {p: FINISHING[i] for i, p in enumerate(t.finished[:len(FINISHING)])}
    return [{"start": state.setup.start[p], "rewards": state.rewards[p], "passes": -t.passes[p],
             "finishing": finishing.get(p, 0)} for p in range(state.players)]


# ---------------------------------------------------------------- views

# Where the public view names a player: by its index here, by its seat in `replay --json` (kit/seats.py).
NAMED_PLAYERS = ("first", "active", "two_cards", "finished/*", "callers/*", "caller", "bidder", "to_bid/*",
                 "passed/*", "bid/bidder", "bids/*/bidder")


def observe(state: State, player: int | None) -> dict:
    """What `player` may know (None: the public view, the only thing the screen draws).

    Never public before the end: a hand, a token (its kind, its id, which are left), the removed card and the
    treasure. After the end: the treasure, the removed card, every bid's token and score, the hands left.
    """
    deck, neuro, tally, end = state.setup.deck, state.neuro, state.tally, state.end
    domain = state.domain
    points = _running(state)
    for p, row in enumerate(points):
        row["penalty"] = -end.penalties[p] if end else 0
        row["bids"] = sum(s for w, s in zip(neuro.bids, end.scores) if w.bidder == p) if end else 0
    cells = legal_cells(state, state.chosen) if state.chosen is not None else ()
    view: dict[str, Any] = {
        "game": NAME,
        "phase": state.phase,
        "players": state.players,
        "first": state.setup.first,
        "dealt": list(state.setup.counts),
        "counts": [len(h) for h in state.hands],
        "start_card": domain.cards[0] if domain else None,
        "domain": [list(p) for p in domain.placed] if domain else [],
        "box": None if domain is None else {
            "top": domain.top - OFF, "left": domain.left - OFF,
            "rows": domain.bottom - domain.top + 1, "cols": domain.right - domain.left + 1},
        "limits": [domain.rows, domain.cols] if domain else [ROWS, COLS],
        "grown": domain.rows - ROWS if domain else 0,
        "active": state.active if state.phase in (BUILD, BID) else None,
        "turn": state.turn,
        "chosen": state.chosen,
        "cells": [list(c) for c in cells],
        "best": best_cell(cells),
        "passes": list(tally.passes),
        "two_cards": tally.two_cards,
        "finished": list(tally.finished),
        "callers": [p for p, left in enumerate(neuro.tokens) if left] if calling(state) else [],
        "caller": neuro.caller,
        "bidder": neuro.order[0] if state.phase == BID else None,
        "to_bid": list(neuro.order),
        "passed": list(neuro.passed),
        "bid": None if neuro.piece is None else _wager_view(deck, neuro.piece, None),
        "bids": [_wager_view(deck, w, end.scores[i] if end else None) for i, w in enumerate(neuro.bids)],
        "bases_left": [deck.bases[b] for b in neuro.bases],
        "tokens_left": list(neuro.tokens),
        "points": points,
        "totals": list(end.totals) if end else [sum(row.values()) for row in points],
        "winners": list(end.winners) if end else [],
        "end": None if end is None else {
            "reason": end.reason, "treasure": treasure(state), "removed": state.unseen[0]},
    }
    if player is not None:
        number = neuro.sets[player]
        used = {w.token for w in neuro.bids}
        mine = neuro.piece is not None and neuro.piece.bidder == player and neuro.piece.token is not None
        view["seat"] = player
        view["hand"] = list(state.hands[player])
        view["token_set"] = number
        view["tokens"] = list(TOKEN_KINDS) if number is None else [
            deck.tokens[t][1] for t in deck.sets[number] if t not in used]
        view["my_bids"] = [deck.tokens[w.token][1] for w in neuro.bids if w.bidder == player]
        view["my_token"] = deck.tokens[neuro.piece.token][1] if mine else None
    return view


def _wager_view(deck: Deck, wager: Wager, score: int | None) -> dict:
    """A bid as the public sees it: its token hidden until the end (`score` given)."""
    view: dict[str, Any] = {"bidder": wager.bidder, "base": deck.bases[wager.base] if wager.base else None,
                            "card": wager.card}
    if score is None:
        view["token"] = HIDDEN if wager.token else None
    else:
        view["token"] = deck.tokens[wager.token][1]
        view["score"] = score
    return view
