"""End to end: Debian's Chromium, headless, keeps the hall page open while a table of bots joins, plays and finishes
a game, then its link stops; the real hall process, on Debian's real Mosquitto, shows it all on the page live, without
a reload. And staff, signed in to the staff page in Chromium, enrol a player card that then seats its player at a
table."""
from __future__ import annotations

import json
import random
import signal
import time
import urllib.request

import pytest

from table.cafe.broker import staff_password
from table.layout import load_layout
from table.registry import GAMES
from table.sim.simulated_table import SimulatedTable
from table.storage.files import TableFiles
from table.storage.hall_cards import hall_cards_file
from table.storage.registry import TagRegistry
from tests.cafe.broker import HOST, needs, until
from tests.cafe.chromium import TOOLS, Chromium
from tests.cafe.test_link import card_tapped, table_state

CARD = "document.getElementById('table-t1')"


@pytest.fixture
def chromium(tmp_path):
    lacks = needs(TOOLS)
    if lacks:
        pytest.fail("the hall pages' browser test needs " + ", ".join(lacks))
    browser = Chromium(tmp_path)
    yield browser
    browser.close()


def loaded(chromium: Chromium, page: str, path: str) -> bool:
    """Whether the tab `page` shows `path`, loaded (False while it navigates)."""
    try:
        return chromium.evaluate(page, f"document.readyState == 'complete' && location.pathname == '{path}'")
    except AssertionError:   # the page went while asked
        return False


def answers(url: str) -> bool:
    try:
        urllib.request.urlopen(url, timeout=1).close()
    except OSError:
        return False
    return True


def test_a_game_finished_at_a_table_appears_live_on_the_hall_page_in_chromium(tmp_path, broker, chromium):
    began = time.monotonic()
    hall = broker.hall(tmp_path / "hall").start()
    url = f"http://{HOST}:{broker.web_port}/"
    until(lambda: answers(url), 15, "the hall's pages served")
    page = chromium.open(url + "?lang=fr")   # Chromium asks for English
    until(lambda: chromium.evaluate(page, "document.readyState == 'complete' && location.pathname == '/'"), 15,
          "the hall page loaded")   # not the blank page the tab opens on
    assert chromium.evaluate(page, "document.getElementById('none').innerText") == \
        "Aucune table ne s'est encore annoncée."
    chromium.evaluate(page, "window.sameLoad = true")   # gone if the page were loaded again

    state = table_state(tmp_path)
    link = broker.link("t1", state).start()
    files = TableFiles(state / "journal.sqlite")
    sim = SimulatedTable(load_layout("sim-6-single"), files.journal, game="feira-torio", seed=3)
    until(lambda: chromium.evaluate(page, f"{CARD} && {CARD}.innerText.includes('Feira Torio')"), 15,
          "the table's card shown as it joins")
    bots = GAMES["feira-torio"].bots.Players(sim, [1, 2, 3], random.Random(3))
    bots.join_and_start()
    bots.play()
    sim.press(2, "ok")
    [game] = files.journal.history.games()
    sim.close()
    files.close()
    scores = [f"Siège {seat} : {total}" for seat, total in sorted(game["scores"].items())]
    shown = until(lambda: chromium.evaluate(page, f"{CARD}.querySelector('ol.results')?.innerText"), 20,
                  "the finished game on the page")
    assert all(score in shown for score in scores), (shown, scores)
    assert chromium.evaluate(page, f"{CARD}.querySelector('.score.winner') !== null")
    assert chromium.evaluate(page, "window.sameLoad") is True, "shown live, without a reload"
    chromium.screenshot(page, tmp_path / "hall.png")
    assert "en ligne" in chromium.evaluate(page, f"{CARD}.innerText")
    hall.kill(signal.SIGTERM)   # the page's connection lost: what it shows of the table is unknown now
    assert hall.ended() == 0
    until(lambda: chromium.evaluate(page, "document.body.classList.contains('stale')"), 10, "the page says so")
    shown = chromium.evaluate(page, f"{CARD}.innerText")
    assert "en ligne" not in shown and "état inconnu" in shown, shown
    chromium.screenshot(page, tmp_path / "lost.png")
    hall = broker.hall(tmp_path / "hall").start()
    until(lambda: "en ligne" in chromium.evaluate(page, f"{CARD}.innerText"), 15, "back online as the hall answers")
    assert "état inconnu" not in chromium.evaluate(page, f"{CARD}.innerText")
    assert chromium.evaluate(page, "window.sameLoad") is True, "the page reconnected by itself"
    link.kill(signal.SIGTERM)   # it says "offline" as it goes
    until(lambda: chromium.evaluate(page, f"{CARD}.classList.contains('offline')"), 10, "the table shown offline")
    assert "hors ligne" in chromium.evaluate(page, f"{CARD}.innerText")
    hall.kill(signal.SIGTERM)   # with the page's event stream open
    assert hall.ended() == 0
    until(lambda: chromium.evaluate(page, "document.body.classList.contains('stale')"), 10, "the page says so")
    print(f"hall page in Chromium: {time.monotonic() - began:.1f} s")


def test_a_player_card_enrolled_on_the_staff_page_in_chromium_seats_its_player_at_a_table(tmp_path, broker, chromium):
    hall = broker.hall(tmp_path / "hall").start()
    state = table_state(tmp_path)
    broker.link("t1", state).start()
    url = f"http://{HOST}:{broker.web_port}/staff?lang=fr"
    until(lambda: answers(url), 15, "the hall's pages served")
    page = chromium.open(url)
    until(lambda: loaded(chromium, page, "/staff"), 15, "the staff page loaded")
    chromium.evaluate(page, f"document.getElementById('password').value = '{staff_password(broker.folder)}'")
    chromium.evaluate(page, "document.querySelector('#sign-in button').click()")
    until(lambda: loaded(chromium, page, "/staff") and chromium.evaluate(page, "!!document.getElementById('uid')"),
          15, "signed in")
    chromium.evaluate(page, "document.getElementById('name').value = 'Zoé'")
    chromium.evaluate(page, "document.getElementById('uid').value = '04:5a:0e'")   # not a UID
    chromium.evaluate(page, "document.querySelector('#new-player button').click()")
    until(lambda: loaded(chromium, page, "/staff/cards") and chromium.evaluate(
        page, "!!document.getElementById('problem')"), 15, "the UID refused")
    assert chromium.evaluate(page, "document.activeElement.id") == "uid", "the cursor where the next card goes"
    chromium.call("Input.insertText", page, text="04:5a:0e:00:00:00:01")   # a USB reader types the next card
    sent = time.monotonic()
    chromium.call("Input.dispatchKeyEvent", page, type="keyDown", key="Enter", code="Enter",
                  windowsVirtualKeyCode=13, text="\r")   # and Enter, which sends the form
    until(lambda: loaded(chromium, page, "/staff") and chromium.evaluate(page, "!!document.getElementById('done')"),
          15, "the card enrolled")
    assert chromium.evaluate(page, "document.getElementById('done').innerText").startswith(
        "Carte 04:5A:0E:00:00:00:01 enregistrée pour Zoé")
    chromium.screenshot(page, tmp_path / "staff.png")
    cards = hall_cards_file(state)
    until(lambda: cards.exists() and "045A0E00000001" in cards.read_text(), 15, "Zoé's card written for t1")
    print(f"card enrolled at the hall to the table's players.json: {time.monotonic() - sent:.2f} s")
    zoe = json.loads(cards.read_text())["cards"]["045A0E00000001"]["id"]
    assert card_tapped(state, zoe) == ({"4": "Zoé"}, [4])
    registry = TagRegistry(state / "registry.sqlite")
    deck_card = registry.cards("feira-torio")["TA01"]   # a card of t1's deck...
    registry.close()
    chromium.evaluate(page, "document.getElementById('name').value = 'Yann'")
    chromium.evaluate(page, f"document.getElementById('uid').value = '{deck_card}'")   # ...laid on the reader
    chromium.evaluate(page, "document.querySelector('#new-player button').click()")
    note = "document.querySelector('tr.shadowed') && document.querySelector('tr.shadowed').innerText"

    def said_under_the_card() -> str | None:
        chromium.evaluate(page, "location.reload()")
        return loaded(chromium, page, "/staff") and chromium.evaluate(page, note)

    until(said_under_the_card, 15, "t1's link saying the card is one of its deck's, on the staff page")
    assert chromium.evaluate(page, note) == ("À la table t1, cet UID est celui d'une carte du jeu : cette carte n'y "
                                             "place pas son joueur.")
    chromium.screenshot(page, tmp_path / "staff-shadowed.png")
    hall.kill(signal.SIGTERM)
    assert hall.ended() == 0
