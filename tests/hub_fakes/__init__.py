"""Fakes of a Pico and its world, to run the seat hub firmware under CPython.

`firmware` is firmware/hub/hub.py itself, imported with the shared
protocol and driver modules under the names they have on the Pico (only
while it is imported: "mfrc522" is also the name of the pip package the
reader tests run).
"""
import importlib.util
import sys
import time
from pathlib import Path
from unittest import mock

from table.hardware.hub import protocol
from table.hardware.rfid import mfrc522
from table.hardware.hub.host import MonotonicClock

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware" / "hub"

sys.modules.setdefault("protocol", protocol)
_spec = importlib.util.spec_from_file_location("hub", FIRMWARE_DIR / "hub.py")
firmware = importlib.util.module_from_spec(_spec)
with mock.patch.dict(sys.modules, {"mfrc522": mfrc522}):
    _spec.loader.exec_module(firmware)


class FakeClock:
    """MicroPython's time functions on a clock that moves only when told."""

    def __init__(self, now=1000):
        self.now = now

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        self.now += ms


class RealClock(MonotonicClock):
    """MicroPython's time functions on the host's monotonic clock."""

    @staticmethod
    def sleep_ms(ms):
        time.sleep(ms / 1000)


class MemoryStore:
    """The hub's config store, in memory."""

    def __init__(self, data=None):
        self.data = data

    def load(self):
        return self.data

    def save(self, data):
        self.data = data
