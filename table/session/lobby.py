"""The lobby's game menu: which games this table can play, the one chosen, its options.

Seat buttons (or the staff card) work the menu: Next moves the cursor over
its lines (the game, each of its options, the rules, the first-game mode,
Start), OK on the game line takes the next game, on an option its next value,
on the first-game mode turns it on or off, on Start starts (the rules line
is the session's: it shows the rules page). The cursor rests on Start, so OK
alone starts the chosen game.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from table.registry import GAMES
from table.games.contract import Game
from table.layout import Layout

START = "start"
GAME = "game"
RULES = "rules"
TEACH = "teach"


def refusal(game: Game, layout: Layout) -> tuple[str, dict] | None:
    """Why this table cannot play `game` (a text key and its parameters), or None."""
    seats = layout.seats
    if len(seats) < game.info.players.start:
        return "needs_seats", {"seats": game.info.players.start}
    buttons = set.intersection(*(set(dict(s.buttons)) for s in seats)) if seats else set()
    return game.info.pads.refusal({len(s.pads) for s in seats}, len(layout.centre), buttons)


def games_for(layout: Layout) -> list[str]:
    """The games this table can play, in registry order."""
    return [name for name, game in GAMES.items() if refusal(game, layout) is None]


@dataclass(frozen=True)
class Menu:
    """The lobby's choice: a game, its options, whether it is played as a first game (the prompt bar also says
    why), and where the cursor is (0: the game, 1..: options, then the rules, the first-game mode, Start)."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    cursor: int = -1
    teach: bool = False

    @classmethod
    def first(cls, layout: Layout, preselect: str | None = None) -> "Menu":
        names = games_for(layout)
        if not names:
            raise ValueError(f"table layout {layout.name!r} can play none of the games: {', '.join(GAMES)}")
        game = preselect if preselect in names else names[0]
        return cls(game, GAMES[game].info.defaults())

    @property
    def lines(self) -> list[str]:
        """The menu's lines: GAME, each option name, RULES, TEACH, START."""
        return [GAME, *(o.name for o in GAMES[self.game].info.options), RULES, TEACH, START]

    @property
    def line(self) -> str:
        return self.lines[self.cursor]

    def moved(self, step: int) -> "Menu":
        return replace(self, cursor=(self.cursor % len(self.lines) + step) % len(self.lines))

    def changed(self, layout: Layout) -> "Menu":
        """OK on the game line, an option line or the first-game mode: the next game, the option's next value, or
        the mode turned on or off."""
        if self.line == GAME:
            names = games_for(layout)
            game = names[(names.index(self.game) + 1) % len(names)] if self.game in names else names[0]
            return Menu(game, GAMES[game].info.defaults(), cursor=0, teach=self.teach)
        if self.line == TEACH:
            return replace(self, teach=not self.teach)
        option = next(o for o in GAMES[self.game].info.options if o.name == self.line)
        value = self.options.get(option.name, option.default)
        choices = option.choices
        following = choices[(choices.index(value) + 1) % len(choices)] if value in choices else option.default
        return replace(self, options={**self.options, option.name: following})

    def with_deck(self, deck: str, layout: Layout) -> "Menu":
        """The menu after a card of `deck` joined: the same game when it plays that deck, else the first that does."""
        if GAMES[self.game].info.deck == deck:
            return self
        game = next((n for n in games_for(layout) if GAMES[n].info.deck == deck), None)
        return self if game is None else Menu(game, GAMES[game].info.defaults(), teach=self.teach)
