"""The reader poller: asks every reader what it sees, publishes the answers, and nurses failed readers."""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from table.events import (EventBus, ProofAsked, ProofGiven, RawRead, ReaderDead, ReaderFailed, ReaderRecovered,
                          Tick)
from table.hardware.ports import ProvingReader, Reader, ReaderFault
from table.vitals import Heartbeat

log = logging.getLogger(__name__)

FIRST_WAIT_S = 0.02   # the wait after a failing reader's first retry: the layouts' poll interval
MAX_WAIT_S = 0.25     # the longest wait between two retries, so a reader that answers again is polled within it
DEAD_AFTER_S = 1.0    # a reader failing this long is reported dead


@dataclass(slots=True)
class _Failing:
    """A reader being nursed: since when it fails, when its next retry is due, and the wait before that one."""

    since: float
    due: float
    wait: float = 0.0
    dead: bool = False


class ReaderPoller:
    """Polls a set of readers in turn and publishes one RawRead per healthy reader per round.

    The health loop: a reader whose poll raises (ReaderFault, or any error of
    its adapter) is reported once (ReaderFailed) and nursed: reset and polled
    again at once, then after each failed retry it waits twice as long as
    after the last one, from `first_wait_s` up to `max_wait_s`, so that a
    reader that answers again is polled within `max_wait_s` however long it
    failed. A reader failing for `dead_after_s` is reported dead (ReaderDead)
    and is still retried as often. Its first good poll reports
    ReaderRecovered and its read. A failing reader publishes no reads:
    presence neither places nor removes a card on it. Times come from
    `clock` (seconds, monotonic).

    A read that sees a card the reader's previous read did not (a card laid,
    or another in its place) is confirmed at once: the reader is polled again
    in the same round and both reads are published, so presence can place the
    card without waiting a round. A read of no card waits for the next rounds.

    A card asked to prove itself (ProofAsked, a staff card) is asked by its
    pad's reader before the next round, and its answer published
    (ProofGiven): the poller's thread is the one that speaks to the readers.
    """

    def __init__(self, readers: Iterable[Reader], bus: EventBus, clock: Callable[[], float] = time.monotonic,
                 first_wait_s: float = FIRST_WAIT_S, max_wait_s: float = MAX_WAIT_S,
                 dead_after_s: float = DEAD_AFTER_S) -> None:
        self.readers = tuple(readers)
        self.bus = bus
        self.clock = clock
        self.first_wait_s = first_wait_s
        self.max_wait_s = max_wait_s
        self.dead_after_s = dead_after_s
        # pad -> its nursing: the polling thread adds a reader, the nursing thread alone changes and removes it
        self.failing: dict[str, _Failing] = {}
        self.heartbeats = (Heartbeat("poller"), Heartbeat("reader nurse"))   # of the threads `run` runs
        self._asked: deque[ProofAsked] = deque()   # proofs asked on the dispatcher's thread, given on the poller's
        self._last: dict[str, str | None] = {}     # pad -> the UID its last published read saw
        bus.subscribe(ProofAsked, self._asked.append)

    def poll_once(self) -> None:
        """Poll every healthy reader once, publishing RawRead(pad, uid or None) for each and then the Tick of the
        round, then retry the failing readers that are due."""
        self._poll()
        self._nurse()

    def run(self, stop: threading.Event, interval_s: float = 0.02) -> None:
        """Start a round every `interval_s` seconds (the next at once when a round takes longer) until `stop` is
        set; the body of a poller thread.

        The failing readers are nursed on a thread of their own, so that a
        reset that blocks (a hard reset waits 50 ms for the chips to start)
        never delays the healthy readers' polls.
        """
        polling, nursing = self.heartbeats
        polling.wait_s = nursing.wait_s = interval_s
        nurse = threading.Thread(target=_every, args=(self._nurse, stop, interval_s, nursing), name="reader nurse",
                                 daemon=True)
        nurse.start()
        _every(self._poll, stop, interval_s, polling)
        nurse.join()

    def _poll(self) -> None:
        while self._asked:
            self._prove(self._asked.popleft())
        for reader in self.readers:
            if reader.pad in self.failing:
                continue
            try:
                reads = self._reads(reader)
            except Exception as fault:   # whatever one reader raises is its fault: never the poller thread's end
                if not isinstance(fault, ReaderFault):
                    log.error("reader %s raised %r", reader.pad, fault)
                self.bus.publish(ReaderFailed(reader.pad, str(fault)))   # before the nurse can report it back
                now = self.clock()
                self.failing[reader.pad] = _Failing(since=now, due=now)
                continue
            for uid in reads:
                self.bus.publish(RawRead(reader.pad, uid))
            self._last[reader.pad] = reads[-1]
        self.bus.publish(Tick(self.clock()))

    def _reads(self, reader: Reader) -> list[str | None]:
        """This round's reads of `reader`: one, or two when the first sees a card its last read did not."""
        uid = reader.poll()
        if uid is None or uid == self._last.get(reader.pad):
            return [uid]
        return [uid, reader.poll()]

    def _prove(self, asked: ProofAsked) -> None:
        """Ask the card on a pad for the PACK of a password, and publish its answer (None from a failing reader)."""
        reader = next((r for r in self.readers if r.pad == asked.pad), None)
        able = isinstance(reader, ProvingReader)
        pack = None
        if able and asked.pad not in self.failing:
            try:
                pack = reader.prove(asked.uid, asked.password)
            except Exception as fault:   # the reader's next poll finds (and reports) what is wrong with it
                log.warning("reader %s failed a card's proof: %s", asked.pad, type(fault).__name__)
        self.bus.publish(ProofGiven(asked.pad, asked.uid, pack, able))

    def _nurse(self) -> None:
        """Reset and poll again each failing reader whose retry is due; report those that answer."""
        now = self.clock()
        for reader in self.readers:
            failing = self.failing.get(reader.pad)
            if failing is None or now < failing.due:
                continue
            try:
                if not reader.reset():
                    raise ReaderFault("no answer after a reset")
                uid = reader.poll()
            except Exception as fault:
                if not isinstance(fault, ReaderFault) and not failing.wait:
                    log.error("retrying reader %s raised %r", reader.pad, fault)
                self._failed_again(reader, failing)
                continue
            self.bus.publish(ReaderRecovered(reader.pad))
            self.bus.publish(RawRead(reader.pad, uid))
            self._last[reader.pad] = uid
            del self.failing[reader.pad]

    def _failed_again(self, reader: Reader, failing: _Failing) -> None:
        now = self.clock()
        if not failing.dead and now - failing.since >= self.dead_after_s:
            failing.dead = True
            self.bus.publish(ReaderDead(reader.pad))
        failing.wait = min(2 * failing.wait or self.first_wait_s, self.max_wait_s)
        failing.due = now + failing.wait


def _every(step: Callable[[], None], stop: threading.Event, interval_s: float, heartbeat: Heartbeat) -> None:
    """Start `step` every `interval_s` seconds (at once after a step that took longer) until `stop` is set, beating
    `heartbeat` each time: the wait never adds to a step's own time."""
    due = time.monotonic()
    while not stop.is_set():
        heartbeat.beat()
        step()
        due = max(due + interval_s, time.monotonic())
        stop.wait(due - time.monotonic())
    heartbeat.stop()
