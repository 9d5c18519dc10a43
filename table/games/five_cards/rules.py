"""Five Cards (Cinq cartes): a 2-player column race with the Pairs deck, to 100 points.

The rules are ../shared/rules/pairs-encheres.fr.md ("Cinq cartes") as settled
by RULINGS P4, PR-F1, PR-F2 and PR-F3; the package README records the table's
own readings. Nothing is secret: every card the table learns is public.

A round: cards are shown on the centre pad one at a time until five distinct
ranks lie there (a repeated rank is set aside and goes back into the deck);
the five targets, sorted low to high, head the columns 0-4. In round 1 the
table draws the first player. Then the active seat draws the top card, taps
it on its own pad and places it on its side of a column where its rank is not
yet (target, either side); with one such column the card goes there by
itself, with several the seat chooses with its buttons (a prompt). A card
with no column ends the round: each column's larger side sum takes the
target's rank, a tie (0 = 0 too) gives each half of it, rounded down.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from itertools import compress
from typing import Any, Mapping

from table.games.contract import GameInfo, Need, PadNeeds, Refusal, chance_need
from table.games.kit.evolve import evolver
from table.games.kit.ranked import RankedDeck

NAME = "five-cards"
PLAYERS = 2                                  # P4: "3 a 8" is a copy slip
COLUMNS = 5
GOAL = 100                                   # first to 100 or more at the end of a round (PR-F3)

# Any pads; Next and OK for the column prompt.
INFO = GameInfo(NAME, deck="pairs", players=range(PLAYERS, PLAYERS + 1),
                pads=PadNeeds(seat_pads=None, centre_pads=None, buttons=("next", "ok")))

make_deck = RankedDeck.from_data

# Why a round starts with its starter (the public view's "starter_reason").
DRAWN = "draw"                               # round 1: a table draw
SCORED_LESS = "scored_less"                  # P4: the player who scored less last round
EQUAL_ALTERNATE = "equal_alternate"          # PR-F2: equal scores, the one who did not start last round


# ---------------------------------------------------------------- actions

@dataclass(frozen=True, slots=True)
class Show:
    """Chance: during a round's setup, `card` is turned up and shown on the centre pad."""

    card: str


@dataclass(frozen=True, slots=True)
class DrawFirst:
    """Chance (a table draw, no card): `player` plays first in round 1."""

    player: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance shown by the active seat: `player` draws `card`, the top card of the deck, and taps it."""

    player: int
    card: str


@dataclass(frozen=True, slots=True)
class Place:
    """`player` puts the card just drawn on their side of `column` (0-4, targets low to high)."""

    player: int
    column: int


Action = Show | DrawFirst | Draw | Place
ACTIONS = (Show, DrawFirst, Draw, Place)


# ---------------------------------------------------------------- deck tables

@dataclass(frozen=True, slots=True)
class Tables:
    """The deck with what the hot paths need, built once per deck (`tables`)."""

    deck: RankedDeck
    rank: Mapping[str, int]
    order: tuple[str, ...]                   # every card, low rank to high, then by id
    index: Mapping[str, int]                 # a card's place in `order` (and in a State's `pile`)
    full: bytes                              # a pile holding every card
    shows: tuple[Show, ...]                  # in card order
    draws: tuple[tuple[Draw, ...], ...]      # per player, in card order
    places: tuple[tuple[Place, ...], ...]    # per player, per column
    firsts: tuple[DrawFirst, ...]
    turns: tuple[Need, ...]                  # per player: the Need of a column choice
    table_draw: Need                         # the Need of round 1's first-player draw


_TABLES: dict[int, Tables] = {}


def tables(deck: RankedDeck) -> Tables:
    """The tables of `deck`, cached by identity (a deck is built once per game kind)."""
    found = _TABLES.get(id(deck))
    if found is not None and found.deck is deck:
        return found
    order = tuple(sorted(deck.ranks, key=lambda c: (deck.ranks[c], c)))
    seats = range(PLAYERS)
    found = Tables(
        deck=deck, rank=dict(deck.ranks), order=order, index={c: i for i, c in enumerate(order)},
        full=b"\x01" * len(order), shows=tuple(Show(c) for c in order),
        draws=tuple(tuple(Draw(p, c) for c in order) for p in seats),
        places=tuple(tuple(Place(p, c) for c in range(COLUMNS)) for p in seats),
        firsts=tuple(DrawFirst(p) for p in seats),
        turns=tuple(Need(players=(p,)) for p in seats),
        table_draw=Need(chance=True, outcomes=tuple(str(p) for p in seats), by=None, table_draw=True),
    )
    _TABLES[id(deck)] = found
    return found


# ---------------------------------------------------------------- records

@dataclass(frozen=True, slots=True)
class Turn:
    """One draw of a round: who drew which card, and where it went.

    `how`: "chosen" (the seat picked the column), "auto" (the only legal column),
    "blocked" (no legal column: the card is set aside and the round ends; column None).
    """

    player: int
    card: str
    column: int | None
    how: str


@dataclass(frozen=True, slots=True)
class ColumnScore:
    """A column at the end of a round: its cards, side sums, who took the target, the points."""

    target: str
    rank: int
    sides: tuple[tuple[str, ...], ...]       # per player
    sums: tuple[int, ...]
    winner: int | None                       # None: a tie, the target is split (PR-F1)
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round: the card that ended it, each column's score, the round scores and the totals after."""

    round: int
    ender: Turn
    columns: tuple[ColumnScore, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Round:
    """A round's setup and who starts it: the cards shown on the centre pad and what each became."""

    number: int = 1
    starter: int | None = None               # None until the table draw (round 1)
    reason: str | None = None                # DRAWN, SCORED_LESS or EQUAL_ALTERNATE
    shown: tuple[str, ...] = ()              # the setup cards, in the order shown
    targets: tuple[str, ...] = ()            # low to high (distinct ranks)
    aside: tuple[str, ...] = ()              # setup cards of a rank already a target (back into the deck)


@dataclass(frozen=True, slots=True)
class Match:
    """The running score over the rounds."""

    totals: tuple[int, ...] = (0,) * PLAYERS
    result: RoundResult | None = None        # the last finished round
    history: tuple[tuple[int, ...], ...] = ()  # every finished round's scores
    winners: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class State:
    """The whole game as the table knows it (all of it public; `observe` lays it out)."""

    tables: Tables
    first: int                               # the seat that started the game (no role: the first player is drawn)
    phase: str = "setup"                     # setup, first, play, place, over
    round: Round = Round()
    match: Match = Match()
    pile: bytes = b""                        # the deck, one byte per card of tables.order, 1 while the card is in it:
                                             # not shown yet (setup), not on the table (play)
    sides: tuple[tuple[str, ...], ...] = ((),) * (2 * COLUMNS)   # sides[2 * column + player]
    sums: tuple[int, ...] = (0,) * (2 * COLUMNS)                 # sums[2 * column + player]
    masks: tuple[int, ...] = (0,) * COLUMNS  # ranks present in each column (target and both sides), as bits
    active: int | None = None
    drawn: str | None = None                 # the card waiting for its column (phase place)
    turns: tuple[Turn, ...] = ()             # this round's draws, in order

    @property
    def targets(self) -> tuple[str, ...]:
        return self.round.targets

    @property
    def totals(self) -> tuple[int, ...]:
        return self.match.totals

    @property
    def winners(self) -> tuple[int, ...]:
        return self.match.winners


_evolve = evolver(State)
(_set_tables, _set_first, _set_phase, _set_round, _set_match, _set_pile, _set_sides, _set_sums, _set_masks, _set_active,
 _set_drawn, _set_turns) = (getattr(State, f.name).__set__ for f in fields(State))
_new = object.__new__


def _make(tables: Tables, first: int, phase: str, round: Round, match: Match, pile: bytes, sides: tuple,
          sums: tuple, masks: tuple, active: int | None, drawn: str | None, turns: tuple) -> State:
    """A State from all its fields without the dataclass `__init__` or `_evolve`'s loop (it runs on every action)."""
    new = _new(State)
    _set_tables(new, tables)
    _set_first(new, first)
    _set_phase(new, phase)
    _set_round(new, round)
    _set_match(new, match)
    _set_pile(new, pile)
    _set_sides(new, sides)
    _set_sums(new, sums)
    _set_masks(new, masks)
    _set_active(new, active)
    _set_drawn(new, drawn)
    _set_turns(new, turns)
    return new


# ---------------------------------------------------------------- setup

def new_game(deck: RankedDeck, players: int, first: int = 0, options: Mapping[str, Any] | None = None) -> State:
    """A new game: round 1's setup, waiting for the first card shown. Five Cards has no options."""
    if players != PLAYERS:
        raise ValueError(f"Five Cards is for exactly {PLAYERS} players, not {players}")
    if not 0 <= first < players:
        raise ValueError(f"first seat {first} is not one of the {players} players")
    t = tables(deck)
    ranks = len(set(t.rank.values()))
    # Five targets need five ranks; a column holds each rank once, so at most 5 * (ranks - 1) cards are
    # ever placed: with more cards than that plus the targets, the deck never runs out (Pairs: 55 > 50).
    if ranks < COLUMNS or len(t.order) <= COLUMNS * ranks:
        raise ValueError(f"Five Cards needs at least {COLUMNS} ranks and more than {COLUMNS} cards a rank"
                         " on average")
    return State(tables=t, first=first, pile=t.full)



# ---------------------------------------------------------------- queries

def legal_columns(state: State, card: str) -> list[int]:
    """The columns `card` may go in: its rank is not there yet (target, either side)."""
    bit = 1 << state.tables.rank[card]
    return [c for c, mask in enumerate(state.masks) if not mask & bit]


def deck_cards(state: State) -> tuple[str, ...]:
    """The cards in the deck (the chance outcomes of a setup card or a draw), in card order."""
    return tuple(compress(state.tables.order, state.pile))


def in_deck(state: State, card: str) -> bool:
    """Whether `card` is in the deck (False for a card not of this game)."""
    i = state.tables.index.get(card)
    return i is not None and state.pile[i] == 1


def need(state: State) -> Need:
    phase = state.phase
    if phase == "play":
        return chance_need(deck_cards(state), state.active)
    if phase == "place":
        return state.tables.turns[state.active]
    if phase == "setup":
        return chance_need(deck_cards(state))
    if phase == "first":
        return state.tables.table_draw
    return Need()


def check(state: State, action: Action) -> Refusal | None:
    """None when the action is legal now, else why not."""
    phase = state.phase
    if phase == "over":
        return Refusal.of("game_over")
    match action:
        case Draw(player=player, card=card):
            if not isinstance(player, int) or not 0 <= player < PLAYERS:
                return Refusal.of("no_such_player", player=player)
            if phase == "place":
                return Refusal.of("choose_column_first" if player == state.active else "not_your_turn",
                                  player=player)
            if phase != "play":
                return Refusal.of("wait_for_targets", player=player)
            if player != state.active:
                return Refusal.of("not_your_turn", player=player)
            if card not in state.tables.rank:
                return Refusal.of("card_not_in_game", card=card, player=player)
            if not in_deck(state, card):
                return Refusal.of("card_on_table", card=card, player=player)
            return None
        case Place(player=player, column=column):
            if not isinstance(player, int) or not 0 <= player < PLAYERS:
                return Refusal.of("no_such_player", player=player)
            if phase != "place":
                return Refusal.of("not_now_place", player=player)
            if player != state.active:
                return Refusal.of("not_your_turn", player=player)
            if not isinstance(column, int) or not 0 <= column < COLUMNS:
                return Refusal.of("no_such_column", column=column, player=player)
            if state.masks[column] >> state.tables.rank[state.drawn] & 1:
                return Refusal.of("column_not_legal", column=column, player=player,
                                  target=state.tables.rank[state.targets[column]])
            return None
        case Show(card=card):
            if phase != "setup":
                return Refusal.of("not_now_show", card=card)
            if card not in state.tables.rank:
                return Refusal.of("card_not_in_game", card=card)
            if not in_deck(state, card):
                return Refusal.of("card_seen", card=card)
            return None
        case DrawFirst(player=player):
            if phase != "first":
                return Refusal.of("not_now_table_draw")
            if not isinstance(player, int) or not 0 <= player < PLAYERS:
                return Refusal.of("no_such_player", player=player)
            return None
    return Refusal.of("unknown_action")


def legal_actions(state: State) -> list[Action]:
    """Every legal action now, for the seat that must act (or every chance outcome)."""
    phase = state.phase
    t = state.tables
    if phase == "play":
        return list(compress(t.draws[state.active], state.pile))
    if phase == "place":
        bit = 1 << t.rank[state.drawn]
        places = t.places[state.active]
        return [places[c] for c, mask in enumerate(state.masks) if not mask & bit]
    if phase == "setup":
        return list(compress(t.shows, state.pile))
    if phase == "first":
        return list(t.firsts)
    return []


# ---------------------------------------------------------------- transitions

def apply(state: State, action: Action) -> State:
    """The state after a legal action (call `check` first: apply trusts its input)."""
    match action:
        case Draw(player=player, card=card):   # keyword patterns: positional ones cost a lookup of __match_args__
            pile = _take(state, card)
            bit = 1 << state.tables.rank[card]
            legal = [c for c, mask in enumerate(state.masks) if not mask & bit]
            if len(legal) == 1:
                return _place(state, player, card, legal[0], "auto", pile)
            if legal:
                return _make(state.tables, state.first, "place", state.round, state.match, pile, state.sides,
                             state.sums, state.masks, state.active, card, state.turns)
            return _end_round(state, Turn(player, card, None, "blocked"), pile)
        case Place(player=player, column=column):
            return _place(state, player, state.drawn, column, "chosen", state.pile)
        case Show(card=card):
            return _show(state, card)
        case DrawFirst(player=player):
            return _evolve(state, phase="play", active=player,
                           round=Round(1, player, DRAWN, *_setup(state.round)))
    raise TypeError(f"not a Five Cards action: {action!r}")


def _take(state: State, card: str) -> bytes:
    """The pile without `card`."""
    i = state.tables.index[card]
    pile = state.pile
    return pile[:i] + b"\x00" + pile[i + 1:]


def _place(state: State, player: int, card: str, column: int, how: str, pile: bytes) -> State:
    i = 2 * column + player
    sides, sums, masks = state.sides, state.sums, state.masks
    rank = state.tables.rank[card]
    return _make(
        state.tables, state.first, "play", state.round, state.match, pile,
        sides[:i] + (sides[i] + (card,),) + sides[i + 1:],
        sums[:i] + (sums[i] + rank,) + sums[i + 1:],
        masks[:column] + (masks[column] | 1 << rank,) + masks[column + 1:],
        1 - player, None, state.turns + (Turn(player, card, column, how),),
    )


def _setup(r: Round) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    return r.shown, r.targets, r.aside


def _show(state: State, card: str) -> State:
    """A setup card: a new rank joins the targets (kept low to high), a repeated rank is set aside."""
    rank = state.tables.rank
    r = state.round
    pile = _take(state, card)
    shown = r.shown + (card,)
    if rank[card] in map(rank.__getitem__, r.targets):
        r = Round(r.number, r.starter, r.reason, shown, r.targets, r.aside + (card,))
    else:
        targets = tuple(sorted(r.targets + (card,), key=rank.__getitem__))
        r = Round(r.number, r.starter, r.reason, shown, targets, r.aside)
        if len(targets) == COLUMNS:
            # Setup done: the set-aside cards go back into the deck.
            on_table = set(targets)
            phase, active = ("first", None) if r.number == 1 else ("play", r.starter)
            return _evolve(
                state, round=r, phase=phase, active=active,
                pile=bytes(c not in on_table for c in state.tables.order),
                masks=tuple(1 << rank[c] for c in targets),
            )
    return _make(state.tables, state.first, state.phase, r, state.match, pile, state.sides, state.sums, state.masks,
                 state.active, state.drawn, state.turns)


def score_column(rank: int, sums: tuple[int, ...]) -> tuple[int | None, tuple[int, ...]]:
    """(winner or None, points per player): the larger sum takes `rank`; a tie, 0 = 0 included, splits it
    rounded down (P4, PR-F1)."""
    a, b = sums
    if a > b:
        return 0, (rank, 0)
    if b > a:
        return 1, (0, rank)
    return None, (rank // 2, rank // 2)


def next_starter(scores: tuple[int, ...], last_starter: int) -> tuple[int, str]:
    """Who starts the next round and why: who scored less (P4); equal, who did not start this one (PR-F2)."""
    a, b = scores
    if a != b:
        return (0 if a < b else 1), SCORED_LESS
    return 1 - last_starter, EQUAL_ALTERNATE


def winners_of(totals: tuple[int, ...]) -> tuple[int, ...]:
    """The winners after a round: nobody below 100; else the highest total, equal totals share (PR-F3)."""
    top = max(totals)
    if top < GOAL:
        return ()
    return tuple(p for p, total in enumerate(totals) if total == top)


def _end_round(state: State, ender: Turn, pile: bytes) -> State:
    """Score the columns (the ender is set aside); the game ends, or a fresh round's setup begins."""
    rank = state.tables.rank
    columns = []
    for c, target in enumerate(state.targets):
        sums = state.sums[2 * c:2 * c + 2]
        winner, points = score_column(rank[target], sums)
        columns.append(ColumnScore(target, rank[target], state.sides[2 * c:2 * c + 2], sums, winner, points))
    scores = tuple(sum(col.points[p] for col in columns) for p in range(PLAYERS))
    totals = tuple(t + s for t, s in zip(state.totals, scores))
    result = RoundResult(state.round.number, ender, tuple(columns), scores, totals)
    history = state.match.history + (scores,)
    winners = winners_of(totals)
    if winners:
        return _evolve(state, phase="over", match=Match(totals, result, history, winners),
                       pile=pile, turns=state.turns + (ender,), drawn=None, active=None)
    starter, reason = next_starter(scores, state.round.starter)
    return State(tables=state.tables, first=state.first, round=Round(state.round.number + 1, starter, reason),
                 match=Match(totals, result, history), pile=state.tables.full)


# ---------------------------------------------------------------- views

# Where the public view names a player: by its index here, by its seat in `replay --json` (kit/seats.py).
NAMED_PLAYERS = ("first_seat", "starter", "active", "columns/*/leader", "last_draw/player", "turns/*/player",
                 "round_result/ender/player", "round_result/columns/*/winner")


def observe(state: State, player: int | None) -> dict:
    """What `player` may know (None: the public view). Nothing is secret: a seat's view adds only "seat"."""
    rank = state.tables.rank
    columns = []
    for c, target in enumerate(state.targets):
        sides = state.sides[2 * c:2 * c + 2]
        sums = list(state.sums[2 * c:2 * c + 2])
        columns.append({
            "column": c, "target": target, "rank": rank[target],
            "sides": [list(s) for s in sides], "ranks": [[rank[x] for x in s] for s in sides],
            "sums": sums, "leader": None if sums[0] == sums[1] else int(sums[1] > sums[0]),
        })
    targets_by_rank = {rank[c]: c for c in state.targets}
    setup_done = state.phase != "setup"
    shown = []
    r, m = state.round, state.match
    for card in r.shown:
        aside = card in r.aside
        shown.append({"card": card, "rank": rank[card], "role": "aside" if aside else "target",
                      "duplicate_of": targets_by_rank[rank[card]] if aside else None})
    pending = state.drawn
    legal = legal_columns(state, pending) if pending is not None else []
    last = state.turns[-1] if state.turns else None
    if pending is not None:
        last_draw = {"player": state.active, "card": pending, "rank": rank[pending], "column": None,
                     "how": "pending"}
    elif last is not None:
        last_draw = _turn_view(last, rank)
    elif m.result is not None and state.phase == "setup":
        last_draw = _turn_view(m.result.ender, rank)
    else:
        last_draw = None
    view: dict[str, Any] = {
        "game": NAME,
        "phase": state.phase,
        "players": PLAYERS,
        "first_seat": state.first,
        "round": r.number,
        "goal": GOAL,
        "totals": list(state.totals),
        "winners": list(state.winners),
        "history": [list(h) for h in m.history],
        "starter": r.starter,
        "starter_reason": r.reason,
        "active": state.active,
        "setup": {
            "shown": shown,
            "last": shown[-1] if shown else None,
            "aside": list(r.aside),
            "targets_needed": COLUMNS - len(state.targets),
            "done": setup_done,
            "aside_back_to_deck": setup_done and bool(r.aside),
        },
        "targets": list(state.targets),
        "target_ranks": [rank[c] for c in state.targets],
        "columns": columns,
        "deck_count": state.pile.count(1) if setup_done else None,
        "drawn": pending,
        "legal_columns": legal,
        "last_draw": last_draw,
        "turns": [_turn_view(t, rank) for t in state.turns],
        "round_result": _result_view(m.result, rank) if m.result is not None else None,
    }
    if player is not None:
        view["seat"] = player
    return view


def _turn_view(turn: Turn, rank: Mapping[str, int]) -> dict:
    return {"player": turn.player, "card": turn.card, "rank": rank[turn.card], "column": turn.column,
            "how": turn.how}


def _result_view(r: RoundResult, rank: Mapping[str, int]) -> dict:
    return {
        "round": r.round,
        "ender": _turn_view(r.ender, rank),
        "columns": [{
            "column": c, "target": col.target, "rank": col.rank, "sides": [list(s) for s in col.sides],
            "sums": list(col.sums), "winner": col.winner, "split": col.winner is None,
            "points": list(col.points),
        } for c, col in enumerate(r.columns)],
        "scores": list(r.scores),
        "totals": list(r.totals),
    }
