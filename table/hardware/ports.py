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


@runtime_checkable
class ProvingReader(Reader, Protocol):
    """A reader that can ask an NTAG21x on its pad for its password (staff cards prove they are no UID clone)."""

    def prove(self, uid: str, password: bytes) -> bytes | None:
        """The PACK that card `uid`, on the pad now, answers to PWD_AUTH with `password`; None when it does not (not
        there, another password, a clone). Raises ReaderFault when the reader itself does not answer."""
        ...

    def protect(self, uid: str, password: bytes, pack: bytes, current: bytes) -> bool:
        """Write `password` and `pack` on card `uid` (an NTAG21x on the pad now, whose password is `current`) and
        protect its memory with them; whether it was done."""
        ...
