"""The contract between the table and its games, and the physical acts a table reports.

A game is one package under table/games/ that registers one `Game` record
(table/registry.py lists them). Its rules are a module of pure functions:
plain immutable data in, plain immutable data out; no I/O, clock, threads or
global random. The rules say what they need next (`Need`), refuse illegal
actions with a `Refusal`, and show each seat only what that seat may know
(`observe`). Shared layers (session, screen, simulation, bench, CLI) reach a
game only through its `Game` record.

Rules module (table/games/<game>/rules.py):

    ACTIONS: tuple[type, ...]            the action dataclasses (frozen, slots; fields are str, int, bool,
                                         None or tuples of them); kit.codec writes and reads them as JSON
    make_deck(data) -> deck              the deck the game plays with, from the parsed deck file
    new_game(deck, players, first, options) -> state
                                         `first` is the player index of the seat that started the game
                                         (dealer, first player, youngest: the game's README says which);
                                         `options` holds every option of GameInfo.options by name
    need(state) -> Need
    check(state, action) -> Refusal | None
    legal_actions(state) -> list         every legal action now, of every player listed by need, or every
                                         chance outcome
    apply(state, action) -> state        trusts its input: call check first
    time_limit(state) -> float | None    optional, a game clock: the play time the game allows, in seconds;
                                         None when no clock runs (no limit chosen, over, time already up).
                                         The table counts play time (never the time it is off) and, at the
                                         limit, journals the action `time_up()` returns, checked like any
                                         other action
    observe(state, player | None) -> dict
                                         None: the public view, the only thing the screen, logs and
                                         `replay --json` see. Shared layers read only the keys of
                                         `VIEW_KEYS` (four always there, three when the game has them);
                                         the rest is the game's own, for its page and bots

Its screen is a `Page` (page.py), its card faces `Faces` (faces.py), its
simulated players `GameBots` (bots.py, on table/bots/); each is loaded when
first asked for.

Acts module (physical acts <-> actions, both ways):

    interpret(state, act) -> action | Refusal | None   None: no act (e.g. a card read again in its role)
    acts_for(state, action, shape) -> tuple[act, ...]  the physical acts that `interpret` turns into action
    must_clear(state) -> bool                         the table gate: the last resolution's cards may
                                                      still lie on the pads, act on nothing until all are gone
    prompt(state) -> Prompt | None                    a public choice for one seat, made with its buttons
    menu(state, player) -> Prompt | None              optional: the seat menu `player`'s OK opens when no prompt
                                                      of its own is open (pass, call...): legal actions; the
                                                      session puts "Back" before them and the cursor on it
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cached_property
from importlib import import_module
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

from table.assets import deck_data


# ---------------------------------------------------------------- what a game needs next

@dataclass(frozen=True, slots=True)
class Need:
    """What the game waits for next.

    - turn: `players` must each act, in public (usually one seat; several: all of them, in any order);
    - sealed: `simultaneous` is true; every listed player commits in secret and the
      result does not depend on the order the commits arrive in (bids, registration);
    - any of: `any_of` is true; any one of `players` may act, the first valid act is taken;
      `by` is the player who decides which one (the giver of a card), None when they decide;
    - interrupt (with a turn): `interrupt` lists the other players who may, outside the turn, start an action
      that suspends it (a call); they are not asked to act, and a table never waits for them;
    - chance: `chance` is true; the next action is a chance outcome (a card shown), one
      of `outcomes` (empty: any card the rules accept). `by` is the player who shows it,
      None when anyone may. With `table_draw` no card carries the outcome (a first player
      drawn at random): the table draws it itself and journals it like any action.
    A finished game needs nothing (`done`).
    """

    players: tuple[int, ...] = ()
    chance: bool = False
    outcomes: tuple[str, ...] = ()
    simultaneous: bool = False
    any_of: bool = False
    by: int | None = None
    table_draw: bool = False
    interrupt: tuple[int, ...] = ()

    @property
    def done(self) -> bool:
        return not self.players and not self.chance


_NEED_FIELDS = ("players", "chance", "outcomes", "simultaneous", "any_of", "by", "table_draw", "interrupt")
assert _NEED_FIELDS == tuple(f.name for f in fields(Need)), "chance_need must set every field of Need"
(_set_players, _set_chance, _set_outcomes, _set_simultaneous, _set_any_of, _set_by, _set_table_draw,
 _set_interrupt) = (getattr(Need, name).__set__ for name in _NEED_FIELDS)


def chance_need(outcomes: tuple[str, ...], by: int | None = None) -> Need:
    """`Need(chance=True, outcomes=outcomes, by=by)` at a quarter of the frozen __init__'s cost: a chance need's
    outcomes change with every card shown, so engines build one at each call of `need` (written out field by
    field, the fastest way)."""
    new = object.__new__(Need)
    _set_players(new, ())
    _set_chance(new, True)
    _set_outcomes(new, outcomes)
    _set_simultaneous(new, False)
    _set_any_of(new, False)
    _set_by(new, by)
    _set_table_draw(new, False)
    _set_interrupt(new, ())
    return new


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an input was refused: a message key and its parameters, for translation."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, key: str, **params: Any) -> "Refusal":
        return cls(key, tuple(sorted(params.items())))

    @property
    def args(self) -> dict[str, Any]:
        return dict(self.params)


# ---------------------------------------------------------------- physical acts

@dataclass(frozen=True, slots=True)
class CardOnPad:
    """A known card arrived on a pad: a player's pad, or a centre pad when `player` is None.

    `slot` is the pad's place when its seat (or the centre) has one pad per
    slot, and None when it has a single pad.
    """

    card: str
    player: int | None = None
    slot: int | None = None


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """A seat's button was pressed: `button` is "next", "ok" or "back"."""

    player: int
    button: str


Act = CardOnPad | ButtonPress


@dataclass(frozen=True, slots=True)
class PadShape:
    """How many pads each seat and the centre have (1: a single pad, acts carry slot None)."""

    seat: int = 1
    centre: int = 1


@dataclass(frozen=True, slots=True)
class Prompt:
    """A public choice for one seat, made with its buttons: Next (and Back) move a cursor over `options`,
    OK takes the option under it. Each option is a legal action; `labels` are (text key, params) for the
    screen, one per option; the cursor starts at `start`."""

    player: int
    options: tuple[Any, ...]
    labels: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]
    start: int = 0

    def presses(self, action: Any) -> tuple[ButtonPress, ...]:
        """The presses that take `action` from the cursor's start: Next until it, then OK (none: not an option)."""
        if action not in self.options:
            return ()
        steps = (self.options.index(action) - self.start) % len(self.options)
        return (ButtonPress(self.player, "next"),) * steps + (ButtonPress(self.player, "ok"),)

    def menu_presses(self, action: Any) -> tuple[ButtonPress, ...]:
        """The presses that take `action` as a seat menu: OK opens it on "Back", Next until the action, OK."""
        if action not in self.options:
            return ()
        steps = self.options.index(action) + 1
        return (ButtonPress(self.player, "ok"), *(ButtonPress(self.player, "next"),) * steps,
                ButtonPress(self.player, "ok"))


# ---------------------------------------------------------------- what a game declares

@dataclass(frozen=True, slots=True)
class Option:
    """A game option (RULINGS: a named option with a default); the lobby cycles through `choices`.
    `players`: the player counts it applies to (empty: every count); at other counts the game plays
    without it and the lobby says so.

    Texts: `option_NAME` names it, `option_NAME_VALUE` names a value (in the game's text namespace).
    """

    name: str
    default: Any
    choices: tuple[Any, ...]
    players: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PadNeeds:
    """What a game needs of the table's layout. `seat_pads` / `centre_pads`: the pad counts it can play
    with (None: any count, at least one); `buttons`: the seat buttons it needs."""

    seat_pads: tuple[int, ...] | None = None
    centre_pads: tuple[int, ...] | None = None
    buttons: tuple[str, ...] = ("ok",)

    def refusal(self, seat_pads: set[int], centre_pads: int, buttons: set[str]) -> tuple[str, dict] | None:
        """Why a layout cannot play this game (a text key and its parameters), or None."""
        if self.seat_pads is not None and not seat_pads <= set(self.seat_pads):
            return "needs_seat_pads", {"pads": " / ".join(map(str, self.seat_pads))}
        if self.centre_pads is not None and centre_pads not in self.centre_pads:
            return "needs_centre_pads", {"pads": " / ".join(map(str, self.centre_pads))}
        if centre_pads < 1:
            return "needs_centre_pads", {"pads": "1+"}
        missing = [b for b in self.buttons if b not in buttons]
        if missing:
            return "needs_buttons", {"buttons": ", ".join(missing)}
        return None


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Who a game is: its name (journal, CLI, text namespace), its deck, player counts, options, needs."""

    name: str
    deck: str
    players: range
    options: tuple[Option, ...] = ()
    pads: PadNeeds = field(default_factory=PadNeeds)

    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}


class Faces(Protocol):
    """How a deck's cards look: `name(card, t)` in words and `draw(surf, rect, card, style)` as a picture."""

    def name(self, card: str, t: Any) -> str: ...
    def draw(self, surf: Any, rect: Any, card: str, style: str = "card") -> None: ...


VIEW_KEYS: dict[str, str] = {   # every key of a public view that shared layers read: key -> what it holds
    "phase": "always: the game's phase, a str ('over' once it is over)",
    "players": "always: how many players, an int",
    "totals": "always: each player's points, a list of int",
    "winners": "always: the winners' player indices, empty until the game is over",
    "history": "if the game has deals: each deal's points, a list (per deal) of lists of int (per player); "
               "the game-over page draws them",
    "teams": "if the game plays in teams: the teams, lists of player indices; seats are drawn in their team's colour",
    "deal": "if the game has deals: the deal under way, an int; the simulated world deals again when it changes",
}
ALWAYS_IN_VIEW = ("phase", "players", "totals", "winners")


@runtime_checkable
class Page(Protocol):
    """A game's screen (its package's page.py), drawn from the public table view only (docs/screen.md)."""

    def pages(self, table: dict) -> list[tuple[str, int | None]]:
        """The game's pages for this table view, in order, each (page, step); the last one stays on screen."""

    def draw_page(self, c: Any, page: str, step: int | None) -> None:
        """Draw one of its pages on a canvas (table/screen/canvas.py: `c.table`, `c.view`, texts and faces)."""

    def subtitle(self, c: Any) -> str:
        """The line under the game's name in the header (its options, the deal...), on the game-over page too."""


@runtime_checkable
class GameBots(Protocol):
    """A game's simulated players (its package's bots.py), built on table/bots/."""

    World: type     # its physical world: a table.bots.world.World with the game's hooks (_deal, _resume...)
    Players: type   # seeded players acting through that world: a table.bots.players.Bots subclass


@dataclass(frozen=True)
class Game:
    """One registered game: everything the shared layers may know of it.

    `rules` and `acts` are its pure modules. Its screen (`page`: a `Page`), card
    faces (`faces`: a `Faces` class built from the deck data and a language) and
    bots (`bots`: `GameBots`) are the package's modules of those names, imported
    when first asked for: the session and the engines never load the screen.
    """

    info: GameInfo
    rules: ModuleType
    acts: ModuleType
    package: str

    @property
    def name(self) -> str:
        return self.info.name

    @cached_property
    def deck(self) -> Any:
        """The deck it plays with, built once from its deck file (`rules.make_deck`)."""
        return self.rules.make_deck(deck_data(self.info.deck))

    @property
    def page(self) -> Page:
        return import_module(f"{self.package}.page")

    @property
    def faces(self) -> type:
        return import_module(f"{self.package}.faces").Faces

    @property
    def bots(self) -> GameBots:
        return import_module(f"{self.package}.bots")
