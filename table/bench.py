"""`cardtable bench`: performance figures (DESIGN targets), never pass/fail.

engines: actions per second and complete games per second with random legal
play on one core, and the time to replay a full game.
pipeline: from the raw read that settles a card to the seat light changing
(software time, p50/p99), and complete simulated games per second through
the whole pipeline.
readers: SPI transfers per poll of an empty pad and of a pad with a card, for
our MFRC522 driver and for the mfrc522 0.0.7 package, counted in the
emulator; and the modelled time of a poll round of a 9-pad table at 1 MHz.
"""
from __future__ import annotations

import contextlib
import importlib.util
import io
import random
import statistics
import tempfile
from pathlib import Path
from time import perf_counter, perf_counter_ns, process_time

from table.games import GAMES, deck_for
from table.games.contract import Game
from table.games.kit.replay import replay


SEATS = [1, 2, 3, 4]


def run_bench(what: str, seconds: float) -> dict:
    if what == "readers":
        return bench_readers()
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
    deck = deck_for(game.name)
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
    """Read-to-light latency and complete games per second of `game` (the first registered by default)."""
    from table.events import CardPlaced
    from table.layout import load_layout
    from table.sim.simulated_table import SimulatedTable
    from table.storage.journal import Journal

    latencies: list[int] = []
    games = 0
    folder = tempfile.TemporaryDirectory()
    journal = Journal(Path(folder.name) / "journal.sqlite")   # a real file: every input is synced before its light
    game = GAMES[game or next(iter(GAMES))]
    sim = SimulatedTable(load_layout("sim-6-single"), journal, game=game.name, seed=0)
    placed = {"at": 0}
    sim.table.bus.subscribe(CardPlaced, lambda e: placed.__setitem__("at", e.at_ns))
    for light in sim.table.lights.values():
        light.show = _timed(light.show, placed, latencies)
    start = perf_counter()
    try:
        while perf_counter() - start < seconds or not games:
            players = game.bots.Players(sim, SEATS, random.Random(games))
            if games:
                players.world.press(SEATS[0], "ok")   # the same seats start another game
            else:
                players.join_and_start()
            players.play()
            players.world.press(SEATS[0], "ok")       # back to the lobby
            games += 1
        elapsed = perf_counter() - start
    finally:
        sim.close()
        journal.close()
        folder.cleanup()
    latencies.sort()
    return {
        "game": game.name,
        "games_per_s": round(games / elapsed, 2),
        "light_changes": len(latencies),
        "read_to_light_us_p50": round(latencies[len(latencies) // 2] / 1e3, 1),
        "read_to_light_us_p99": round(latencies[int(len(latencies) * 0.99)] / 1e3, 1),
        "read_to_light_us_max": round(latencies[-1] / 1e3, 1),
    }


def _timed(show, placed: dict, latencies: list[int]):
    """Wrap a light's `show` to record the time since the read that placed the last card."""
    def timed(state):
        show(state)
        if placed["at"]:
            latencies.append(perf_counter_ns() - placed["at"])
            placed["at"] = 0
    return timed


# --- readers

PADS = 9
SPI_HZ = 1_000_000
OVERHEAD_US = 25.0     # assumed host cost of one SPI transfer (a spidev call on a Pi, machine.SPI on a Pico)
BENCH_UIDS = {4: "04A1B2C3", 7: "04112233445566", 10: "0102030405060708090A"}


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
