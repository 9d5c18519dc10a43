"""Kitty's screen pages: every page renders at 3 to 6 players (hard, soft, partners, long game, stakes) in
both languages, the page sequence follows the game, the texts say what happened and who does what next,
and nothing hidden (a registered card, a pass, a bid before the reveal) changes a pixel."""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pygame
import pytest
from conftest import around

from games.tables import first_state, table_view
from table.registry import GAMES
from table.games.kitty import page, rules
from table.games.kitty.view import lowest_up, take_moves
from table.screen.draw import TEAMS
from table.screen import Screen
from table.screen.i18n import LANGS, Translator

GAME = GAMES["kitty"]
RANK = rules.tables(GAMES["kitty"].deck).rank
SEATS = {3: [2, 4, 5], 4: [1, 3, 4, 6], 5: [1, 2, 3, 5, 6], 6: [1, 2, 3, 4, 5, 6]}
RAW = re.compile(r"\{\w+\}|^[a-z]+_[a-z_]+$")
HARD = {"long": True, "stakes": 1}                       # hard rounds, the long game to 100
SOFT = {"soft": True, "partners": True, "stakes": 2}     # partners apply at 4 and 6 players only


def round_end(s) -> bool:
    return s.phase == "targets" and not s.targets and s.round > 1


def tie_below_the_winner(steps) -> bool:
    """A tie, then a bid of a higher rank that wins."""
    return steps[0].kind == "tie" and steps[-1].kind == "win" and RANK[steps[-1].bid] > steps[0].rank


# The moments of a game the screen must show, as tests on the engine state.
MOMENTS = {
    "register": lambda s: s.phase == "register" and 0 < sum(map(len, s.hands)) < 2 * s.players,
    "show": lambda s: s.phase == "targets" and (len(s.targets) == 1 if s.soft else s.round == 1),
    "pass": lambda s: s.phase == "pass" and sum(c is not None for c in s.passes) == 2,
    "bid": lambda s: s.phase == "bid" and sum(c is not None for c in s.bids) == 1,
    "reveal": lambda s: round_end(s) and tie_below_the_winner(s.log[-1].steps),
    "pick": lambda s: s.phase == "pick",
    "gift": lambda s: s.phase == "gift",
    "deal": lambda s: s.phase == "register" and s.deal == 2 and not any(s.hands),
    "over": lambda s: s.phase == "over",
}


def cases() -> list[tuple[str, int, dict]]:
    """Every moment at every player count: hard at 3 and 5 players, soft with partners at 4 and 6 (a pick
    needs the soft option, a second deal the long game)."""
    return [(moment, players, SOFT if moment == "pick" or (players % 2 == 0 and moment != "deal") else HARD)
            for players in (3, 4, 5, 6) for moment in MOMENTS]


SAVED: set[tuple] = set()   # the pages saved as PNG so far


@cache
def state(moment: str, players: int, options: tuple):
    return first_state(GAME, players, MOMENTS[moment], seed=players, options=dict(options))


def view_of(moment: str, players: int, options: dict = HARD, clearing: bool | None = None) -> dict:
    return table_view(GAME, state(moment, players, tuple(options.items())), SEATS[players], clearing=clearing)


@pytest.fixture(scope="module")
def screens():
    pygame.font.init()
    return {lang: Screen(GAMES, lang) for lang in LANGS}


TEXTS = {"text": lambda rect, *a: rect, "tag": lambda rect, *a: rect}


def rendered(drawing, screen: Screen, view: dict, shown: str, step: int | None = None, boxes=TEXTS, faces=None):
    """A page's surface, and the parts it draws side by side: (kind, text, rect)."""
    surfs = []
    parts = drawing(lambda: surfs.append(screen.render(view, shown, step)), boxes, faces)
    return surfs[0], parts


def texts_drawn(drawing, screen: Screen, view: dict, shown: str, step: int | None = None) -> list[str]:
    return [text for _, text, _ in rendered(drawing, screen, view, shown, step)[1]]


def prompt_of(drawing, screen: Screen, view: dict, shown: str, step: int | None = None) -> str:
    """The prompt bar's text (the last text drawn on a page that has one)."""
    return texts_drawn(drawing, screen, view, shown, step)[-1]


# ------------------------------------------------------------ every page


@pytest.mark.parametrize("moment,players,options", cases(),
                         ids=[f"{m}-{n}p-{'soft' if o is SOFT else 'hard'}" for m, n, o in cases()])
def test_every_page_renders_without_raw_keys(screens, out, drawing, moment, players, options):
    """Every page of the moment renders, its texts inside the screen and translated; saved as PNG (a page
    that does not stay on screen only the first time it is seen at this player count: PNGs are slow)."""
    view = view_of(moment, players, options)
    name = f"{moment}-{players}p-{'soft' if options is SOFT else 'hard'}"
    for lang in LANGS:
        shown = screens[lang].pages(view)
        for i, (kind, step) in enumerate(shown):
            surf, texts = rendered(drawing, screens[lang], view, kind, step)
            assert surf.get_size() == (1280, 720)
            for _, text, rect in texts:
                assert not RAW.search(text), (kind, text)
                assert pygame.Rect(0, 0, 1280, 720).contains(rect), (kind, text, rect)
            if i == len(shown) - 1 or (players, lang, kind, step) not in SAVED:
                SAVED.add((players, lang, kind, step))
                pygame.image.save(surf, out / f"{name}-{lang}-{kind}{'' if step is None else step}.png")


# ------------------------------------------------------------ the page sequence


def reveal(n: int) -> list:
    return [("reveal", k) for k in range(n)]


def test_pages_follow_the_game(screens):
    pages = screens["fr"].pages
    for moment in ("register", "show", "pass", "bid"):
        assert pages(view_of(moment, 4)) == [("table", None)]
    # a round's reveal, step by step, then what everyone takes; the table page once the pads are clear
    ended = view_of("reveal", 4)
    steps = len(ended["view"]["resolution"]["steps"])
    assert steps >= 2
    assert pages(view_of("reveal", 4, clearing=True)) == reveal(steps) + [("take", None)]
    assert pages(view_of("reveal", 4, clearing=False)) == reveal(steps) + [("take", None), ("table", None)]
    # a deal of the long game ended: its last round, the take page, the scores; then the table
    deal = view_of("deal", 5, clearing=False)
    steps = len(deal["view"]["resolution"]["steps"])
    assert pages(deal) == reveal(steps) + [("take", None), ("scores", None), ("table", None)]
    # the game's end: with stakes, the settlement before the game-over page
    over = view_of("over", 6, SOFT)
    steps = len(over["view"]["resolution"]["steps"])
    assert over["view"]["stakes"]
    assert pages(over) == reveal(steps) + [("take", None), ("scores", None), ("stakes", None), ("over", None)]
    assert pages(view_of("over", 3, {}))[-3:] == [("take", None), ("scores", None), ("over", None)]


@pytest.mark.parametrize("moment", ["pick", "gift"])
def test_a_choice_awaited_is_the_last_reveal_step_and_the_sequence_only_grows(screens, moment):
    """While a pick or a gift is awaited, its reveal ends on the choice; once made, the reveal goes on (the
    pager does not start it again: the new sequence begins with the old one)."""
    pages = screens["fr"].pages
    st = state(moment, 6, tuple(SOFT.items()))
    view = table_view(GAME, st, SEATS[6], clearing=False)
    waiting = pages(view)
    assert waiting == reveal(len(st.steps) + 1)
    after = rules.apply(st, rules.legal_actions(st)[0])
    grown = pages(table_view(GAME, after, SEATS[6], clearing=True))
    assert grown[:len(waiting)] == waiting and len(grown) > len(waiting)


# ------------------------------------------------------------ what the pages say


@pytest.mark.parametrize("lang,phase,expected", [
    ("fr", "register", "Tout le monde : touchez vos 12 cartes"), ("en", "pass", "Everyone: tap the card you pass"),
    ("fr", "bid", "Tout le monde : posez votre mise face cachée"), ("en", "show", "Anyone: turn up a target"),
])
def test_the_prompt_bar_says_who_does_what(screens, drawing, lang, phase, expected):
    assert prompt_of(drawing, screens[lang], view_of(phase, 4, clearing=False), "table").startswith(expected)


def test_the_prompt_bar_names_the_seat_that_picks_or_gives(screens, drawing):
    pick = view_of("pick", 4, SOFT, clearing=False)
    seat = pick["joined"][pick["view"]["picker"]]
    assert prompt_of(drawing, screens["fr"], pick, *screens["fr"].pages(pick)[-1]) == \
        f"Siège {seat} : touchez la cible choisie sur votre lecteur"
    gift = view_of("gift", 5, HARD, clearing=False)
    giver = gift["joined"][gift["view"]["gift"]["giver"]]
    texts = texts_drawn(drawing, screens["fr"], gift, *screens["fr"].pages(gift)[-1])
    receivers = [gift["joined"][p] for p in gift["view"]["gift"]["receivers"]]
    listed = f"Siège {', '.join(map(str, receivers[:-1]))} ou {receivers[-1]}"
    # who decides (the 1's seat), to whom (the seats allowed), how (hands it over; the receiver taps it)
    assert any(t.startswith(f"Siège {giver} (le 1) choisit qui reçoit la cible") and t.endswith(listed)
               for t in texts)
    assert texts[-1] == f"Siège {giver} : tendez la cible à {listed}, au choix ; qui la reçoit la touche sur son lecteur"
    # while the bids still lie on the pads, the bar says to clear them first
    assert prompt_of(drawing, screens["fr"], view_of("gift", 5, HARD, clearing=True),
                     *screens["fr"].pages(gift)[-1]).startswith("Tout le monde : mises à la défausse")


def test_the_reveal_walks_the_bids_from_the_lowest_up():
    def step(kind, **fields):
        return {"step": kind, **fields}
    tie5, tie6 = step("tie", rank=5, players=[1, 2]), step("tie", rank=6, players=[3, 4])
    win = step("win", player=0, bid="4a", card="9a")
    assert lowest_up([tie5, tie6, win], RANK) == [win, tie5, tie6]
    pick, tie3 = step("pick", player=0, bid="1a", card="9a"), step("tie", rank=3, players=[1, 2])
    take, gift = step("take", player=3, bid="5a", card="7a"), step("gift", player=0, card="9a", to=2)
    assert lowest_up([tie3, pick, take, gift], RANK) == [pick, tie3, take, gift]
    discard = step("discard", card="9a", why="no_unique")
    assert lowest_up([discard, tie6, tie5], RANK) == [tie5, tie6, discard]


def test_the_reveal_strikes_a_tie_then_names_the_winner(screens, drawing):
    view = view_of("reveal", 4)
    steps = view["view"]["resolution"]["steps"]
    tie, win = steps[0], steps[-1]
    first = texts_drawn(drawing, screens["fr"], view, "reveal", 0)
    assert f"Égalité des {tie['rank']} ({screens['fr'].t.seats([view['joined'][p] for p in tie['players']])}) : " \
           "mises ignorées" in first
    assert first.count("égalité") == len(tie["players"]) and "gagne" not in first
    second = texts_drawn(drawing, screens["fr"], view, "reveal", 1)
    seat = view["joined"][win["player"]]
    assert any(t.startswith(f"Le {RANK[win['bid']]} (siège {seat}) est la plus petite mise unique") for t in second)
    assert second.count("gagne") == 1 and f"Siège {seat}" in second   # the mark, the target's tag


def test_take_moves_match_the_hands():
    """What the take page lists is what the engine put in each hand; every other target is discarded."""
    for players in (3, 4, 5, 6):
        for options in (HARD, SOFT):
            for seed in range(4):
                st = first_state(GAME, players, round_end, seed=seed, options=options)
                view = rules.observe(st, None)
                taken, discarded = take_moves(view, RANK)
                for p, cards in enumerate(taken):
                    assert set(cards) <= set(st.hands[p])
                assert set(discarded) <= st.out
                assert sorted(discarded + [card for cards in taken for card in cards]) == sorted(st.log[-1].targets)


def test_the_take_page_lists_each_seats_cards(screens, drawing):
    view = view_of("reveal", 6, SOFT)
    faces = type(screens["fr"].faces("kitty"))
    chips = []
    drawing(lambda: screens["fr"].render(view, "take"),
            {"chip": lambda _, surf, rect, card: chips.append((rect.centery, rect.x, card)) or rect}, faces)
    rows = sorted({y for y, _, _ in chips})
    listed = [[card for y, _, card in sorted(chips) if y == row] for row in rows]
    taken, discarded = take_moves(view["view"], RANK)
    bids = view["view"]["resolution"]["bids"]
    assert listed == [taken[p] + [bids[p]] for p in range(6)] + ([discarded] if discarded else [])


def test_scores_spell_out_each_units_points(screens, drawing):
    view = view_of("over", 6, SOFT)
    scores = view["view"]["scores"]
    texts = texts_drawn(drawing, screens["en"], view, "scores")
    for u, points in enumerate(scores["unit_points"]):
        won = [r for i, r in enumerate(scores["ranks"]) if u in scores["scorers"][i]]
        formula = " + ".join(map(str, won)) + f" = {points}" if len(won) > 1 else str(points)
        assert formula in texts
    assert "Each rank scores its value for whoever holds most of it (ties: all score)" in texts


def test_stakes_say_who_pays_whom(screens, drawing):
    view = view_of("over", 3, SOFT)
    stakes = view["view"]["stakes"]
    texts = texts_drawn(drawing, screens["en"], view, "stakes")
    for payment in stakes["payments"]:
        payer, payee = (view["joined"][payment[k][0]] for k in ("from", "to"))
        assert any(t.startswith("pays") and f"{payment['amount']} to Seat {payee}" in t for t in texts)
        assert any(t.startswith("gets") and f"{payment['amount']} from Seat {payer}" in t for t in texts)


@pytest.mark.parametrize("players", [4, 6])
def test_partners_show_team_bands_and_totals(screens, drawing, players):
    view = view_of("show", players, SOFT)
    teams = view["view"]["teams"]
    assert teams
    texts = texts_drawn(drawing, screens["fr"], view, "table")
    for team in teams:
        a, b = (view["joined"][p] for p in team)
        assert f"Sièges {a} et {b}" in texts
    surf = screens["fr"].render(view, "table")
    top = 84 + 12 + 36
    h = min(100, (720 - 68 - 8 + 8 - top) // players)
    for p in range(players):
        team = next(i for i, members in enumerate(view["view"]["teams"]) if p in members)
        assert surf.get_at((page.ROWS_X + 3, top + p * h + h // 2))[:3] == TEAMS[team]


def test_registration_shows_counts_against_the_hand_size(screens, drawing):
    view = view_of("register", 5)
    texts = texts_drawn(drawing, screens["fr"], view, "table")
    for count in view["view"]["registered"]:
        assert f"{count}/9" in texts
    assert texts.count("9") >= 5                     # each seat holds its 9 dealt cards, registered or not


# ------------------------------------------------------------ secrecy


# Moments where player 0 has still to commit (register a card, pass, bid), others having committed.
UNCOMMITTED = {
    rules.Register: lambda s: s.phase == "register" and 0 < len(s.hands[1]) and len(s.hands[0]) < 3,
    rules.Pass: lambda s: s.phase == "pass" and s.passes[0] is None and s.passes[1] is not None,
    rules.Bid: lambda s: s.phase == "bid" and s.bids[0] is None and s.bids[1] is not None,
}


@pytest.mark.parametrize("action", UNCOMMITTED, ids=lambda a: a.__name__)
@pytest.mark.parametrize("players", [3, 6])
def test_hidden_cards_change_no_pixel(screens, action, players):
    """Player 0 registering, passing or bidding one card or another draws the same table page."""
    st = first_state(GAME, players, UNCOMMITTED[action], seed=players)
    a, b = [x for x in rules.legal_actions(st) if isinstance(x, action) and x.player == 0][:2]
    one, other = rules.apply(st, a), rules.apply(st, b)
    assert one != other
    for lang in LANGS:
        shown = [pygame.image.tobytes(screens[lang].render(table_view(GAME, s, SEATS[players]), "table"), "RGB")
                 for s in (one, other)]
        assert shown[0] == shown[1]


# ------------------------------------------------------------ texts


def test_every_refusal_and_option_has_a_text():
    """The README's refusal keys, and each option with each of its values, in both languages."""
    readme = (Path(page.__file__).parent / "README.md").read_text()
    table = readme[readme.index("## Refusal keys"):]
    refusals = re.findall(r"^\| `(\w+)` \|", table, re.MULTILINE)
    assert len(refusals) == 23
    options = [f"option_{o.name}" for o in rules.INFO.options]
    options += [f"option_{o.name}_{str(v).lower()}" for o in rules.INFO.options for v in o.choices]
    for lang in LANGS:
        t = Translator(lang, "kitty")
        for key in refusals + options:
            assert t.has(key), (lang, key)


@pytest.mark.parametrize("moment,players,options", [("pass", 6, SOFT), ("register", 3, HARD), ("reveal", 6, SOFT),
                                                    ("over", 6, SOFT), ("gift", 5, HARD), ("pick", 4, SOFT)])
def test_nothing_overlaps(screens, drawing, moment, players, options):
    """Texts, tags, chips and badges of every page lie side by side (not what is inside them)."""
    view = view_of(moment, players, options)
    faces = type(screens["en"].faces("kitty"))
    boxes = {"text": lambda rect, *a: rect, "tag": lambda rect, *a: rect, "chip": lambda _, surf, rect, *a: rect,
             "badge": lambda _, c, r, *a: around(c, r)}
    for lang in LANGS:
        for shown, step in screens[lang].pages(view):
            if shown == "over":
                continue
            parts = rendered(drawing, screens[lang], view, shown, step, boxes, faces)[1]
            clashes = [(a, b) for i, a in enumerate(parts) for b in parts[i + 1:] if a[2].colliderect(b[2])]
            assert not clashes, (lang, shown, step, clashes)
