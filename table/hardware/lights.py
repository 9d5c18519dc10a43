"""Seat lights (RGB or single-colour LEDs) and seat buttons on gpiozero devices, one pin factory per board.

The factories come from `table.hardware.pins`: lgpio's on the Pi, one
`MockFactory` per board on a simulated table.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping

from gpiozero import PWMLED, RGBLED, Button
from gpiozero.pins import Factory as PinFactory
from gpiozero.pins.mock import MockFactory

from table.events import ButtonDown, EventBus
from table.hardware.looks import (BLINK_S, DARK, FLASH_S, FLASHES, LOOKS, MONO_LOOKS, PULSE_S, Colour, Look,
                                  Pattern)
from table.hardware.ports import LightState
from table.layout import Layout, Seat
from table.vitals import Heartbeat

BOUNCE_S = 0.05      # button debounce on real pins (mock pins ignore it)
PULSE_STEP_S = 0.04  # how often a pulse's colour is set anew (25 steps a second, as gpiozero's pulse)


class GpioSeatLight:
    """A seat light on a PWM LED, RGB (three pins) or single-colour (one pin), showing each LightState.

    An RGB LED shows the looks of LOOKS, a single-colour one those of
    MONO_LOOKS (by level alone). `show` sets the pins at once, to the look's
    colour; the light thread (`PATTERNS`) plays pulses, blinks and flashes on.
    REFUSED flashes and then shows again the last other state shown, unless
    `show` was called meanwhile.
    """

    def __init__(self, *pins: int, active_high: bool = True, pin_factory: PinFactory | None = None) -> None:
        self._rgb = len(pins) == 3
        self.led = (RGBLED(*pins, active_high=active_high, pwm=True, pin_factory=pin_factory) if self._rgb else
                    PWMLED(*pins, active_high=active_high, pin_factory=pin_factory))
        self._looks = LOOKS if self._rgb else MONO_LOOKS
        self._steady = LightState.OFF        # what REFUSED returns to
        self._since = 0.0                    # when the light began showing `state` (time.monotonic)
        self._colour = DARK
        self.state = LightState.OFF          # what the light shows now

    def show(self, state: LightState) -> None:
        with PATTERNS.lock:
            if self._looks[state].pattern is not Pattern.FLASH:
                self._steady = state
            self.state, self._since = state, time.monotonic()
            PATTERNS.play(self, self._paint(self._since))

    def close(self) -> None:
        """Stop any pattern and release the pins."""
        with PATTERNS.lock:
            PATTERNS.play(self, None)
            self.led.close()

    def _paint(self, now: float) -> float | None:
        """Set the pins to what the light shows at `now` (the steady state again once a flash is over); when that
        changes next (time.monotonic; None: never). Called with PATTERNS.lock held."""
        look = self._looks[self.state]
        if look.pattern is Pattern.FLASH and now - self._since >= 2 * FLASH_S * FLASHES:
            self.state, self._since = self._steady, now
            look = self._looks[self.state]
        t = now - self._since
        colour = colour_at(look, t)
        if colour != self._colour:
            self._colour = colour
            if self._rgb:
                self.led.color = colour
            else:
                self.led.value = max(colour)
        step = {Pattern.STEADY: None, Pattern.PULSE: PULSE_STEP_S, Pattern.BLINK: BLINK_S,
                Pattern.FLASH: FLASH_S}[look.pattern]
        return None if step is None else self._since + (t // step + 1) * step


def colour_at(look: Look, t: float) -> Colour:
    """The colour of `look` `t` seconds after it began: pulses fade from their colour to the other and back,
    blinks and flashes begin with their colour."""
    if look.pattern is Pattern.STEADY:
        return look.colour
    if look.pattern is Pattern.PULSE:
        fade = t / PULSE_S % 2
        fade = fade if fade <= 1 else 2 - fade
        return tuple(round(a + (b - a) * fade, 3) for a, b in zip(look.colour, look.other))
    half = FLASH_S if look.pattern is Pattern.FLASH else BLINK_S
    return look.colour if int(t / half) % 2 == 0 else look.other


class LightPatterns:
    """The one light thread of the process: it plays the pulses, blinks and flashes of every seat light.

    It starts with the first pattern, wakes when a light's colour is due to
    change, and otherwise every IDLE_S to beat its heartbeat. `lock` guards
    every GpioSeatLight's state and pins.
    """

    IDLE_S = 1.0

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self._due: dict[GpioSeatLight, float] = {}   # light -> when its colour changes next (time.monotonic)
        self._thread: threading.Thread | None = None
        self.heartbeat = Heartbeat("light", self.IDLE_S)

    def play(self, light: GpioSeatLight, due: float | None) -> None:
        """Paint `light` again at `due`, or never (None). Called with `lock` held."""
        if due is None:
            self._due.pop(light, None)
            return
        self._due[light] = due
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="lights", daemon=True)
            self._thread.start()
        self.lock.notify()

    def _run(self) -> None:
        with self.lock:
            while True:
                self.heartbeat.beat()
                now = time.monotonic()
                for light, due in list(self._due.items()):
                    if due <= now:
                        self.play(light, light._paint(now))
                self.lock.wait(min(min(self._due.values(), default=now + self.IDLE_S) - now, self.IDLE_S))


PATTERNS = LightPatterns()


def _publisher(bus: EventBus, seat: int, name: str) -> Callable[[], None]:
    return lambda: bus.publish(ButtonDown(seat, name))


class Buttons:
    """The buttons of some seats; each press publishes ButtonDown(seat, name) on the bus.

    gpiozero calls `when_pressed` on its own thread (on mock pins, on the
    thread that drives the pin); `EventBus.publish` is safe from any thread.
    """

    def __init__(self, seats: Iterable[Seat], bus: EventBus, factories: Mapping[str, PinFactory],
                 bounce_time: float | None = BOUNCE_S) -> None:
        self._buttons: list[Button] = []
        for seat in seats:
            for name, pin in seat.buttons:
                button = Button(pin, pin_factory=factories[seat.board], bounce_time=bounce_time)
                button.when_pressed = _publisher(bus, seat.number, name)
                self._buttons.append(button)

    def close(self) -> None:
        """Release the pins."""
        for button in self._buttons:
            button.close()


def build_lights_and_buttons(layout: Layout, bus: EventBus, factories: Mapping[str, PinFactory],
                             seats: Iterable[Seat] | None = None) -> tuple[dict[int, GpioSeatLight], Buttons]:
    """The light (by seat number) and buttons of `seats` (default: every seat), each on its seat's board."""
    seats = tuple(layout.seats if seats is None else seats)
    lights = {seat.number: GpioSeatLight(*seat.light, active_high=not layout.common_anode,
                                         pin_factory=factories[seat.board])
              for seat in seats}
    return lights, Buttons(seats, bus, factories)


def press(factory: MockFactory, pin: int) -> None:
    """Press and release the button on mock `pin` (active low).

    Mock pins ignore bounce_time, so every call is one press, delivered
    before this returns, with no waiting between presses.
    """
    mock = factory.pin(pin)
    mock.drive_low()
    mock.drive_high()
