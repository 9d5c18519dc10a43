"""One table's whole pipeline, the same for real, emulated and simulated hardware.

readers -> poller -> bus -> presence -> session -> seat lights; the screen
reads `session.table_view()`. Only the adapters passed in differ.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from gpiozero.pins import Factory as PinFactory

from table.events import EventBus
from table.hardware.lights import build_lights_and_buttons
from table.hardware.poller import ReaderPoller
from table.hardware.ports import Reader
from table.hardware.presence import PresenceTracker
from table.layout import Layout
from table.session.faults import ReaderFaults
from table.session.lights import SeatLightsView, seat_lights
from table.session.table_session import TableSession
from table.storage.journal import Journal
from table.storage.registry import TagRegistry


class Table:
    """The pipeline of one table, wired on one bus."""

    def __init__(self, layout: Layout, readers: Iterable[Reader], factories: Mapping[str, PinFactory],
                 registry: TagRegistry, journal: Journal, game: str = "feira-torio",
                 place_after: int = 2, remove_after: int = 6) -> None:
        self.layout = layout
        self.bus = EventBus()
        self.poller = ReaderPoller(readers, self.bus)
        self.presence = PresenceTracker(self.bus, place_after, remove_after)
        self.session = TableSession(layout, registry, journal, self.bus, game)
        self.lights, self.buttons = build_lights_and_buttons(layout, self.bus, dict(factories))
        self.faults = ReaderFaults(layout, self.bus)
        self.light_view = SeatLightsView(self.session, self.faults, self.lights, self.bus)

    def step(self) -> None:
        """Poll every reader once and deliver what follows (the headless, clockless loop)."""
        self.poller.poll_once()
        self.bus.dispatch()

    def table_view(self) -> dict:
        """The screen's input: the session's table view plus the seat lights and the faulty readers."""
        view = self.session.table_view()
        view["lights"] = {seat: state.value for seat, state in seat_lights(self.session, self.faults).items()}
        view["faults"] = self.faults.view()
        return view

    def close(self) -> None:
        for light in self.lights.values():
            light.close()
        self.buttons.close()
