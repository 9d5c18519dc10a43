"""Legible from two metres (docs/screen.md, Legibility): every text a page draws has capitals at least 18 px high on
a 1080p screen (12 on the 1280x720 page it is drawn on), measured as rendered, once shrunk to fit its place: every
frame of the pixel check (every page of every game at its smallest and largest seat counts, each option moved, in
both languages, with the lobby, the rules page, a first game's prompt bar, a seat menu saying why, a refusal's banner
and a reader's)."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from games.tables import random_states, table_view
from table.registry import GAMES
from table.screen import Screen, draw
from table.screen.draw import SIZE
from table.screen.i18n import LANGS
from table.storage.registry import NAME_CHARS
from tests.screen.pages_fingerprint import frames

CAPITALS_1080 = 18   # px, the least capital height on a 1080p screen
SCALE = 1080 / SIZE[1]


@pytest.fixture(autouse=True, scope="module")
def fonts():
    pygame.font.init()


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


# Player names at their longest (NAME_CHARS), the widest letters first, each seat a different one.
LONG_NAMES = ("W" * NAME_CHARS, "Marie-Christine Dupont-La", "Jean-Baptiste de la Fonta", "Wolfeschlegelsteinhausen",
              "Maximilien Robespierre", "Ana Lu", "Bartholomew", "Éléonore-Géraldine Weiß")


def test_players_names_at_their_longest_stay_legible_and_in_their_place_on_every_page():
    """A name under a lobby seat or in a score table is drawn at a legible size, whole, or shortened ("Marie-
    Christine D.", "WWWWWWW…") to fit its place; at the most players of every game, in its lobby, in play and
    once over."""
    screen, short = Screen(GAMES, "fr"), 0
    for game in GAMES.values():
        players = game.info.players.stop - 1
        states = list(random_states(game, players, 3))
        for state in (states[0], states[len(states) // 2], states[-1]):
            view = table_view(game, state)
            names = {str(seat): LONG_NAMES[i][:NAME_CHARS] for i, seat in enumerate(view["joined"])}
            for view in ({**view, "names": names}, {**view, "names": names, "mode": "lobby", "view": None}):
                for page, step in screen.pages(view):
                    with draw.written() as seen:
                        screen.render(view, page, step)
                    drawn = [(text, size) for text, size in seen
                             if len(text) >= 4 and any(name.startswith(text[:4]) for name in names.values())]
                    where = f"{game.name} {page}"
                    assert all(legible(size) for _, size in drawn), f"{where}: {drawn}"
                    short += sum(text not in names.values() for text, _ in drawn)
    assert short > 0   # the longest names were shortened somewhere, not only drawn small


def test_a_text_drawn_on_two_lines_keeps_to_its_height_and_breaks_between_words_while_legible():
    """A score row's name on two lines stays inside its row; a word never breaks until the text is as small as
    LEGIBLE, and then it does rather than shrink past it (a long path on the fallback screen)."""
    with draw.written() as seen:
        image = draw.render("Maximilien Robespierre", 40, draw.TEXT, width=168, lines=2, height=48)
        draw.render("Wolfeschlegelsteinhausen Bergdorff", 40, draw.TEXT, width=240, lines=2)
        draw.render("/var/lib/cardtable/" + "x" * 20 + "/journal.sqlite", 30, draw.TEXT, width=300, lines=2)
    assert image.get_height() <= 48
    (_, named), (_, long_word), (_, path) = seen
    assert legible(named) and legible(long_word) and draw.font(long_word).size("Wolfeschlegelsteinhausen")[0] <= 240
    assert path == draw.LEGIBLE
