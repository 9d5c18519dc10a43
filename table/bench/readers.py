"""`cardtable bench readers`: SPI transfers per poll of an empty pad and of a pad with a card, for our MFRC522
driver and for the mfrc522 0.0.7 package, counted in the emulator; and the modelled time of a poll round."""
from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import statistics
from collections.abc import Callable

from table.hardware.rfid.emulator import EmulatedCard, EmulatedChip, SpiBoard, Timing, installed
from table.hardware.rfid.mfrc522 import FIELD_SETTLE_MS, Mfrc522

PADS = 9
SPI_HZ = 1_000_000
OVERHEAD_US = 25.0     # assumed host cost of one SPI transfer (a spidev call on a Pi, machine.SPI on a Pico)
BENCH_UIDS = {4: "04A1B2C3", 7: "04112233445566", 10: "0102030405060708090A"}


def bench_readers() -> dict:
    """Transfers per poll counted in the emulator (exchanges complete at once), and the same polls with modelled time.

    Modelled time: each transfer takes its bytes at SPI_HZ plus OVERHEAD_US;
    each frame exchange takes its air time at 106 kbit/s (frame, frame delay
    time, answer), or the chip's timer period when no card answers; the
    drivers wait by reading status registers, so with time modelled they make
    more transfers than the instant count; ours also waits FIELD_SETTLE_MS
    after switching the field on at each poll (mfrc522 0.0.7 leaves it on).
    A 9-pad round is nine such polls (chip-select GPIO toggles not counted).
    """
    figures = {"spi_hz": SPI_HZ, "overhead_us_per_transfer": OVERHEAD_US, "pads": PADS}
    for name, uid in [("empty", None)] + [("uid%d" % n, uid) for n, uid in BENCH_UIDS.items()]:
        counted, modelled = _polls(_our_poll, uid, False, 1)[0], _polls(_our_poll, uid, True, 1)[0]
        figures["ours_%s_poll_transfers" % name] = counted["transfers"]
        figures["ours_%s_poll_bytes" % name] = counted["bytes"]
        figures["ours_%s_poll_modelled_transfers" % name] = modelled["transfers"]
        figures["ours_%s_poll_modelled_us" % name] = round(modelled["us"])
        figures["ours_round_ms_%s" % name] = round(PADS * modelled["us"] / 1e3, 1)
    figures.update(_bench_package())
    return figures


def _our_poll(chip: EmulatedChip) -> Callable:
    """The poll of our driver on `chip`, whose field settles in the chip's modelled time."""
    def settle():
        chip.now_us += FIELD_SETTLE_MS * 1000

    driver = Mfrc522(chip.transfer, settle=settle)
    driver.probe()
    return driver.poll


def _polls(reader: Callable[[EmulatedChip], Callable], uid: str | None, timed: bool, count: int) -> list[dict]:
    """Poll a fresh emulated chip (with the card `uid` on it) `count` times through `reader(chip)`; each poll's cost and read."""
    chip = EmulatedChip(*([EmulatedCard(uid)] if uid else []), timing=Timing(SPI_HZ, OVERHEAD_US) if timed else None)
    poll = reader(chip)
    costs = []
    for _ in range(count):
        transfers, sent, start = chip.transfers, chip.bytes, chip.now_us
        read = poll()
        costs.append({"transfers": chip.transfers - transfers, "bytes": chip.bytes - sent,
                      "us": chip.now_us - start, "read": read})
    return costs


def _bench_package() -> dict:
    """Figures for the mfrc522 0.0.7 package (fake-rpi as RPi.GPIO), or a note when it is not installed."""
    if importlib.util.find_spec("mfrc522") is None or importlib.util.find_spec("fake_rpi") is None:
        return {"mfrc522": "not measured: mfrc522 and fake-rpi are not installed (pip install cardtable[test])"}
    with contextlib.redirect_stdout(io.StringIO()):   # fake-rpi prints a warning when imported
        import fake_rpi
    fake_rpi.toggle_print(False)
    package = functools.partial(_package_poll, fake_rpi.RPi)
    return {**_package_counted(package), **_package_modelled(package)}


def _package_poll(rpi, chip: EmulatedChip) -> Callable:
    """The poll of the package's reader on `chip`, wired to a board that `rpi` (fake-rpi's RPi) stands for."""
    from table.hardware.rfid.legacy import PackageReader

    board = SpiBoard()
    board.wire(chip, 0, 0)
    with installed(board, rpi):
        return PackageReader("bench").poll


def _package_costs(package: Callable, timed: bool) -> tuple[dict, list[dict], dict]:
    """An empty poll; ten polls of a card left on the pad; the first of them that read it."""
    left = _polls(package, BENCH_UIDS[4], timed, 10)
    return _polls(package, None, timed, 1)[0], left, next(cost for cost in left if cost["read"])


def _package_counted(package: Callable) -> dict:
    """The package's transfers per poll, exchanges complete at once."""
    empty, left, read = _package_costs(package, timed=False)
    return {
        "mfrc522_empty_poll_transfers": empty["transfers"],
        "mfrc522_uid4_read_transfers": read["transfers"],
        "mfrc522_uid4_left_transfers_per_poll": round(statistics.mean(cost["transfers"] for cost in left)),
        "mfrc522_uid4_left_reads_per_10_polls": sum(bool(cost["read"]) for cost in left),
    }


def _package_modelled(package: Callable) -> dict:
    """The package's polls and 9-pad rounds in modelled time."""
    empty, left, read = _package_costs(package, timed=True)
    return {
        "mfrc522_empty_poll_modelled_us": round(empty["us"]),
        "mfrc522_uid4_read_modelled_us": round(read["us"]),
        "mfrc522_round_ms_empty": round(PADS * empty["us"] / 1e3, 1),
        "mfrc522_round_ms_uid4_left": round(PADS * statistics.mean(cost["us"] for cost in left) / 1e3, 1),
    }
