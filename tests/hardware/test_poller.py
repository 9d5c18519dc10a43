"""The poller's health loop: failed readers reset and retried at waits capped in time, dead ones reported and still
retried, recovered ones read again at once, and the healthy readers polled all along, even while a reset blocks."""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings, strategies as st

from table.events import CardPlaced, CardRemoved, EventBus, RawRead, ReaderDead, ReaderFailed, ReaderRecovered
from table.hardware.poller import MAX_WAIT_S, ReaderPoller
from table.hardware.presence import PresenceTracker
from table.hardware.rfid.emulator import EmulatedCard, EmulatedChip, SpiBoard
from table.hardware.rfid.spi import SpiReader
from table.hardware.simulated import VirtualReader
from table.layout import load_layout

LAYOUTS = sorted((Path(__file__).resolve().parents[2] / "hardware" / "layouts").glob("*.toml"))
PRESENCES = sorted({load_layout(path).presence for path in LAYOUTS}, key=repr)
WAIT_S = 10.0   # generous: threads meet their conditions in milliseconds unless something is wrong


class Clock:
    """A monotonic clock that moves only when the test says."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class CountingReader(VirtualReader):
    """A virtual reader that records the clock's time at each of its resets."""

    def __init__(self, pad: str, clock: Clock) -> None:
        super().__init__(pad)
        self.clock = clock
        self.resets: list[float] = []

    def reset(self) -> bool:
        self.resets.append(self.clock())
        return super().reset()


class Rig:
    """A faulty reader and a healthy one on a poller with a test clock, through presence tracking."""

    def __init__(self, place_after: int = 2, remove_after: int = 3, interval_s: float = 0.02) -> None:
        self.clock = Clock()
        self.interval_s = interval_s
        self.reader, self.other = CountingReader("seat1", self.clock), VirtualReader("seat2")
        self.bus = EventBus()
        self.poller = ReaderPoller([self.reader, self.other], self.bus, clock=self.clock)
        PresenceTracker(self.bus, place_after, remove_after)
        self.events: list = []
        for kind in (RawRead, ReaderFailed, ReaderDead, ReaderRecovered, CardPlaced, CardRemoved):
            self.bus.subscribe(kind, self.events.append)

    def rounds(self, n: int) -> list:
        """Run n rounds, one poll interval apart; the events about seat1 (seat2's are checked to be reads)."""
        start = len(self.events)
        for _ in range(n):
            self.poller.poll_once()
            self.bus.dispatch()
            self.clock.now += self.interval_s
        mine = [e for e in self.events[start:] if e.pad == "seat1"]
        assert self.events[start:].count(RawRead("seat2", None)) == n   # the healthy reader: every round
        return mine

    def until(self, wanted, limit_s: float = 5.0):
        """Run rounds until an event about seat1 is `wanted`; how long it took on the clock."""
        started = self.clock.now
        while not any(wanted(e) for e in self.rounds(1)):
            assert self.clock.now - started < limit_s, "never came"
        return self.clock.now - started


def test_a_failed_reader_is_reported_once_reset_and_reported_back_with_its_read():
    rig = Rig()
    rig.reader.place("AA")
    assert rig.rounds(1) == [RawRead("seat1", "AA"), RawRead("seat1", "AA"), CardPlaced("seat1", "AA")]   # confirmed at once
    rig.reader.broken = True
    assert rig.rounds(10) == [ReaderFailed("seat1", "simulated reader seat1 is broken")]
    assert rig.reader.resets[0] == pytest.approx(rig.clock.now - 10 * rig.interval_s)   # in the round it failed
    rig.reader.broken = False
    got = rig.rounds(20)
    assert got[:2] == [ReaderRecovered("seat1"), RawRead("seat1", "AA")]
    assert set(got[2:]) == {RawRead("seat1", "AA")}


def test_retries_wait_twice_as_long_each_time_up_to_the_cap_and_a_dead_reader_is_retried_as_often():
    rig = Rig(interval_s=0.005)
    rig.reader.broken = True
    got = rig.rounds(2000)   # 10 s
    assert got == [ReaderFailed("seat1", "simulated reader seat1 is broken"), ReaderDead("seat1")]
    waits = [b - a for a, b in zip(rig.reader.resets, rig.reader.resets[1:])]
    expected = [0.02, 0.04, 0.08, 0.16] + [MAX_WAIT_S] * (len(waits) - 4)
    assert all(want - 1e-9 < wait < want + rig.interval_s + 1e-9 for wait, want in zip(waits, expected)), waits
    assert max(waits) < 1.0 and len(waits) > 35


@pytest.mark.parametrize("presence", PRESENCES, ids=lambda p: f"place_after={p.place_after},every={p.poll_interval}")
@settings(max_examples=60, deadline=None)
@given(outage_s=st.integers(0, 30_000).map(lambda ms: ms / 1000))
def test_a_card_on_a_reader_that_answers_again_is_placed_within_300_ms_however_long_it_failed(presence, outage_s):
    rig = Rig(presence.place_after, presence.remove_after, presence.poll_interval)
    rig.reader.broken = True
    rig.until(lambda e: isinstance(e, ReaderFailed))
    rig.rounds(round(outage_s / rig.interval_s))
    rig.reader.broken = False
    rig.reader.place("AA")
    assert rig.until(lambda e: e == CardPlaced("seat1", "AA")) <= 0.3


def test_a_card_lying_on_a_failed_reader_is_neither_removed_nor_placed_again():
    rig = Rig()
    rig.reader.place("AA")
    rig.rounds(3)
    rig.reader.broken = True
    rig.rounds(200)
    rig.reader.broken = False
    rig.rounds(10)
    rig.reader.broken = True
    rig.rounds(50)
    rig.reader.lift()                 # taken away while the reader was deaf
    rig.reader.broken = False
    rig.rounds(30)
    assert [e for e in rig.events if isinstance(e, (CardPlaced, CardRemoved))] == [
        CardPlaced("seat1", "AA"), CardRemoved("seat1", "AA")]


class RaisingReader(VirtualReader):
    """A reader whose adapter breaks with an error that is not a ReaderFault (a pin library's, say)."""

    def poll(self):
        raise RuntimeError("lgpio: bad handle")

    def reset(self) -> bool:
        raise OSError(19, "No such device")


def test_any_error_of_one_reader_is_that_readers_fault_and_the_others_are_still_read():
    bus, clock = EventBus(), Clock()
    good = VirtualReader("seat2")
    good.place("AA")
    poller = ReaderPoller([RaisingReader("seat1"), good], bus, clock=clock)
    events = []
    for kind in (RawRead, ReaderFailed, ReaderDead):
        bus.subscribe(kind, events.append)
    for _ in range(70):
        poller.poll_once()
        clock.now += 0.02
    bus.dispatch()
    assert events[:2] == [ReaderFailed("seat1", "lgpio: bad handle"), RawRead("seat2", "AA")]
    assert ReaderDead("seat1") in events and events.count(RawRead("seat2", "AA")) == 71   # the first, confirmed at once


# --- on threads: the healthy readers never wait for a failing reader's reset

def wait_for(condition, what):
    """Return once `condition()` holds; fail after WAIT_S."""
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.001)


class StuckReader(VirtualReader):
    """A broken reader whose reset blocks until the test lets it go, as a hard reset waits for the chips."""

    def __init__(self, pad: str) -> None:
        super().__init__(pad)
        self.broken = True
        self.resetting = threading.Event()
        self.release = threading.Event()

    def reset(self) -> bool:
        self.resetting.set()
        self.release.wait(WAIT_S)
        return super().reset()


class Polled(VirtualReader):
    """A healthy reader that counts its polls."""

    polls = 0

    def poll(self):
        self.polls += 1
        return super().poll()


def test_a_reset_that_blocks_never_holds_up_the_healthy_readers_polls():
    stuck, healthy = StuckReader("seat1"), Polled("seat2")
    bus, stop = EventBus(), threading.Event()
    recovered = []
    bus.subscribe(ReaderRecovered, recovered.append)
    thread = threading.Thread(target=ReaderPoller([stuck, healthy], bus).run, args=(stop, 0.001))
    thread.start()
    try:
        wait_for(stuck.resetting.is_set, "the reset")
        polls = healthy.polls
        wait_for(lambda: healthy.polls >= polls + 50, "50 polls of the healthy reader while the reset blocks")
        stuck.broken = False
        stuck.release.set()
        wait_for(lambda: bus.dispatch(timeout=0.01) or recovered, "seat1 to come back")
    finally:
        stuck.release.set()
        stop.set()
        thread.join(WAIT_S)
    assert not thread.is_alive()


def test_a_dead_reader_retried_on_its_own_thread_never_garbles_its_neighbours_on_the_bus():
    """Five readers on one SPI bus with GPIO chip selects; one chip is dead and reads 0xFF, which a transfer to a
    neighbour would read too if both were selected at once."""
    board, pins = SpiBoard(), MockFactory()
    chips = [board.wire_gpio(EmulatedChip(EmulatedCard(f"0{n}A1B2C3")), 0, pins.pin(cs))
             for n, cs in enumerate((4, 5, 6, 7, 8))]
    readers = [SpiReader(f"pad{n}", 0, 0, cs, spi=board.spidev.SpiDev(), pin_factory=pins, settle=None)
               for n, cs in enumerate((4, 5, 6, 7, 8))]
    chips[0].go_deaf(0xFF, until="hard")   # no reset pin: dead for good
    bus, stop = EventBus(), threading.Event()
    resets = []
    dead_reset = readers[0].reset
    readers[0].reset = lambda: resets.append(1) or dead_reset()
    thread = threading.Thread(target=ReaderPoller(readers, bus).run, args=(stop, 0.001))
    thread.start()
    try:
        wait_for(lambda: len(resets) >= 8, "8 retries of the dead reader")
    finally:
        stop.set()
        thread.join(WAIT_S)
    events = []
    for kind in (RawRead, ReaderFailed, ReaderRecovered):
        bus.subscribe(kind, events.append)
    bus.dispatch()
    assert [e.pad for e in events if isinstance(e, (ReaderFailed, ReaderRecovered))] == ["pad0"]
    assert {(e.pad, e.uid) for e in events if isinstance(e, RawRead)} == {
        (f"pad{n}", f"0{n}A1B2C3") for n in range(1, 5)}
