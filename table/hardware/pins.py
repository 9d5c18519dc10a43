"""Pin factories chosen by configuration, and whether this machine has the table's hardware.

On a Pi, lights and buttons use gpiozero's lgpio factory on the gpiochip of
the 40-pin header, found by its label: its number varies (gpiochip4 on a
Pi 5 with early kernels, gpiochip0 later and on older Pis). A simulated
table gets one `MockFactory` per board. Every function that looks at the
machine takes `root`, so tests give it a fake tree.
"""
from __future__ import annotations

import fcntl
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from gpiozero.pins import Factory as PinFactory
from gpiozero.pins.mock import MockFactory, MockPWMPin

from table.hardware.readers import reader_driver
from table.layout import PI, Layout

# Labels of the GPIO controller behind the 40-pin header: Pi 5 (RP1), Pi 4, Pi 3 and older.
HEADER_GPIO_LABELS = ("pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835")
GPIO_GET_CHIPINFO_IOCTL = 0x8044B401   # _IOR(0xB4, 0x01, struct gpiochip_info {name[32], label[32], u32 lines})
ROOT = Path("/")


class NoTableHardware(RuntimeError):
    """Real pins or readers were asked for on a machine that does not have them."""


def chip_label(path: Path) -> str | None:
    """The label of a /dev/gpiochipN device (the kernel's GPIO_GET_CHIPINFO); None if it is no gpiochip."""
    try:
        with open(path, "rb") as chip:
            info = fcntl.ioctl(chip.fileno(), GPIO_GET_CHIPINFO_IOCTL, bytes(68))
    except OSError:
        return None
    return info[32:64].split(b"\0", 1)[0].decode("ascii", "replace")


def find_gpiochip(root: Path = ROOT, label_of: Callable[[Path], str | None] = chip_label) -> int:
    """The number N of the /dev/gpiochipN that drives the Pi's 40-pin header."""
    chips = sorted((p for p in (root / "dev").glob("gpiochip*") if p.name[8:].isdigit()),
                   key=lambda p: int(p.name[8:]))
    labels = {chip: label_of(chip) for chip in chips}
    for chip, label in labels.items():
        if label in HEADER_GPIO_LABELS:
            return int(chip.name[8:])
    found = ", ".join(f"{c.name} ({labels[c] or 'unreadable'})" for c in chips) or "none"
    raise NoTableHardware(f"no Raspberry Pi header GPIO controller ({', '.join(HEADER_GPIO_LABELS)}) among "
                          f"{root / 'dev'}/gpiochip*: found {found}. Not a Raspberry Pi, or this user may not "
                          "open /dev/gpiochip* (add it to the gpio group); without it, run the simulated table")


def pi_factory(root: Path = ROOT, label_of: Callable[[Path], str | None] = chip_label) -> PinFactory:
    """gpiozero's lgpio pin factory on the gpiochip of the Pi's header."""
    chip = find_gpiochip(root, label_of)
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError:
        raise NoTableHardware("the lgpio package is missing: pip install lgpio") from None
    return LGPIOFactory(chip=chip)


def simulated_factories(layout: Layout) -> dict[str, MockFactory]:
    """One mock pin factory with PWM pins per board of the layout."""
    return {board: MockFactory(pin_class=MockPWMPin) for board in layout.boards}


def pin_factories(layout: Layout, simulated: bool, root: Path = ROOT) -> dict[str, PinFactory]:
    """A gpiozero pin factory for each board whose lights and buttons gpiozero drives.

    Simulated: a mock factory per board. Real: the lgpio factory for the Pi,
    when the layout puts anything on it; a hub's pins are driven by its own
    firmware, so hubs get none.
    """
    if simulated:
        return simulated_factories(layout)
    return {PI: pi_factory(root)} if PI in layout.boards else {}


def pi_model(root: Path = ROOT) -> str | None:
    """The Raspberry Pi model this runs on ('Raspberry Pi 5 Model B Rev 1.0'), or None elsewhere."""
    try:
        model = (root / "proc/device-tree/model").read_bytes().rstrip(b"\0").decode("ascii", "replace")
    except OSError:
        return None
    return model if model.startswith("Raspberry Pi") else None


def usb_devices(root: Path = ROOT) -> list[tuple[int, int, str | None]]:
    """(vendor id, product id, serial number or None) of every USB device plugged in."""
    devices = []
    for device in sorted((root / "sys/bus/usb/devices").glob("*")):
        try:
            ids = [int((device / name).read_text(), 16) for name in ("idVendor", "idProduct")]
        except (OSError, ValueError):
            continue
        serial = device / "serial"
        devices.append((ids[0], ids[1], serial.read_text().strip() if serial.exists() else None))
    return devices


def table_is_here(layout: Layout, root: Path = ROOT) -> bool:
    """Whether this machine is the layout's table: a Raspberry Pi if anything is wired to the Pi, else (a
    table on hubs only) at least one Pico of its USB ids plugged in. Its missing parts are then faults."""
    if layout.backend == "simulated":
        return False
    if PI in layout.boards:
        return pi_model(root) is not None
    plugged = {device[:2] for device in usb_devices(root)}
    return any(hub.usb in plugged for hub in layout.hubs)


def not_a_pi(layout: Layout, root: Path = ROOT) -> str | None:
    """Why the layout's Pi-wired parts cannot be here, when it puts parts on the Pi and this is no Raspberry Pi."""
    if PI in layout.boards and pi_model(root) is None:
        return f"this is not a Raspberry Pi (no Raspberry Pi model in {root / 'proc/device-tree/model'})"
    return None


def missing_hardware(layout: Layout, root: Path = ROOT) -> list[str]:
    """What a checked layout needs on this machine and does not find; empty when its hardware is all here.

    A simulated layout needs nothing. Anything on board "pi" needs a Raspberry
    Pi; its readers need their devices (the reader type says which: /dev/spidev for the MFRC522); each hub
    must be on USB.
    """
    if layout.backend == "simulated":
        return []
    pi = not_a_pi(layout, root)
    missing = ([pi] if pi else []) + list(reader_driver(layout).missing(layout, root).values())
    plugged = usb_devices(root)
    unnamed = defaultdict(list)
    for hub in layout.hubs:
        if hub.serial is None:
            unnamed[hub.usb].append(hub.name)
        elif (*hub.usb, hub.serial) not in plugged:
            missing.append(f"hub {hub.name!r} (USB {hub.usb[0]:04x}:{hub.usb[1]:04x}, serial {hub.serial}) "
                           "is not plugged in")
    for usb, names in unnamed.items():
        found = sum(device[:2] == usb for device in plugged)
        if found < len(names):
            missing.append(f"only {found} of the {len(names)} hubs with USB id {usb[0]:04x}:{usb[1]:04x} "
                           f"({', '.join(names)}) are plugged in")
    return missing
