"""Presence tracking: turns raw reads into debounced CardPlaced and CardRemoved events."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from table.events import CardPlaced, CardRemoved, EventBus, PadSeenEmpty, RawRead


@dataclass(slots=True)
class _Pad:
    """What the tracker knows of one pad."""

    seen: str | None = None   # the answer of the latest run of equal reads
    run: int = 0              # how many reads that run has
    held: str | None = None   # the card placed on the pad
    misses: int = 0           # consecutive reads that did not see `held`
    known: bool = False       # whether anything was decided about the pad since start-up


class PresenceTracker:
    """Decides, per pad, when a card is placed and when it is removed.

    A card is placed after `place_after` consecutive reads of its UID and
    removed after `remove_after` consecutive reads that do not see it (no card
    or another UID). A card replacing another is placed once the old one is
    removed and its own latest run of reads (which may have started while the
    old card was still held) reaches `place_after`. A pad whose first
    decision since start-up is "empty" (`remove_after` reads of no card) says
    so once with PadSeenEmpty, so that a restored session learns when every
    pad is known. Each event carries the time of the read that decided it.
    """

    def __init__(self, bus: EventBus, place_after: int = 2, remove_after: int = 3) -> None:
        if place_after < 1 or remove_after < 1:
            raise ValueError("place_after and remove_after must be at least 1")
        self.bus = bus
        self.place_after = place_after
        self.remove_after = remove_after
        self._pads: defaultdict[str, _Pad] = defaultdict(_Pad)
        bus.subscribe(RawRead, self._on_read)

    def _on_read(self, read: RawRead) -> None:
        pad = self._pads[read.pad]
        if read.uid == pad.seen:
            pad.run += 1
        else:
            pad.seen, pad.run = read.uid, 1
        if pad.held is not None:
            pad.misses = 0 if read.uid == pad.held else pad.misses + 1
            if pad.misses >= self.remove_after:
                self.bus.publish(CardRemoved(read.pad, pad.held, at_ns=read.at_ns))
                pad.held = None
        if pad.held is None and pad.seen is not None and pad.run >= self.place_after:
            pad.held, pad.misses, pad.known = pad.seen, 0, True
            self.bus.publish(CardPlaced(read.pad, pad.held, at_ns=read.at_ns))
        elif not pad.known and pad.seen is None and pad.run >= self.remove_after:
            pad.known = True
            self.bus.publish(PadSeenEmpty(read.pad, at_ns=read.at_ns))
