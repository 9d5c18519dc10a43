"""The score screen: every page for views of real engine games, in French and English."""
from __future__ import annotations

import json
import os
import random
import re
import string

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import segno
import pytest
from conftest import around

from table.assets import deck_data
from table.registry import GAMES
from table.games.feira_torio import rules as ft
from table.games.feira_torio.faces import Faces
from table.games.feira_torio.view import formula, take_back
from table.screen import Screen, Translator, draw, message_text, translate
from table.screen.draw import BG, INK, SIZE
from table.screen.i18n import LANGS, texts

DECK = ft.Deck.from_data(deck_data("feira-torio"))
MESSAGE_KEYS = (
    "game_over not_now_lot lot_taken card_seen not_now_first not_first_bid_holder no_such_lot not_now_bid "
    "no_such_slot slot_locked card_not_in_game card_not_for_players card_on_table card_discarded card_not_held "
    "unknown_action not_your_turn unknown_tag other_game_card seat_not_joined join_first seat_already_joined "
    "too_few_players table_full clear_table join_at_seat"
).split()
SEATS = {3: [2, 4, 5], 4: [1, 3, 4, 6], 5: [1, 2, 3, 5, 6], 6: [1, 2, 3, 4, 5, 6]}


def play(players: int, seed: int):
    """Every state of a random legal game, from the first lot to the end."""
    rng = random.Random(seed)
    state = ft.new_game(DECK, players)
    while ft.need(state).players or ft.need(state).chance:
        state = ft.apply(state, rng.choice(ft.legal_actions(state)))
        yield state


def first(players: int, seed: int, test) -> ft.State:
    """The first state that passes `test` in the random games from `seed` on."""
    while True:
        found = next((s for s in play(players, seed) if test(s)), None)
        if found:
            return found
        seed += 1


def table(state: ft.State | None, players: int = 3, message: dict | None = None, single_pad: bool = True) -> dict:
    """The session's table view (through JSON, as it may travel)."""
    joined = SEATS[players] if state else SEATS[players][:players - 1]
    lights = {}
    if state:
        need = ft.need(state)
        lights = {seat: "your_turn" if p in need.players else "waiting" for p, seat in enumerate(joined)}
        lights.update({joined[p]: "winner" for p in state.winners})
    return json.loads(json.dumps({
        "mode": "game" if state else "lobby", "game": "feira-torio", "seats": [1, 2, 3, 4, 5, 6],
        "joined": joined, "min_players": 3, "max_players": 6, "options": {},
        "menu": {"lines": ["game", "start"], "cursor": 1}, "shape": {"seat": 1 if single_pad else 4, "centre": 1},
        "prompt": None, "clearing": True,
        "message": message, "lights": lights, "view": ft.observe(state, None) if state else None,
    }))


def fresh(s: ft.State) -> bool:
    return s.phase == "lots" and not any(s.lots) and bool(s.reveal)


VIEWS = {
    "lots": lambda n: first(n, 1, lambda s: s.phase == "lots" and sum(map(bool, s.lots)) == 2),
    "first": lambda n: first(n, 2, lambda s: s.phase == "first" and s.pointer == 2),
    "bidding": lambda n: first(n, 3, lambda s: s.phase == "bidding" and sum(c is not None for r in s.bids for c in r) == 2 * n + 1),
    "reveal": lambda n: first(n, 4, lambda s: fresh(s) and s.round == 3),
    "hand": lambda n: first(n, 5, lambda s: fresh(s) and s.round == 1 and s.hand == 2),
    "over": lambda n: first(n, 6, lambda s: s.phase == "over"),
}


@pytest.fixture(scope="module")
def screens():
    pygame.font.init()
    return {lang: Screen(GAMES, lang) for lang in LANGS}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [3, 6])
@pytest.mark.parametrize("name", ["lobby", *VIEWS])
def test_every_page_renders(screens, out, lang, players, name):
    state = VIEWS[name](players) if name != "lobby" else None
    view = table(state, players)
    for page, step in screens[lang].pages(view):
        surf = screens[lang].render(view, page, step)
        assert surf.get_size() == (1280, 720)
        pygame.image.save(surf, out / f"{name}-{players}p-{lang}-{page}{'' if step is None else step}.png")


def test_pages_follow_the_game(screens):
    pages = screens["fr"].pages
    reveal = [("reveal", k) for k in range(4)] + [("take", None)]
    assert pages(table(None)) == [("lobby", None)]
    for name in ("lots", "first", "bidding"):
        assert pages(table(VIEWS[name](3))) == [("table", None)]
    assert pages(table(VIEWS["reveal"](3))) == reveal
    assert pages(table(VIEWS["hand"](3))) == reveal + [("scores", None)]
    assert pages(table(VIEWS["over"](3))) == reveal + [("scores", None), ("over", None)]
    # once every pad is clear again, the table page says what to do next (the dealer lays the lots)
    clear = table(VIEWS["reveal"](3))
    clear["clearing"] = False
    assert pages(clear) == reveal + [("table", None)]
    first_lot = first(3, 4, lambda s: s.phase == "lots" and s.round == 3 and sum(map(bool, s.lots)) == 1)
    assert pages(table(first_lot)) == [("table", None)]
    assert pages(table(ft.new_game(DECK, 3))) == [("table", None)]


def test_take_back_accounts_for_every_bid():
    for seed in range(20):
        state = first(4, seed, fresh)
        for p, moves in enumerate(take_back(ft.observe(state, None))):
            assert len(moves["take"]) == len(moves["discard"])
            assert len(moves["discard"]) + len(moves["back"]) == 4
            assert set(moves["take"]) | set(moves["back"]) == state.hands[p]


def test_scores_are_spelled_out():
    assert formula({"factors": [4, 3, 2, 1], "bonus": 5, "score": 29}) == "4 × 3 × 2 × 1 + 5 = 29"
    assert formula({"factors": [4, 2], "bonus": 0, "score": 8}) == "4 × 2 = 8"


def test_tied_winners_all_win(screens, out):
    view = table(VIEWS["over"](6), 6)
    view["view"]["totals"][0] = view["view"]["totals"][3] = max(view["view"]["totals"]) + 1
    view["view"]["winners"] = [0, 3]
    assert Translator("fr").count("winner", 2, seats=Translator("fr").seats([1, 4])) == "Sièges 1 et 4 gagnent !"
    assert Translator("en").seats([1, 2, 4]) == "Seats 1, 2 and 4"
    for lang in LANGS:
        pygame.image.save(screens[lang].render(view, "over"), out / f"tie-6p-{lang}-over.png")


def test_the_winners_are_called_by_their_players_names_when_player_cards_named_them(screens, out):
    """'Ana gagne !', 'Ana et Siège 4 gagnent !'; names too long to read in one line fall back to the seats."""
    fr, en = Translator("fr"), Translator("en")
    assert fr.seats([2, 4], names={"2": "Ana"}) == "Ana et Siège 4"
    assert en.seats([2, 3, 4], names={"2": "Ana", "4": "Bob"}) == "Ana, Seat 3 and Bob"
    assert fr.seats([2, 4], names={"5": "Zoé"}) == "Sièges 2 et 4"
    view = table(VIEWS["over"](6), 6)
    winner = SEATS[6][view["view"]["winners"][0]]
    view["names"] = {str(winner): "Ana"}
    with draw.written() as seen:
        screens["fr"].render(view, "over")
    assert ("Ana gagne !", 76) in seen
    view["view"]["winners"] = list(range(6))
    view["names"] = {str(seat): "Wolfeschlegelsteinhausen" for seat in SEATS[6]}
    with draw.written() as seen:
        surf = screens["fr"].render(view, "over")
    assert any(text == "Sièges 1, 2, 3, 4, 5 et 6 gagnent !" for text, _ in seen)
    pygame.image.save(surf, out / "winners-named-fr-over.png")


def test_the_game_over_page_shows_the_spectator_page_as_a_qr_code(out):
    """The table's spectator page at the hall (its configuration: the table has no network) as a QR code, module by
    module segno's, with its quiet zone, right of the ranking; none without one."""
    url = "http://hall.local:8080/table/t1"
    view = table(VIEWS["over"](6), 6)
    for lang in LANGS:
        surf = Screen(GAMES, lang, spectate=url).render(view, "over")
        pygame.image.save(surf, out / f"over-6p-{lang}-qr.png")
    white = [(x, y) for x in range(SIZE[0]) for y in range(SIZE[1]) if surf.get_at((x, y))[:3] == (255, 255, 255)]
    left, top, right = min(x for x, _ in white), min(y for _, y in white), max(x for x, _ in white)
    matrix = segno.make_qr(url, error="m").matrix
    module = (right - left + 1) // (len(matrix) + 8)
    assert module >= 5 and (right - left + 1) % module == 0, "whole pixels, large enough to scan from a seat"
    drawn = [[surf.get_at((left + (x + 4) * module + module // 2, top + (y + 4) * module + module // 2))[:3] == INK
              for x in range(len(matrix))] for y in range(len(matrix))]
    assert drawn == [[bool(dark) for dark in line] for line in matrix]
    ranking = [x for x in range(left) if surf.get_at((x, top + 60))[:3] != BG]
    assert ranking and max(ranking) < left - 8, "the ranking stops short of the code"
    plain = Screen(GAMES, "fr").render(view, "over")
    assert all(plain.get_at((x, top + 60))[:3] != (255, 255, 255) for x in range(left, right))


def test_one_pad_per_slot_prompt(screens, out):
    view = table(VIEWS["bidding"](3), 3, single_pad=False)
    for lang in LANGS:
        pygame.image.save(screens[lang].render(view, "table"), out / f"slots-3p-{lang}-table.png")


def params(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("namespace", ["common", *GAMES])
def test_translations_match(namespace):
    fr, en = texts("fr", namespace), texts("en", namespace)
    assert fr.keys() == en.keys()
    for key in fr:
        assert params(fr[key]) == params(en[key]), key


def test_every_refusal_has_a_text():
    fr = texts("fr") | texts("fr", "feira-torio")
    assert set(MESSAGE_KEYS) <= fr.keys()


def test_messages_name_the_seat(screens, out):
    message = {"key": "card_not_held", "params": {"seat": 3}, "seat": 3}
    assert message_text("fr", message, "feira-torio").startswith("Siège 3 : ")
    assert message_text("en", message, "feira-torio") == "Seat 3: You do not hold this card."
    assert translate("en", "too_few_players", min_players=3) == "At least 3 players are needed to start."
    assert Translator("fr", "feira-torio").count("stars", 1) == "1 étoile"
    assert Translator("fr", "feira-torio")("card_seen") == "Cette carte est déjà sortie."
    for lang in LANGS:
        view = table(VIEWS["bidding"](6), 6, message)
        pygame.image.save(screens[lang].render(view, "table"), out / f"message-{lang}.png")
        view = table(None, 3, {"key": "too_few_players", "params": {}, "seat": 5})
        assert "{" not in message_text(lang, view["message"], min_players=3)
        pygame.image.save(screens[lang].render(view, "lobby"), out / f"message-lobby-{lang}.png")


def test_every_text_on_screen_is_translated(screens, monkeypatch):
    shown = []
    render = draw.render
    monkeypatch.setattr(draw, "render", lambda s, *a, **k: shown.append(s) or render(s, *a, **k))
    for lang in LANGS:
        for name in ("lobby", *VIEWS):
            view = table(VIEWS[name](6) if name != "lobby" else None, 6, {"key": "card_seen", "params": {"card": "VA03"}})
            for page, step in screens[lang].pages(view):
                screens[lang].render(view, page, step)
    assert len(shown) > 500
    for s in shown:
        assert not re.search(r"\{\w+\}|^[a-z]+_[a-z_]+$", s), s


@pytest.mark.parametrize("players", [3, 6])
def test_hidden_bids_do_not_change_the_screen(screens, players):
    state = first(players, 7, lambda s: s.phase == "bidding" and s.round == 2)
    bids = [a for a in ft.legal_actions(state) if a.player == 0 and a.position == state.first]
    a, b = bids[0], next(x for x in bids if x.card != bids[0].card)
    one, other = ft.apply(state, a), ft.apply(state, b)
    assert one.bids != other.bids
    for lang in LANGS:
        shown = [pygame.image.tobytes(screens[lang].render(table(s, players), "table"), "RGB") for s in (one, other)]
        assert shown[0] == shown[1]


def drawn(drawing, screen: Screen, view: dict, page: str) -> list[tuple[str, pygame.Rect]]:
    """What a page draws side by side: texts, chips, badges and crowns (not what is inside them)."""
    parts = drawing(lambda: screen.render(view, page), {
        "text": lambda rect, *a: rect, "tag": lambda rect, *a: rect, "chip": lambda _, surf, rect, *a: rect,
        "badge": lambda _, c, r, *a: around(c, r), "crown": lambda _, c, r, *a: around(c, r)}, Faces)
    return [(name, rect) for name, _, rect in parts]


def overlaps(parts: list[tuple[str, pygame.Rect]]) -> list:
    return [(a, b) for i, a in enumerate(parts) for b in parts[i + 1:] if a[1].colliderect(b[1])]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_four_kept_cards_and_the_longest_formula_fit(screens, out, drawing, lang, players):
    """A real game over with a +5 bonus; player 0's hand made the best possible (4 × 4 × 4 × 4 + 5 = 261)."""
    state = first(players, 8, lambda s: s.phase == "over" and any(x.bonus for x in s.scores))
    view = table(state, players)
    best = {}
    for card in sorted(DECK.for_players(players)):
        c = DECK.cards[card]
        if c.category not in best or c.stars > DECK.cards[best[c.category]].stars:
            best[c.category] = card
    kept = [best[c] for c in ft.CATEGORIES]
    factors = [DECK.cards[c].stars for c in kept]
    assert factors == [4, 4, 4, 4]
    score = view["view"]["scores"][0]
    view["view"]["totals"][0] += 261 - score["score"]
    view["view"]["history"][-1][0] = 261
    score.update(kept=kept, factors=factors, bonus=ft.BONUS, score=261)
    totals = view["view"]["totals"]
    view["view"]["winners"] = [p for p, total in enumerate(totals) if total == max(totals)]
    view["lights"] = {str(seat): "winner" if p in view["view"]["winners"] else "waiting"
                      for p, seat in enumerate(view["joined"])}
    assert formula(score) == "4 × 4 × 4 × 4 + 5 = 261"
    assert sum(len(s["kept"]) == 4 and s["bonus"] == 5 for s in view["view"]["scores"]) >= 2
    pages = screens[lang].pages(view)
    assert pages[-3:] == [("take", None), ("scores", None), ("over", None)]
    for page in ("take", "scores", "over"):
        parts = drawn(drawing, screens[lang], view, page)
        assert all(pygame.Rect(0, 0, 1280, 720).contains(rect) for _, rect in parts), page
        assert not overlaps(parts), (page, overlaps(parts))
        pygame.image.save(screens[lang].render(view, page), out / f"bonus-{players}p-{lang}-{page}.png")


@pytest.mark.parametrize("joined, note", [([1, 2, 3], True), ([1, 2, 3, 4], False)])
def test_the_lobby_says_when_an_option_does_not_apply_to_this_many_players(screens, monkeypatch, joined, note):
    """Kitty's partners play only at 4 or 6: with 3 seats joined the menu says so beside the value."""
    shown = []
    render = draw.render
    monkeypatch.setattr(draw, "render", lambda s, *a, **k: shown.append(s) or render(s, *a, **k))
    view = table(None, 3)
    view.update(game="kitty", joined=joined, options={"soft": False, "partners": True, "stakes": 0, "long": False},
                menu={"lines": ["game", "soft", "partners", "stakes", "long", "start"], "cursor": 2})
    screens["fr"].render(view, "lobby")
    assert ("Oui (en face) · seulement à 4 / 6 joueurs" in shown) is note


def test_a_refusal_in_the_lobby_leaves_the_game_title_and_menu_in_sight(screens):
    """In the lobby the banner goes below the seats (where joining and starting are said), never over the game's
    name and menu; the seats' row stays in sight too."""
    quiet = table(None, 3)
    refused = table(None, 3, {"key": "join_first", "params": {}, "seat": 5})
    for lang in LANGS:
        before, after = screens[lang].render(quiet, "lobby"), screens[lang].render(refused, "lobby")
        top = pygame.Rect(0, 0, SIZE[0], 520)
        assert before.subsurface(top).get_view("2").raw == after.subsurface(top).get_view("2").raw
        assert before.get_view("2").raw != after.get_view("2").raw


def test_a_lobby_with_many_options_gives_each_line_room_and_keeps_the_menu_above_the_seats(screens, monkeypatch):
    """Six menu lines (a game and four options): rows at least 36 px, the box ends above the seats' badges."""
    boxes = []
    view = table(None, 3)
    view["menu"] = {"lines": ["game", "a", "b", "c", "d", "start"], "cursor": 5}
    monkeypatch.setattr(screens["fr"], "_menu", lambda c, box: boxes.append(box))
    screens["fr"].render(view, "lobby")
    assert boxes[0].h // 6 >= 36 and boxes[0].bottom + 6 < 440 - 44      # the badges' top: centre 440, radius 44
