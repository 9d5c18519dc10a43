"""Signs of life of the table's loop threads, so that the watchdog is fed only while the table really works.

Each thread the table needs (dispatcher, poller, reader nurse, light, seat
hub threads) owns a `Heartbeat` and beats it once per turn of its loop. A
heartbeat is failing when its thread has ended, or has not gone round for
`STUCK_S` seconds more than its loop's longest wait: the run loop then stops
feeding systemd's watchdog, which restarts the table.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable

STUCK_S = 3.0   # a loop that has not gone round for this long past its longest wait is stuck


class Heartbeat:
    """When the loop of thread `name` last went round; `wait_s` is the longest its loop waits between turns."""

    def __init__(self, name: str, wait_s: float = 0.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self.wait_s = wait_s
        self._clock = clock
        self.thread: threading.Thread | None = None   # set by its first beat: until then it has no thread to watch
        self.at = clock()
        self.stopped = False                          # its loop ended on purpose (the table stops)

    def beat(self) -> None:
        """The loop went round, on the thread that owns it."""
        self.at = self._clock()
        self.thread = threading.current_thread()

    def stop(self) -> None:
        """The loop ends on purpose: no longer watched."""
        self.stopped = True

    def problem(self) -> str | None:
        """Why this loop fails (its thread ended, or it is stuck), or None while it goes round."""
        if self.stopped or self.thread is None:
            return None
        if not self.thread.is_alive():
            return f"the {self.name} thread has stopped"
        late = self._clock() - self.at - self.wait_s
        return f"the {self.name} thread is stuck ({late:.1f} s)" if late > STUCK_S else None


def problems(heartbeats: Iterable[Heartbeat]) -> list[str]:
    """Why the table does not work now: one line per failing loop (empty: every loop goes round)."""
    return [problem for beat in heartbeats if (problem := beat.problem()) is not None]
