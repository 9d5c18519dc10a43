"""One table's whole pipeline, the same for real, emulated and simulated hardware.

readers -> poller -> bus -> presence -> session -> seat lights (and live.json beside an on-disk journal); the screen
reads `session.table_view()`. Only the adapters passed in differ.
"""
from __future__ import annotations

import time
from pathlib import Path

from table.appliance.checks import in_brief, protections, table_health
from table.events import EventBus
from table.hardware.build import Builder
from table.hardware.lights import PATTERNS
from table.hardware.poller import ReaderPoller
from table.hardware.presence import PresenceTracker
from table.layout import Layout
from table.session.faults import ReaderFaults
from table.session.lights import SeatLightsView, seat_lights
from table.session.live import LiveFile
from table.session.table_session import TableSession
from table.storage.journal import Journal
from table.storage.outbox import LIVE
from table.storage.registry import TagRegistry
from table.vitals import Heartbeat

VIEW_WAIT_S = 0.5   # how long the screen waits for the dispatcher to let it read the table


class Table:
    """The pipeline of one table, wired on one bus; `game` is the game the lobby offers first."""

    def __init__(self, layout: Layout, hardware: Builder, registry: TagRegistry, journal: Journal,
                 game: str | None = None) -> None:
        self.layout = layout
        self.bus = EventBus()
        self.hardware = hardware(self.bus)
        self.lights = self.hardware.lights
        self.steps = 0
        # the table's clock as it is when read: one set on the table later (a demo's, a test's) times the rounds too
        self.poller = ReaderPoller(self.hardware.readers.values(), self.bus, lambda: self.clock())
        self.presence = PresenceTracker(self.bus, layout.presence.place_after, layout.presence.remove_after)
        self.session = TableSession(layout, registry, journal, self.bus, game)
        self.faults = ReaderFaults(layout, self.bus)
        self.light_view = SeatLightsView(self.session, self.faults, self.lights, self.bus)
        self.session.checkup = self.checkup
        self.live = LiveFile(self.session, self.bus, journal.path.parent / LIVE) if journal.on_disk else None
        self._view: dict | None = None   # the last table view

    def step(self) -> None:
        """Poll every reader once and deliver what follows (the headless, clockless loop)."""
        self.steps += 1
        self.poller.poll_once()
        self.bus.dispatch()

    def clock(self) -> float:
        """The health loop's time in seconds: the monotonic clock, plus a poll interval per `step`, as the clockless
        loop polls faster than real time (simulated hands, the demo)."""
        return time.monotonic() + self.steps * self.layout.presence.poll_interval

    def table_view(self) -> dict:
        """The screen's input: the session's table view plus the seat lights and the faulty readers, copied under
        the bus's lock (whole, whichever thread dispatches). While the dispatcher holds the lock for longer than
        VIEW_WAIT_S (stuck), the last view again: the screen and the run loop, which tells systemd, go on."""
        if not self.bus.lock.acquire(timeout=VIEW_WAIT_S):
            if self._view is not None:
                return self._view
            self.bus.lock.acquire()
        try:
            view = self.session.table_view()
            view["lights"] = {seat: state.value for seat, state in seat_lights(self.session, self.faults).items()}
            view["faults"] = self.faults.view()
        finally:
            self.bus.lock.release()
        self._view = view
        return view

    def checkup(self) -> list[dict]:
        """The staff menu's health page: every reader and hub, then the machine's protections."""
        journal = self.session.journal.path
        checks = in_brief(table_health(self)) + (protections(journal.parent) if isinstance(journal, Path) else [])
        return [{"key": c.key, "ok": c.ok, "params": dict(c.params)} for c in checks]

    def heartbeats(self) -> list[Heartbeat]:
        """The signs of life of every thread this table needs: dispatcher, poller, reader nurse, lights, hubs."""
        hubs = [hub.heartbeat for hub in self.hardware.hubs.values()]
        return [self.bus.heartbeat, *self.poller.heartbeats, PATTERNS.heartbeat, *hubs]

    def close(self) -> None:
        self.hardware.close()
