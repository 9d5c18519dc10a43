"""The Reader port for an MFRC522 wired to the Pi: spidev, chip select on a CE line or a GPIO, reset on a GPIO."""
from __future__ import annotations

import time

from gpiozero import DigitalOutputDevice

from table.hardware.rfid.mfrc522 import Mfrc522

RESET_LOW_S = 0.001   # the datasheet asks for 100 ns; a millisecond is sure
STARTUP_S = 0.05      # oscillator start-up after reset, with a wide margin


class SpiReader:
    """One reader pad: an MFRC522 on SPI bus `bus` (SPI0: CE0-CE1, SPI1: CE0-CE2), our driver.

    With `cs_pin` the chip select is that GPIO (driven low around each
    transfer) and spidev is opened on `device` with no_cs. `reset_pin` is
    the GPIO wired to the chip's NRSTPD, for hard resets. `spi` is a
    spidev.SpiDev-like object (a FakeSpiDev in tests); `pin_factory` is
    gpiozero's (MockFactory in tests).
    """

    def __init__(self, pad: str, bus: int, device: int = 0, cs_pin: int | str | None = None,
                 reset_pin: int | str | None = None, speed_hz: int = 1_000_000, spi=None, pin_factory=None) -> None:
        self.pad = pad
        if spi is None:
            import spidev
            spi = spidev.SpiDev()
        spi.open(bus, device)
        spi.max_speed_hz = speed_hz
        spi.mode = 0
        spi.no_cs = cs_pin is not None
        self._spi = spi
        self._cs = None if cs_pin is None else DigitalOutputDevice(cs_pin, active_high=False, pin_factory=pin_factory)
        self._reset = None if reset_pin is None else DigitalOutputDevice(reset_pin, initial_value=True, pin_factory=pin_factory)
        self._chip = Mfrc522(self._transfer, None if self._reset is None else self._pulse_reset)
        self._chip.reset()   # a reader that does not answer now raises ReaderFault at its first poll

    @property
    def version(self) -> int | None:
        """The chip's VersionReg value, or None while it does not answer."""
        return self._chip.version

    def poll(self) -> str | None:
        """The UID (upper-case hex) of the card on the pad, or None; raises ReaderFault when the chip does not answer."""
        uid = self._chip.poll()
        return None if uid is None else uid.hex().upper()

    def reset(self) -> bool:
        """Soft reset, then hard reset through the reset pin; True when the chip answers again."""
        return self._chip.reset()

    def close(self) -> None:
        self._chip.antenna_off()
        self._spi.close()
        for pin in (self._cs, self._reset):
            if pin is not None:
                pin.close()

    def _transfer(self, data: bytes) -> bytes:
        if self._cs is None:
            return bytes(self._spi.xfer2(list(data)))
        self._cs.on()
        try:
            return bytes(self._spi.xfer2(list(data)))
        finally:
            self._cs.off()

    def _pulse_reset(self) -> None:
        self._reset.off()
        time.sleep(RESET_LOW_S)
        self._reset.on()
        time.sleep(STARTUP_S)
