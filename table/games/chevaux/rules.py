"""Chevaux: a battle of horse cards for 2 to 8 players; the best value on a characteristic takes the round.

The rules are ../shared/rules/chevaux.fr.txt as settled by RULINGS C1-C4 and
PR-C1..PR-C4; ../shared/games/TABLE-PROTOCOLS.md section 2 says how the table
plays it, and the package README records the readings taken.

The deal is physical: each player gets the same number of cards, face down in
a stack nobody reads; the leftover cards are set aside unseen (PR-C3). A round:
the leader reveals (taps) the top card of their stack and chooses a
characteristic; the walk goes clockwise from the chooser's left back to the
chooser: each seat reveals its top card when the walk reaches it, and a seat
whose card is rarer than the chooser's may switch to another characteristic,
becoming the chooser, and the walk starts again from its left (C2, PR-C4).
Then the best value on the final characteristic wins; a tie goes to the rarer
card, then to re-draws among the tied players only (C3, PR-C1). The winner takes
every card revealed in the round and leads the next one; a player with no card
is out. The game ends when one player holds every dealt card, or after the round
in progress when the time limit is reached (PR-C2): the most cards wins, ties
share (C4).

The table never knows a stack's order. It knows each player's count, and which
cards are in a stack because that player won them (until they come up again):
a card revealed must be one that player may hold. Time enters as an action
(`TimeUp`), which the table journals at the limit: the engine stays pure.

Players are numbered clockwise.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from itertools import compress, filterfalse
from typing import Any, Mapping

from table.games.contract import GameInfo, Need, Option, PadNeeds, Refusal
from table.games.kit.evolve import evolver
from table.games.kit.seats import under

NAME = "chevaux"
MIN_PLAYERS, MAX_PLAYERS = 2, 8
RARITIES = (1, 2, 3, 4)                        # green < yellow < orange < red (C1)
MINUTES = (15, 20, 30, 45, 60, 0, 5, 10)       # the time limit option, in minutes; 0: no limit (C4: 15)

INFO = GameInfo(NAME, deck="chevaux", players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
                options=(Option("time_limit", 15, MINUTES),),
                pads=PadNeeds(seat_pads=None, centre_pads=None, buttons=("next", "ok")))

UNSEEN = 0                                     # where[card]: never seen (in some stack, or set aside)
ON_TABLE = 255                                 # where[card]: revealed in the round in progress
# where[card] == p + 1: in player p's stack, won by p and not revealed since
_ON_TABLE = bytes((ON_TABLE,))
_IN_STACK = tuple(bytes((p + 1,)) for p in range(MAX_PLAYERS))

# How a round was won (a round record's `how`).
BY_VALUE = "value"                             # the best value alone
BY_RARITY = "rarity"                           # tied on the value, the rarest card
BY_REDRAW = "redraw"                           # tied on value and rarity: a re-draw's rarest card
BY_NO_CARD = "no_card"                         # the other tied players had no card to re-draw (PR-C1)
BY_FIRST = "first"                             # no tied player could re-draw: the first clockwise from the leader

# Why the game ended (the public view's `ended`).
ALL_CARDS = "all_cards"
TIME = "time"


# ---------------------------------------------------------------- the deck

@dataclass(frozen=True, slots=True)
class Trait:
    """A characteristic printed on every card: its key (texts `trait_KEY`), its unit, and which way wins."""

    key: str
    unit: str
    higher: bool                               # higher wins; False: lower wins (an older date of appearance)


@dataclass(frozen=True, slots=True)
class Deck:
    """The horses: each card's rarity (1-4) and its value on each characteristic, in `traits` order."""

    cards: tuple[str, ...]
    rarity: Mapping[str, int]
    values: Mapping[str, tuple[int | float, ...]]
    traits: tuple[Trait, ...]


def make_deck(data: Mapping[str, Any]) -> Deck:
    """The deck from its file (assets/decks/chevaux.toml); ValueError names what does not fit."""
    wins = {"higher": True, "lower": False}
    traits = tuple(Trait(t["key"], t["unit"], wins[t["wins"]]) for t in data["traits"])
    rarity, values = {}, {}
    for row in data["cards"]:
        card = row["id"]
        if card in rarity or row.get("rarity") not in RARITIES:
            raise ValueError(f"chevaux deck: card {card!r} is repeated or has no rarity 1-4")
        numbers = tuple(row.get(t.key) for t in traits)
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in numbers):
            raise ValueError(f"chevaux deck: card {card!r} needs a number for each of {[t.key for t in traits]}")
        rarity[card], values[card] = row["rarity"], numbers
    return Deck(tuple(rarity), rarity, values, traits)


# ---------------------------------------------------------------- actions

@dataclass(frozen=True, slots=True)
class Reveal:
    """`player` taps the top card of their stack, `card`, on their own pad (the leader's, a seat's on the walk,
    or a tied seat's re-draw)."""

    player: int
    card: str


@dataclass(frozen=True, slots=True)
class Choose:
    """The leader picks characteristic `trait` (its index in the deck's traits) with the seat prompt."""

    player: int
    trait: int


@dataclass(frozen=True, slots=True)
class Switch:
    """`player`, whose card is rarer than the chooser's, switches to characteristic `trait` and becomes the chooser."""

    player: int
    trait: int


@dataclass(frozen=True, slots=True)
class Keep:
    """`player`, who may switch, keeps the current characteristic."""

    player: int


@dataclass(frozen=True, slots=True)
class TimeUp:
    """The table's clock reached the time limit (journaled by the table, never a player's act)."""


Action = Reveal | Choose | Switch | Keep | TimeUp
ACTIONS = (Reveal, Choose, Switch, Keep, TimeUp)


def time_up() -> TimeUp:
    """The action the table journals when the play time reaches the limit."""
    return TimeUp()


# ---------------------------------------------------------------- deck tables

@dataclass(frozen=True, slots=True)
class Tables:
    """The deck laid out for the hot paths, built once per deck and player count (`tables`)."""

    deck: Deck
    players: int
    hand: int                                  # cards dealt to each player (PR-C3: the rest set aside)
    index: Mapping[str, int]                   # a card's place in deck.cards (and in a State's `where`)
    rarity: tuple[int, ...]                    # by place
    scores: tuple[tuple[float, ...], ...]      # per trait, by place: the larger the better (a date negated)
    reveals: tuple[tuple[Reveal, ...], ...]    # per player, by place
    known: tuple[bytes, ...]                   # per player: `where` translated to 1 where a card is in its stack
    known_or_unseen: tuple[bytes, ...]         # ... or never seen
    turns: tuple[Need, ...]                    # per player: its turn
    chooses: tuple[tuple[Choose, ...], ...]    # per player, per trait
    switches: tuple[tuple[Switch, ...], ...]   # per player, per trait
    keeps: tuple[Keep, ...]                    # per player
    nobody: tuple[None, ...]                   # per player: no card revealed yet
    rounds: dict                               # (leader, who has cards) -> the Round that starts, as met


_TABLES: dict[tuple[int, int], Tables] = {}


def tables(deck: Deck, players: int) -> Tables:
    """The tables of `deck` for `players`, cached (a deck is built once per game kind)."""
    found = _TABLES.get((id(deck), players))
    if found is not None and found.deck is deck:
        return found
    seats = range(players)
    cards = deck.cards
    found = Tables(
        deck=deck, players=players, hand=len(cards) // players, index={c: i for i, c in enumerate(cards)},
        rarity=tuple(deck.rarity[c] for c in cards),
        scores=tuple(tuple(deck.values[c][k] if t.higher else -deck.values[c][k] for c in cards)
                     for k, t in enumerate(deck.traits)),
        reveals=tuple(tuple(Reveal(p, c) for c in cards) for p in seats),
        known=tuple(bytes(int(w == p + 1) for w in range(256)) for p in seats),
        known_or_unseen=tuple(bytes(int(w in (UNSEEN, p + 1)) for w in range(256)) for p in seats),
        turns=tuple(Need(players=(p,)) for p in seats),
        chooses=tuple(tuple(Choose(p, k) for k in range(len(deck.traits))) for p in seats),
        switches=tuple(tuple(Switch(p, k) for k in range(len(deck.traits))) for p in seats),
        keeps=tuple(Keep(p) for p in seats),
        nobody=(None,) * players, rounds={},
    )
    _TABLES[id(deck), players] = found
    return found


# ---------------------------------------------------------------- state

@dataclass(frozen=True, slots=True)
class Tie:
    """A tie on the best value: who tied, who of them had the rarest card, and the re-draws among those.

    `steps`: each re-draw, the (player, card) revealed in the order they came; `pending`: who still must
    re-draw in the last step; `no_card`: tied players who lost the tie-break for want of a card (PR-C1).
    """

    value: tuple[int, ...]
    rarity: tuple[int, ...]
    steps: tuple[tuple[tuple[int, str], ...], ...] = ()
    pending: tuple[int, ...] = ()
    no_card: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Round:
    """A round's walk: who plays it, the chooser and the characteristic, every choice, the tie-break.

    A round not yet chosen (`_new_round`) keeps in `chosen` itself once its leader chose each characteristic,
    made with it: a choice builds no Round."""

    leader: int
    playing: tuple[int, ...]                   # the players with cards at its start, clockwise from the leader
    after: tuple[int, ...]                     # after[p]: the next playing player clockwise (-1: not playing)
    chooser: int
    trait: int                                 # the current characteristic (-1: the leader has not chosen)
    chain: tuple[tuple[int, int], ...]         # (player, trait): the leader's choice, then each switch
    tie: Tie | None
    chosen: tuple[Round, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Result:
    """A finished round: its walk and cards, who won it how, the counts after it and who went out; and the
    round as views show it, kept once built (`_result_view`)."""

    round: Round
    cards: tuple[str | None, ...]
    pot: tuple[str, ...]
    winner: int
    how: str
    counts: tuple[int, ...]
    out: tuple[int, ...]
    view: dict | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class State:
    """The whole game as the table knows it (`observe` says who may see what)."""

    tables: Tables
    first: int                                 # the youngest player, who leads round 1
    minutes: int                               # the time limit option (0: none)
    phase: str                                 # reveal, choose, switch, redraw, over
    at: int                                    # the player the walk waits for (reveal, choose, switch; else -1)
    counts: tuple[int, ...]                    # cards in each stack
    where: bytes                               # per card place: UNSEEN, ON_TABLE, or p + 1 (in p's stack)
    cards: tuple[str | None, ...]              # per player: the card it revealed on this round's walk (or None)
    pot: tuple[str, ...]                       # every card revealed this round, in order (re-draws included)
    round: Round
    results: tuple[Result, ...] = ()
    time_up: bool = False
    ended: str | None = None                   # ALL_CARDS or TIME once over
    winners: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return self.tables.players


_evolve = evolver(State)
_new = object.__new__
(_set_tables, _set_first, _set_minutes, _set_phase, _set_at, _set_counts, _set_where, _set_cards, _set_pot,
 _set_round, _set_results, _set_time_up, _set_ended, _set_winners) = (getattr(State, f.name).__set__
                                                                      for f in fields(State))


def _make(state: State, phase: str, at: int, counts: tuple[int, ...], where: bytes, cards: tuple[str | None, ...],
          pot: tuple[str, ...], r: Round, results: tuple[Result, ...]) -> State:
    """`state` with what an action changes, built with the slot setters rather than `_evolve` or the dataclass's
    `__init__` (it runs on every action)."""
    new = _new(State)
    _set_tables(new, state.tables)
    _set_first(new, state.first)
    _set_minutes(new, state.minutes)
    _set_phase(new, phase)
    _set_at(new, at)
    _set_counts(new, counts)
    _set_where(new, where)
    _set_cards(new, cards)
    _set_pot(new, pot)
    _set_round(new, r)
    _set_results(new, results)
    _set_time_up(new, state.time_up)
    _set_ended(new, state.ended)
    _set_winners(new, state.winners)
    return new


def new_game(deck: Deck, players: int, first: int = 0, options: Mapping[str, Any] | None = None) -> State:
    """Every player dealt ⌊D/N⌋ cards (PR-C3); `first` (the youngest) leads round 1. Option `time_limit`
    in minutes (0: none)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Chevaux is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    if not 0 <= first < players:
        raise ValueError(f"first seat {first} is not one of the {players} players")
    minutes = (options or {}).get("time_limit", INFO.defaults()["time_limit"])
    if minutes not in MINUTES:
        raise ValueError(f"Chevaux has no time limit of {minutes!r} minutes")
    t = tables(deck, players)
    if t.hand < 1:
        raise ValueError(f"a Chevaux deck of {len(deck.cards)} cards is too small for {players} players")
    counts = (t.hand,) * players
    return State(tables=t, first=first, minutes=minutes, phase="reveal", at=first, counts=counts,
                 where=bytes(len(deck.cards)), cards=t.nobody, pot=(), round=_new_round(t, first, counts))


def _new_round(t: Tables, leader: int, counts: tuple[int, ...]) -> Round:
    """A round led by `leader`, played by everyone with cards (one Round per leader and set of players, made
    when first met)."""
    key = (leader, tuple(map(bool, counts)))
    found = t.rounds.get(key)
    if found is None:
        n = t.players
        playing = tuple(p for p in ((leader + i) % n for i in range(n)) if counts[p])
        after = [-1] * n
        for i, p in enumerate(playing):
            after[p] = playing[(i + 1) % len(playing)]
        after = tuple(after)
        chosen = tuple(Round(leader, playing, after, leader, k, ((leader, k),), None) for k in range(len(t.scores)))
        found = t.rounds[key] = Round(leader, playing, after, leader, -1, (), None, chosen)
    return found


# ---------------------------------------------------------------- queries

def time_limit(state: State) -> float | None:
    """The play time the game allows, in seconds; None with no limit, once over or once the time is up."""
    if not state.minutes or state.time_up or state.phase == "over":
        return None
    return 60.0 * state.minutes


def need(state: State) -> Need:
    """The seat the walk waits for (a reveal, the choice, a switch), the tied seats still to re-draw (all of
    them, in any order), or nothing once over."""
    phase = state.phase
    if phase == "redraw":
        return Need(players=state.round.tie.pending)
    if phase == "over":
        return Need()
    return state.tables.turns[state.at]


def check(state: State, action: Action) -> Refusal | None:
    """None when the action is legal now, else why not."""
    phase = state.phase
    if phase == "over":
        return Refusal.of("game_over")
    match action:
        case Reveal(player=player, card=card):
            if not isinstance(player, int) or not 0 <= player < state.players:
                return Refusal.of("no_such_player", player=player)
            if phase == "redraw":
                if player not in state.round.tie.pending:
                    drawn = {p for p, _ in state.round.tie.steps[-1]}
                    return Refusal.of("already_redrawn" if player in drawn else "not_your_turn", player=player)
            elif player != state.at:
                return Refusal.of("not_your_turn", player=player)
            elif phase != "reveal":
                return Refusal.of("choose_first" if phase == "choose" else "switch_or_keep_first", player=player)
            return _card_refusal(state, player, card)
        case Choose(player=player, trait=trait):
            if phase != "choose" or player != state.at:
                return Refusal.of("not_now_choose", player=player)
            return _trait_refusal(state, trait, player)
        case Switch(player=player, trait=trait):
            if phase != "switch" or player != state.at:
                return Refusal.of("not_now_switch", player=player)
            if trait == state.round.trait:
                return Refusal.of("same_trait", player=player)
            return _trait_refusal(state, trait, player)
        case Keep(player=player):
            if phase != "switch" or player != state.at:
                return Refusal.of("not_now_switch", player=player)
            return None
        case TimeUp():
            return None if time_limit(state) is not None else Refusal.of("no_clock")
    return Refusal.of("unknown_action")


def _card_refusal(state: State, player: int, card: str) -> Refusal | None:
    """Why `player` cannot have `card` on top of their stack, as far as the table knows."""
    i = state.tables.index.get(card)
    if i is None:
        return Refusal.of("card_not_in_game", card=card, player=player)
    where = state.where[i]
    if where == ON_TABLE:
        return Refusal.of("card_revealed", card=card, player=player)
    if where == UNSEEN:
        if state.counts[player] == state.where.count(player + 1):
            return Refusal.of("card_not_in_stack", card=card, player=player)
        return None
    return None if where == player + 1 else Refusal.of("card_in_other_stack", card=card, player=player)


def _trait_refusal(state: State, trait: int, player: int) -> Refusal | None:
    if not isinstance(trait, int) or not 0 <= trait < len(state.tables.deck.traits):
        return Refusal.of("no_such_trait", player=player)
    return None


def legal_actions(state: State) -> list[Action]:
    """Every legal action now, of every player `need` lists (never `TimeUp`: that is the table's)."""
    phase = state.phase
    t = state.tables
    if phase == "reveal":
        return _reveals(state, state.at)
    if phase == "choose":
        return list(t.chooses[state.at])
    if phase == "switch":
        p, trait = state.at, state.round.trait
        return [t.keeps[p], *(s for k, s in enumerate(t.switches[p]) if k != trait)]
    if phase == "redraw":
        return [a for p in state.round.tie.pending for a in _reveals(state, p)]
    return []


def _reveals(state: State, player: int) -> list[Reveal]:
    """`player`'s reveals of the cards it may hold as far as the table knows: those it won and has not revealed
    since, and, while its stack holds cards the table has not seen, every card never seen."""
    t = state.tables
    where = state.where
    mask = t.known_or_unseen[player] if state.counts[player] > where.count(player + 1) else t.known[player]
    return list(compress(t.reveals[player], where.translate(mask)))


# ---------------------------------------------------------------- transitions

def apply(state: State, action: Action) -> State:
    """The state after a legal action (call `check` first: apply trusts its input)."""
    match action:   # keyword patterns: positional ones cost a lookup of __match_args__
        case Reveal(player=player, card=card):
            return _reveal(state, player, card)
        case Choose(trait=trait):
            r = state.round
            return _walk(state, r.chosen[trait], r.leader, state.counts, state.where, state.cards, state.pot)
        case Keep(player=player):
            return _walk(state, state.round, player, state.counts, state.where, state.cards, state.pot)
        case Switch(player=player, trait=trait):
            r = state.round
            return _walk(state, Round(r.leader, r.playing, r.after, player, trait, r.chain + ((player, trait),), None),
                         player, state.counts, state.where, state.cards, state.pot)
        case TimeUp():
            if state.pot:
                return _evolve(state, time_up=True)      # PR-C2: the round in progress is finished first
            return _over(_evolve(state, time_up=True), state.counts, TIME)
    raise TypeError(f"not a Chevaux action: {action!r}")


def _reveal(state: State, player: int, card: str) -> State:
    """`card` leaves `player`'s stack for the table: a re-draw, the leader's card (it chooses next), or a card
    on the walk (its seat may switch when rarer than the chooser's, else the walk goes on)."""
    t = state.tables
    i = t.index[card]
    where = state.where
    where = where[:i] + _ON_TABLE + where[i + 1:]
    counts = list(state.counts)
    counts[player] -= 1
    counts = tuple(counts)
    pot = state.pot + (card,)
    r = state.round
    if state.phase == "redraw":
        tie = r.tie
        step = tie.steps[-1] + ((player, card),)
        tie = Tie(tie.value, tie.rarity, tie.steps[:-1] + (step,), tuple(p for p in tie.pending if p != player),
                  tie.no_card)
        r = Round(r.leader, r.playing, r.after, r.chooser, r.trait, r.chain, tie)
        if tie.pending:
            return _make(state, "redraw", -1, counts, where, state.cards, pot, r, state.results)
        return _after_redraw(state, r, step, counts, where, pot)
    cards = list(state.cards)
    cards[player] = card
    cards = tuple(cards)
    if r.trait < 0:
        return _make(state, "choose", player, counts, where, cards, pot, r, state.results)
    if t.rarity[i] > t.rarity[t.index[cards[r.chooser]]]:
        return _make(state, "switch", player, counts, where, cards, pot, r, state.results)
    return _walk(state, r, player, counts, where, cards, pot)


def _walk(state: State, r: Round, seat: int, counts: tuple[int, ...], where: bytes, cards: tuple[str | None, ...],
          pot: tuple[str, ...]) -> State:
    """Go on with the walk after `seat`: the next seat reveals, or may switch (rarer than the chooser's card);
    back at the chooser, the round is decided."""
    t = state.tables
    rarity, index = t.rarity, t.index
    rare = rarity[index[cards[r.chooser]]]
    while True:
        seat = r.after[seat]
        if seat == r.chooser:
            return _decide(state, r, counts, where, cards, pot)
        card = cards[seat]
        if card is None:
            return _make(state, "reveal", seat, counts, where, cards, pot, r, state.results)
        if rarity[index[card]] > rare:
            return _make(state, "switch", seat, counts, where, cards, pot, r, state.results)


def _decide(state: State, r: Round, counts: tuple[int, ...], where: bytes, cards: tuple[str | None, ...],
            pot: tuple[str, ...]) -> State:
    """The best value on the final characteristic wins; a tie goes to the rarest card, then to re-draws (C3)."""
    t = state.tables
    scores = t.scores[r.trait]
    index = t.index
    playing = r.playing
    values = [scores[index[cards[p]]] for p in playing]
    best = max(values)
    if values.count(best) == 1:
        return _end_round(state, r, cards, pot, playing[values.index(best)], BY_VALUE, counts, where)
    top = tuple(p for p, value in zip(playing, values) if value == best)
    rarest = max(t.rarity[index[cards[p]]] for p in top)
    tied = tuple(p for p in top if t.rarity[index[cards[p]]] == rarest)
    tie = Tie(top, tied)
    if len(tied) == 1:
        return _end_round(state, _with_tie(r, tie), cards, pot, tied[0], BY_RARITY, counts, where)
    return _tie_break(_make(state, "redraw", -1, counts, where, cards, pot, r, state.results), tie, tied)


def _with_tie(r: Round, tie: Tie) -> Round:
    """Round `r` with its tie-break as it now stands."""
    return Round(r.leader, r.playing, r.after, r.chooser, r.trait, r.chain, tie)


def _tie_break(state: State, tie: Tie, tied: tuple[int, ...]) -> State:
    """The `tied` players (clockwise from the leader) re-draw; one with no card left loses (PR-C1). `state` holds
    the round so far: its cards, counts and knowledge."""
    r, counts = state.round, state.counts
    able = tuple(p for p in tied if counts[p])
    tie = Tie(tie.value, tie.rarity, tie.steps, no_card=tie.no_card + tuple(p for p in tied if p not in able))
    if not able:
        return _end_round(state, _with_tie(r, tie), state.cards, state.pot, tied[0], BY_FIRST, counts, state.where)
    if len(able) == 1:
        return _end_round(state, _with_tie(r, tie), state.cards, state.pot, able[0], BY_NO_CARD, counts,
                          state.where)
    tie = Tie(tie.value, tie.rarity, tie.steps + ((),), able, tie.no_card)
    return _make(state, "redraw", -1, counts, state.where, state.cards, state.pot, _with_tie(r, tie), state.results)


def _after_redraw(state: State, r: Round, step: tuple[tuple[int, str], ...], counts: tuple[int, ...],
                  where: bytes, pot: tuple[str, ...]) -> State:
    """Every tied player has re-drawn: the rarest card wins; a tie again re-draws again."""
    t = state.tables
    rarity = {p: t.rarity[t.index[card]] for p, card in step}
    rarest = max(rarity.values())
    tied = tuple(p for p in r.playing if rarity.get(p) == rarest)
    if len(tied) == 1:
        return _end_round(state, r, state.cards, pot, tied[0], BY_REDRAW, counts, where)
    return _tie_break(_make(state, "redraw", -1, counts, where, state.cards, pot, r, state.results), r.tie, tied)


def _end_round(state: State, r: Round, cards: tuple[str | None, ...], pot: tuple[str, ...], winner: int, how: str,
               counts: tuple[int, ...], where: bytes) -> State:
    """The winner takes every card revealed this round (under its stack) and leads the next round; the game
    ends when it holds every dealt card, or now if the time is up (PR-C2)."""
    t = state.tables
    counts = counts[:winner] + (counts[winner] + len(pot),) + counts[winner + 1:]
    where = where.replace(_ON_TABLE, _IN_STACK[winner])   # the cards on the table are the pot's
    out = tuple(filterfalse(counts.__getitem__, r.playing))
    results = state.results + (Result(r, cards, pot, winner, how, counts, out),)
    if counts[winner] == t.hand * t.players or state.time_up:
        state = _make(state, "over", -1, counts, where, t.nobody, (), r, results)
        return _over(state, counts, ALL_CARDS if counts[winner] == t.hand * t.players else TIME)
    return _make(state, "reveal", winner, counts, where, t.nobody, (), _new_round(t, winner, counts), results)


def _over(state: State, counts: tuple[int, ...], why: str) -> State:
    """The end: the most cards wins, ties share (C4)."""
    top = max(counts)
    return _evolve(state, phase="over", at=-1, ended=why, winners=tuple(p for p, c in enumerate(counts) if c == top))


# ---------------------------------------------------------------- views

# Where the public view names a player: by its index here, by its seat in `replay --json` (kit/seats.py).
_ROUND_PLAYERS = ("leader", "chooser", "chain/*/player", "playing/*", "tie/value/*", "tie/rarity/*",
                  "tie/steps/*/*/player", "tie/pending/*", "tie/no_card/*")
NAMED_PLAYERS = ("first_seat", "out/*", "at", *under("current", _ROUND_PLAYERS),
                 *under("rounds/*", (*_ROUND_PLAYERS, "winner", "out/*")),
                 *under("last_round", (*_ROUND_PLAYERS, "winner", "out/*")))


def observe(state: State, player: int | None) -> dict:
    """What `player` may know (None: the public view, the only thing the screen, logs and replay see).

    A revealed card is public only by its rarity and its value on the current characteristic (a finished
    round's: on its final one); never its name nor its other values. Stacks are never known. A seat's own
    view adds its revealed card in full (`mine`).
    """
    t = state.tables
    deck = t.deck
    results = state.results
    view: dict[str, Any] = {
        "game": NAME,
        "phase": state.phase,
        "players": t.players,
        "first_seat": state.first,
        "options": {"time_limit": state.minutes},
        "time_up": state.time_up,
        "ended": state.ended,
        "dealt": t.hand,
        "aside": len(deck.cards) - t.hand * t.players,
        "totals": list(state.counts),
        "out": [p for p, c in enumerate(state.counts) if not c],
        "winners": list(state.winners),
        "traits": [{"key": trait.key, "unit": trait.unit, "wins": "higher" if trait.higher else "lower"}
                   for trait in deck.traits],
        "round": len(results) + (state.phase != "over"),
        "at": None if state.at < 0 else state.at,
        "current": None if state.phase == "over" else _round_view(state, state.round, state.cards, state.pot),
        "rounds": [result.view or _result_view(state, n, result) for n, result in enumerate(results, 1)],
    }
    view["last_round"] = view["rounds"][-1] if results else None
    if player is not None:
        card = state.cards[player]
        view["seat"] = player
        view["mine"] = None if card is None else {
            "card": card, "rarity": deck.rarity[card],
            "values": {trait.key: v for trait, v in zip(deck.traits, deck.values[card])}}
    return view


def _round_view(state: State, r: Round, cards: tuple[str | None, ...], pot: tuple[str, ...]) -> dict:
    """A round as everyone saw it: the chooser, the characteristic and its choices, each seat's rarity and
    value on it, the tie-break."""
    deck = state.tables.deck
    rarity = deck.rarity
    trait = r.trait

    def shown(card: str | None) -> dict:
        return {"revealed": card is not None, "rarity": rarity.get(card),
                "value": None if card is None or trait < 0 else deck.values[card][trait]}

    tie = r.tie
    return {
        "leader": r.leader,
        "chooser": r.chooser,
        "trait": None if trait < 0 else deck.traits[trait].key,
        "chain": [{"player": p, "trait": deck.traits[k].key} for p, k in r.chain],
        "playing": list(r.playing),
        "seats": [{"playing": p in r.playing, **shown(card)} for p, card in enumerate(cards)],
        "pot": len(pot),
        "tie": None if tie is None else {
            "value": list(tie.value), "rarity": list(tie.rarity),
            "steps": [[{"player": p, "rarity": rarity[card]} for p, card in step] for step in tie.steps],
            "pending": list(tie.pending), "no_card": list(tie.no_card)},
    }


def _result_view(state: State, number: int, result: Result) -> dict:
    """Finished round `number` as views show it, built when first asked for and kept in `result`: a view
    shows every finished round, and the table asks for views several times per input (views are read, never
    changed)."""
    view = {"round": number, **_round_view(state, result.round, result.cards, result.pot), "winner": result.winner,
            "how": result.how, "taken": len(result.pot), "counts": list(result.counts), "out": list(result.out)}
    object.__setattr__(result, "view", view)   # a cache: the result compares and prints without it
    return view
