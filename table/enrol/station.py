"""The enrolment station: its readers, polled through presence tracking into an `Enrolment`.

The readers are any `Reader` ports (real, emulated or simulated); every one
of them is a station pad. Without table hardware, `BlankTags` is the one
simulated pad and a supply of blank tags to place on it.
"""
from __future__ import annotations

from collections.abc import Iterable

from table.enrol.enrolment import Enrolment
from table.events import ButtonDown, CardPlaced, CardRemoved, EventBus, ReaderFailed
from table.hardware.poller import ReaderPoller
from table.hardware.ports import ProvingReader, Reader
from table.hardware.presence import PresenceTracker
from table.hardware.simulated import VirtualReader
from table.storage.registry import TagRegistry

PAD = "station"


class Station:
    """Readers -> poller -> presence -> Enrolment, on `bus` (a new one by default); `step` is one poll of
    every reader. A seat button "next" on the bus skips to the next card."""

    def __init__(self, enrolment: Enrolment, readers: Iterable[Reader], place_after: int = 2,
                 remove_after: int = 3, bus: EventBus | None = None) -> None:
        self.enrolment = enrolment
        self.bus = bus or EventBus()
        self.poller = ReaderPoller(readers, self.bus)
        self.presence = PresenceTracker(self.bus, place_after, remove_after)
        self.readers = {reader.pad: reader for reader in self.poller.readers}
        self.bus.subscribe(CardPlaced, self.placed)
        self.bus.subscribe(ReaderFailed, lambda event: enrolment.fault())
        self.bus.subscribe(ButtonDown, lambda event: event.button == "next" and enrolment.next())

    def placed(self, event: CardPlaced) -> None:
        """A tag settled on a station pad: to the enrolment, with that pad's reader to protect staff cards."""
        reader = self.readers.get(event.pad)
        self.enrolment.place(event.uid, reader.protect if isinstance(reader, ProvingReader) else None)

    def step(self) -> None:
        """Poll every reader once (the poller resets a failing one) and hand any tag that settled to the enrolment."""
        self.poller.poll_once()
        self.bus.dispatch()


class BlankTags:
    """A simulated station pad and a box of blank tags: place a new one, place the last one again, lift.

    A new tag gets the next 7-byte UID (04 00 00 00 00 00 01, ...) that the
    registry has never seen, so runs on the same registry never reuse a UID.
    """

    def __init__(self, registry: TagRegistry) -> None:
        self.registry = registry
        self.reader = VirtualReader(PAD)
        self.last: str | None = None
        self._serial = 0
        self._again = False   # the last tag goes back on the pad once the station has seen it lifted

    def new(self) -> str:
        """Place a blank tag (taking off whatever was on the pad); returns its UID."""
        while True:
            self._serial += 1
            uid = f"04{self._serial:012X}"
            if self.registry.lookup(uid) is None and self.registry.retired(uid) is None:
                break
        self.last, self._again = uid, False
        self.reader.place(uid)
        return uid

    def again(self) -> None:
        """Place the last tag again (to see it refused): lifted first if it is still on the pad."""
        if self.last is None:
            return
        if self.reader.card == self.last:
            self.reader.lift()
            self._again = True
        else:
            self.reader.place(self.last)

    def removed(self, event: CardRemoved) -> None:
        """The station saw a tag go: put the last tag back if `again` asked for it."""
        if self._again:
            self._again = False
            self.reader.place(self.last)

    def lift(self) -> None:
        """Take the tag off the pad."""
        self._again = False
        self.reader.lift()
