"""Seat hub firmware entry point on a Raspberry Pi Pico: binds hub.Hub to the real machine.

Runs at boot. Frames travel on the USB serial port (sys.stdin/stdout), so
Ctrl-C (0x03) is made an ordinary byte while the hub serves; a STOP message
from the host ends the loop and gives the REPL back (firmware/deploy.sh).
"""
import select
import sys
import time

import machine
import micropython

from hub import Hub
from mfrc522 import Mfrc522

CONFIG_FILE = "hub_config.bin"


class UsbSerial:
    """The USB CDC serial port as a byte stream that never blocks on read."""

    def __init__(self):
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self):
        data = bytearray()
        while len(data) < 256 and self._poll.poll(0):
            data.extend(sys.stdin.buffer.read(1))
        return data

    def write(self, data):
        sys.stdout.buffer.write(data)


class FileStore:
    """The last configuration the host sent, kept in flash across power cycles."""

    def load(self):
        try:
            with open(CONFIG_FILE, "rb") as f:
                return f.read()
        except OSError:
            return None

    def save(self, data):
        with open(CONFIG_FILE, "wb") as f:
            f.write(data)


def main():
    micropython.kbd_intr(-1)
    try:
        hub = Hub(machine, time, UsbSerial(), Mfrc522, FileStore())
        while not hub.stopped:
            hub.step()
            if not hub.readers:   # with readers, each step's poll paces the loop: no sleep adds to a round
                time.sleep_ms(1)
    except Exception:   # a hub that breaks starts again rather than sit silent under the table
        time.sleep_ms(1000)
        machine.reset()
    finally:
        micropython.kbd_intr(3)


main()
