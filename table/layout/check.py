"""Checks of a table layout, with messages a maker understands: one per problem, naming what to change.

`check_layout` finds errors (the table cannot work wired like this) and
warnings (it works, with a caveat). `summary` says in a few lines what the
table is and what the Pi's config.txt needs. Pin facts are in
`table.layout.boards`.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from table.layout.boards import (PI_BOARD, PI_CAVEATS, PI_I2C_PULLUPS, PICO_BOARD, PICO_HEADER, PICO_ONBOARD,
                                   SIMULATED_BOARD, Board, pico_pwm, pico_spi)

if TYPE_CHECKING:
    from table.layout import Hub, Layout, Seat

HOLD_S = 0.3          # a card held this long on a pad must be reported


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a layout; a warning when `error` is False."""

    message: str
    error: bool = True

    def __str__(self) -> str:
        return f"{'error' if self.error else 'warning'}: {self.message}"


@dataclass(frozen=True, slots=True)
class Use:
    """Something wired to a pin: `bus` when the readers' SPI bus holds it, `led` when it lights a seat."""

    what: str
    bus: bool = False
    led: bool = False


def check_layout(layout: Layout) -> list[Problem]:
    """Every problem of a layout, errors and warnings, rule by rule."""
    return Checker(layout).problems


def board_for(layout: Layout, name: str) -> Board | None:
    """The kind of board a board name stands for in a layout; None when the layout does not declare it."""
    if name == "pi":
        return PI_BOARD
    if any(hub.name == name for hub in layout.hubs):
        return PICO_BOARD
    return SIMULATED_BOARD if layout.backend == "simulated" else None


def summary(layout: Layout) -> str:
    """What the table is, in a few lines: seats, pads, readers per bus, hubs, config.txt."""
    per_seat = sorted({len(s.pads) for s in layout.seats})
    lines = [f"{layout.name}: {count(len(layout.seats), 'seat')}, {count(len(layout.pads), 'pad')} "
             f"({' or '.join(map(str, per_seat))} per seat, {len(layout.centre)} in the centre)"]
    lines += layout.reader_type.summary(layout)
    if layout.backend == "simulated":
        lines.append("  simulated: virtual readers, mock pins")
    return "\n".join(lines)


def _place(layout: Layout, pad: str) -> str:
    seat, _ = layout.pad_place(pad)
    return "the centre" if seat is None else f"seat {seat}"


def _on(board: Board, name: str) -> str:
    """How a message starts for a pin of a board other than the Pi."""
    return {"pi": "", "pico": f"hub {name!r}: "}.get(board.kind, f"board {name!r}: ")


def joined(items: list[str]) -> str:
    """Items in words: 'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def count(n: int, thing: str) -> str:
    """'1 reader', '2 readers'."""
    return f"{n} {thing}{'' if n == 1 else 's'}"


def _times(n: int) -> str:
    return "twice" if n == 2 else f"{n} times"


class Checker:
    """Runs every rule over one layout and collects the problems."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.problems: list[Problem] = []
        self.uses: dict[tuple[str, int], list[Use]] = defaultdict(list)
        self.check_table()
        self.check_boards()
        for seat in layout.seats:
            self.wire_seat(seat)
        self.check_readers()
        self.check_pins()
        self.check_hub_pwm()
        self.check_polling()

    def error(self, message: str) -> None:
        self.problems.append(Problem(message))

    def warn(self, message: str) -> None:
        self.problems.append(Problem(message, error=False))

    def board(self, name: str) -> Board | None:
        return board_for(self.layout, name)

    def check_table(self) -> None:
        layout = self.layout
        for seat in layout.seats:
            if not seat.pads:
                self.error(f"seat {seat.number} has no pad: give it at least one")
        if not layout.centre:
            self.error("the centre has no pad: give it at least one")
        places = defaultdict(list)
        for seat in layout.seats:
            for pad in seat.pads:
                places[pad].append(f"seat {seat.number}")
        for pad in layout.centre:
            places[pad].append("the centre")
        for pad, where in places.items():
            if len(where) > 1:
                self.error(f"pad {pad!r} is named {_times(len(where))}: {joined(where)}; give each pad its own name")
        presence = layout.presence
        if presence.place_after < 1 or presence.remove_after < 1:
            self.error("presence: place_after and remove_after must be at least 1")
        if presence.poll_interval <= 0:
            self.error("presence: poll_interval must be more than 0 seconds")

    def check_boards(self) -> None:
        layout = self.layout
        if layout.backend == "pi" and layout.hubs:
            self.error('backend is "pi" but the layout declares hubs: set backend = "hubs"')
        if layout.backend == "hubs" and not layout.hubs:
            self.error('backend is "hubs" but no [[hubs]] is declared')
        names = [h.name for h in layout.hubs]
        for name in dict.fromkeys(n for n in names if names.count(n) > 1):
            self.error(f"hub {name!r} is declared {_times(names.count(name))}: give each hub its own name")
        for seat in layout.seats:
            if self.board(seat.board) is None:
                self.error(f"seat {seat.number} is on board {seat.board!r}, which is not declared: "
                           f'add a [[hubs]] with name = "{seat.board}", or use board = "pi"')
        by_usb = defaultdict(list)
        for hub in layout.hubs:
            by_usb[hub.usb, hub.serial].append(hub.name)
        for (usb, serial), hubs in by_usb.items():
            if len(hubs) > 1 and serial is None:
                self.warn(f"hubs {joined([repr(h) for h in hubs])} have the same USB id {usb[0]:04x}:{usb[1]:04x} "
                          "and no serial number: set each one's serial (see hardware/README.md) "
                          "so the table knows which Pico is which")
            elif len(hubs) > 1:
                self.error(f"hubs {joined([repr(h) for h in hubs])} have the same serial number {serial!r}")
        for hub in layout.hubs:
            self.wire_hub_bus(hub)

    def wire_hub_bus(self, hub: Hub) -> None:
        if hub.spi not in (0, 1):
            self.error(f"hub {hub.name!r}: the Pico has SPI0 and SPI1, not SPI{hub.spi}: set spi = 0 or 1")
            return
        for role, pin in (("sck", hub.sck), ("mosi", hub.mosi), ("miso", hub.miso)):
            if pin in PICO_HEADER and pico_spi(pin) != (hub.spi, role):
                options = [f"GP{gp}" for gp in PICO_HEADER if pico_spi(gp) == (hub.spi, role)]
                self.error(f"hub {hub.name!r}: {PICO_BOARD.name(pin)} cannot be SPI{hub.spi} {role.upper()}; "
                           f"SPI{hub.spi} {role.upper()} is on {joined(options)}")
            self.uses[hub.name, pin].append(Use(f"SPI{hub.spi} {role.upper()}", bus=True))

    def wire_seat(self, seat: Seat) -> None:
        colours = ("red ", "green ", "blue ") if len(seat.light) == 3 else ("",) * len(seat.light)
        if len(seat.light) not in (1, 3):
            self.error(f"seat {seat.number}'s light has {len(seat.light)} pins: "
                       "give 3 (red, green, blue) or 1 (a single-colour LED)")
        for colour, pin in zip(colours, seat.light):
            self.uses[seat.board, pin].append(Use(f"seat {seat.number} {colour}LED", led=True))
        for name, pin in seat.buttons:
            self.uses[seat.board, pin].append(Use(f"seat {seat.number} button {name!r}"))

    def check_readers(self) -> None:
        layout, reader = self.layout, self.layout.reader_type
        wired = {w.pad for w in layout.wiring}
        if layout.backend != "simulated":
            for pad in layout.pads:
                if pad not in wired:
                    self.error(f"pad {pad!r} ({_place(layout, pad)}) has no reader: add [pads.{pad}] "
                               "with its chip select")
        for w in layout.wiring:
            if w.pad not in layout.pads:
                self.error(f"pad {w.pad!r} is assigned to no seat and is not a centre pad: add it to a seat's "
                           f"pads or to the centre's, or remove [pads.{w.pad}]")
            if w.board != "pi" and self.board(w.board) is None:
                self.error(f"pad {w.pad!r} is wired to hub {w.board!r}, which is not declared: "
                           f'add a [[hubs]] with name = "{w.board}", or use board = "pi"')
            reader.check(self, w)
        reader.check_all(self)

    def check_pins(self) -> None:
        for (board_name, pin), uses in self.uses.items():
            board = self.board(board_name)
            if board is None:
                continue
            users = joined([u.what for u in uses])
            if pin not in board.pins:
                self.error(self.missing_pin(board, board_name, pin) + f"; used by {users}")
                continue
            name = _on(board, board_name) + board.name(pin)
            fixed = [u for u in uses if u.bus]
            if fixed and len(uses) > 1:
                others = [u.what for u in uses if not u.bus]
                self.error(f"{name} is {fixed[0].what}, used by the readers; move {joined(others or [fixed[1].what])}")
            elif len(uses) > 1:
                self.error(f"{name} is used {_times(len(uses))}: {users}")
            if board is PI_BOARD and pin in PI_CAVEATS:
                self.warn(f"{name} is {PI_CAVEATS[pin]}; used by {users}")
            if board is PI_BOARD and pin in PI_I2C_PULLUPS and any(u.led for u in uses):
                self.warn(f"{name} has a 1.8 kOhm pull-up on the Pi (I2C): an LED on it glows before the table "
                          f"starts; better use it for a button; used by {users}")

    def missing_pin(self, board: Board, board_name: str, pin: int) -> str:
        if board is PI_BOARD:
            return f"GPIO {pin} does not exist on a Raspberry Pi (usable: {board.usable()})"
        on = _on(board, board_name)
        if board is PICO_BOARD and pin in PICO_ONBOARD:
            return f"{on}GP{pin} is not on the Pico's pins, it is {PICO_ONBOARD[pin]} (usable: {board.usable()})"
        if board is PICO_BOARD:
            return f"{on}GP{pin} does not exist on a Pico (usable: {board.usable()})"
        return f"{on}pin {pin} does not exist on a simulated board (usable: {board.usable()})"

    def check_hub_pwm(self) -> None:
        for hub in self.layout.hubs:
            outputs = defaultdict(list)
            for (board, pin), uses in self.uses.items():
                if board == hub.name and pin in PICO_HEADER and any(u.led for u in uses):
                    outputs[pico_pwm(pin)].append((pin, joined([u.what for u in uses])))
            for output, pins in outputs.items():
                if len(pins) > 1:
                    self.error(f"hub {hub.name!r}: {joined([PICO_BOARD.name(p) for p, _ in pins])} are the same "
                               f"PWM output {output}, so {joined([w for _, w in pins])} would always show the "
                               "same brightness: move one to a pin with its own PWM output")

    def check_polling(self) -> None:
        reader = self.layout.reader_type
        rounds = self.layout.presence.place_after
        for where, readers in reader.buses(self.layout).items():
            seen_after = len(readers) * reader.read_s * rounds
            if seen_after > HOLD_S:
                self.error(f"too many readers on {where} ({len(readers)}): read in turn at about "
                           f"{reader.read_s * 1000:.0f} ms each, a card needs {rounds} rounds, "
                           f"{seen_after * 1000:.0f} ms, "
                           f"to be seen, and one held {HOLD_S * 1000:.0f} ms could be missed; "
                           "move readers to another bus or hub, or lower place_after")
