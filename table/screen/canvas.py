"""What a game's page draws on: the surface, the table view, texts, faces, and layout helpers.

Players are engine indices in the view; `seat(p)` is the seat a player sits
at. Pages draw only from `table` (the public table view) and never name a
game other than their own.
"""
from __future__ import annotations

from typing import Collection, Iterable, Iterator

import pygame

from table.screen import draw
from table.screen.draw import GOLD, INK, LIGHTS, MUTED, PANEL, PANEL_HI, RED, SIZE, TEAMS, TEXT
from table.screen.faces import Faces
from table.screen.i18n import Translator

HEADER = 84          # height of the title bar (the message banner covers it)
PROMPT = 68          # height of the prompt bar at the bottom of a page
WHY_SIZE = 28        # the size of a first game's why under the prompt
NAME_W = 220         # the widest a seat's name (or its player's) is drawn in a score table
CROWN_GAP = 8        # between a winner's name and its crown


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

    def panels(self, count: int, top: int, bottom: int, most: int, x0: int = 16, x1: int = SIZE[0] - 16,
               gap: int = 8, lit: int | None = None, radius: int = 12) -> Iterator[tuple[int, pygame.Rect]]:
        """Draw `count` panel rows, at most `most` apart, `gap` between them, from top down to bottom (row `lit`
        highlighted); yields (index, row)."""
        h = min(most, (bottom - top) // max(count, 1))
        for i in range(count):
            row = pygame.Rect(x0, top + i * h, x1 - x0, h - gap)
            pygame.draw.rect(self.surf, PANEL_HI if i == lit else PANEL, row, border_radius=radius)
            yield i, row

    def step_rows(self, count: int, current: int, top: int, bottom: int, most: int, x0: int = 16,
                  x1: int = SIZE[0] - 16) -> Iterator[tuple[int, pygame.Rect]]:
        """Panel rows of a sequence shown step by step (`panels`), the `current` one highlighted and framed;
        yields (step, row)."""
        for k, row in self.panels(count, top, bottom, most, x0, x1, lit=current):
            if k == current:
                draw.frame(self.surf, row.inflate(6, 6))
            yield k, row

    def seat_rows(self, players: list[int], top: int, bottom: int, most: int = 100,
                  x0: int = 16, x1: int = SIZE[0] - 16, badge: int = 34) -> Iterator[tuple[int, pygame.Rect]]:
        """Draw one panel row per player (team band, seat badge at most `badge` in radius) between top and
        bottom; yields (player, row)."""
        for i, row in self.panels(len(players), top, bottom, most, x0, x1):
            p = players[i]
            self.team_band(row, p)
            r = min(badge, row.h // 2 - 4)
            self.seat_badge((row.x + 12 + r, row.centery), r, p)
            yield p, row

    def score_rows(self, players: list[int], top: int, bottom: int, most: int, name: tuple[int, int] = (100, 40),
                   crown: int = 0, x1: int = SIZE[0] - 16) -> Iterator[tuple[int, pygame.Rect]]:
        """Seat rows (`seat_rows`, to `x1`) of a score table, each with its seat's name, or its player's when a
        player card named it (`name`: x in the row, size), on two lines where the row is tall enough; with a
        `crown` (its radius), a winner's row is framed and crowned just after its name once drawn (its name
        narrower, so that the crown stays within NAME_W)."""
        names = self.table.get("names") or {}
        for p, row in self.seat_rows(players, top, bottom, most, x1=x1):
            seat = self.seat(p)
            player = names.get(str(seat))
            crowned = crown and p in self.view["winners"]
            width = NAME_W - (2 * crown + CROWN_GAP if crowned else 0)
            lines = 2 if 2 * draw.font(draw.LEGIBLE).get_linesize() <= row.h else 1
            drawn = draw.text(self.surf, draw.fitted_name(player, width, lines) if player else self.t("seat", seat=seat),
                              name[1], TEXT, "midleft", (row.x + name[0], row.centery), width=width, lines=lines,
                              height=row.h)
            yield p, row
            if crowned:
                draw.frame(self.surf, row)
                draw.crown(self.surf, (drawn.right + CROWN_GAP + crown, row.centery), crown)

    def unit_rows(self, units: list[list[int]], top: int, bottom: int, most: int = 100,
                  badge: int = 30) -> Iterator[tuple[int, pygame.Rect, int]]:
        """Draw one panel row per unit (the players of a team, or one player) between top and bottom, with its team
        band and its seats' badges side by side; yields (unit index, row, x after the badges)."""
        for u, row in self.panels(len(units), top, bottom, most):
            self.team_band(row, units[u][0])
            r = min(badge, row.h // 2 - 4)
            x = row.x + 16
            for p in units[u]:
                self.seat_badge((x + r, row.centery), r, p)
                x += 2 * r + 8
            yield u, row, x + 8

    def seat_columns(self, players: list[int], x0: float, step: int, y: int, r: int) -> Iterator[tuple[int, int, int]]:
        """A seat badge (radius r, centred at height y) heading each player's column, `step` wide from x0; yields
        (index, player, the column's middle x)."""
        for i, p in enumerate(players):
            cx = x0 + i * step + step // 2
            self.seat_badge((cx, y), r, p)
            yield i, p, cx

    def seat_badge(self, center, r: int, player: int) -> None:
        """Player `player`'s seat number in a disc coloured like its seat light."""
        seat = self.seat(player)
        draw.badge(self.surf, center, r, seat, self.light(seat))

    def seat_name(self, row: pygame.Rect, player: int, size: int, tags: list[tuple[str, tuple]] = (),
                  lift: int | None = None, gap: int = 2, tag_size: int = 28, badge: int = 34,
                  right: int | None = None) -> pygame.Rect:
        """A seat's name right of its badge in a seat row (`seat_rows`), centred on the row (ending before x
        `right`, when given); `lift`ed, its bottom `lift` pixels under the row's middle, with its `tags` (text,
        background) in a line under it."""
        at = (row.x + 24 + 2 * min(badge, row.h // 2 - 4), row.centery + (lift or 0))
        name = draw.text(self.surf, self.t("seat", seat=self.seat(player)), size, TEXT,
                         "midleft" if lift is None else "bottomleft", at, width=right and right - at[0])
        x = name.x
        for label, colour in tags:
            x = draw.tag(self.surf, label, tag_size, (x, name.bottom + gap), INK, colour).right + 8
        return name

    def titles(self, columns: list[tuple], y: int, size: int = 28, colour=MUTED) -> None:
        """Column titles (text key, anchor, x, and the widest each may be, if given) on one line: the anchor's
        point at (x, y)."""
        for key, anchor, x, *width in columns:
            draw.text(self.surf, self.t(key), size, colour, anchor, (x, y), width=width[0] if width else None)

    def step_panel(self, rect: pygame.Rect, k: int, current: int, radius: int = 12,
                   framed: int | None = None) -> bool:
        """Step `k`'s panel in a sequence shown up to step `current`: highlighted (and framed `framed` pixels
        out, when given) if current, plain if done, none if later; whether it is later."""
        if k <= current:
            pygame.draw.rect(self.surf, PANEL_HI if k == current else PANEL, rect, border_radius=radius)
        if k == current and framed is not None:
            draw.frame(self.surf, rect.inflate(framed, framed))
        return k > current

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
        left = draw.text(surf, title, 52, TEXT, "midleft", (24, mid), width=520).right + 24
        end = SIZE[0] - 24
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
        if right:   # as large as fits beside `middle`, never below the legible size: `middle` yields the room
            width = min(draw.font(34).size(right)[0], max(draw.font(draw.LEGIBLE).size(right)[0], end - 980))
            end = draw.text(surf, right, 34, MUTED, "midright", (end, mid), width=width).left - 24
        draw.text(surf, middle, 46, GOLD, "center", ((left + end) // 2, mid), width=end - left)

    def line(self, text: str, y: int, size: int, colour=TEXT, lines: int = 1, margin: int = 20) -> pygame.Rect:
        """Text centred across the page, its top at y, `margin` pixels clear of each side."""
        return draw.text(self.surf, text, size, colour, "midtop", (SIZE[0] // 2, y), width=SIZE[0] - 2 * margin,
                         lines=lines)

    def prompt_bar(self, text: str, explain: bool = True) -> None:
        """What to do now, in gold on the bottom bar (nothing when `text` is empty); in a first game, and why
        under it (`why`), unless not to `explain`."""
        if not text:
            return
        bar = pygame.Rect(0, SIZE[1] - PROMPT, SIZE[0], PROMPT)
        pygame.draw.rect(self.surf, PANEL_HI, bar)
        why = self.why() if explain else ""
        if why:
            draw.text(self.surf, text, 34, GOLD, "center", (bar.centerx, bar.y + 20), width=SIZE[0] - 40)
            draw.text(self.surf, why, WHY_SIZE, TEXT, "center", (bar.centerx, bar.y + 50), width=SIZE[0] - 40)
        else:
            draw.text(self.surf, text, 44, GOLD, "center", bar.center, width=SIZE[0] - 40)

    def why(self) -> str:
        """In a first game (the lobby's first-game mode), why the game is at this step and what comes next: the
        game's text `why_<phase>`; empty otherwise."""
        key = f"why_{self.view.get('phase')}"
        return self.t(key) if self.table.get("teach") and self.t.has(key) else ""

    def card(self, rect: pygame.Rect, card: str | None, dim: bool = False) -> None:
        """A card face up (veiled when `dim`), or its empty place when None."""
        if card:
            self.faces.draw(self.surf, rect, card, dim=dim)
        else:
            draw.back(self.surf, rect, False)

    def chips(self, cards: list[str], x: float, cy: float, h: int, gap: int = 8, width: float | None = None,
              framed: Collection[str] = ()) -> float:
        """A row of chips `h` high (or less, to fit in `width` when given) starting at x, centred on cy, the
        `framed` ones in gold (a dash for none); returns its right edge."""
        if width is not None:
            h = self.chip_height(len(cards), width, h, gap)
        if not cards:
            return draw.text(self.surf, "—", h, MUTED, "midleft", (x + h // 2, cy)).right
        w = self.faces.chip_width(h)
        for i, card in enumerate(cards):
            chip = pygame.Rect(x + i * (w + gap), cy - h / 2, w, h)
            self.faces.draw(self.surf, chip, card, "chip")
            if card in framed:
                draw.frame(self.surf, chip.inflate(10, 10), GOLD, 4)
        return x + len(cards) * (w + gap) - gap

    def chip_lines(self, cards: list[str], box: pygame.Rect, heights: Iterable[int], gap: int,
                   labels: list[str] | None = None, centred: bool = True) -> float:
        """Chips (each with its label after it, 0.8 as high, when `labels` are given) wrapped into lines across
        `box`, as tall as the first of `heights` whose lines fit it (else the last), centred on its middle or
        from its top; returns the bottom of the last line."""
        labels = labels or [""] * len(cards)
        for h in heights:
            size = max(20, round(h * 0.8))
            widths = [self.faces.chip_width(h) + (draw.font(size).size(label)[0] + 6 if label else 0)
                      for label in labels]
            lines, x = [[]], 0
            for i, w in enumerate(widths):
                if x and x + w > box.w:
                    lines.append([])
                    x = 0
                lines[-1].append(i)
                x += w + gap
            height = len(lines) * (h + gap) - gap
            if height <= box.h and max(sum(widths[i] + gap for i in line) - gap for line in lines) <= box.w:
                break
        top = box.centery - height / 2 if centred else box.y
        for row, line in enumerate(lines):
            x, cy = box.x, top + row * (h + gap) + h / 2
            for i in line:
                right = self.chips([cards[i]], x, cy, h)
                if labels[i]:
                    draw.text(self.surf, labels[i], size, TEXT, "midleft", (right + 6, cy))
                x += widths[i] + gap
        return top + height

    def labelled_chips(self, label: str, cards: list[str], at: tuple[int, int], size: int, h: int, colour=TEXT,
                       space: int = 16) -> float:
        """A label, its left middle at `at`, then a row of chips `h` high `space` pixels after it; returns the row's
        right edge."""
        return self.chips(cards, draw.text(self.surf, label, size, colour, "midleft", at).right + space, at[1], h)

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


def across(count: int, most: int, top: int, bottom: int, gap: int = 10, x0: int = 16,
           x1: int = SIZE[0] - 16) -> list[pygame.Rect]:
    """`count` columns from top to bottom, at most `most` wide, `gap` apart, centred between x0 and x1."""
    width = min(most, (x1 - x0 - gap * (count - 1)) // count)
    x = x0 + (x1 - x0 - count * width - (count - 1) * gap) // 2
    return [pygame.Rect(x + k * (width + gap), top, width, bottom - top) for k in range(count)]
