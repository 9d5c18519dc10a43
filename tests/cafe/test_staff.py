"""The hall's staff page through Starlette's TestClient: the sign-in (the password, a second per wrong guess, the
session's cookie and its end), forms refused unless they come from the staff page itself, and player cards
enrolled (a new player, another card for a known one), kept in hall.sqlite and published for every table; bad input
said in words and changing nothing."""
from __future__ import annotations

import asyncio
import html
import json
import re
import time

import paho.mqtt.client as mqtt
import pytest
from starlette.testclient import TestClient

from table.cafe.hall import Hall
from table.cafe.mqtt import HALL_USER, PLAYERS, Broker, CafeError, read_password
from table.cafe.pages import Bulletin, app
from table.cafe.staff import SESSION_S, Staff, card_uid
from tests.cafe.test_pages import finished, store

SITE = "http://hall.local:8080"
ORIGIN = {"Origin": SITE}
PASSWORD = "abcde-fghjk-mnpqr-stuvw"


class Published:
    """Stands in for the hall's MQTT client: what it was asked to publish."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, int, bool]] = []

    def publish(self, topic: str, payload: str, qos: int, retain: bool) -> None:
        self.sent.append((topic, payload, qos, retain))

    def cards(self) -> dict:
        """The player cards last published."""
        return json.loads([payload for topic, payload, *_ in self.sent if topic == PLAYERS][-1])["cards"]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def hall(tmp_path) -> Hall:
    kept = Hall(tmp_path / "hall.sqlite", Broker("localhost", 1, HALL_USER, "unused"))
    kept.client = Published()
    return kept


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def pages(hall, clock):
    with TestClient(app(hall, Bulletin(), Staff(PASSWORD, clock)), base_url=SITE) as client:
        yield client


def signed_in(pages: TestClient) -> str:
    """Sign in; the staff page's form token."""
    answer = pages.post("/staff/sign-in?lang=en", data={"password": PASSWORD}, headers=ORIGIN, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/staff?lang=en"
    return form_token(pages.get("/staff?lang=en").text)


def form_token(html: str) -> str:
    return re.search(r'name="form" value="([^"]+)"', html).group(1)


def enrol(pages: TestClient, form: str, headers: dict = ORIGIN, **fields):
    return pages.post("/staff/cards?lang=en", data={"form": form, **fields}, headers=headers)


def said(html: str) -> str:
    """The staff page's message (what was done or what was wrong)."""
    found = re.search(r'<p class="(?:done|problem)"[^>]*>(.*?)</p>', html)
    return found.group(1).replace("&#39;", "'") if found else ""


def test_a_player_card_enrolled_by_name_and_uid_is_kept_published_and_listed(pages, hall, tmp_path):
    form = signed_in(pages)
    answer = enrol(pages, form, name="Alice", uid=" 04:a2:1c:5b ")
    assert answer.status_code == 200 and answer.url.path == "/staff", "back on the staff page (no form sent twice)"
    assert said(answer.text) == "Card 04:A2:1C:5B enrolled for Alice: every table knows it within seconds."
    [(uid, card)] = hall.cards().items()
    assert uid == "04A21C5B" and card["name"] == "Alice" and card["here"] and re.fullmatch(r"p-[0-9a-f]{12}",
                                                                                            card["id"])
    assert hall.client.cards() == {"04A21C5B": {"id": card["id"], "name": "Alice"}}
    assert hall.client.sent[-1][2:] == (1, True), "QoS 1, retained: a table's link gets it whenever it connects"
    assert '<code>04:A2:1C:5B</code>' in answer.text and f'/players/{card["id"]}' in answer.text
    players = pages.get("/players?lang=en").text
    assert "Alice" in players, "an enrolled player is one of the café's players before their first game"
    assert pages.get(f"/players/{card['id']}?lang=en").status_code == 200
    again = Hall(tmp_path / "hall.sqlite", Broker("localhost", 1, HALL_USER, "unused"))
    assert again.cards() == hall.cards(), "kept in hall.sqlite"


def test_another_card_for_a_known_player_names_the_same_player(pages, hall):
    store(hall, "t1", 1, finished(1, {"1": 3, "2": 5}, [2]) | {
        "players": {"2": {"id": "p-0000000000b0", "name": "Bruno", "card": "04B00000000001"}}})
    form = signed_in(pages)
    page = pages.get("/staff?lang=en").text
    assert '<option value="p-0000000000b0">Bruno</option>' in page and "at a table" in page
    answer = enrol(pages, form, player="p-0000000000b0", uid="04B00000000002")
    assert said(answer.text) == "Card 04:B0:00:00:00:00:02 enrolled for Bruno: every table knows it within seconds."
    assert {uid: card["id"] for uid, card in hall.cards().items()} == {
        "04B00000000001": "p-0000000000b0", "04B00000000002": "p-0000000000b0"}
    assert enrol(pages, form, player="p-00000000dead", uid="04B00000000003").status_code == 400


@pytest.mark.parametrize("fields, status, message, refused", [
    ({"name": "Alice", "uid": "04A21C"}, 400, "“04A21C” is not a card's UID", "uid"),
    ({"name": "Alice", "uid": "ZZ:A2:1C:5B"}, 400, "is not a card's UID", "uid"),
    ({"name": " Alice", "uid": "04A21C5B"}, 400, "A player's name is 1 to 24 printable characters", "name"),
    ({"name": "A" * 25, "uid": "04A21C5B"}, 400, "A player's name is 1 to 24 printable characters", "name"),
    ({"name": "", "uid": "04A21C5B"}, 400, "A player's name", "name"),
    ({"player": "p-0000000000b0", "uid": "04A21C5B"}, 400, "Choose a player the hall knows.", "player"),
    ({"name": "Eve", "uid": "04B00000000001"}, 409, "This card is already Bruno's card: nothing was changed.", "uid"),
    ({"player": "p-0000000000b1", "uid": "04A21C"}, 400, "is not a card's UID", "another-uid"),
    ({"player": "p-0000000000b1", "uid": "04B00000000001"}, 409, "This card is already Bruno's card", "another-uid"),
])
def test_bad_input_is_said_and_changes_nothing(pages, hall, fields, status, message, refused):
    store(hall, "t1", 1, finished(1, {"1": 3, "2": 5}, [2]) | {
        "players": {"2": {"id": "p-0000000000b1", "name": "Bruno", "card": "04B00000000001"}}})
    before, sent = hall.cards(), len(hall.client.sent)
    answer = enrol(pages, signed_in(pages), **fields)
    assert answer.status_code == status and message in said(answer.text)
    assert hall.cards() == before and len(hall.client.sent) == sent
    if "name" in fields:   # what was typed is shown again, to be corrected
        assert f'value="{fields["uid"]}"' in answer.text
    # the cursor in the field refused (not the name's): a USB reader types the next card's UID there
    assert re.findall(r'<(?:input|select) id="([^"]+)"[^>]* autofocus', answer.text) == [refused]


def test_a_card_enrolled_here_wins_over_one_a_later_game_names_otherwise(pages, hall):
    enrol(pages, signed_in(pages), name="Alice", uid="04A21C5B")
    alice = hall.cards()["04A21C5B"]["id"]
    store(hall, "t1", 1, finished(1, {"1": 3, "2": 5}, [2]) | {
        "players": {"1": {"id": "p-0000000000e0", "name": "Eve", "card": "04A21C5B"}}})
    hall.publish_cards(hall.client)
    assert hall.client.cards()["04A21C5B"] == {"id": alice, "name": "Alice"}


def test_a_wrong_password_waits_a_second_and_opens_nothing(pages, hall):
    began = time.monotonic()
    answer = pages.post("/staff/sign-in?lang=en", data={"password": PASSWORD[:-1]}, headers=ORIGIN,
                        follow_redirects=False)
    assert time.monotonic() - began >= 1.0
    assert answer.status_code == 401 and said(answer.text) == "Wrong password." and "set-cookie" not in answer.headers
    answer = enrol(pages, "", name="Alice", uid="04A21C5B")
    assert answer.status_code == 401 and "You are signed out" in said(answer.text) and hall.cards() == {}
    assert 'id="sign-in"' in pages.get("/staff").text


def test_the_session_is_an_http_only_strict_cookie_for_the_staff_page_that_ends(pages, hall, clock):
    answer = pages.post("/staff/sign-in", data={"password": PASSWORD}, headers=ORIGIN, follow_redirects=False)
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/staff" in cookie
    assert f"Max-Age={SESSION_S}" in cookie and answer.headers["cache-control"] == "no-store"
    form = form_token(pages.get("/staff").text)
    clock.now += SESSION_S + 1
    assert enrol(pages, form, name="Alice", uid="04A21C5B").status_code == 401 and hall.cards() == {}
    form = signed_in(pages)
    signed_out = pages.post("/staff/sign-out", headers=ORIGIN)
    assert signed_out.status_code == 200 and 'id="sign-in"' in signed_out.text
    assert enrol(pages, form, name="Alice", uid="04A21C5B").status_code == 401 and hall.cards() == {}


@pytest.mark.parametrize("headers", [{}, {"Origin": "http://evil.example"}, {"Origin": "null"},
                                     {"Origin": "https://hall.local:8080"}])
def test_a_form_from_anywhere_else_is_refused(pages, hall, headers):
    form = signed_in(pages)
    answer = enrol(pages, form, headers, name="Alice", uid="04A21C5B")
    assert answer.status_code == 403 and "did not come from the hall's staff page" in said(answer.text)
    assert pages.post("/staff/sign-in", data={"password": PASSWORD}, headers=headers).status_code == 403
    assert enrol(pages, "not its token", name="Alice", uid="04A21C5B").status_code == 403
    assert enrol(pages, "pas le sien, é", name="Alice", uid="04A21C5B").status_code == 403
    assert hall.cards() == {} and hall.client.sent == []


def test_without_a_staff_password_the_staff_page_says_it_is_off(hall):
    with TestClient(app(hall, Bulletin()), base_url=SITE) as pages:
        page = pages.get("/staff?lang=en")
        assert page.status_code == 200 and "The staff page is off" in said(page.text)
        assert pages.post("/staff/sign-in", data={"password": ""}, headers=ORIGIN).status_code == 404
        assert enrol(pages, "", name="Alice", uid="04A21C5B").status_code == 401 and hall.cards() == {}


def test_a_uid_is_read_as_people_and_usb_readers_type_it():
    assert card_uid("04 a2 1c 5b") == "04A21C5B" and card_uid("04-A2-1C-5B-00-00-01") == "04A21C5B000001"
    assert card_uid("04A21C5B0") is None and card_uid("") is None


def test_the_staff_page_speaks_french_first(pages):
    page = pages.get("/staff").text
    assert 'lang="fr"' in page and "Mot de passe du personnel" in page and "Se connecter" in page


@pytest.mark.parametrize("path", ["/staff/cards", "/staff/sign-in", "/staff/sign-out"])
def test_a_forms_address_opened_as_a_page_shows_the_staff_page_in_its_language(pages, path):
    """After a refusal the page's address is its form's: its language link (or a reload) opens that address."""
    opened = pages.get(f"{path}?lang=en", follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == "/staff?lang=en"
    assert 'lang="en"' in pages.get(f"{path}?lang=en").text
    assert pages.get("/staff/nothing").status_code == 404


@pytest.mark.parametrize("text", ["", "\n", "  \n"])
def test_an_empty_password_file_is_refused(tmp_path, text):
    """An empty staff.password would open the staff page to an empty password."""
    path = tmp_path / "staff.password"
    path.write_text(text)
    with pytest.raises(CafeError, match="empty"):
        read_password(path)


def test_a_game_naming_a_card_badly_leaves_the_staff_page_and_the_cards_whole(pages, hall):
    """A table's game is data: a player entry without an id or a name, or with a UID that is none, is not a card."""
    store(hall, "t1", 1, finished(1, {"1": 3, "2": 5, "3": 1}, [2]) | {"players": {
        "1": {"card": "04B00000000001", "name": 5}, "2": {"card": "<b>", "id": "p-0000000000b0", "name": "Bob"},
        "3": {"card": "04C00000000001", "id": "p-0000000000c0", "name": "Chloé"}}})
    assert hall.cards() == {"04C00000000001": {"id": "p-0000000000c0", "name": "Chloé", "here": False}}
    signed_in(pages)
    assert pages.get("/staff?lang=en").status_code == 200


def test_wrong_guesses_from_one_address_do_not_keep_another_out():
    """Each address guesses one at a time; the staff's own sign-in does not queue behind an attacker's guesses."""
    async def guesses() -> float:
        staff = Staff(PASSWORD)
        wrong = [asyncio.create_task(staff.sign_in("guess", "192.168.1.66")) for _ in range(3)]
        await asyncio.sleep(0.1)
        began = time.monotonic()
        assert await staff.sign_in(PASSWORD, "192.168.1.20") is not None
        took = time.monotonic() - began
        assert await asyncio.gather(*wrong) == [None] * 3
        return took
    assert asyncio.run(guesses()) < 0.5


def test_one_address_guesses_one_at_a_time():
    """Three wrong guesses sent at once from one address are answered one a second."""
    async def guesses() -> float:
        staff = Staff(PASSWORD)
        began = time.monotonic()
        await asyncio.gather(*(staff.sign_in("guess", "192.168.1.66") for _ in range(3)))
        return time.monotonic() - began
    assert asyncio.run(guesses()) >= 3.0


def test_over_https_the_session_cookie_is_secure(hall):
    """Secure over https (the cookie never leaves on plain HTTP), not over plain HTTP (it would never come back)."""
    with TestClient(app(hall, Bulletin(), Staff(PASSWORD)), base_url="https://hall.local") as pages:
        answer = pages.post("/staff/sign-in", data={"password": PASSWORD}, headers={"Origin": "https://hall.local"},
                            follow_redirects=False)
        assert answer.status_code == 303 and "Secure" in answer.headers["set-cookie"]
    answer = TestClient(app(hall, Bulletin(), Staff(PASSWORD)), base_url=SITE).post(
        "/staff/sign-in", data={"password": PASSWORD}, headers=ORIGIN, follow_redirects=False)
    assert "Secure" not in answer.headers["set-cookie"], "plain HTTP: a Secure cookie would never come back"


@pytest.mark.parametrize("name", ["Bob 😀", "中文", "a" + "\u0301" * 20, "مرحبا"])
def test_a_name_the_tables_screen_cannot_draw_is_refused(pages, hall, name):
    """The screen's font has no emoji, CJK or Arabic, and stacks combining marks into a label taller than the
    lobby: such a name would reach every table as empty boxes."""
    answer = enrol(pages, signed_in(pages), name=name, uid="04A21C5B")
    assert answer.status_code == 400 and "cannot draw" in said(answer.text) and hall.cards() == {}


def test_a_name_typed_decomposed_is_kept_composed(pages, hall):
    """An accent typed as a letter and a combining mark is kept composed, as the tables' screens draw it."""
    enrol(pages, signed_in(pages), name="Che\u0301rie", uid="04A21C5B")
    assert hall.cards()["04A21C5B"]["name"] == "Chérie"


def test_a_name_another_player_has_is_refused_with_the_way_to_add_their_card(pages, hall):
    """Two players of one name could not be told apart on the pages or at a seat: the second is refused, and the
    message points to "Another card for a player"."""
    form = signed_in(pages)
    assert enrol(pages, form, name="Zed", uid="04A21C5B").status_code == 200
    answer = enrol(pages, form, name="Zed", uid="04A21C5C")
    assert answer.status_code == 409 and "Another card for a player" in said(answer.text)
    assert list(hall.cards()) == ["04A21C5B"]


def told(hall: Hall, table: str, payload: bytes) -> None:
    """A table's message on which of the hall's cards it keeps for itself, as the broker hands it to the hall."""
    message = mqtt.MQTTMessage(topic=f"cafe/{table}/shadowed".encode())
    message.payload = payload
    hall._on_message(hall.client, None, message)


def test_a_card_a_table_keeps_for_itself_is_said_under_it_with_the_table_and_why(pages, hall):
    """A table's link says which of the hall's cards its registry keeps (a deck's card, a staff card...): the
    staff page says it under that card; what is not a UID and a reason is left out, a malformed message ignored."""
    form = signed_in(pages)
    for uid, name in (("04000000000001", "Zoé"), ("04000000000002", "Yann")):
        assert enrol(pages, form, uid=uid, name=name).status_code == 200
    told(hall, "t2", json.dumps({"cards": {"04000000000001": "card", "nonsense": "card",
                                           "04000000000002": "anything"}}).encode())
    told(hall, "t3", json.dumps({"cards": {"04000000000001": "staff"}}).encode())
    told(hall, "t4", b"[" * 100_000)
    told(hall, "t5", b'{"cards": ["04000000000002"]}')
    rows = re.findall(r"<tr[^>]*>.*?</tr>", pages.get("/staff?lang=en").text, re.S)
    notes = [html.unescape(re.sub(r"<[^>]+>", "", row)).strip() for row in rows if 'class="shadowed"' in row]
    assert notes == ["At table t2 this UID is one of the game's cards: this card does not seat its player there.",
                     "At table t3 this UID is a staff card: this card does not seat its player there."]
    assert "Yann" in rows[1] and "Zoé" in rows[2] and len(rows) == 5   # both notes under Zoé's card, the last
    told(hall, "t2", b'{"cards": {}}')   # t2's registry let the card go
    told(hall, "t3", b"")                  # t3 taken out of the café: its retained message cleared
    assert "At table" not in pages.get("/staff?lang=en").text
