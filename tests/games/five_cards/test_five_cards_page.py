"""Five Cards' screen pages: every page of every phase in French and English; the page sequence over
whole games; hand-checked texts (the rule text's example round, ties, the column prompt); no raw key;
nothing overlapping or off the screen, even with a side full of cards."""
from __future__ import annotations

import copy
import re

import pygame
import pytest
from conftest import around

from games.five_cards.test_five_cards_rules import play, put, ready
from games.tables import first_state, random_states, table_view
from table.registry import GAMES
from table.games.five_cards import page
from table.games.five_cards.view import column_text, cursor_column, score_formula, starter_text
from table.games.five_cards.rules import Draw, DrawFirst, Show, new_game, observe
from table.screen import Screen, Translator, draw
from table.screen.faces import RankFaces
from table.screen.i18n import LANGS

GAME = GAMES["five-cards"]
SEATS = [2, 4]                   # player 0 sits at seat 2, player 1 at seat 4
RAW = re.compile(r"\{\w+\}|^[a-z]+_[a-z_]+$")
FR = Translator("fr", "five-cards")


@pytest.fixture(scope="module")
def screens():
    pygame.font.init()
    return {lang: Screen(GAMES, lang) for lang in LANGS}


def just_ended(s) -> bool:
    return s.phase == "setup" and s.match.result is not None and not s.round.shown


SITUATIONS = {
    "setup-empty": lambda s: s.phase == "setup" and not s.round.shown,
    "setup-target": lambda s: s.phase == "setup" and len(s.round.targets) == 3 and s.round.shown[-1] in s.round.targets,
    "setup-aside": lambda s: s.phase == "setup" and s.round.shown and s.round.shown[-1] in s.round.aside,
    "first": lambda s: s.phase == "first" and bool(s.round.aside),
    "play-start": lambda s: s.phase == "play" and not s.turns and bool(s.round.aside),
    "play": lambda s: s.phase == "play" and len(s.turns) > 8 and s.turns[-1].how == "auto",
    "place": lambda s: s.phase == "place" and len(s.turns) > 12 and len(page_legal(s)) >= 3,
    "round-end": lambda s: just_ended(s) and s.round.number >= 3,
    "over": lambda s: s.phase == "over",
}


def page_legal(state) -> list[int]:
    return observe(state, None)["legal_columns"] if state.phase == "place" else []


def view_of(name: str, **kwargs) -> dict:
    return table_view(GAME, first_state(GAME, 2, SITUATIONS[name], 1), seats=SEATS, **kwargs)


def shown_texts(screen: Screen, view: dict, page_name: str, step: int | None, monkeypatch):
    """A page, and every string rendered on it."""
    shown: list[str] = []
    render = draw.render
    monkeypatch.setattr(draw, "render", lambda s, *a, **k: shown.append(s) or render(s, *a, **k))
    try:
        surf = screen.render(view, page_name, step)
    finally:
        monkeypatch.setattr(draw, "render", render)
    return surf, shown


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_renders_without_raw_keys(screens, out, monkeypatch, lang):
    for name in SITUATIONS:
        view = view_of(name, clearing=False, cursor=1 if name == "place" else None)   # every page shown
        for page_name, step in screens[lang].pages(view):
            surf, shown = shown_texts(screens[lang], view, page_name, step, monkeypatch)
            assert surf.get_size() == (1280, 720)
            assert shown and not [s for s in shown if RAW.search(s)], (name, page_name, shown)
            suffix = "" if step is None else step
            pygame.image.save(surf, out / f"five-cards-{name}-{lang}-{page_name}{suffix}.png")


# ------------------------------------------------------------ the page sequence


COUNT = [("column", k) for k in range(5)] + [("scores", None)]


@pytest.mark.parametrize("seed", [1, 2])
def test_pages_follow_the_game(seed):
    """Over a whole game: the table page, except right after a round (its count column by column, then its
    scores, kept while the cards are gathered, then the table page) and at the end (the game-over page)."""
    ended = 0
    for state in random_states(GAME, 2, seed):
        view = table_view(GAME, state, seats=SEATS)
        pages = page.pages(view)
        if state.phase == "over":
            assert pages == COUNT + [("over", None)]
        elif just_ended(state):
            ended += 1
            assert view["clearing"] and pages == COUNT
            assert page.pages({**view, "clearing": False}) == COUNT + [("table", None)]
        else:
            assert pages == [("table", None)], state.phase
    assert ended >= 2


# ------------------------------------------------------------ hand-checked texts


def texts_on(screen: Screen, view: dict, page_name: str, monkeypatch, step: int | None = None) -> list[str]:
    return shown_texts(screen, view, page_name, step, monkeypatch)[1]


def test_setup_says_what_to_do_with_each_card(screens, monkeypatch):
    state = play(new_game(GAMES["five-cards"].deck, 2, 0, {}), Show("3a"), Show("5a"), Show("5b"))
    view = table_view(GAME, state, seats=SEATS)
    shown = texts_on(screens["fr"], view, "table", monkeypatch)
    assert "Déjà un 5 : mettez-la de côté" in shown
    assert "Encore 3 cibles à trouver" in shown
    assert "Un joueur : posez la carte suivante sur le lecteur du centre (encore 3 cibles)" in shown
    done = play(state, Show("6a"), Show("7a"), Show("9a"))
    shown = texts_on(screens["fr"], table_view(GAME, done, seats=SEATS), "table", monkeypatch)
    assert "Remettez les cartes mises de côté dans le paquet :" in shown
    assert "La table tire au sort le premier joueur…" in shown
    drawn = play(done, DrawFirst(1))
    shown = texts_on(screens["en"], table_view(GAME, drawn, seats=SEATS), "table", monkeypatch)
    assert "Seat 4 starts: drawn at random" in shown
    assert "Seat 4: draw the top card and lay it on your reader" in shown


def test_the_column_prompt_names_the_seat_the_cursor_and_the_buttons(screens, monkeypatch):
    """Player 0 (seat 2) draws a 1 with every column open: five options, the cursor on the second (the 5)."""
    state = play(ready(0), Draw(0, "1a"))
    view = table_view(GAME, state, seats=SEATS, cursor=1)
    assert cursor_column(view) == 1
    shown = texts_on(screens["fr"], view, "table", monkeypatch)
    assert "Siège 2 : Suivant = autre colonne · OK = poser le 1 sur le 5" in shown
    assert [s for s in shown if s.startswith(("Colonne du", "»"))] == [
        "Colonne du 5", "Colonne du 3", "» Colonne du 5", "Colonne du 6", "Colonne du 7", "Colonne du 9"]
    # first the seat panel's arrow to the cursor's column, then one option per column


def example_until_auto():
    """The rule text's example round (targets 3, 5, 6, 7, 9; seat 2 on top), up to the top player's 7
    that goes to the 9 column by itself: every column now holds a 7."""
    state = ready(0)
    for player, card, column in ((0, "7b", 0), (1, "8a", 3), (0, "7c", 1), (1, "1a", 3), (0, "7d", 2),
                                 (1, "2a", 3), (0, "7e", None)):
        state = put(state, player, card, column)
    return state


def test_a_card_with_one_column_goes_there_by_itself(screens, monkeypatch):
    shown = texts_on(screens["fr"], table_view(GAME, example_until_auto(), seats=SEATS), "table", monkeypatch)
    assert "posée d'office : seule colonne possible" in shown
    assert "Colonne du 9" in shown
    assert "Siège 4 : piochez la carte du dessus et posez-la sur votre lecteur" in shown


def test_the_count_explains_each_column_and_the_scores(screens, monkeypatch):
    """The rule text's example round: the top player (seat 2) takes the 3, 5, 6 and 9, the bottom one the 7
    (11 to 0); a 7 ends the round. Seat 4 scored less, so it starts round 2."""
    view = table_view(GAME, play(example_until_auto(), Draw(1, "7f")), seats=SEATS)
    assert page.pages(view) == COUNT
    fr = screens["fr"]
    first = texts_on(fr, view, "column", monkeypatch, 0)
    assert "Siège 4 a tiré un 7 : aucune colonne possible, fin de la manche" in first
    assert "7 contre 0 : le siège 2 marque 3" in first
    assert "11 contre 0 : le siège 4 marque 7" not in first          # a later column: not yet counted
    assert "11 contre 0 : le siège 4 marque 7" in texts_on(fr, view, "column", monkeypatch, 3)
    scores = texts_on(fr, view, "scores", monkeypatch)
    assert "3 + 5 + 6 + 9 = 23" in scores and "7" in scores
    assert "Siège 4 commence la manche 2 : moins de points à la dernière manche (7 contre 23)" in scores
    assert "Tout le monde : rassemblez toutes les cartes pour la manche suivante" in scores


def test_count_lines_and_formulas():
    table = {"joined": SEATS}
    won = {"sums": [19, 17], "rank": 4, "winner": 0, "split": False, "points": [4, 0]}
    assert column_text(FR, table, won) == "19 contre 17 : le siège 2 marque 4"
    odd = {"sums": [21, 21], "rank": 7, "winner": None, "split": True, "points": [3, 3]}
    assert column_text(FR, table, odd) == "Égalité 21 partout : 7 ÷ 2 = 3 chacun (arrondi en dessous)"
    even = {"sums": [0, 0], "rank": 10, "winner": None, "split": True, "points": [5, 5]}
    assert column_text(FR, table, even) == "Égalité 0 partout : 10 ÷ 2 = 5 chacun"
    nine = {"sums": [5, 12], "rank": 9, "winner": 1, "split": False, "points": [0, 9]}
    result = {"columns": [won, odd, even, nine], "scores": [12, 17]}
    assert score_formula(FR, result, 0) == "4 + 3 (moitié du 7) + 5 (moitié du 10) = 12"
    assert score_formula(FR, result, 1) == "3 (moitié du 7) + 5 (moitié du 10) + 9 = 17"
    assert score_formula(FR, {"columns": [nine], "scores": [0, 9]}, 0) == "0 : aucune colonne"
    assert score_formula(FR, {"columns": [nine], "scores": [0, 9]}, 1) == "9"


def test_equal_scores_the_other_seat_starts():
    view = {"starter": 0, "starter_reason": "equal_alternate", "round": 4, "round_result": {"scores": [15, 15]}}
    assert starter_text(FR, {"joined": SEATS, "view": view}) == (
        "Siège 2 commence la manche 4 : égalité (15 partout), et le siège 4 avait commencé la dernière")


def test_nothing_is_secret():
    """Five Cards has no hidden card (every card the table learns is public): a seat's view is the public
    view, so no hidden information can reach the screen."""
    for state in random_states(GAME, 2, 3):
        public = observe(state, None)
        assert all({**observe(state, p), "seat": None} == {**public, "seat": None} for p in (0, 1))


# ------------------------------------------------------------ layout


def parts_of(drawing, screen: Screen, view: dict, page_name: str, step: int | None) -> list:
    """What a page draws side by side: texts, tags, chips, badges and crowns (not what is inside them)."""
    parts = drawing(lambda: screen.render(view, page_name, step), {
        "text": lambda rect, *a: rect, "tag": lambda rect, *a: rect, "chip": lambda _, surf, rect, *a: rect,
        "badge": lambda _, c, r, *a: around(c, r), "crown": lambda _, c, r, *a: around(c, r)}, RankFaces)
    return [(name, text, rect) for name, text, rect in parts]


def crowded(view: dict) -> dict:
    """The place view with the choosing seat's side of its cursor column holding eight cards (nine with the
    card drawn: three full rows) and the other side of every column seven."""
    view = copy.deepcopy(view)
    v = view["view"]
    cursor = cursor_column(view)
    for column in v["columns"]:
        column["sides"][1 - v["active"]] = [f"{rank}a" for rank in range(2, 9)]
    v["columns"][cursor]["sides"][v["active"]] = [f"{rank}b" for rank in range(2, 10)]
    return view


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_overlaps_or_leaves_the_screen(screens, out, drawing, lang):
    screen = screens[lang]
    views = {name: view_of(name, clearing=False) for name in SITUATIONS}
    views["crowded"] = crowded(view_of("place", cursor=2))
    for name, view in views.items():
        for page_name, step in screen.pages(view):
            if page_name == "over":
                continue                       # the shared page
            parts = parts_of(drawing, screen, view, page_name, step)
            assert len(parts) > 10
            outside = [p for p in parts if not pygame.Rect(0, 0, 1280, 720).contains(p[2])]
            overlapping = [(a, b) for i, a in enumerate(parts) for b in parts[i + 1:] if a[2].colliderect(b[2])]
            assert not outside and not overlapping, (name, page_name, step, outside, overlapping)
    pygame.image.save(screen.render(views["crowded"], "table"), out / f"five-cards-crowded-{lang}-table.png")
