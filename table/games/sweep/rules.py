"""Sweep (Balayage): a capture game with the Pairs deck for 3 to 6 players.

The rules are ../shared/rules/pairs-encheres.fr.md ("Balayage") as settled by
RULINGS P1, PR-S1, PR-S2 and PR-V3; ../shared/games/TABLE-PROTOCOLS.md section 5
says how the table plays it, and the package README records the readings taken.

A deal: every seat registers its 5 dealt cards (sealed), the table draws the
first player, then rounds of 5 centre cards shown on the centre pad and one
card played by each seat in turn (empty hands skip). The capture runs from the
lowest played rank up; tied ranks share their targets one card at a time, the
picker choosing (PR-S1). Captures go into hands, so the engine knows every
hand: registered cards, minus plays, plus captures. When a tie's last targets
are all of one rank they are shared out automatically, and which copy each
seat took is not known: such cards form a `Pool` (only the rank ever matters).

Players are numbered clockwise; "left" is the next one.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field, fields
from itertools import compress, repeat
from typing import Any, Iterable, Mapping

from table.games.contract import GameInfo, Need, Option, PadNeeds, Refusal, chance_need
from table.games.kit.evolve import evolver
from table.games.kit.ranked import RankedDeck
from table.games.kit.seats import under

NAME = "sweep"
MIN_PLAYERS = 3
MAX_PLAYERS = 6
HAND = 5                                    # cards dealt to each seat
CENTRE = 5                                  # centre cards per round
ROUNDS = {3: 8, 4: 7, 5: 6, 6: 5}           # P1: rounds per deal; the pile (55 - 5N cards) runs out exactly then
TARGET = 150                                # the match option's goal (PR-S2)

INFO = GameInfo(NAME, deck="pairs", players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
                options=(Option("match", False, (False, True)),),
                pads=PadNeeds(seat_pads=None, centre_pads=None, buttons=("ok",)))

make_deck = RankedDeck.from_data


# ---------------------------------------------------------------- actions

@dataclass(frozen=True, slots=True)
class Register:
    """Sealed: `player` taps one of their dealt cards on their own pad."""

    player: int
    card: str


@dataclass(frozen=True, slots=True)
class DrawFirst:
    """Chance (a table draw, no card): `player` plays first in round 1."""

    player: int


@dataclass(frozen=True, slots=True)
class Show:
    """Chance: `card` is turned up from the pile and shown on the centre pad."""

    card: str


@dataclass(frozen=True, slots=True)
class Play:
    """`player`, in turn, plays `card` from hand face up."""

    player: int
    card: str


@dataclass(frozen=True, slots=True)
class Take:
    """A tied `player` takes `card` of the tie's targets (PR-S1), tapping it on their own pad."""

    player: int
    card: str


Action = Register | DrawFirst | Show | Play | Take
ACTIONS = (Register, DrawFirst, Show, Play, Take)


# ---------------------------------------------------------------- deck tables

@dataclass(frozen=True, slots=True)
class Tables:
    """The deck with what the hot paths need, built once per deck (`tables_for`)."""

    deck: RankedDeck
    rank: Mapping[str, int]
    order: tuple[str, ...]                  # every card, sorted
    index: Mapping[str, int]                # a card's place in `order`
    ranks: tuple[int, ...]                  # the rank values, low to high
    slot: Mapping[str, int]                 # a card's rank's place in `ranks`
    shows: tuple[Show, ...]                 # in card order
    registers: tuple[tuple[Register, ...], ...]  # per seat, in card order
    play: tuple[Mapping[str, Play], ...]
    take: tuple[Mapping[str, Take], ...]
    draw: tuple[DrawFirst, ...]
    turn: tuple[Need, ...]                  # a seat's public turn, per seat
    draw_need: Mapping[int, Need]           # the table draw, per player count


_TABLES: dict[int, Tables] = {}


def tables_for(deck: RankedDeck) -> Tables:
    """The tables of `deck`, cached by identity (a deck is built once per game kind)."""
    found = _TABLES.get(id(deck))
    if found is not None and found.deck is deck:
        return found
    order = tuple(sorted(deck.ranks))
    seats = range(MAX_PLAYERS)
    found = Tables(
        deck=deck, rank=dict(deck.ranks), order=order, index={c: i for i, c in enumerate(order)},
        ranks=deck.rank_values, slot={c: deck.rank_values.index(r) for c, r in deck.ranks.items()},
        shows=tuple(Show(c) for c in order),
        registers=tuple(tuple(Register(p, c) for c in order) for p in seats),
        play=tuple({c: Play(p, c) for c in order} for p in seats),
        take=tuple({c: Take(p, c) for c in order} for p in seats),
        draw=tuple(DrawFirst(p) for p in seats),
        turn=tuple(Need(players=(p,)) for p in seats),
        draw_need={n: Need(chance=True, outcomes=tuple(map(str, range(n))), by=None, table_draw=True)
                   for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)},
    )
    _TABLES[id(deck)] = found
    return found


# ---------------------------------------------------------------- records

# A card taken in a capture step is a tuple (player, card, rank, how): `card` is None for an automatic
# share of a pool (which copy is not known); `how` is "all" (a sole taker takes every target), "chose"
# (a tied player's pick) or "auto" (a tie's targets left are of one rank: shared out in turn).
Taken = tuple[int, "str | None", int, str]


@dataclass(frozen=True, slots=True)
class Pool:
    """Cards of one rank shared out automatically among tied seats: `shares[p]` of them are seat p's,
    which copies is unknown (and never matters). A seat may play any of them while its share lasts."""

    cards: frozenset[str]
    rank: int
    shares: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the capture: the played cards of one rank and what they took."""

    rank: int
    players: tuple[int, ...]                # who played this rank, in play order (several: a tie)
    cards: tuple[str, ...]                  # their played cards, same order
    rule: str                               # "highest": the lowest rank takes the centre's highest rank;
                                            # "lower": it takes every centre card lower than itself
    targets: tuple[str, ...]                # the centre cards this rank could take
    taken: tuple[Taken, ...]                # in order (a tie: one card at a time)


@dataclass(frozen=True, slots=True)
class Resolution:
    """The capture of a round, complete or waiting for a tied player's pick."""

    steps: tuple[Step, ...]                 # finished steps
    tie: Step | None                        # the tie waiting for a pick (its picks so far)
    picker: int | None
    left: tuple[str, ...]                   # the tie's targets still to take
    gains: tuple[frozenset[str], ...]       # per player, the cards taken known by id (so far)
    pools: tuple[Pool, ...]                 # cards shared out automatically (so far)
    last_taker: int | None
    centre: tuple[str, ...]                 # the centre by rank: while a tie waits, without its targets
                                            # and with its cards; complete: the leftovers, discarded


@dataclass(frozen=True, slots=True)
class RoundLog:
    """A finished round, as the public sees it."""

    deal: int
    round: int
    first: int
    reason: str                             # "draw" or "last_taker"
    order: tuple[int, ...]
    skipped: tuple[int, ...]                # empty hands, clockwise from the first player
    centre: tuple[str, ...]                 # the 5 cards shown
    played: tuple[tuple[int, str], ...]     # in play order
    steps: tuple[Step, ...]
    last_taker: int
    discarded: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DealScore:
    """A finished deal's scores: holdings by rank, and who scores each rank (majority; ties all score)."""

    deal: int
    ranks: tuple[int, ...]
    holdings: tuple[tuple[int, ...], ...]   # per player, the count of each rank (in the order of `ranks`)
    scorers: tuple[tuple[int, ...], ...]    # per rank, the players holding the most (none when nobody holds it)
    points: tuple[int, ...]                 # per player


@dataclass(frozen=True, slots=True)
class Round:
    """A deal's round bookkeeping; rebuilt at a round's end and at each tie pick."""

    number: int = 1
    first: int = 0                          # the round's first player
    reason: str = "draw"                    # why: "draw" (round 1) or "last_taker"
    order: tuple[int, ...] = ()             # the round's play order (empty hands skipped); () before the draw
    chosen: tuple[tuple[int, str], ...] = ()  # the round's tie picks so far
    work: Resolution | None = None          # the capture waiting for a pick (phase pick)
    discard: frozenset[str] = frozenset()   # the deal's centre leftovers
    log: tuple[RoundLog, ...] = ()          # the deal's finished rounds
    last: RoundLog | None = None            # the latest finished round, until the next centre is complete


@dataclass(frozen=True, slots=True)
class Deal:
    """The deal under way and the match around it."""

    match: bool
    number: int
    dealer: int                             # deals and shows the centre cards (moves left each deal)
    totals: tuple[int, ...]
    scores: DealScore | None = None         # the latest finished deal
    history: tuple[tuple[int, ...], ...] = ()  # every finished deal's points
    winners: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class State:
    """The whole game as the table knows it. Never shown as is: see `observe`."""

    tables: Tables = field(compare=False, repr=False)
    players: int
    phase: str                              # register, draw, centre, play, pick, over
    hands: tuple[frozenset[str], ...]       # each hand's cards known by id (registered, captured)
    pools: tuple[Pool, ...]
    pile: bytes                             # per card of `tables.order`, 1: not known to be anywhere
                                            # (register: not registered yet); see `pile_cards`
    centre: tuple[str, ...]                 # this round's shown cards, in order
    played: tuple[tuple[int, str], ...]     # this round's plays, in order
    round: Round
    deal: Deal


_new = object.__new__
_STEP_SETTERS = tuple(getattr(Step, f.name).__set__ for f in fields(Step))


def _step(rank: int, players: tuple[int, ...], cards: tuple[str, ...], rule: str, targets: tuple[str, ...],
          taken: tuple[Taken, ...]) -> Step:
    """Step(...) at half the cost of the frozen __init__: a capture builds one per rank played."""
    set_rank, set_players, set_cards, set_rule, set_targets, set_taken = _STEP_SETTERS
    new = _new(Step)
    set_rank(new, rank)
    set_players(new, players)
    set_cards(new, cards)
    set_rule(new, rule)
    set_targets(new, targets)
    set_taken(new, taken)
    return new


_RESOLUTION_SETTERS = tuple(getattr(Resolution, f.name).__set__ for f in fields(Resolution))


def _resolution(steps: tuple[Step, ...], tie: Step | None, picker: int | None, left: tuple[str, ...],
                gains: tuple[frozenset[str], ...], pools: tuple[Pool, ...], last_taker: int | None,
                centre: tuple[str, ...]) -> Resolution:
    """Resolution(...) at half the cost of the frozen __init__: every capture and every tie pick build one."""
    set_steps, set_tie, set_picker, set_left, set_gains, set_pools, set_last_taker, set_centre = _RESOLUTION_SETTERS
    new = _new(Resolution)
    set_steps(new, steps)
    set_tie(new, tie)
    set_picker(new, picker)
    set_left(new, left)
    set_gains(new, gains)
    set_pools(new, pools)
    set_last_taker(new, last_taker)
    set_centre(new, centre)
    return new


_ROUND_SETTERS = tuple(getattr(Round, f.name).__set__ for f in fields(Round))


def _round(number: int, first: int, reason: str, order: tuple[int, ...], chosen: tuple[tuple[int, str], ...],
           work: Resolution | None, discard: frozenset[str], log: tuple[RoundLog, ...],
           last: RoundLog | None) -> Round:
    """Round(...) at half the cost of the frozen __init__: every round and every tie pick build one."""
    set_number, set_first, set_reason, set_order, set_chosen, set_work, set_discard, set_log, set_last = _ROUND_SETTERS
    new = _new(Round)
    set_number(new, number)
    set_first(new, first)
    set_reason(new, reason)
    set_order(new, order)
    set_chosen(new, chosen)
    set_work(new, work)
    set_discard(new, discard)
    set_log(new, log)
    set_last(new, last)
    return new


_SETTERS = {f.name: getattr(State, f.name).__set__ for f in fields(State)}
(_set_tables, _set_players, _set_phase, _set_hands, _set_pools, _set_pile, _set_centre, _set_played, _set_round,
 _set_deal) = _SETTERS.values()


def _state(tables: Tables, players: int, phase: str, hands: tuple[frozenset[str], ...], pools: tuple[Pool, ...],
           pile: bytes, centre: tuple[str, ...], played: tuple[tuple[int, str], ...], round_: Round,
           deal: Deal) -> State:
    """State(...) at half the cost of the frozen __init__: every action builds one."""
    new = _new(State)
    _set_tables(new, tables)
    _set_players(new, players)
    _set_phase(new, phase)
    _set_hands(new, hands)
    _set_pools(new, pools)
    _set_pile(new, pile)
    _set_centre(new, centre)
    _set_played(new, played)
    _set_round(new, round_)
    _set_deal(new, deal)
    return new


_evolve = evolver(State)   # dataclasses.replace at a third of its cost; the rare changes (`_state` is quicker)


# ---------------------------------------------------------------- setup

def new_game(deck: RankedDeck, players: int, first: int = 0, options: Mapping[str, Any] | None = None) -> State:
    """A new game: `first` (the starting seat) deals the first deal and shows its centre cards; the
    first player is a table draw once the hands are registered."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Sweep is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    if not 0 <= first < players:
        raise ValueError(f"dealer {first} is not one of the {players} players")
    t = tables_for(deck)
    size = HAND * players + CENTRE * ROUNDS[players]
    if len(t.order) != size:
        raise ValueError(f"the deck has {len(t.order)} cards, Sweep needs {size}")
    options = {**INFO.defaults(), **(options or {})}
    return _new_deal(t, players, Deal(bool(options["match"]), 1, first, (0,) * players))


def _new_deal(t: Tables, players: int, deal: Deal) -> State:
    """A deal's start: nothing registered, every card possibly anywhere."""
    return State(t, players, "register", (frozenset(),) * players, (), b"\x01" * len(t.order), (), (), Round(), deal)



# ---------------------------------------------------------------- queries

def pile_cards(state: State) -> tuple[str, ...]:
    """The cards not known to be anywhere, sorted (the centre's possible outcomes)."""
    return tuple(compress(state.tables.order, state.pile))


def in_pile(state: State, card: str) -> bool:
    """Whether `card` (of the deck) is not known to be anywhere."""
    return bool(state.pile[state.tables.index[card]])


def hand_count(state: State, player: int) -> int:
    """How many cards `player` holds."""
    return len(state.hands[player]) + sum(pool.shares[player] for pool in state.pools)


def holds(state: State, player: int, card: str) -> bool:
    """Whether `player` may play `card`: known in their hand, or in a pool where they still have a share."""
    if card in state.hands[player]:
        return True
    return any(card in pool.cards and pool.shares[player] for pool in state.pools)


def playable(state: State, player: int) -> list[str]:
    """The cards `player` may play, sorted."""
    cards = set(state.hands[player])
    for pool in state.pools:
        if pool.shares[player]:
            cards |= pool.cards
    return sorted(cards)


def turn(state: State) -> int | None:
    """The seat to act now in public (to play, or to pick), else None."""
    if state.phase == "play":
        return state.round.order[len(state.played)]
    if state.phase == "pick":
        return state.round.work.picker
    return None


def clockwise(players: int, first: int) -> tuple[int, ...]:
    """Every seat, clockwise from `first`."""
    return tuple((first + i) % players for i in range(players))


_CLOCKWISE = {n: tuple(clockwise(n, first) for first in range(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


def play_order(state: State, first: int) -> tuple[int, ...]:
    """The seats that play a round begun by `first`: clockwise, skipping empty hands (P1)."""
    return _order(state.hands, state.pools, first)


def _order(hands: tuple[frozenset[str], ...], pools: tuple[Pool, ...], first: int) -> tuple[int, ...]:
    """`play_order` from the hands and pools."""
    seats = _CLOCKWISE[len(hands)][first]
    if all(hands):
        return seats
    if pools:
        return tuple([p for p in seats if hands[p] or any(pool.shares[p] for pool in pools)])
    return tuple([p for p in seats if hands[p]])


_SEALED: dict[tuple[int, ...], Need] = {}     # the registration's needs, by the seats still registering
def need(state: State) -> Need:
    """What the game waits for: the registration (sealed), the table draw, a centre card (the dealer's),
    a seat's play or a tied seat's pick; nothing once over."""
    phase = state.phase
    if phase == "play":
        return state.tables.turn[state.round.order[len(state.played)]]
    if phase == "centre":
        return chance_need(tuple(compress(state.tables.order, state.pile)), state.deal.dealer)
    if phase == "register":
        waiting = tuple([p for p, h in enumerate(state.hands) if len(h) < HAND])
        found = _SEALED.get(waiting)
        if found is None:
            found = _SEALED[waiting] = Need(players=waiting, simultaneous=True)
        return found
    if phase == "pick":
        return state.tables.turn[state.round.work.picker]
    if phase == "draw":
        return state.tables.draw_need[state.players]
    return Need()


def check(state: State, action: Action) -> Refusal | None:
    """None when the action is legal now, else why not. A refusal about a seat's card never needs the card."""
    phase = state.phase
    if phase == "over":
        return Refusal.of("game_over")
    rank = state.tables.rank
    match action:
        case Play(player=player, card=card):
            if phase != "play":
                return Refusal.of("not_now_play", player=player)
            if player != state.round.order[len(state.played)]:
                return Refusal.of("not_your_turn", player=player)
            if card not in rank:
                return Refusal.of("card_not_in_game", card=card, player=player)
            if not holds(state, player, card):
                return Refusal.of("card_not_held", card=card, player=player)
            return None
        case Show(card=card):
            if phase != "centre":
                return Refusal.of("centre_full" if phase in ("play", "pick") else "not_now_centre", card=card)
            if card not in rank:
                return Refusal.of("card_not_in_game", card=card)
            if not in_pile(state, card):
                return Refusal.of("card_seen", card=card)
            return None
        case Register(player=player, card=card):
            if phase != "register":
                return Refusal.of("not_now_register", player=player)
            if not 0 <= player < state.players:
                return Refusal.of("no_such_player", player=player)
            if card not in rank:
                return Refusal.of("card_not_in_game", card=card, player=player)
            hand = state.hands[player]
            if card in hand:
                return Refusal.of("already_registered", card=card, player=player)
            if len(hand) >= HAND:
                return Refusal.of("hand_complete", player=player)
            if not in_pile(state, card):
                return Refusal.of("card_registered", card=card, player=player)
            return None
        case Take(player=player, card=card):
            if phase != "pick":
                return Refusal.of("not_now_pick", player=player)
            work = state.round.work
            if player != work.picker:
                return Refusal.of("not_your_turn", player=player)
            if card not in work.left:
                return Refusal.of("not_a_target", card=card, player=player)
            return None
        case DrawFirst(player=player):
            if phase != "draw":
                return Refusal.of("not_now_draw")
            if not 0 <= player < state.players:
                return Refusal.of("no_such_player", player=player)
            return None
    return Refusal.of("unknown_action")


def legal_actions(state: State) -> list[Action]:
    """Every legal action now, for every player who must act (or every chance outcome)."""
    phase = state.phase
    t = state.tables
    if phase == "play":
        player = state.round.order[len(state.played)]
        cards = playable(state, player) if state.pools else sorted(state.hands[player])
        return list(map(t.play[player].__getitem__, cards))
    if phase == "centre":
        return list(compress(t.shows, state.pile))
    if phase == "register":
        pile = state.pile
        actions: list[Action] = []
        for player, hand in enumerate(state.hands):
            if len(hand) < HAND:
                actions += compress(t.registers[player], pile)
        return actions
    if phase == "pick":
        work = state.round.work
        return list(map(t.take[work.picker].__getitem__, sorted(work.left)))
    if phase == "draw":
        return list(t.draw[:state.players])
    return []


# ---------------------------------------------------------------- the capture

def resolve(rank: Mapping[str, int], players: int, shown: tuple[str, ...], played: tuple[tuple[int, str], ...],
            chosen: Iterable[str] = (), partial: Resolution | None = None) -> Resolution:
    """The capture (P1, PR-S1), as far as the tie picks `chosen` (cards, in order) carry it; from
    `partial` (a capture waiting for a pick) when given, else from the start.

    Ranks fire from the lowest up. The lowest takes every centre card of the
    centre's highest rank, each later one every centre card lower than itself;
    after its step a played card joins the centre. Several cards of one rank
    take their common targets one card at a time, from whoever played first:
    the picker chooses while the targets left are of several ranks; once they
    are of one rank they are shared out in turn without a pick.
    """
    chosen = iter(chosen)
    groups: dict[int, list] = {}
    for player, card in played:
        r = rank[card]
        if r in groups:
            groups[r] += (player, card)
        else:
            groups[r] = [player, card]
    fire = sorted(groups)
    # The centre sorted by rank, as parallel lists of ranks and cards. From the second step on, every
    # centre card lower than the rank firing is taken, so what stays is a suffix and the played cards
    # joining (of the rank that fired) go in front.
    if partial is None:
        ids = sorted(sorted(shown), key=rank.__getitem__)     # by rank, then by id (a stable sort)
        gains: list[list[str]] = [[] for _ in range(players)]
        pools: list[Pool] = []
        steps: list[Step] = []
        last = None
    else:
        ids = list(partial.centre)
        gains = list(map(list, partial.gains))
        pools = list(partial.pools)
        steps = list(partial.steps)
        last = partial.last_taker
    ranks = list(map(rank.__getitem__, ids))
    for index in range(len(steps), len(fire)):
        r = fire[index]
        group = groups[r]
        rule = "lower" if index else "highest"
        if partial is not None:                 # the tie waiting for a pick, its centre already updated
            tie = partial.tie
            who, cards, targets = tie.players, tie.cards, tie.targets
            picks = list(tie.taken)
            left = partial.left
            partial = None
        else:
            joining = group[1::2]               # ids and ranks are this call's own lists: changed in place
            if index:
                k = bisect_left(ranks, r)
                targets, target_ranks = tuple(ids[:k]), ranks[:k]
                ranks[:k] = [r] * len(joining)
                ids[:k] = joining
            else:
                k = bisect_left(ranks, ranks[-1])
                targets, target_ranks = tuple(ids[k:]), ranks[k:]
                at = bisect_left(ranks, r, 0, k)
                ranks[at:] = [r] * len(joining) + ranks[at:k]
                ids[at:] = joining + ids[at:k]
            if len(group) == 2:
                player, card = group
                if targets:
                    gains[player] += targets
                    last = player
                    taken = tuple(zip(repeat(player), targets, target_ranks, repeat("all")))
                else:
                    taken = ()
                steps.append(_step(r, (player,), (card,), rule, targets, taken))
                continue
            who, cards = tuple(group[0::2]), tuple(joining)
            left = targets
            picks = []
        turn_ = len(picks)                      # every pick so far was chosen, one per turn
        while left:
            picker = who[turn_ % len(who)]
            q = rank[left[0]]
            if q != rank[left[-1]]:             # the targets left are sorted by rank: several ranks
                card = next(chosen, None)
                if card is None:
                    return _resolution(tuple(steps), _step(r, who, cards, rule, targets, tuple(picks)), picker,
                                       tuple(left), tuple(map(frozenset, gains)), tuple(pools), last, tuple(ids))
                left = [c for c in left if c != card]
                picks.append((picker, card, rank[card], "chose"))
                gains[picker].append(card)
                last = picker
                turn_ += 1
                continue
            receivers = [who[(turn_ + i) % len(who)] for i in range(len(left))]
            if len(set(receivers)) == 1:
                gains[picker] += left
                picks += [(picker, c, q, "auto") for c in left]
            else:
                shares = [0] * players
                for p in receivers:
                    shares[p] += 1
                pools.append(Pool(frozenset(left), q, tuple(shares)))
                picks += [(p, None, q, "auto") for p in receivers]
            last = receivers[-1]
            left = ()
        steps.append(_step(r, who, cards, rule, targets, tuple(picks)))
    return _resolution(tuple(steps), None, None, (), tuple(map(frozenset, gains)), tuple(pools), last, tuple(ids))


def centre_after(shown: Iterable[str], steps: Iterable[Step]) -> list[list[str]]:
    """The centre after each step: its targets taken, its played cards joined (for the step-by-step view)."""
    centre = list(shown)
    result = []
    for step in steps:
        gone = set(step.targets)
        centre = [c for c in centre if c not in gone] + list(step.cards)
        result.append(centre)
    return result


def score(ranks: tuple[int, ...], holdings: tuple[tuple[int, ...], ...]) -> tuple[tuple[tuple[int, ...], ...],
                                                                                   tuple[int, ...]]:
    """Majority scoring: per rank, every player holding the most cards of it (at least one) scores the rank.
    Returns (the scorers of each rank, each player's points)."""
    scorers = []
    points = [0] * len(holdings)
    for r, counts in zip(ranks, zip(*holdings)):
        most = max(counts)
        if not most:
            best = ()
        elif counts.count(most) == 1:           # the usual case, found without a Python loop
            best = (counts.index(most),)
        else:
            best = tuple([p for p, c in enumerate(counts) if c == most])
        for p in best:
            points[p] += r
        scorers.append(best)
    return tuple(scorers), tuple(points)


def holdings(state: State) -> tuple[tuple[int, ...], ...]:
    """Each player's count of every rank (in the order of `tables.ranks`)."""
    t = state.tables
    slot = t.slot
    result = []
    for player, hand in enumerate(state.hands):
        counts = [0] * len(t.ranks)
        for card in hand:
            counts[slot[card]] += 1
        for pool in state.pools:
            counts[t.ranks.index(pool.rank)] += pool.shares[player]
        result.append(tuple(counts))
    return tuple(result)


# ---------------------------------------------------------------- transitions

def apply(state: State, action: Action) -> State:
    """The state after a legal action (call `check` first: apply trusts its input)."""
    transition = _TRANSITIONS.get(type(action))     # a dict by type: quicker than `match` on every action
    if transition is None:
        raise TypeError(f"not a Sweep action: {action!r}")
    return transition(state, action)


def _show(s: State, action: Show) -> State:
    card = action.card
    centre = s.centre + (card,)
    if len(centre) < CENTRE:
        return _state(s.tables, s.players, s.phase, s.hands, s.pools, _taken(s, card), centre, s.played, s.round,
                      s.deal)
    r = s.round
    return _state(s.tables, s.players, "play", s.hands, s.pools, _taken(s, card), centre, s.played,
                  _round(r.number, r.first, r.reason, r.order, (), None, r.discard, r.log, None), s.deal)


def _play(s: State, action: Play) -> State:
    player, card = action.player, action.card
    hands = s.hands
    if card in hands[player]:
        hands = hands[:player] + (hands[player] - {card},) + hands[player + 1:]
        pools = s.pools
    else:
        hands, pools = _from_pool(s, player, card)
    played = s.played + ((player, card),)
    if len(played) < len(s.round.order):
        return _state(s.tables, s.players, s.phase, hands, pools, s.pile, s.centre, played, s.round, s.deal)
    return _capture(s, hands, pools, played)


def _register(s: State, action: Register) -> State:
    player, card = action.player, action.card
    hands = s.hands[:player] + (s.hands[player] | {card},) + s.hands[player + 1:]
    pile = _taken(s, card)
    phase = "register" if pile.count(1) > len(pile) - HAND * s.players else "draw"
    return _state(s.tables, s.players, phase, hands, s.pools, pile, s.centre, s.played, s.round, s.deal)


def _take(s: State, action: Take) -> State:
    return _capture(s, s.hands, s.pools, s.played, ((action.player, action.card),))


def _draw_first(s: State, action: DrawFirst) -> State:
    player, r = action.player, s.round
    return _state(s.tables, s.players, "centre", s.hands, s.pools, s.pile, s.centre, s.played,
                  _round(r.number, player, "draw", play_order(s, player), (), None, r.discard, r.log, None), s.deal)


_TRANSITIONS = {Show: _show, Play: _play, Register: _register, Take: _take, DrawFirst: _draw_first}


def _taken(state: State, card: str) -> bytes:
    """The pile without `card`."""
    i = state.tables.index[card]
    return state.pile[:i] + b"\x00" + state.pile[i + 1:]


def _from_pool(state: State, player: int, card: str) -> tuple[tuple[frozenset[str], ...], tuple[Pool, ...]]:
    """Hands and pools once `player` has played `card` from a pool: a pool left to one seat joins its hand."""
    hands = list(state.hands)
    pools = []
    for pool in state.pools:
        if card in pool.cards and pool.shares[player]:
            shares = pool.shares[:player] + (pool.shares[player] - 1,) + pool.shares[player + 1:]
            pool = Pool(pool.cards - {card}, pool.rank, shares)
            holders = [p for p, s in enumerate(shares) if s]
            if len(holders) == 1:
                hands[holders[0]] = hands[holders[0]] | pool.cards
            if len(holders) <= 1:
                continue
        pools.append(pool)
    return tuple(hands), tuple(pools)


def _capture(s: State, hands: tuple[frozenset[str], ...], pools: tuple[Pool, ...],
             played: tuple[tuple[int, str], ...], pick: tuple[tuple[int, str], ...] = ()) -> State:
    """Run the capture of `played` as far as the picks allow; finish the round when it is complete.
    `hands` and `pools` are the state's once the round's last card is played."""
    r = s.round
    res = resolve(s.tables.rank, s.players, s.centre, played, [c for _, c in pick], r.work)
    if res.tie is not None:
        return _state(s.tables, s.players, "pick", hands, pools, s.pile, s.centre, played,
                      _round(r.number, r.first, r.reason, r.order, r.chosen + pick, res, r.discard, r.log, r.last),
                      s.deal)
    n = s.players
    hands = tuple([h | g if g else h for h, g in zip(hands, res.gains)])
    pools = pools + res.pools
    skipped = () if len(r.order) == n else tuple([p for p in _CLOCKWISE[n][r.first] if p not in r.order])
    record = RoundLog(s.deal.number, r.number, r.first, r.reason, r.order, skipped, s.centre, played, res.steps,
                      res.last_taker, res.centre)
    discard = r.discard.union(res.centre)
    log = r.log + (record,)
    if r.number < ROUNDS[n]:
        first = res.last_taker
        return _state(s.tables, n, "centre", hands, pools, s.pile, (), (),
                      _round(r.number + 1, first, "last_taker", _order(hands, pools, first), (), None, discard, log,
                             record), s.deal)
    return _end_deal(_state(s.tables, n, s.phase, hands, pools, s.pile, (), (),
                            _round(r.number, r.first, r.reason, (), (), None, discard, log, record), s.deal))


def _end_deal(state: State) -> State:
    held = holdings(state)
    scorers, points = score(state.tables.ranks, held)
    d = state.deal
    result = DealScore(d.number, state.tables.ranks, held, scorers, points)
    history = d.history + (points,)
    totals = tuple(a + b for a, b in zip(d.totals, points)) if d.match else points
    top = max(totals)
    if not d.match or top >= TARGET:
        winners = tuple(p for p, s in enumerate(totals) if s == top)
        return _evolve(state, phase="over", deal=Deal(d.match, d.number, d.dealer, totals, result, history, winners))
    following = _new_deal(state.tables, state.players,
                          Deal(d.match, d.number + 1, (d.dealer + 1) % state.players, totals, result, history))
    return _evolve(following, round=Round(last=state.round.last))


# ---------------------------------------------------------------- views

# Where the public view names a player: by its index here, by its seat in `replay --json` (kit/seats.py).
_ROUND_PLAYERS = ("first", "order/*", "skipped/*", "played/*/0", "steps/*/players/*", "steps/*/taken/*/player",
                  "last_taker", "took/*/0")
NAMED_PLAYERS = ("dealer", "first_player", "order/*", "skipped/*", "turn", "played/*/0",
                 "capture/steps/*/players/*", "capture/steps/*/taken/*/player",
                 "capture/tie/players/*", "capture/tie/taken/*/player", "capture/picker",
                 *under("log/*", _ROUND_PLAYERS), *under("last_round", _ROUND_PLAYERS), "scores/ranks/*/scorers/*")


def observe(state: State, player: int | None) -> dict:
    """What `player` may know (None: the public view, the only thing the screen draws).

    Hands are secret until a deal's end: the public sees counts, every card
    shown, played and taken, and at the end the holdings by rank.
    """
    n = state.players
    r, d = state.round, state.deal
    started = bool(r.order) or state.phase == "over"
    view: dict[str, Any] = {
        "game": NAME,
        "phase": state.phase,
        "players": n,
        "match": d.match,
        "target": TARGET if d.match else None,
        "deal": d.number,
        "dealer": d.dealer,
        "round": r.number,
        "rounds": ROUNDS[n],
        "first_player": r.first if started else None,
        "first_reason": r.reason if started else None,
        "order": list(r.order),
        "skipped": [p for p in clockwise(n, r.first) if p not in r.order] if r.order else [],
        "turn": turn(state),
        "registered": [len(h) for h in state.hands] if state.phase == "register" else None,
        "expected": HAND,
        "hand_counts": [hand_count(state, p) for p in range(n)],
        "pile": state.pile.count(1) if state.phase != "register" else CENTRE * ROUNDS[n],
        "centre": list(state.centre),
        "played": [[p, c] for p, c in state.played],
        "capture": _work_view(state.centre, r.work) if r.work is not None else None,
        "log": [_round_view(x) for x in r.log],
        "last_round": _round_view(r.last) if r.last is not None else None,
        "discards": len(r.discard),
        "totals": list(d.totals),
        "scores": _score_view(d.scores) if d.scores is not None else None,
        "history": [list(h) for h in d.history],
        "winners": list(d.winners),
    }
    if player is not None:
        view["seat"] = player
        view["hand"] = sorted(state.hands[player])
        view["loose"] = [{"rank": pool.rank, "count": pool.shares[player], "cards": sorted(pool.cards)}
                         for pool in state.pools if pool.shares[player]]
    return view


def _taken_view(t: Taken) -> dict:
    return {"player": t[0], "card": t[1], "rank": t[2], "how": t[3]}


def _step_view(s: Step, centre: list[str]) -> dict:
    return {"rank": s.rank, "players": list(s.players), "cards": list(s.cards), "tied": len(s.players) > 1,
            "rule": s.rule, "targets": list(s.targets), "taken": [_taken_view(t) for t in s.taken],
            "centre": centre}


def _work_view(shown: tuple[str, ...], w: Resolution) -> dict:
    """The capture so far while a tied player picks: the steps done, the tie, the centre now."""
    centres = centre_after(shown, w.steps)
    before = centres[-1] if centres else list(shown)
    picked = {t[1] for t in w.tie.taken}
    now = [c for c in before if c not in picked]
    return {"steps": [_step_view(s, c) for s, c in zip(w.steps, centres)], "tie": _step_view(w.tie, now),
            "picker": w.picker, "left": list(w.left)}


def _round_view(r: RoundLog) -> dict:
    took: dict[int, list[int]] = {}
    for step in r.steps:
        for t in step.taken:
            took.setdefault(t[0], []).append(t[2])
    return {
        "deal": r.deal, "round": r.round, "first": r.first, "reason": r.reason, "order": list(r.order),
        "skipped": list(r.skipped), "centre": list(r.centre), "played": [[p, c] for p, c in r.played],
        "steps": [_step_view(s, c) for s, c in zip(r.steps, centre_after(r.centre, r.steps))],
        "last_taker": r.last_taker, "discarded": list(r.discarded),
        "took": [[p, sorted(ranks)] for p, ranks in sorted(took.items())],
    }


def _score_view(s: DealScore) -> dict:
    return {
        "deal": s.deal,
        "ranks": [
            {"rank": r, "counts": [h[i] for h in s.holdings], "most": max(h[i] for h in s.holdings),
             "scorers": list(s.scorers[i]), "points": r if s.scorers[i] else 0}
            for i, r in enumerate(s.ranks)
        ],
        "holdings": [list(h) for h in s.holdings],
        "points": list(s.points),
    }
