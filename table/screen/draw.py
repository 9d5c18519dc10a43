"""Drawing helpers (widgets) for every game's screen: text that fits, shapes, badges, backs, frames, arrows.

Everything is sized for a 1280x720 surface read from two metres: large
type, light cards on a dark table. A game's card faces draw with these (see
table/screen/faces.py). Fonts are pygame's bundled default (FreeSansBold, see assets/fonts/).
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

import pygame

from table.hardware.looks import LOOKS, rgb255
from table.hardware.ports import LightState

SIZE = (1280, 720)

BG = (18, 21, 30)
PANEL = (38, 43, 58)
PANEL_HI = (58, 66, 90)
TEXT = (246, 246, 240)
MUTED = (190, 196, 210)
INK = (20, 20, 24)
CARD = (250, 246, 234)
BACK = (40, 90, 170)
GOLD = (255, 205, 50)
RED = (200, 30, 45)
WARN = (255, 135, 125)   # a warning in words on a dark panel: readable where RED is not
GREEN = (70, 200, 110)
TEAMS = ((0, 190, 190), (235, 90, 170), (160, 110, 250))   # one band colour per team

# Seat badges in the colours of the seat lights; an unlit light shows grey.
LIGHTS = {state.value: rgb255(look.colour) for state, look in LOOKS.items()} | {"off": (95, 100, 115)}
FAULT = rgb255(LOOKS[LightState.FAULT].colour)


@cache
def font(size: int) -> pygame.font.Font:
    return pygame.font.Font(None, size)


def ink_on(colour) -> tuple[int, int, int]:
    """Black or white, whichever reads best on `colour`."""
    r, g, b = colour[:3]
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else TEXT


def render(s: str, size: int, colour, width: int | None = None, lines: int = 1,
           align: int = pygame.FONT_LEFT, height: int | None = None) -> pygame.Surface:
    """`s` rendered at `size`, shrunk until it fits `width` in at most `lines` lines, and `height` pixels when
    given; wrapped, its lines break between words, inside one only once it is as small as LEGIBLE."""
    while True:
        f = font(size)
        f.align = align
        tall = height is not None and f.get_linesize() > height and size > 12
        if not tall and (width is None or f.size(s)[0] <= width):
            return _rendered(s, size, f.render(s, True, colour))
        if lines > 1 and not tall and (_words_fit(f, s, width) or size <= LEGIBLE):
            image = f.render(s, True, colour, None, width)
            room = lines * f.get_linesize() if height is None else min(lines * f.get_linesize(), height)
            if image.get_height() <= room or size <= 12:
                return _rendered(s, size, image)
        elif size <= 12:
            return _rendered(s, size, f.render(s, True, colour))
        size -= 2


def _words_fit(f: pygame.font.Font, s: str, width: int) -> bool:
    """Whether every word of `s` fits `width`: wrapped, its lines break between words, never inside one."""
    return all(f.size(word)[0] <= width for word in s.split())


LEGIBLE = 24   # the smallest text size to draw: capitals 12 px high on 1280x720, 18 on 1080p (docs/screen.md)
ELLIPSIS = "…"
_written: list[tuple[str, int]] | None = None   # while `written` records: each text rendered, and its size


def fitted_name(name: str, width: int, lines: int = 1) -> str:
    """A player's name as it fits `width` in `lines` at the legible size: whole, else its first word and the
    initial of its last ("Marie-Christine D."), else cut short with an ellipsis ("Wolfeschlegel…")."""
    f = font(LEGIBLE)

    def fits(s: str) -> bool:
        return f.size(s)[0] <= width or lines > 1 and _words_fit(f, s, width) and \
            f.render(s, True, TEXT, None, width).get_height() <= lines * f.get_linesize()

    words = name.split()
    shorter = [f"{words[0]} {words[-1][0]}."] if len(words) > 1 else []
    for s in (name, *shorter):
        if fits(s):
            return s
    cut = len(name) - 1
    while cut > 1 and not fits(name[:cut].rstrip() + ELLIPSIS):
        cut -= 1
    return name[:cut].rstrip() + ELLIPSIS


@contextmanager
def written() -> Iterator[list[tuple[str, int]]]:
    """Record every text rendered meanwhile with the size it was drawn at, once shrunk to fit (the legibility
    check, docs/screen.md)."""
    global _written
    _written = []
    try:
        yield _written
    finally:
        _written = None


@contextmanager
def picture() -> Iterator[None]:
    """Texts drawn meanwhile are part of a picture of a printed card (the rules page's samples), not what the
    page tells: not recorded by `written`."""
    global _written
    kept, _written = _written, None
    try:
        yield
    finally:
        _written = kept


def _rendered(s: str, size: int, image: pygame.Surface) -> pygame.Surface:
    if _written is not None:
        _written.append((s, size))
    return image


@cache
def glyph_height(size: int) -> int:
    """The height in pixels of a capital letter drawn at `size` (about half the size, hinting apart)."""
    return font(size).render("H", True, TEXT).get_bounding_rect().h


def text(surf: pygame.Surface, s: str, size: int, colour, anchor: str = "topleft", at=(0, 0),
         width: int | None = None, lines: int = 1, height: int | None = None) -> pygame.Rect:
    """Draw `s` with its `anchor` point (a pygame.Rect attribute name) at `at`; returns its rect."""
    align = {"midtop": pygame.FONT_CENTER, "center": pygame.FONT_CENTER, "midbottom": pygame.FONT_CENTER,
             "topright": pygame.FONT_RIGHT, "midright": pygame.FONT_RIGHT}.get(anchor, pygame.FONT_LEFT)
    image = render(s, size, colour, width, lines, align, height)
    rect = image.get_rect(**{anchor: at})
    surf.blit(image, rect)
    return rect


def tag(surf: pygame.Surface, s: str, size: int, at, fg=INK, bg=TEXT, anchor: str = "topleft",
        width: int | None = None) -> pygame.Rect:
    """A label in a rounded pill (at most `width` wide)."""
    image = render(s, size, fg, width and width - size // 2)
    rect = image.get_rect().inflate(size // 2, size // 5)
    setattr(rect, anchor, at)
    pygame.draw.rect(surf, bg, rect, border_radius=rect.h // 2)
    surf.blit(image, image.get_rect(center=rect.center))
    return rect


def shape(surf: pygame.Surface, kind: str, colour, center, r: float, outline=INK) -> None:
    """A shape (triangle, circle, square, diamond, hexagon) of radius `r`, outlined."""
    cx, cy = center
    edge = max(2, round(r / 9))
    if kind == "circle":
        pygame.draw.circle(surf, colour, center, r)
        pygame.draw.circle(surf, outline, center, r, edge)
        return
    points = {
        "triangle": [(cx, cy - r), (cx + r * 1.0, cy + r * 0.8), (cx - r * 1.0, cy + r * 0.8)],
        "square": [(cx - r * 0.85, cy - r * 0.85), (cx + r * 0.85, cy - r * 0.85),
                   (cx + r * 0.85, cy + r * 0.85), (cx - r * 0.85, cy + r * 0.85)],
        "diamond": [(cx, cy - r * 1.1), (cx + r, cy), (cx, cy + r * 1.1), (cx - r, cy)],
        "hexagon": [(cx + r * math.cos(i * math.pi / 3), cy + r * math.sin(i * math.pi / 3)) for i in range(6)],
    }[kind]
    pygame.draw.polygon(surf, colour, points)
    pygame.draw.polygon(surf, outline, points, edge)


def star(surf: pygame.Surface, center, r: float, colour=GOLD, outline=INK) -> None:
    """A five-pointed star."""
    cx, cy = center
    points = [(cx + (r if i % 2 == 0 else r * 0.45) * math.sin(i * math.pi / 5),
               cy - (r if i % 2 == 0 else r * 0.45) * math.cos(i * math.pi / 5)) for i in range(10)]
    pygame.draw.polygon(surf, colour, points)
    pygame.draw.polygon(surf, outline, points, max(1, round(r / 8)))


def dim(surf: pygame.Surface, rect: pygame.Rect) -> None:
    """A veil of the table's colour over `rect` (a card not yet in play)."""
    veil = pygame.Surface(rect.size, pygame.SRCALPHA)
    veil.fill((*BG, 170))
    surf.blit(veil, rect)


def back(surf: pygame.Surface, rect: pygame.Rect, filled: bool) -> None:
    """A bid slot: a face-down card back when filled, an empty frame when not."""
    radius = max(3, rect.w // 8)
    if filled:
        pygame.draw.rect(surf, BACK, rect, border_radius=radius)
        pygame.draw.rect(surf, TEXT, rect.inflate(-rect.w // 3, -rect.h // 3), 2, border_radius=radius)
    pygame.draw.rect(surf, TEXT if filled else MUTED, rect, 2, border_radius=radius)


def backs(surf: pygame.Surface, rect: pygame.Rect, count: int, step: int, filled: int | None = None) -> None:
    """`count` bid slots (`back`) from `rect` rightwards, `step` apart, the first `filled` (all, by default) filled."""
    for i in range(count):
        back(surf, rect.move(i * step, 0), filled is None or i < filled)


def card_blank(surf: pygame.Surface, rect: pygame.Rect, colour, band: float) -> pygame.Rect:
    """A whole card's blank: light, rounded, its top `band` (a share of its height) in `colour`; returns the
    band. Its face goes on it, then `card_edge`."""
    radius = rect.w // 12
    pygame.draw.rect(surf, CARD, rect, border_radius=radius)
    top = pygame.Rect(rect.x, rect.y, rect.w, rect.h * band)
    pygame.draw.rect(surf, colour, top, border_top_left_radius=radius, border_top_right_radius=radius)
    return top


def card_edge(surf: pygame.Surface, rect: pygame.Rect) -> None:
    """A whole card's dark edge, over its face."""
    pygame.draw.rect(surf, INK, rect, max(2, rect.w // 40), border_radius=rect.w // 12)


def chip_blank(surf: pygame.Surface, rect: pygame.Rect, colour=None, stripe: float = 0) -> None:
    """A chip's blank (a card in a list): light, rounded, with a stripe of `colour` down its left side,
    `stripe` times its height wide (none without a colour). Its face goes on it, then `chip_edge`."""
    h = rect.h
    pygame.draw.rect(surf, CARD, rect, border_radius=h // 6)
    if colour is not None:
        pygame.draw.rect(surf, colour, (rect.x, rect.y, h * stripe, h),
                         border_top_left_radius=h // 6, border_bottom_left_radius=h // 6)


def chip_edge(surf: pygame.Surface, rect: pygame.Rect) -> None:
    """A chip's dark edge, over its face."""
    pygame.draw.rect(surf, INK, rect, 2, border_radius=rect.h // 6)


def badge(surf: pygame.Surface, center, r: int, seat: int, colour=TEXT) -> None:
    """A seat number in a disc (coloured like the seat's light on game pages)."""
    pygame.draw.circle(surf, colour, center, r)
    pygame.draw.circle(surf, INK, center, r, max(2, r // 10))
    text(surf, str(seat), round(r * 1.5), ink_on(colour), "center", (center[0], center[1] + r * 0.05))


def strike(surf: pygame.Surface, rect: pygame.Rect, colour=RED) -> None:
    """A line through `rect` (a cancelled bid), thin enough to leave its numbers readable."""
    pygame.draw.line(surf, colour, (rect.x + 2, rect.bottom - 4), (rect.right - 2, rect.y + 4), 4)


def qr(surf: pygame.Surface, text: str, center, most: int) -> pygame.Rect:
    """`text` as a QR code (error correction M), dark on white with its quiet zone of 4 modules, in whole pixels
    per module and at most `most` pixels wide, centred on `center`; returns its rect."""
    matrix = _qr_matrix(text)
    module = max(1, most // (len(matrix) + 8))
    rect = pygame.Rect(0, 0, module * (len(matrix) + 8), module * (len(matrix) + 8))
    rect.center = center
    pygame.draw.rect(surf, (255, 255, 255), rect)
    for y, line in enumerate(matrix):
        for x, dark in enumerate(line):
            if dark:
                surf.fill(INK, (rect.x + (x + 4) * module, rect.y + (y + 4) * module, module, module))
    return rect


@cache
def _qr_matrix(text: str) -> tuple[bytearray, ...]:
    import segno   # only a screen that shows a QR code loads it
    return segno.make_qr(text, error="m").matrix


def frame(surf: pygame.Surface, rect: pygame.Rect, colour=GOLD, width: int = 5) -> None:
    """A highlight frame around `rect`."""
    pygame.draw.rect(surf, colour, rect, width, border_radius=10)


def crown(surf: pygame.Surface, center, r: float, colour=GOLD) -> None:
    """A crown (the winner mark, beside its label)."""
    cx, cy = center
    points = [(cx - r, cy + r * 0.6), (cx - r, cy - r * 0.5), (cx - r * 0.5, cy), (cx, cy - r * 0.8),
              (cx + r * 0.5, cy), (cx + r, cy - r * 0.5), (cx + r, cy + r * 0.6)]
    pygame.draw.polygon(surf, colour, points)
    pygame.draw.polygon(surf, INK, points, max(2, round(r / 8)))


def arrow(surf: pygame.Surface, start, end, colour=GOLD, width: int = 14) -> None:
    """A thick arrow from `start` to `end`."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = width * 2.4
    bx, by = x1 - ux * head, y1 - uy * head
    pygame.draw.line(surf, colour, start, (bx, by), width)
    pygame.draw.polygon(surf, colour, [(x1, y1), (bx - uy * head * 0.7, by + ux * head * 0.7),
                                       (bx + uy * head * 0.7, by - ux * head * 0.7)])


def button(surf: pygame.Surface, rect: pygame.Rect, label: str, key: str = "", size: int = 28) -> None:
    """A clickable button, with its key in a gold cap on the left (centred label without a key)."""
    pygame.draw.rect(surf, PANEL_HI, rect, border_radius=8)
    pygame.draw.rect(surf, MUTED, rect, 2, border_radius=8)
    x = rect.x + 10
    if key:
        x = tag(surf, key, size - 4, (x, rect.centery), INK, GOLD, "midleft").right + 10
    anchor, at = ("midleft", (x, rect.centery)) if key else ("center", rect.center)
    text(surf, label, size, TEXT, anchor, at, width=rect.right - x - 8)


def tick(surf: pygame.Surface, centre, r: int, colour=GREEN) -> None:
    """A check mark `r` pixels wide each side of `centre` (done, committed); the screen font has no ✓."""
    x, y = centre
    pygame.draw.lines(surf, colour, False, [(x - r, y), (x - r // 3, y + r * 2 // 3), (x + r, y - r * 2 // 3)],
                      max(5, r // 3))


def number(n: int) -> str:
    """A score as shown: a negative one with a true minus sign (−3), which reads better from afar."""
    return f"−{-n}" if n < 0 else str(n)
