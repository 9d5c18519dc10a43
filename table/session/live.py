"""live.json: the table's public state now, beside its journal, for the café link (docs/cafe.md)."""
from __future__ import annotations

import logging
from pathlib import Path

from table.events import Accepted, EventBus
from table.session.replay import public_state
from table.session.table_session import TableSession
from table.storage.outbox import write_live

log = logging.getLogger(__name__)


class LiveFile:
    """Keeps the file at `path` equal to `public_state(session)`: written at once and after each accepted input,
    when it changed. Nothing secret: only what `cardtable replay --json` shows."""

    def __init__(self, session: TableSession, bus: EventBus, path: Path) -> None:
        self.session = session
        self.path = path
        self._written: dict | None = None
        bus.subscribe(Accepted, self.write)
        self.write()

    def write(self, _event: Accepted | None = None) -> None:
        state = public_state(self.session)
        if state == self._written:
            return
        try:
            write_live(self.path, state)
        except OSError as error:   # the table plays on: the link shows the last state it could read
            log.warning("%s: cannot be written (%s)", self.path, error.strerror)
            return
        self._written = state
