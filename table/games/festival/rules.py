"""Festival (Shinsuke Yamagami): a drafting game for 4 or 5 players, gold for the most stars per profession.

The rules are ../shared/rules/festival.fr.txt as settled by RULINGS V1-V4 and
PR-V1..PR-V3; ../shared/games/TABLE-PROTOCOLS.md section 4 says how the table
plays it, and the package README records the readings taken.

A turn (X players): the first player draws X + 1 cards and taps each on their
own pad (the packet: private, the table learns it). They tap the card they
keep and lay it face up or face down (the seat prompt, or the pad it lands on
at a multi-pad seat), then hand the rest to a seat that has not chosen this
turn; from turn 2 the seats that played face up last turn are served first
(V2). The table learns who received the packet from that seat's tap of the
card it keeps. The last seat gets two cards, keeps one and discards the other
unseen. The next first player played the lowest face-up number this turn, the
later one on equal numbers, the first player aside; nobody: the first player
stays (V3). When the pile is empty (10 turns; the simplified game 6 or 5,
PR-V1) every face-down card is turned over and gold is counted (V4).

Players are numbered clockwise.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from itertools import compress
from typing import Any, Mapping, Sequence

from table.games.contract import GameInfo, Need, Option, PadNeeds, Refusal, chance_need

NAME = "festival"
MIN_PLAYERS = 4
MAX_PLAYERS = 5
OUT_AT_FOUR = 8                              # the number taken out at 4 players (V1)
SIMPLE = range(1, 6)                         # the simplified game's numbers (V1)
MOST, SECOND, TIED_MOST, TIED_SECOND = 6, 3, 4, 1   # gold per profession (V4)
SETS = {3: 3, 4: 6, 5: 10}                   # gold for 3, 4, 5 professions held (V4)

# Any pads (a multi-pad seat: its first pad face down, any other face up); Next and OK for the face prompt.
INFO = GameInfo(NAME, deck="festival", players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
                options=(Option("simplified", False, (False, True)),),
                pads=PadNeeds(seat_pads=None, centre_pads=None, buttons=("next", "ok")))

# Why the next first player is who it is (V3).
LOWEST = "lowest"                            # the lowest face-up number
LATER = "later"                              # the lowest, played later than an equal one
STAYS = "stays"                              # nobody but the first player played face up


# ---------------------------------------------------------------- the deck

@dataclass(frozen=True, slots=True)
class Card:
    """A card's profession (an index into `Deck.professions`), number and stars."""

    profession: int
    number: int
    stars: int


@dataclass(frozen=True, slots=True)
class Deck:
    """The professions in the deck file's order, and every card by id."""

    professions: tuple[str, ...]
    cards: Mapping[str, Card]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "Deck":
        professions = tuple(data["professions"])
        return cls(professions, {row["id"]: Card(professions.index(row["profession"]), int(row["number"]),
                                                 int(row["stars"])) for row in data["cards"]})


make_deck = Deck.from_data


def in_game(card: Card, players: int, simplified: bool) -> bool:
    """Whether a card is played (V1): the simplified game keeps the numbers 1 to 5, 4 players take out the 8s."""
    if simplified:
        return card.number in SIMPLE
    return players != 4 or card.number != OUT_AT_FOUR


# ---------------------------------------------------------------- actions

@dataclass(frozen=True, slots=True)
class Draw:
    """Chance shown by the first player: `player` drew `card` and taps it on their own pad (private)."""

    player: int
    card: str


@dataclass(frozen=True, slots=True)
class Keep:
    """`player` keeps `card` from the packet, tapped on their own pad: face up (`up` True), face down (False),
    or None when the face is chosen next with the seat prompt. A receiver's tap says who received the packet."""

    player: int
    card: str
    up: bool | None


@dataclass(frozen=True, slots=True)
class Face:
    """`player`, who has just kept a card, lays it face up (`up`) or face down: the seat prompt's choice."""

    player: int
    up: bool


Action = Draw | Keep | Face
ACTIONS = (Draw, Keep, Face)


# ---------------------------------------------------------------- deck tables

@dataclass(frozen=True, slots=True)
class Tables:
    """The deck with what the hot paths need, built once per deck (`tables`)."""

    deck: Deck
    order: tuple[str, ...]                          # every card: by profession, number, then id
    index: Mapping[str, int]                        # a card's place in `order` (and in `Setup.in_play`)
    number: Mapping[str, int]
    draws: tuple[Mapping[str, Draw], ...]           # per player and card
    keeps: tuple[Mapping[str, tuple[Keep, ...]], ...]   # per player and card: face by prompt, down, up
    faces: tuple[tuple[Face, Face], ...]            # per player: down, up (the prompt's order)
    turns: tuple[Need, ...]                         # per player: its turn


_TABLES: dict[int, Tables] = {}


def tables(deck: Deck) -> Tables:
    """The tables of `deck`, cached by identity (a deck is built once per game kind)."""
    found = _TABLES.get(id(deck))
    if found is not None and found.deck is deck:
        return found
    cards = deck.cards
    order = tuple(sorted(cards, key=lambda c: (cards[c].profession, cards[c].number, c)))
    seats = range(MAX_PLAYERS)
    found = Tables(
        deck=deck, order=order, index={c: i for i, c in enumerate(order)},
        number={c: cards[c].number for c in order},
        draws=tuple({c: Draw(p, c) for c in order} for p in seats),
        keeps=tuple({c: (Keep(p, c, None), Keep(p, c, False), Keep(p, c, True)) for c in order} for p in seats),
        faces=tuple((Face(p, False), Face(p, True)) for p in seats),
        turns=tuple(Need(players=(p,)) for p in seats),
    )
    _TABLES[id(deck)] = found
    return found


# ---------------------------------------------------------------- records

@dataclass(frozen=True, slots=True)
class Choice:
    """A card kept this turn: who kept it, and its face (None while the seat prompt is open)."""

    player: int
    card: str
    up: bool | None


@dataclass(frozen=True, slots=True)
class Turn:
    """A finished turn. `choices` in order: each seat after the first received the packet from the one before.
    `discard` (the last seat's) is never shown."""

    turn: int
    first: int
    priority: tuple[int, ...]                      # the seats to serve first (face up last turn)
    choices: tuple[Choice, ...]
    discard: str
    next_first: int
    reason: str                                    # LOWEST, LATER or STAYS


@dataclass(frozen=True, slots=True)
class Gold:
    """One player's gold at the end (V4). The simplified game scores only `numbers`, the sum of card numbers."""

    stars: tuple[int, ...]                         # per profession
    majority: tuple[int, ...]                      # gold per profession: 6, 4, 3, 1 or 0
    professions: int                               # professions held
    sets: int                                      # 3, 6 or 10 for 3, 4, 5 professions
    two_star: int                                  # two-star cards held: 1 gold less each
    numbers: int                                   # the simplified game's gold, 0 in the full game
    total: int                                     # never below 0


@dataclass(frozen=True, slots=True)
class Setup:
    """What the game is played with, fixed at its start."""

    tables: Tables
    players: int
    simplified: bool
    in_play: bytes                                 # per card of tables.order: 1 when it is in this game
    turns: int                                     # the game's length: the pile empties after this turn


# ---------------------------------------------------------------- state

@dataclass(frozen=True, slots=True)
class Progress:
    """What changes once a turn: the turn, its first player, who is served first, the turns done, the end."""

    turn: int
    first: int                                     # this turn's first player
    priority: tuple[int, ...] = ()                 # who played face up last turn: served first (V2)
    log: tuple[Turn, ...] = ()                     # every finished turn
    gold: tuple[Gold, ...] = ()                    # at the end, per player
    winners: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class State:
    """The whole game as the table knows it. Never shown as is: see `observe`.

    Its own fields change on most actions (few, so that each action copies little); the rest is in `setup`
    and `progress`, read through the properties below.
    """

    setup: Setup
    progress: Progress
    pile: tuple[str, ...]                          # the cards in the draw pile, in card order
    phase: str = "draw"                            # draw, keep, face, over
    packet: tuple[str, ...] = ()                   # drawn this turn and not kept yet (private), in draw order
    choices: tuple[Choice, ...] = ()               # this turn's cards kept, in order
    allowed: tuple[int, ...] = ()                  # phase keep: who may keep a card from the packet now

    players = property(lambda self: self.setup.players)
    turn = property(lambda self: self.progress.turn)
    first = property(lambda self: self.progress.first)
    priority = property(lambda self: self.progress.priority)
    log = property(lambda self: self.progress.log)
    gold = property(lambda self: self.progress.gold)
    winners = property(lambda self: self.progress.winners)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(g.total for g in self.gold) if self.gold else (0,) * self.setup.players


(_set_setup, _set_progress, _set_pile, _set_phase, _set_packet, _set_choices, _set_allowed) = (
    getattr(State, f.name).__set__ for f in fields(State))
_new = object.__new__


def _make(setup: Setup, progress: Progress, pile: tuple[str, ...], phase: str, packet: tuple[str, ...],
          choices: tuple[Choice, ...], allowed: tuple[int, ...]) -> State:
    """A State from all its fields without the dataclass `__init__` (it runs on every action)."""
    new = _new(State)
    _set_setup(new, setup)
    _set_progress(new, progress)
    _set_pile(new, pile)
    _set_phase(new, phase)
    _set_packet(new, packet)
    _set_choices(new, choices)
    _set_allowed(new, allowed)
    return new


def new_game(deck: Deck, players: int, first: int = 0, options: Mapping[str, Any] | None = None) -> State:
    """A new game: turn 1, the starting seat (`first`) to draw the packet."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Festival is for {MIN_PLAYERS} or {MAX_PLAYERS} players, not {players}")
    if not 0 <= first < players:
        raise ValueError(f"first player {first} is not one of the {players} players")
    simplified = bool({**INFO.defaults(), **(options or {})}["simplified"])
    t = tables(deck)
    in_play = bytes(in_game(deck.cards[c], players, simplified) for c in t.order)
    cards = in_play.count(1)
    if not cards or cards % (players + 1):
        raise ValueError(f"{cards} cards in play do not make whole turns of {players + 1} for {players} players")
    return State(Setup(t, players, simplified, in_play, cards // (players + 1)), Progress(1, first),
                 tuple(compress(t.order, in_play)))


# ---------------------------------------------------------------- queries

def in_play(state: State) -> list[str]:
    """The cards of this game (V1), in card order."""
    return list(compress(state.setup.tables.order, state.setup.in_play))


def receivers(choices: Sequence[Choice], priority: Sequence[int], players: int) -> tuple[int, ...]:
    """Who may receive the packet after these choices (V2): the seats still to be served of those that played
    face up last turn; once they are all served, every seat that has not chosen this turn."""
    chosen = [c.player for c in choices]
    first_served = tuple([p for p in priority if p not in chosen])
    return first_served or tuple([p for p in range(players) if p not in chosen])


def holder(state: State) -> int | None:
    """Who holds the packet now: the first player until they keep a card, then the seat that kept last (it
    hands the rest on), or the one seat that may receive it (None once the game is over)."""
    if state.phase == "over":
        return None
    if not state.choices:
        return state.first
    if len(state.allowed) == 1:
        return state.allowed[0]
    return state.choices[-1].player


_ANY_OF: dict[tuple[tuple[int, ...], int], Need] = {}
_DONE = Need()


def need(state: State) -> Need:
    phase = state.phase
    t = state.setup.tables
    if phase == "keep":
        allowed = state.allowed
        if len(allowed) == 1:
            return t.turns[allowed[0]]
        giver = state.choices[-1].player
        found = _ANY_OF.get((allowed, giver))
        if found is None:
            found = _ANY_OF[allowed, giver] = Need(players=allowed, any_of=True, by=giver)
        return found
    if phase == "draw":
        return chance_need(state.pile, state.progress.first)
    if phase == "face":
        return t.turns[state.choices[-1].player]
    return _DONE


def check(state: State, action: Action) -> Refusal | None:
    """None when the action is legal now, else why not. A refusal about a seat's card never needs the card."""
    phase = state.phase
    if phase == "over":
        return Refusal.of("game_over")
    player = getattr(action, "player", None)
    if not (isinstance(player, int) and 0 <= player < state.setup.players):
        return Refusal.of("no_such_player", player=player)
    match action:
        case Draw(card=card):
            if phase != "draw":
                return Refusal.of("not_now_draw", player=player)
            if player != state.first:
                return Refusal.of("not_your_turn", player=player)
            return _card_refusal(state, player, card)
        case Keep(card=card, up=up):
            if up not in (None, False, True):
                return Refusal.of("unknown_action")
            if phase == "draw":
                if player == state.first:
                    return Refusal.of("packet_incomplete", player=player, count=state.setup.players + 1)
                return Refusal.of("not_your_turn", player=player)
            if phase == "face":
                chooser = state.choices[-1].player
                return Refusal.of("choose_face_first" if player == chooser else "not_your_turn", player=player)
            if player not in state.allowed:
                return _receiver_refusal(state, player)
            if card not in state.packet:
                return Refusal.of("not_in_packet", player=player, card=card)
            return None
        case Face(up=up):
            if phase != "face" or player != state.choices[-1].player:
                return Refusal.of("not_now_face", player=player)
            return None if up in (False, True) else Refusal.of("unknown_action")
    return Refusal.of("unknown_action")


def _card_refusal(state: State, player: int, card: Any) -> Refusal | None:
    """A card drawn: of this deck, in this game (V1), still in the pile."""
    i = state.setup.tables.index.get(card)
    if i is None:
        return Refusal.of("card_not_in_game", player=player, card=card)
    if not state.setup.in_play[i]:
        return Refusal.of("card_not_in_play", player=player, card=card)
    return None if card in state.pile else Refusal.of("card_seen", player=player, card=card)


def _receiver_refusal(state: State, player: int) -> Refusal:
    """Why `player` may not take the packet now: it has chosen this turn, or others must be served first."""
    if any(c.player == player for c in state.choices):
        return Refusal.of("already_chosen", player=player)
    if _serving_first(state):
        return Refusal.of("others_first", player=player)
    return Refusal.of("not_your_turn", player=player)


def _serving_first(state: State) -> bool:
    """Whether the packet may go now only to seats that played face up last turn (V2)."""
    return bool(state.choices) and state.phase == "keep" and state.allowed[0] in state.priority


def legal_actions(state: State) -> list[Action]:
    """Every legal action now: the first player's draws (the chance outcomes), the cards each allowed seat may
    keep (with each face), or the chooser's two faces."""
    phase = state.phase
    t = state.setup.tables
    if phase == "keep":
        packet = state.packet
        actions: list[Action] = []
        for player in state.allowed:
            keeps = t.keeps[player]
            for card in packet:
                actions += keeps[card]
        return actions
    if phase == "draw":
        draws = t.draws[state.progress.first]
        return [draws[c] for c in state.pile]
    if phase == "face":
        return list(t.faces[state.choices[-1].player])
    return []


# ---------------------------------------------------------------- transitions

def apply(state: State, action: Action) -> State:
    """The state after a legal action (call `check` first: apply trusts its input)."""
    match action:
        case Draw(card=card):   # keyword patterns: positional ones cost a lookup of __match_args__
            setup = state.setup
            pile = state.pile
            i = pile.index(card)
            packet = state.packet + (card,)
            if len(packet) > setup.players:
                return _make(setup, state.progress, pile[:i] + pile[i + 1:], "keep", packet, (),
                             (state.progress.first,))
            return _make(setup, state.progress, pile[:i] + pile[i + 1:], "draw", packet, (), ())
        case Keep(player=player, card=card, up=up):
            packet = state.packet
            i = packet.index(card)
            choices = state.choices + (Choice(player, card, up),)
            if up is None:
                return _make(state.setup, state.progress, state.pile, "face", packet[:i] + packet[i + 1:], choices,
                             ())
            return _kept(state, packet[:i] + packet[i + 1:], choices)
        case Face(player=player, up=up):
            choices = state.choices
            return _kept(state, state.packet, choices[:-1] + (Choice(player, choices[-1].card, up),))
    raise TypeError(f"not a Festival action: {action!r}")


def _kept(state: State, packet: tuple[str, ...], choices: tuple[Choice, ...]) -> State:
    """A card is kept with its face: the packet goes on, or the turn ends (the last card is discarded)."""
    setup, progress = state.setup, state.progress
    if len(choices) < setup.players:
        return _make(setup, progress, state.pile, "keep", packet, choices,
                     receivers(choices, progress.priority, setup.players))
    first, reason = next_first(choices, progress.first, setup.tables.number)
    log = progress.log + (Turn(progress.turn, progress.first, progress.priority, choices, packet[0], first, reason),)
    if progress.turn == setup.turns:
        gold = score(_holdings(log, setup.players), setup.tables.deck, setup.simplified)
        top = max(g.total for g in gold)
        winners = tuple(p for p, g in enumerate(gold) if g.total == top)
        return _make(setup, Progress(progress.turn, progress.first, progress.priority, log, gold, winners),
                     state.pile, "over", (), (), ())
    priority = tuple(sorted(c.player for c in choices if c.up))
    return _make(setup, Progress(progress.turn + 1, first, priority, log), state.pile, "draw", (), (), ())


def next_first(choices: Sequence[Choice], first: int, number: Mapping[str, int]) -> tuple[int, str]:
    """The next first player and why (V3): of this turn's face-up cards, the first player's aside, the lowest
    number; on equal numbers the one played later. Nobody: the first player stays."""
    best, low, reason = first, None, STAYS
    for choice in choices:
        if choice.up and choice.player != first:
            n = number[choice.card]
            if low is None or n < low:
                best, low, reason = choice.player, n, LOWEST
            elif n == low:
                best, reason = choice.player, LATER
    return best, reason


def _holdings(log: Sequence[Turn], players: int) -> list[list[str]]:
    """Every card each player kept, in the order kept."""
    held: list[list[str]] = [[] for _ in range(players)]
    for turn in log:
        for choice in turn.choices:
            held[choice.player].append(choice.card)
    return held


def majority(stars: Sequence[int]) -> tuple[int, ...]:
    """Gold for one profession from each player's stars in it (V4): most 6, second 3; several tied for most
    4 each and no second; several tied for second (one first) 1 each. No star, no gold."""
    gold = [0] * len(stars)
    top = max(stars)
    if not top:
        return tuple(gold)
    firsts = [p for p, s in enumerate(stars) if s == top]
    if len(firsts) > 1:
        for p in firsts:
            gold[p] = TIED_MOST
        return tuple(gold)
    gold[firsts[0]] = MOST
    second = max((s for s in stars if s < top), default=0)
    if second:
        seconds = [p for p, s in enumerate(stars) if s == second]
        for p in seconds:
            gold[p] = SECOND if len(seconds) == 1 else TIED_SECOND
    return tuple(gold)


def score(holdings: Sequence[Sequence[str]], deck: Deck, simplified: bool = False) -> tuple[Gold, ...]:
    """Every player's gold from the cards they hold, all revealed (V4): majorities per profession by stars,
    3/6/10 for 3/4/5 professions, minus 1 per two-star card, never below 0 (PR-V2). Simplified: the sum of
    the card numbers."""
    kinds = len(deck.professions)
    stars = [[0] * kinds for _ in holdings]
    for p, cards in enumerate(holdings):
        for c in cards:
            card = deck.cards[c]
            stars[p][card.profession] += card.stars
    by_profession = [majority([row[k] for row in stars]) for k in range(kinds)]
    golds = []
    for p, cards in enumerate(holdings):
        held = sum(1 for s in stars[p] if s)
        two_star = sum(1 for c in cards if deck.cards[c].stars == 2)
        if simplified:
            numbers = sum(deck.cards[c].number for c in cards)
            golds.append(Gold(tuple(stars[p]), (0,) * kinds, held, 0, 0, numbers, numbers))
            continue
        gained = tuple(row[p] for row in by_profession)
        sets = SETS.get(held, 0)
        golds.append(Gold(tuple(stars[p]), gained, held, sets, two_star, 0, max(0, sum(gained) + sets - two_star)))
    return tuple(golds)


# ---------------------------------------------------------------- views

# Where the public view names a player: by its index here, by its seat in `replay --json` (kit/seats.py).
NAMED_PLAYERS = ("first", "holder", "priority/*", "chosen/*/player", "passed/*/*", "receivers/*",
                 "log/*/first", "log/*/priority/*", "log/*/chosen/*/player", "log/*/passed/*/*",
                 "log/*/next_first")


def observe(state: State, player: int | None) -> dict:
    """What `player` may know (None: the public view, the only thing the screen draws).

    Never in the public view before the end: the packet's cards, face-down cards (nor a card whose face is
    still being chosen). The last seat's discards are never shown. After the end every kept card is shown,
    with the gold breakdown.
    """
    setup = state.setup
    deck = setup.tables.deck
    n = setup.players
    phase = state.phase
    over = phase == "over"
    view: dict[str, Any] = {
        "game": NAME,
        "phase": phase,
        "players": n,
        "options": {"simplified": setup.simplified},
        "professions": list(deck.professions),
        "turn": state.turn,
        "turns": setup.turns,
        "first": state.first,
        "packet_size": n + 1,
        "drawn": len(state.packet) if phase == "draw" else 0 if over else n + 1,
        "packet": len(state.packet),
        "holder": holder(state),
        "pile": len(state.pile),
        "priority": [p for p in state.priority if p != state.first],   # served first: the first player draws
        "chosen": [_choice_view(c) for c in state.choices],
        "passed": _passes(state.choices),
        "receivers": list(state.allowed) if state.choices else [],
        "serve_first": _serving_first(state),
        "tableaus": [_tableau_view(state, p) for p in range(n)],
        "log": [_turn_view(turn) for turn in state.log],
        "revealed": [_kept_view(state, p) for p in range(n)] if over else None,
        "gold": [_gold_view(g, deck.professions) for g in state.gold] if over else None,
        "totals": list(state.totals),
        "winners": list(state.winners),
    }
    if player is not None:
        view["seat"] = player
        view["tableau"] = _kept_view(state, player)
        view["packet_cards"] = list(state.packet) if holder(state) == player else None
        view["discards"] = [turn.discard for turn in state.log if turn.choices[-1].player == player]
    return view


def kept_by(state: State, player: int) -> list[tuple[int, Choice]]:
    """The cards `player` kept, each with its turn, in order (this turn's included)."""
    kept = [(turn.turn, c) for turn in state.log for c in turn.choices if c.player == player]
    return kept + [(state.turn, c) for c in state.choices if c.player == player]


def _kept_view(state: State, player: int) -> list[dict]:
    """Every card `player` kept, with its turn and face."""
    return [{"card": c.card, "turn": turn, "up": c.up} for turn, c in kept_by(state, player)]


def _choice_view(c: Choice) -> dict:
    """A card kept, as the public sees it: its card only when face up."""
    return {"player": c.player, "up": c.up, "card": c.card if c.up else None}


def _passes(choices: Sequence[Choice]) -> list[list[int]]:
    """Who passed the packet to whom: each seat after the first received it from the one before."""
    return [[a.player, b.player] for a, b in zip(choices, choices[1:])]


def _tableau_view(state: State, player: int) -> dict:
    """A seat's public tableau: its face-up cards by profession (in the order played), their stars, how many
    cards lie face down, and whether this turn's card is still waiting for its face."""
    deck = state.setup.tables.deck
    up: dict[str, list[str]] = {name: [] for name in deck.professions}
    stars = dict.fromkeys(deck.professions, 0)
    down = 0
    pending = False
    kept = kept_by(state, player)
    for _, c in kept:
        if c.up:
            card = deck.cards[c.card]
            name = deck.professions[card.profession]
            up[name].append(c.card)
            stars[name] += card.stars
        elif c.up is None:
            pending = True
        else:
            down += 1
    return {"up": up, "stars": stars, "down": down, "pending": pending, "cards": len(kept)}


def _turn_view(turn: Turn) -> dict:
    return {"turn": turn.turn, "first": turn.first, "priority": [p for p in turn.priority if p != turn.first],
            "chosen": [_choice_view(c) for c in turn.choices], "passed": _passes(turn.choices),
            "next_first": turn.next_first, "reason": turn.reason,
            "deciding": next((c.card for c in turn.choices if c.player == turn.next_first and c.up), None)
            if turn.reason != STAYS else None}


def _gold_view(g: Gold, professions: tuple[str, ...]) -> dict:
    return {"stars": dict(zip(professions, g.stars)), "majority": dict(zip(professions, g.majority)),
            "professions": g.professions, "sets": g.sets, "two_star": g.two_star, "numbers": g.numbers,
            "total": g.total}
