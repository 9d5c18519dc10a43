"""The reader poller: asks every reader what it sees, publishes the answers, and nurses failed readers."""
from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass

from table.events import EventBus, RawRead, ReaderDead, ReaderFailed, ReaderRecovered
from table.hardware.ports import Reader, ReaderFault

log = logging.getLogger(__name__)


@dataclass(slots=True)
class _Failing:
    """A reader being nursed: how many attempts in a row failed, and the round of the next one."""

    failures: int = 0
    next_round: int = 0


class ReaderPoller:
    """Polls a set of readers in turn and publishes one RawRead per healthy reader per round.

    The health loop: a reader whose poll raises (ReaderFault, or any error of
    its adapter) is reported once
    (ReaderFailed) and reset, and polled again next round. Each further
    failure resets it again and waits twice as many rounds as the last before
    the next poll, at most `max_wait` rounds; after `dead_after` failures in a row the reader is
    reported dead (ReaderDead) and keeps being retried every `max_wait`
    rounds. Its first good poll reports ReaderRecovered. A failed reader
    publishes no reads: presence neither places nor removes a card on it.
    """

    def __init__(self, readers: Iterable[Reader], bus: EventBus, dead_after: int = 6, max_wait: int = 250) -> None:
        self.readers = tuple(readers)
        self.bus = bus
        self.dead_after = dead_after
        self.max_wait = max_wait
        self.round = 0
        self.failing: dict[str, _Failing] = {}

    def poll_once(self) -> None:
        """Poll every reader due once, in order, publishing RawRead(pad, uid or None) for each good poll."""
        self.round += 1
        for reader in self.readers:
            failing = self.failing.get(reader.pad)
            if failing is not None and self.round < failing.next_round:
                continue
            try:
                uid = reader.poll()
            except Exception as fault:   # whatever one reader raises is its fault: never the poller thread's end
                self._nurse(reader, fault)
                continue
            if failing is not None:
                del self.failing[reader.pad]
                self.bus.publish(ReaderRecovered(reader.pad))
            self.bus.publish(RawRead(reader.pad, uid))

    def _nurse(self, reader: Reader, fault: Exception) -> None:
        failing = self.failing.get(reader.pad)
        if failing is None:
            failing = self.failing[reader.pad] = _Failing()
            if not isinstance(fault, ReaderFault):
                log.error("reader %s raised %r", reader.pad, fault)
            self.bus.publish(ReaderFailed(reader.pad, str(fault)))
        failing.failures += 1
        if failing.failures == self.dead_after:
            self.bus.publish(ReaderDead(reader.pad))
        try:
            reader.reset()
        except Exception as error:
            log.error("resetting reader %s raised %r", reader.pad, error)
        failing.next_round = self.round + min(2 ** (failing.failures - 1), self.max_wait)

    def run(self, stop: threading.Event, interval_s: float = 0.02) -> None:
        """Poll every `interval_s` seconds until `stop` is set; the body of a poller thread."""
        while not stop.is_set():
            self.poll_once()
            stop.wait(interval_s)
