"""Kitty (Chaton): a sealed-bid collecting game with the Pairs deck for 3 to 6 players.

The rules are ../shared/rules/pairs-encheres.fr.md ("Chaton", "Variantes
Chatons") as settled by RULINGS P2, PR-K1, PR-K2 and PR-V3;
../shared/games/TABLE-PROTOCOLS.md section 6 says how the table plays it, and
the package README records the readings taken.

A deal: a kitty of 7 cards lies face down (at 5 players 3 more are set aside
unseen), the rest is dealt, and every seat registers its hand (sealed). Then 7
rounds (soft: 4, with 1-2-2-2 targets): the target(s) are shown on the centre
pad, every seat passes one card to its left (sealed; the engine moves it),
every seat bids one card (sealed), and the lowest unique bid wins. The single 1
always wins but its player gives what it wins to another player (another
team). Bids leave the game. At the end of the deal each rank scores its value
for whoever holds most of it (ties all score; partners' hands combined).

Players are numbered clockwise; "left" is the next one.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, fields, replace
from operator import itemgetter
from typing import Any, Callable, Mapping

from table.games.contract import GameInfo, Need, Option, PadNeeds, Refusal, chance_need
from table.games.kit.ranked import RankedDeck
from table.games.kit.seats import under

NAME = "kitty"
MIN_PLAYERS = 3
MAX_PLAYERS = 6
KITTY = 7                                   # the kitty: one target per round (hard), 1-2-2-2 (soft)
REMOVED = {5: 3}                            # cards set aside unseen, by player count
HARD = (1,) * 7                             # targets per round
SOFT = (1, 2, 2, 2)
TARGET = 100                                # the long game's goal
ONE = 1                                     # the rank that always wins and must be given away

INFO = GameInfo(NAME, deck="pairs", players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
                options=(Option("soft", False, (False, True)),
                         Option("partners", False, (False, True), players=(4, 6)),
                         Option("stakes", 0, (0, 1, 2, 5, 10)),
                         Option("long", False, (False, True))),
                pads=PadNeeds(seat_pads=None, centre_pads=None, buttons=("ok",)))

make_deck = RankedDeck.from_data


# ---------------------------------------------------------------- actions

@dataclass(frozen=True, slots=True)
class Register:
    """Sealed: `player` taps one of their dealt cards on their own pad."""

    player: int
    card: str


@dataclass(frozen=True, slots=True)
class Show:
    """Chance: `card` is turned up from the kitty as a target and shown on the centre pad."""

    card: str


@dataclass(frozen=True, slots=True)
class Pass:
    """Sealed: `player` passes `card` to their left (the engine moves it when every seat has passed)."""

    player: int
    card: str


@dataclass(frozen=True, slots=True)
class Bid:
    """Sealed: `player` bids `card` face down."""

    player: int
    card: str


@dataclass(frozen=True, slots=True)
class Pick:
    """Soft, two targets: the lowest unique bidder designates the target it takes, tapping it on its own pad."""

    player: int
    card: str


@dataclass(frozen=True, slots=True)
class Receive:
    """The 1's gift: `player` (any allowed receiver) taps the given target on their own pad."""

    player: int
    card: str


Action = Register | Show | Pass | Bid | Pick | Receive
ACTIONS = (Register, Show, Pass, Bid, Pick, Receive)


# ---------------------------------------------------------------- deck tables

@dataclass(frozen=True, slots=True)
class Tables:
    """The deck with what the hot paths need, built once per deck (`tables`)."""

    deck: RankedDeck
    rank: Mapping[str, int]
    order: tuple[str, ...]                  # every card, sorted
    ranks: tuple[int, ...]                  # the rank values, low to high
    show: Mapping[str, Show]
    register: tuple[Mapping[str, Register], ...]
    passes: tuple[Mapping[str, Pass], ...]
    bids: tuple[Mapping[str, Bid], ...]
    picks: tuple[Mapping[str, Pick], ...]
    receives: tuple[Mapping[str, Receive], ...]


_TABLES: dict[int, Tables] = {}


def tables(deck: RankedDeck) -> Tables:
    """The tables of `deck`, cached by identity (a deck is built once per game kind)."""
    found = _TABLES.get(id(deck))
    if found is not None and found.deck is deck:
        return found
    order = tuple(sorted(deck.ranks))
    seats = range(MAX_PLAYERS)
    found = Tables(
        deck=deck, rank=dict(deck.ranks), order=order, ranks=deck.rank_values,
        show={c: Show(c) for c in order},
        register=tuple({c: Register(p, c) for c in order} for p in seats),
        passes=tuple({c: Pass(p, c) for c in order} for p in seats),
        bids=tuple({c: Bid(p, c) for c in order} for p in seats),
        picks=tuple({c: Pick(p, c) for c in order} for p in seats),
        receives=tuple({c: Receive(p, c) for c in order} for p in seats),
    )
    _TABLES[id(deck)] = found
    return found


# ---------------------------------------------------------------- records

@dataclass(frozen=True, slots=True)
class Step:
    """One step of a round's resolution, in order.

    kind: "tie" (bids of `rank` by `players`, `cards`, ignored), "win" (`player`'s `bid` takes `card`),
    "one" (`player`'s 1 wins `card` and must give it), "pick" (`player`'s `bid` designates `card`; a 1 then
    gives it), "take" (the second-lowest unique `bid` of `player` takes the other target `card`), "gift"
    (`player`, the 1's player, gives `card` to `to`), "discard" (`card` goes out: `why` "no_unique" or
    "no_second").
    """

    kind: str
    player: int | None = None
    card: str | None = None
    bid: str | None = None
    to: int | None = None
    rank: int | None = None
    players: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()
    why: str | None = None


@dataclass(frozen=True, slots=True)
class RoundLog:
    """A finished round. `passes` is private (passer and receiver only); the rest is public."""

    deal: int
    round: int
    targets: tuple[str, ...]
    passes: tuple[str, ...]                 # passes[p]: the card p passed to p + 1
    bids: tuple[str, ...]                   # bids[p]: p's bid, revealed
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class DealScore:
    """A finished deal: the hands shown, the holdings by rank per scoring unit (a seat, or a team with
    partners), who scores each rank (most cards; ties all score) and the points."""

    deal: int
    hands: tuple[tuple[str, ...], ...]      # per player, sorted
    units: tuple[tuple[int, ...], ...]      # the scoring units' players
    ranks: tuple[int, ...]
    counts: tuple[tuple[int, ...], ...]     # per unit, the count of each rank (same order as `ranks`)
    scorers: tuple[tuple[int, ...], ...]    # per rank, the units with the most (none when nobody holds it)
    unit_points: tuple[int, ...]
    points: tuple[int, ...]                 # per player (a partner scores the team's points)


@dataclass(frozen=True, slots=True)
class Payment:
    """Stakes (PR-K2): the `payer` unit pays `amount` (= `points` x the stake) to the `payee` unit."""

    payer: tuple[int, ...]
    payee: tuple[int, ...]
    points: int
    amount: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """Stakes at the game's end, on the final totals (PR-K2). `net` is per player (a partner: its team's)."""

    stake: int
    payments: tuple[Payment, ...]
    net: tuple[int, ...]


# ---------------------------------------------------------------- state

@dataclass(frozen=True, slots=True)
class Setup:
    """What the game is played with, fixed at its start (options as they apply at this player count)."""

    tables: Tables
    players: int
    soft: bool
    teams: tuple[int, ...] | None           # team index per player (partners), None: everyone alone
    stakes: int
    long: bool
    hand_size: int                          # cards dealt to each seat
    undealt: int                            # cards not dealt: the kitty (and the 3 set aside)


@dataclass(frozen=True, slots=True)
class Choice:
    """A resolution waiting for a seat: the soft pick (`picker` designates one of `left`; `second`, the
    second-lowest unique bidder or None, takes the other) or the 1's gift (`giver` gives `gift`)."""

    picker: int | None = None
    left: tuple[str, ...] = ()
    second: int | None = None
    giver: int | None = None
    gift: str | None = None


NO_CHOICE = Choice()


@dataclass(frozen=True, slots=True)
class Match:
    """What changes once a round or less: the deal, its rounds, the scores and totals."""

    dealer: int                             # the starting seat; moves left each deal of the long game
    deal: int = 1
    log: tuple[RoundLog, ...] = ()          # every finished round of the game (each names its deal)
    scores: DealScore | None = None         # the last finished deal
    history: tuple[tuple[int, ...], ...] = ()  # every finished deal's points per player
    totals: tuple[int, ...] = ()
    settlement: Settlement | None = None
    winners: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class State:
    """The whole game as the table knows it. Never shown as is: see `observe`.

    The fields that change on most actions are its own (few, so that each action copies little); the
    rest lives in `setup`, `match` and `choice`, read through the properties below.
    """

    setup: Setup
    match: Match
    phase: str = "register"                 # register, targets, pass, bid, pick, gift, over
    round: int = 1
    hands: tuple[tuple[str, ...], ...] = ()  # sorted; registered, then as the table tracks them
    pile: tuple[str, ...] = ()              # cards known nowhere, sorted: the kitty's rest (and the 3 set aside)
    out: frozenset[str] = frozenset()       # out of the game this deal: bids, discarded targets
    targets: tuple[str, ...] = ()           # this round's targets shown so far
    passes: tuple[str | None, ...] = ()     # this round's sealed passes
    bids: tuple[str | None, ...] = ()       # this round's sealed bids
    steps: tuple[Step, ...] = ()            # this round's resolution so far
    choice: Choice = NO_CHOICE              # phases pick and gift: who must act, on what

    tables = property(lambda self: self.setup.tables)
    players = property(lambda self: self.setup.players)
    soft = property(lambda self: self.setup.soft)
    teams = property(lambda self: self.setup.teams)
    stakes = property(lambda self: self.setup.stakes)
    long = property(lambda self: self.setup.long)
    hand_size = property(lambda self: self.setup.hand_size)
    dealer = property(lambda self: self.match.dealer)
    deal = property(lambda self: self.match.deal)
    log = property(lambda self: self.match.log)
    scores = property(lambda self: self.match.scores)
    history = property(lambda self: self.match.history)
    totals = property(lambda self: self.match.totals)
    settlement = property(lambda self: self.match.settlement)
    winners = property(lambda self: self.match.winners)
    picker = property(lambda self: self.choice.picker)
    left = property(lambda self: self.choice.left)
    second = property(lambda self: self.choice.second)
    giver = property(lambda self: self.choice.giver)
    gift = property(lambda self: self.choice.gift)

    @property
    def per_round(self) -> tuple[int, ...]:
        """Targets shown in each round of a deal."""
        return SOFT if self.setup.soft else HARD


_FIELDS = ('setup', 'match', 'phase', 'round', 'hands', 'pile',
           'out', 'targets', 'passes', 'bids', 'steps', 'choice')
assert _FIELDS == tuple(f.name for f in fields(State)), "_evolve must copy every field of State"
(_set_setup, _set_match, _set_phase, _set_round, _set_hands, _set_pile,
 _set_out, _set_targets, _set_passes, _set_bids, _set_steps, _set_choice) = (
    getattr(State, name).__set__ for name in _FIELDS)
_new = object.__new__


def _evolve(state: State, **changes: Any) -> State:
    """`dataclasses.replace` for a State, at a fraction of its cost: it runs on every action (written out
    field by field, the fastest way; `_FIELDS` is checked against State's fields at import)."""
    new = _new(State)
    get = changes.get
    _set_setup(new, get("setup", state.setup))
    _set_match(new, get("match", state.match))
    _set_phase(new, get("phase", state.phase))
    _set_round(new, get("round", state.round))
    _set_hands(new, get("hands", state.hands))
    _set_pile(new, get("pile", state.pile))
    _set_out(new, get("out", state.out))
    _set_targets(new, get("targets", state.targets))
    _set_passes(new, get("passes", state.passes))
    _set_bids(new, get("bids", state.bids))
    _set_steps(new, get("steps", state.steps))
    _set_choice(new, get("choice", state.choice))
    return new


# ---------------------------------------------------------------- setup

def hand_size(cards: int, players: int) -> int:
    """Cards dealt to each seat: the deck less the kitty (and at 5 players the 3 set aside), shared out."""
    dealt = cards - KITTY - REMOVED.get(players, 0)
    if dealt <= 0 or dealt % players:
        raise ValueError(f"{cards} cards do not deal evenly to {players} players after the kitty")
    return dealt // players


def teams_for(players: int, partners: bool) -> tuple[int, ...] | None:
    """Team index per player: partners sit opposite (4: {0,2},{1,3}; 6: {0,3},{1,4},{2,5}). Only at 4 or 6
    players; otherwise (or without the option) None."""
    if not partners or players not in (4, 6):
        return None
    return tuple(p % (players // 2) for p in range(players))


def new_game(deck: RankedDeck, players: int, first: int = 0, options: Mapping[str, Any] | None = None) -> State:
    """A new game: the first deal, waiting for every seat to register its hand. `first` is the starting
    seat (the dealer; Kitty has no turn order, so it only names the deal)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Kitty is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    if not 0 <= first < players:
        raise ValueError(f"starting seat {first} is not one of the {players} players")
    opts = {**INFO.defaults(), **(options or {})}
    stakes = opts["stakes"]
    if isinstance(stakes, bool) or not isinstance(stakes, int) or stakes < 0:
        raise ValueError(f"stakes must be a whole number of 0 or more, not {stakes!r}")
    t = tables(deck)
    size = hand_size(len(t.order), players)
    setup = Setup(tables=t, players=players, soft=bool(opts["soft"]),
                  teams=teams_for(players, bool(opts["partners"])), stakes=stakes, long=bool(opts["long"]),
                  hand_size=size, undealt=len(t.order) - size * players)
    return State(setup=setup, match=Match(dealer=first, totals=(0,) * players),
                 hands=((),) * players, pile=t.order)



# ---------------------------------------------------------------- queries

def units(state: State) -> tuple[tuple[int, ...], ...]:
    """The scoring units: each team's players (partners), else each player alone."""
    if state.teams is None:
        return tuple((p,) for p in range(state.players))
    return tuple(tuple(p for p in range(state.players) if state.teams[p] == team)
                 for team in range(state.players // 2))


def receivers(state: State, giver: int) -> tuple[int, ...]:
    """Who may receive the 1's gift: any other player; with partners, any player of another team."""
    if state.teams is None:
        return tuple(p for p in range(state.players) if p != giver)
    return tuple(p for p in range(state.players) if state.teams[p] != state.teams[giver])


_NEEDS: dict[tuple[Any, ...], Need] = {}


def _sealed(players: tuple[int, ...]) -> Need:
    """The sealed Need of these players, built once (need runs on every action)."""
    found = _NEEDS.get(players)
    if found is None:
        found = _NEEDS[players] = Need(players=players, simultaneous=True)
    return found


def need(state: State) -> Need:
    phase = state.phase
    if phase == "pass":
        return _sealed(tuple([p for p, c in enumerate(state.passes) if c is None]))
    if phase == "bid":
        return _sealed(tuple([p for p, c in enumerate(state.bids) if c is None]))
    if phase == "register":
        size = state.setup.hand_size
        return _sealed(tuple([p for p, h in enumerate(state.hands) if len(h) < size]))
    if phase == "targets":
        return chance_need(state.pile)
    if phase == "pick":
        return Need(players=(state.picker,))
    if phase == "gift":
        return Need(players=receivers(state, state.giver), any_of=True, by=state.giver)
    return _DONE


_DONE = Need()


def check(state: State, action: Action) -> Refusal | None:
    """None when the action is legal now, else why not. A refusal about a seat's card never needs the card."""
    phase = state.phase
    if phase == "over":
        return Refusal.of("game_over")
    match action:
        case Show(card=card):
            if phase != "targets":
                return Refusal.of("not_now_show", card=card)
            if card not in state.tables.rank:
                return Refusal.of("card_not_in_game", card=card)
            return None if card in state.pile else Refusal.of("not_in_kitty", card=card)
        case Register(player=player, card=card):
            return _seat_refusal(state, player, card) or _register_refusal(state, player, card)
        case Pass(player=player, card=card):
            return _seat_refusal(state, player, card) or _commit_refusal(state, "pass", state.passes, player, card)
        case Bid(player=player, card=card):
            return _seat_refusal(state, player, card) or _commit_refusal(state, "bid", state.bids, player, card)
        case Pick(player=player, card=card):
            if refusal := _seat_refusal(state, player, card):
                return refusal
            if phase != "pick":
                return Refusal.of("not_now_pick", player=player)
            if player != state.picker:
                return Refusal.of("not_picker", player=player)
            return None if card in state.left else Refusal.of("not_a_target", player=player, card=card)
        case Receive(player=player, card=card):
            if refusal := _seat_refusal(state, player, card):
                return refusal
            if phase != "gift":
                return Refusal.of("not_now_gift", player=player)
            if card != state.gift:
                return Refusal.of("not_the_gift", player=player, card=card)
            if player == state.giver:
                return Refusal.of("gift_to_self", player=player)
            if state.teams is not None and state.teams[player] == state.teams[state.giver]:
                return Refusal.of("gift_to_partner", player=player)
            return None
    return Refusal.of("unknown_action")


def _seat_refusal(state: State, player: Any, card: Any) -> Refusal | None:
    if not (isinstance(player, int) and 0 <= player < state.players):
        return Refusal.of("no_such_player", player=player)
    if card not in state.tables.rank:
        return Refusal.of("card_not_in_game", card=card, player=player)
    return None


def _commit_refusal(state: State, phase: str, committed: tuple[str | None, ...], player: int,
                    card: str) -> Refusal | None:
    """A sealed pass or bid: its phase, one per seat, a card the seat holds."""
    if state.phase != phase:
        return Refusal.of(f"not_now_{phase}", player=player)
    if committed[player] is not None:
        return Refusal.of(f"already_{'passed' if phase == 'pass' else 'bid'}", player=player)
    return None if card in state.hands[player] else Refusal.of("card_not_held", player=player, card=card)


def _register_refusal(state: State, player: int, card: str) -> Refusal | None:
    if state.phase != "register":
        return Refusal.of("not_now_register", player=player)
    if card in state.hands[player]:
        return Refusal.of("already_registered", player=player, card=card)
    if len(state.hands[player]) >= state.hand_size:
        return Refusal.of("hand_complete", player=player, count=state.hand_size)
    if card not in state.pile:
        return Refusal.of("card_registered", player=player, card=card)
    return None


def legal_actions(state: State) -> list[Action]:
    """Every legal action now, for every player who must act (or every chance outcome)."""
    phase = state.phase
    t = state.setup.tables
    if phase == "pass" or phase == "bid":
        committed, table = (state.passes, t.passes) if phase == "pass" else (state.bids, t.bids)
        actions: list[Action] = []
        for player, card in enumerate(committed):
            if card is None:
                actions += _getter(state.hands[player])(table[player])
        return actions
    if phase == "register":
        get = _getter(state.pile)
        size = state.setup.hand_size
        actions = []
        for player, hand in enumerate(state.hands):
            if len(hand) < size:
                actions += get(t.register[player])
        return actions
    if phase == "targets":
        return list(_getter(state.pile)(t.show))
    if phase == "pick":
        return [t.picks[state.picker][c] for c in state.left]
    if phase == "gift":
        return [t.receives[p][state.gift] for p in receivers(state, state.giver)]
    return []


def _getter(cards: tuple[str, ...]) -> Callable[[Mapping[str, Action]], tuple[Action, ...]]:
    """A function giving the actions of `cards`, in order, from an action table (the fastest way to list
    them: legal actions are listed on every action of random play)."""
    if len(cards) == 1:
        card = cards[0]
        return lambda table: (table[card],)
    return itemgetter(*cards)


# ---------------------------------------------------------------- transitions

def apply(state: State, action: Action) -> State:
    """The state after a legal action (call `check` first: apply trusts its input)."""
    match action:
        case Pass(player=player, card=card):
            passes = state.passes[:player] + (card,) + state.passes[player + 1:]
            if None in passes:
                return _evolve(state, passes=passes)
            n = len(passes)
            hands = tuple([_insert(_without(state.hands[p], passes[p]), passes[p - 1]) for p in range(n)])
            return _evolve(state, passes=passes, hands=hands, phase="bid", bids=(None,) * n)
        case Bid(player=player, card=card):
            bids = state.bids[:player] + (card,) + state.bids[player + 1:]
            if None in bids:
                return _evolve(state, bids=bids)
            return _reveal(state, bids)
        case Register(player=player, card=card):
            hands = _add(state.hands, player, card)
            pile = _without(state.pile, card)
            if len(pile) > state.setup.undealt:
                return _evolve(state, hands=hands, pile=pile)
            return _evolve(state, hands=hands, pile=pile, phase="targets")
        case Show(card=card):
            targets = state.targets + (card,)
            pile = _without(state.pile, card)
            if len(targets) < state.per_round[state.round - 1]:
                return _evolve(state, targets=targets, pile=pile)
            return _evolve(state, targets=targets, pile=pile, phase="pass", passes=(None,) * state.setup.players)
        case Pick(player=player, card=card):
            return _picked(state, player, card)
        case Receive(player=player, card=card):
            steps = state.steps + (Step("gift", player=state.giver, card=card, to=player),)
            return _resolved(state, state.bids, steps, _add(state.hands, player, card), state.out)
    raise TypeError(f"not a Kitty action: {action!r}")


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def _insert(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = bisect_left(cards, card)
    return cards[:i] + (card,) + cards[i:]


def _add(hands: tuple[tuple[str, ...], ...], player: int, card: str) -> tuple[tuple[str, ...], ...]:
    return hands[:player] + (_insert(hands[player], card),) + hands[player + 1:]


def ranking(bids: tuple[str, ...], rank: Mapping[str, int]) -> tuple[tuple[Step, ...], tuple[int, ...]]:
    """The reveal (RULINGS P2): the tie steps (bids sharing a rank, ignored, low to high) and the players
    with a unique bid rank, lowest first."""
    by_rank: dict[int, list[int]] = {}
    for player, card in enumerate(bids):
        by_rank.setdefault(rank[card], []).append(player)
    ties = []
    unique = []
    for r in sorted(by_rank):
        players = by_rank[r]
        if len(players) > 1:
            ties.append(Step("tie", rank=r, players=tuple(players), cards=tuple(bids[p] for p in players)))
        else:
            unique.append(players[0])
    return tuple(ties), tuple(unique)


def _reveal(state: State, bids: tuple[str, ...]) -> State:
    """Every bid is in: reveal, strike the ties, and resolve what needs no one's choice. Bids leave the game."""
    rank = state.setup.tables.rank
    steps, unique = ranking(bids, rank)
    out = state.out.union(bids)
    hands = tuple([_without(h, b) for h, b in zip(state.hands, bids)])
    targets = state.targets
    if not unique:
        steps += tuple(Step("discard", card=c, why="no_unique") for c in targets)
        return _resolved(state, bids, steps, hands, out.union(targets))
    first = unique[0]
    if len(targets) == 2:
        second = unique[1] if len(unique) > 1 else None
        return _evolve(state, bids=bids, hands=hands, out=out, steps=steps, phase="pick",
                       choice=Choice(picker=first, left=targets, second=second))
    target = targets[0]
    if rank[bids[first]] == ONE:
        steps += (Step("one", player=first, card=target, bid=bids[first]),)
        return _evolve(state, bids=bids, hands=hands, out=out, steps=steps, phase="gift",
                       choice=Choice(giver=first, gift=target))
    steps += (Step("win", player=first, card=target, bid=bids[first]),)
    return _resolved(state, bids, steps, _add(hands, first, target), out)


def _picked(state: State, player: int, card: str) -> State:
    """Soft: the lowest unique bidder took `card`; the other target goes to the second-lowest unique bid or
    out. A 1 gives what it picked (PR-K1)."""
    bid = state.bids[player]
    other = state.left[1] if state.left[0] == card else state.left[0]
    steps = state.steps + (Step("pick", player=player, card=card, bid=bid),)
    hands, out = state.hands, state.out
    one = state.setup.tables.rank[bid] == ONE
    if not one:
        hands = _add(hands, player, card)
    second = state.second
    if second is None:
        steps += (Step("discard", card=other, why="no_second"),)
        out = out | {other}
    else:
        steps += (Step("take", player=second, card=other, bid=state.bids[second]),)
        hands = _add(hands, second, other)
    if one:
        return _evolve(state, steps=steps, hands=hands, out=out, phase="gift",
                       choice=Choice(giver=player, gift=card))
    return _resolved(state, state.bids, steps, hands, out)


def _resolved(state: State, bids: tuple[str, ...], steps: tuple[Step, ...], hands: tuple[tuple[str, ...], ...],
              out: frozenset[str]) -> State:
    """The round is resolved: log it, and go on to the next round or score the deal."""
    m = state.match
    log = m.log + (RoundLog(m.deal, state.round, state.targets, state.passes, bids, steps),)
    match = Match(m.dealer, m.deal, log, m.scores, m.history, m.totals, m.settlement, m.winners)
    state = _evolve(state, match=match, hands=hands, out=out, targets=(), passes=(), bids=(), steps=(),
                    choice=NO_CHOICE, phase="targets")
    if state.round < len(state.per_round):
        return _evolve(state, round=state.round + 1)
    return _end_deal(state)


def score(state: State, hands: tuple[tuple[str, ...], ...]) -> DealScore:
    """A deal's score (RULINGS P2): per rank, the unit holding most scores the rank's value; ties all score;
    partners' hands are combined."""
    rank = state.tables.rank
    ranks = state.tables.ranks
    teams = units(state)
    index = {r: i for i, r in enumerate(ranks)}
    counts = []
    for unit in teams:
        row = [0] * len(ranks)
        for p in unit:
            for c in hands[p]:
                row[index[rank[c]]] += 1
        counts.append(tuple(row))
    scorers = []
    unit_points = [0] * len(teams)
    for i, r in enumerate(ranks):
        top = max(row[i] for row in counts)
        best = tuple(u for u, row in enumerate(counts) if top and row[i] == top)
        scorers.append(best)
        for u in best:
            unit_points[u] += r
    points = [0] * state.players
    for u, unit in enumerate(teams):
        for p in unit:
            points[p] = unit_points[u]
    return DealScore(state.deal, tuple(tuple(sorted(h)) for h in hands), teams, ranks, tuple(counts),
                     tuple(scorers), tuple(unit_points), tuple(points))


def settle(teams: tuple[tuple[int, ...], ...], unit_totals: tuple[int, ...], stake: int,
           players: int) -> Settlement:
    """Stakes (text "Mise", PR-K2): each winning unit collects the difference of totals, times the stake,
    from each non-winning unit; tied winners pay each other nothing."""
    top = max(unit_totals)
    winners = [u for u, t in enumerate(unit_totals) if t == top]
    payments = []
    net_units = [0] * len(teams)
    for w in winners:
        for u, total in enumerate(unit_totals):
            if total == top:
                continue
            points = top - total
            payments.append(Payment(teams[u], teams[w], points, points * stake))
            net_units[w] += points * stake
            net_units[u] -= points * stake
    net = [0] * players
    for u, unit in enumerate(teams):
        for p in unit:
            net[p] = net_units[u]
    return Settlement(stake, tuple(payments), tuple(net))


def _end_deal(state: State) -> State:
    scores = score(state, state.hands)
    totals = tuple(t + s for t, s in zip(state.totals, scores.points))
    history = state.history + (scores.points,)
    match = replace(state.match, scores=scores, totals=totals, history=history)
    if state.long and max(totals) < TARGET:
        n = state.players
        match = replace(match, deal=match.deal + 1, dealer=(match.dealer + 1) % n)
        return _evolve(state, match=match, round=1, phase="register", hands=((),) * n,
                       pile=state.tables.order, out=frozenset())
    top = max(totals)
    teams = units(state)
    settlement = None
    if state.stakes:
        settlement = settle(teams, tuple(totals[unit[0]] for unit in teams), state.stakes, state.players)
    return _evolve(state, phase="over", match=replace(match, settlement=settlement,
                                                      winners=tuple(p for p, t in enumerate(totals) if t == top)))


# ---------------------------------------------------------------- views

# Where the public view names a player: by its index here, by its seat in `replay --json` (kit/seats.py).
_STEP_PLAYERS = ("player", "to", "players/*")
NAMED_PLAYERS = ("dealer", "teams/*/*", "picker", "gift/giver", "gift/receivers/*",
                 *under("resolution/steps/*", _STEP_PLAYERS), *under("log/*/steps/*", _STEP_PLAYERS),
                 "scores/units/*/*", "stakes/payments/*/from/*", "stakes/payments/*/to/*")


def observe(state: State, player: int | None) -> dict:
    """What `player` may know (None: the public view, the only thing the screen draws).

    Never in the public view: registered hands, passes (ever), bids before every bid is in, the kitty.
    Hands are shown at the end of each deal (in `scores`).
    """
    n = state.players
    phase = state.phase
    current = None
    if phase in ("pick", "gift"):
        current = _round_view(RoundLog(state.deal, state.round, state.targets, state.passes, state.bids,
                                       state.steps))
    log = [_round_view(r) for r in state.log]
    teams = units(state) if state.teams is not None else None
    view: dict[str, Any] = {
        "game": NAME,
        "phase": phase,
        "players": n,
        "dealer": state.dealer,
        "options": {"soft": state.soft, "partners": state.teams is not None, "stakes": state.stakes,
                    "long": state.long},
        "teams": [list(t) for t in teams] if teams else None,
        "deal": state.deal,
        "round": state.round,
        "rounds": len(state.per_round),
        "targets_per_round": list(state.per_round),
        "hand_size": state.hand_size,
        "registered": [len(h) for h in state.hands] if phase == "register" else [state.hand_size] * n,
        "counts": [len(h) for h in state.hands],
        "kitty_left": sum(state.per_round[state.round - 1:]) - len(state.targets) if phase != "over" else 0,
        "targets": list(state.targets),
        "passed": ([c is not None for c in state.passes] if phase == "pass"
                   else [phase in ("bid", "pick", "gift")] * n),
        "bid": [c is not None for c in state.bids] if phase == "bid" else [phase in ("pick", "gift")] * n,
        "picker": state.picker,
        "gift": None if state.gift is None else {
            "giver": state.giver, "card": state.gift, "receivers": list(receivers(state, state.giver))},
        "resolution": current if current is not None else (log[-1] if log else None),
        "log": log + ([current] if current is not None else []),
        "taken": _taken(state),
        "out": sorted(state.out),
        "scores": _score_view(state.scores) if state.scores is not None else None,
        "history": [list(h) for h in state.history],
        "totals": list(state.totals),
        "team_totals": [state.totals[t[0]] for t in teams] if teams else None,
        "stakes": _settlement_view(state.settlement) if state.settlement is not None else None,
        "winners": list(state.winners),
    }
    if player is not None:
        view["seat"] = player
        view["hand"] = list(state.hands[player])
        view["my_pass"] = state.passes[player] if state.passes else None
        view["my_bid"] = state.bids[player] if state.bids else None
        view["my_passes"] = _passes_view(state, player)
    return view


def _passes_view(state: State, player: int) -> list[dict]:
    """`player`'s passes this deal: what it gave its left, what it got from its right (once all were in)."""
    rows = [(r.round, r.passes) for r in state.log if r.deal == state.deal]
    if state.passes and None not in state.passes:
        rows.append((state.round, state.passes))
    right = (player - 1) % state.players
    return [{"round": rnd, "gave": passes[player], "got": passes[right]} for rnd, passes in rows]


def _taken(state: State) -> list[list[str]]:
    """Per player, the targets it gained this deal (won, taken or received), as the log shows them."""
    taken: list[list[str]] = [[] for _ in range(state.players)]
    for steps in [r.steps for r in state.log if r.deal == state.deal] + [state.steps]:
        for s in steps:
            if s.kind in ("win", "take") or (s.kind == "pick" and state.tables.rank[s.bid] != ONE):
                taken[s.player].append(s.card)
            elif s.kind == "gift":
                taken[s.to].append(s.card)
    return taken


def _step_view(s: Step) -> dict:
    view: dict[str, Any] = {"step": s.kind}
    for name in ("player", "card", "bid", "to", "rank", "why"):
        value = getattr(s, name)
        if value is not None:
            view[name] = value
    if s.players:
        view["players"] = list(s.players)
        view["cards"] = list(s.cards)
    return view


def _round_view(r: RoundLog) -> dict:
    return {"deal": r.deal, "round": r.round, "targets": list(r.targets), "bids": list(r.bids),
            "steps": [_step_view(s) for s in r.steps]}


def _score_view(s: DealScore) -> dict:
    return {"deal": s.deal, "hands": [list(h) for h in s.hands], "units": [list(u) for u in s.units],
            "ranks": list(s.ranks), "counts": [list(c) for c in s.counts],
            "scorers": [list(u) for u in s.scorers], "unit_points": list(s.unit_points),
            "points": list(s.points)}


def _settlement_view(s: Settlement) -> dict:
    return {"stake": s.stake, "net": list(s.net),
            "payments": [{"from": list(p.payer), "to": list(p.payee), "points": p.points, "amount": p.amount}
                         for p in s.payments]}
