"""The rules page and the first-game explanations of every registered game, in every language: each text is
there, short enough to be drawn at its size without shrinking, and the page never depends on the game's
state (it shows the rules, never a card in play)."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from table.registry import GAMES
from table.screen import Screen, Translator, draw
from table.screen.draw import SIZE
from table.screen.i18n import LANGS
from table.screen.canvas import WHY_SIZE
from table.screen.screen import RULES_PARTS, RULES_TEXT_SIZE, RULES_TEXT_W
from tests.games.tables import random_states, table_view

RULES_CHARS, WHY_CHARS = 150, 80   # as docs/screen.md says


def fits(text: str, size: int, width: int, lines: int) -> bool:
    """Whether `text` drawn at `size` fits `width` in at most `lines` lines (draw.render would not shrink it)."""
    font = draw.font(size)
    return font.size(text)[0] <= width or font.render(text, True, (0, 0, 0), None, width).get_height() <= (
        lines * font.get_linesize())


def phases(game) -> set[str]:
    """The phases random play reaches at the smallest and largest player counts, with each option's values."""
    reached = set()
    counts = game.info.players
    for players in (counts.start, counts.stop - 1):
        fitting = [o for o in game.info.options if not o.players or players in o.players]
        variants = [{}, *({o.name: c} for o in fitting for c in o.choices if c != o.default)]
        for seed, options in enumerate(variants):
            reached |= {game.rules.observe(s, None)["phase"] for s in random_states(game, players, seed, options)}
    return reached - {"over"}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_says_its_goal_a_turn_its_secrets_and_its_end_in_three_lines_each(name, lang):
    pygame.font.init()
    t = Translator(lang).game(name)
    for part in RULES_PARTS:
        key = f"rules_{part}"
        assert t.has(key), f"{name} has no {key} in {lang}"
        assert len(t(key)) <= RULES_CHARS and fits(t(key), RULES_TEXT_SIZE, RULES_TEXT_W, 3), (name, lang, t(key))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(GAMES))
def test_every_phase_of_every_game_says_why_in_one_line_in_a_first_game(name, lang):
    pygame.font.init()
    t = Translator(lang).game(name)
    for phase in sorted(phases(GAMES[name])):
        key = f"why_{phase}"
        assert t.has(key), f"{name} has no {key} in {lang}"
        assert len(t(key)) <= WHY_CHARS and fits(t(key), WHY_SIZE, SIZE[0] - 40, 1), (name, lang, t(key))


@pytest.mark.parametrize("name", list(GAMES))
def test_the_rules_page_shows_the_rules_whatever_the_game_state(name):
    """The rules page of a game in play is the same whatever state it is in (it never draws a card in play),
    and differs from the game's own page; only the seat that may close it is named."""
    game, screen = GAMES[name], Screen(GAMES, "fr")
    states = list(random_states(game, game.info.players.start, 3))
    frames = set()
    for state in (states[0], states[len(states) // 2], states[-1]):
        view = {**table_view(game, state), "rules_page": {"seat": 1}}
        assert screen.pages(view) == [("rules", None)]
        frames.add(pygame.image.tobytes(screen.render(view, "rules"), "RGB"))
    assert len(frames) == 1
    page, step = screen.pages(table_view(game, states[0]))[0]
    assert pygame.image.tobytes(screen.render(table_view(game, states[0]), page, step), "RGB") not in frames


def test_a_first_game_adds_why_under_the_prompt_and_only_then():
    game, screen = GAMES["feira-torio"], Screen(GAMES, "en")
    state = next(s for s in random_states(game, 3, 1) if game.rules.observe(s, None)["phase"] == "bidding")
    view = table_view(game, state)
    page, step = screen.pages(view)[-1]
    plain = screen.render(view, page, step)
    taught = screen.render({**view, "teach": True}, page, step)
    bar = pygame.Rect(0, SIZE[1] - 68, SIZE[0], 68)
    assert pygame.image.tobytes(plain.subsurface(bar), "RGB") != pygame.image.tobytes(taught.subsurface(bar), "RGB")
    above = pygame.Rect(0, 0, SIZE[0], SIZE[1] - 68)
    assert pygame.image.tobytes(plain.subsurface(above), "RGB") == pygame.image.tobytes(taught.subsurface(above), "RGB")
