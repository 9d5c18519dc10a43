"""An emulated seat hub: the hub firmware itself (firmware/hub/hub.py) on an emulated Pico, behind a pty.

The firmware runs under CPython in a thread, given an `EmulatedPico` where a
Pico gives it the `machine` module; its readers are emulated MFRC522 chips
read by the real driver. Its byte stream is the master side of a pty whose
slave is the hub's serial port: `SeatHub` finds it through `port` (as
pyserial lists a Pico on USB) and talks to it like to a Pico. The readers'
reset line is not emulated: a chip made deaf stays deaf.
"""
from __future__ import annotations

import functools
import importlib.util
import os
import sys
import threading
import time
import tty
from pathlib import Path
from types import ModuleType, SimpleNamespace
from unittest import mock

from table.hardware.hub import protocol
from table.hardware.hub.host import PICO_MICROPYTHON, MonotonicClock
from table.hardware.rfid import mfrc522
from table.hardware.rfid.emulator import EmulatedChip

FIRMWARE = Path(__file__).resolve().parents[3] / "firmware" / "hub" / "hub.py"
STEP_S = 0.001   # between steps (on a Pico each step's poll takes this long; emulated chips take no time)


@functools.cache
def firmware_module() -> ModuleType:
    """firmware/hub/hub.py, importing the protocol and driver modules it shares under their names on a Pico."""
    spec = importlib.util.spec_from_file_location("hub", FIRMWARE)
    module = importlib.util.module_from_spec(spec)
    with mock.patch.dict(sys.modules, {"protocol": protocol, "mfrc522": mfrc522}):
        spec.loader.exec_module(module)
    return module


class EmulatedPico:
    """A Pico as the firmware sees it (the `machine` module: Pin, SPI, PWM, unique_id), with the level of
    each GPIO and the chips behind the readers' chip selects."""

    def __init__(self, uid: bytes, chips: dict[int, EmulatedChip]) -> None:
        self.uid = uid
        self.chips = chips                  # chip-select GPIO -> chip
        self.levels: dict[int, int] = {}    # GPIO -> level, driven by the firmware or by a hand (buttons)
        self.Pin = type("Pin", (_Pin,), {"pico": self})
        self.SPI = type("SPI", (_SPI,), {"pico": self})
        self.PWM = _PWM

    def unique_id(self) -> bytes:
        return self.uid


class _Pin:
    IN, OUT, PULL_UP = 0, 1, 1
    pico: EmulatedPico

    def __init__(self, gpio: int, mode: int = -1, pull: int = -1, value: int | None = None) -> None:
        self.gpio = gpio
        if pull == self.PULL_UP:
            self.pico.levels.setdefault(gpio, 1)
        if value is not None:
            self.value(value)

    def value(self, level: int | None = None) -> int | None:
        if level is None:
            return self.pico.levels.get(self.gpio, 0)
        self.pico.levels[self.gpio] = 1 if level else 0
        return None


class _SPI:
    """The readers' bus: the one chip whose chip select is low answers; none, or several, read as 0xFF."""

    pico: EmulatedPico

    def __init__(self, bus: int, **settings) -> None:
        pass

    def write_readinto(self, write: bytes, read: bytearray) -> None:
        selected = [chip for cs, chip in self.pico.chips.items() if self.pico.levels.get(cs, 1) == 0]
        read[:] = selected[0].transfer(bytes(write)) if len(selected) == 1 else b"\xff" * len(write)


class _PWM:
    """An LED's PWM output; nobody looks at the LEDs (a hand sees the light the host shows)."""

    def __init__(self, pin: _Pin) -> None:
        pass

    def freq(self, hz: int) -> None:
        pass

    def duty_u16(self, duty: int) -> None:
        pass

    def deinit(self) -> None:
        pass


class _Clock(MonotonicClock):
    """MicroPython's time functions for the firmware; emulated chips and cards need no time to start or settle."""

    @staticmethod
    def sleep_ms(ms: int) -> None:
        pass


class _Flash:
    """The hub's config store, empty at power-on: the host pushes the wiring."""

    def __init__(self) -> None:
        self.data = None

    def load(self) -> bytes | None:
        return self.data

    def save(self, data: bytes) -> None:
        self.data = data


class EmulatedHub:
    """One seat hub: the firmware on an EmulatedPico stepping in a thread, its stream on a pty.

    `chips` are its readers by chip-select GPIO; `port` is its serial port as
    pyserial's comports lists it (USB `usb` ids and serial number `serial`).
    """

    def __init__(self, serial: str, chips: dict[int, EmulatedChip], usb: tuple[int, int] = PICO_MICROPYTHON,
                 uid: bytes = bytes(8)) -> None:
        self.pico = EmulatedPico(uid, chips)
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)   # as pyserial sets it; the slave stays open here so the setting holds
        os.set_blocking(self._master, False)
        self.port = SimpleNamespace(device=os.ttyname(self._slave), vid=usb[0], pid=usb[1], serial_number=serial)
        self._held: dict[int, int | None] = {}   # button GPIO -> since when the firmware has seen it down
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._hub = firmware_module().Hub(self.pico, _Clock, self, mfrc522.Mfrc522, _Flash())
        self._thread = threading.Thread(target=self._run, name=f"emulated hub {serial}", daemon=True)
        self._thread.start()

    def press(self, gpio: int) -> None:
        """Press the button on `gpio`; it is let go once the firmware has seen it down long enough to count it."""
        with self._lock:
            self.pico.levels[gpio] = 0
            self._held[gpio] = None

    def close(self) -> None:
        """Stop the firmware and take the port away."""
        self._stop.set()
        self._thread.join()
        os.close(self._master)
        os.close(self._slave)

    def _run(self) -> None:
        hold_ms = 2 * firmware_module().DEBOUNCE_MS   # the firmware counts a press held DEBOUNCE_MS
        while not self._stop.is_set() and not self._hub.stopped:
            with self._lock:
                now = _Clock.ticks_ms()
                self._hub.step()   # sees every button pressed before it, from about `now`
                for gpio, since in list(self._held.items()):
                    if since is None:
                        self._held[gpio] = now
                    elif now - since >= hold_ms:
                        del self._held[gpio]
                        self.pico.levels[gpio] = 1
            time.sleep(STEP_S)

    # --- the firmware's stream

    def read(self) -> bytes:
        try:
            return os.read(self._master, 4096)
        except OSError:   # nothing waiting, or no host on the line
            return b""

    def write(self, frame: bytes) -> None:
        try:
            os.write(self._master, frame)
        except OSError:   # the host's end is full or gone, as a USB port drops it
            pass
