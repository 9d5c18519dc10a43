"""The reader poller: asks every reader what it sees and publishes the answers as raw reads."""
from __future__ import annotations

import threading
from collections.abc import Iterable

from table.events import EventBus, RawRead
from table.hardware.ports import Reader


class ReaderPoller:
    """Polls a set of readers in turn and publishes one RawRead per reader per round."""

    def __init__(self, readers: Iterable[Reader], bus: EventBus) -> None:
        self.readers = tuple(readers)
        self.bus = bus

    def poll_once(self) -> None:
        """Poll every reader once, in order, publishing RawRead(pad, uid or None) for each."""
        for reader in self.readers:
            self.bus.publish(RawRead(reader.pad, reader.poll()))

    def run(self, stop: threading.Event, interval_s: float = 0.02) -> None:
        """Poll every `interval_s` seconds until `stop` is set; the body of a poller thread."""
        while not stop.is_set():
            self.poll_once()
            stop.wait(interval_s)
