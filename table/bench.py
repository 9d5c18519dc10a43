"""`cardtable bench`: performance figures (DESIGN targets), never pass/fail.

engines: actions per second and complete games per second with random legal
play on one core, and the time to replay a full game.
pipeline: complete simulated games per second through the whole pipeline,
stepped in process; and in the loop `cardtable run` runs (its poller and
dispatcher threads, its run loop drawing the pages, headless), the time from
the raw read that settles a card to the pins of the seat light it changes
(p50/p99/max).
startup: the time from opening the table's files to its first frame after 0,
100 and 1,000 finished games, and as start-up was with one journal of every game;
and the time from starting `cardtable run` (the live table, on emulated
hardware) to its READY=1 to systemd, with SDL's dummy display and headless.
readers: SPI transfers per poll of an empty pad and of a pad with a card, for
our MFRC522 driver and for the mfrc522 0.0.7 package, counted in the
emulator; and the modelled time of a poll round of a 9-pad table at 1 MHz.
"""
from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import random
import sqlite3
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from time import perf_counter, perf_counter_ns, process_time
from unittest import mock

from table.events import Accepted, ButtonDown, CardPlaced, Refused
from table.registry import GAMES
from table.games.contract import Game
from table.games.kit.replay import replay
from table.hardware.lights import press
from table.hardware.looks import LOOKS
from table.hardware.ports import LightState
from table.layout import Layout, load_layout
from table.sim.simulated_table import PATIENCE, SimulatedTable
from table.storage.journal import Journal, rechain


SEATS = [1, 2, 3, 4]
LAYOUT = "sim-6-single"


def run_bench(what: str, seconds: float) -> dict:
    if what == "readers":
        return bench_readers()
    if what == "startup":
        return bench_startup()
    return {"engines": bench_engines, "pipeline": bench_pipeline}[what](seconds)


def _random_game(game: Game, deck, rng: random.Random) -> tuple[tuple, object, list]:
    """A game of random legal play, with random options: its setup, its last state, and its actions."""
    info = game.info
    players = rng.choice(info.players)
    options = {o.name: rng.choice(o.choices) for o in info.options}
    setup = (players, rng.randrange(players), options)
    state = game.rules.new_game(deck, *setup)
    actions = []
    while not game.rules.need(state).done:
        action = rng.choice(game.rules.legal_actions(state))
        state = game.rules.apply(state, action)
        actions.append(action)
    return setup, state, actions


def bench_engines(seconds: float) -> dict:
    """Every registered engine: actions and games per second of random legal play, and replay time."""
    return {name: bench_engine(game, seconds) for name, game in GAMES.items()}


def bench_engine(game: Game, seconds: float) -> dict:
    deck = game.deck
    rng = random.Random(1)
    games = actions = 0
    recorded = []
    start, cpu = perf_counter(), process_time()
    while perf_counter() - start < seconds or not games:
        setup, final, played = _random_game(game, deck, rng)
        games += 1
        actions += len(played)
        if len(recorded) < 50:
            recorded.append((setup, final, played))
    elapsed, cpu = perf_counter() - start, process_time() - cpu
    replays = []
    for setup, final, played in recorded:
        t = perf_counter()
        try:   # a replay checks every action, as restoring a journal does
            state = replay(game.rules, deck, *setup, played)
        except ValueError as refused:
            raise AssertionError(f"{game.name}: {refused}") from None
        replays.append(perf_counter() - t)
        if state != final:
            raise AssertionError(f"{game.name}: replay differs from the game played")
    return {
        "actions_per_s": round(actions / cpu),          # per second of this process's CPU time: one core
        "actions_per_wall_s": round(actions / elapsed),  # per second of wall time (lower on a busy machine)
        "games_per_s": round(games / cpu, 1),
        "actions_per_game": round(actions / games, 1),
        "replay_ms_median": round(statistics.median(replays) * 1e3, 3),
        "replay_ms_max": round(max(replays) * 1e3, 3),
    }


def bench_pipeline(seconds: float, game: str | None = None) -> dict:
    """Games per second of `game` (the first registered by default) through the pipeline stepped in process, and
    the read-to-light latency in the loop the table runs."""
    game = GAMES[game or next(iter(GAMES))]
    return {"game": game.name, **_games_per_s(game, seconds), **_read_to_light(game, seconds)}


def _games_per_s(game: Game, seconds: float) -> dict:
    """Bots play whole games through the pipeline, the table stepped by their hands (no clock)."""
    with _journal() as journal:
        sim = SimulatedTable(load_layout(LAYOUT), journal, game=game.name)
        start = perf_counter()
        try:
            games = _play(sim, game, lambda games: perf_counter() - start < seconds or not games)
            elapsed = perf_counter() - start
        finally:
            sim.close()
    return {"games_per_s": round(games / elapsed, 2)}


def _read_to_light(game: Game, seconds: float) -> dict:
    """Bots play for `seconds` (and until a light changed) while the table runs the loop of `cardtable run`
    (its poller and dispatcher threads, this thread drawing the pages, headless): the times from each raw read
    that settled a card to the pins of the seat light it changed."""
    latencies: list[int] = []
    start = perf_counter()
    with mock.patch.dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1"), _journal() as journal:
        from table.run import TableWindow, run_table, start_polling   # pygame, quiet
        from table.screen.outputs import find_output

        hands = _Hands(load_layout(LAYOUT), journal, game.name,
                       enough=lambda: bool(latencies) and perf_counter() - start >= seconds)
        _time_lights(hands, latencies)
        window = TableWindow(hands.table)
        failed: list[BaseException] = []
        player = threading.Thread(target=_hands_play, args=(hands, game, window, failed), name="hands")
        stop = threading.Event()
        poller = start_polling(hands.table, stop)
        player.start()
        try:
            run_table(window, find_output())
        finally:
            hands.stop.set()
            player.join()
            stop.set()
            poller.join()
            hands.close()
    if failed:
        raise failed[0]
    latencies.sort()
    return {
        "light_changes": len(latencies),
        "read_to_light_us_p50": round(latencies[len(latencies) // 2] / 1e3, 1),
        "read_to_light_us_p99": round(latencies[int(len(latencies) * 0.99)] / 1e3, 1),
        "read_to_light_us_max": round(latencies[-1] / 1e3, 1),
    }


@contextlib.contextmanager
def _journal():
    """A journal in a file (every input is synced before its light), in a folder removed afterwards."""
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal(Path(folder) / "journal.sqlite")
        try:
            yield journal
        finally:
            journal.close()


def _play(sim: SimulatedTable, game: Game, more: Callable[[int], bool]) -> int:
    """Bots play whole games at SEATS while `more(games played so far)`; how many they played."""
    games = 0
    while more(games):
        players = game.bots.Players(sim, SEATS, random.Random(games))
        if games:
            players.world.press(SEATS[0], "ok")   # the same seats start another game
        else:
            players.join_and_start()
        players.play()
        players.world.press(SEATS[0], "ok")       # back to the lobby
        games += 1
    return games


class _Stopped(Exception):
    """The hands stop playing."""


class _Hands(SimulatedTable):
    """A simulated table whose hands play while the table runs its own loop: each act waits until the table has
    seen it (a button, until it answered), instead of stepping the table; they stop when `enough()` or `stop`."""

    def __init__(self, layout: Layout, journal: Journal, game: str, enough: Callable[[], bool]) -> None:
        super().__init__(layout, journal, game=game)
        self.enough = enough
        self.stop = threading.Event()
        self.answers = 0
        for kind in (Accepted, Refused):
            self.table.bus.subscribe(kind, self._answered)

    def press(self, seat: int, button: str) -> None:
        answers = self.answers
        spec = self.table.layout.seats[seat - 1]
        press(self.factories[spec.board], dict(spec.buttons)[button])
        self._until(lambda: self.answers > answers, f"an answer to seat {seat}'s {button}")

    def _until(self, done: Callable[[], bool], what: str) -> None:
        interval = self.table.layout.presence.poll_interval
        deadline = time.monotonic() + PATIENCE * interval
        while not self._seen(done):
            if self.stop.is_set() or self.enough():
                raise _Stopped
            if time.monotonic() > deadline:
                raise TimeoutError(f"the table never saw {what} in {PATIENCE} polls")
            time.sleep(interval / 4)

    def _seen(self, done: Callable[[], bool]) -> bool:
        with self.table.bus.lock:   # never halfway through what an act sets off
            return done()

    def _answered(self, _event: Accepted | Refused) -> None:
        self.answers += 1


def _hands_play(hands: _Hands, game: Game, window, failed: list[BaseException]) -> None:
    """The body of the hands' thread: play until the hands stop, then close the window."""
    try:
        _play(hands, game, lambda games: True)
    except _Stopped:
        pass
    except BaseException as error:
        failed.append(error)
    finally:
        window.running = False


def _time_lights(sim: SimulatedTable, latencies: list[int]) -> None:
    """Append to `latencies` the time (ns) from each raw read that settled a card to the first change of the pins
    of the seat light it changed (the first light it changed, when its new look has another colour)."""
    settled: dict[str, int | None] = {"at": None}   # the raw read of the card placed last, until a light shows it
    changing: dict[int, int] = {}                    # seat -> the raw read its light is changing for
    bus = sim.table.bus
    bus.subscribe(CardPlaced, lambda event: settled.update(at=event.at_ns))
    bus.subscribe(ButtonDown, lambda event: settled.update(at=None))   # what follows a press is not the card's
    for spec in sim.table.layout.seats:
        light = sim.table.lights[spec.number]
        light.show = _showing(light, spec.number, settled, changing)
        for number in spec.light:
            pin = sim.factories[spec.board].pin(number)   # a MockPWMPin: every state it takes goes through this
            pin._change_state = _pin_changing(pin._change_state, spec.number, changing, latencies)


def _showing(light, seat: int, settled: dict, changing: dict[int, int]):
    """Wrap `light.show` to note, for the seat, the raw read it shows the consequence of."""
    show = light.show

    def showing(state: LightState) -> None:
        changing.pop(seat, None)
        if settled["at"] is not None and LOOKS[state].colour != LOOKS[light.state].colour:
            changing[seat] = settled["at"]
        settled["at"] = None
        show(state)
    return showing


def _pin_changing(change, seat: int, changing: dict[int, int], latencies: list[int]):
    """Wrap a mock pin's state change to time the first one after a light began changing for a raw read."""
    def changed(value) -> bool:
        if not change(value):
            return False
        read = changing.pop(seat, None)
        if read is not None:
            latencies.append(perf_counter_ns() - read)
        return True
    return changed


# --- readers

PADS = 9
SPI_HZ = 1_000_000
OVERHEAD_US = 25.0     # assumed host cost of one SPI transfer (a spidev call on a Pi, machine.SPI on a Pico)
BENCH_UIDS = {4: "04A1B2C3", 7: "04112233445566", 10: "0102030405060708090A"}


def bench_startup(counts: tuple[int, ...] = (0, 100, 1000)) -> dict:
    """The time `cardtable run` (here: the simulated table) takes from opening its files to its first frame,
    after each of `counts` finished games: as the table keeps them (each game archived, its result in the
    history, the journal holding only the lobby), and as it kept them before (one journal holding every game,
    replayed at every start). Median of 3 starts each."""
    import json

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from table.events import EventBus
    from table.games.kit import codec
    from table.session.table_session import TableSession
    from table.sim.window import SimWindow
    from table.storage.files import TableFiles
    from table.storage.history import Played

    pygame.font.init()
    layout = load_layout(LAYOUT)
    game, rng = GAMES["feira-torio"], random.Random(5)
    state = game.rules.new_game(game.deck, len(SEATS), 0, {})
    one_game = [("start", {"game": game.name, "options": {}, "seats": SEATS, "first": 0})]
    while not game.rules.need(state).done:
        action = rng.choice(game.rules.legal_actions(state))
        state = game.rules.apply(state, action)
        one_game.append(("action", codec.to_json(action)))
    one_game.append(("lobby", {"seats": SEATS}))
    joins = [("join", {"seat": seat}) for seat in SEATS]

    def journal_of(path: Path, entries: list) -> None:
        Journal(path).close()
        with contextlib.closing(sqlite3.connect(path)) as db, db:
            db.executemany("INSERT INTO entries (at, kind, data) VALUES (strftime('%Y-%m-%dT%H:%M:%fZ'), ?, ?)",
                           [(kind, json.dumps(data)) for kind, data in entries])
        rechain(path)   # written in bulk: chained as the table would have

    def archived(path: Path, finished: int) -> None:
        """A table's folder after `finished` games, each archived: the first for real, the others its copies."""
        journal_of(path, joins + one_game)
        files = TableFiles(path)
        TableSession(layout, None, files.journal, EventBus())   # archives the finished game
        history = files.journal.history
        [row] = history.games()
        archive = history.folder / row["journal"]
        copies = []
        for number in range(1, finished):
            name = f"{number:05d}-{row['journal']}"
            os.link(archive, archive.with_name(name))
            copies.append(Played(row["game"], row["options"], row["seats"], row["scores"], row["winners"],
                                 row["started"], row["ended"], row["first_seq"], row["last_seq"], name,
                                 row["sha256"]))
        history.record(copies)
        files.close()

    class _OneJournal:
        """The table's files as before: one journal of every game, opened as it was (nothing archived)."""

        def __init__(self, path: Path) -> None:
            self.journal = Journal(path, read_only=True)

        def close(self) -> None:
            self.journal.close()

    def first_frame_ms(open_files: Callable[[], object]) -> float:
        times = []
        for _ in range(3):
            start = perf_counter()
            files = open_files()
            window = SimWindow(layout, files.journal, "fr", seed=1)
            window.frame()
            times.append((perf_counter() - start) * 1000)
            window.close()
            files.close()
        return round(statistics.median(times), 1)

    figures = {}
    with tempfile.TemporaryDirectory() as folder:
        for finished in counts:
            now, before = Path(folder) / f"now-{finished}" / "journal.sqlite", Path(folder) / f"before-{finished}.sqlite"
            now.parent.mkdir()
            if finished:
                archived(now, finished)
            journal_of(before, joins + one_game * finished)
            figures[f"first_frame_ms_{finished}_games"] = first_frame_ms(lambda: TableFiles(now))
            figures[f"first_frame_ms_{finished}_games_one_journal_before"] = first_frame_ms(lambda: _OneJournal(before))
        figures["ready_ms_dummy_display"] = _ready_ms(Path(folder) / "live")
        figures["ready_ms_headless"] = _ready_ms(Path(folder) / "live", "--headless")
    return figures


def _ready_ms(folder: Path, *options: str, runs: int = 3) -> float:
    """The time from just before `cardtable run` starts (the live table of the pi-4-seat layout on emulated
    hardware, SDL's dummy display, `options`) to the READY=1 it sends systemd's notify socket, a socket of ours
    here: the median of `runs` starts, in ms."""
    from table.storage.registry import TagRegistry

    folder.mkdir(exist_ok=True)
    registry = folder / "registry.sqlite"
    TagRegistry(registry).close()
    address = str(folder / "notify")
    command = [sys.executable, "-m", "table", "run", "--layout", "pi-4-seat", "--hardware", "emulated",
               "--journal", str(folder / "journal.sqlite"), "--registry", str(registry), *options]
    env = os.environ | {"NOTIFY_SOCKET": address, "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    times = []
    for _ in range(runs):
        with contextlib.closing(socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)) as systemd:
            systemd.bind(address)
            systemd.settimeout(0.05)
            start = perf_counter()
            table = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            try:
                _wait_ready(systemd, table, start + 60)
                times.append((perf_counter() - start) * 1000)
            finally:
                table.terminate()
                table.wait()
                table.stderr.close()
        os.unlink(address)
    return round(statistics.median(times), 1)


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


def bench_readers() -> dict:
    """Transfers per poll counted in the emulator (exchanges complete at once), and the same polls with modelled time.

    Modelled time: each transfer takes its bytes at SPI_HZ plus OVERHEAD_US;
    each frame exchange takes its air time at 106 kbit/s (frame, frame delay
    time, answer), or the chip's timer period when no card answers; the
    drivers wait by reading status registers, so with time modelled they make
    more transfers than the instant count; ours also waits FIELD_SETTLE_MS
    after switching the field on at each poll (mfrc522 0.0.7 leaves it on).
    A 9-pad round is nine such polls (chip-select GPIO toggles not counted).
    """
    from table.hardware.rfid.mfrc522 import FIELD_SETTLE_MS, Mfrc522

    def ours(chip):
        def settle():
            chip.now_us += FIELD_SETTLE_MS * 1000

        driver = Mfrc522(chip.transfer, settle=settle)
        driver.probe()
        return driver.poll

    figures = {"spi_hz": SPI_HZ, "overhead_us_per_transfer": OVERHEAD_US, "pads": PADS}
    for name, uid in [("empty", None)] + [("uid%d" % n, uid) for n, uid in BENCH_UIDS.items()]:
        counted, modelled = _polls(ours, uid, False, 1)[0], _polls(ours, uid, True, 1)[0]
        figures["ours_%s_poll_transfers" % name] = counted["transfers"]
        figures["ours_%s_poll_bytes" % name] = counted["bytes"]
        figures["ours_%s_poll_modelled_transfers" % name] = modelled["transfers"]
        figures["ours_%s_poll_modelled_us" % name] = round(modelled["us"])
        figures["ours_round_ms_%s" % name] = round(PADS * modelled["us"] / 1e3, 1)
    figures.update(_bench_package())
    return figures


def _polls(reader, uid: str | None, timed: bool, count: int) -> list[dict]:
    """Poll a fresh emulated chip (with the card `uid` on it) `count` times through `reader(chip)`; each poll's cost and read."""
    from table.hardware.rfid.emulator import EmulatedCard, EmulatedChip, Timing

    chip = EmulatedChip(*([EmulatedCard(uid)] if uid else []), timing=Timing(SPI_HZ, OVERHEAD_US) if timed else None)
    poll = reader(chip)
    costs = []
    for _ in range(count):
        transfers, sent, start = chip.transfers, chip.bytes, chip.now_us
        read = poll()
        costs.append({"transfers": chip.transfers - transfers, "bytes": chip.bytes - sent,
                      "us": chip.now_us - start, "read": read})
    return costs


def _bench_package() -> dict:
    """Figures for the mfrc522 0.0.7 package (fake-rpi as RPi.GPIO), or a note when it is not installed."""
    if importlib.util.find_spec("mfrc522") is None or importlib.util.find_spec("fake_rpi") is None:
        return {"mfrc522": "not measured: mfrc522 and fake-rpi are not installed (pip install cardtable[test])"}
    with contextlib.redirect_stdout(io.StringIO()):   # fake-rpi prints a warning when imported
        import fake_rpi
    from table.hardware.rfid.emulator import SpiBoard, installed
    from table.hardware.rfid.legacy import PackageReader

    fake_rpi.toggle_print(False)

    def package(chip):
        board = SpiBoard()
        board.wire(chip, 0, 0)
        with installed(board, fake_rpi.RPi):
            return PackageReader("bench").poll

    def costs(timed: bool) -> tuple[dict, list[dict], dict]:
        """An empty poll; ten polls of a card left on the pad; the first of them that read it."""
        left = _polls(package, BENCH_UIDS[4], timed, 10)
        return _polls(package, None, timed, 1)[0], left, next(cost for cost in left if cost["read"])

    empty, left, read = costs(timed=False)
    figures = {
        "mfrc522_empty_poll_transfers": empty["transfers"],
        "mfrc522_uid4_read_transfers": read["transfers"],
        "mfrc522_uid4_left_transfers_per_poll": round(statistics.mean(cost["transfers"] for cost in left)),
        "mfrc522_uid4_left_reads_per_10_polls": sum(bool(cost["read"]) for cost in left),
    }
    empty, left, read = costs(timed=True)
    figures.update({
        "mfrc522_empty_poll_modelled_us": round(empty["us"]),
        "mfrc522_uid4_read_modelled_us": round(read["us"]),
        "mfrc522_round_ms_empty": round(PADS * empty["us"] / 1e3, 1),
        "mfrc522_round_ms_uid4_left": round(PADS * statistics.mean(cost["us"] for cost in left) / 1e3, 1),
    })
    return figures
