"""Venture's screen pages: every page at 3, 5 and 8 players with and without the draft, in French and English;
the page sequence; hand-checked content (the rulebook's example rounds and score); no raw key; no secret."""
from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest
from conftest import around
from games.tables import first_state, new_state, random_states, table_view

from table.assets import deck_data
from table.registry import GAMES
from table.games.venture import rules
from table.games.venture.acts import must_clear
from table.games.venture.page import signed
from table.games.venture.view import fired, rank_groups, score_parts, take_moves
from table.games.venture.rules import Bid, Show, apply, observe
from table.screen import Screen, draw
from table.screen.faces import RankFaces
from table.screen.i18n import LANGS, texts

GAME = GAMES["venture"]
RAW = re.compile(r"\{\w+\}|^[a-z]+_[a-z_]+$")


@pytest.fixture(scope="module")
def screens():
    pygame.font.init()
    return {lang: Screen(GAMES, lang) for lang in LANGS}


def fresh(s) -> bool:
    """Whether the firing's pages are due: the table gate is up, or the game's last firing is over."""
    return must_clear(s) or (s.phase == "over" and s.board.last is not None)


SITUATIONS = {
    "draft": lambda s: s.phase == "draft" and sum(s.board.drafted) == 1,
    "slug": lambda s: s.phase == "slug" and len(s.board.slug) == 2,
    "bidding": lambda s: s.phase == "bidding" and s.round == 2 and sum(c is not None for c in s.bids) == 2,
    "firing": lambda s: s.phase == "bidding" and s.round == 3 and fresh(s),
    "deal_end": lambda s: s.phase in ("draft", "slug") and s.match.deal == 2 and fresh(s),
    "over": lambda s: s.phase == "over",
}
# what the draft option changes: the draft page, and the page after a deal's scores
SHOWN = {False: ["slug", "bidding", "firing", "deal_end", "over"], True: ["draft", "deal_end"]}


def situation(name: str, players: int, draft: bool):
    """The first state of this situation in random 2-deal games."""
    return first_state(GAME, players, SITUATIONS[name], 1, {"draft": draft, "deals": 2})


def rendered(screen: Screen, view: dict, page: str, step: int | None, monkeypatch) -> tuple[pygame.Surface, list[str]]:
    """A page, and every string rendered on it."""
    shown: list[str] = []
    render = draw.render
    monkeypatch.setattr(draw, "render", lambda s, *a, **k: shown.append(s) or render(s, *a, **k))
    surf = screen.render(view, page, step)
    monkeypatch.setattr(draw, "render", render)
    return surf, shown


@pytest.mark.parametrize("draft", [False, True])
@pytest.mark.parametrize("players", [3, 5, 8])
def test_every_page_renders_without_raw_keys(screens, out, monkeypatch, players, draft):
    for name in SHOWN[draft]:
        view = table_view(GAME, situation(name, players, draft), clearing=False)
        for lang in LANGS:
            for page, step in screens[lang].pages(view):
                surf, shown = rendered(screens[lang], view, page, step, monkeypatch)
                assert shown and not [s for s in shown if RAW.search(s)], (name, page)
                if page != "fire" or name == "firing":     # (saving is the slow part: the steps once)
                    tag = f"{name}-{players}p{'-draft' if draft else ''}-{lang}-{page}{'' if step is None else step}"
                    pygame.image.save(surf, Path(out) / f"{tag}.png")


# ------------------------------------------------------------ the page sequence


@pytest.mark.parametrize("players", [3, 5, 8])
def test_pages_follow_the_game(players):
    """Every state of a random 2-deal game: the firing's steps, the take page, the scores when a deal ended,
    then the game-over page or (once clear) the table page; the table page alone otherwise."""
    seen = set()
    for state in random_states(GAME, players, players, {"draft": True, "deals": 2}):
        view = observe(state, None)
        assert fired(view) == fresh(state)
        for clearing in (True, False):
            pages = GAME.page.pages({"view": view, "clearing": clearing})
            if not fresh(state):
                assert pages == [("table", None)]
                continue
            steps = [("fire", k) for k in range(len(view["last_round"]["steps"]))]
            deal_end = state.phase == "over" or view["last_round"]["round"] == view["rounds"]
            end = [("over", None)] if state.phase == "over" else [] if clearing else [("table", None)]
            assert pages == steps + [("take", None)] + [("scores", None)] * deal_end + end
            seen.add((deal_end, state.phase))
    assert {(False, "bidding"), (True, "draft"), (True, "over")} <= seen


def test_draft_ok_keeps_the_deal_end_sequence():
    """A draft OK after a deal's last firing changes nothing to the pages (the pager goes on where it was)."""
    state = first_state(GAME, 4, lambda s: s.phase == "draft" and s.match.deal == 2 and not any(s.board.drafted),
                        0, {"draft": True, "deals": 2})
    before = GAME.page.pages(table_view(GAME, state))
    after = GAME.page.pages(table_view(GAME, apply(state, rules.DraftDone(1))))
    assert before == after and ("scores", None) in after


# ------------------------------------------------------------ the rulebook's example (5 players)


def example() -> tuple:
    """The rulebook's 5-player deal: slug 4, 5, 6, 8, 10; round 1 bids 2, 3, 4, 5, 6 (seats 1 to 5);
    round 2 bids 5, 5, 7, 9, 9."""
    state = new_state(GAME, 5, 0)
    for card in ("4a", "5a", "6a", "8a", "10a"):
        state = apply(state, Show(card))
    for p, card in enumerate(("2a", "3a", "4b", "5b", "6b")):
        state = apply(state, Bid(p, card))
    first = state
    for p, card in enumerate(("5c", "5d", "7a", "9a", "9b")):
        state = apply(state, Bid(p, card))
    return first, state


def drawn(drawing, screen: Screen, view: dict, page: str, step: int | None = None) -> list[tuple[str, str, pygame.Rect]]:
    """What a page draws side by side: texts, tags, chips and badges (what is inside them left out)."""
    return drawing(lambda: screen.render(view, page, step), {
        "text": lambda rect, *a: rect, "tag": lambda rect, *a: rect, "chip": lambda _, surf, rect, *a: rect,
        "card": lambda _, surf, rect, *a: rect, "badge": lambda _, c, r, *a: around(c, r)}, RankFaces)


def drawn_texts(drawing, screen: Screen, view: dict, page: str, step: int | None = None) -> list[tuple[str, pygame.Rect]]:
    """The texts a page draws, with their boxes."""
    return [(s, rect) for name, s, rect in drawn(drawing, screen, view, page, step) if name in ("text", "tag")]


def badge_rows(drawing, screen: Screen, view: dict, page: str) -> list[int]:
    """The middle height of each seat badge, top to bottom."""
    return sorted(rect.centery for name, _, rect in drawn(drawing, screen, view, page) if name == "badge")


def row_texts(parts: list[tuple[str, pygame.Rect]], y: float) -> list[str]:
    """The texts across height y, left to right."""
    return [s for s, rect in sorted(parts, key=lambda part: part[1].x) if rect.top <= y <= rect.bottom]


def test_example_round_one_take_page(screens, drawing):
    first, _ = example()
    view = table_view(GAME, first)
    assert [(m["bid"], m["to"], m["takes"]) for m in take_moves(view["view"]["last_round"])] == [
        ("2a", 1, ["10a"]), ("3a", 2, ["2a"]), ("4b", 3, ["3a"]), ("5b", 4, ["4a", "4b"]), ("6b", None, ["5a", "5b"])]
    assert view["view"]["last_round"]["centre_after"] == ["6a", "6b", "8a"]
    parts = drawn_texts(drawing, screens["fr"], view, "take")
    rows = [row_texts(parts, y) for y in badge_rows(drawing, screens["fr"], view, "take")]
    assert rows == [["la pile du siège 2", "1"], ["la pile du siège 3", "1"], ["la pile du siège 4", "1"],
                    ["la pile du siège 5", "×2", "2"], ["le centre", "×2", "2"]]
    assert [s for s, _ in parts if s.startswith("Tout le monde")] == [
        "Tout le monde : rangez les cartes ainsi, puis videz les lecteurs"]


def test_example_round_two_fires_step_by_step(screens, drawing):
    _, second = example()
    view = table_view(GAME, second)
    steps = view["view"]["last_round"]["steps"]
    assert [(s["rank"], s["result"]) for s in steps] == [(5, "missed"), (7, "lower"), (9, "missed")]
    assert GAME.page.pages(view) == [("fire", 0), ("fire", 1), ("fire", 2), ("take", None)]
    said = {k: [s for s, _ in drawn_texts(drawing, screens["fr"], view, "fire", k)] for k in range(3)}
    assert "égalité : ratent, restent sur la table" in said[0]
    assert "prend tout ce qui est plus petit que 7" not in said[0] and "?" in said[0]
    assert "prend tout ce qui est plus petit que 7" in said[1] and "×2" in said[1]
    assert said[2].count("égalité : ratent, restent sur la table") == 2
    en = [s for s, _ in drawn_texts(drawing, screens["en"], view, "fire", 2)]
    assert "takes everything lower than 7" in en and "tied: they miss and stay on the table" in en


def test_first_firing_says_what_the_lowest_bid_takes(screens, drawing):
    first, _ = example()
    said = [s for s, _ in drawn_texts(drawing, screens["fr"], table_view(GAME, first), "fire", 0)]
    assert "tire en premier : prend tous les 10" in said
    assert said.count("?") == 4


def test_a_bid_captured_before_firing_says_by_whom(screens, drawing):
    state = new_state(GAME, 3, 0)
    for card in ("1a", "2a", "3a", "4a"):
        state = apply(state, Show(card))
    for p, card in enumerate(("5a", "6a", "7a")):     # 5 takes every 7 (the highest), 6 takes the 5 ... the 7 is gone
        state = apply(state, Bid(p, card))
    view = table_view(GAME, state)
    assert [s["result"] for s in view["view"]["last_round"]["steps"]] == ["highest", "lower", "captured"]
    said = [s for s, _ in drawn_texts(drawing, screens["fr"], view, "fire", 2)]
    assert "pris avant de tirer par le siège 1 : ne tire pas" in said


def example_score() -> dict:
    """The rulebook's score example: 11 cards taken, every 5 among them: six cards of incomplete ranks -6, the
    five 5s +5, -1 in all."""
    pile = ["2a", "3a", "3b", "5a", "5b", "5c", "5d", "5e", "7a", "9a", "9b"]
    t = rules.tables(rules.make_deck(deck_data("pairs")))
    score = rules.breakdown(t, 0, pile, ["8a"])
    assert score.points == rules.points(t.sizes, t.rank, pile, ["8a"]) == -1
    return {"player": 0, "points": score.points, "ranks": [
        {"rank": r.rank, "cards": list(r.cards), "centre": list(r.centre), "complete": r.complete, "points": r.points}
        for r in score.ranks]}


def test_the_rulebook_score_line_explains_itself(screens, drawing):
    line = example_score()
    lost, lost_points, won, won_points = score_parts(line)
    assert (lost_points, [r["rank"] for r in won], won_points) == (-6, [5], 5)
    assert signed(lost_points) == "−6" and signed(won_points) == "+5" and signed(0) == "0"
    state = first_state(GAME, 3, lambda s: s.phase == "over", 2)
    view = table_view(GAME, state)
    view["view"]["scores"]["players"][0] = line
    parts = drawn_texts(drawing, screens["fr"], view, "scores")
    row = row_texts(parts, next(rect.centery for s, rect in parts if s == "= −1"))
    assert ["−6", "×5", "+5", "= −1"] == [s for s in row if s in ("−6", "×5", "+5", "= −1")]
    assert row.count("×2") == 2        # 3 ×2 and 9 ×2; 2 and 7 alone


def test_a_complete_rank_marks_its_centre_cards(screens, drawing):
    state = first_state(GAME, 3, lambda s: s.phase == "over", 2)
    view = table_view(GAME, state)
    view["view"]["scores"]["players"][1] = {"player": 1, "points": 4, "ranks": [
        {"rank": 4, "cards": ["4a", "4b", "4c"], "centre": ["4d"], "complete": True, "points": 4}]}
    said = [s for s, _ in drawn_texts(drawing, screens["fr"], view, "scores")]
    assert "×3 +1 au centre" in said and "= +4" in said


def test_the_one_complete_alone_has_no_count(screens, drawing):
    """The single 1 is a complete rank by itself: drawn as one card, like any single card, without "×1"."""
    state = first_state(GAME, 3, lambda s: s.phase == "over", 2)
    view = table_view(GAME, state)
    view["view"]["scores"]["players"][1] = {"player": 1, "points": 1, "ranks": [
        {"rank": 1, "cards": ["1a"], "centre": [], "complete": True, "points": 1}]}
    said = [s for s, _ in drawn_texts(drawing, screens["fr"], view, "scores")]
    assert "= +1" in said and "×1" not in said


# ------------------------------------------------------------ the table page


def prompt(screen: Screen, view: dict, drawing) -> str:
    parts = drawn_texts(drawing, screen, view, "table")
    return next(s for s, rect in parts if rect.top > 720 - 68)


def test_the_prompt_bar_says_who_does_what(screens, drawing):
    bidding = situation("bidding", 5, False)
    waiting = [p + 1 for p, c in enumerate(bidding.bids) if c is None]
    assert prompt(screens["fr"], table_view(GAME, bidding), drawing) == (
        f"Sièges {', '.join(map(str, waiting[:-1]))} et {waiting[-1]} : misez une carte face cachée sur votre lecteur")
    start = first_state(GAME, 5, lambda s: s.phase == "bidding" and not any(s.bids) and not must_clear(s), 0)
    assert prompt(screens["en"], table_view(GAME, start, seat_pads=2), drawing) == (
        "Everyone: bid a card face down on one of your readers")
    slug = situation("slug", 5, False)
    dealer = slug.match.dealer + 1
    assert prompt(screens["fr"], table_view(GAME, slug), drawing) == (
        f"Siège {dealer} (donneur) : montrez la carte 3/5 de la limace au lecteur du centre")
    draft = situation("draft", 3, True)
    left = [p + 1 for p, done in enumerate(draft.board.drafted) if not done]
    assert prompt(screens["en"], table_view(GAME, draft), drawing) == (
        f"Seats {left[0]} and {left[1]}: keep 3 cards, pass the rest left, then OK")


def test_the_table_page_shows_each_seat(screens, drawing):
    state = situation("bidding", 8, True)
    view = table_view(GAME, state, seats=[2, 3, 4, 5, 6, 7, 8, 9])
    parts = drawn_texts(drawing, screens["fr"], view, "table")
    for p in range(8):
        row = row_texts(parts, next(rect.centery for s, rect in parts if s == f"Siège {p + 2}"))
        assert str(rules.in_hand(state, p)) in row
        assert str(view["view"]["totals"][p]).replace("-", "−") in row
    faces = RankFaces(deck_data("pairs"), "fr")
    assert rank_groups(["2a", "2b", "5a", "9c", "9d", "9e"], faces.ranks) == [("2a", 2), ("5a", 1), ("9c", 3)]


@pytest.mark.parametrize("players", [3, 5, 8])
def test_a_hidden_bid_changes_no_pixel(screens, players):
    state = first_state(GAME, players, lambda s: s.phase == "bidding" and s.round == 2 and not any(s.bids), 3)
    one, other = apply(state, Bid(0, state.free[0])), apply(state, Bid(0, state.free[-1]))
    assert one.bids != other.bids
    for lang in LANGS:
        shown = [pygame.image.tobytes(screens[lang].render(table_view(GAME, s), "table"), "RGB") for s in (one, other)]
        assert shown[0] == shown[1]


# ------------------------------------------------------------ layout and texts


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [3, 8])
def test_nothing_overlaps_or_leaves_the_screen(screens, drawing, lang, players):
    for name in ("draft", "bidding", "deal_end"):
        view = table_view(GAME, situation(name, players, True), clearing=False)
        for page, step in screens[lang].pages(view):
            parts = [(name, rect) for name, _, rect in drawn(drawing, screens[lang], view, page, step)]
            assert all(pygame.Rect(0, 0, 1280, 720).contains(rect) for _, rect in parts), (name, page)
            clashes = [(a, b) for i, a in enumerate(parts) for b in parts[i + 1:] if a[1].colliderect(b[1])]
            assert not clashes, (name, page, step, clashes)


def refusal_keys() -> list[str]:
    """The refusal keys the package README lists."""
    readme = (Path(rules.__file__).parent / "README.md").read_text()
    section = readme.split("## Refusal keys")[1].split("\n## ")[0]
    return re.findall(r"^\| `(\w+)` \|", section, re.M)


def test_every_refusal_reads_in_words(screens, out, monkeypatch):
    keys = refusal_keys()
    assert len(keys) == 13
    view = table_view(GAME, situation("bidding", 5, False))
    for lang in LANGS:
        assert set(keys) <= (texts(lang, "venture") | texts(lang)).keys()
        for key in keys:
            view["message"] = {"key": key, "params": {"player": 1, "card": "7c"}, "seat": 2}
            surf, shown = rendered(screens[lang], view, "table", None, monkeypatch)
            assert not [s for s in shown if RAW.search(s)], key
        pygame.image.save(surf, Path(out) / f"message-{lang}.png")
