"""The Reader port for an MFRC522 wired to the Pi: spidev, chip select on a CE line or a GPIO, reset on a GPIO."""
from __future__ import annotations

import threading
import time
from contextlib import nullcontext

from gpiozero import DigitalOutputDevice

from table.hardware.ports import ReaderFault
from table.hardware.rfid.mfrc522 import FACTORY_PASSWORD, FIELD_SETTLE_MS, RESET_LOW_MS, STARTUP_MS, Mfrc522

_SPI = threading.Lock()   # one transaction at a time: the poller's thread and its nurse's share the buses


class ResetLine:
    """A GPIO wired to the NRSTPD pin of one or more readers: a pulse low hard-resets them all, so after the
    chips' start-up every other chip on the line is set up again (a deaf one among them stays for its own
    health loop)."""

    def __init__(self, pin: int | str, pin_factory=None) -> None:
        self._pin = DigitalOutputDevice(pin, initial_value=True, pin_factory=pin_factory)
        self.chips: list[Mfrc522] = []   # the drivers of the readers wired to this line
        self.lock = threading.Lock()     # held through each poll and reset of those readers: a pulse restarts them all

    def pulse(self) -> None:
        self._pin.off()
        time.sleep(RESET_LOW_MS / 1000)
        self._pin.on()
        time.sleep(STARTUP_MS / 1000)
        for chip in self.chips:
            try:
                chip.probe()
            except ReaderFault:
                pass

    def close(self) -> None:
        self._pin.close()


class SpiReader:
    """One reader pad: an MFRC522 on SPI bus `bus` (SPI0: CE0-CE1, SPI1: CE0-CE2), our driver.

    With `cs_pin` the chip select is that GPIO (driven low around each
    transfer) and spidev is opened on `device` with no_cs. `reset` is the
    ResetLine wired to the chip's NRSTPD, for hard resets (readers sharing a
    line share one ResetLine). `spi` is a
    spidev.SpiDev-like object (a FakeSpiDev in tests); `pin_factory` is
    gpiozero's (MockFactory in tests); `settle` waits for a card to power up
    once the field is on (FIELD_SETTLE_MS).
    """

    def __init__(self, pad: str, bus: int, device: int = 0, cs_pin: int | str | None = None,
                 reset: ResetLine | None = None, speed_hz: int = 1_000_000, spi=None, pin_factory=None,
                 settle=lambda: time.sleep(FIELD_SETTLE_MS / 1000)) -> None:
        self.pad = pad
        if spi is None:
            import spidev
            spi = spidev.SpiDev()
        self._spi = spi
        self._link = (bus, device, speed_hz, cs_pin is not None)
        self._opened = False
        self._cs = None if cs_pin is None else DigitalOutputDevice(cs_pin, active_high=False, pin_factory=pin_factory)
        self._chip = Mfrc522(self._transfer, None if reset is None else reset.pulse, settle)
        self._line = nullcontext() if reset is None else reset.lock
        if reset is not None:
            reset.chips.append(self._chip)
        self._chip.reset()   # a reader that does not answer now raises ReaderFault at its first poll

    @property
    def version(self) -> int | None:
        """The chip's VersionReg value, or None while it does not answer."""
        return self._chip.version

    def poll(self) -> str | None:
        """The UID (upper-case hex) of the card on the pad, or None; raises ReaderFault when the chip does not answer."""
        with self._line:
            uid = self._chip.poll()
        return None if uid is None else uid.hex().upper()

    def prove(self, uid: str, password: bytes) -> bytes | None:
        """The PACK card `uid` on the pad answers to PWD_AUTH with `password` (an NTAG21x holding it), or None."""
        with self._line:
            return self._chip.authenticate(password, bytes.fromhex(uid))

    def protect(self, uid: str, password: bytes, pack: bytes, current: bytes = FACTORY_PASSWORD) -> bool:
        """Give NTAG21x `uid` on the pad `password` and `pack`, protecting its memory; True when done."""
        with self._line:
            return self._chip.protect(password, pack, current, bytes.fromhex(uid))

    def reset(self) -> bool:
        """Soft reset, then hard reset through the reset pin; True when the chip answers again."""
        with self._line:
            return self._chip.reset()

    def close(self) -> None:
        """Switch the antenna off if the chip still answers, and let go of the SPI device and the pins."""
        try:
            self._chip.antenna_off()
        except ReaderFault:
            pass
        finally:
            self._spi.close()
            if self._cs is not None:
                self._cs.close()

    def _transfer(self, data: bytes) -> bytes:
        """One SPI transaction; an error of the SPI device (missing, gone) is a fault of this reader, and the
        device is opened again on the next transaction."""
        try:
            if not self._opened:
                self._open()
            with _SPI:
                if self._cs is not None:
                    self._cs.on()
                try:
                    return bytes(self._spi.xfer2(list(data)))
                finally:
                    if self._cs is not None:
                        self._cs.off()
        except OSError as error:
            self._opened = False
            self._spi.close()
            raise ReaderFault(f"/dev/spidev{self._link[0]}.{self._link[1]}: {error}") from None

    def _open(self) -> None:
        bus, device, speed_hz, no_cs = self._link
        self._spi.open(bus, device)
        self._spi.max_speed_hz = speed_hz
        self._spi.mode = 0
        self._spi.no_cs = no_cs
        self._opened = True
