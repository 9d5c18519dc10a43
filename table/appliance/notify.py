"""systemd's notify protocol (sd_notify(3)), spoken directly: READY=1, STATUS=..., WATCHDOG=1 and STOPPING=1
sent as datagrams to $NOTIFY_SOCKET; nothing at all when systemd did not start the process.

The run loop makes one `Notifier` and calls `ready()` once the first frame is
drawn and the readers polled, `status(text)` whenever what the table does
changes, `watchdog()` every frame (it sends at most once per
`watchdog_interval`) and `stopping()` when it stops.
"""
from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)


def socket_address(value: str) -> str | None:
    """The address to send to for a $NOTIFY_SOCKET value: a path, or an abstract name ("@name"); else None."""
    if value.startswith("/"):
        return value
    if value.startswith("@") and len(value) > 1:
        return "\0" + value[1:]
    return None


def watchdog_interval(environ: Mapping[str, str] = os.environ, pid: int | None = None) -> float | None:
    """Seconds between two WATCHDOG=1 messages (half of $WATCHDOG_USEC, as systemd advises) when the watchdog is
    armed for process `pid` (this one by default), else None."""
    usec = environ.get("WATCHDOG_USEC", "")
    owner = environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if owner and owner != str(os.getpid() if pid is None else pid):
        return None
    return int(usec) / 2e6


class Notifier:
    """The process's messages to systemd: each method returns whether a message was sent (never raises)."""

    def __init__(self, environ: Mapping[str, str] = os.environ, pid: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.address = socket_address(environ.get("NOTIFY_SOCKET", ""))
        self.watchdog_interval = watchdog_interval(environ, pid) if self.address else None
        self._clock = clock
        self._fed: float | None = None
        self._status: str | None = None
        self._failing = False   # the last message could not be sent (logged once)
        self._socket: socket.socket | None = None

    def send(self, *fields: str) -> bool:
        """One message of `fields` ("KEY=value" each)."""
        if self.address is None:
            return False
        try:   # never blocking: a message nobody reads is dropped, the table's loop goes on
            if self._socket is None:
                kind = socket.SOCK_DGRAM | socket.SOCK_CLOEXEC | socket.SOCK_NONBLOCK
                self._socket = socket.socket(socket.AF_UNIX, kind)
            self._socket.sendto("\n".join(fields).encode(), self.address)
        except OSError as error:
            if not self._failing:   # once, not every frame
                log.warning("cannot tell systemd %s: %s", " ".join(fields), error)
            self._failing = True
            return False
        self._failing = False
        return True

    def ready(self, status: str = "") -> bool:
        """The table is up (the service becomes active), with what it does now."""
        if status:
            self._status = status
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> bool:
        """What the table does now (`systemctl status` shows it); sent only when it changed."""
        if text == self._status:
            return False
        self._status = text
        return self.send(f"STATUS={text}")

    def watchdog(self) -> bool:
        """Feed the watchdog, if armed and its interval has passed since the last feed."""
        now = self._clock()
        if self.watchdog_interval is None or self._fed is not None and now - self._fed < self.watchdog_interval:
            return False
        self._fed = now
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        """The table is stopping on purpose."""
        return self.send("STOPPING=1")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
