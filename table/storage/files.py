"""The files of a running table: its journal (owned, with the history of its finished games) and its registry.

One running table owns its journal: a lock file beside it (PATH.lock) names
the process holding it, and a second table opening the same journal is
refused with that name. At start-up a file the table refuses (damaged,
another program's, an unknown format, a write-ahead log without its
database) never stops the table: it is moved aside, kept for whoever can
read it, the table starts afresh in the lobby, and `notices` tell staff.
"""
from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO

from table.storage import StorageBusy, T, open_or_move_aside
from table.storage.history import History
from table.storage.journal import Journal
from table.storage.hall_cards import HallCards, hall_cards_file
from table.storage.registry import TagRegistry

log = logging.getLogger(__name__)


class TableFiles:
    """The journal at `journal` (history.sqlite and games/ beside it) and, if given, the registry at `registry`."""

    def __init__(self, journal: Path, registry: Path | None = None) -> None:
        journal.parent.mkdir(parents=True, exist_ok=True)
        self.notices: list[dict] = []   # {"file", "kept", "why"} for each file moved aside
        self._lock = own(journal)
        try:
            self.journal = self._open(journal, Journal)
            self.journal.history = self._history(journal.parent / "history.sqlite")
            hall = HallCards(hall_cards_file(journal.parent))   # the player cards the café's hall knows
            self.registry = None if registry is None else self._open(registry, lambda path: TagRegistry(path, hall))
        except BaseException:
            self._lock.close()
            raise

    def _open(self, path: Path, kind: Callable[[Path], T]) -> T:
        opened, notice = open_or_move_aside(path, lambda: kind(path))
        if notice is not None:
            self.notices.append(notice)
        return opened

    def _history(self, path: Path) -> History | None:
        """The history; None when the card does not let it be made (full, failing): finished games then stay in
        the journal, archived at a later start."""
        try:
            return self._open(path, History)
        except (OSError, sqlite3.Error) as error:
            log.error("%s: cannot be opened (%s); finished games stay in the journal until it can", path, error)
            return None

    def close(self) -> None:
        for store in (self.registry, self.journal.history, self.journal):
            if store is not None:
                store.close()
        self._lock.close()


def own(journal: Path) -> IO:
    """Own the journal at `journal` for this process: an exclusive lock on JOURNAL.lock, which names the
    process; StorageBusy names the one that holds it already. The lock goes with the process, however it ends."""
    file = open(f"{journal}.lock", "a+")
    try:
        fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        file.seek(0)
        holder = file.read().strip() or "another process"
        file.close()
        raise StorageBusy(journal, f"in use by {holder}: one table per journal") from None
    try:   # who holds it, for the next one: a full card leaves the lock file empty, the lock holds all the same
        file.truncate(0)
        file.write(f"process {os.getpid()} ({' '.join(Path(arg).name for arg in sys.argv[:2])})\n")
        file.flush()
    except OSError as error:
        log.warning("%s.lock: cannot name this process in it (%s)", journal, error)
    return file
