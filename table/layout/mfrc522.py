"""The MFRC522 reader type's layout half: readers on SPI, on the Pi's buses or a seat hub's.

A pad's table gives its `board` (the Pi by default), on the Pi its SPI bus
(`spi`) and chip-enable line (`ce`) or GPIO chip select (`cs`), on a hub a
chip select (`cs`), and a reset pin (`reset`, by default its board's).
`mfrc522-legacy` (the mfrc522 package) reads the same tables and drives
readers on the Pi's chip-enable lines only.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from table.layout.boards import PI_SPI, PICO_BOARD, Board
from table.layout.check import Use, count, joined
from table.layout.readers import ReaderType
from table.layout.wiring import markdown_table

if TYPE_CHECKING:
    from table.layout import Layout
    from table.layout.check import Checker

READ_S = 0.005        # estimated time to read one reader with a card on it at 1 MHz SPI


@dataclass(frozen=True, slots=True)
class Wiring:
    """Where the MFRC522 reader under one pad is wired.

    On the Pi, `bus` is the SPI bus (0 or 1) and the reader is selected by a
    chip-enable line of that bus (`ce`, the device /dev/spidev{bus}.{ce}) or
    by a GPIO the driver drives itself (`cs`, transfers through
    /dev/spidev{bus}.0, whose CE pin the spi0-0cs overlay leaves free and
    spi1-1cs leaves unconnected). On a hub only `cs` is set (a GP pin) and
    `bus` is None: the hub's SPI bus is in its `Hub`.
    """

    pad: str
    board: str
    bus: int | None
    ce: int | None
    cs: int | None
    reset: int | None       # reset pin (NRSTPD), often shared by several readers
    index: int              # the reader's number on its board, in file order (a hub's reader index)


def read(table, pad: str, board: str, index: int, reset: int | None) -> Wiring:
    """The wiring of the reader under `pad` from its table; `reset` is its board's reset pin."""
    return Wiring(
        pad=pad,
        board=board,
        bus=table.get("spi", int, 0) if board == "pi" else table.get("spi", int, None),
        ce=table.get("ce", int, None),
        cs=table.get("cs", int, None),
        reset=table.get("reset", int, reset),
        index=index,
    )


def pi_spi_config(layout: Layout) -> dict[int, str]:
    """For each Pi SPI bus with readers, the config.txt line that enables it as the layout uses it."""
    return {bus: _pi_bus_setup(bus, readers)[0] for bus, readers in sorted(_pi_buses(layout).items())}


def _pi_bus_setup(bus: int, readers: list[Wiring]) -> tuple[str, int]:
    """(config.txt line, how many chip-enable lines it claims) for the readers of one Pi SPI bus.

    With GPIO chip selects the driver talks through /dev/spidev{bus}.0: on
    SPI0 the spi0-0cs overlay claims no CE pin, on SPI1 spi1-1cs claims CE0.
    """
    if any(w.cs is not None for w in readers):
        return ("dtoverlay=spi0-0cs", 0) if bus == 0 else ("dtoverlay=spi1-1cs", 1)
    if bus == 0:
        return "dtparam=spi=on", 2
    lines = 1 + max((w.ce for w in readers if w.ce in range(len(PI_SPI[1]["ce"]))), default=0)
    return f"dtoverlay=spi1-{lines}cs", lines


def _pi_buses(layout: Layout) -> dict[int, list[Wiring]]:
    buses = defaultdict(list)
    for w in layout.readers_on("pi"):
        if w.bus in PI_SPI:
            buses[w.bus].append(w)
    return buses


def summary(layout: Layout) -> list[str]:
    """The readers per Pi SPI bus and per hub, and what the Pi's config.txt needs."""
    lines = []
    for bus, readers in sorted(_pi_buses(layout).items()):
        select = "GPIO chip selects" if any(w.cs is not None for w in readers) else "chip-enable lines"
        lines.append(f"  Pi SPI{bus}: {count(len(readers), 'reader')} on {select}")
    for hub in layout.hubs:
        seats = ", ".join(str(s.number) for s in layout.seats_on(hub.name)) or "none"
        lines.append(f"  hub {hub.name} (USB {hub.usb[0]:04x}:{hub.usb[1]:04x}): "
                     f"{count(len(layout.readers_on(hub.name)), 'reader')} on SPI{hub.spi}, seats {seats}")
    if config := pi_spi_config(layout):
        lines.append(f"  Pi /boot/firmware/config.txt: {', '.join(config.values())}")
    return lines


def check(checker: Checker, w: Wiring) -> None:
    """The rules of the reader under one pad: its bus and chip select on the Pi, or its chip select on a hub."""
    if w.board == "pi":
        _wire_pi_reader(checker, w)
    elif checker.board(w.board) is not None:
        _wire_hub_reader(checker, w)


def check_legacy(checker: Checker, w: Wiring) -> None:
    """The MFRC522's rules, and the mfrc522 package's: the Pi's chip-enable lines only."""
    check(checker, w)
    if w.board != "pi" or w.cs is not None:
        checker.error(f"pad {w.pad!r}: the mfrc522-legacy reader driver only drives readers on the Pi's "
                      'chip-enable lines (ce): use reader = "mfrc522"')


def check_all(checker: Checker) -> None:
    """The rules of the readers together: their reset pins, each Pi SPI bus, the chip selects of each hub."""
    layout = checker.layout
    resets = defaultdict(list)
    for w in layout.wiring:
        if w.reset is not None:
            resets[w.board, w.reset].append(w.pad)
    for key, pads in resets.items():
        checker.uses[key].append(Use("reader reset" if len(pads) > 1 else f"pad {pads[0]!r} reset"))
    unreset = [w.pad for w in layout.wiring if w.reset is None]
    if unreset:
        checker.warn(f"{count(len(unreset), 'reader')} ({joined([repr(p) for p in unreset])}) "
                     "{} no reset pin: a reader that goes deaf can only be soft-reset, and one that ignores it "
                     "stays out of order until the power is cycled; wire {} RST (NRSTPD) to a free pin "
                     "(reset = N)".format(*(("has", "its") if len(unreset) == 1 else ("have", "their"))))
    for bus, readers in sorted(_pi_buses(layout).items()):
        _wire_pi_bus(checker, bus, readers)
    for hub in layout.hubs:
        _check_hub_selects(checker, hub)


def _wire_pi_reader(checker: Checker, w: Wiring) -> None:
    if w.bus not in PI_SPI:
        checker.error(f"pad {w.pad!r}: readers go on SPI0 or SPI1, not SPI{w.bus}: set spi = 0 or 1")
    elif (w.ce is None) == (w.cs is None):
        checker.error(f"pad {w.pad!r} needs one chip select: ce = a chip-enable line of SPI{w.bus}, "
                      "or cs = a GPIO, not " + ("both" if w.cs is not None else "neither"))
    elif w.ce is not None and w.ce not in range(len(PI_SPI[w.bus]["ce"])):
        lines = ", ".join(f"CE{i}" for i in range(len(PI_SPI[w.bus]["ce"])))
        hint = "move it to SPI1 (CE0-CE2), or " if w.bus == 0 else ""
        checker.error(f"SPI{w.bus} has {len(PI_SPI[w.bus]['ce'])} chip-enable lines ({lines}); pad {w.pad!r} "
                      f"asks for CE{w.ce}: {hint}select every SPI{w.bus} reader with a GPIO chip select (cs = ...)")
    elif w.ce is not None:
        checker.uses["pi", PI_SPI[w.bus]["ce"][w.ce]].append(Use(f"pad {w.pad!r} chip select (SPI{w.bus} CE{w.ce})"))
    else:
        checker.uses["pi", w.cs].append(Use(f"pad {w.pad!r} chip select"))


def _wire_pi_bus(checker: Checker, bus: int, readers: list[Wiring]) -> None:
    on_ce = [w.pad for w in readers if w.ce is not None]
    on_gpio = [w.pad for w in readers if w.cs is not None]
    if on_ce and on_gpio:
        checker.error(f"SPI{bus} mixes chip-enable lines (pad {on_ce[0]!r}) and GPIO chip selects "
                      f"(pad {on_gpio[0]!r}): use one kind per bus")
    spi = PI_SPI[bus]
    for role in ("miso", "mosi", "sclk"):
        checker.uses["pi", spi[role]].append(Use(f"SPI{bus} {role.upper()}", bus=True))
    config, claimed = _pi_bus_setup(bus, readers)
    used = {spi["ce"][w.ce] for w in readers if w.ce in range(len(spi["ce"]))}
    for i, pin in enumerate(spi["ce"][:claimed]):
        if pin not in used:
            checker.uses["pi", pin].append(Use(f"SPI{bus} CE{i} (claimed by {config})", bus=True))


def _check_hub_selects(checker: Checker, hub) -> None:
    readers = checker.layout.readers_on(hub.name)
    free = len(PICO_BOARD.pins) - 3 - (hub.reset is not None)
    if len(readers) > free:
        checker.error(f"too many chip selects on hub {hub.name!r}: {len(readers)} readers, but a Pico has "
                      f"{len(PICO_BOARD.pins)} usable pins and {len(PICO_BOARD.pins) - free} go to its SPI bus "
                      f"and reset, so at most {free}; move readers to another hub")


def _wire_hub_reader(checker: Checker, w: Wiring) -> None:
    if w.ce is not None:
        checker.error(f"pad {w.pad!r} is on hub {w.board!r}, which has no chip-enable lines: "
                      "use cs = a GP pin")
    if w.bus is not None:
        checker.error(f"pad {w.pad!r} is on hub {w.board!r}, whose readers share the hub's SPI bus: remove spi")
    if w.cs is None:
        checker.error(f"pad {w.pad!r} on hub {w.board!r} needs a chip select: cs = a GP pin")
    else:
        checker.uses[w.board, w.cs].append(Use(f"pad {w.pad!r} chip select"))


def buses(layout: Layout) -> dict[str, list[Wiring]]:
    """The readers read in turn on each Pi SPI bus and on each hub."""
    found = {f"the Pi's SPI{bus}": readers for bus, readers in _pi_buses(layout).items()}
    return found | {f"hub {hub.name!r}": layout.readers_on(hub.name) for hub in layout.hubs}


def tables(layout: Layout, board_name: str, board: Board) -> list[str]:
    """For each SPI bus of the board with readers: what goes to its shared lines, and each reader's chip select."""
    on_bus: dict[int | None, list[Wiring]] = {}
    for w in layout.readers_on(board_name):
        on_bus.setdefault(w.bus, []).append(w)
    return [part for bus, readers in on_bus.items()
            for part in (_bus_table(layout, board_name, board, bus, readers), _select_table(layout, board, readers))]


def _bus_table(layout: Layout, board_name: str, board: Board, bus: int | None, readers: list[Wiring]) -> str:
    if board_name == "pi":
        spi = PI_SPI[bus]
        name, sck, mosi, miso = f"SPI{bus}", spi["sclk"], spi["mosi"], spi["miso"]
        setup = f", `{pi_spi_config(layout)[bus]}` in config.txt"
    else:
        hub = next(h for h in layout.hubs if h.name == board_name)
        name, sck, mosi, miso, setup = f"SPI{hub.spi}", hub.sck, hub.mosi, hub.miso, ""
    resets = sorted({w.reset for w in readers if w.reset is not None})
    reset = ", ".join(board.name(p) for p in resets) if resets else "3.3 V (no reset line)"
    rows = [("SCK", board.name(sck)), ("MOSI", board.name(mosi)),
            ("MISO", f"{board.name(miso)}, through each reader's own buffer"),
            ("RST", reset), ("IRQ", "not connected"), ("3.3V", "3.3 V reader supply"), ("GND", "GND")]
    return (f"Readers on {name}, shared by all {len(readers)}{setup}:\n\n"
            + markdown_table(("Reader pin", "Goes to"), rows))


def _select_table(layout: Layout, board: Board, readers: list[Wiring]) -> str:
    rows = []
    for w in readers:
        select = board.name(PI_SPI[w.bus]["ce"][w.ce]) + f" = CE{w.ce}" if w.ce is not None else board.name(w.cs)
        seat, slot = layout.pad_place(w.pad)
        place = ("centre" if seat is None else f"seat {seat}") + ("" if slot is None else f", slot {slot}")
        rows.append((str(w.index), w.pad, place, select))
    return "Chip selects (the reader's SDA pin):\n\n" + markdown_table(("Reader", "Pad", "Place", "SDA goes to"), rows)


MFRC522 = ReaderType(name="mfrc522", keys=("spi", "ce", "cs", "reset"), read=read, check=check,
                     check_all=check_all, buses=buses, read_s=READ_S, summary=summary, tables=tables,
                     driver="table.hardware.rfid.types:MFRC522")
MFRC522_LEGACY = replace(MFRC522, name="mfrc522-legacy", check=check_legacy,
                         driver="table.hardware.rfid.types:MFRC522_LEGACY")
