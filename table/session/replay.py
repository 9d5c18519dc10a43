"""The final public state of a journal, for `cardtable replay`."""
from __future__ import annotations

from pathlib import Path

from table.events import EventBus
from table.layout import load_layout
from table.session.table_session import TableSession
from table.storage.journal import Journal

REPLAY_LAYOUT = "sim-8-single"   # inputs are replayed, not read: any game's journal fits its 8 seats


def replay_journal(path: str | Path) -> dict:
    """Replay a journal, checking every entry with its game's rules (JournalError names the first bad one)."""
    journal = Journal(path)
    try:
        session = TableSession(load_layout(REPLAY_LAYOUT), None, journal, EventBus())
    finally:
        journal.close()
    return public_state(session)


def public_state(session: TableSession) -> dict:
    """The session's public state: who sits where, and the game's whole public view with players as seats.

    Keys: game, phase, seats (player index -> seat number), and then everything
    the game's public view holds (players stay engine indices there, as on screen:
    `seats[p]` is player p's seat); `totals` and `winners` also by seat.
    """
    view = session.public()
    if view is None:
        return {"game": session.menu.game, "phase": "lobby", "joined": session.joined,
                "options": dict(session.menu.options)}
    seats = list(session.players)
    return {
        **view,
        "game": session.game.name,
        "options": dict(session.menu.options),
        "seats": seats,
        "totals": {str(seat): total for seat, total in zip(seats, view["totals"])},
        "winners": [seats[p] for p in view["winners"]],
    }
