"""Which characters the screen's font can draw: a player's name must be drawable at every table."""
from __future__ import annotations

import os
import unicodedata
from functools import cache

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame.freetype  # noqa: E402  (after the setting that keeps pygame quiet)


@cache
def _font() -> pygame.freetype.Font:
    pygame.freetype.init()
    return pygame.freetype.Font(None, 12)   # the screen's font (pygame's own, as table/screen/draw.py loads it)


def undrawable(text: str) -> str:
    """The characters of `text` the screen cannot draw as they are read: those its font has no glyph for,
    combining marks (which would stack above or below a letter; composed text has none in names), and
    right-to-left letters (the screen lays text out left to right, unshaped)."""
    return "".join(char for char, metric in zip(text, _font().get_metrics(text))
                   if metric is None or unicodedata.category(char) in ("Mn", "Me")
                   or unicodedata.bidirectional(char) in ("R", "AL"))
