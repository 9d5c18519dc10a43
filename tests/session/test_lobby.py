"""The lobby's game menu: seat buttons (or the staff card) choose the game and its options; the start
entry records them; every menu step is journaled and restored."""
from __future__ import annotations

from table.assets import deck_data
from table.events import Accepted, ButtonDown, CardPlaced, CardRemoved, EventBus, Refused
from table.registry import GAMES
from table.layout import Layout, load_layout
from table.session.lobby import START, Menu, games_for
from table.session.table_session import TableSession
from table.storage.journal import Journal
from table.storage.registry import Tag, TagRegistry, enrol_simulated
from tests.session.staff_cards import genuine_staff_cards

LAYOUT = load_layout("sim-6-single")


class Lobby:
    """A session on `layout` (sim-6-single) fed presence and button events directly; every deck enrolled."""

    def __init__(self, journal: Journal | None = None, game: str | None = None, layout: Layout = LAYOUT) -> None:
        self.layout = layout
        self.registry = TagRegistry()
        for deck in {game.info.deck for game in GAMES.values()}:
            enrol_simulated(self.registry, deck, [c["id"] for c in deck_data(deck)["cards"]])
        self.journal = journal or Journal()
        self.bus = EventBus()
        self.session = TableSession(layout, self.registry, self.journal, self.bus, game)
        genuine_staff_cards(self.bus, self.registry)
        self.heard: list = []
        self.bus.subscribe(Accepted, self.heard.append)
        self.bus.subscribe(Refused, self.heard.append)

    def send(self, *events) -> list:
        start = len(self.heard)
        for event in events:
            self.bus.publish(event)
        self.bus.dispatch()
        return self.heard[start:]

    def tap(self, seat: int, deck: str, card: str) -> list:
        uid = self.registry.uid_of(Tag("card", deck, card))
        return self.send(CardPlaced(f"seat{seat}", uid), CardRemoved(f"seat{seat}", uid))

    def press(self, seat: int, button: str) -> list:
        return self.send(ButtonDown(seat, button))


def test_the_menu_offers_every_registered_game_this_table_can_play():
    assert games_for(LAYOUT) == [name for name, g in GAMES.items() if g.info.players.start <= len(LAYOUT.seats)]
    menu = Menu.first(LAYOUT)
    assert menu.line == START and menu.lines[0] == "game"   # OK alone starts the game offered first


def test_next_moves_the_cursor_and_each_step_is_journaled_then_restored():
    lobby = Lobby()
    lobby.tap(2, "feira-torio", "TA01")
    events = lobby.press(2, "next")
    assert [(type(e), e.what) for e in events] == [(Accepted, "menu")]
    assert lobby.session.table_view()["menu"]["cursor"] == 0
    kinds = [kind for _, kind, _ in lobby.journal.entries()]
    assert kinds == ["join", "menu"]
    restored = TableSession(LAYOUT, lobby.registry, lobby.journal, EventBus())
    assert restored.menu == lobby.session.menu and restored.joined == [2]


def test_ok_on_the_game_line_takes_the_next_game_and_ok_on_start_starts_it():
    lobby = Lobby()
    for seat in (1, 2, 3):
        lobby.tap(seat, "feira-torio", "TA01")
    lobby.press(1, "next")                      # cursor on the game line
    lobby.press(1, "ok")                        # the next game (the same one when only one fits)
    names = games_for(LAYOUT)
    assert lobby.session.menu.game == names[(names.index("feira-torio") + 1) % len(names)]
    while lobby.session.menu.game != "feira-torio":
        lobby.press(1, "ok")
    lobby.press(1, "back")                      # back to Start (the line before the game line, wrapping)
    assert lobby.session.menu.line == START
    events = lobby.press(3, "ok")
    assert [(type(e), e.what) for e in events] == [(Accepted, "start")]
    start = [data for _, kind, data in lobby.journal.entries() if kind == "start"]
    assert start == [{"game": "feira-torio", "options": {}, "seats": [1, 2, 3], "first": 2}]


def test_a_seat_that_did_not_join_cannot_work_the_menu():
    lobby = Lobby()
    lobby.tap(1, "feira-torio", "TA01")
    before = list(lobby.journal.entries())
    assert lobby.press(4, "next") == []
    assert [(type(e), e.message) for e in lobby.press(4, "ok")] == [(Refused, "join_first")]
    assert list(lobby.journal.entries()) == before


def test_a_card_of_a_deck_no_game_here_plays_is_refused():
    lobby = Lobby()
    playable_decks = {GAMES[n].info.deck for n in games_for(LAYOUT)}
    if "pairs" in playable_decks:   # once a Pairs game registers, a Pairs card chooses it instead
        events = lobby.tap(1, "pairs", "7a")
        assert GAMES[lobby.session.menu.game].info.deck == "pairs"
        assert [e.what for e in events] == ["menu", "join"]
    else:
        events = lobby.tap(1, "pairs", "7a")
        assert [(type(e), e.message) for e in events] == [(Refused, "other_game_card")]
        assert list(lobby.journal.entries()) == []


def test_run_preselects_the_game_it_is_given():
    for name in games_for(LAYOUT):
        assert Lobby(game=name).session.menu.game == name


def test_run_asking_for_a_game_while_another_resumes_lets_it_go_on_and_offers_the_game_asked_after_it(tmp_path):
    """`run --game G` on a journal with a game in progress: that game goes on (said in one line), and the lobby
    it ends in offers G, journaled with the first act that depends on it; a restart before then keeps the
    journal's menu."""
    import random

    from tests.session.desk import Desk, restored, snapshot
    path = tmp_path / "journal.sqlite"
    first = Desk(journal=Journal(path))
    playing = first.session.menu.game
    asked = next(name for name in games_for(LAYOUT) if name != playing)
    first.start()
    first.journal.close()
    desk = Desk(journal=Journal(path), game=asked)
    assert desk.session.game.name == playing
    assert desk.session.resumed_note == (f"a game of {playing} was in progress and goes on; "
                                         f"{asked} is offered in the lobby after it")
    desk.play_until(random.Random(4), lambda session: session.over)
    assert desk.session.menu.game == playing                     # the game's own menu until it is left
    desk.press(1, "ok")
    assert desk.session.state is None and desk.session.menu.game == asked
    assert restored(list(desk.journal.entries())).menu.game == playing   # not journaled yet: nothing depends on it
    desk.press(1, "next")                                      # the menu's cursor moves: the menu is journaled
    again = restored(list(desk.journal.entries()))
    assert again.menu == desk.session.menu and snapshot(again) == snapshot(desk.session)
    assert Desk(journal=Journal(tmp_path / "other.sqlite"), game=playing).session.resumed_note is None


def test_run_asking_for_the_game_that_resumes_only_says_it_goes_on(tmp_path):
    path = tmp_path / "journal.sqlite"
    first = Lobby(Journal(path))
    playing = first.session.menu.game
    for seat in (1, 2, 3):
        first.tap(seat, GAMES[playing].info.deck, deck_data(GAMES[playing].info.deck)["cards"][0]["id"])
    first.press(1, "ok")
    assert first.session.state is not None
    first.journal.close()
    session = Lobby(Journal(path), game=playing).session
    assert session.resumed_note == f"a game of {playing} was in progress and goes on"
    assert session.offer_after is None
