"""The game clock through the table session, with Chevaux: the table journals `TimeUp` at the limit and the
round is finished (PR-C2); the time the table is off is not counted; replay shows the clock.

Ticks are published on the session's bus by hand (the poller's clock, in seconds), so nothing here is timed.
"""
from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta

import pytest

from table.assets import deck_data
from table.cli import main
from table.events import ButtonDown, CardPlaced, CardRemoved, EventBus, PadSeenEmpty, Tick
from table.layout import load_layout
from table.session.table_session import TableSession
from table.storage.journal import Journal, rechain
from table.storage.registry import Tag, TagRegistry, enrol_simulated, staff_tag
from tests.session.staff_cards import genuine_staff_cards

LAYOUT = load_layout("sim-6-single")
CARDS = [c["id"] for c in deck_data("chevaux")["cards"]]
REGISTRY = TagRegistry()
enrol_simulated(REGISTRY, "chevaux", CARDS)
LIMIT_S = 5 * 60


class Table:
    """A Chevaux session of seats 1 and 2 with a 5-minute limit, seat 1 the youngest (it leads)."""

    def __init__(self, path) -> None:
        self.path = path
        journal = Journal(path)
        if not list(journal.entries()):
            for seat in (1, 2):
                journal.append("join", {"seat": seat})
            journal.append("start", {"game": "chevaux", "options": {"time_limit": 5}, "seats": [1, 2], "first": 0})
        self.journal = journal
        self.bus = EventBus()
        self.session = TableSession(LAYOUT, REGISTRY, journal, self.bus)
        genuine_staff_cards(self.bus, REGISTRY)
        for pad in LAYOUT.pads:                                # restored: every pad is seen empty (the pad gate)
            self.bus.publish(PadSeenEmpty(pad))
        self.bus.dispatch()

    def tick(self, now: float) -> None:
        self.bus.publish(Tick(now))
        self.bus.dispatch()

    def tap(self, seat: int, card: str) -> None:
        pad = LAYOUT.seats[seat - 1].pads[0]
        uid = REGISTRY.uid_of(Tag("card", "chevaux", card))
        self.bus.publish(CardPlaced(pad, uid))
        self.bus.publish(CardRemoved(pad, uid))
        self.bus.dispatch()

    def staff(self) -> None:
        """The staff card on the centre pad: the staff menu opens (or closes)."""
        pad, uid = LAYOUT.centre[0], REGISTRY.uid_of(staff_tag(1))
        self.bus.publish(CardPlaced(pad, uid))
        self.bus.publish(CardRemoved(pad, uid))
        self.bus.dispatch()

    def staff_choose(self, line: str) -> None:
        """Open the staff menu and take `line` (Next to it, then OK)."""
        self.staff()
        for _ in range(self.session.table_view()["staff"]["lines"].index(line)):
            self.press(1, "next")
        self.press(1)

    def press(self, seat: int, button: str = "ok") -> None:
        self.bus.publish(ButtonDown(seat, button))
        self.bus.dispatch()

    def kinds(self) -> list[tuple[str, dict]]:
        return [(kind, data) for _, kind, data in self.journal.entries()]

    def close(self) -> None:
        self.journal.close()


def shift(path, seconds: float, after_seq: int) -> None:
    """Move the journal times of the entries after `after_seq` `seconds` later (time passing between them)."""
    db = sqlite3.connect(path)
    rows = db.execute("SELECT seq, at FROM entries WHERE seq > ?", (after_seq,)).fetchall()
    for seq, at in rows:
        later = datetime.fromisoformat(at) + timedelta(seconds=seconds)
        db.execute("UPDATE entries SET at = ? WHERE seq = ?", (later.isoformat(timespec="milliseconds"), seq))
    db.commit()
    db.close()
    rechain(path)   # as if the time had passed: the entries chained as the table would have written them


def test_time_up_is_journaled_at_the_limit_and_the_round_is_finished(tmp_path):
    table = Table(tmp_path / "journal.sqlite")
    session = table.session
    table.tick(1000.0)                                         # the clock starts at the first tick
    assert session.table_view()["clock"] == {"left_s": LIMIT_S, "limit_s": LIMIT_S, "paused": False}
    table.tap(1, "shire")                                      # the leader reveals (orange, 175 cm)...
    table.tick(1000.0 + LIMIT_S - 1)
    assert session.table_view()["clock"]["left_s"] == 1 and not session.state.time_up
    table.press(1)                                             # ...and chooses the first line: height
    table.tick(1000.0 + LIMIT_S)                              # the limit: mid-round
    assert session.state.time_up and session.state.phase == "reveal" and not session.over
    assert session.table_view()["clock"] is None
    table.tick(1000.0 + LIMIT_S + 30)                          # no second TimeUp
    assert [d for k, d in table.kinds() if k == "action"].count({"type": "TimeUp"}) == 1
    table.tap(2, "falabella")                                 # the round goes on to its end (PR-C2)
    assert session.over and session.state.ended == "time"
    public = session.public()
    assert public["totals"] == [19, 17] and public["winners"] == [0]
    assert [d["type"] for k, d in table.kinds() if k == "action"] == ["Reveal", "Choose", "TimeUp", "Reveal"]
    table.close()


def test_the_time_the_table_was_off_is_not_counted(tmp_path):
    path = tmp_path / "journal.sqlite"
    table = Table(path)
    started = len(table.kinds())                              # the start entry's number
    table.tick(50.0)
    table.tap(1, "shire")
    table.close()
    shift(path, 100, after_seq=started)                       # the reveal came 100 s of play after the start

    table = Table(path)                                       # the table comes back on (an hour later, say)
    session = table.session
    kind, data = table.kinds()[-1]
    assert kind == "clock" and data["played_s"] == pytest.approx(100, abs=0.5)
    assert session.table_view()["clock"] == {"left_s": LIMIT_S - 100, "limit_s": LIMIT_S, "paused": False}
    table.tick(9000.0)                                        # the poller's clock starts again anywhere
    table.press(1)
    table.tick(9000.0 + 60)
    assert session.table_view()["clock"]["left_s"] == LIMIT_S - 160
    clocked = len(table.kinds())
    table.close()
    shift(path, 60, after_seq=clocked - 1)                    # the choice came 60 s after the clock entry

    table = Table(path)                                       # a second cut
    session = table.session
    kind, data = table.kinds()[-1]
    assert kind == "clock" and data["played_s"] == pytest.approx(160, abs=0.5)
    table.tick(0.0)
    table.tick(LIMIT_S - 161)
    assert not session.state.time_up
    table.tick(LIMIT_S - 160)
    assert session.state.time_up
    table.close()


def test_replay_shows_the_clock_at_the_last_entry(tmp_path, capsys):
    path = tmp_path / "journal.sqlite"
    table = Table(path)
    started = len(table.kinds())
    table.tick(0.0)
    table.tap(1, "shire")
    table.close()
    shift(path, 42, after_seq=started)
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["clock"] == {"left_s": LIMIT_S - 42, "limit_s": LIMIT_S, "paused": False}
    assert out["options"] == {"time_limit": 5} and out["totals"] == {"1": 17, "2": 18}
    assert out["to_act"] == {"how": "turn", "seats": [1], "by": None}
    assert out["prompt"]["labels"][0] == ["trait_height", {}]
    assert "shire" not in json.dumps(out)                      # the card itself is secret
    assert out["current"]["seats"][0] == {"playing": True, "revealed": True, "rarity": 3, "value": None}


def test_staff_pause_the_clock_and_resume_it_journaled_and_kept_across_a_restart(tmp_path):
    path = tmp_path / "journal.sqlite"
    table = Table(path)
    session = table.session
    table.tick(0.0)
    table.tick(100.0)
    table.staff_choose("pause_clock")                          # staff card, Next to the line, OK
    assert session.table_view()["staff"] is None              # the menu closes
    assert table.kinds()[-1] == ("clock", {"played_s": 100.0, "paused": True})
    paused = len(table.kinds())                                # the pause's entry number
    assert session.table_view()["clock"] == {"left_s": LIMIT_S - 100, "limit_s": LIMIT_S, "paused": True}
    table.tick(100.0 + 10 * LIMIT_S)                           # long after the limit: nothing counted, no TimeUp
    table.tap(1, "shire")                                      # cards still play while it is paused
    assert not session.state.time_up and session.table_view()["clock"]["left_s"] == LIMIT_S - 100
    table.close()
    shift(path, 3600, after_seq=paused)                        # the reveal an hour after the pause

    table = Table(path)                                        # a restart keeps it paused, adds no time
    session = table.session
    assert table.kinds()[-1][0] == "action"
    assert session.table_view()["clock"] == {"left_s": LIMIT_S - 100, "limit_s": LIMIT_S, "paused": True}
    assert session.table_view()["staff"] is None
    table.staff_choose("resume_clock")
    assert table.kinds()[-1] == ("clock", {"played_s": 100.0, "paused": False})
    table.tick(5000.0)                                         # it runs again from the next tick
    table.tick(5000.0 + LIMIT_S - 101)
    assert not session.state.time_up
    table.tick(5000.0 + LIMIT_S - 100)
    assert session.state.time_up
    assert session.table_view()["clock"] is None              # time up: no clock, no pause line
    table.staff()
    assert "pause_clock" not in session.table_view()["staff"]["lines"]
    table.close()


def test_a_game_without_a_clock_has_no_pause_line(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite")
    for seat in (1, 2):
        journal.append("join", {"seat": seat})
    journal.append("start", {"game": "chevaux", "options": {"time_limit": 0}, "seats": [1, 2], "first": 0})
    journal.close()
    table = Table(tmp_path / "journal.sqlite")
    table.staff()
    assert table.session.table_view()["staff"]["lines"] == ["end_game", "health", "poweroff", "reboot", "close"]
    table.close()
