"""A full card: every input the journal cannot take is refused with a message, staff see that the SD card is
full, nothing acknowledged is lost, no connection is left closed, and play resumes by itself once a write
succeeds again. On a real (small, tmpfs) file system filled to 0, 4, 16, 32, 64 and 128 KiB left."""
from __future__ import annotations

import os
import random
import subprocess

import pytest

from table.events import Accepted, ButtonDown, EventBus, Refused
from table.registry import GAMES
from table.games.kit.codec import to_json
from table.layout import load_layout
from table.session.table_session import TableSession
from table.storage.files import TableFiles
from table.storage.history import History
from table.storage.journal import Journal

LAYOUT = load_layout("sim-6-single")


@pytest.fixture
def card(tmp_path):
    """A 16 MiB file system of its own, standing for the table's SD card."""
    folder = tmp_path / "card"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m,mode=0700", "tmpfs", str(folder)],
                             capture_output=True, text=True)
    if mounted.returncode:
        pytest.skip(f"cannot mount a small file system here (needs root): {mounted.stderr.strip()}")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=True)


def free_kib(folder) -> int:
    usage = os.statvfs(folder)
    return usage.f_bavail * usage.f_frsize // 1024


def fill(folder, leave_kib: int):
    """Fill the file system in `folder` until `leave_kib` KiB are left; returns the filler to delete."""
    filler = folder / "filler"
    with open(filler, "wb") as file:
        file.write(b"\0" * ((free_kib(folder) - leave_kib) * 1024))
        file.flush()
        os.fsync(file.fileno())
    assert free_kib(folder) == leave_kib
    return filler


def finished_game(game: str = "five-cards", players: int = 2, seed: int = 1) -> list:
    """The entries of a whole random legal game, up to its end (the lobby not yet back)."""
    info, rules = GAMES[game].info, GAMES[game].rules
    seats = list(range(1, players + 1))
    entries = [("menu", {"game": game, "options": {}, "cursor": -1}), *(("join", {"seat": s}) for s in seats),
               ("start", {"game": game, "options": info.defaults(), "seats": seats, "first": 0})]
    state, rng = rules.new_game(GAMES[game].deck, players, 0, info.defaults()), random.Random(seed)
    while not rules.need(state).done:
        action = rng.choice(rules.legal_actions(state))
        entries.append(("action", to_json(action)))
        state = rules.apply(state, action)
    return entries


class Table:
    """The session on the card's files, as `run` opens them, fed button presses."""

    def __init__(self, folder) -> None:
        self.files = TableFiles(folder / "journal.sqlite")
        self.bus = EventBus()
        self.session = TableSession(LAYOUT, None, self.files.journal, self.bus)
        self.heard: list = []
        self.bus.subscribe(Accepted, self.heard.append)
        self.bus.subscribe(Refused, self.heard.append)

    def press(self, seat: int, button: str) -> list:
        start = len(self.heard)
        self.bus.publish(ButtonDown(seat, button))
        self.bus.dispatch()
        return self.heard[start:]

    def close(self) -> None:
        self.files.close()


@pytest.mark.parametrize("leave_kib", [0, 4, 16, 32, 64, 128])
def test_a_full_card_refuses_inputs_with_a_message_and_play_resumes_once_it_writes(card, leave_kib, caplog):
    table = Table(card)
    for kind, data in finished_game():
        table.files.journal.append(kind, data)
    table.close()
    table = Table(card)
    assert table.session.over
    filler = fill(card, leave_kib)
    heard = table.press(1, "ok")                                    # back to the lobby: the game to archive
    for _ in range(120):                                            # then the lobby's menu, a write each press
        heard += table.press(1, "next")
    refused = [e.message for e in heard if isinstance(e, Refused)]
    assert set(refused) <= {"storage_full"}, refused
    assert "input_failed" not in caplog.text and "Traceback" not in caplog.text
    if refused:                                                     # the card filled up: staff are told
        assert table.session.table_view()["notice"]["key"] == "storage_full_staff"
        assert table.session.message["key"] == "storage_full"
    filler.unlink()                                                 # staff free some space
    resume = "ok" if table.session.over else "next"                # what the seat tried last, again
    assert [type(e) for e in table.press(1, resume)] == [Accepted]   # play resumes by itself
    assert table.session.storage is None and table.session.table_view()["notice"] is None
    live = (table.session.mode, table.session.joined, table.session.menu)   # the cursor: every acknowledged move
    table.close()
    again = Table(card)                                             # nothing acknowledged was lost
    assert (again.session.mode, again.session.joined, again.session.menu) == live
    assert again.files.journal.history.games()                       # the game is in the history
    again.close()


@pytest.mark.parametrize("leave_kib", [0, 16])
def test_a_full_card_at_start_up_with_a_game_to_archive_and_a_journal_to_set_aside(card, leave_kib):
    """Start-up on a full card: a damaged journal waits to be set aside and a finished game to be archived; the
    table starts all the same, sets the journal aside at the first write once there is room, and archives the
    game at the next start (the history could not be opened on the full card)."""
    History(card / "history.sqlite").close()                         # the table ran here before
    journal = Journal(card / "journal.sqlite")                       # no history given: the game waits in it
    for kind, data in [*finished_game(), ("lobby", {"seats": [1, 2]})]:
        journal.append(kind, data)
    journal.append("join", {"seat": 1})                              # seat 1 is joined already: refused
    journal.close()
    filler = fill(card, leave_kib)
    table = Table(card)                                              # neither raises
    assert table.session.mode == "lobby" and table.session.notices[0]["key"] == "journal_entry_refused"
    filler.unlink()
    assert [type(e) for e in table.press(1, "next")] == [Accepted]
    assert list(card.glob("journal.sqlite.refused-*"))              # set aside at that first write
    live = (table.session.mode, table.session.joined, table.session.menu)
    table.close()
    again = Table(card)                                              # the history opens: the game is archived
    assert (again.session.mode, again.session.joined, again.session.menu) == live and not again.session.notices
    assert [game["game"] for game in again.files.journal.history.games()] == ["five-cards"]
    again.close()
