"""Simulated reader pads: a card is placed and lifted by code, and polls see it through noise."""
from __future__ import annotations

import random
from dataclasses import dataclass

from table.hardware.ports import ReaderFault
from table.hardware.rfid.mfrc522 import FACTORY_PASSWORD

FACTORY_KEY = (FACTORY_PASSWORD, b"\x00\x00")   # an NTAG21x's password and PACK as it leaves the factory


@dataclass(frozen=True, slots=True)
class Noise:
    """Per-poll probabilities of a reader's imperfections.

    `miss`: a card in the field is not seen on this poll.
    `flap`: a card at the edge of the field changes between seen and unseen,
    so it is seen and unseen in runs (mean length 1/flap polls).
    `repeat`: the poll answers again what the previous poll answered, while
    that card is still in the field (a duplicated read).

    Noise never invents a UID: a poll reports only a card that is in the
    field on that poll.
    """

    miss: float = 0.0
    flap: float = 0.0
    repeat: float = 0.0


class VirtualReader:
    """A reader pad without hardware: `place` and `lift` a card, `poll` sees it through `noise`.

    Deterministic given `rng` (by default seeded with the pad name). A `broken`
    reader fails every poll and every reset, like an unplugged one. Tags of
    7-byte UIDs are NTAG21x: `keys` holds the password and PACK written on each (by UID;
    the factory's when absent), shared by the pads of one table since a tag
    keeps them wherever it is laid.
    """

    def __init__(self, pad: str, noise: Noise = Noise(), rng: random.Random | None = None,
                 keys: dict[str, tuple[bytes, bytes]] | None = None) -> None:
        self.pad = pad
        self.keys = {} if keys is None else keys
        self.noise = noise
        self._rng = rng if rng is not None else random.Random(pad)
        self._card: str | None = None
        self._hidden = False   # the card is in an unseen run of the edge of the field
        self._last: str | None = None
        self.broken = False

    @property
    def card(self) -> str | None:
        """The UID of the card in the field, if any."""
        return self._card

    def place(self, uid: str) -> None:
        """Put the card `uid` in the field (replacing any card there)."""
        self._card = uid
        self._hidden = False

    def lift(self) -> None:
        """Take the card out of the field."""
        self._card = None

    def poll(self) -> str | None:
        """The UID of the card in the field as this poll sees it, or None."""
        if self.broken:
            raise ReaderFault(f"simulated reader {self.pad} is broken")
        if self._chance(self.noise.repeat) and self._last == self._card:
            return self._last
        if self._chance(self.noise.flap):
            self._hidden = not self._hidden
        seen = self._card is not None and not self._hidden and not self._chance(self.noise.miss)
        self._last = self._card if seen else None
        return self._last

    def reset(self) -> bool:
        return not self.broken

    def prove(self, uid: str, password: bytes) -> bytes | None:
        """The PACK tag `uid` answers to `password` if it lies on the pad and holds that password, else None."""
        if self.broken:
            raise ReaderFault(f"simulated reader {self.pad} is broken")
        held, pack = self.keys.get(uid, FACTORY_KEY)
        return pack if self._card == uid and len(uid) == 14 and password == held else None

    def protect(self, uid: str, password: bytes, pack: bytes, current: bytes) -> bool:
        """Write `password` and `pack` on tag `uid` if it lies on the pad and takes `current`."""
        if self.prove(uid, current) is None:
            return False
        self.keys[uid] = (password, pack)
        return True

    def _chance(self, probability: float) -> bool:
        return probability > 0 and self._rng.random() < probability
