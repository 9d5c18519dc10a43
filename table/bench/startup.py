"""`cardtable bench startup`: the time from opening the table's files to its first frame after many finished
games, now and as it was with one journal of every game; and the time from starting `cardtable run` to its
READY=1 to systemd."""
from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from time import perf_counter

from table.bench.common import LAYOUT, SEATS, chosen_game, copies, play_randomly
from table.events import EventBus
from table.games.contract import Game
from table.games.kit import codec
from table.layout import Layout, load_layout
from table.session.table_session import TableSession
from table.storage.files import TableFiles
from table.storage.journal import Journal, rechain
from table.storage.registry import TagRegistry

JOINS = [("join", {"seat": seat}) for seat in SEATS]
STARTS = 3   # each figure is the median of this many starts


def bench_startup(counts: tuple[int, ...] = (0, 100, 1000)) -> dict:
    """The time `cardtable run` (here: the simulated table) takes from opening its files to its first frame,
    after each of `counts` finished games of the first registered game: as the table keeps them (each game
    archived, its result in the history, the journal holding only the lobby), and as it kept them before (one
    journal holding every game, replayed at every start); then the time the live table takes to READY=1."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    pygame.font.init()
    layout = load_layout(LAYOUT)
    one_game = _one_game(chosen_game())
    figures = {}
    with tempfile.TemporaryDirectory() as folder:
        for finished in counts:
            figures.update(_first_frames(layout, Path(folder), finished, one_game))
        figures["ready_ms_dummy_display"] = _ready_ms(Path(folder) / "live")
        figures["ready_ms_headless"] = _ready_ms(Path(folder) / "live", "--headless")
    return figures


def _one_game(game: Game) -> list[tuple[str, dict]]:
    """The journal entries of one whole game of random legal play at SEATS, from its start to the lobby after."""
    state = game.rules.new_game(game.deck, len(SEATS), 0, {})
    _, actions = play_randomly(game, state, random.Random(5))
    return [("start", {"game": game.name, "options": {}, "seats": SEATS, "first": 0}),
            *(("action", codec.to_json(action)) for action in actions),
            ("lobby", {"seats": SEATS})]


def _first_frames(layout: Layout, folder: Path, finished: int, one_game: list) -> dict:
    """The first-frame figures after `finished` games, now and before, from table folders made in `folder`."""
    now, before = folder / f"now-{finished}" / "journal.sqlite", folder / f"before-{finished}.sqlite"
    now.parent.mkdir()
    if finished:
        _archived(layout, now, finished, one_game)
    _journal_of(before, JOINS + one_game * finished)
    return {f"first_frame_ms_{finished}_games": _first_frame_ms(layout, lambda: TableFiles(now)),
            f"first_frame_ms_{finished}_games_one_journal_before": _first_frame_ms(layout, lambda: _OneJournal(before))}


def _journal_of(path: Path, entries: list) -> None:
    """A journal at `path` holding `entries`, written in bulk and chained as the table would have."""
    Journal(path).close()
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.executemany("INSERT INTO entries (at, kind, data) VALUES (strftime('%Y-%m-%dT%H:%M:%fZ'), ?, ?)",
                       [(kind, json.dumps(data)) for kind, data in entries])
    rechain(path)


def _archived(layout: Layout, path: Path, finished: int, one_game: list) -> None:
    """A table's folder after `finished` games, each archived: the first for real, the others its copies."""
    _journal_of(path, JOINS + one_game)
    files = TableFiles(path)
    TableSession(layout, None, files.journal, EventBus())   # archives the finished game
    history = files.journal.history
    [row] = history.games()
    history.record(copies(history, row, finished - 1))
    files.close()


class _OneJournal:
    """The table's files as before: one journal of every game, opened as it was (nothing archived)."""

    def __init__(self, path: Path) -> None:
        self.journal = Journal(path, read_only=True)

    def close(self) -> None:
        self.journal.close()


def _first_frame_ms(layout: Layout, open_files: Callable[[], TableFiles | _OneJournal]) -> float:
    """The median time from opening the table's files to the simulated table's first frame, in ms."""
    from table.sim.window import SimWindow   # pygame

    times = []
    for _ in range(STARTS):
        start = perf_counter()
        files = open_files()
        window = SimWindow(layout, files.journal, "fr", seed=1)
        window.frame()
        times.append((perf_counter() - start) * 1000)
        window.close()
        files.close()
    return round(statistics.median(times), 1)


def _ready_ms(folder: Path, *options: str) -> float:
    """The time from just before `cardtable run` starts (the live table of the pi-4-seat layout on emulated
    hardware, SDL's dummy display, `options`) to the READY=1 it sends systemd's notify socket, a socket of ours
    here: the median of STARTS starts, in ms."""
    folder.mkdir(exist_ok=True)
    registry = folder / "registry.sqlite"
    TagRegistry(registry).close()
    address = str(folder / "notify")
    command = [sys.executable, "-m", "table", "run", "--layout", "pi-4-seat", "--hardware", "emulated",
               "--journal", str(folder / "journal.sqlite"), "--registry", str(registry), *options]
    env = os.environ | {"NOTIFY_SOCKET": address, "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    return round(statistics.median([_start_ms(command, env, address) for _ in range(STARTS)]), 1)


def _start_ms(command: list[str], env: dict, address: str) -> float:
    """One start of `command`: the time until its READY=1 on the notify socket we bind at `address`, in ms."""
    with contextlib.closing(socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)) as systemd:
        systemd.bind(address)
        systemd.settimeout(0.05)
        start = perf_counter()
        table = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            _wait_ready(systemd, table, start + 60)
            elapsed = (perf_counter() - start) * 1000
        finally:
            table.terminate()
            table.wait()
            table.stderr.close()
    os.unlink(address)
    return elapsed


def _wait_ready(systemd: socket.socket, table: subprocess.Popen, deadline: float) -> None:
    """Until READY=1 comes on `systemd` (a socket with a short timeout); RuntimeError if the process `table`
    ends first or the `deadline` (perf_counter) passes."""
    while True:
        try:
            if systemd.recv(4096).startswith(b"READY=1"):
                return
        except TimeoutError:
            if table.poll() is not None or perf_counter() > deadline:
                table.kill()
                table.wait()
                raise RuntimeError(f"cardtable run sent no READY=1: {table.stderr.read().decode().strip()}") from None
