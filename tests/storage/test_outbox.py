"""The outbox: a finished game is queued for the café link in the transaction that records it in the history, and
leaves only once the hall acknowledged it (link.sqlite); it holds 10,000 games."""
from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest

from table.registry import GAMES
from table.layout import load_layout
from table.sim.simulated_table import SimulatedTable
from table.storage import history as history_module
from table.storage.files import TableFiles
from table.storage.history import History, Played
from table.storage.outbox import Acks, acked, link_file, pending

SEATS = [1, 2, 3]


def played(n: int) -> Played:
    """A made-up finished game, number `n`."""
    return Played(game="feira-torio", options={}, seats=SEATS, scores={"1": n, "2": 2, "3": 3}, winners=[1],
                  started="2026-11-28T10:00:00.000+00:00", ended="2026-11-28T10:20:00.000+00:00", first=4, last=90,
                  journal=f"game-{n}.sqlite", sha256=f"{n:064x}")


def counts(path) -> tuple[int, int]:
    history = History(path, read_only=True)
    try:
        return len(history.games()), len(history.outbox())
    finally:
        history.close()


def test_a_game_finished_at_the_table_is_queued_with_its_history_row(tmp_path):
    state = tmp_path / "cardtable"
    files = TableFiles(state / "journal.sqlite")
    sim = SimulatedTable(load_layout("sim-6-single"), files.journal, game="feira-torio", seed=3)
    bots = GAMES["feira-torio"].bots.Players(sim, SEATS, random.Random(3))
    bots.join_and_start()
    bots.play()
    sim.press(2, "ok")
    [row], [(seq, kind, body)] = files.journal.history.games(), files.journal.history.outbox()
    assert (seq, kind) == (1, "game")
    assert body == {k: row[k] for k in ("game", "options", "seats", "scores", "winners", "started", "ended",
                                        "duration_s", "sha256", "id", "players")}
    outbox, rows = pending(state / "history.sqlite", 0, 10)
    assert outbox == files.journal.history.outbox_id and [row[:2] for row in rows] == [(1, "game")], "the link reads it"
    sim.close()
    files.close()


def test_the_acknowledged_games_leave_the_outbox_when_the_table_next_writes_its_history(tmp_path):
    path = tmp_path / "cardtable" / "history.sqlite"
    path.parent.mkdir()
    history = History(path)
    history.record([played(1), played(2)])
    history.record([played(1)])   # recorded again (a power cut mid-archive): neither row twice
    acks, outbox = Acks(link_file(path.parent)), history.outbox_id
    acks.record(outbox, 1)
    acks.record(outbox, 0)   # an acknowledgement never moves back
    assert acked(link_file(path.parent), outbox) == 1 and [seq for seq, _, _ in history.outbox()] == [1, 2]
    history.record([played(3)])
    assert [seq for seq, _, _ in history.outbox()] == [2, 3] and len(history.games()) == 3
    history.close()
    acks.record(outbox, 3)
    assert counts(path) == (3, 2), "read-only: nothing pruned"
    History(path).close()   # a table starting prunes too
    assert counts(path) == (3, 0)
    history = History(path)
    history.record([played(4)])
    assert [seq for seq, _, _ in history.outbox()] == [4], "a seq is never reused"
    history.close()


def test_a_failure_between_the_history_row_and_the_outbox_row_leaves_neither(tmp_path, monkeypatch):
    path = tmp_path / "history.sqlite"
    history = History(path)
    history.record([played(1)])

    def fails(*_):
        raise OSError("the card failed")

    monkeypatch.setattr(history_module, "outbox_body", fails)
    with pytest.raises(OSError):
        history.record([played(2)])
    history.close()
    assert counts(path) == (1, 1)


def test_a_process_killed_between_the_history_row_and_the_outbox_row_leaves_neither(tmp_path):
    path = tmp_path / "history.sqlite"
    History(path).close()
    killed = subprocess.run([sys.executable, "-c", f"""
import os
from table.storage import history
from tests.storage.test_outbox import played
h = history.History({str(path)!r})
h.record([played(1)])
history.outbox_body = lambda *_: os._exit(9)   # the power cut: after the history row, before its outbox row
h.record([played(2)])
"""])
    assert killed.returncode == 9
    assert counts(path) == (1, 1)


def test_the_outbox_holds_ten_thousand_games_and_the_link_reads_them_in_order(tmp_path):
    path = tmp_path / "cardtable" / "history.sqlite"
    path.parent.mkdir()
    history = History(path)
    for first in range(0, 10_000, 1000):
        history.record([played(n) for n in range(first, first + 1000)])
    began = time.monotonic()
    history.record([played(10_000)])
    one_more_s = time.monotonic() - began
    assert len(history.outbox()) == 10_001
    rows = [row for above in range(0, 10_001, 2500) for row in pending(path, above, 2500)[1]]
    assert [seq for seq, *_ in rows] == list(range(1, 10_002))
    assert one_more_s < 0.5, "the table never waits on a full outbox"
    Acks(link_file(path.parent)).record(history.outbox_id, 10_001)
    history.record([played(10_001)])
    assert [seq for seq, _, _ in history.outbox()] == [10_002]
    history.close()


def test_a_history_made_afresh_has_an_outbox_of_its_own(tmp_path):
    """A history set aside (damaged) and made again counts its games from 1 again, under another outbox id: the
    old outbox's acknowledgement prunes nothing of it."""
    path = tmp_path / "cardtable" / "history.sqlite"
    path.parent.mkdir()
    history = History(path)
    history.record([played(1), played(2)])
    old = history.outbox_id
    Acks(link_file(path.parent)).record(old, 2)
    history.close()
    path.rename(path.with_name("history.sqlite.refused"))
    history = History(path)
    history.record([played(3)])
    assert history.outbox_id != old and [seq for seq, _, _ in history.outbox()] == [1]
    assert acked(link_file(path.parent), history.outbox_id) == 0
    history.close()


def test_a_reader_copying_the_database_while_the_table_checkpoints_it_sees_every_committed_row(tmp_path,
                                                                                               monkeypatch):
    """The link reads history.sqlite read-only from a private copy of the file and its log. When the table
    moves the log into the file between the two copies (a checkpoint), the pair is copied again: no committed
    row goes missing (a stale file with an emptied log would lose them)."""
    import shutil

    from table import storage
    path = tmp_path / "history.sqlite"
    writer = storage.connect(path)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("CREATE TABLE games (n INTEGER)")
    writer.executemany("INSERT INTO games VALUES (?)", [(n,) for n in range(50)])
    copy, checkpoints = shutil.copyfile, []

    def checkpointing(source, target):
        if str(source).endswith("-wal") and not checkpoints:   # between the two copies, once
            checkpoints.append(writer.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone())
        return copy(source, target)

    monkeypatch.setattr(shutil, "copyfile", checkpointing)
    reader = storage.connect(path, read_only=True)
    assert checkpoints and checkpoints[0][0] == 0                     # the checkpoint really ran, in full
    assert reader.execute("SELECT count(*) FROM games").fetchone() == (50,)
    reader.close()
    writer.close()
