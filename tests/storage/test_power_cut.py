"""Power cuts: a running table is killed (SIGKILL) at hundreds of random points across whole games, including
in the middle of a journal write, of a reveal and of the archiving of a finished game, and started again each
time from its files. After each cut the resumed table equals the read-only replay of the same files, and its
state is the replay of what it had acknowledged (plus, at most, the inputs it had journaled and not yet
acknowledged): nothing acknowledged is ever lost.

The table runs in a forked child: bots play Feira Torio game after game on a simulated table whose journal,
history and archives are real files. Before each journal write the child reports the entry ("P"), and after
the table acknowledged it ("A"); the parent kills the child at a random moment, then restores the table from
its files and compares it with a model fed the acknowledged entries.
"""
from __future__ import annotations

import json
import os
import random
import signal
import time
import traceback

import pytest

from table.events import Accepted, EventBus
from table.registry import GAMES
from table.layout import load_layout
from table.session.replay import public_state, replay_journal
from table.session.table_session import TableSession
from table.sim.simulated_table import SimulatedTable
from table.storage.files import TableFiles
from table.storage.journal import Journal

LAYOUT = load_layout("sim-6-single")
SEATS = [1, 2, 3]
CUTS = int(os.environ.get("POWER_CUTS", 500))
CHAINS = 4


def play_until_killed(folder, seed: int, report) -> None:
    """The child: open the table from its files and let bots play game after game, reporting each entry
    before it is journaled and each acknowledgement."""
    files = TableFiles(folder / "journal.sqlite")
    sim = SimulatedTable(LAYOUT, files.journal, game="feira-torio", seed=seed)
    journal_append = files.journal.append

    def append(kind: str, data: dict) -> int:
        report.write("P " + json.dumps([kind, data]) + "\n")
        report.flush()
        return journal_append(kind, data)

    files.journal.append = append
    sim.table.bus.subscribe(Accepted, lambda _event: report.write("A\n") or report.flush())
    bots = GAMES["feira-torio"].bots.Players(sim, SEATS, random.Random(seed))
    while True:
        if sim.session.over:
            bots.world.press(sim.session.players[0], "ok")   # back to the lobby: the game is archived
        else:
            bots.step()


def cut(folder, seed: int, rng: random.Random) -> tuple[list, list, bool]:
    """Run the table in a child and kill it at a random moment: the entries it acknowledged, the entries it
    was journaling unacknowledged, and whether the kill aimed at the archiving of a finished game."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child never returns into the test runner
        os.close(read_end)
        report = os.fdopen(write_end, "w")
        try:
            play_until_killed(folder, seed, report)
        except BaseException:
            report.write("E " + json.dumps(traceback.format_exc()) + "\n")
            report.flush()
        os._exit(1)
    os.close(write_end)
    lines = []
    at_archive = rng.random() < 0.25
    with os.fdopen(read_end) as report:
        wanted = rng.randrange(1, 160)
        while True:
            line = report.readline()
            if not line:
                break
            lines.append(line)
            if at_archive and line.startswith('P ["lobby"') or not at_archive and len(lines) >= wanted:
                deadline = time.perf_counter() + rng.uniform(0, 0.02 if at_archive else 0.003)
                while time.perf_counter() < deadline:   # the kill lands anywhere: mid-write, mid-archive
                    pass
                os.kill(pid, signal.SIGKILL)
                break
        os.waitpid(pid, 0)
        lines += report.read().splitlines(keepends=True)   # what it wrote before it died
    errors = [json.loads(line[2:]) for line in lines if line.startswith("E ")]
    assert not errors, errors[0]
    written = [json.loads(line[2:]) for line in lines if line.startswith("P ") and line.endswith("\n")]
    acked = sum(line == "A\n" for line in lines)
    return written[:acked], written[acked:], at_archive


def signature(session: TableSession) -> tuple:
    return session.state, tuple(session.joined), session.players, session.menu, session.cursor


@pytest.mark.parametrize("chain", range(CHAINS))
def test_nothing_acknowledged_is_lost_across_500_power_cuts(tmp_path, capsys, chain):
    """500 cuts in all, in CHAINS tables cut again and again (each chain its own files, run side by side)."""
    rng = random.Random(2026 + chain)
    model = TableSession(LAYOUT, None, Journal(), EventBus())   # fed what the table acknowledged
    seq = 0
    counts = {"cuts": 0, "unacknowledged": 0, "journaled unacknowledged": 0, "mid-archive": 0, "acknowledged": 0,
              "games": 0}
    for number in range(CUTS // CHAINS):
        acked, pending, at_archive = cut(tmp_path, number, rng)
        for kind, data in acked:
            seq += 1
            model._do(kind, data, seq)
        counts["mid-archive"] += (at_archive and any(kind == "lobby" for kind, _ in acked + pending)
                                  and not any(kind == "lobby" for kind, _ in acked))
        replayed = replay_journal(tmp_path / "journal.sqlite")   # read-only, the files as the cut left them
        files = TableFiles(tmp_path / "journal.sqlite")   # the start after the cut
        resumed = TableSession(LAYOUT, None, files.journal, EventBus())
        assert public_state(resumed) == replayed, f"cut {number}: the resumed table is not the replay of its files"
        restored = signature(resumed)
        games = len(files.journal.history.games())
        files.close()
        saved = dict(vars(model))
        durable = [] if signature(model) == restored else None
        for k, (kind, data) in enumerate(pending):   # journaled before the cut, not yet acknowledged
            if durable is not None:
                break
            model._do(kind, data, seq + k + 1)
            if signature(model) == restored:
                durable = pending[:k + 1]
        assert durable is not None, f"cut {number}: the restored table is not the replay of what was acknowledged"
        vars(model).update(saved)
        for kind, data in durable:
            seq += 1
            model._do(kind, data, seq)
        model.finished.clear()
        assert signature(model) == restored
        counts["cuts"] += 1
        counts["acknowledged"] += len(acked)
        counts["unacknowledged"] += bool(pending)
        counts["journaled unacknowledged"] += len(durable)
        counts["games"] = games
    archives = sorted((tmp_path / "games").iterdir())
    assert counts["games"] >= 3 and len(archives) == counts["games"], "each finished game archived once"
    for archive in archives:
        assert replay_journal(archive)["phase"] == "over"
    assert counts["mid-archive"] >= 3 and counts["unacknowledged"] >= CUTS // CHAINS // 5
    with capsys.disabled():
        print(f"\npower cuts, chain {chain}:", ", ".join(f"{k} {v}" for k, v in counts.items()))
