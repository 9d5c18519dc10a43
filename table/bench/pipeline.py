"""`cardtable bench pipeline`: bots play whole games through the pipeline stepped in process (games per second),
then in the loop `cardtable run` runs (the times from the moment a card is laid, and from the raw read that settles
it, to the pins of the seat light it changes)."""
from __future__ import annotations

import contextlib
import os
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from tempfile import TemporaryDirectory
from time import perf_counter, perf_counter_ns
from unittest import mock

from table.bench.common import LAYOUT, SEATS, chosen_game
from table.events import Accepted, ButtonDown, CardPlaced, Refused
from table.games.contract import Game
from table.hardware.lights import press
from table.hardware.looks import LOOKS
from table.hardware.ports import LightState
from table.layout import Layout, load_layout
from table.sim.simulated_table import PATIENCE, SimulatedTable
from table.storage.journal import Journal


def bench_pipeline(seconds: float, game: str | None = None) -> dict:
    """Games per second of `game` (the first registered by default) through the pipeline stepped in process, and
    the read-to-light latency in the loop the table runs."""
    played = chosen_game(game)
    return {"game": played.name, **_games_per_s(played, seconds), **_read_to_light(played, seconds)}


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
    """Bots play for `seconds` (and until a light changed) while the table runs the loop of `cardtable run`:
    the times from each raw read that settled a card to the pins of the seat light it changed."""
    latencies: list[int] = []
    laid: list[int] = []
    start = perf_counter()
    with mock.patch.dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1"), _journal() as journal:
        hands = _Hands(load_layout(LAYOUT), journal, game.name,
                       enough=lambda: bool(latencies) and perf_counter() - start >= seconds)
        _time_lights(hands, latencies, laid)
        _run_while_playing(hands, game)
    latencies.sort()
    laid.sort()
    return {
        "light_changes": len(latencies),
        "laid_to_light_ms_p50": round(laid[len(laid) // 2] / 1e6, 1),
        "laid_to_light_ms_p95": round(laid[int(len(laid) * 0.95)] / 1e6, 1),
        "laid_to_light_ms_p99": round(laid[int(len(laid) * 0.99)] / 1e6, 1),
        "read_to_light_us_p50": round(latencies[len(latencies) // 2] / 1e3, 1),
        "read_to_light_us_p99": round(latencies[int(len(latencies) * 0.99)] / 1e3, 1),
        "read_to_light_us_max": round(latencies[-1] / 1e3, 1),
    }


def _run_while_playing(hands: _Hands, game: Game) -> None:
    """Run the loop of `cardtable run` on the hands' table (its poller and dispatcher threads, this thread drawing
    the pages, headless) while the hands play on a thread of their own, until they stop; what failed them, raised."""
    from table.run import TableWindow, run_table, start_polling   # pygame, quiet
    from table.screen.outputs import find_output

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


@contextlib.contextmanager
def _journal():
    """A journal in a file (every input is synced before its light), in a folder removed afterwards."""
    with TemporaryDirectory() as folder:
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
        self.laid: dict[str, int] = {}   # pad -> when its card was laid (perf_counter_ns)
        for kind in (Accepted, Refused):
            self.table.bus.subscribe(kind, self._answered)

    def put(self, pad: str, card: str) -> None:
        self.laid[pad] = perf_counter_ns()
        super().put(pad, card)

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


def _time_lights(sim: _Hands, latencies: list[int], laid: list[int]) -> None:
    """Append to `latencies` the time (ns) from each raw read that settled a card to the first change of the pins
    of the seat light it changed (the first light it changed, when its new look has another colour), and to
    `laid` the time from the moment that card was laid."""
    settled: dict[str, tuple[int, int] | None] = {"at": None}   # (laid, raw read) of the card placed last
    changing: dict[int, tuple[int, int]] = {}                    # seat -> (laid, raw read) its light changes for
    bus = sim.table.bus
    bus.subscribe(CardPlaced, lambda event: settled.update(at=(sim.laid.get(event.pad, event.at_ns), event.at_ns)))
    bus.subscribe(ButtonDown, lambda event: settled.update(at=None))   # what follows a press is not the card's
    for spec in sim.table.layout.seats:
        light = sim.table.lights[spec.number]
        light.show = _showing(light, spec.number, settled, changing)
        for number in spec.light:
            pin = sim.factories[spec.board].pin(number)   # a MockPWMPin: every state it takes goes through this
            pin._change_state = _pin_changing(pin._change_state, spec.number, changing, latencies, laid)


def _showing(light, seat: int, settled: dict, changing: dict[int, tuple[int, int]]):
    """Wrap `light.show` to note, for the seat, the raw read it shows the consequence of."""
    show = light.show

    def showing(state: LightState) -> None:
        changing.pop(seat, None)
        if settled["at"] is not None and LOOKS[state].colour != LOOKS[light.state].colour:
            changing[seat] = settled["at"]
        settled["at"] = None
        show(state)
    return showing


def _pin_changing(change, seat: int, changing: dict[int, tuple[int, int]], latencies: list[int], laid: list[int]):
    """Wrap a mock pin's state change to time the first one after a light began changing for a laid card."""
    def changed(value) -> bool:
        if not change(value):
            return False
        times = changing.pop(seat, None)
        if times is not None:
            now = perf_counter_ns()
            laid.append(now - times[0])
            latencies.append(now - times[1])
        return True
    return changed
