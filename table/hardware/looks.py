"""How each seat-light state looks: one palette for the LEDs, the hub firmware and the screen's seat badges."""
from __future__ import annotations

import enum
from typing import NamedTuple

from table.hardware.ports import LightState

Colour = tuple[float, float, float]


class Pattern(enum.Enum):
    """How a light shows its colour."""

    STEADY = "steady"
    PULSE = "pulse"   # fades between colour and other, forever
    BLINK = "blink"   # alternates colour and other, forever
    FLASH = "flash"   # a few quick blinks of colour, then the previous steady look again


class Look(NamedTuple):
    """The pattern and colours of a light state."""

    pattern: Pattern
    colour: Colour
    other: Colour = (0.0, 0.0, 0.0)


LOOKS: dict[LightState, Look] = {
    LightState.OFF: Look(Pattern.STEADY, (0.0, 0.0, 0.0)),
    LightState.YOUR_TURN: Look(Pattern.STEADY, (0.6, 0.7, 1.0)),         # blue-white
    LightState.WAITING: Look(Pattern.PULSE, (1.0, 0.5, 0.0)),            # amber
    LightState.LOCKED: Look(Pattern.STEADY, (0.0, 1.0, 0.0)),            # green
    LightState.REFUSED: Look(Pattern.FLASH, (1.0, 0.0, 0.0)),            # red
    LightState.WINNER: Look(Pattern.BLINK, (1.0, 0.8, 0.0), (0.5, 1.0, 0.0)),  # gold / green-gold
    LightState.FAULT: Look(Pattern.STEADY, (1.0, 0.0, 0.0)),             # red
    LightState.ELIGIBLE: Look(Pattern.PULSE, (0.6, 0.7, 1.0)),           # blue-white, pulsing
}

ON, DARK = (1.0, 1.0, 1.0), (0.0, 0.0, 0.0)

# A single-colour LED has only its patterns: the states a seat can be in at one time stay apart
# (waiting pulses, locked is steady; your turn and waiting never happen together).
MONO_LOOKS: dict[LightState, Look] = {
    LightState.OFF: Look(Pattern.STEADY, DARK),
    LightState.YOUR_TURN: Look(Pattern.PULSE, ON),
    LightState.WAITING: Look(Pattern.PULSE, ON),
    LightState.LOCKED: Look(Pattern.STEADY, ON),
    LightState.REFUSED: Look(Pattern.FLASH, ON),
    LightState.WINNER: Look(Pattern.BLINK, ON),
    LightState.FAULT: Look(Pattern.BLINK, ON),
    LightState.ELIGIBLE: Look(Pattern.BLINK, ON),   # never with winner or fault at one seat
}

PULSE_S = 1.0        # fade in, and again fade out
BLINK_S = 0.3        # on, and again off
FLASH_S = 0.1        # on, and again off, per flash
FLASHES = 3


def rgb255(colour: Colour) -> tuple[int, int, int]:
    """A light colour (0-1 per channel) as screen RGB (0-255)."""
    return tuple(round(c * 255) for c in colour)
