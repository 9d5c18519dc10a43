"""`cardtable bench readers`: SPI transfers per poll of an empty pad and of a pad with a card, for our MFRC522
driver and for the mfrc522 0.0.7 package, counted in the emulator; and the modelled time of a poll round."""
from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import random
import statistics
from collections.abc import Callable

from table.hardware.rfid.emulator import EmulatedCard, EmulatedChip, EmulatedNtag, SpiBoard, Timing, installed
from table.hardware.rfid.mfrc522 import FIELD_SETTLE_MS, Mfrc522

PADS = 9
HUBS = 8               # a hub table: each hub polls its own PADS while the others do
HUB_STEP_US = 300      # assumed, not measured: a hub's loop step besides its reader's poll (serial, buttons, lights)
HOST_ROUND_S = 0.02    # the host polls its hub pads (the hubs' last reports) every poll_interval
LAYS = 400             # cards laid at random moments, for the time to place one
# a MIFARE Classic, an NTAG, a 10-byte card
BENCH_UIDS = {4: "04A1B2C3", 7: "04112233445566", 10: "0102030405060708090A"}
SPI_HZ = 1_000_000
OVERHEAD_US = 25.0     # assumed host cost of one SPI transfer (a spidev call on a Pi, machine.SPI on a Pico)


def bench_readers() -> dict:
    """Transfers per poll counted in the emulator (exchanges complete at once), and the same polls with modelled time.

    Modelled time: each transfer takes its bytes at SPI_HZ plus OVERHEAD_US;
    each frame exchange takes its air time at 106 kbit/s (frame, frame delay
    time, answer), or the chip's timer period when no card answers; the
    drivers wait by reading status registers, so with time modelled they make
    more transfers than the instant count; ours also waits FIELD_SETTLE_MS
    after switching the field on at each poll (mfrc522 0.0.7 leaves it on).
    The field stays on: the first poll pays FIELD_SETTLE_MS and identifies
    the card; the next polls of a card left on the pad check it (`_left`,
    the third poll's: an NTAG (7 bytes), left selected, answers a READ of
    the pages that hold its UID; a MIFARE Classic (4) and the 10-byte card
    were halted, and are woken and selected with their known UID).
    A 9-pad round is nine such polls (chip-select GPIO toggles not counted);
    a hub table's round is its slowest hub's (each hub polls its own pads,
    one a step, while the others do). `*_laid_to_placed_ms_*`: a card laid
    at a random moment on an empty pad among 8 pads holding 7-byte cards,
    until presence places it (the poller confirms a new card at once), on a
    9-pad SPI table and on a hub table (the hub confirms it, then the host's
    next round).
    """
    figures = {"spi_hz": SPI_HZ, "overhead_us_per_transfer": OVERHEAD_US, "pads": PADS, "hubs": HUBS}
    for name, uid in [("empty", None)] + [("uid%d" % n, uid) for n, uid in BENCH_UIDS.items()]:
        counted, (first, *_, left) = _polls(_our_poll, uid, False, 1)[0], _polls(_our_poll, uid, True, 3)
        figures["ours_%s_poll_transfers" % name] = counted["transfers"]
        figures["ours_%s_poll_bytes" % name] = counted["bytes"]
        figures["ours_%s_poll_modelled_transfers" % name] = first["transfers"]
        figures["ours_%s_poll_modelled_us" % name] = round(first["us"])
        figures["ours_%s_left_poll_modelled_us" % name] = round(left["us"])
        figures["ours_round_ms_%s" % name] = round(PADS * left["us"] / 1e3, 1)
        figures["ours_scans_per_s_%s" % name] = round(1e6 / (PADS * left["us"]), 1)
        hub_round_us = PADS * (left["us"] + HUB_STEP_US)
        figures["hub_round_ms_%s" % name] = round(hub_round_us / 1e3, 1)
        figures["hub_scans_per_s_%s" % name] = round(1e6 / hub_round_us, 1)
    for table in ("ours", "hub"):
        placed = sorted(_laid_to_placed_ms(table == "hub", random.Random(1)))
        figures["%s_laid_to_placed_ms_p50" % table] = round(placed[len(placed) // 2], 1)
        figures["%s_laid_to_placed_ms_p95" % table] = round(placed[int(len(placed) * 0.95)], 1)
    figures.update(_bench_package())
    return figures


def _laid_to_placed_ms(hub: bool, rng: random.Random) -> list[float]:
    """Times (ms) from a card laid on pad 0 (empty, among PADS - 1 pads holding 7-byte cards) to its placing."""
    timing = Timing(SPI_HZ, OVERHEAD_US)
    chips = [EmulatedChip(timing=timing)] + [EmulatedChip(_card("04%012X" % pad), timing=timing)
                                             for pad in range(1, PADS)]
    polls = [_our_poll(chip) for chip in chips]
    now = 0.0
    for chip, poll in zip(chips, polls):   # every card known, as on a table in play
        chip.now_us = now
        poll()
        now = chip.now_us
    placed = []
    for _ in range(LAYS):
        laid = now + rng.uniform(0, 100_000)
        card = _card(BENCH_UIDS[7])
        reads, pad, step = [], 0, HUB_STEP_US if hub else 0
        while len(reads) < 2 or reads[-2:] != [card.uid] * 2:
            chip = chips[pad]
            if pad == 0 and card not in chip.cards and now + step >= laid:
                chip.now_us = laid
                chip.place(card)
            chip.now_us = now + step
            read = polls[pad]()
            now = chip.now_us
            if pad == 0:
                reads.append(read)
            if pad != 0 or read is None or len(reads) > 1 and reads[-2] == read:
                pad = (pad + 1) % PADS   # a new card is read again at once (the poller, the hub's next step)
        if hub:   # the hub reports it; the host's next round reads it twice (a new card confirmed at once)
            now += rng.uniform(0, HOST_ROUND_S * 1e6)
        placed.append((now - laid) / 1e3)
        chips[0].now_us = now
        chips[0].lift(card)
        polls[0]()
    return placed


def _card(uid: str) -> EmulatedCard:
    """The card of a UID's size as the decks have them: 7-byte UIDs are NTAGs."""
    return EmulatedNtag(uid) if len(uid) == 14 else EmulatedCard(uid)


def _our_poll(chip: EmulatedChip) -> Callable:
    """The poll of our driver on `chip`, whose field settles in the chip's modelled time."""
    def settle():
        chip.now_us += FIELD_SETTLE_MS * 1000

    driver = Mfrc522(chip.transfer, settle=settle)
    driver.probe()
    return driver.poll


def _polls(reader: Callable[[EmulatedChip], Callable], uid: str | None, timed: bool, count: int) -> list[dict]:
    """Poll a fresh emulated chip (with the card `uid` on it) `count` times through `reader(chip)`; each poll's cost and read."""
    chip = EmulatedChip(*([_card(uid)] if uid else []), timing=Timing(SPI_HZ, OVERHEAD_US) if timed else None)
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
