"""The ports: what the table needs from its hardware, whichever adapter provides it."""
from __future__ import annotations

import enum
from typing import Protocol, runtime_checkable


class LightState(enum.Enum):
    """What a seat light tells its player."""

    OFF = "off"
    YOUR_TURN = "your_turn"
    WAITING = "waiting"
    LOCKED = "locked"
    REFUSED = "refused"
    WINNER = "winner"
    ELIGIBLE = "eligible"   # you may be the one to act (any one of several seats)
    FAULT = "fault"


class ReaderFault(Exception):
    """A reader did not answer as its chip should (deaf, unplugged, garbled); it may recover after a reset."""


@runtime_checkable
class Reader(Protocol):
    """One reader pad, polled for the card in its field."""

    pad: str

    def poll(self) -> str | None:
        """The UID (upper-case hex) of the card in the field, or None when the pad sees no card.

        Raises ReaderFault when the reader itself does not answer properly.
        """
        ...

    def reset(self) -> bool:
        """Try to bring a failed reader back (soft reset, then hard reset); whether it answers again."""
        ...


@runtime_checkable
class SeatLight(Protocol):
    """The light of one seat."""

    def show(self, state: LightState) -> None:
        """Show `state` until told otherwise."""
        ...
