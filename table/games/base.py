"""The contract every rules engine follows, and the physical acts a table reports.

A rules engine is pure: plain immutable data in, plain immutable data out; no
I/O, clock, threads or global random. It says what it needs next (`Need`),
refuses illegal actions with a `Refusal`, and shows each seat only what that
seat may know (`observe`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Need:
    """What the game waits for next.

    `players` must act; several at once means a sealed, simultaneous decision.
    When `chance` is true the next action is a chance outcome (a card turned
    up), chosen from `outcomes`, supplied by a scan at the table or by a
    seeded generator in simulation. A finished game needs nothing.
    """

    players: tuple[int, ...] = ()
    chance: bool = False
    outcomes: tuple[str, ...] = ()
    simultaneous: bool = False

    @property
    def done(self) -> bool:
        return not self.players and not self.chance


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
    """A seat's button was pressed: `button` is "next" or "ok"."""

    player: int
    button: str


class Game(Protocol):
    """A game module exposes these names (see table.games.feira_torio)."""

    NAME: str
    MIN_PLAYERS: int
    MAX_PLAYERS: int

    def new_game(self, deck: Any, players: int, **options: Any) -> Any: ...
    def need(self, state: Any) -> Need: ...
    def check(self, state: Any, action: Any) -> Refusal | None: ...
    def legal_actions(self, state: Any) -> list[Any]: ...
    def apply(self, state: Any, action: Any) -> Any: ...
    def observe(self, state: Any, player: int | None) -> dict: ...
    def interpret(self, state: Any, act: CardOnPad | ButtonPress) -> Any | Refusal: ...
