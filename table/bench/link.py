"""`cardtable bench link`: the café link measured on this machine's loopback with the parts a café runs: Debian's
Mosquitto set up by the project's own files (TLS, a password per table, the ACL), `cardtable hall` and `cardtable
link` as processes. The catch-up of a table's queued games, the time from a table's changed live.json to its card at
a page's event stream, and a hall holding many tables and spectators."""
from __future__ import annotations

import asyncio
import contextlib
import getpass
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from table.bench.common import chosen_game, copies
from table.cafe.broker import credential, set_up
from table.cafe.link import Link
from table.cafe.mqtt import HALL_USER, Broker, CafeError
from table.cafe.simulated import (HOST, client_options, free_port, missing_tools, play_table, started,
                                  wait_listening)
from table.session.replay import FORMAT
from table.storage.history import History
from table.storage.outbox import LIVE, Acks, acked, link_file, write_live

QUEUED = "queued"        # the table whose outbox holds the queued games, then whose live state changes alone
CHANGE_S = 0.4           # a table's live state changes about this often (± 20 %) when it is watched alone
LOAD_CHANGE_S = 1.0      # and when many tables are
LAST_S = 5.0             # a stream still receiving shows a table's last change within this
CATCH_UP_LIMIT_S = 300   # the catch-up, at most
WAIT_S = 60              # anything else the bench waits for, at most
CHANGE = re.compile(r"<td>1</td><td>(\d+)</td>")   # a card's first seat's total: the change it shows
TABLE = re.compile(r'id="table-([a-z0-9-]+)"')


def bench_link(queued: int = 1000, changes: int = 40, tables: int = 30, spectators: int = 100,
               seconds: float = 20.0) -> dict:
    """The time a table's link takes to have `queued` finished games acknowledged by the hall; the time from a
    table's changed live state to its card arriving at a spectator, over `changes` changes; and a hall with
    `tables` linked tables changing their live state about once a second and `spectators` event streams, for
    `seconds`: the streams held to the end, the same time at the spectators, the hall's peak memory and CPU time.
    A note instead when Mosquitto or openssl is missing."""
    missing = missing_tools()
    if missing:
        return {"link": f"not measured: it needs {missing}"}
    names = [f"t{n}" for n in range(1, tables + 1)]
    game = chosen_game().name
    with tempfile.TemporaryDirectory(prefix="cardtable-bench-link-") as temp:
        folder = Path(temp)
        with _broker(folder / "broker", [QUEUED, *names]) as port:
            state = folder / QUEUED / "cardtable"
            outbox = _queued_games(state, game, queued)
            with _hall(folder / "hall", port) as (_, web):
                start = time.perf_counter()
                with _running([sys.executable, "-m", "table", "link", "--table", QUEUED,
                               *client_options(folder / "broker", port, QUEUED), "--state", str(state)],
                              folder / "link.log") as link:
                    _until(lambda: acked(link_file(state), outbox) >= queued, link, folder / "link.log",
                           f"the hall acknowledging {queued} games", CATCH_UP_LIMIT_S)
                    figures = {"catch_up_games": queued, "catch_up_s": round(time.perf_counter() - start, 2)}
                    watched = _watch(web, {QUEUED: state / LIVE}, game, [f"/table/{QUEUED}/events"], changes,
                                     CHANGE_S)
                    figures.update({f"event_{name}": value for name, value in watched.items()})
            with _hall(folder / "hall-load", port) as (hall, web):
                figures.update(_load(folder, port, hall, web, names, game, spectators, seconds))
    return figures


def _load(folder: Path, port: int, hall: subprocess.Popen, web: int, names: list[str], game: str, spectators: int,
          seconds: float) -> dict:
    """The figures of the hall process `hall` (its pages on `web`) while the tables `names` are linked (a Link
    each, in threads of this process) and change their live state for `seconds`, `spectators` streams spread over
    their pages and the hall's."""
    pages = [f"/table/{names[n % (len(names) + 1)]}/events" if n % (len(names) + 1) < len(names) else "/events"
             for n in range(spectators)]
    cpu_s, start = _cpu_s(hall.pid), time.perf_counter()
    with _linked(folder, port, names) as lives:
        watched = _watch(web, lives, game, pages, round(seconds / LOAD_CHANGE_S), LOAD_CHANGE_S)
    return {"load_tables": len(names), "load_spectators": spectators, **{f"load_{k}": v for k, v in watched.items()},
            "load_s": round(time.perf_counter() - start, 1), "load_hall_cpu_s": round(_cpu_s(hall.pid) - cpu_s, 2),
            "load_hall_peak_rss_mib": round(_peak_rss_kib(hall.pid) / 1024, 1)}


@contextlib.contextmanager
def _running(args: list[str], log: Path) -> Iterator[subprocess.Popen]:
    """`args` running as a process (its output in `log`), stopped at the end: SIGTERM, SIGKILL after 10 s."""
    process = started(args, log)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def _broker(folder: Path, tables: list[str]) -> Iterator[int]:
    """Mosquitto set up in `folder` by the café's files for `tables` and the hall, listening: its loopback port."""
    port = free_port()
    set_up(folder, tables, port, HOST, getpass.getuser())
    with _running(["mosquitto", "-c", str(folder / "mosquitto.conf")], folder / "mosquitto.log") as mosquitto:
        wait_listening(HOST, port, mosquitto, folder / "mosquitto.log")
        yield port


@contextlib.contextmanager
def _hall(state: Path, port: int) -> Iterator[tuple[subprocess.Popen, int]]:
    """`cardtable hall` keeping its store in `state`, connected to the broker on `port`: the process and the
    port of its pages."""
    web, log = free_port(), state.with_suffix(".log")
    with _running([sys.executable, "-m", "table", "--verbose", "hall", *client_options(state.parent / "broker", port,
                   HALL_USER), "--state", str(state), "--web", f"{HOST}:{web}"], log) as hall:
        _until(lambda: "connected to the broker" in log.read_text(), hall, log, "the hall connecting to the broker")
        yield hall, web


@contextlib.contextmanager
def _linked(folder: Path, port: int, names: list[str]) -> Iterator[dict[str, Path]]:
    """The tables `names`, each with its state directory in `folder`, linked to the broker on `port` by a Link of
    its own (its own MQTT connection and credential) in a thread: where each table's live.json is."""
    stop, threads, lives = threading.Event(), [], {}
    try:
        for name in names:
            state = folder / name / "cardtable"
            state.mkdir(parents=True)
            lives[name] = state / LIVE
            broker = Broker(HOST, port, name, credential(folder / "broker", name), folder / "broker" / "ca.crt")
            threads.append(threading.Thread(target=Link(name, state, broker).run, args=(stop,), name=f"link-{name}"))
            threads[-1].start()
        yield lives
    finally:
        stop.set()
        for thread in threads:
            thread.join(10)


def _queued_games(state: Path, game: str, count: int) -> str:
    """A table's state directory `state` whose outbox holds `count` finished games of `game`: one played by
    bots, the others copies of it, and its link's file as the link makes it first (no acknowledgement: read
    while the link starts, it is never a file half made); its outbox's id."""
    state.mkdir(parents=True)
    play_table(state, game, seed=1, games=1)
    Acks(link_file(state)).close()
    history = History(state / "history.sqlite")
    try:
        history.record(copies(history, history.games()[0], count - 1))
        return history.outbox_id
    finally:
        history.close()


def _live_state(game: str, change: int) -> dict:
    """A table's public state in a game of `game`, as live.json holds it (table/session/replay.py,
    public_state), whose first seat's total is `change`: the card that shows it is known by it."""
    return {"format": FORMAT, "game": game, "options": {}, "seats": [1, 2], "totals": {"1": change, "2": 0},
            "to_act": {"how": "turn", "seats": [1], "by": None}, "prompt": None, "clock": None}


def _until(done: Callable[[], bool], process: subprocess.Popen, log: Path, what: str,
           seconds: float = WAIT_S) -> None:
    """Wait until `done()`; CafeError when `process` (its output in `log`) stops first, or after `seconds`."""
    end = time.monotonic() + seconds
    while not done():
        if process.poll() is not None:
            said = log.read_text().strip().splitlines() or ["nothing"]
            raise CafeError(f"{what}: its process stopped, saying {said[-1]!r}")
        if time.monotonic() > end:
            raise CafeError(f"{what}: not within {seconds:.0f} s")
        time.sleep(0.02)


def _watch(web: int, lives: dict[str, Path], game: str, pages: list[str], changes: int, every: float) -> dict:
    """Write each table's live state (`lives`: name -> live.json), hold an event stream open on each page of
    `pages` (paths on the hall's pages at `web`) and, once each has shown it, change it `changes` times, about
    `every` seconds apart: the changes sent, the time from each change written to its card at each stream that
    shows it (p50, p95, ms), the cards missed (a stream shown a later change first), the streams held to the end
    (still open, each shown the last change of its tables)."""
    return asyncio.run(_watched(web, lives, game, [_Spectator(page) for page in pages], changes, every))


async def _watched(web: int, lives: dict[str, Path], game: str, spectators: list[_Spectator], changes: int,
                   every: float) -> dict:
    for live in lives.values():
        write_live(live, _live_state(game, 0))
    listening = [asyncio.create_task(spectator.listen(web)) for spectator in spectators]
    written: dict[tuple[str, int], float] = {}
    try:
        await _shown(spectators, lives, 0, WAIT_S)
        await asyncio.gather(*(_change(name, live, game, changes, every, written) for name, live in lives.items()))
        await _shown(spectators, lives, changes, LAST_S)
        held = sum(spectator.open and spectator.showed(lives, changes) for spectator in spectators)
    finally:
        for task in listening:
            task.cancel()
        await asyncio.gather(*listening, return_exceptions=True)
    shown = sorted((at - written[key]) * 1000 for spectator in spectators
                   for key, at in spectator.shown.items() if key in written)
    if not shown:
        raise CafeError("no change of a table's live state reached its page")
    expected = sum(spectator.table in (None, table) for spectator in spectators for table, _ in written)
    return {"changes_sent": len(written), "to_page_ms_p50": round(shown[len(shown) // 2], 1),
            "to_page_ms_p95": round(shown[int(len(shown) * 0.95)], 1), "cards_missed": expected - len(shown),
            "connections_held": held}


async def _shown(spectators: list[_Spectator], tables: dict[str, Path], change: int, seconds: float) -> None:
    """Until every spectator has shown `change` of each of `tables` it watches, `seconds` at most."""
    end = time.monotonic() + seconds
    while time.monotonic() < end and not all(spectator.showed(tables, change) for spectator in spectators):
        await asyncio.sleep(0.05)


async def _change(name: str, live: Path, game: str, changes: int, every: float,
                  written: dict[tuple[str, int], float]) -> None:
    """Write table `name`'s live.json at `live` `changes` times, about `every` seconds apart (from a random
    phase), noting when each change was written in `written`."""
    pause = random.Random(name)
    await asyncio.sleep(pause.uniform(0, every))
    for change in range(1, changes + 1):
        written[name, change] = time.perf_counter()
        write_live(live, _live_state(game, change))
        await asyncio.sleep(every * pause.uniform(0.8, 1.2))


class _Spectator:
    """An event stream of the hall's pages held open at `page`, as a phone's browser holds it: each change it
    showed of each table, when first shown."""

    def __init__(self, page: str) -> None:
        self.page = page
        self.table = page.split("/")[2] if page.startswith("/table/") else None   # None: the hall's, every table
        self.shown: dict[tuple[str, int], float] = {}   # (table, change) -> when its card came (perf_counter)
        self.open = False

    async def listen(self, web: int) -> None:
        reader, writer = await asyncio.open_connection(HOST, web)
        try:
            writer.write(f"GET {self.page} HTTP/1.0\r\nAccept: text/event-stream\r\n\r\n".encode())
            if b" 200 " not in await reader.readline():
                return
            while (await reader.readline()).strip():   # the headers
                pass
            self.open, data = True, []
            while line := await reader.readline():
                if line.startswith(b"data: "):
                    data.append(line[6:].decode())
                elif line == b"\n" and data:
                    self._card("".join(data))
                    data = []
        finally:
            self.open = False
            writer.close()

    def showed(self, tables: dict[str, Path], change: int) -> bool:
        """Whether this stream showed `change` of each of `tables` it watches."""
        return all((table, change) in self.shown for table in tables if self.table in (None, table))

    def _card(self, html: str) -> None:
        table, change = TABLE.search(html), CHANGE.search(html)
        if table and change:
            self.shown.setdefault((table[1], int(change[1])), time.perf_counter())


def _cpu_s(pid: int) -> float:
    """The CPU time process `pid` has used, user and system, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _peak_rss_kib(pid: int) -> int:
    """The peak resident memory of process `pid` so far, in KiB."""
    return next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                if line.startswith("VmHWM:"))
