"""Seat lights as a view of the session: what each seat's light shows, pushed to the lights on change."""
from __future__ import annotations

from typing import Mapping

from table.events import Accepted, EventBus, ReaderDead, ReaderFailed, ReaderRecovered, Refused
from table.games.contract import Need
from table.hardware.ports import LightState, SeatLight
from table.session.faults import ReaderFaults
from table.session.table_session import TableSession


def seat_lights(session: TableSession, faults: ReaderFaults | None = None) -> dict[int, LightState]:
    """The steady light of every seat: FAULT where a reader of the seat is faulty, else what the game needs."""
    states = _game_lights(session)
    states.update({seat: LightState.FAULT for seat in (faults.seats() if faults else ())})
    return states


def _game_lights(session: TableSession) -> dict[int, LightState]:
    """What the game needs of each seat, from its `Need` and, at the end, its winners."""
    states = {seat.number: LightState.OFF for seat in session.layout.seats}
    if session.state is None:
        states.update({seat: LightState.LOCKED for seat in session.joined})
        return states
    need = session.game.rules.need(session.state)
    states.update(need_lights(need, session.players, session.public()["winners"]))
    return states


def need_lights(need: Need, seats: tuple[int, ...], winners: list[int]) -> dict[int, LightState]:
    """The lights of the playing `seats` (in player order) for what the game needs next."""
    if need.done:
        return {seats[p]: LightState.WINNER for p in winners}
    if need.chance:
        return {} if need.by is None else {seats[need.by]: LightState.YOUR_TURN}
    if need.simultaneous:
        return {seat: LightState.WAITING if p in need.players else LightState.LOCKED for p, seat in enumerate(seats)}
    look = LightState.ELIGIBLE if need.any_of else LightState.YOUR_TURN
    return {seats[p]: look for p in need.players}


class SeatLightsView:
    """Keeps the seat lights in step with the session and the readers' health: steady states on change,
    a red blink on refusal."""

    def __init__(self, session: TableSession, faults: ReaderFaults, lights: Mapping[int, SeatLight],
                 bus: EventBus) -> None:
        self.session = session
        self.faults = faults
        self.lights = lights
        self.shown: dict[int, LightState] = {}
        for event in (Accepted, ReaderFailed, ReaderDead, ReaderRecovered):
            bus.subscribe(event, self.refresh)
        bus.subscribe(Refused, self.blink)
        self.refresh()

    def refresh(self, _event: object = None) -> None:
        for seat, state in seat_lights(self.session, self.faults).items():
            if self.shown.get(seat) != state:
                self.shown[seat] = state
                self.lights[seat].show(state)

    def blink(self, event: Refused) -> None:
        if event.seat is not None:
            self.lights[event.seat].show(LightState.REFUSED)
