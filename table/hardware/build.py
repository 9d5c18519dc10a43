"""A table's hardware adapters, built from its layout: simulated, emulated or real.

Whatever the kind, a `Hardware` has one Reader per pad and one SeatLight per
seat, and its seat buttons publish ButtonDown on the table's bus; the table
cannot tell the kinds apart.

- simulated: virtual readers (cards placed by code) and gpiozero mock pins;
- emulated: our MFRC522 driver over the register-level emulator, so the real
  driver code runs and tests can place cards or break chips: behind a fake
  spidev with chip selects and reset lines on mock pins for Pi-wired readers,
  and on emulated seat hubs (the hub firmware on an emulated Pico, on a pty)
  for hub-wired ones;
- real: spidev and the lgpio pin factory on the Pi, and seat hubs over USB.
"""
from __future__ import annotations

import dataclasses
import logging
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from gpiozero.pins import Factory as PinFactory

from table.events import EventBus
from table.hardware.lights import build_lights_and_buttons, press
from table.hardware.pins import (ROOT, NoTableHardware, missing_hardware, not_a_pi, pin_factories,
                                 simulated_factories, table_is_here)
from table.hardware.ports import Reader, SeatLight
from table.hardware.readers import reader_driver
from table.hardware.simulated import Noise, VirtualReader
from table.layout import PI, Hub, Layout, LayoutError

log = logging.getLogger(__name__)

HUBS_WAIT_S = 5.0   # how long start-up waits for the seat hubs before going on without them


@dataclass
class Hardware:
    """The adapters of one table, and what to close when it stops."""

    readers: dict[str, Reader]
    lights: dict[int, SeatLight]
    factories: dict[str, PinFactory]      # per board whose pins gpiozero drives (mock pins: press buttons)
    closers: list[Callable[[], None]] = field(default_factory=list)
    chips: dict = field(default_factory=dict)   # emulated hardware only: pad -> EmulatedChip
    hubs: dict = field(default_factory=dict)    # real and emulated hardware: hub name -> SeatHub
    picos: dict = field(default_factory=dict)   # emulated hardware only: hub name -> EmulatedHub

    def close(self) -> None:
        """Close everything, the rest even when one part fails to close."""
        for close in reversed(self.closers):
            try:
                close()
            except Exception as error:
                log.error("closing %r raised %r", close, error)

    def wait_for_hubs(self, timeout_s: float) -> dict[str, str]:
        """Wait until every seat hub is connected (at most `timeout_s` in all); hub name -> problem of the others."""
        deadline = time.monotonic() + timeout_s
        for hub in self.hubs.values():
            hub.wait_ready(max(0.0, deadline - time.monotonic()))
        return {name: hub.problem for name, hub in self.hubs.items() if not hub.ready}

    def press(self, board: str, pin: int) -> None:
        """Press and let go the button on `pin` of `board`: a mock pin, or a pin of an emulated hub."""
        if board in self.picos:
            self.picos[board].press(pin)
        else:
            press(self.factories[board], pin)


Builder = Callable[[EventBus], Hardware]


def simulated(layout: Layout, noise: Noise = Noise(), seed: int = 0,
              keys: dict[str, tuple[bytes, bytes]] | None = None) -> Builder:
    """Virtual readers and mock pins, every board included; `keys`: the passwords written on tags (VirtualReader)."""
    def build(bus: EventBus) -> Hardware:
        readers = {pad: VirtualReader(pad, noise, random.Random(f"{seed}/{pad}"), keys) for pad in layout.pads}
        return _with_lights(layout, bus, readers, simulated_factories(layout), layout.seats)
    return build


def emulated(layout: Layout, deaf: Iterable[str] = ()) -> Builder:
    """The layout's readers over their reader type's emulator: Pi-wired ones with mock pins, hub-wired ones as
    emulated MFRC522 chips on emulated hubs; the chips of the `deaf` pads are deaf from the start.

    `Hardware.chips` (pad -> its emulated chip, an EmulatedChip for the
    MFRC522) lets the caller place cards and inject faults; `Hardware.press`
    presses buttons.
    """
    from table.hardware.rfid.emulator import EmulatedChip

    driver = reader_driver(layout)
    if driver.emulated is None:
        raise LayoutError(f"{layout.source}: reader: the emulated table runs the mfrc522 driver only, "
                          f"not {layout.reader!r}")

    def build(bus: EventBus) -> Hardware:
        factories = {name: f for name, f in simulated_factories(layout).items() if name == PI}
        chips = {w.pad: (driver.emulator if w.board == PI else EmulatedChip)() for w in layout.wiring}
        for pad in deaf:
            chips[pad].go_deaf()
        hardware = _pi_readers(layout, bus, factories, lambda pins, closers: driver.emulated(
            layout.readers_on(PI), chips, pins, closers))
        hardware.chips = chips
        try:
            _add_emulated_hubs(hardware, layout, bus, chips)
        except BaseException:
            hardware.close()
            raise
        return hardware
    return build


def _add_emulated_hubs(hardware: Hardware, layout: Layout, bus: EventBus, chips: dict) -> None:
    """An EmulatedHub per hub of the layout over its readers' `chips` (pad -> EmulatedChip), each with a serial
    number (its own, or made up to tell identical Picos apart), and the host's SeatHubs on them, as on real
    hardware."""
    from table.hardware.hub.emulated import EmulatedHub

    hubs = []
    for number, hub in enumerate(layout.hubs, 1):
        uid = number.to_bytes(8, "big")
        hub = dataclasses.replace(hub, serial=hub.serial or uid.hex().upper())
        selects = {w.cs: chips[w.pad] for w in layout.readers_on(hub.name)}
        pico = hardware.picos[hub.name] = EmulatedHub(hub.serial, selects, hub.usb, uid)
        hardware.closers.append(pico.close)
        hubs.append(hub)
    ports = [pico.port for pico in hardware.picos.values()]
    _add_hubs(hardware, dataclasses.replace(layout, hubs=tuple(hubs)), bus, lambda: ports)


class ChipPad:
    """The pad over an emulated chip, as a hand sees it: lay a tag (by UID) on it, lift it; like a VirtualReader.

    `tags`: emulated tags by UID, laid as they are (an NTAG with its password); any other UID is a plain tag.
    """

    def __init__(self, chip, tags: dict | None = None) -> None:
        self.chip = chip
        self.tags = {} if tags is None else tags
        self._tag = None

    @property
    def card(self) -> str | None:
        """The UID of the tag on the pad, if any."""
        return None if self._tag is None else self._tag.uid.hex().upper()

    def place(self, uid: str) -> None:
        from table.hardware.rfid.emulator import EmulatedCard
        self.lift()
        self._tag = self.tags.get(uid) or EmulatedCard(uid)
        self.chip.place(self._tag)

    def lift(self) -> None:
        if self._tag is not None:
            self.chip.lift(self._tag)
            self._tag = None


def real(layout: Layout, list_ports: Callable[[], Iterable] | None = None) -> Builder:
    """The table's own readers, lights and buttons: on this Raspberry Pi, and on its seat hubs over USB.

    `list_ports` lists serial ports (pyserial's comports by default) where the hubs are looked for.
    """
    def build(bus: EventBus) -> Hardware:
        factories = pin_factories(layout, simulated=False)
        driver = reader_driver(layout)
        hardware = _pi_readers(layout, bus, factories, lambda pins, closers: driver.real(
            layout.readers_on(PI), pins, closers))
        try:
            _add_hubs(hardware, layout, bus, list_ports)
        except BaseException:
            hardware.close()
            raise
        return hardware
    return build


def choose(layout: Layout, hardware: str = "auto", root: Path = ROOT) -> tuple[Builder | None, list[str]]:
    """(the builder of the layout's real hardware, or None for the simulated table; what is missing here).

    `hardware`: "real", "simulated", or "auto": real when this machine is the
    layout's table (`table_is_here`), even with parts missing (they show as
    faulty readers), so that a hub plugged in late or a dead one never turns
    a café's table into the simulation; "emulated": the layout's hardware
    emulated (`emulated`), for trying and measuring the live table anywhere.
    """
    if hardware == "emulated":
        return (emulated(layout) if layout.backend != "simulated" else None), []
    missing = missing_hardware(layout, root)
    if hardware == "real" and (not_here := not_a_pi(layout, root)):
        raise NoTableHardware(f"{not_here}: the layout's lights, buttons and readers on the Pi cannot be driven "
                              "here; use --hardware simulated")
    real_here = hardware == "real" or hardware == "auto" and table_is_here(layout, root)
    return (real(layout) if real_here and layout.backend != "simulated" else None), missing


def _pi_readers(layout: Layout, bus: EventBus, factories: dict[str, PinFactory], make) -> Hardware:
    """The readers wired to the Pi, `make(pins, closers)`, then the Pi's lights and buttons."""
    closers: list[Callable[[], None]] = []
    try:
        readers = make(factories.get(PI), closers)
        hardware = _with_lights(layout, bus, readers, factories, layout.seats_on(PI))
    except BaseException:
        for close in reversed(closers):
            close()
        raise
    hardware.closers[:0] = closers
    return hardware


def _add_hubs(hardware: Hardware, layout: Layout, bus: EventBus, list_ports) -> None:
    """A SeatHub per hub of the layout, its wiring pushed from the layout; its pads, lights and buttons join."""
    from table.hardware.hub.host import SeatHub

    for hub in layout.hubs:
        options = {} if list_ports is None else {"list_ports": list_ports}
        seat_hub = hardware.hubs[hub.name] = SeatHub(bus, hub_wiring(layout, hub), hub.serial, hub.usb,
                                                     **options).start()
        hardware.closers.append(seat_hub.close)
        hardware.readers.update((pad.pad, pad) for pad in seat_hub.pads)
        hardware.lights.update(seat_hub.lights)


def hub_wiring(layout: Layout, hub: Hub):
    """What the layout wires to one hub, as the hub is told it."""
    from table.hardware.hub.host import HubWiring

    readers = layout.readers_on(hub.name)
    seats = layout.seats_on(hub.name)
    resets = tuple(w.reset for w in readers)
    if len(set(resets)) <= 1:           # none, or one line shared by all the hub's readers
        resets = resets[:1] if resets and resets[0] is not None else ()
    elif None in resets:
        raise ValueError(f"hub {hub.name!r}: give every reader a reset pin, or none, or one shared")
    return HubWiring(pads=tuple((w.pad, w.cs) for w in readers),
                     buttons=tuple((seat.number, name, pin) for seat in seats for name, pin in seat.buttons),
                     lights=tuple((seat.number, seat.light) for seat in seats),
                     spi_bus=hub.spi, sck=hub.sck, mosi=hub.mosi, miso=hub.miso, resets=resets)


def _with_lights(layout: Layout, bus: EventBus, readers: dict[str, Reader], factories: dict[str, PinFactory],
                 seats) -> Hardware:
    lights, buttons = build_lights_and_buttons(layout, bus, factories, seats)
    closers = [light.close for light in lights.values()] + [buttons.close]
    return Hardware(readers, dict(lights), factories, closers)
