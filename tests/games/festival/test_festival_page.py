"""Festival's screen pages: every page renders at 4 and 5 players (full and simplified) in both languages, the
page sequence follows the game, the texts say who does what and why, and nothing hidden (a packet card, a
face-down card, a card whose face is being chosen) changes a pixel."""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pygame
import pytest

from games.tables import Played, first_state, table_view
from table.registry import GAMES
from table.games.festival import page, rules
from table.games.kit.replay import replay
from table.screen import Screen
from table.screen.i18n import LANGS, Translator

GAME = GAMES["festival"]
DECK = GAMES["festival"].deck
SEATS = {4: [1, 3, 4, 6], 5: [1, 2, 3, 5, 6]}
RAW = re.compile(r"\{\w+\}|^[a-z]+_[a-z_]+$")

MOMENTS = {
    "draw": lambda s: s.phase == "draw" and len(s.packet) == 2 and s.turn == 3,
    "keep": lambda s: s.phase == "keep" and not s.choices and s.turn == 4,
    "face": lambda s: s.phase == "face" and len(s.choices) == 2,
    "pass": lambda s: s.phase == "keep" and len(rules.need(s).players) > 1 and s.turn > 1,
    "last": lambda s: s.phase == "keep" and len(s.packet) == 2,
    "turn": lambda s: s.phase == "draw" and not s.packet and s.turn == 6,
    "over": lambda s: s.phase == "over",
}


@cache
def state(moment: str, players: int, simplified: bool = False):
    return first_state(GAME, players, MOMENTS[moment], seed=players, options={"simplified": simplified})


def view_of(moment: str, players: int, simplified: bool = False, clearing: bool | None = False, slots: int = 1):
    return table_view(GAME, state(moment, players, simplified), SEATS[players], seat_pads=slots, clearing=clearing)


@pytest.fixture(scope="module")
def screens():
    pygame.font.init()
    return {lang: Screen(GAMES, lang) for lang in LANGS}


TEXTS = {"text": lambda rect, *a: rect, "tag": lambda rect, *a: rect}


def texts_drawn(drawing, screen: Screen, view: dict, shown: str) -> list[str]:
    return [text for _, text, _ in drawing(lambda: screen.render(view, shown), TEXTS)]


# ------------------------------------------------------------ every page


CASES = [(moment, players, False) for players in (4, 5) for moment in MOMENTS] + \
        [(moment, players, True) for players in (4, 5) for moment in ("draw", "over")]


@pytest.mark.parametrize("moment,players,simplified", CASES)
def test_every_page_renders_without_raw_keys(screens, out, drawing, moment, players, simplified):
    view = view_of(moment, players, simplified)
    for lang in LANGS:
        for kind, step in screens[lang].pages(view):
            surfs = []
            parts = drawing(lambda: surfs.append(screens[lang].render(view, kind, step)), TEXTS)
            for _, text, rect in parts:
                assert not RAW.search(text), (kind, text)
                assert pygame.Rect(0, 0, 1280, 720).contains(rect), (kind, text, rect)
            name = f"{moment}-{players}p{'-simplified' if simplified else ''}-{lang}-{kind}.png"
            pygame.image.save(surfs[0], out / name)


def test_pages_follow_the_game(screens):
    pages = screens["fr"].pages
    for moment in ("draw", "keep", "face", "pass", "last"):
        assert pages(view_of(moment, 4)) == [("table", None)]
    assert pages(view_of("turn", 5, clearing=True)) == [("turn", None)]
    assert pages(view_of("turn", 5, clearing=False)) == [("turn", None), ("table", None)]
    assert pages(view_of("over", 4)) == [("turn", None), ("reveal", None), ("scores", None), ("over", None)]


# ------------------------------------------------------------ what the pages say


def test_the_prompt_bar_says_who_does_what(screens, drawing):
    def bar(moment, lang="fr", slots=1):
        return texts_drawn(drawing, screens[lang], view_of(moment, 5, slots=slots), "table")[-1]

    def seat(player):
        return SEATS[5][player]

    assert bar("draw") == f"Siège {seat(state('draw', 5).first)} : piochez 6 cartes, touchez-les une à une sur " \
                          "votre lecteur sans les montrer (2/6)"
    first = seat(state("keep", 5).first)
    assert bar("keep", "en") == f"Seat {first}: tap the card you keep on your reader"
    assert bar("keep", slots=4) == f"Siège {first} : la carte gardée sur votre 1er lecteur (face cachée) ou le 2e " \
                                   "(face visible)"
    assert bar("face") == f"Siège {seat(state('face', 5).choices[-1].player)} : OK pour face cachée, Suivant puis " \
                          "OK pour face visible"
    passing = state("pass", 5)
    seats = screens["fr"].t.seats([seat(p) for p in passing.allowed])
    assert bar("pass").startswith(f"Siège {seat(passing.choices[-1].player)} : donnez les {len(passing.packet)} "
                                  "cartes à un joueur")
    assert f"({seats})" in bar("pass")
    assert bar("last") == f"Siège {seat(rules.need(state('last', 5)).players[0])} : gardez une des 2 cartes " \
                          "(touchez-la), défaussez l'autre face cachée"


def test_the_end_of_a_turn_names_the_next_first_player_and_why(screens, drawing):
    view = view_of("turn", 5)
    turn = view["view"]["log"][-1]
    texts = texts_drawn(drawing, screens["fr"], view, "turn")
    seat = SEATS[5][turn["next_first"]]
    if turn["reason"] == rules.STAYS:
        assert f"Le Siège {seat} reste premier joueur : aucune autre carte face visible" in texts
    else:
        number = DECK.cards[turn["deciding"]].number
        assert any(t.startswith(f"Prochain premier joueur : Siège {seat} (") and f"{number}" in t for t in texts)
    for (giver, receiver) in turn["passed"]:
        assert f"reçu du siège {SEATS[5][giver]}" in texts


def test_the_gold_table_shows_each_seats_breakdown(screens, drawing):
    view = view_of("over", 4)
    texts = texts_drawn(drawing, screens["en"], view, "scores")
    for gold in view["view"]["gold"]:
        assert str(gold["total"]) in texts
        assert f"{gold['professions']}: +{gold['sets']}" in texts
        for won in gold["majority"].values():
            assert not won or f"+{won}" in texts


def test_the_simplified_gold_is_the_sum_of_the_numbers(screens, drawing):
    view = view_of("over", 5, simplified=True)
    texts = texts_drawn(drawing, screens["fr"], view, "scores")
    assert "Jeu simplifié : l'or de chacun est la somme des nombres de ses cartes" in texts
    for p, revealed in enumerate(view["view"]["revealed"]):
        assert view["view"]["gold"][p]["total"] == sum(DECK.cards[r["card"]].number for r in revealed)


# ------------------------------------------------------------ secrecy


def hidden_twin(players: int, moment: str):
    """A state at `moment` and the same game with one hidden card (the packet's, a face-down card or one whose
    face is being chosen) exchanged with a card still in the pile."""
    played = Played.record(rules, DECK, players, players)
    i = next(i for i, s in enumerate(played.states) if MOMENTS[moment](s))
    st = played.states[i]
    pile = rules.in_play(st)
    seen = {c.card for t in st.log for c in t.choices} | {t.discard for t in st.log} | set(st.packet)
    pile = [c for c in pile if c not in seen and c not in {c.card for c in st.choices}]
    secret = [c.card for c in st.choices if not c.up] + list(st.packet)
    a, b = secret[0], pile[0]
    swap = {a: b, b: a}
    actions = [type(x)(**{f: swap.get(getattr(x, f), getattr(x, f)) for f in x.__slots__}) for x in played.actions[:i]]
    return st, replay(rules, DECK, players, played.states[0].first, {}, actions)


@pytest.mark.parametrize("moment", ["draw", "face", "pass", "last"])
@pytest.mark.parametrize("players", [4, 5])
def test_hidden_cards_change_no_pixel(screens, players, moment):
    one, other = hidden_twin(players, moment)
    assert one != other
    for lang in LANGS:
        views = [table_view(GAME, s, SEATS[players], clearing=False) for s in (one, other)]
        assert views[0] == views[1]
        for kind, step in screens[lang].pages(views[0]):
            shown = [pygame.image.tobytes(screens[lang].render(v, kind, step), "RGB") for v in views]
            assert shown[0] == shown[1]


# ------------------------------------------------------------ texts


def test_every_refusal_and_option_has_a_text():
    """The README's refusal keys, and each option with each of its values, in both languages."""
    readme = (Path(page.__file__).parent / "README.md").read_text()
    table = readme[readme.index("## Refusal keys"):]
    refusals = re.findall(r"^\| `(\w+)`", table, re.MULTILINE)
    assert len(refusals) == 15
    options = [f"option_{o.name}" for o in rules.INFO.options]
    options += [f"option_{o.name}_{str(v).lower()}" for o in rules.INFO.options for v in o.choices]
    for lang in LANGS:
        t = Translator(lang, "festival")
        for key in refusals + options:
            assert t.has(key), (lang, key)
