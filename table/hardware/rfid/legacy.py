"""The `mfrc522` package (0.0.7) as the second reader backend, and the baseline of the reader benchmark.

Known defects, all visible in the emulator:
- about 2000 SPI transfers per empty poll: its wait loop ignores the timer
  interrupt and reads ComIrqReg 2000 times;
- a card left on the pad reads every other poll: it sends REQA and never
  selects or halts the card, which stays READY and so ignores the next REQA;
- 4-byte UIDs only (cascade level 1; a 7-byte NTAG21x reads as its cascade
  tag and first three bytes);
- closing it calls GPIO.cleanup() for the whole process;
- it imports RPi.GPIO, which does not work on a Pi 5.
"""
from __future__ import annotations

from table.hardware.ports import ReaderFault
from table.hardware.rfid.mfrc522 import VERSION, VERSIONS


class PackageReader:
    """One reader pad read by the `mfrc522` package, as its SimpleMFRC522.read_id_no_block does (REQA, anticollision).

    `reset_pin` is a BOARD pin number (22 is GPIO25), as the package wants it.
    """

    def __init__(self, pad: str, bus: int = 0, device: int = 0, reset_pin: int = 22, speed_hz: int = 1_000_000) -> None:
        from mfrc522 import MFRC522
        self.pad = pad
        self._chip = MFRC522(bus=bus, device=device, spd=speed_hz, pin_rst=reset_pin)

    @property
    def version(self) -> int:
        """The chip's VersionReg, read now."""
        return self._chip.Read_MFRC522(VERSION)

    def poll(self) -> str | None:
        """The UID (upper-case hex) of the card on the pad, or None; ReaderFault when VersionReg reads nonsense."""
        chip = self._chip
        status, _ = chip.MFRC522_Request(chip.PICC_REQIDL)
        if status == chip.MI_OK:
            status, uid = chip.MFRC522_Anticoll()
            if status == chip.MI_OK:
                return bytes(uid[:4]).hex().upper()
        if self.version not in VERSIONS:
            raise ReaderFault("the chip stopped answering")
        return None

    def reset(self) -> bool:
        """The package's own soft reset and set-up; True when the chip answers again."""
        self._chip.MFRC522_Init()
        return self.version in VERSIONS

    def close(self) -> None:
        self._chip.Close_MFRC522()
