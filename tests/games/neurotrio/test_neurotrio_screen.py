"""Neurotrio's screen: every page of random legal games at 3 to 8 players renders in French and English with no
raw key and nothing off the screen; the page sequence; the texts (card names, the bottom bar, the notes, each
bid's score spelled out); the prompt's cursor framed on its cell; and secrecy in pixels: a hand, the treasure
and a bid's token kind never change a pixel before the end, and a token's kind is drawn only at the end."""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pygame
import pytest

from games.tables import Played, table_view
from table.assets import deck_data
from table.enrol import Enrolment
from table.enrol.screen import EnrolScreen
from table.registry import GAMES
from table.games.kit.replay import replay
from table.games.kit.pages import signed
from table.games.neurotrio import page, rules
from table.games.neurotrio import view as said
from table.games.neurotrio.faces import Faces
from table.screen import Screen, Translator, draw
from table.screen.draw import GOLD
from table.screen.i18n import LANGS
from table.storage.registry import TagRegistry

GAME = GAMES["neurotrio"]
DECK = GAMES["neurotrio"].deck
FR, EN = Translator("fr", "neurotrio"), Translator("en", "neurotrio")
RAW = re.compile(r"\{\w+\}|^[a-z]+_[a-z_]+$")
SCREEN = pygame.Rect(0, 0, 1280, 720)

MOMENTS = {
    "show": lambda s: s.phase == "show",
    "register": lambda s: s.phase == "register" and sum(map(len, s.hands)) >= 20,
    "choose": lambda s: s.phase == "build" and s.chosen is None and s.turn >= 10,
    "place": lambda s: s.phase == "build" and s.chosen is not None and len(rules.legal_cells(s, s.chosen)) > 2
    and len(s.neuro.bids) >= 2,
    "bid": lambda s: s.phase == "bid" and s.neuro.piece is not None and s.neuro.piece.card is not None
    and len(s.neuro.bids) >= 1,
    "over": lambda s: s.phase == "over",
}


@cache
def played(players: int, seed: int = 0) -> Played:
    """A random legal game that reaches every moment (the first seed from `seed` on that does)."""
    while True:
        game = Played.record(rules, DECK, players, seed)
        if all(any(test(s) for s in game.states) for test in MOMENTS.values()):
            return game
        seed += 1


def moment(players: int, name: str) -> tuple[Played, int]:
    """A game and the index of its first state at moment `name`."""
    game = played(players)
    return game, next(i for i, s in enumerate(game.states) if MOMENTS[name](s))


@pytest.fixture(scope="module")
def screens():
    pygame.font.init()
    return {lang: Screen(GAMES, lang) for lang in LANGS}


TEXTS = {"text": lambda rect, *a: rect, "tag": lambda rect, *a: rect}


# ------------------------------------------------------------ every page


@pytest.mark.parametrize("players", range(3, 9))
def test_every_page_renders_in_both_languages(screens, out, drawing, players):
    """The moments of one game (saved as PNGs) and every 15th state of it: every page, no raw key, on screen."""
    game = played(players)
    named = {moment(players, name)[1]: name for name in MOMENTS}
    for i in sorted({*named, *range(0, len(game.states), 15)}):
        view = table_view(GAME, game.states[i])
        for lang in LANGS:
            for kind, step in screens[lang].pages(view):
                surfs = []
                parts = drawing(lambda: surfs.append(screens[lang].render(view, kind, step)), TEXTS)
                assert parts
                for _, text, rect in parts:
                    assert not RAW.search(text), (i, kind, text)
                    assert SCREEN.contains(rect), (i, kind, text, rect)
                if i in named:
                    pygame.image.save(surfs[0], out / f"neurotrio-{players}p-{named[i]}-{lang}-{kind}.png")


def test_pages_follow_the_game():
    def pages(name: str) -> list:
        return said.pages(table_view(GAME, moment(4, name)[0].states[moment(4, name)[1]]))

    assert pages("show") == pages("register") == [("setup", None)]
    assert pages("choose") == pages("place") == pages("bid") == [("domain", None)]
    assert pages("over") == [("finish", None), ("treasure", None), ("bids", None), ("scores", None), ("over", None)]


# ------------------------------------------------------------ texts


def test_cards_bases_and_tokens_are_named_in_both_languages():
    faces = Faces(deck_data("neurotrio"), "fr")
    assert faces.name("2SGa", FR) == "2 étoiles, fond vert"
    assert faces.name("2SGb", EN) == "2 stars, green background"
    assert faces.name("1HKa", FR) == "1 cœur, fond noir"
    assert faces.name("3RBb", EN) == "3 roses, blue background"
    assert faces.name("B7", FR) == faces.name("B7", EN) == "base 7"
    assert faces.name("T3-nature", FR) == "jeton 3 : nature"
    assert faces.name("T3-background", EN) == "token 3: background"
    assert faces.name("XX", FR) == "XX"


def test_enrolment_shows_each_item_and_names_it():
    screen = EnrolScreen("fr", "neurotrio")
    enrolment = Enrolment(TagRegistry(), "neurotrio")
    for item, name in (("3SBa", "3 étoiles, fond bleu"), ("B10", "base 10"), ("T5-strength", "jeton 5 : force")):
        enrolment.choose(item)
        assert screen.name(enrolment.target) == name
        assert screen.render(enrolment).get_size() == (1280, 720)


def test_every_refusal_prompt_and_menu_label_has_a_text():
    """The README's refusal keys, the acts' own refusals, the cell prompt's and the seat menus' labels."""
    readme = (Path(page.__file__).parent / "README.md").read_text()
    refusals = re.findall(r"^\| `(\w+)`", readme[readme.index("## Refusal keys"):], re.MULTILINE)
    assert len(refusals) == 37
    for t in (FR, EN):
        for key in [*refusals, "centre_unused", "show_on_centre", "cell", "menu_pass", "menu_call", "menu_no_bid"]:
            assert t.has(key), (t.lang, key)
    assert FR("menu_pass", cost=1) == "Passer (−1 point)" and EN("menu_call") == "Neuro!"


def test_the_bottom_bar_and_the_notes_say_who_does_what():
    game, i = moment(5, "place")
    seats = [2, 3, 5, 6, 8]
    view = table_view(GAME, game.states[i], seats)
    active = seats[view["view"]["active"]]
    assert said.instruction(FR, view) == f"Siège {active} : Suivant change de case, OK pose la carte"
    game, i = moment(5, "bid")
    view = table_view(GAME, game.states[i], seats)
    public = view["view"]
    bidder, caller = seats[public["bidder"]], seats[public["caller"]]
    bar = said.instruction(EN, view)
    assert bar.startswith(f"Seat {bidder}: tap a base, the card you bet on, then one of your tokens face down")
    assert bar.endswith("(OK: pass)") == (bidder != caller)
    assert said.notes(FR, view)[0].startswith(f"Neuro ! lancé par le siège {caller} · au siège {bidder} d'enchérir")
    grown = dict(view, view=dict(public, grown=1, limits=[7, 12], two_cards=1, bids=[], bid=None))
    assert said.notes(FR, grown)[1:] == ["Tous bloqués : le domaine peut grandir (7 lignes × 12 colonnes)",
                                         "Siège 3 : deux cartes ! On ne passe plus que si on est bloqué."]
    bid = {"card": public["domain"][0][2], "base": 7, "token": None}
    assert said.notes(EN, dict(grown, view=dict(grown["view"], bids=[bid])))[-1] == \
        "neuro bid: its base's value; grey dot: its token laid"   # the legend of the marks, while bids lie
    passed = dict(view, view=dict(public, to_bid=public["to_bid"][:1], passed=[3]))
    assert said.notes(FR, passed)[0].endswith(" · a passé : Siège 6")
    window = dict(view, view=dict(public, phase="build", callers=[0, 2, 3]))
    assert said.notes(FR, window)[0] == "Neuro ! possible maintenant (Sièges 2, 5 et 6) : OK sur votre siège"


def test_a_bids_score_is_spelled_out():
    faces = Faces(deck_data("neurotrio"), "fr")

    def say(t, card, token, score, treasure="2SBa", base=7):
        bid = {"bidder": 0, "base": base, "card": card, "token": token, "score": score}
        return said.bid_text(t, bid, faces.attributes(card), faces.attributes(treasure))

    assert say(FR, "2SGa", "2", 14) == "base 7 × jeton 2 sur une carte à 2 attributs communs : +14"
    assert say(EN, "2SBb", "1", 21) == "base 7 × token 1 × 3 on the treasure: +21"
    assert say(FR, "1SGa", "2", -14) == "base 7 × jeton 2, perdu (1 seul attribut commun) : −14"
    assert say(EN, "1HGa", "1", -14) == "base 7 × token 1 × 2, lost (no attribute shared): −14"
    assert say(FR, "1HBa", "0", 0) == "base 7 × jeton 0, un bluff : 0"
    assert say(FR, "3SKa", "nature", 7) == "base 7, jeton nature : même nature que le trésor : +7"
    assert say(EN, "3SKa", "background", -7) == "base 7, background token: not the treasure's background: −7"


@pytest.mark.parametrize("players", [3, 6, 8])
def test_every_bid_of_a_game_is_spelled_with_its_score(players):
    """The spelled score agrees with the engine's: the text ends with it, and says a win when it is positive."""
    view = table_view(GAME, played(players).states[-1])["view"]
    faces = Faces(deck_data("neurotrio"), "en")
    assert view["bids"]
    for bid in view["bids"]:
        text = said.bid_text(EN, bid, faces.attributes(bid["card"]), faces.attributes(view["end"]["treasure"]))
        assert text.startswith(f"base {bid['base']}") and text.endswith(f": {signed(bid['score'])}")
        lost = "lost" in text or "not the treasure" in text
        assert (bid["score"] < 0) == lost and (bid["score"] == 0) == (bid["token"] == "0")


def test_bid_marks_too_many_for_their_cards_are_legible_and_none_hides_another(screens, monkeypatch):
    """Five bids on each of two neighbouring cards: every mark at the legible size, no two overlapping."""
    game, i = moment(8, "place")
    view = table_view(GAME, game.states[i])
    public = view["view"]
    (row, col, one), two = public["domain"][0], None
    two = next(card for r, c, card in public["domain"] if r == row and abs(c - col) == 1)
    bids = [{"card": card, "base": 1 + k, "token": "1"} for card in (one, two) for k in range(5)]
    view["view"] = dict(public, bids=bids, bid=None)
    marks = []
    monkeypatch.setattr(page, "_bid_mark", lambda c, centre, r, *a, **k: marks.append((centre, r)))
    screens["fr"].render(view, "domain")
    marks = marks[1:]   # the legend's first
    assert len(marks) == 10 and all(r >= page.MARK_R for _, r in marks)
    for k, ((x, y), r) in enumerate(marks):
        assert all((x - x2) ** 2 + (y - y2) ** 2 >= (r + r2 - 1) ** 2 for (x2, y2), r2 in marks[k + 1:])


# ------------------------------------------------------------ the cursor


def test_the_prompt_cursor_is_framed_on_its_cell(screens, monkeypatch):
    game, i = moment(6, "place")
    state = game.states[i]
    cells = rules.legal_cells(state, state.chosen)
    for cursor in (0, len(cells) - 1, len(cells) // 2):
        view = table_view(GAME, state, cursor=cursor)
        frames = []
        monkeypatch.setattr(draw, "frame", lambda surf, rect, colour=GOLD, width=5: frames.append((rect, colour)))
        screens["fr"].render(view, "domain")
        monkeypatch.undo()
        _, grid = page.layout(FR, view)
        row, col, _ = cells[cursor]
        assert [rect.center for rect, colour in frames if colour == GOLD and rect.w < 300] == \
            [grid.rect(row, col).center]


# ------------------------------------------------------------ secrecy


def swapped(game: Played, i: int, swap: dict[str, str]):
    """The state after the first `i` actions of `game` with the ids in `swap` exchanged."""
    def exchange(action):
        return type(action)(**{f: swap.get(getattr(action, f), getattr(action, f)) for f in action.__slots__})

    return replay(rules, DECK, game.states[0].players, game.states[0].setup.first, {},
                  [exchange(a) for a in game.actions[:i]])


def hand_twin(players: int, name: str):
    """A state at moment `name` and the same game with a card of a hand exchanged with an unseen card (before
    the deal is registered a card still to register; after it the removed card: the treasure changes too)."""
    game, i = moment(players, name)
    state = game.states[i]
    held = [c for h in state.hands for c in h if c != state.chosen]
    for a in held:
        for b in state.unseen:
            if b != DECK.twin[a]:
                try:
                    other = swapped(game, i, {a: b, b: a})
                except ValueError:      # the exchange made an earlier action illegal (a pass, say)
                    continue
                if rules.observe(other, None) == rules.observe(state, None):
                    return state, other
    raise LookupError("no hidden card to exchange")


def token_twin(players: int, name: str, at_end: bool = False):
    """A state at moment `name` (or at the game's end) and the same game with the first bid's token exchanged
    with another token of its set, of another kind."""
    game, i = moment(players, name)
    token = game.states[i].neuro.bids[0].token
    number, kind = DECK.tokens[token]
    other = next(t for t in DECK.sets[number] if DECK.tokens[t][1] != kind)
    i = len(game.actions) if at_end else i
    return game.states[i], swapped(game, i, {token: other, other: token})


def same_pixels(screens, one, other) -> None:
    views = [table_view(GAME, s) for s in (one, other)]
    assert views[0] == views[1]
    for lang in LANGS:
        for kind, step in screens[lang].pages(views[0]):
            a, b = (pygame.image.tobytes(screens[lang].render(v, kind, step), "RGB") for v in views)
            assert a == b, (lang, kind)


@pytest.mark.parametrize("name", ["register", "choose", "place", "bid"])
@pytest.mark.parametrize("players", [3, 8])
def test_a_hand_and_the_treasure_change_no_pixel(screens, players, name):
    one, other = hand_twin(players, name)
    assert one.hands != other.hands
    if name != "register":
        assert rules.treasure(one) != rules.treasure(other)
    same_pixels(screens, one, other)


@pytest.mark.parametrize("name", ["place", "bid"])
@pytest.mark.parametrize("players", [4, 7])
def test_a_bids_token_changes_no_pixel_before_the_end(screens, players, name):
    one, other = token_twin(players, name)
    assert one.neuro.bids != other.neuro.bids
    same_pixels(screens, one, other)


def test_a_tokens_kind_is_drawn_only_at_the_end(screens, monkeypatch):
    """The faces draw a token's kind (`kind_tag`, `token`) on no page before the end, and at the end each bid's,
    so that bids differing only by their token differ on the bids page."""
    faces = screens["en"].faces("neurotrio")
    shown = []
    monkeypatch.setattr(faces, "kind_tag", lambda surf, rect, kind: shown.append(kind) or rect)
    monkeypatch.setattr(faces, "token", lambda surf, rect, token: shown.append(token))
    game = played(5)
    for state in game.states[:-1:5]:
        view = table_view(GAME, state)
        for kind, step in screens["en"].pages(view):
            screens["en"].render(view, kind, step)
    assert shown == []
    view = table_view(GAME, game.states[-1])
    screens["en"].render(view, "bids")
    assert shown == [bid["token"] for bid in view["view"]["bids"]]
    monkeypatch.undo()
    one, other = token_twin(5, "place", at_end=True)
    a, b = (pygame.image.tobytes(screens["en"].render(table_view(GAME, s), "bids"), "RGB") for s in (one, other))
    assert a != b
