"""The event bus: events delivered in order to their subscribers, by a dispatcher thread as soon as published."""
from __future__ import annotations

import threading
import time

from table.events import ButtonDown, EventBus


def wait_for(condition, timeout: float = 10.0) -> bool:
    """Whether `condition()` comes true within `timeout` seconds (a generous bound, never a measure)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


def test_a_dispatcher_thread_delivers_each_event_as_published_and_none_while_the_lock_is_held():
    bus, stop = EventBus(), threading.Event()
    heard: list[ButtonDown] = []
    bus.subscribe(ButtonDown, heard.append)
    dispatcher = threading.Thread(target=bus.run, args=(stop,))
    dispatcher.start()
    try:
        bus.publish(ButtonDown(1, "ok"))
        assert wait_for(lambda: len(heard) == 1)     # nobody called dispatch
        with bus.lock:                                # a reader copying what subscribers change
            bus.publish(ButtonDown(2, "next"))
            bus.publish(ButtonDown(3, "ok"))
            time.sleep(0.05)
            assert len(heard) == 1
        assert wait_for(lambda: len(heard) == 3)
    finally:
        stop.set()
        dispatcher.join()
    assert [(e.seat, e.button) for e in heard] == [(1, "ok"), (2, "next"), (3, "ok")]
