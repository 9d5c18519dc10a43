"""Wiring tables of a layout in Markdown: what goes to which pin, board by board.

hardware/wiring-*.md hold these tables for the reference layouts (a test
keeps them equal), and `cardtable layout wiring FILE` prints them for any
layout.
"""
from __future__ import annotations

from table.layout.boards import PI_SPI, Board
from table.layout import Layout, Seat, Wiring
from table.layout.check import board_for, pi_spi_config


def wiring_markdown(layout: Layout) -> str:
    """The wiring tables of every board of a checked layout."""
    parts = []
    for board_name in layout.boards:
        board = board_for(layout, board_name)
        parts.append(f"### {_title(layout, board_name)}")
        for bus, readers in _buses(layout, board_name).items():
            parts.append(_bus_table(layout, board_name, board, bus, readers))
            parts.append(_select_table(layout, board, readers))
        if seats := layout.seats_on(board_name):
            parts.append(_seat_table(board, seats))
    return "\n\n".join(parts) + "\n"


def _title(layout: Layout, board_name: str) -> str:
    if board_name == "pi":
        return "Raspberry Pi (BCM GPIO numbers, header pin in brackets)"
    hub = next((h for h in layout.hubs if h.name == board_name), None)
    if hub is None:
        return f"Simulated board {board_name}"
    serial = f", serial {hub.serial}" if hub.serial else ""
    return f"Hub {hub.name}: Raspberry Pi Pico, USB {hub.usb[0]:04x}:{hub.usb[1]:04x}{serial} (GP numbers, pin in brackets)"


def _buses(layout: Layout, board_name: str) -> dict[int | None, list[Wiring]]:
    buses: dict[int | None, list[Wiring]] = {}
    for w in layout.readers_on(board_name):
        buses.setdefault(w.bus, []).append(w)
    return buses


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


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
    return f"Readers on {name}, shared by all {len(readers)}{setup}:\n\n" + _table(("Reader pin", "Goes to"), rows)


def _select_table(layout: Layout, board: Board, readers: list[Wiring]) -> str:
    rows = []
    for w in readers:
        select = board.name(PI_SPI[w.bus]["ce"][w.ce]) + f" = CE{w.ce}" if w.ce is not None else board.name(w.cs)
        seat, slot = layout.pad_place(w.pad)
        place = ("centre" if seat is None else f"seat {seat}") + ("" if slot is None else f", slot {slot}")
        rows.append((str(w.index), w.pad, place, select))
    return "Chip selects (the reader's SDA pin):\n\n" + _table(("Reader", "Pad", "Place", "SDA goes to"), rows)


def _seat_table(board: Board, seats: tuple[Seat, ...]) -> str:
    rgb = all(len(s.light) == 3 for s in seats)
    header = ("Seat", "Red", "Green", "Blue", "Buttons") if rgb else ("Seat", "LED", "Buttons")
    rows = [(str(s.number), *_light(board, s.light, rgb),
             ", ".join(f"{name}: {board.name(pin)}" for name, pin in s.buttons)) for s in seats]
    return "Seat lights (through a resistor each) and buttons (to GND):\n\n" + _table(header, rows)


def _light(board: Board, pins: tuple[int, ...], rgb: bool) -> tuple[str, ...]:
    names = tuple(board.name(p) for p in pins)
    return names if rgb else (", ".join(names),)
