"""Legible from two metres (docs/screen.md, Legibility): every text a page draws has capitals at least 18 px high on
a 1080p screen (12 on the 1280x720 page it is drawn on), measured as rendered, once shrunk to fit its place: every
frame of the pixel check (every page of every game at its smallest and largest seat counts, each option moved, in
both languages, with the lobby, the rules page, a first game's prompt bar, a seat menu saying why, a refusal's banner
and a reader's)."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from table.registry import GAMES
from table.screen import Screen, draw
from table.screen.draw import SIZE
from table.screen.i18n import LANGS
from tests.screen.pages_fingerprint import frames

CAPITALS_1080 = 18   # px, the least capital height on a 1080p screen
SCALE = 1080 / SIZE[1]


def legible(size: int) -> bool:
    return draw.glyph_height(size) * SCALE >= CAPITALS_1080


def test_every_text_of_every_page_is_legible_from_two_metres():
    screens = {lang: Screen(GAMES, lang) for lang in LANGS}
    small: dict[str, list[tuple[str, int]]] = {}
    drawn, texts = frames(screens), 0
    while True:
        with draw.written() as seen:
            try:
                name, _ = next(drawn)
            except StopIteration:
                break
        texts += len(seen)
        bad = [(text, size) for text, size in seen if text.strip() and not legible(size)]
        if bad:
            small[name] = bad
    assert texts > 10_000
    assert not small, f"{len(small)} frames with small text, e.g. {sorted(small.items())[:5]}"


def test_the_check_measures_text_as_shrunk_to_fit_and_leaves_out_only_pictures_of_cards():
    with draw.written() as seen:
        draw.render("a sentence far too long for its place " * 3, 40, draw.TEXT, width=300)
        with draw.picture():
            draw.render("the small print of a printed card", 12, draw.TEXT)
        draw.render("8", draw.LEGIBLE, draw.TEXT)
    (long, size), eight = seen
    assert long.startswith("a sentence") and size < 40 and not legible(size)
    assert eight == ("8", draw.LEGIBLE) and legible(draw.LEGIBLE) and not legible(draw.LEGIBLE - 2)
