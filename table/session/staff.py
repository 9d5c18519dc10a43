"""The staff menu: a staff card opens it on the screen, any seat's buttons work it; nothing needs a keyboard.

Its lines depend on what the table does: in the lobby, start the game or
choose another; during a game, end it (and pause or resume its clock, when
it has one: journaled); after one, back to the lobby; and
always the table's health (readers, hubs, protections, in words), shut down
and reboot. Next and Back move the cursor, OK takes the line; what ends a
game, shuts down or reboots asks first (the cursor starts on "no"). The menu
is no journal entry: a restart closes it. The session carries out the
choices (table/session/table_session.py); this is only where the menu is.
"""
from __future__ import annotations

from dataclasses import dataclass, field

ALWAYS = ("health", "poweroff", "reboot", "close")
LINES = {"lobby": ("start", "choose_game", *ALWAYS),
         "game": ("end_game", *ALWAYS),
         "clocked": ("end_game", "pause_clock", *ALWAYS),     # a game with its clock running (end_game stays
         "paused": ("end_game", "resume_clock", *ALWAYS),     # first: lines keep their place at time up)
         "over": ("to_lobby", *ALWAYS)}
CONFIRMED = ("end_game", "poweroff", "reboot")   # lines that ask "are you sure?" first
CONFIRM = ("no", "yes")


@dataclass
class StaffMenu:
    """Where the staff menu is: closed (`page` None), or on a page with its cursor.

    Pages: "menu" (the lines for the table's mode), "games" (the games this
    table can play), "health" (`checks`, as taken when the page opened),
    "confirm" (no / yes for the line `asking`).
    """

    page: str | None = None
    cursor: int = 0
    asking: str | None = None
    checks: list[dict] = field(default_factory=list)

    @property
    def open(self) -> bool:
        return self.page is not None

    def show(self, page: str, cursor: int = 0) -> None:
        self.page, self.cursor = page, cursor

    def back(self, line: str | None, mode: str) -> None:
        """Back to the menu page, the cursor on `line` (or the first line when the mode has no such line now)."""
        lines = LINES[mode]
        self.asking, self.checks = None, []
        self.show("menu", lines.index(line) if line in lines else 0)

    def close(self) -> None:
        self.page, self.asking, self.checks = None, None, []

    def lines(self, mode: str, games: list[str]) -> tuple[str, ...]:
        """The lines of the page open now; `mode` is a key of LINES, `games` those this table can play."""
        if self.page == "games":
            return tuple(games)
        if self.page == "confirm":
            return CONFIRM
        if self.page == "health":
            return ("back",)
        return LINES[mode]

    def moved(self, step: int, mode: str, games: list[str]) -> None:
        self.cursor = (self.cursor + step) % len(self.lines(mode, games))

    def chosen(self, mode: str, games: list[str]) -> str:
        """The line under the cursor (the mode may have changed since the cursor moved)."""
        lines = self.lines(mode, games)
        return lines[self.cursor % len(lines)]

    def view(self, mode: str, games: list[str]) -> dict | None:
        """The menu as the screen draws it (None when closed)."""
        if self.page is None:
            return None
        lines = self.lines(mode, games)
        return {"page": self.page, "lines": list(lines), "cursor": self.cursor % len(lines), "asking": self.asking,
                "checks": list(self.checks)}
