"""The rules at a glance and the first-game mode: from the lobby's menu and from a seat's menu during play.

The rules page is the screen's, like a seat menu: not journaled, closed by a button (in the lobby any seat's;
in a game the seat's that opened it) or after RULES_S. The first-game mode is a line of the lobby's menu,
journaled with the menu, restored, and kept into the game and back to the lobby.
"""
from __future__ import annotations

from table.events import Accepted, Tick
from table.session.lobby import RULES, START, TEACH
from table.session.table_session import RULES_S, TableSession
from table.storage.journal import Journal
from tests.session.desk import Desk, entry_count
from tests.session.test_lobby import Lobby


def to_line(lobby: Lobby, seat: int, line: str) -> None:
    while lobby.session.menu.line != line:
        lobby.press(seat, "next")


def started_feira_torio() -> Desk:
    desk = Desk(game="feira-torio")
    desk.join(1, 2, 3)
    desk.press(1, "ok")
    assert desk.session.state is not None
    return desk


def test_the_lobby_menu_has_the_rules_and_the_first_game_mode_before_start():
    lobby = Lobby(game="kitty")
    assert lobby.session.menu.lines[-3:] == [RULES, TEACH, START]
    assert lobby.session.table_view()["teach"] is False and lobby.session.table_view()["rules_page"] is None


def test_ok_on_the_rules_line_shows_the_rules_without_a_journal_entry_and_any_button_closes_them():
    lobby = Lobby()
    lobby.tap(2, "feira-torio", "TA01")
    to_line(lobby, 2, RULES)
    entries = entry_count(lobby.journal)
    assert lobby.press(2, "ok") == []
    assert lobby.session.table_view()["rules_page"] == {"seat": 2}
    assert entry_count(lobby.journal) == entries
    assert lobby.press(2, "next") == []                       # closes the page and does nothing else
    assert lobby.session.table_view()["rules_page"] is None and lobby.session.menu.line == RULES
    assert entry_count(lobby.journal) == entries


def test_the_first_game_mode_is_journaled_restored_and_kept_into_the_game():
    lobby = Lobby(journal=Journal(":memory:"))
    for seat in (1, 2, 3):
        lobby.tap(seat, "feira-torio", "TA01")
    to_line(lobby, 1, TEACH)
    assert [(type(e), e.what) for e in lobby.press(1, "ok")] == [(Accepted, "menu")]
    assert lobby.session.table_view()["teach"] is True
    again = TableSession(lobby.layout, lobby.registry, lobby.journal, lobby.bus)
    assert again.menu.teach is True and again.table_view()["teach"] is True
    to_line(lobby, 1, START)
    lobby.press(1, "ok")
    assert lobby.session.state is not None and lobby.session.table_view()["teach"] is True


def test_a_seat_menu_in_play_offers_the_rules_last_and_only_its_seat_closes_them():
    desk = started_feira_torio()
    assert desk.press(2, "ok") == []                          # Feira Torio has no seat menu: Back and the rules
    menu = desk.session.table_view()["menus"]["2"]
    assert menu["labels"] == [["menu_back", {}], ["menu_rules", {}]] and menu["why"] == ["no_choice_now", {}]
    desk.press(2, "next")
    assert desk.press(2, "ok") == []
    view = desk.session.table_view()
    assert view["rules_page"] == {"seat": 2} and view["menus"] == {}
    desk.press(3, "ok")                                       # another seat's button is its own
    assert desk.session.table_view()["rules_page"] == {"seat": 2} and "3" in desk.session.table_view()["menus"]
    desk.press(2, "back")
    assert desk.session.table_view()["rules_page"] is None


def test_a_rules_page_nobody_closes_goes_after_its_time():
    desk = started_feira_torio()
    desk.press(2, "ok"), desk.press(2, "back"), desk.press(2, "ok")
    assert desk.session.table_view()["rules_page"] == {"seat": 2}
    desk._send(Tick(100.0))
    desk._send(Tick(100.0 + RULES_S - 1))
    assert desk.session.table_view()["rules_page"] == {"seat": 2}
    desk._send(Tick(100.0 + RULES_S))
    assert desk.session.table_view()["rules_page"] is None


def test_an_ok_the_game_takes_for_an_action_is_played_not_a_menu():
    """Feira Torio's First Bid holder marks the first lot with OK: the menu does not get in the way."""
    desk = started_feira_torio()
    session = desk.session
    for lot in desk.cards[:4]:
        desk.tap(desk.layout.centre[0], lot)
    assert session.public()["phase"] == "first"
    holder = session.players[session.public()["first_bid"]]
    assert [(type(e), e.what) for e in desk.press(holder, "ok")] == [(Accepted, "action")]
    assert session.table_view()["menus"] == {}
