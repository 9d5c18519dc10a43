"""`cardtable doctor`: checks a table's hardware with a maker at hand and ends with a plain report.

It finds each reader and reports its chip version, lights each seat in turn
and asks for that seat's buttons, asks for a card on each pad, and lists what
works and what does not. The maker answers with the table itself (buttons
and cards), so a doctor needs no keyboard; whoever answers is a `Maker`: the
console for a person, or an emulated hand in tests and `--emulated` runs.
A part that is not there (the Pi, an SPI device, a hub) is reported in one
line, and nothing is asked of what hangs on it. The table's protections
(table/appliance/checks.py) and its staff cards (protected or not) follow
the report.
"""
from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from table.appliance.checks import Check, protections
from table.events import ButtonDown, CardPlaced, CardRemoved, EventBus, ReaderFailed, ReaderRecovered
from table.hardware import build
from table.hardware.pins import ROOT, NoTableHardware, not_a_pi
from table.hardware.poller import ReaderPoller
from table.hardware.ports import LightState, Reader, SeatLight
from table.hardware.presence import PresenceTracker
from table.hardware.readers import reader_driver
from table.layout import PI, Layout, load_layout

CARD = "04C0FFEE000001"   # the tag an emulated hand lays on the pads
FIRST_ROUND_S = 0.25      # readers are polled this long before their probe: a hub reports a reader once it polled it


@dataclass(frozen=True, slots=True)
class Press:
    """Asks the maker to press button `button` of seat `seat` (whose light is on)."""

    seat: int
    button: str

    def __str__(self) -> str:
        return f"Seat {self.seat}: its light is on. Press its '{self.button}' button."


@dataclass(frozen=True, slots=True)
class Place:
    """Asks the maker to lay a tagged card on pad `pad`, then to take it away."""

    pad: str
    where: str

    def __str__(self) -> str:
        return f"Lay a card on pad '{self.pad}' ({self.where}), then take it away."


@dataclass(frozen=True, slots=True)
class Finding:
    """One part checked: whether it works, and what was seen (what to do when it does not)."""

    part: str
    ok: bool
    detail: str


class Maker(Protocol):
    """Whoever answers the doctor's requests at the table."""

    def ask(self, request: Press | Place) -> None:
        """Show (or carry out) one request; the doctor then watches the table for the answer."""
        ...

    def tell(self, text: str) -> None:
        """Show a line of progress."""
        ...


class ConsoleMaker:
    """A person at the table, reading the doctor's requests on the console."""

    def __init__(self, write: Callable[[str], None] = print) -> None:
        self.write = write

    def ask(self, request: Press | Place) -> None:
        self.write(f"-> {request}")

    def tell(self, text: str) -> None:
        self.write(text)


class Doctor:
    """Checks the readers, then each seat's light and buttons, then every pad, and reports.

    `readers` and `lights` are the table's adapters (real or emulated) that
    can answer: only their pads and seats are checked. Its buttons publish
    ButtonDown on `bus`. Every wait for the maker ends after `patience_s`
    seconds, which counts as a failure of that part.
    """

    def __init__(self, layout: Layout, readers: Mapping[str, Reader], lights: Mapping[int, SeatLight],
                 bus: EventBus, maker: Maker, patience_s: float = 30.0) -> None:
        self.layout = layout
        self.readers = readers
        self.lights = lights
        self.bus = bus
        self.maker = maker
        self.patience_s = patience_s
        self.poller = ReaderPoller(readers.values(), bus)
        PresenceTracker(bus, layout.presence.place_after, layout.presence.remove_after)
        self._seen: list = []
        for kind in (ButtonDown, CardPlaced, CardRemoved, ReaderFailed):
            bus.subscribe(kind, self._seen.append)
        self._failing: dict[str, str] = {}   # pad -> why its reader fails, while it does
        bus.subscribe(ReaderFailed, self._on_failed)
        bus.subscribe(ReaderRecovered, self._on_recovered)

    def run(self) -> list[Finding]:
        """Every check, in order; the findings make the report."""
        pads = [pad for pad in self.layout.pads if pad in self.readers]
        self._wait(lambda event: False, FIRST_ROUND_S)
        findings = [self._probe(pad, self.readers[pad]) for pad in pads]
        deaf = {f.part.removeprefix("reader ") for f in findings if not f.ok}
        for seat in self.layout.seats:
            if seat.number in self.lights:
                findings += self._seat(seat.number, [name for name, _ in seat.buttons])
        for pad in pads:
            if pad not in deaf:
                findings.append(self._pad(pad))
        return findings

    # ------------------------------------------------------------ checks

    def _probe(self, pad: str, reader: Reader) -> Finding:
        self.maker.tell(f"Reader of pad '{pad}'...")
        if pad in self._failing or not reader.reset():
            return Finding(f"reader {pad}", False, "no answer: check its power (3.3 V), SPI wires, chip select and "
                                                   "that no other module holds MISO")
        version = getattr(reader, "version", None)
        detail = "answers" if version is None else f"MFRC522 version 0x{version:02X}"
        return Finding(f"reader {pad}", True, detail)

    def _seat(self, seat: int, buttons: list[str]) -> list[Finding]:
        light = self.lights[seat]
        light.show(LightState.YOUR_TURN)
        findings = []
        try:
            for button in buttons:
                self._seen.clear()
                self.maker.ask(Press(seat, button))
                pressed = self._wait(lambda e: isinstance(e, ButtonDown) and e.seat == seat and e.button == button)
                if not pressed:
                    stray = [e for e in self._seen if isinstance(e, ButtonDown)]
                    hint = f"; a press came from seat {stray[0].seat} '{stray[0].button}' instead" if stray else ""
                    findings.append(Finding(f"button seat {seat} '{button}'", False,
                                            f"no press in {self.patience_s:g} s: check its pin and ground{hint}"))
                else:
                    findings.append(Finding(f"button seat {seat} '{button}'", True, "pressed"))
            # A press while the light was on is the maker saying they saw it.
            lit = any(f.ok for f in findings)
            findings.insert(0, Finding(f"light seat {seat}", lit, "seen lit (a button was pressed while it was on)"
                                       if lit else "not confirmed: no button of the seat was pressed while it was on"))
        finally:
            light.show(LightState.OFF)
        return findings

    def _pad(self, pad: str) -> Finding:
        if pad in self._failing:   # it failed since its probe
            return Finding(f"pad {pad}", False, f"its reader fails: {self._failing[pad]}")
        seat, _ = self.layout.pad_place(pad)
        self._seen.clear()
        self.maker.ask(Place(pad, "the centre" if seat is None else f"seat {seat}"))
        placed = self._wait(lambda e: isinstance(e, (CardPlaced, ReaderFailed)) and e.pad == pad)
        if isinstance(placed, ReaderFailed):
            return Finding(f"pad {pad}", False, f"its reader failed while reading: {placed.reason}")
        removed = placed and self._wait(lambda e: isinstance(e, CardRemoved) and e.pad == pad)
        others = sorted({e.pad for e in self._seen if isinstance(e, CardPlaced) and e.pad != pad})
        if placed is None:
            hint = f"; pads {', '.join(others)} saw a card instead (wiring swapped, or cross-reading)" if others else ""
            return Finding(f"pad {pad}", False, f"no card seen in {self.patience_s:g} s{hint}")
        if not removed:
            return Finding(f"pad {pad}", False, "the card was seen but never seen taken away")
        if others:
            return Finding(f"pad {pad}", False, f"card {placed.uid} read, but also by pads {', '.join(others)}: "
                                                "too close (cross-reading) or shared chip select")
        return Finding(f"pad {pad}", True, f"card {placed.uid} read")

    # ------------------------------------------------------------ the table's loop

    def _on_failed(self, event: ReaderFailed) -> None:
        self._failing[event.pad] = event.reason

    def _on_recovered(self, event: ReaderRecovered) -> None:
        self._failing.pop(event.pad, None)

    def _wait(self, wanted: Callable[[object], bool], timeout_s: float | None = None):
        """Poll the readers and deliver events until one is `wanted` (returned) or `timeout_s` (default: patience)
        runs out (None).

        Every event seen since the request stays in `_seen`, for hints.
        """
        deadline = time.monotonic() + (self.patience_s if timeout_s is None else timeout_s)
        while time.monotonic() < deadline:
            self.poller.poll_once()
            self.bus.dispatch()
            for event in self._seen:
                if wanted(event):
                    return event
            time.sleep(self.layout.presence.poll_interval)
        return None


def report(findings: list[Finding]) -> str:
    """The plain report: one line per part, then a summary."""
    width = max(len(f.part) for f in findings)
    lines = [f"{'OK ' if f.ok else 'BAD'}  {f.part:<{width}}  {f.detail}" for f in findings]
    bad = sum(not f.ok for f in findings)
    needs = "" if not bad else f"; {bad} needs attention." if bad == 1 else f"; {bad} need attention."
    lines.append(f"{len(findings) - bad} of {len(findings)} parts work{needs or '.'}")
    return "\n".join(lines)


class HandMaker:
    """A maker's hand without a person: carries out each request on emulated or simulated hardware.

    `press(seat, button)` presses a button; `place(pad)` lays a card on a pad
    and `lift(pad)` takes it away, which it does as soon as the doctor has
    seen the card (so the run is deterministic, whatever the machine's speed).
    Lines of progress go to `write`.
    """

    def __init__(self, bus: EventBus, press: Callable[[int, str], None], place: Callable[[str], None],
                 lift: Callable[[str], None], write: Callable[[str], None] = print) -> None:
        self._press, self._place, self._lift = press, place, lift
        self.console = ConsoleMaker(write)
        bus.subscribe(CardPlaced, self._on_placed)
        self._holding: str | None = None

    def ask(self, request: Press | Place) -> None:
        self.console.ask(request)
        if isinstance(request, Press):
            self._press(request.seat, request.button)
        else:
            self._holding = request.pad
            self._place(request.pad)

    def tell(self, text: str) -> None:
        self.console.tell(text)

    def _on_placed(self, event: CardPlaced) -> None:
        if event.pad == self._holding:
            self._holding = None
            self._lift(event.pad)


def run_doctor(args, state: Path, state_expected: bool = True) -> int:
    """`cardtable doctor`: the report, then the protections of the state directory `state` (missing, a problem
    only when `state_expected`) and the staff cards of its registry (`args.registry`, default state's); exit
    status 1 when anything failed (a part, a seat hub that sent frames that do not fit its wiring, a protection,
    a staff card a UID copy could pass).

    On a layout wired to real hardware it runs on what of that hardware is
    here, with the person at the console. With `--emulated` (or on a
    simulated layout, whose hardware is simulated anyway) a HandMaker answers
    on emulated chips and hubs (or virtual readers), and `--break PAD` makes
    that pad's reader deaf first.
    """
    layout = load_layout(args.layout)
    hand_driven = args.emulated or layout.backend == "simulated"
    if args.broken and not hand_driven:
        raise SystemExit("cardtable doctor: --break needs --emulated (a real reader cannot be made deaf)")
    if unknown := [pad for pad in args.broken if pad not in layout.pads]:
        raise SystemExit(f"cardtable doctor: no pad {unknown[0]!r} in {layout.name!r} "
                         f"(its pads: {', '.join(layout.pads)})")
    bus = EventBus()
    if hand_driven:
        hardware = _emulated(layout, bus, args.emulated and layout.backend != "simulated", args.broken)
        boards, no_device = {}, {}
        maker: Maker = _hand(layout, hardware, bus)
    else:
        hardware, boards, no_device = _real(layout, bus)
        maker = ConsoleMaker()
    try:
        wait_s = min(args.patience, build.HUBS_WAIT_S)
        if hardware.hubs:
            maker.tell(f"Waiting for the {len(hardware.hubs)} seat hubs (at most {wait_s:g} s)...")
        for name, problem in hardware.wait_for_hubs(wait_s).items():
            boards[name] = (f"{problem}: check its USB cable, its serial number in the layout and that it runs "
                            "the firmware (docs/hubs.md)")
        findings = [Finding("Raspberry Pi" if board == PI else f"hub {board}", False, problem)
                    for board, problem in boards.items()]
        findings += [Finding(f"reader {pad}", False, problem) for pad, problem in no_device.items()]
        board_of = {w.pad: w.board for w in layout.wiring}
        readers = {pad: reader for pad, reader in hardware.readers.items()
                   if pad not in no_device and board_of.get(pad) not in boards}
        lights = {n: light for n, light in hardware.lights.items() if layout.seats[n - 1].board not in boards}
        findings += Doctor(layout, readers, lights, bus, maker, args.patience).run()
        findings += [Finding(f"hub {name}", False, f"frames that do not fit its wiring were dropped ({hub.misfits}): "
                             "its firmware and the host's differ; update it (docs/hubs.md)")
                     for name, hub in hardware.hubs.items() if hub.misfits]
    finally:
        hardware.close()
    checks = protections(state, expected=state_expected)
    staff, staff_ok = staff_report(args.registry or state / "registry.sqlite", state_expected)
    print(report(findings))
    print(protections_report(checks))
    print(staff)
    return 0 if all(f.ok for f in findings) and all(c.ok is not False for c in checks) and staff_ok else 1


def staff_report(path: Path, expected: bool = True) -> tuple[str, bool]:
    """The staff cards of the registry at `path`, one line each: protected (it proves itself with its password,
    so a copy of its UID opens nothing) or not (the table refuses it until it is enrolled again); and whether all
    is well. No registry is a problem only when `expected`."""
    from table.storage import StorageRefused
    from table.storage.registry import TagRegistry

    lines = ["Staff cards"]
    if not path.is_file():
        lines.append(f"{'PROBLEM' if expected else 'not in use':<10}  no tag registry at {path}")
        return "\n".join(lines), not expected
    try:
        registry = TagRegistry(path)
    except (StorageRefused, OSError) as error:
        return "\n".join([*lines, f"{'PROBLEM':<10}  {path}: {error}"]), False
    try:
        staff = registry.staff()
    finally:
        registry.close()
    if not staff:
        lines.append(f"{'PROBLEM':<10}  no staff card enrolled: cardtable enrol --staff 1")
    for name, protected in staff.items():
        number = name.removeprefix("staff-")
        lines.append(f"{'OK':<10}  {name} is protected: it proves itself with its password" if protected else
                     f"{'PROBLEM':<10}  {name} is not protected: the table refuses it; lay it on the enrolment "
                     f"station (cardtable enrol --staff {number})")
    return "\n".join(lines), bool(staff) and all(staff.values())


def protections_report(checks: list[Check]) -> str:
    """The protections after the parts: one line each in English, OK, PROBLEM or not in use."""
    from table.screen.i18n import Translator

    t = Translator("en")
    marks = {True: "OK", False: "PROBLEM", None: "not in use"}
    return "\n".join(["Protections", *(f"{marks[c.ok]:<10}  {c.text(t)}" for c in checks)])


def _real(layout: Layout, bus: EventBus) -> tuple[build.Hardware, dict[str, str], dict[str, str]]:
    """The layout's real hardware that is here; the boards that are not (the Pi: left out of the build) and the
    readers whose SPI device is missing, each with why."""
    not_here = not_a_pi(layout)
    if not not_here:
        try:
            return build.real(layout)(bus), {}, reader_driver(layout).missing(layout, ROOT)
        except NoTableHardware as error:   # a Pi without its GPIO or SPI software, or no access to them
            not_here = str(error)
    off_pi = dataclasses.replace(layout, seats=tuple(s for s in layout.seats if s.board != PI),
                                 wiring=tuple(w for w in layout.wiring if w.board != PI))
    return build.real(off_pi)(bus), {PI: not_here}, {}


def _emulated(layout: Layout, bus: EventBus, emulate: bool, broken: list[str]) -> build.Hardware:
    """The layout's emulated hardware (or simulated, unless `emulate`), with the `broken` pads' readers deaf."""
    if emulate:
        return build.emulated(layout, deaf=broken)(bus)
    hardware = build.simulated(layout)(bus)
    for pad in broken:
        hardware.readers[pad].broken = True
    return hardware


def _hand(layout: Layout, hardware: build.Hardware, bus: EventBus) -> HandMaker:
    """A hand on emulated or simulated hardware: it lays a card where asked, and presses a button where it sees
    a light."""
    pads = {pad: build.ChipPad(chip) for pad, chip in hardware.chips.items()} or hardware.readers

    def push(seat: int, button: str) -> None:
        if hardware.lights[seat].state is not LightState.OFF:
            spec = layout.seats[seat - 1]
            hardware.press(spec.board, dict(spec.buttons)[button])

    return HandMaker(bus, push, lambda pad: pads[pad].place(CARD), lambda pad: pads[pad].lift())
