"""The final public state of a journal, for `cardtable replay`."""
from __future__ import annotations

from pathlib import Path

from table.events import EventBus
from table.layout import load_layout
from table.session.table_session import TableSession
from table.storage.journal import Journal

REPLAY_LAYOUT = "sim-6-single"   # inputs are replayed, not read: any layout with enough seats will do


def replay_journal(path: str | Path) -> dict:
    """Replay a journal; return game, phase, hand, and per seat totals and public holdings, and the centre."""
    journal = Journal(path)
    try:
        session = TableSession(load_layout(REPLAY_LAYOUT), None, journal, EventBus())
    finally:
        journal.close()
    return public_state(session)


def public_state(session: TableSession) -> dict:
    """The session's public state keyed by seat number (as `cardtable replay --json` prints it)."""
    view = session.public()
    if view is None:
        return {"game": session.rules.NAME, "phase": "lobby", "joined": session.joined}
    seats = [str(s) for s in session.players]
    return {
        "game": view["game"],
        "phase": view["phase"],
        "hand": view["hand"],
        "round": view["round"],
        "seats": list(session.players),
        "dealer": session.players[view["dealer"]],
        "totals": dict(zip(seats, view["totals"])),
        "holdings": dict(zip(seats, view["holdings"])),
        "centre": view["centre"],
        "committed": dict(zip(seats, view["committed"])),
        "winners": [session.players[p] for p in view["winners"]],
    }
