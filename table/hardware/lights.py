"""Seat lights (RGB or single-colour LEDs) and seat buttons on gpiozero devices, one pin factory per board.

The factories come from `table.hardware.pins`: lgpio's on the Pi, one
`MockFactory` per board on a simulated table.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping

from gpiozero import PWMLED, RGBLED, Button
from gpiozero.pins import Factory as PinFactory
from gpiozero.pins.mock import MockFactory

from table.events import ButtonDown, EventBus
from table.hardware.looks import BLINK_S, FLASH_S, FLASHES, LOOKS, MONO_LOOKS, PULSE_S, Look, Pattern
from table.hardware.ports import LightState
from table.layout import Layout, Seat

BOUNCE_S = 0.05      # button debounce on real pins (mock pins ignore it)


class _RgbLed:
    """An RGB LED on three PWM pins: every look in its colours."""

    looks = LOOKS

    def __init__(self, pins: tuple[int, ...], active_high: bool, pin_factory: PinFactory | None) -> None:
        self.led = RGBLED(*pins, active_high=active_high, pwm=True, pin_factory=pin_factory)

    def steady(self, look: Look) -> None:
        self.led.color = look.colour

    def pulse(self, look: Look) -> None:
        self.led.pulse(PULSE_S, PULSE_S, on_color=look.colour, off_color=look.other)

    def blink(self, look: Look, half_s: float, n: int | None = None) -> None:
        self.led.blink(half_s, half_s, on_color=look.colour, off_color=look.other, n=n)


class _MonoLed:
    """A single-colour LED on one PWM pin: every look by its pattern alone (MONO_LOOKS)."""

    looks = MONO_LOOKS

    def __init__(self, pins: tuple[int, ...], active_high: bool, pin_factory: PinFactory | None) -> None:
        self.led = PWMLED(*pins, active_high=active_high, pin_factory=pin_factory)

    def steady(self, look: Look) -> None:
        self.led.value = max(look.colour)

    def pulse(self, look: Look) -> None:
        self.led.pulse(PULSE_S, PULSE_S)

    def blink(self, look: Look, half_s: float, n: int | None = None) -> None:
        self.led.blink(half_s, half_s, n=n)


class GpioSeatLight:
    """A seat light on a PWM LED, RGB (three pins) or single-colour (one pin), showing each LightState.

    An RGB LED shows the looks of LOOKS, a single-colour one those of
    MONO_LOOKS. REFUSED flashes and then shows again the last other state
    shown, unless `show` was called meanwhile.
    """

    def __init__(self, *pins: int, active_high: bool = True, pin_factory: PinFactory | None = None) -> None:
        self._led = (_RgbLed if len(pins) == 3 else _MonoLed)(pins, active_high, pin_factory)
        self._lock = threading.Lock()
        self._shown = 0                      # counts `show` calls, to drop a stale restore
        self._restore: threading.Timer | None = None
        self._steady = LightState.OFF        # what REFUSED returns to
        self.state = LightState.OFF          # what the light shows now

    def show(self, state: LightState) -> None:
        with self._lock:
            self._shown += 1
            self._cancel_restore()
            look = self._led.looks[state]
            if look.pattern is Pattern.FLASH:
                self._led.blink(look, FLASH_S, n=FLASHES)
                self._restore = threading.Timer(2 * FLASH_S * FLASHES, self._end_flash, (self._shown,))
                self._restore.daemon = True
                self._restore.start()
            else:
                self._steady = state
                self._apply(look)
            self.state = state

    def close(self) -> None:
        """Stop any pattern and release the pins."""
        with self._lock:
            self._shown += 1
            self._cancel_restore()
            self._led.led.close()

    def _end_flash(self, shown: int) -> None:
        with self._lock:
            if shown == self._shown:
                self._apply(self._led.looks[self._steady])
                self.state = self._steady

    def _apply(self, look: Look) -> None:
        if look.pattern is Pattern.STEADY:
            self._led.steady(look)
        elif look.pattern is Pattern.PULSE:
            self._led.pulse(look)
        else:
            self._led.blink(look, BLINK_S)

    def _cancel_restore(self) -> None:
        if self._restore is not None:
            self._restore.cancel()
            self._restore = None


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
