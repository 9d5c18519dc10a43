"""The driver halves of the MFRC522 reader types (table/layout/mfrc522.py): our driver, and the mfrc522 package."""
from __future__ import annotations

from pathlib import Path

from table.hardware.pins import NoTableHardware
from table.hardware.ports import Reader
from table.hardware.readers import ReaderDriver
from table.layout import Layout
from table.layout.boards import PI_HEADER
from table.layout.mfrc522 import Wiring, pi_spi_config


def missing_spi_devices(layout: Layout, root: Path) -> dict[str, str]:
    """Pad -> what to do, for each Pi-wired reader whose /dev/spidev device is missing."""
    config, missing = pi_spi_config(layout), {}
    for w in layout.readers_on("pi"):
        device = root / f"dev/spidev{w.bus}.{w.ce if w.ce is not None else 0}"
        if not device.exists():
            missing[w.pad] = (f"no {device} for pad {w.pad!r}: add {config[w.bus]} to /boot/firmware/config.txt "
                              "and reboot")
    return missing


def _spidev():
    """The spidev module, for the readers on the Pi's SPI buses."""
    try:
        import spidev
    except ImportError:
        raise NoTableHardware("the spidev package is missing: pip install spidev") from None
    return spidev


def _spi_readers(wirings: tuple[Wiring, ...], pins, closers: list, spidev, **settle) -> dict[str, Reader]:
    """Our driver (SpiReader) for each reader, readers sharing a reset pin sharing one ResetLine.

    `settle`, if given, replaces the wait for a card to power up in the field (SpiReader's).
    """
    from table.hardware.rfid.spi import ResetLine, SpiReader

    lines: dict[int, ResetLine] = {}
    readers: dict[str, Reader] = {}
    for wiring in wirings:
        line = None
        if wiring.reset is not None:
            if wiring.reset not in lines:
                lines[wiring.reset] = ResetLine(wiring.reset, pins)
                closers.append(lines[wiring.reset].close)
            line = lines[wiring.reset]
        readers[wiring.pad] = SpiReader(wiring.pad, wiring.bus, wiring.ce or 0, wiring.cs, line,
                                        spi=spidev.SpiDev(), pin_factory=pins, **settle)
        closers.append(readers[wiring.pad].close)
    return readers


def _real(wirings: tuple[Wiring, ...], pins, closers: list) -> dict[str, Reader]:
    return _spi_readers(wirings, pins, closers, _spidev() if wirings else None)


def _chip():
    from table.hardware.rfid.emulator import EmulatedChip
    return EmulatedChip()


def _emulated(wirings: tuple[Wiring, ...], chips: dict, pins, closers: list) -> dict[str, Reader]:
    """Our driver over emulated chips behind a fake spidev, their chip selects and reset pins on mock pins."""
    from table.hardware.rfid.emulator import SpiBoard

    board = SpiBoard()
    for wiring in wirings:
        chip = chips[wiring.pad]
        if wiring.cs is None:
            board.wire(chip, wiring.bus, wiring.ce)
        else:
            board.wire_gpio(chip, wiring.bus, pins.pin(wiring.cs))
        if wiring.reset is not None:
            chip.wire_reset_pin(pins.pin(wiring.reset))
    return _spi_readers(wirings, pins, closers, board.spidev, settle=None)   # emulated cards need no time


def _package_readers(wirings: tuple[Wiring, ...], pins, closers: list) -> dict[str, Reader]:
    """The mfrc522 package (PackageReader) for each reader; it needs spidev too."""
    from table.hardware.rfid.legacy import PackageReader

    if wirings:
        _spidev()
    readers: dict[str, Reader] = {}
    for wiring in wirings:
        kwargs = {} if wiring.reset is None else {"reset_pin": PI_HEADER[wiring.reset]}
        readers[wiring.pad] = PackageReader(wiring.pad, wiring.bus, wiring.ce, **kwargs)
        closers.append(readers[wiring.pad].close)
    return readers


MFRC522 = ReaderDriver(real=_real, emulator=_chip, emulated=_emulated, missing=missing_spi_devices)
MFRC522_LEGACY = ReaderDriver(real=_package_readers, emulator=None, emulated=None, missing=missing_spi_devices)
