"""Wiring tables of a layout in Markdown: what goes to which pin, board by board.

hardware/wiring-*.md hold these tables for the reference layouts (a test
keeps them equal), and `cardtable layout wiring FILE` prints them for any
layout.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from table.layout.check import board_for

if TYPE_CHECKING:
    from table.layout import Layout, Seat
    from table.layout.boards import Board


def wiring_markdown(layout: Layout) -> str:
    """The wiring tables of every board of a checked layout."""
    parts = []
    for board_name in layout.boards:
        board = board_for(layout, board_name)
        parts.append(f"### {_title(layout, board_name)}")
        parts += layout.reader_type.tables(layout, board_name, board)
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


def markdown_table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def _seat_table(board: Board, seats: tuple[Seat, ...]) -> str:
    rgb = all(len(s.light) == 3 for s in seats)
    header = ("Seat", "Red", "Green", "Blue", "Buttons") if rgb else ("Seat", "LED", "Buttons")
    rows = [(str(s.number), *_light(board, s.light, rgb),
             ", ".join(f"{name}: {board.name(pin)}" for name, pin in s.buttons)) for s in seats]
    return "Seat lights (through a resistor each) and buttons (to GND):\n\n" + markdown_table(header, rows)


def _light(board: Board, pins: tuple[int, ...], rgb: bool) -> tuple[str, ...]:
    names = tuple(board.name(p) for p in pins)
    return names if rgb else (", ".join(names),)
