"""Which characters the screen's font can draw: a player's name must be drawable at every table."""
from __future__ import annotations

import os
from functools import cache

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame.freetype  # noqa: E402  (after the setting that keeps pygame quiet)

from table.storage.registry import unlaid  # noqa: E402


@cache
def _font() -> pygame.freetype.Font:
    pygame.freetype.init()
    return pygame.freetype.Font(None, 12)   # the screen's font (pygame's own, as table/screen/draw.py loads it)


def undrawable(text: str) -> str:
    """The characters of `text` the screen cannot draw as they are read: those its font has no glyph for, and
    those no left-to-right, unshaped line shows (`unlaid`)."""
    missing = "".join(char for char, metric in zip(text, _font().get_metrics(text)) if metric is None)
    return missing + "".join(char for char in unlaid(text) if char not in missing)
