"""Which screen the table draws on, chosen before the display opens, and whether that screen is there now.

In order: the user's $SDL_VIDEODRIVER; a desktop session (X or Wayland),
where SDL chooses; else, on Linux, the KMS card that drives a screen: drawn
on by the table itself (table/screen/kms.py) for a window that takes no
input (the table, its fallback), through SDL's kmsdrm driver for one that
reads a keyboard (enrolment, the simulated table). That card is found by its /dev/dri/by-path name (the Pi's
is platform-gpu-card), for its number changes from boot to boot (the Pi's
v3d render card may come first or not); its connectors' status in
/sys/class/drm says whether a screen is connected, so a TV switched on late
is drawn on as soon as it says "connected". Every function that looks at
the machine takes its roots, so tests give it fake trees.
"""
from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

DRI = Path("/dev/dri")
DRM = Path("/sys/class/drm")
INPUT = Path("/dev/input")
PREFERRED = ("platform-gpu-card",)   # the display card of a Pi 4 or Pi 5 (vc4), whatever its number
ADVICE = ("connect a screen or run under a desktop (X or Wayland); `cardtable run --headless` runs the table "
          "without a screen")


class NoDisplay(RuntimeError):
    """There is no screen to draw on; the message says why and what to do."""


@dataclass(frozen=True)
class KmsCard:
    """A KMS card with screen connectors: /dev/dri/card`index`, found as /dev/dri/by-path/`name`."""

    name: str
    index: int
    drm: Path = DRM
    dri: Path = DRI

    @property
    def node(self) -> Path:
        """The card's device file."""
        return self.dri / f"card{self.index}"

    def connectors(self) -> dict[str, str]:
        """Each screen connector (HDMI-A-1, ...) and its status: "connected", "disconnected" or "unknown"."""
        prefix = f"card{self.index}-"
        found = {}
        for status in sorted(self.drm.glob(f"{prefix}*/status")):
            name = status.parent.name.removeprefix(prefix)
            if name.startswith("Writeback"):   # a connector into memory, never a screen
                continue
            try:
                found[name] = status.read_text().strip()
            except OSError:
                found[name] = "unknown"
        return found

    def connected(self) -> list[str]:
        """The connectors a screen is connected to now (or forced on by the kernel's command line)."""
        return [name for name, status in self.connectors().items() if status == "connected"]


@dataclass(frozen=True)
class Output:
    """Where the table draws: SDL's video `driver` ("": SDL chooses; "kms": no SDL, the table's own KMS screen)
    and, without a desktop, the KMS `card` whose connectors say whether the screen is there."""

    driver: str
    card: KmsCard | None = None

    def sdl_environ(self) -> dict[str, str]:
        """The environment SDL reads when its display opens: the driver and, for kmsdrm, the card's number (none
        for the table's own KMS screen, which opens no SDL display)."""
        environ = {"SDL_VIDEODRIVER": self.driver} if self.driver and self.driver != "kms" else {}
        if self.driver == "kmsdrm" and self.card is not None:
            environ["SDL_KMSDRM_DEVICE_INDEX"] = str(self.card.index)
        return environ

    def screen_there(self) -> bool:
        """Whether a screen is there to draw on (always, but on a KMS card none of whose connectors is connected)."""
        return self.card is None or bool(self.card.connected())

    def where(self) -> str:
        """The connectors a screen may come on ("HDMI-A-1 or HDMI-A-2"), or "the display"."""
        if self.card is None:
            return "the display"
        return " or ".join(self.card.connectors()) or f"card{self.card.index}"


def kms_cards(dri: Path = DRI, drm: Path = DRM) -> list[KmsCard]:
    """The KMS cards that have screen connectors, by their /dev/dri/by-path names (the Pi's display card first;
    /dev/dri/cardN itself where udev made no such names)."""
    names = sorted((dri / "by-path").glob("*-card"), key=lambda link: (link.name not in PREFERRED, link.name))
    cards = []
    for path in names or sorted(dri.glob("card*")):
        node = path.resolve().name   # by-path/platform-gpu-card -> ../card1
        if node.startswith("card") and node[4:].isdigit():
            card = KmsCard(path.name, int(node[4:]), drm, dri)
            if card.connectors():
                cards.append(card)
    return cards


def find_output(environ: Mapping[str, str] = os.environ, dri: Path = DRI, drm: Path = DRM,
                inputs: Path | None = INPUT, platform: str = sys.platform) -> Output:
    """Where the table will draw (NoDisplay when there is no screen at all): without a desktop, SDL's kmsdrm,
    which reads the keyboard and mouse itself (a warning when it may not read the `inputs` devices), or, for a
    window that wants no input (`inputs` None), the table's own KMS screen."""
    if environ.get("SDL_VIDEODRIVER"):
        output = Output(environ["SDL_VIDEODRIVER"])
    elif environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY") or not platform.startswith("linux"):
        output = Output("")
    else:
        cards = kms_cards(dri, drm)
        if not cards:
            raise NoDisplay(f"no screen to draw on: no desktop, and no KMS card with a screen connector in {dri}; "
                            + ADVICE)
        output = Output("kmsdrm" if inputs is not None else "kms",
                        next((card for card in cards if card.connected()), cards[0]))
    if output.driver == "kmsdrm" and inputs is not None and (problem := unreadable_input(inputs)):
        log.warning(problem)
    return output


def unreadable_input(inputs: Path = INPUT) -> str | None:
    """Why the keyboard and mouse will be ignored, when input devices exist and this user may read none."""
    events = sorted(inputs.glob("event*"))
    if events and not any(os.access(event, os.R_OK) for event in events):
        return (f"cannot read {inputs}/event*: this user is not in group input, so keyboard and mouse are ignored "
                "(the seat buttons work)")
    return None
