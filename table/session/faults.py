"""Reader faults as a view: which pads' readers are failing or dead, for the screen and the seat lights."""
from __future__ import annotations

from table.events import EventBus, ReaderDead, ReaderFailed, ReaderRecovered
from table.layout import Layout


class ReaderFaults:
    """Follows the health loop's events: every pad whose reader is failing (being reset) or dead."""

    def __init__(self, layout: Layout, bus: EventBus) -> None:
        self.layout = layout
        self.pads: dict[str, str] = {}   # pad -> "failing" or "dead"
        bus.subscribe(ReaderFailed, lambda e: self.pads.__setitem__(e.pad, "failing"))
        bus.subscribe(ReaderDead, lambda e: self.pads.__setitem__(e.pad, "dead"))
        bus.subscribe(ReaderRecovered, lambda e: self.pads.pop(e.pad, None))

    def seats(self) -> set[int]:
        """The seats with a faulty reader among their pads."""
        return {seat for pad in self.pads if (seat := self.layout.pad_place(pad)[0]) is not None}

    def view(self) -> list[dict]:
        """For the screen: one entry per faulty pad, in layout order (seat None: a centre pad)."""
        return [{"pad": pad, "seat": self.layout.pad_place(pad)[0], "dead": self.pads[pad] == "dead"}
                for pad in self.layout.pads if pad in self.pads]
