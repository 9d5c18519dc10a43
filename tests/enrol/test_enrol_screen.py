"""The enrol screen and window, and `cardtable enrol`: every state in French and English, keys, clicks, CSV."""
from __future__ import annotations

import os
import re

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest
from conftest import around

from table.cli import main
from table.enrol import BlankTags, Enrolment, Station
from table.enrol.window import EnrolWindow
from table.games.feira_torio.faces import Faces
from table.hardware.simulated import VirtualReader
from table.screen.draw import GREEN, PANEL, RED, SIZE
from table.enrol.screen import RESULT, EnrolScreen
from table.screen.i18n import LANGS
from table.storage.registry import Tag, TagRegistry, deck_cards

DECK = "feira-torio"
CARDS = deck_cards(DECK)


def uid(n: int) -> str:
    return f"04{n:012X}"


def tagged(n: int, staff: int = 0) -> Enrolment:
    """An enrolment on a fresh registry whose first `n` cards have a tag (staff cards protected by a station pad)."""
    enrolment, pad = Enrolment(TagRegistry(), DECK, staff), VirtualReader("station")
    for i in range(n):
        pad.place(uid(i + 1))
        enrolment.place(uid(i + 1), pad.protect)
    return enrolment


def fresh():
    return tagged(0)


def accepted():
    return tagged(12)


def refused():
    enrolment = tagged(12)
    enrolment.place(uid(4))
    return enrolment


def other_deck():
    enrolment = tagged(3)
    enrolment.registry.enrol("0A0B0C0D", Tag("card", "other-game", "X01"))
    enrolment.place("0A0B0C0D")
    return enrolment


def retag():
    enrolment = tagged(20)
    enrolment.retag("VA03")
    return enrolment


def retired():
    enrolment = tagged(20)
    enrolment.retag("VA03")
    enrolment.place(uid(99))
    enrolment.place(uid(13))
    return enrolment


def complete():
    return tagged(40)


def staff():
    return tagged(41, staff=2)


def fault():
    enrolment = tagged(7)
    enrolment.fault()
    return enrolment


STATES = {"fresh": (fresh, PANEL), "accepted": (accepted, GREEN), "refused": (refused, RED),
          "other-deck": (other_deck, RED), "retag": (retag, GREEN), "retired": (retired, RED),
          "complete": (complete, GREEN), "staff": (staff, GREEN), "fault": (fault, RED)}


@pytest.fixture(scope="module")
def screens():
    return {lang: EnrolScreen(lang, DECK) for lang in LANGS}


def drawn(drawing, screen: EnrolScreen, enrolment: Enrolment) -> list[tuple[str, str, pygame.Rect]]:
    """What the screen draws side by side: texts, labels, buttons, the card picture, badges."""
    return drawing(lambda: screen.render(enrolment), {
        "text": lambda rect, *a: rect, "tag": lambda rect, *a: rect, "button": lambda _, rect, *a: rect,
        "card": lambda _, surf, rect, *a: rect, "badge": lambda _, c, r, *a: around(c, r)}, Faces)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", STATES)
def test_every_state_renders_without_overlaps(screens, out, drawing, lang, name):
    make, colour = STATES[name]
    enrolment, screen = make(), screens[lang]
    parts = drawn(drawing, screen, enrolment)
    assert all(pygame.Rect(0, 0, *SIZE).contains(rect) for *_, rect in parts)
    clashes = [(a, b) for i, a in enumerate(parts) for b in parts[i + 1:] if a[2].colliderect(b[2])]
    assert not clashes
    texts = [s for kind, s, _ in parts if kind in ("text", "tag")]
    assert screen.name(enrolment.target) in texts
    assert screen.outcome_text(enrolment) in texts
    for s in texts:
        assert not re.search(r"\{\w+\}|^[a-z]+_[a-z_]+$", s), s
    surf = screen.render(enrolment)
    assert surf.get_at((RESULT.x + 8, RESULT.centery))[:3] == colour
    pygame.image.save(surf, out / f"enrol-{name}-{lang}.png")


def test_outcomes_name_the_card(screens):
    fr, en = screens["fr"], screens["en"]
    card = lambda c: Tag("card", DECK, c)
    assert fr.name(card("TA04")) == fr.faces.name("TA04", fr.t.game("feira-torio")) != fr.name(card("TA05"))
    assert fr.outcome_text(refused()) == f"Refusé : ce tag est déjà {fr.name(card('TA04'))}."
    assert en.outcome_text(retired()).startswith(f"Refused: this tag was retired (it was {en.name(card('VA03'))},")
    assert en.outcome_text(other_deck()) == "Refused: this tag is a card of another game (other-game, X01)."
    assert fr.name(Tag("staff", None, "staff-2")) == "Carte du personnel 2"
    assert en.title() == "Feira Torio · tagging the cards"


# ---------------------------------------------------------------- the window


@pytest.fixture
def display():
    pygame.display.init()
    yield
    pygame.display.quit()


def open_window(registry: TagRegistry, lang: str = "fr") -> EnrolWindow:
    blanks = BlankTags(registry)
    window = EnrolWindow(Station(Enrolment(registry, DECK), [blanks.reader]), lang, blanks)
    window.frame()
    return window


def key(window: EnrolWindow, key: int, polls: int = 0) -> None:
    window.handle(pygame.event.Event(pygame.KEYDOWN, key=key))
    for _ in range(polls):
        window.station.step()
    window.frame()


def click(window: EnrolWindow, name: str, polls: int = 0) -> None:
    window.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=window.controls[name][0].center))
    for _ in range(polls):
        window.station.step()
    window.frame()


def test_the_window_tags_refuses_and_retags_with_keys_and_clicks(display, out, tmp_path):
    registry = TagRegistry(tmp_path / "registry.sqlite")
    window = open_window(registry)
    e = window.enrolment
    assert window.canvas.get_size() == (1280, 830)
    key(window, pygame.K_t, polls=3)                     # a new blank tag on the pad
    assert e.last.key == "enrol_accepted" and registry.lookup(e.last.uid) == Tag("card", DECK, "TA01")
    key(window, pygame.K_a, polls=10)                    # the same tag again: lifted, put back, refused
    assert e.last.key == "enrol_tag_taken" and e.done == 1
    pygame.image.save(window.canvas, out / "enrol-window-refused-fr.png")
    key(window, pygame.K_l)
    assert window.blanks.reader.card is None
    click(window, "new", polls=6)
    assert registry.uid_of(Tag("card", DECK, "TA02")) == e.last.uid
    key(window, pygame.K_RIGHT)
    key(window, pygame.K_LEFT)
    key(window, pygame.K_LEFT)
    assert e.target.card == "TA02"
    click(window, "pick0")
    click(window, "retag")
    assert e.retagging and e.target.card == "TA01"
    old = registry.uid_of(e.target)
    click(window, "new", polls=6)
    assert e.last.key == "enrol_retagged" and registry.retired(old) == Tag("card", DECK, "TA01")
    assert e.target.card == "TA03" and not e.retagging
    pygame.image.save(window.canvas, out / "enrol-window-retagged-fr.png")
    click(window, "next")
    assert e.target.card == "TA04"
    click(window, "quit")
    assert not window.running


def test_a_station_on_real_readers_has_no_simulated_strip(display):
    reader = VirtualReader("station")                    # any Reader port: the window cannot place tags on it
    window = EnrolWindow(Station(Enrolment(TagRegistry(), DECK), [reader]), "en")
    window.frame()
    assert window.canvas.get_size() == SIZE
    assert "new" not in window.controls
    key(window, pygame.K_t)
    assert reader.card is None
    key(window, pygame.K_ESCAPE)
    assert not window.running


# ---------------------------------------------------------------- the command


def run(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cardtable_enrol_opens_the_station_and_resumes(capsys, tmp_path):
    path = tmp_path / "registry.sqlite"
    assert run(capsys, "enrol", "--deck", DECK, "--registry", str(path), "--frames", "3") == (0, "0 / 40 tagged\n", "")
    registry = TagRegistry(path)
    for i, c in enumerate(CARDS[:9]):
        registry.enrol(uid(i + 1), Tag("card", DECK, c))
    registry.close()
    code, printed, _ = run(capsys, "enrol", "--deck", DECK, "--staff", "1", "--registry", str(path), "--frames", "2",
                           "--lang", "en", "--retag", "TA02")
    assert (code, printed) == (0, "9 / 41 tagged\n")


def test_the_registry_lives_beside_the_journal(monkeypatch, capsys, tmp_path):
    import importlib

    import table.cli
    monkeypatch.setenv("CARDTABLE_STATE", str(tmp_path / "state"))
    cli = importlib.reload(table.cli)
    try:
        assert cli.DEFAULT_REGISTRY == tmp_path / "state" / "registry.sqlite" == cli.DEFAULT_JOURNAL.with_name(
            "registry.sqlite")
        assert cli.main(["enrol", "--staff", "1", "--frames", "1"]) == 0
        assert (tmp_path / "state" / "registry.sqlite").exists()
    finally:
        monkeypatch.undo()
        importlib.reload(table.cli)


def test_cardtable_enrol_exports_and_imports_csv(capsys, tmp_path):
    source, target, csv = tmp_path / "a.sqlite", tmp_path / "b.sqlite", tmp_path / "tags.csv"
    registry = TagRegistry(source)
    for i, c in enumerate(CARDS[:3]):
        registry.enrol(uid(i + 1), Tag("card", DECK, c))
    registry.retag(Tag("card", DECK, "TA01"), uid(9))
    registry.close()
    code, printed, _ = run(capsys, "enrol", "--registry", str(source), "--export", str(csv))
    assert code == 0 and printed.startswith("exported 4 tags")
    assert run(capsys, "enrol", "--registry", str(target), "--import", str(csv)) == (
        0, "imported: 4 added, 0 already there\n", "")
    imported = TagRegistry(target)
    assert imported.cards(DECK) == {"TA01": uid(9), "TA02": uid(2), "TA03": uid(3)}
    assert imported.retired(uid(1)) == Tag("card", DECK, "TA01")
    imported.close()
    csv.write_text(csv.read_text() + f"{uid(20)},card,{DECK},AB01,\n{uid(2)},card,{DECK},AB02,\n")
    code, printed, err = run(capsys, "enrol", "--registry", str(target), "--import", str(csv))
    assert (code, printed) == (1, "")
    assert err.splitlines() == ["nothing imported, 1 error(s):",
                                f"line 7: tag {uid(2)} is already on line 3"]
    assert TagRegistry(target).lookup(uid(20)) is None


@pytest.mark.parametrize("argv, message", [
    (["--export", "out.csv"], "there is no registry at"),
    (["--deck", "no-such-deck"], "there is no deck 'no-such-deck'"),
    (["--deck", DECK, "--retag", "TA01"], "TA01 has no tag yet"),
    (["--deck", DECK, "--retag", "XX01"], "'XX01' is not a card of feira-torio"),
])
def test_cardtable_enrol_explains_bad_options(capsys, tmp_path, argv, message):
    code, printed, err = run(capsys, "enrol", "--registry", str(tmp_path / "r.sqlite"), *argv)
    assert code == 2 and printed == "" and message in err


def test_cardtable_enrol_needs_something_to_do(capsys, tmp_path):
    with pytest.raises(SystemExit) as exit:
        main(["enrol", "--registry", str(tmp_path / "r.sqlite")])
    assert exit.value.code == 2 and "enrol needs --deck" in capsys.readouterr().err
