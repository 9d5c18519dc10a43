"""Nothing a player does in the lobby or the staff menu stops the table, and every journal it leaves restores.

The session checks every entry before it journals it, live exactly as on
restore: a Start whose seats do not fit the chosen game is refused with a
message naming the game and the count (and the lobby says so beforehand), a
join past the game's maximum and a `lobby` entry during a game are refused
on restore as they are live. A failure while handling one input refuses that
input and the table goes on with the next.
"""
from __future__ import annotations

import logging
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.assets import deck_data
from table.events import Accepted, ButtonDown, CardPlaced, CardRemoved, EventBus, Refused
from table.registry import GAMES
from table.layout import load_layout
from table.screen.i18n import Translator
from table.session.lobby import games_for
from table.session.table_session import JournalError, TableSession
from table.storage.journal import Journal
from table.storage.registry import simulated_uid
from tests.session.test_lobby import Lobby as LobbyOf6

LAYOUTS = sorted(p.stem for p in (Path(__file__).parents[2] / "hardware" / "layouts").glob("*.toml"))
DECKS = sorted({game.info.deck for game in GAMES.values()})


class Errors(logging.Handler):
    """Every log record at ERROR or above, from anywhere in the table."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Lobby(LobbyOf6):
    """A session on `layout` fed presence and button events as the hardware would publish them."""

    def __init__(self, layout: str, journal: Journal | None = None) -> None:
        super().__init__(journal, layout=load_layout(layout))

    def tap_pad(self, pad: str, uid: str) -> list:
        return self.send(CardPlaced(pad, uid), CardRemoved(pad, uid))

    def join(self, seat: int, deck: str) -> list:
        card = deck_data(deck)["cards"][0]["id"]
        return self.tap_pad(self.layout.seats[seat - 1].pads[0], simulated_uid(f"{deck}/{card}"))

    def staff(self) -> list:
        return self.tap_pad(self.layout.pads[-1], simulated_uid("None/staff-1"))

    def press(self, seat: int, button: str) -> list:
        return self.send(ButtonDown(seat, button))

    def choose_in_lobby(self, game: str) -> None:
        """Move the lobby's menu to `game` with seat 1's buttons (Next to the game line, OK until it shows), then
        its cursor back on Start."""
        self.press(1, "next")
        while self.session.menu.game != game:
            self.press(1, "ok")
        self.press(1, "back")

    def choose_with_staff(self, game: str) -> None:
        """Choose `game` on the staff menu's games page, then stay on the staff menu's first line (start)."""
        self.staff()
        self.press(1, "next")
        self.press(1, "ok")
        while self.session.staff.chosen("lobby", games_for(self.layout)) != game:
            self.press(1, "next")
        self.press(1, "ok")
        self.press(1, "back")

    def restored(self) -> TableSession:
        return TableSession(self.layout, self.registry, self.journal, EventBus())


def same(a: TableSession, b: TableSession) -> None:
    assert (a.mode, a.joined, a.players, a.menu.game, a.menu.options, a.state) == \
           (b.mode, b.joined, b.players, b.menu.game, b.menu.options, b.state)


def kinds(journal: Journal) -> list[str]:
    return [kind for _, kind, _ in journal.entries()]


# ------------------------------------------------------------ the misfit Start


def test_three_friends_start_five_cards_and_are_told_it_is_played_by_two():
    lobby = Lobby("sim-6-single")
    for seat in (1, 2, 3):
        lobby.join(seat, "pairs")
    lobby.choose_in_lobby("five-cards")
    view = lobby.session.table_view()
    assert (view["game"], view["joined"], view["menu"]["lines"][view["menu"]["cursor"]]) == \
           ("five-cards", [1, 2, 3], "start")
    before = kinds(lobby.journal)
    heard = lobby.press(1, "ok")
    assert [(type(e), getattr(e, "message", None)) for e in heard] == [(Refused, "players_misfit")]
    assert kinds(lobby.journal) == before and lobby.session.mode == "lobby"
    from table.screen.screen import Screen
    text = Screen(GAMES, "fr")._message(Screen(GAMES, "fr").canvas(__import__("pygame").Surface((1, 1)), view | {
        "message": lobby.session.message}), lobby.session.message)
    assert text == "Siège 1 : Cinq cartes se joue à 2 : 3 inscrits"
    same(lobby.session, lobby.restored())


def test_the_lobby_says_what_is_wrong_before_anyone_presses_start(tmp_path):
    """The Start line and the status line under the seats say what is wrong instead of 'ready to start'."""
    import pygame

    from table.screen.screen import Screen
    lobby = Lobby("sim-6-single")
    for seat in (1, 2, 3):
        lobby.join(seat, "pairs")
    lobby.choose_in_lobby("five-cards")
    said: list[str] = []
    real = Translator.__call__
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Translator, "__call__", lambda self, key, **params: said.append(real(self, key, **params))
                      or said[-1])
        frame = Screen(GAMES, "fr").render(lobby.session.table_view(), "lobby")
    pygame.image.save(frame, tmp_path / "lobby-misfit.png")
    assert "Cinq cartes se joue à 2 : 3 inscrits" in said and not any("prêts à commencer" in s for s in said)
    assert "impossible : 3 inscrits, se joue à 2" in said                   # on the Start line itself


def test_the_staff_menus_start_refuses_a_game_the_seats_do_not_fit():
    lobby = Lobby("sim-8-single")
    for seat in range(1, 9):
        lobby.join(seat, "pairs")
    lobby.choose_with_staff("five-cards")
    assert lobby.session.menu.game == "five-cards" and lobby.session.staff.chosen("lobby", []) == "start"
    before = kinds(lobby.journal)
    heard = lobby.press(4, "ok")
    assert [(type(e), getattr(e, "message", None), getattr(e, "seat", 0)) for e in heard] == \
           [(Refused, "players_misfit", None)]
    assert kinds(lobby.journal) == before
    same(lobby.session, lobby.restored())


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_game_at_every_seat_count_starts_exactly_when_it_fits(layout):
    """Through the lobby's menu and the staff menu alike: started when the count fits, else refused with nothing
    journaled; the journal restores to the same table either way."""
    seats = len(load_layout(layout).seats)
    for game in games_for(load_layout(layout)):
        info = GAMES[game].info
        for count in range(1, seats + 1):
            for staff in (False, True):
                lobby = Lobby(layout)
                for seat in range(1, count + 1):
                    lobby.join(seat, info.deck)
                (lobby.choose_with_staff if staff else lobby.choose_in_lobby)(game)
                joined = len(lobby.session.joined)
                lobby.press(1, "ok")
                started = lobby.session.mode != "lobby"
                assert started == (joined in info.players), (game, count, staff)
                if not started:
                    key = "too_few_players" if joined < info.players.start else "players_misfit"
                    assert lobby.session.message["key"] == key and "start" not in kinds(lobby.journal)
                same(lobby.session, lobby.restored())


# ------------------------------------------------------------ random lobby play, every layout


ACTS = st.one_of(
    st.tuples(st.just("join"), st.integers(1, 8), st.sampled_from(DECKS)),
    st.tuples(st.just("press"), st.integers(1, 8), st.sampled_from(["next", "ok", "back", "ok", "ok"])),
    st.tuples(st.just("staff"), st.just(0), st.just("")),
)


@pytest.mark.parametrize("layout", LAYOUTS)
@settings(max_examples=60, deadline=None)
@given(acts=st.lists(ACTS, max_size=40))
def test_no_input_in_the_lobby_or_the_staff_menu_raises_and_every_journal_restores(layout, acts):
    errors = Errors()
    logging.getLogger().addHandler(errors)
    try:
        lobby = Lobby(layout)
        seats = len(lobby.layout.seats)
        for act, seat, what in acts:
            seat = (seat - 1) % seats + 1
            if act == "join":
                heard = lobby.join(seat, what)
            elif act == "press":
                heard = lobby.press(seat, what)
            else:
                heard = lobby.staff()
            assert not [e for e in heard if isinstance(e, Refused) and e.message == "input_failed"]
        assert not errors.records, [r.getMessage() for r in errors.records]
        same(lobby.session, lobby.restored())
    finally:
        logging.getLogger().removeHandler(errors)


# ------------------------------------------------------------ restore refuses what live play refuses


def restore(entries) -> TableSession:
    journal = Journal()
    for kind, data in entries:
        journal.append(kind, data)
    return TableSession(load_layout("sim-8-single"), None, journal, EventBus())


def test_a_join_past_the_games_maximum_is_refused_on_restore():
    joins = [("join", {"seat": s}) for s in range(1, 8)]   # Feira Torio takes 6
    restore(joins[:6])
    with pytest.raises(JournalError) as error:
        restore(joins)
    assert error.value.seq == 7 and "past the 6 players" in error.value.reason


def test_a_lobby_entry_during_a_game_is_refused_on_restore():
    begun = [*(("join", {"seat": s}) for s in (1, 2, 3)),
             ("start", {"game": "feira-torio", "options": {}, "seats": [1, 2, 3], "first": 0})]
    with pytest.raises(JournalError) as error:
        restore([*begun, ("lobby", {"seats": [1, 2, 3]})])
    assert error.value.seq == 5 and "before the game is over" in error.value.reason
    with pytest.raises(JournalError):
        restore([*begun[:3], ("lobby", {"seats": [1, 2, 3]})])                     # no game at all
    restore([*begun, ("lobby", {"seats": [1, 2, 3], "ended": "staff"})])             # staff ended it: fine


def test_a_start_of_more_seats_than_the_game_takes_is_refused_on_restore():
    entries = [("menu", {"game": "five-cards", "options": {}, "cursor": -1}), *(("join", {"seat": s}) for s in (1, 2))]
    entries.append(("start", {"game": "five-cards", "options": {}, "seats": [1, 2], "first": 2}))
    with pytest.raises(JournalError) as error:
        restore(entries)
    assert "no player 2" in error.value.reason


# ------------------------------------------------------------ a failure handling one input


def test_a_failure_while_handling_an_input_refuses_it_and_the_next_input_is_handled(monkeypatch, caplog):
    lobby = Lobby("sim-6-single")
    lobby.join(1, "feira-torio")
    real = TableSession._menu

    sealed = "VA" + "03"   # what a failing engine's message could quote: a sealed card

    def broken(self, seat, button):
        if button == "next":
            raise KeyError(sealed)
        return real(self, seat, button)

    monkeypatch.setattr(TableSession, "_menu", broken)
    with caplog.at_level(logging.ERROR):
        heard = lobby.press(1, "next")
    assert [(type(e), e.seat, e.message) for e in heard] == [(Refused, 1, "input_failed")]
    assert "KeyError" in caplog.text and "in broken" in caplog.text   # logged with its kind and its stack...
    assert "VA03" not in caplog.text                                  # ...never its message
    assert [type(e) for e in lobby.join(2, "feira-torio")] == [Accepted]
    assert lobby.session.joined == [1, 2]


def test_a_subscriber_that_raises_never_stops_the_bus(caplog):
    bus = EventBus()
    got = []
    bus.subscribe(ButtonDown, lambda event: 1 / 0)
    bus.subscribe(ButtonDown, got.append)
    for seat in (1, 2):
        bus.publish(ButtonDown(seat, "ok"))
    with caplog.at_level(logging.ERROR):
        assert bus.dispatch() == 2
    assert [e.seat for e in got] == [1, 2] and caplog.text.count("ZeroDivisionError") == 2
