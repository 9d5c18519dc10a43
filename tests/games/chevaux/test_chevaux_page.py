"""Chevaux's screen pages: every page of every phase in French and English at 2 and 8 players, no raw key;
the page sequence of a round; hand-checked texts; secrecy (a revealed card's other values and name never change
a pixel); the game clock in the shared title bar."""
from __future__ import annotations

import re

import pygame
import pytest

from games.chevaux.test_chevaux_rules import HEIGHT, WALK, game, play
from games.tables import first_state, table_view
from table.registry import GAMES
from table.games.chevaux import view as shown
from table.games.chevaux.view import value_text
from table.games.chevaux.rules import Choose, Keep, Reveal, Switch, TimeUp, observe
from table.screen import Screen, Translator, draw
from table.screen.canvas import HEADER
from table.screen.i18n import LANGS

GAME = GAMES["chevaux"]
RAW = re.compile(r"\{\w+\}|^[a-z]+_[a-z_]+$")
FR, EN = Translator("fr", "chevaux"), Translator("en", "chevaux")

SITUATIONS = {
    "lead": lambda s: s.phase == "reveal" and not s.pot and not s.results,
    "choose": lambda s: s.phase == "choose",
    "walk": lambda s: s.phase == "reveal" and s.round.trait >= 0 and len(s.pot) >= s.players // 2,
    "switch": lambda s: s.phase == "switch" and len(s.round.chain) >= min(2, s.players - 1),
    "redraw": lambda s: s.phase == "redraw" and any(s.round.tie.steps[0]),
    "decided": lambda s: s.phase == "reveal" and not s.pot and s.results and s.results[-1].round.tie,
    "over": lambda s: s.phase == "over",
}


@pytest.fixture(scope="module")
def screens():
    pygame.font.init()
    return {lang: Screen(GAMES, lang) for lang in LANGS}


def rendered(screen: Screen, view: dict, name: str, step, monkeypatch) -> tuple[pygame.Surface, list[str]]:
    drawn: list[str] = []
    render = draw.render
    monkeypatch.setattr(draw, "render", lambda s, *a, **k: drawn.append(s) or render(s, *a, **k))
    try:
        return screen.render(view, name, step), drawn
    finally:
        monkeypatch.setattr(draw, "render", render)


@pytest.mark.parametrize("players", [2, 8])
@pytest.mark.parametrize("lang", LANGS)
def test_every_page_renders_without_raw_keys(screens, out, monkeypatch, lang, players):
    for name, test in SITUATIONS.items():
        view = table_view(GAME, first_state(GAME, players, test, 4), clearing=False)
        view["clock"] = None if name == "over" else {"left_s": 754, "limit_s": 900, "paused": False}
        for page_name, step in screens[lang].pages(view):
            surf, texts = rendered(screens[lang], view, page_name, step, monkeypatch)
            assert surf.get_size() == (1280, 720)
            assert texts and not [s for s in texts if RAW.search(s)], (name, page_name, texts)
            pygame.image.save(surf, out / f"chevaux-{players}p-{name}-{lang}-{page_name}.png")


def test_a_round_shows_its_result_then_the_table_once_the_pads_are_clear():
    state = play(game(WALK, 2), Reveal(0, "g0"), Choose(0, HEIGHT), Reveal(1, "y1"), Keep(1))
    assert shown.round_just_ended(observe(state, None))
    assert shown.pages(table_view(GAME, state, clearing=True)) == [("result", None)]
    assert shown.pages(table_view(GAME, state, clearing=False)) == [("result", None), ("table", None)]
    state = play(state, Reveal(0, "o2"))
    assert shown.pages(table_view(GAME, state)) == [("table", None)]
    over = play(game(WALK[:2], 2), Reveal(0, "g0"), Choose(0, HEIGHT), Reveal(1, "y1"), Keep(1))
    assert shown.pages(table_view(GAME, over)) == [("result", None), ("over", None)]
    assert shown.pages(table_view(GAME, play(game(WALK, 2, minutes=5), TimeUp()))) == [("over", None)]


def test_what_the_table_says_along_a_round():
    seats = [3, 5, 6, 8]
    state = game(WALK, 4)

    def say(state) -> str:
        return shown.instruction(FR, table_view(GAME, state, seats=seats))

    assert say(state) == ("Siège 3 : regardez la carte du dessus de votre tas, posez-la sur votre lecteur sans la "
                          "montrer")
    state = play(state, Reveal(0, "g0"))
    assert say(state) == "Siège 3 : choisissez la caractéristique (Suivant, puis OK) et annoncez sa valeur"
    state = play(state, Choose(0, HEIGHT))
    assert say(state) == "Siège 5 : posez la carte du dessus de votre tas et annoncez : Taille au garrot"
    state = play(state, Reveal(1, "y1"))
    assert say(state) == "Siège 5 : cheval plus rare ! OK garde Taille au garrot, Suivant pour changer"
    state = play(state, Switch(1, 1))
    board = observe(state, None)["current"]
    view = table_view(GAME, state, seats=seats)
    assert shown.chain_text(FR, view, board, "height") == "abandonnée (siège 3)"   # seat 3 had chosen it
    assert shown.chain_text(EN, view, board, "year") == "switched to by seat 5"
    assert shown.best(observe(state, None), board) == [1]       # 1700 is older than 1800


def test_tie_texts_name_the_seats_values_and_redraws():
    cards = [("a", 2, 150, 1800), ("b", 2, 150, 1700), ("c", 1, 90, 1600), ("d", 1, 100, 1500), ("e", 3, 90, 1),
             ("f", 1, 1, 1), ("g", 1, 1, 1)]
    state = play(game(cards, 2), Reveal(0, "a"), Choose(0, HEIGHT), Reveal(1, "b"), Reveal(0, "c"), Reveal(1, "d"))
    view = table_view(GAME, state, seats=[2, 4])
    board = view["view"]["current"]
    assert shown.tie_text(FR, view, board, "150 cm") == ("Égalité à 150 cm : Sièges 2 et 4 · même rareté : Sièges 2 "
                                                        "et 4 retournent une carte · carte 1 : siège 2 rareté 1, "
                                                        "siège 4 rareté 1")
    assert shown.instruction(EN, view) == "Tie: Seats 2 and 4, each lay the next card of your stack"
    assert value_text(FR, "year", -2500) == "2500 av. J.-C." and value_text(EN, "kg", 905) == "905 kg"


def test_a_revealed_cards_name_and_other_values_never_reach_the_screen(screens):
    """Two cards of the same rarity and the same height, one revealed or the other: same view, same pixels."""
    cards = [("a", 2, 150, 1800), ("b", 2, 150, 1200), ("c", 1, 140, 1700), ("d", 1, 130, 1600), ("e", 1, 1, 1),
             ("f", 1, 1, 1)]
    base = play(game(cards, 3), Reveal(0, "c"), Choose(0, HEIGHT))
    one, other = play(base, Reveal(1, "a")), play(base, Reveal(1, "b"))
    assert observe(one, None) == observe(other, None) and observe(one, 1) != observe(other, 1)
    a, b = table_view(GAME, one), table_view(GAME, other)
    for lang in LANGS:
        for name, step in screens[lang].pages(a):
            assert pygame.image.tobytes(screens[lang].render(a, name, step), "RGB") == \
                pygame.image.tobytes(screens[lang].render(b, name, step), "RGB")


def test_the_clock_is_drawn_in_the_title_bar_for_any_game_with_one(screens, monkeypatch):
    view = table_view(GAME, game(WALK, 2, minutes=15))
    _, shown = rendered(screens["fr"], view, "table", None, monkeypatch)
    assert "0:00" not in shown and not any(":" in s and s[0].isdigit() for s in shown)   # no clock: none drawn
    view["clock"] = {"left_s": 754, "limit_s": 900, "paused": False}
    plain, shown = rendered(screens["fr"], view, "table", None, monkeypatch)
    assert "12:34" in shown
    view["clock"] = {"left_s": 42, "limit_s": 900, "paused": False}
    last, shown = rendered(screens["fr"], view, "table", None, monkeypatch)
    assert "0:42" in shown
    assert last.get_at((1240, 42))[:3] == draw.RED                                        # its last minute: red
    assert plain.get_at((1240, 42))[:3] != draw.RED
    view["clock"]["paused"] = True
    paused, shown = rendered(screens["fr"], view, "table", None, monkeypatch)
    assert "0:42" in shown and paused.get_at((1240, 42))[:3] != draw.RED                  # paused: never red
    view["clock"]["left_s"] = 754
    paused, _ = rendered(screens["fr"], view, "table", None, monkeypatch)

    def colours(surf, rect):
        return {surf.get_at((x, y))[:3] for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)}
    bar = pygame.Rect(960, 0, 320, HEADER)                 # the clock's end of the title bar: its mark and its time
    mid = HEADER // 2
    assert draw.TEXT in colours(plain, bar) and draw.TEXT not in colours(paused, bar)   # greyed while paused...
    assert draw.MUTED in colours(paused, bar)
    ring = [x for x in range(1000, 1150) if plain.get_at((x, mid))[:3] == draw.TEXT]   # the dial's ring
    centre = (ring[0] + ring[-1]) // 2
    assert plain.get_at((centre, mid - 6))[:3] == draw.TEXT           # ...the dial's hand at its centre,
    assert paused.get_at((centre, mid - 6))[:3] == draw.PANEL          # the gap between two bars there
    assert {paused.get_at((centre + dx, mid))[:3] for dx in (-9, 9)} == {draw.MUTED}
