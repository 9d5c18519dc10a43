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

from table.layout.boards import (PI_BOARD, PI_CAVEATS, PI_I2C_PULLUPS, PI_SPI, PICO_BOARD, PICO_HEADER,
                                   PICO_ONBOARD, SIMULATED_BOARD, Board, pico_pwm, pico_spi)

if TYPE_CHECKING:
    from table.layout import Hub, Layout, Seat, Wiring

HOLD_S = 0.3          # a card held this long on a pad must be reported
READ_S = 0.005        # estimated time to read one reader with a card on it at 1 MHz SPI


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
    return _Checker(layout).problems


def board_for(layout: Layout, name: str) -> Board | None:
    """The kind of board a board name stands for in a layout; None when the layout does not declare it."""
    if name == "pi":
        return PI_BOARD
    if any(hub.name == name for hub in layout.hubs):
        return PICO_BOARD
    return SIMULATED_BOARD if layout.backend == "simulated" else None


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


def summary(layout: Layout) -> str:
    """What the table is, in a few lines: seats, pads, readers per bus, hubs, config.txt."""
    per_seat = sorted({len(s.pads) for s in layout.seats})
    lines = [f"{layout.name}: {_count(len(layout.seats), 'seat')}, {_count(len(layout.pads), 'pad')} "
             f"({' or '.join(map(str, per_seat))} per seat, {len(layout.centre)} in the centre)"]
    for bus, readers in sorted(_pi_buses(layout).items()):
        select = "GPIO chip selects" if any(w.cs is not None for w in readers) else "chip-enable lines"
        lines.append(f"  Pi SPI{bus}: {_count(len(readers), 'reader')} on {select}")
    for hub in layout.hubs:
        seats = ", ".join(str(s.number) for s in layout.seats_on(hub.name)) or "none"
        lines.append(f"  hub {hub.name} (USB {hub.usb[0]:04x}:{hub.usb[1]:04x}): "
                     f"{_count(len(layout.readers_on(hub.name)), 'reader')} on SPI{hub.spi}, seats {seats}")
    if config := pi_spi_config(layout):
        lines.append(f"  Pi /boot/firmware/config.txt: {', '.join(config.values())}")
    if layout.backend == "simulated":
        lines.append("  simulated: virtual readers, mock pins")
    return "\n".join(lines)


def _pi_buses(layout: Layout) -> dict[int, list[Wiring]]:
    buses = defaultdict(list)
    for w in layout.readers_on("pi"):
        if w.bus in PI_SPI:
            buses[w.bus].append(w)
    return buses


def _place(layout: Layout, pad: str) -> str:
    seat, _ = layout.pad_place(pad)
    return "the centre" if seat is None else f"seat {seat}"


def _on(board: Board, name: str) -> str:
    """How a message starts for a pin of a board other than the Pi."""
    return {"pi": "", "pico": f"hub {name!r}: "}.get(board.kind, f"board {name!r}: ")


def _joined(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def _times(n: int) -> str:
    return "twice" if n == 2 else f"{n} times"


class _Checker:
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
                self.error(f"pad {pad!r} is named {_times(len(where))}: {_joined(where)}; give each pad its own name")
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
                self.warn(f"hubs {_joined([repr(h) for h in hubs])} have the same USB id {usb[0]:04x}:{usb[1]:04x} "
                          "and no serial number: set each one's serial (see hardware/README.md) "
                          "so the table knows which Pico is which")
            elif len(hubs) > 1:
                self.error(f"hubs {_joined([repr(h) for h in hubs])} have the same serial number {serial!r}")
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
                           f"SPI{hub.spi} {role.upper()} is on {_joined(options)}")
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
        layout = self.layout
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
            if w.board == "pi":
                self.wire_pi_reader(w)
            elif self.board(w.board) is None:
                self.error(f"pad {w.pad!r} is wired to hub {w.board!r}, which is not declared: "
                           f'add a [[hubs]] with name = "{w.board}", or use board = "pi"')
            else:
                self.wire_hub_reader(w)
            if layout.reader == "mfrc522-legacy" and (w.board != "pi" or w.cs is not None):
                self.error(f"pad {w.pad!r}: the mfrc522-legacy reader driver only drives readers on the Pi's "
                           'chip-enable lines (ce): use reader = "mfrc522"')
        resets = defaultdict(list)
        for w in layout.wiring:
            if w.reset is not None:
                resets[w.board, w.reset].append(w.pad)
        for key, pads in resets.items():
            self.uses[key].append(Use("reader reset" if len(pads) > 1 else f"pad {pads[0]!r} reset"))
        unreset = [w.pad for w in layout.wiring if w.reset is None]
        if unreset:
            self.warn(f"{_count(len(unreset), 'reader')} ({_joined([repr(p) for p in unreset])}) "
                      "{} no reset pin: a reader that goes deaf can only be soft-reset, and one that ignores it "
                      "stays out of order until the power is cycled; wire {} RST (NRSTPD) to a free pin "
                      "(reset = N)".format(*(("has", "its") if len(unreset) == 1 else ("have", "their"))))
        for bus, readers in sorted(_pi_buses(layout).items()):
            self.wire_pi_bus(bus, readers)
        for hub in layout.hubs:
            self.check_hub_selects(hub)

    def wire_pi_reader(self, w: Wiring) -> None:
        if w.bus not in PI_SPI:
            self.error(f"pad {w.pad!r}: readers go on SPI0 or SPI1, not SPI{w.bus}: set spi = 0 or 1")
        elif (w.ce is None) == (w.cs is None):
            self.error(f"pad {w.pad!r} needs one chip select: ce = a chip-enable line of SPI{w.bus}, "
                       "or cs = a GPIO, not " + ("both" if w.cs is not None else "neither"))
        elif w.ce is not None and w.ce not in range(len(PI_SPI[w.bus]["ce"])):
            lines = ", ".join(f"CE{i}" for i in range(len(PI_SPI[w.bus]["ce"])))
            hint = "move it to SPI1 (CE0-CE2), or " if w.bus == 0 else ""
            self.error(f"SPI{w.bus} has {len(PI_SPI[w.bus]['ce'])} chip-enable lines ({lines}); pad {w.pad!r} "
                       f"asks for CE{w.ce}: {hint}select every SPI{w.bus} reader with a GPIO chip select (cs = ...)")
        elif w.ce is not None:
            self.uses["pi", PI_SPI[w.bus]["ce"][w.ce]].append(Use(f"pad {w.pad!r} chip select (SPI{w.bus} CE{w.ce})"))
        else:
            self.uses["pi", w.cs].append(Use(f"pad {w.pad!r} chip select"))

    def wire_pi_bus(self, bus: int, readers: list[Wiring]) -> None:
        on_ce = [w.pad for w in readers if w.ce is not None]
        on_gpio = [w.pad for w in readers if w.cs is not None]
        if on_ce and on_gpio:
            self.error(f"SPI{bus} mixes chip-enable lines (pad {on_ce[0]!r}) and GPIO chip selects "
                       f"(pad {on_gpio[0]!r}): use one kind per bus")
        spi = PI_SPI[bus]
        for role in ("miso", "mosi", "sclk"):
            self.uses["pi", spi[role]].append(Use(f"SPI{bus} {role.upper()}", bus=True))
        config, claimed = _pi_bus_setup(bus, readers)
        used = {spi["ce"][w.ce] for w in readers if w.ce in range(len(spi["ce"]))}
        for i, pin in enumerate(spi["ce"][:claimed]):
            if pin not in used:
                self.uses["pi", pin].append(Use(f"SPI{bus} CE{i} (claimed by {config})", bus=True))

    def check_hub_selects(self, hub: Hub) -> None:
        readers = self.layout.readers_on(hub.name)
        free = len(PICO_BOARD.pins) - 3 - (hub.reset is not None)
        if len(readers) > free:
            self.error(f"too many chip selects on hub {hub.name!r}: {len(readers)} readers, but a Pico has "
                       f"{len(PICO_BOARD.pins)} usable pins and {len(PICO_BOARD.pins) - free} go to its SPI bus "
                       f"and reset, so at most {free}; move readers to another hub")

    def wire_hub_reader(self, w: Wiring) -> None:
        if w.ce is not None:
            self.error(f"pad {w.pad!r} is on hub {w.board!r}, which has no chip-enable lines: "
                       "use cs = a GP pin")
        if w.bus is not None:
            self.error(f"pad {w.pad!r} is on hub {w.board!r}, whose readers share the hub's SPI bus: remove spi")
        if w.cs is None:
            self.error(f"pad {w.pad!r} on hub {w.board!r} needs a chip select: cs = a GP pin")
        else:
            self.uses[w.board, w.cs].append(Use(f"pad {w.pad!r} chip select"))

    def check_pins(self) -> None:
        for (board_name, pin), uses in self.uses.items():
            board = self.board(board_name)
            if board is None:
                continue
            users = _joined([u.what for u in uses])
            if pin not in board.pins:
                self.error(self.missing_pin(board, board_name, pin) + f"; used by {users}")
                continue
            name = _on(board, board_name) + board.name(pin)
            fixed = [u for u in uses if u.bus]
            if fixed and len(uses) > 1:
                others = [u.what for u in uses if not u.bus]
                self.error(f"{name} is {fixed[0].what}, used by the readers; move {_joined(others or [fixed[1].what])}")
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
                    outputs[pico_pwm(pin)].append((pin, _joined([u.what for u in uses])))
            for output, pins in outputs.items():
                if len(pins) > 1:
                    self.error(f"hub {hub.name!r}: {_joined([PICO_BOARD.name(p) for p, _ in pins])} are the same "
                               f"PWM output {output}, so {_joined([w for _, w in pins])} would always show the "
                               "same brightness: move one to a pin with its own PWM output")

    def check_polling(self) -> None:
        buses = {f"the Pi's SPI{bus}": readers for bus, readers in _pi_buses(self.layout).items()}
        buses |= {f"hub {hub.name!r}": self.layout.readers_on(hub.name) for hub in self.layout.hubs}
        rounds = self.layout.presence.place_after
        for where, readers in buses.items():
            seen_after = len(readers) * READ_S * rounds
            if seen_after > HOLD_S:
                self.error(f"too many readers on {where} ({len(readers)}): read in turn at about "
                           f"{READ_S * 1000:.0f} ms each, a card needs {rounds} rounds, {seen_after * 1000:.0f} ms, "
                           f"to be seen, and one held {HOLD_S * 1000:.0f} ms could be missed; "
                           "move readers to another bus or hub, or lower place_after")
