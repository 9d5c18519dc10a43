"""The hall's pages through Starlette's TestClient: every table with its game, seats, live state and latest results,
offline tables, French then English, nothing but the public state, everything escaped, and the server-sent events
that keep a page live."""
from __future__ import annotations

import json
import queue
import threading
import time

import pytest
from starlette.testclient import TestClient

from table.cafe.hall import Hall
from table.cafe.mqtt import HALL_USER, Broker, digest
from table.cafe.pages import Bulletin, app
from table.cafe.view import card, language

OUTBOX = "a" * 32
LIVE = {"game": "feira-torio", "phase": "bidding", "options": {}, "seats": [1, 3, 4], "players": 3,
        "totals": {"1": 4, "3": 0, "4": 7}, "winners": [], "to_act": {"how": "sealed", "seats": [1, 4], "by": None},
        "prompt": None, "clock": {"left_s": 125, "limit_s": 600, "paused": False}}


def finished(n: int, scores: dict[str, int], winners: list[int], game: str = "feira-torio") -> dict:
    """A finished game's body as the table's outbox sends it."""
    return {"id": n, "game": game, "options": {}, "seats": [int(seat) for seat in scores], "scores": scores,
            "winners": winners, "started": "2026-11-28T10:00:00+00:00", "ended": f"2026-11-28T10:{n:02d}:00+00:00",
            "duration_s": 600.0, "sha256": "0" * 64}


def store(hall: Hall, table: str, seq: int, body: dict) -> None:
    text = json.dumps(body, sort_keys=True, ensure_ascii=False)
    assert hall.store(table, seq, {"outbox": OUTBOX, "seq": seq, "kind": "game", "at": body["ended"],
                                   "digest": digest(text), "body": body}) == (OUTBOX, seq)


@pytest.fixture
def site(tmp_path) -> tuple[Hall, TestClient]:
    """A hall holding two tables' states and games, and its pages."""
    bulletin = Bulletin()
    kept = Hall(tmp_path / "hall.sqlite", Broker("localhost", 1, HALL_USER, "unused"), bulletin.notify)
    kept.note("t1", "status", "online")
    kept.note("t1", "live", json.dumps(LIVE))
    for n in range(1, 5):
        store(kept, "t1", n, finished(n, {"1": n, "3": 10, "4": 2}, [3]))
    kept.note("t2", "status", "offline")
    kept.note("t2", "live", json.dumps({"game": "sweep", "phase": "lobby", "joined": [2, 5], "options": {}}))
    with TestClient(app(kept, bulletin)) as pages:   # one event loop for every request, as uvicorn has
        yield kept, pages


def cards(html: str) -> dict[str, str]:
    """Each table's card on a page, by table name."""
    return {part.split('id="table-', 1)[1].split('"', 1)[0]: part for part in html.split("<section ")[1:]}


def test_the_hall_screen_shows_every_table_its_game_seats_live_state_and_results_in_french(site):
    hall, pages = site
    page = pages.get("/")
    assert page.status_code == 200 and 'lang="fr"' in page.text and "<title>Les tables</title>" in page.text
    t1, t2 = cards(page.text).values()
    assert "Feira Torio" in t1 and "Mises secrètes : Sièges 1 et 4" in t1 and "Temps restant 2:05" in t1
    assert '<tr class=" acting"><td>4</td><td>7</td></tr>' in t1 and "en ligne" in t1
    assert t1.count("<li>") == 3 and "Siège 1 : 4" in t1 and "Siège 1 : 1" not in t1, "the 3 latest, newest first"
    assert '<span class="score winner">Siège 3 : 10</span>' in t1
    assert 'class="table offline"' in t2 and "hors ligne" in t2 and "À l&#39;accueil : 2 joueurs inscrits" in t2
    assert "Aucune partie terminée" in t2 and '<a href="/table/t2?lang=fr">' in t2


def test_english_second_by_the_query_or_the_browser(site):
    hall, pages = site
    english = pages.get("/?lang=en").text
    assert 'lang="en"' in english and "Sealed bids: Seats 1 and 4" in english and "offline" in english
    assert "Seat 3: 10" in english and "In the lobby: 2 players joined" in english
    assert 'lang="en"' in pages.get("/", headers={"Accept-Language": "en-GB,en;q=0.9,fr;q=0.5"}).text
    assert language(None, "de-DE, en;q=0.8, fr;q=0.9") == "fr" and language(None, "de, en;q=0.5") == "en"
    assert language("xx", "") == "fr" and language(None, "en;q=nonsense, ,;;") == "fr"


def test_a_spectator_page_shows_its_table_and_more_of_its_games(site):
    hall, pages = site
    page = pages.get("/table/t1")
    assert page.status_code == 200 and 'name="viewport"' in page.text and "<title>Table t1</title>" in page.text
    assert list(cards(page.text)) == ["t1"] and page.text.count("<li>") == 4
    assert 'data-events="/table/t1/events?lang=fr"' in page.text
    over = {**LIVE, "phase": "over", "winners": [3], "to_act": {"how": "done", "seats": [], "by": None}}
    hall.note("t1", "live", json.dumps(over))
    assert "Siège 3 gagne !" in pages.get("/table/t1").text


def test_only_the_public_state_is_shown_and_everything_is_escaped(site):
    """A live state or a game holding more than the public state (anything a table might send) shows none of it;
    a name in the address is escaped."""
    hall, pages = site
    secret = "<script>alert('secret')</script>"
    hall.note("t3", "live", json.dumps({**LIVE, "hand": [secret], "game": secret, "phase": secret,
                                        "to_act": {"how": secret, "seats": [secret]}, "clock": secret,
                                        "totals": {secret: 1, "1": secret}}))
    store(hall, "t3", 1, {**finished(1, {"1": 3}, [1]), "options": {"x": secret}, "players": [secret]})
    store(hall, "t3", 2, finished(2, {"1": 3}, [1], game=secret))
    hall.note("t3", "status", "<b>secret</b>")
    for path in ("/", "/table/t3", "/?lang=en"):
        page = pages.get(path).text
        assert "secret" not in page and "<script>alert" not in page
    assert 'class="status"' not in cards(page)["t3"], "a status but online or offline is none"
    missing = pages.get("/table/<b>t9")
    assert missing.status_code == 404 and "<b>t9" not in missing.text and "&lt;b&gt;t9" in missing.text
    assert "La salle ne connaît aucune table de ce nom." in missing.text
    assert pages.get("/table/t1").headers["content-security-policy"] == "default-src 'self'"


def test_the_events_send_every_card_then_each_change(site):
    """The hall's event stream sends every table's card at once; a game stored later sends that table's card again
    (the page replaces it); a spectator's stream sends only its table's."""
    hall, pages = site
    with pages.stream("GET", "/events?lang=en") as events, pages.stream("GET", "/table/t2/events") as t2:
        hall_events, t2_events = received(events), received(t2)
        first = [hall_events.get(timeout=10) for _ in range(2)]
        assert [cards(html).keys() for html in first] == [{"t1"}, {"t2"}] and "Sealed bids" in first[0]
        assert list(cards(t2_events.get(timeout=10))) == ["t2"]
        store(hall, "t1", 5, finished(5, {"1": 77, "3": 1, "4": 2}, [1]))
        changed = hall_events.get(timeout=10)
        assert list(cards(changed)) == ["t1"] and '<span class="score winner">Seat 1: 77</span>' in changed
        hall.note("t2", "status", "online")
        assert "hors ligne" not in t2_events.get(timeout=10)
        assert t2_events.empty() and list(cards(hall_events.get(timeout=10))) == ["t2"]


def test_times_are_the_halls_own(monkeypatch):
    """A game's end, in UTC at the table, shown in the hall's local time; a malformed result is left out."""
    games = [finished(5, {"1": 2}, [1]), {**finished(6, {"1": 2}, [1]), "ended": "2026-11-28T10:06:00"},
             {**finished(7, {"1": 2}, [1]), "ended": 7}, ["not", "a", "game"]]
    monkeypatch.setenv("TZ", "Europe/Paris")
    time.tzset()
    try:
        shown = [result.when for result in card("t1", None, None, games, "fr").results]
    finally:
        monkeypatch.undo()
        time.tzset()
    assert shown[0].endswith("11:05") and shown[1].endswith("11:06") and shown[2] == "" and len(shown) == 3


def received(response) -> queue.Queue:
    """The data of each server-sent event of `response`, as it comes (one line of HTML each joined by newlines)."""
    got: queue.Queue = queue.Queue()

    def read() -> None:
        data = []
        try:
            for line in response.iter_lines():
                if line.startswith("data: "):
                    data.append(line[len("data: "):])
                elif line == "" and data:
                    got.put("\n".join(data))
                    data = []
        except Exception:   # the stream closed under it: the test is over
            return

    threading.Thread(target=read, daemon=True).start()
    return got


def test_the_players_their_pages_and_the_league_in_both_languages_everything_escaped(site):
    hall, pages = site
    assert "Aucun joueur" in pages.get("/players").text
    alice, bob = {"id": "p-0000000000a1", "name": "Alice"}, {"id": "p-0000000000b2", "name": "<b>Bob</b>"}
    for n, (scores, winners) in enumerate([({"1": 9, "2": 3}, [1]), ({"1": 2, "2": 8}, [2]), ({"1": 7, "2": 1}, [1])],
                                          start=1):
        store(hall, "t3", n, {**finished(n, scores, winners, game="sweep"), "players": {"1": alice, "2": bob}})
    listed = pages.get("/players").text
    assert "Alice" in listed and "&lt;b&gt;Bob&lt;/b&gt;" in listed and "<b>Bob</b>" not in listed
    assert '<a href="/players/p-0000000000a1?lang=fr">Alice</a></td><td>3</td><td>2</td>' in listed
    player = pages.get("/players/p-0000000000a1?lang=en").text
    assert "Games: 3 · wins: 2" in player and "Plays most often with" in player and "&lt;b&gt;Bob&lt;/b&gt;" in player
    assert "Sweep" in player and "place 1 of 2" in player and "data-events" not in player
    assert "1er sur 2" in pages.get("/players/p-0000000000a1").text   # not "1e": French says 1er, then 2e, 3e
    assert "2e sur 2" in pages.get("/players/p-0000000000b2").text
    assert pages.get("/players/p-ffffffffffff").status_code == 404
    league = pages.get("/league?month=2026-11").text
    rows = league.split('<tr class="winner">')[1]
    assert ">Alice</a></td><td>4</td><td>1 sur 1</td>" in rows   # one evening: 2 wins (2 points each), 1 loss (0)


def test_a_finished_games_scores_can_wrap_inside_its_card(site):
    hall, pages = site
    store(hall, "t7", 1, finished(1, {"1": 53, "2": 24, "3": 24, "4": 40}, [1]))
    html = pages.get("/table/t7").text
    # each score is nowrap: without a space between them the line cannot break, and overflows a phone's card
    assert '</span><span class="score' not in html and '</span> <span class="score' in html


def test_the_regulars_at_a_table_are_named_live_and_in_its_results_guests_by_seat(site):
    """A seat a player card named shows its player (a link to their page) while the game is played, and their
    name in the finished game's scores and in who plays or won; a guest stays a seat number; a name is escaped; an
    unsound entry is left out, never raised."""
    hall, pages = site
    alice, bob = {"id": "p-0000000000a1", "name": "Alice"}, {"id": "p-0000000000b2", "name": "<b>Bob</b>"}
    hall.note("t8", "live", json.dumps({**LIVE, "names": {"1": alice, "3": bob, "4": {"id": "x", "name": 7}}}))
    store(hall, "t8", 1, {**finished(1, {"1": 5, "3": 9, "4": 2}, [3]), "players": {"1": alice, "3": bob}})
    t8 = cards(pages.get("/").text)["t8"]
    assert '<td>1 · <a href="/players/p-0000000000a1?lang=fr">Alice</a></td><td>4</td>' in t8
    assert '<td>3 · <a href="/players/p-0000000000b2?lang=fr">&lt;b&gt;Bob&lt;/b&gt;</a></td>' in t8
    assert '<td>4</td><td>7</td>' in t8 and "<b>Bob</b>" not in t8
    assert "Alice : 5" in t8 and '<span class="score winner">&lt;b&gt;Bob&lt;/b&gt; : 9</span>' in t8
    assert "Siège 4 : 2" in t8 and "Mises secrètes : Alice et Siège 4" in t8
    over = {**LIVE, "names": {"3": bob}, "phase": "over", "winners": [3], "to_act": {"how": "done", "seats": []}}
    hall.note("t8", "live", json.dumps(over))
    assert "&lt;b&gt;Bob&lt;/b&gt; gagne !" in pages.get("/table/t8").text


def test_an_unknown_address_answers_the_pages_own_404_in_the_visitors_language(site):
    hall, pages = site
    french = pages.get("/nope")
    assert french.status_code == 404 and 'lang="fr"' in french.text and "Cette page n&#39;existe pas." in french.text
    assert '<link rel="stylesheet" href="/static/hall.css">' in french.text
    assert french.headers["content-security-policy"] == "default-src 'self'"
    english = pages.get("/nope/further", headers={"Accept-Language": "en"})
    assert english.status_code == 404 and "There is no such page." in english.text
    assert "There is no such page." in pages.get("/static/nope.css?lang=en").text
    assert pages.get("/players/p-ffffffffffff?lang=en").text.count("The hall knows no such player.") == 1


def test_the_league_says_a_month_with_no_games_and_refuses_one_that_is_not_a_month(site):
    hall, pages = site
    alice = {"id": "p-0000000000a1", "name": "Alice"}
    store(hall, "t3", 1, {**finished(1, {"1": 9, "2": 3}, [1], game="sweep"), "players": {"1": alice}})
    shown = pages.get("/league?month=2026-11").text
    assert "<title>Ligue · novembre 2026</title>" in shown and ">Alice</a>" in shown
    assert "<title>League · November 2026</title>" in pages.get("/league?month=2026-11&lang=en").text
    empty = pages.get("/league?month=1999-01")
    assert empty.status_code == 200 and "<title>Ligue · janvier 1999</title>" in empty.text
    assert "Aucune partie de la ligue en janvier 1999." in empty.text and "Alice" not in empty.text
    assert '<a href="/league?month=2026-11&amp;lang=fr">novembre 2026</a>' in empty.text, "the months with games"
    assert "No league games in December 2026." in pages.get("/league?month=2026-12&lang=en").text
    for bad in ("garbage", "2026-13", "2026-1", "<b>2026</b>"):
        refused = pages.get("/league", params={"month": bad, "lang": "en"})
        assert refused.status_code == 400 and 'href="/static/hall.css"' in refused.text and "Alice" not in refused.text
        assert "is not a month: write it as 2026-11." in refused.text and "<b>2026" not in refused.text


def test_the_language_link_keeps_the_pages_other_query_parameters(site):
    hall, pages = site
    league = pages.get("/league?month=2026-11").text
    assert '<a href="?month=2026-11&amp;lang=en" hreflang="en" lang="en">English</a>' in league
    assert 'href="?month=2026-11&amp;lang=fr" hreflang="fr"' in pages.get("/league?lang=en&month=2026-11").text
    assert 'href="?lang=en" hreflang="en"' in pages.get("/").text
