"""Typed events and the bus that carries them from hardware threads to their subscribers.

Hardware threads only `publish`; one thread `dispatch`es, handing each event,
in order, to the subscribers of its type under the bus's `lock`: in
`cardtable run` a dispatcher thread woken by each event (`run`), elsewhere the
thread that steps the table. So the session, journal and views change on one
thread at a time; another thread that reads them takes `lock`.
"""
from __future__ import annotations

import logging
import queue
import threading
import traceback
from collections import defaultdict
from dataclasses import dataclass, field
from time import perf_counter_ns
from typing import Callable

from table.vitals import Heartbeat

log = logging.getLogger(__name__)


def log_failure(logger: logging.Logger, what: str, error: BaseException) -> None:
    """Log that `what` failed with `error`: its kind and its stack, never its message (a message may quote the
    data handled, and a sealed card must never reach a log)."""
    stack = "".join(traceback.format_tb(error.__traceback__))
    logger.error("%s failed (%s); the table goes on. Stack:\n%s", what, type(error).__name__, stack.rstrip())


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event; `at_ns` is when it happened (perf_counter_ns)."""

    at_ns: int = field(default_factory=perf_counter_ns, kw_only=True, compare=False)


# --- raw hardware events (published by hardware threads)

@dataclass(frozen=True, slots=True)
class RawRead(Event):
    """One poll of reader `pad`: the UID it saw (hex), or None when it saw no card."""

    pad: str
    uid: str | None


@dataclass(frozen=True, slots=True)
class Tick(Event):
    """The poller's clock after a round of polls, in seconds: a game clock counts play time with it."""

    now: float


@dataclass(frozen=True, slots=True)
class ButtonDown(Event):
    """Button `button` ("next" or "ok") of seat `seat` was pressed."""

    seat: int
    button: str


@dataclass(frozen=True, slots=True)
class PowerAsked(Event):
    """Staff asked from the staff menu to shut the machine down ("poweroff") or restart it ("reboot")."""

    what: str


@dataclass(frozen=True, slots=True)
class ReaderFailed(Event):
    """Reader `pad` stopped answering properly (`reason`); the health loop resets it."""

    pad: str
    reason: str


@dataclass(frozen=True, slots=True)
class ReaderDead(Event):
    """Reader `pad` did not come back after every reset allowed; it is still retried, rarely."""

    pad: str


@dataclass(frozen=True, slots=True)
class ReaderRecovered(Event):
    """Reader `pad`, reported failed or dead, answers again."""

    pad: str


@dataclass(frozen=True, slots=True)
class ProofAsked(Event):
    """The session asks the card `uid` on `pad` to prove it holds `password` (a staff card, before its menu opens);
    the poller asks the pad's reader between two rounds. `password` is never shown or logged (repr hides it)."""

    pad: str
    uid: str
    password: bytes = field(repr=False)


@dataclass(frozen=True, slots=True)
class ProofGiven(Event):
    """What card `uid` on `pad` answered: the PACK of its password, or None (no such card there now, another
    password, a clone without one). `able` is False when the pad's reader cannot ask a card at all."""

    pad: str
    uid: str
    pack: bytes | None = field(repr=False)
    able: bool = True


# --- presence (from raw reads, after debounce)

@dataclass(frozen=True, slots=True)
class CardPlaced(Event):
    """A tag settled on a pad (K equal reads)."""

    pad: str
    uid: str


@dataclass(frozen=True, slots=True)
class CardRemoved(Event):
    """The tag left the pad (M missed reads)."""

    pad: str
    uid: str


@dataclass(frozen=True, slots=True)
class PadSeenEmpty(Event):
    """Since start-up, pad `pad` has read no card M times in a row before any card settled on it."""

    pad: str


# --- session outcomes (for views)

@dataclass(frozen=True, slots=True)
class Accepted(Event):
    """An input was journaled and applied; `seat` is the table seat it came from, if any."""

    seat: int | None
    what: str


@dataclass(frozen=True, slots=True)
class Refused(Event):
    """An input was refused and changed nothing; `message` is a translation key with `params`."""

    seat: int | None
    message: str
    params: tuple[tuple[str, object], ...] = ()


Handler = Callable[[Event], None]

WAKE_S = 0.1   # how long a dispatcher thread waits for an event before it looks whether it must stop


class EventBus:
    """A thread-safe queue of events and, per event type, the subscribers to call; `lock` is held while events
    are delivered. A subscriber that raises is logged with its stack and the next one is called: nothing a
    subscriber does stops the delivery of events."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self._subscribers: dict[type, list[Handler]] = defaultdict(list)
        self.lock = threading.RLock()
        self.heartbeat = Heartbeat("dispatcher", WAKE_S)

    def subscribe(self, kind: type, handler: Handler) -> None:
        self._subscribers[kind].append(handler)

    def publish(self, event: Event) -> None:
        """Queue an event; safe from any thread."""
        self._queue.put(event)

    def dispatch(self, timeout: float | None = None) -> int:
        """Deliver every queued event, the ones their subscribers publish included, all under `lock` (waiting up
        to `timeout` for the first, without it); returns how many."""
        count = 0
        try:
            event = self._queue.get(timeout=timeout) if timeout else self._queue.get_nowait()
        except queue.Empty:
            return 0
        with self.lock:
            while True:
                for handler in self._subscribers.get(type(event), ()):
                    try:
                        handler(event)
                    except Exception as error:
                        log_failure(log, f"{handler!r} on {type(event).__name__}", error)
                self.heartbeat.beat()   # a stream of events is no stuck dispatcher
                count += 1
                try:
                    event = self._queue.get_nowait()
                except queue.Empty:
                    return count

    def run(self, stop: threading.Event) -> None:
        """Deliver each event as soon as it is published, until `stop` is set; the body of a dispatcher thread."""
        while not stop.is_set():
            self.heartbeat.beat()
            self.dispatch(WAKE_S)
        self.heartbeat.stop()
