"""The staff menu: a staff card opens it, any seat's buttons work it; its choices and what they journal."""
from __future__ import annotations

import random

from table.events import Accepted, PowerAsked
from table.session.table_session import TableSession
from table.storage.history import History
from table.storage.journal import Journal
from table.registry import GAMES
from tests.session.desk import Desk, entry_count, snapshot


def journaled(desk: Desk) -> list[tuple[str, dict]]:
    return [(kind, data) for _, kind, data in desk.journal.entries()]


def choose(desk: Desk, line: str, seat: int = 1) -> list:
    """Move the staff menu's cursor to `line` with Next, then OK (at `seat`)."""
    view = desk.session.table_view()["staff"]
    steps = (view["lines"].index(line) - view["cursor"]) % len(view["lines"])
    for _ in range(steps):
        assert desk.press(seat, "next") == []
    return desk.press(seat, "ok")


def test_the_staff_card_opens_the_menu_of_what_the_table_does_and_closes_it_again():
    desk = Desk()
    assert desk.session.table_view()["staff"] is None
    desk.staff()
    assert desk.session.table_view()["staff"] == {
        "page": "menu", "lines": ["start", "choose_game", "health", "poweroff", "reboot", "close"], "cursor": 0,
        "asking": None, "checks": []}
    desk.press(4, "back")   # Back goes up, round to the last line
    assert desk.session.table_view()["staff"]["cursor"] == 5
    desk.staff()
    assert desk.session.table_view()["staff"] is None
    desk.staff()
    assert choose(desk, "close") == [] and desk.session.table_view()["staff"] is None


def test_choosing_the_game_from_the_staff_menu_journals_the_lobbys_new_choice():
    desk = Desk()
    first = desk.session.menu.game
    desk.staff()
    choose(desk, "choose_game")
    games = desk.session.table_view()["staff"]
    assert games["page"] == "games" and games["lines"][games["cursor"]] == first and len(games["lines"]) >= 2
    other = games["lines"][(games["cursor"] + 1) % len(games["lines"])]
    events = choose(desk, other, seat=6)
    assert [(type(e), e.what) for e in events] == [(Accepted, "menu")]
    assert desk.session.menu.game == other and journaled(desk)[-1][1]["game"] == other
    back = desk.session.table_view()["staff"]
    assert back["page"] == "menu" and back["lines"][back["cursor"]] == "choose_game"


def test_ending_a_game_asks_first_and_archives_it_as_it_stood_with_no_winner(tmp_path):
    history = History(tmp_path / "history.sqlite")
    desk = Desk(journal=Journal(tmp_path / "journal.sqlite", history=history))
    desk.start((1, 2, 3))
    rng = random.Random(5)
    for _ in range(12):
        desk.act(rng)
    before = snapshot(desk.session)
    desk.staff()
    assert desk.session.table_view()["staff"]["lines"][0] == "end_game"
    assert desk.press(2, "ok") == []   # the question, the cursor on "no"
    asked = desk.session.table_view()["staff"]
    assert (asked["page"], asked["asking"], asked["lines"], asked["cursor"]) == ("confirm", "end_game", ["no", "yes"], 0)
    assert desk.press(2, "ok") == []   # no: back to the menu, on the line asked
    assert desk.session.table_view()["staff"]["cursor"] == 0 and snapshot(desk.session) == before
    totals = desk.session.public()["totals"]
    desk.press(2, "ok")
    events = choose(desk, "yes")
    assert [(type(e), e.what) for e in events] == [(Accepted, "lobby")]
    assert desk.session.state is None and desk.session.joined == [1, 2, 3]
    assert desk.session.table_view()["staff"] is None
    [row] = history.games()
    assert row["winners"] == [] and row["scores"] == {"1": totals[0], "2": totals[1], "3": totals[2]}
    assert (tmp_path / "games" / row["journal"]).exists()
    assert [kind for kind, _ in journaled(desk)] == ["menu", "join", "join", "join"]   # the lobby it left


def test_after_a_game_the_staff_menu_goes_back_to_the_lobby():
    desk = Desk()
    desk.start((1, 2, 3))
    rng = random.Random(1)
    while not desk.session.over:
        desk.act(rng)
    desk.staff()
    assert desk.session.table_view()["staff"]["lines"][0] == "to_lobby"
    assert [(type(e), e.what) for e in desk.press(3, "ok")] == [(Accepted, "lobby")]
    assert desk.session.state is None


def test_the_health_page_shows_the_checkup_taken_when_it_opened():
    desk = Desk()
    calls = []
    desk.session.checkup = lambda: calls.append(1) or [{"key": "reader", "ok": False, "params": {"where": "seat 2"}}]
    desk.staff()
    before = entry_count(desk.journal)
    choose(desk, "health")
    view = desk.session.table_view()["staff"]
    assert view["page"] == "health" and view["checks"] == [
        {"key": "reader", "ok": False, "params": {"where": "seat 2"}}] and calls == [1]
    desk.press(1, "ok")
    view = desk.session.table_view()["staff"]
    assert view["page"] == "menu" and view["lines"][view["cursor"]] == "health" and view["checks"] == []
    assert entry_count(desk.journal) == before


def test_shutting_down_and_rebooting_are_asked_of_whoever_runs_the_table_and_journal_nothing():
    for what in ("poweroff", "reboot"):
        desk = Desk()
        desk.start((1, 2, 3))
        asked = []
        desk.bus.subscribe(PowerAsked, asked.append)
        before = snapshot(desk.session)
        desk.staff()
        choose(desk, what)
        assert asked == []   # asked first
        choose(desk, "yes")
        desk.bus.dispatch()
        assert asked == [PowerAsked(what)] and snapshot(desk.session) == before
        assert desk.session.table_view()["staff"] is None


def test_while_the_menu_is_open_cards_still_play_and_a_restart_closes_it(tmp_path):
    desk = Desk(journal=Journal(tmp_path / "journal.sqlite"))
    desk.join(1, 2)
    desk.staff()
    assert [(type(e), e.what) for e in desk.tap(desk.pad(3), "TA01")] == [(Accepted, "join")]
    assert desk.session.table_view()["staff"]["page"] == "menu"
    desk.journal.close()
    again = TableSession(desk.layout, desk.registry, Journal(tmp_path / "journal.sqlite"), desk.bus)
    assert again.table_view()["staff"] is None and again.joined == [1, 2, 3]


def test_through_the_pipeline_the_health_page_names_a_failing_reader_and_sums_up_the_others(tmp_path):
    """A staff card read by a (simulated) reader, seat buttons through the pins, the checks of the real table."""
    import pygame

    from table.layout import load_layout
    from table.screen import Screen
    from table.sim.simulated_table import SimulatedTable

    sim = SimulatedTable(load_layout("sim-6-single"), Journal(tmp_path / "journal.sqlite"))
    sim.table.hardware.readers["seat4"].broken = True
    sim.tap("centre", "staff-1")
    for button in ("next", "next", "ok"):
        sim.press(2, button)
    staff = sim.table.table_view()["staff"]
    assert staff["page"] == "health"
    assert staff["checks"][:3] == [{"key": "journal", "ok": True, "params": {}},
                                   {"key": "readers", "ok": True, "params": {"n": 6}},
                                   {"key": "reader_seat", "ok": False, "params": {"seat": 4, "pad": "seat4"}}]
    assert {"key": "state_dir", "ok": True} in [{k: c[k] for k in ("key", "ok")} for c in staff["checks"]]
    frame = Screen(GAMES, "en").render(sim.table.table_view(), "lobby")
    pygame.image.save(frame, tmp_path / "health.png")
    assert frame.get_at((640, 100))[:3] != Screen(GAMES, "en").render({**sim.table.table_view(), "staff": None},
                                                               "lobby").get_at((640, 100))[:3]
