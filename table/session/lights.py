"""Seat lights as a view of the session: what each seat's light shows, pushed to the lights on change."""
from __future__ import annotations

from typing import Mapping

from table.events import Accepted, EventBus, Refused
from table.hardware.ports import LightState, SeatLight
from table.session.table_session import TableSession


def seat_lights(session: TableSession) -> dict[int, LightState]:
    """The steady light of every seat, from what the game needs next."""
    states = {seat.number: LightState.OFF for seat in session.layout.seats}
    if session.state is None:
        states.update({seat: LightState.LOCKED for seat in session.joined})
        return states
    need = session.rules.need(session.state)
    seats = session.players
    if need.done:
        states.update({seats[p]: LightState.WINNER for p in session.state.winners})
    elif need.chance:
        states[seats[session.state.dealer]] = LightState.YOUR_TURN
    elif need.simultaneous:
        states.update({seat: LightState.LOCKED for seat in seats})
        states.update({seats[p]: LightState.WAITING for p in need.players})
    else:
        states.update({seats[p]: LightState.YOUR_TURN for p in need.players})
    return states


class SeatLightsView:
    """Keeps the seat lights in step with the session: steady states on change, a red blink on refusal."""

    def __init__(self, session: TableSession, lights: Mapping[int, SeatLight], bus: EventBus) -> None:
        self.session = session
        self.lights = lights
        self.shown: dict[int, LightState] = {}
        bus.subscribe(Accepted, self.refresh)
        bus.subscribe(Refused, self.blink)
        self.refresh()

    def refresh(self, _event: Accepted | None = None) -> None:
        for seat, state in seat_lights(self.session).items():
            if self.shown.get(seat) != state:
                self.shown[seat] = state
                self.lights[seat].show(state)

    def blink(self, event: Refused) -> None:
        if event.seat is not None:
            self.lights[event.seat].show(LightState.REFUSED)
