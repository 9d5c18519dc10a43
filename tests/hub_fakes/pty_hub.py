"""A seat hub's firmware on the master side of a pty pair, as if on USB: the slave's path is its serial port."""
import os
import threading
import time
import tty
from types import SimpleNamespace

from hub_fakes import RealClock, firmware
from table.hardware.hub import protocol
from table.hardware.hub.host import PICO_MICROPYTHON


class PtyHub:
    """The firmware stepping in a thread, its stream on a pty, with faults a test can inject on the line.

    Outgoing: drop or corrupt the next frame of a kind, send raw bytes
    (garbage, a replayed frame), or have the hub's own link send messages
    of the test's, as (kind, fields), numbered as its next frames.
    Incoming: drop the next host frame of a kind. `sent` keeps every frame
    the hub wrote.
    """

    def __init__(self, board, pads, store, serial_number, heartbeat_ms=50, timeout_ms=1000):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)        # what pyserial does too; kept open so the setting holds
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.port_info = SimpleNamespace(device=self.path, vid=PICO_MICROPYTHON[0], pid=PICO_MICROPYTHON[1],
                                         serial_number=serial_number)
        self.sent = []
        self.drop_out = self.corrupt_out = self.drop_in = None
        self.raw_out = []
        self.messages_out = []
        self._incoming = b""
        self.paused = threading.Event()
        self._stop = threading.Event()
        self.hub = firmware.Hub(board, RealClock, self, pads.driver, store, heartbeat_ms, timeout_ms)
        self._thread = threading.Thread(target=self._run, name="pty hub", daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set() and not self.hub.stopped:
            if not self.paused.is_set():
                while self.messages_out:
                    kind, fields = self.messages_out.pop(0)
                    self.hub.link.send(kind, *fields)
                self.hub.step()
            time.sleep(0.001)

    # --- the firmware's stream

    def read(self):
        try:
            data = os.read(self.master, 4096)
        except OSError:               # nothing waiting, or no host on the line
            return b""
        if self.drop_in is None:
            return data
        frames = (self._incoming + data).split(b"\x00")
        self._incoming = frames.pop()
        kept = [frame for frame in frames if not self._take(frame, "drop_in")]
        return b"".join(frame + b"\x00" for frame in kept)

    def write(self, frame):
        while self.raw_out:
            self._send(self.raw_out.pop(0))
        self.sent.append(frame)
        if self._take(frame[:-1], "drop_out"):
            return
        if self._take(frame[:-1], "corrupt_out"):
            frame = frame[:3] + bytes((frame[3] ^ 0x10 or 1,)) + frame[4:]
        self._send(frame)

    def _take(self, frame, fault):
        """Whether `frame` is of the kind the armed `fault` waits for (disarming it)."""
        kind = getattr(self, fault)
        if kind is not None and frame and protocol.decode(frame)[0] == kind:
            setattr(self, fault, None)
            return True
        return False

    def _send(self, data):
        try:
            os.write(self.master, data)
        except OSError:               # the host's end is full or gone, as a USB port drops it
            pass

    def unplug(self):
        """Stop the firmware and take the port away."""
        self._stop.set()
        self._thread.join()
        os.close(self.master)
        os.close(self.slave)
