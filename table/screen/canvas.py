"""What a game's page draws on: the surface, the table view, texts, faces, and layout helpers.

Players are engine indices in the view; `seat(p)` is the seat a player sits
at. Pages draw only from `table` (the public table view) and never name a
game other than their own.
"""
from __future__ import annotations

from typing import Iterator

import pygame

from table.screen import draw
from table.screen.draw import GOLD, INK, LIGHTS, MUTED, PANEL, PANEL_HI, RED, SIZE, TEAMS, TEXT
from table.screen.faces import Faces
from table.screen.i18n import Translator

HEADER = 84          # height of the title bar (the message banner covers it)
PROMPT = 68          # height of the prompt bar at the bottom of a page


class Canvas:
    """One page being drawn: `surf` (1280x720), `table` (the table view), `view` (the game's public view),
    `t` (texts in the game's namespace), `faces` (the deck's card faces)."""

    def __init__(self, surf: pygame.Surface, table: dict, t: Translator, faces: Faces) -> None:
        self.surf = surf
        self.table = table
        self.view = table.get("view") or {}
        self.t = t
        self.faces = faces

    # ------------------------------------------------------------ seats

    def seat(self, player: int) -> int:
        """The seat number of engine player `player`."""
        return self.table["joined"][player]

    def light(self, seat: int):
        """The colour of a seat's light now (grey when off)."""
        lights = self.table.get("lights") or {}
        state = lights.get(seat, lights.get(str(seat), "off"))
        return LIGHTS.get(state, LIGHTS["off"])

    def seat_rows(self, players: list[int], top: int, bottom: int, most: int = 100,
                  x0: int = 16, x1: int = SIZE[0] - 16) -> Iterator[tuple[int, pygame.Rect]]:
        """Draw one panel row per player (team band, seat badge) between top and bottom; yields (player, row)."""
        h = min(most, (bottom - top) // max(len(players), 1))
        for i, p in enumerate(players):
            row = pygame.Rect(x0, top + i * h, x1 - x0, h - 8)
            pygame.draw.rect(self.surf, PANEL, row, border_radius=12)
            self.team_band(row, p)
            seat = self.seat(p)
            r = min(34, row.h // 2 - 4)
            draw.badge(self.surf, (row.x + 12 + r, row.centery), r, seat, self.light(seat))
            yield p, row

    def team(self, player: int) -> int | None:
        """The team index of `player` when the game plays in teams (the view's `teams`: lists of players)."""
        return next((i for i, team in enumerate(self.view.get("teams") or ()) if player in team), None)

    def team_band(self, row: pygame.Rect, player: int) -> None:
        """The team colour band on the left edge of a player's row (teams only)."""
        team = self.team(player)
        if team is not None:
            pygame.draw.rect(self.surf, TEAMS[team % len(TEAMS)], (row.x, row.y, 9, row.h),
                             border_top_left_radius=12, border_bottom_left_radius=12)

    def seat_prompt(self, player: int, rect: pygame.Rect, size: int = 30) -> bool:
        """The seat prompt of `player`, if one is open: its options in a row, the cursor's framed; True if drawn."""
        prompt = self.table.get("prompt")
        if not prompt or prompt["player"] != player:
            return False
        x = rect.x
        for i, (key, params) in enumerate(prompt["labels"]):
            chosen = i == prompt["cursor"]
            label = ("» " if chosen else "") + self.t(key, **params)
            tag = draw.tag(self.surf, label, size, (x, rect.centery), INK if chosen else TEXT,
                           GOLD if chosen else PANEL_HI, "midleft")
            x = tag.right + 10
        return True

    # ------------------------------------------------------------ bars and cards

    def header(self, title: str, middle: str = "", right: str = "") -> None:
        """The title bar: title on the left, `middle` in gold, `right` muted; the game clock, when one runs, at
        the right end (red in its last minute; greyed with a pause mark while staff paused it)."""
        surf = self.surf
        pygame.draw.rect(surf, PANEL, (0, 0, SIZE[0], HEADER))
        mid = HEADER // 2
        draw.text(surf, title, 52, TEXT, "midleft", (24, mid), width=520)
        draw.text(surf, middle, 46, GOLD, "center", (760, mid), width=420)
        end, width = SIZE[0] - 24, 300
        clock = self.table.get("clock")
        if clock:
            minutes, seconds = divmod(clock["left_s"], 60)
            paused = clock["paused"]
            last = clock["left_s"] < 60 and not paused
            ink = MUTED if paused else TEXT
            pill = draw.tag(surf, f"{minutes}:{seconds:02d}", 48, (end, mid), ink, RED if last else PANEL_HI,
                            "midright")
            (_pause if paused else _dial)(surf, (pill.x - 26, mid), 18, RED if last else ink)
            end = pill.x - 58
            width = max(60, end - 980)            # clear of `middle`
        draw.text(surf, right, 34, MUTED, "midright", (end, mid), width=width)

    def prompt_bar(self, text: str) -> None:
        """What to do now, in gold on the bottom bar (nothing when `text` is empty)."""
        if text:
            bar = pygame.Rect(0, SIZE[1] - PROMPT, SIZE[0], PROMPT)
            pygame.draw.rect(self.surf, PANEL_HI, bar)
            draw.text(self.surf, text, 44, GOLD, "center", bar.center, width=SIZE[0] - 40, lines=1)

    def chips(self, cards: list[str], x: float, cy: float, h: int, gap: int = 8) -> float:
        """A row of chips `h` high starting at x, centred on cy (a dash for none); returns its right edge."""
        if not cards:
            return draw.text(self.surf, "—", h, MUTED, "midleft", (x + h // 2, cy)).right
        w = self.faces.chip_width(h)
        for i, card in enumerate(cards):
            self.faces.draw(self.surf, pygame.Rect(x + i * (w + gap), cy - h / 2, w, h), card, "chip")
        return x + len(cards) * (w + gap) - gap

    def chip_height(self, count: int, width: float, most: int, gap: int = 8) -> int:
        """The tallest chip height (at most `most`) that fits `count` chips in `width`."""
        h = most
        while h > 12 and count * (self.faces.chip_width(h) + gap) - gap > width:
            h -= 1
        return h

    def card_name(self, card: str) -> str:
        return self.faces.name(card, self.t)


def _dial(surf: pygame.Surface, centre: tuple[int, int], r: int, colour) -> None:
    """A small clock face (the game clock's mark): a ring and two hands."""
    x, y = centre
    pygame.draw.circle(surf, colour, centre, r, 4)
    pygame.draw.line(surf, colour, centre, (x, y - r * 0.65), 4)
    pygame.draw.line(surf, colour, centre, (x + r * 0.5, y), 4)


def _pause(surf: pygame.Surface, centre: tuple[int, int], r: int, colour) -> None:
    """The paused clock's mark: two bars."""
    x, y = centre
    for dx in (-r // 2, r // 2):
        pygame.draw.rect(surf, colour, (x + dx - 4, y - r, 9, 2 * r), border_radius=2)


def resolution_pages(table: dict, steps: list[tuple[str, int | None]], scores: bool,
                     end: tuple[tuple[str, int | None], ...] = (("over", None),)) -> list[tuple[str, int | None]]:
    """A resolution's pages in order: its `steps` (take page included), the scores when it ended a deal,
    then the `end` pages once the game is over, or else the table page again once the table is clear."""
    shown = [*steps, *([("scores", None)] if scores else [])]
    if table["view"]["phase"] == "over":
        return [*shown, *end]
    return shown if table.get("clearing") else [*shown, ("table", None)]
