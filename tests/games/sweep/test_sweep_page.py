"""Sweep's screen pages: every page renders, the page sequence follows the game, the texts say what
happened and what to do, and nothing hidden (a registered card, a hand) changes a pixel."""
from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

import pygame
import pytest

from games.tables import first_state, table_view
from table.registry import GAMES
from table.games.sweep import rules
from table.games.sweep.view import deal_ended, fresh, ranks_text, takers
from table.screen import Screen
from table.screen.i18n import LANGS, Translator

GAME = GAMES["sweep"]
SEATS = {3: [2, 4, 5], 4: [1, 3, 4, 6], 5: [1, 2, 3, 5, 6], 6: [1, 2, 3, 4, 5, 6]}
RAW = re.compile(r"\{\w+\}|^[a-z]+_[a-z_]+$")

# The moments of a game the screen must show, as tests on the engine state (with the options they need).
MOMENTS = {
    "register": (lambda s: s.phase == "register" and sum(map(len, s.hands)) == 2 * s.players + 1, None),
    "draw": (lambda s: s.phase == "draw", None),
    "centre": (lambda s: s.phase == "centre" and s.round.number == 1 and len(s.centre) == 2, None),
    "play": (lambda s: s.phase == "play" and len(s.played) == 2, None),
    "pick": (lambda s: s.phase == "pick" and s.round.work.steps and s.round.work.tie.taken, None),
    "capture": (lambda s: s.phase == "centre" and s.round.number == 3 and not s.centre, None),
    "refill": (lambda s: s.phase == "centre" and s.round.number == 3 and len(s.centre) == 1, None),
    "deal": (lambda s: s.phase == "register" and s.deal.number == 2 and not any(s.hands), {"match": True}),
    "over": (lambda s: s.phase == "over", None),
}


@cache
def state(moment: str, players: int):
    test, options = MOMENTS[moment]
    return first_state(GAME, players, test, seed=players, options=options)


def view_of(moment: str, players: int, clearing: bool | None = None) -> dict:
    return table_view(GAME, state(moment, players), SEATS[players], clearing=clearing)


@pytest.fixture(scope="module")
def screens():
    pygame.font.init()
    return {lang: Screen(GAMES, lang) for lang in LANGS}


def rendered(drawing, screen: Screen, view: dict, shown: str, step: int | None = None):
    """A page's surface, and every text and tag it draws with its rect (not the ones inside badges)."""
    surfs = []
    parts = drawing(lambda: surfs.append(screen.render(view, shown, step)),
                    {"text": lambda rect, *a: rect, "tag": lambda rect, *a: rect})
    return surfs[0], [(text, rect) for _, text, rect in parts]


def texts_drawn(drawing, screen: Screen, view: dict, shown: str, step: int | None = None) -> list[str]:
    """Every text and tag a page draws."""
    return [text for text, _ in rendered(drawing, screen, view, shown, step)[1]]


def prompt_of(drawing, screen: Screen, view: dict, shown: str = "table") -> str:
    """The prompt bar's text (the last text a page with a prompt bar draws)."""
    return texts_drawn(drawing, screen, view, shown)[-1]


# ------------------------------------------------------------ every page, every size, both languages


# The pages worth a PNG in each moment (the others are drawn and checked, not saved: PNGs are slow to write).
SAVED = {"pick": ("step", "pick"), "capture": ("step", "take", "table"), "deal": ("scores", "table"),
         "over": ("over",)}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_page_renders(screens, out, drawing, lang, players):
    """Every page of every moment is drawn, with no raw key; the smallest and largest tables are saved."""
    for moment in MOMENTS:
        view = view_of(moment, players, clearing=False)
        for shown, step in screens[lang].pages(view):
            surf, parts = rendered(drawing, screens[lang], view, shown, step)
            assert surf.get_size() == (1280, 720)
            assert parts, (moment, shown)
            assert not [text for text, _ in parts if RAW.search(text)], (moment, shown)
            if players in (3, 6) and shown in SAVED.get(moment, ("table",)):
                name = f"sweep-{moment}-{players}p-{lang}-{shown}{'' if step is None else step}.png"
                pygame.image.save(surf, out / name)


# ------------------------------------------------------------ the sequence of pages


def steps(view: dict) -> list[tuple[str, int]]:
    return [("step", k) for k in range(len(view["view"]["last_round"]["steps"]))]


def test_pages_follow_the_game(screens):
    pages = screens["fr"].pages
    for moment in ("register", "draw", "centre", "play", "refill"):
        assert pages(view_of(moment, 4)) == [("table", None)], moment
    # a tie waiting for a pick: the steps done, then the pick
    pick = view_of("pick", 4)
    assert pages(pick) == [("step", k) for k in range(len(pick["view"]["capture"]["steps"]))] + [("pick", None)]
    # a capture: each step, then what to take; the table page only once every pad is clear
    captured = view_of("capture", 4)
    assert captured["clearing"]
    assert pages(captured) == steps(captured) + [("take", None)]
    assert pages(view_of("capture", 4, clearing=False)) == steps(captured) + [("take", None), ("table", None)]
    # the end of a deal in a match: its scores, then the next deal's registration
    dealt = view_of("deal", 4)
    assert pages(dealt) == steps(dealt) + [("take", None), ("scores", None)]
    assert pages(view_of("deal", 4, clearing=False))[-2:] == [("scores", None), ("table", None)]
    # the end of the game
    over = view_of("over", 4)
    assert pages(over) == steps(over) + [("take", None), ("scores", None), ("over", None)]
    assert pages(table_view(GAME, rules.apply(state("deal", 4), rules.legal_actions(state("deal", 4))[0]),
                            SEATS[4])) == [("table", None)]


def test_what_the_view_says():
    step = {"taken": [{"player": 2, "rank": 4}, {"player": 0, "rank": 2}, {"player": 2, "rank": 5}]}
    assert takers(step) == [(2, [4, 5]), (0, [2])]
    assert ranks_text([2, 4, 4]) == "4, 4, 2"
    view = view_of("capture", 3)["view"]
    assert fresh(view) and not deal_ended(view)
    assert deal_ended(view_of("over", 3)["view"])
    assert not fresh(view_of("refill", 3)["view"])
    # the take page's figures are the steps' captures
    last = view["last_round"]
    took = {}
    for s in last["steps"]:
        for p, ranks in takers(s):
            took.setdefault(p, []).extend(ranks)
    assert {p: sorted(r) for p, r in took.items()} == {p: r for p, r in last["took"]}


# ------------------------------------------------------------ what the texts say


def test_the_prompt_bar_names_who_acts(screens, drawing):
    fr = screens["fr"]

    def seat(view: dict, p: int) -> int:
        return view["joined"][p]

    play = view_of("play", 3)
    assert prompt_of(drawing, fr, play) == f"Siège {seat(play, play['view']['turn'])} : posez sur votre lecteur " \
                                          "la carte que vous jouez"
    centre = view_of("centre", 3)
    assert prompt_of(drawing, fr, centre) == f"Siège {seat(centre, centre['view']['dealer'])} (donneur) : posez " \
                                             "3 cartes de la pioche sur le lecteur du centre"
    assert prompt_of(drawing, fr, view_of("register", 3)) == \
        "Tout le monde : posez vos 5 cartes, une à une, sur votre lecteur"
    pick = view_of("pick", 3)
    picker = seat(pick, pick["view"]["capture"]["picker"])
    assert prompt_of(drawing, fr, pick, "pick") == \
        f"Siège {picker} : posez sur votre lecteur la carte du centre que vous prenez"
    assert f"Siège {picker} choisit" in texts_drawn(drawing, fr, pick, "pick")
    assert prompt_of(drawing, screens["en"], play).startswith(f"Seat {seat(play, play['view']['turn'])}: ")


def test_the_table_page_shows_registrations_and_who_starts(screens, drawing):
    view = view_of("register", 3)
    shown = texts_drawn(drawing, screens["fr"], view, "table")
    for n in view["view"]["registered"]:
        assert f"{n}/5" in shown
    first = view_of("centre", 3)
    assert f"Siège {first['joined'][first['view']['first_player']]} commence : tiré au sort" in \
        texts_drawn(drawing, screens["fr"], first, "table")
    later = view_of("refill", 3)
    assert later["view"]["first_reason"] == "last_taker"
    assert f"Siège {later['joined'][later['view']['first_player']]} commence : a pris la dernière carte" in \
        texts_drawn(drawing, screens["fr"], later, "table")


def test_each_step_says_its_rule_and_what_it_took(screens, drawing):
    view = view_of("capture", 4)
    t = Translator("fr", "sweep")
    for k, step in enumerate(view["view"]["last_round"]["steps"]):
        shown = texts_drawn(drawing, screens["fr"], view, "step", k)
        who = t.seats([view["joined"][p] for p in step["players"]])
        verb = "joue" if len(step["players"]) == 1 else "jouent"
        assert any(s.startswith(f"{who} {verb} {step['rank']}") for s in shown), shown
        for p, ranks in takers(step):
            assert f"Siège {view['joined'][p]} prend {ranks_text(ranks)}" in " · ".join(shown)


def test_the_take_page_lists_what_each_seat_takes(screens, drawing):
    view = view_of("capture", 4)
    last = view["view"]["last_round"]
    shown = texts_drawn(drawing, screens["fr"], view, "take")
    took = dict(last["took"])
    for p, seat in enumerate(view["joined"]):
        if p in took:
            line = f"Siège {seat} prend {', '.join(map(str, sorted(took[p], reverse=True)))} dans sa main"
        else:
            line = f"Siège {seat} : rien à prendre"
        assert line in shown
    assert "Le reste du centre est défaussé :" in shown
    assert f"Siège {view['joined'][last['last_taker']]} commence : a pris la dernière carte" in shown


def test_every_score_line_explains_itself(screens, drawing):
    view = view_of("deal", 4)
    scores = view["view"]["scores"]
    t = Translator("fr", "sweep")
    shown = texts_drawn(drawing, screens["fr"], view, "scores")
    for line in scores["ranks"]:
        if line["scorers"]:
            assert t.count("most", line["most"], seats=t.seats([view["joined"][p] for p in line["scorers"]])) in shown
            assert f"+{line['rank']}" in shown
        else:
            assert "Personne" in shown
    assert "Total (objectif 150)" in shown
    for figure in scores["points"] + view["view"]["totals"]:
        assert str(figure) in shown


def test_the_game_over_page_names_the_deals(screens, drawing):
    view = view_of("over", 3)
    shown = texts_drawn(drawing, screens["fr"], view, "over")
    assert "Donne 1" in shown and "Une donne" in shown


# ------------------------------------------------------------ layout


def test_texts_stay_on_screen_and_apart(screens, drawing):
    """The busiest pages at 6 players: every text inside the screen, no two texts on top of each other."""
    screen = pygame.Rect(0, 0, 1280, 720)
    for lang in LANGS:
        for moment in ("register", "play", "pick", "deal"):
            view = view_of(moment, 6, clearing=False)
            for shown, step in screens[lang].pages(view):
                rects = [rect for _, rect in rendered(drawing, screens[lang], view, shown, step)[1]]
                assert all(screen.contains(r) for r in rects), (moment, shown, step)
                assert not [(a, b) for i, a in enumerate(rects) for b in rects[i + 1:] if a.colliderect(b)], \
                    (lang, moment, shown, step)


# ------------------------------------------------------------ secrets


def pixels(screen: Screen, view: dict) -> bytes:
    return pygame.image.tobytes(screen.render(view, "table"), "RGB")


def test_a_registered_card_changes_no_pixel(screens):
    before = state("register", 4)
    cards = [a for a in rules.legal_actions(before) if a.player == 0]
    one, other = (rules.apply(before, a) for a in (cards[0], cards[-1]))
    assert one.hands != other.hands
    for screen in screens.values():
        assert pixels(screen, table_view(GAME, one, SEATS[4])) == pixels(screen, table_view(GAME, other, SEATS[4]))


def test_a_hand_changes_no_pixel(screens):
    """Player 0 holding another card (one still in the pile) while seats play: the same screen."""
    now = state("play", 4)
    held = min(now.hands[0])
    unseen = rules.pile_cards(now)[0]
    index = now.tables.index
    pile = bytearray(now.pile)
    pile[index[held]], pile[index[unseen]] = 1, 0
    swapped = replace(now, hands=(now.hands[0] - {held} | {unseen},) + now.hands[1:], pile=bytes(pile))
    for screen in screens.values():
        assert pixels(screen, table_view(GAME, now, SEATS[4])) == pixels(screen, table_view(GAME, swapped, SEATS[4]))


def test_a_seat_with_an_empty_hand_passes(screens, out, drawing):
    """A seat skipped for the round (its hand empty) is shown last in the order of play, passing."""
    for lang, passes in (("fr", "main vide"), ("en", "no cards")):
        view = view_of("play", 6)
        public = view["view"]
        skipped = public["order"].pop()
        public["skipped"], public["hand_counts"][skipped] = [skipped], 0
        assert passes in texts_drawn(drawing, screens[lang], view, "table")
        pygame.image.save(screens[lang].render(view, "table"), out / f"sweep-skipped-6p-{lang}-table.png")
