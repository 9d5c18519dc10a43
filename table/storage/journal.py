"""The journal: every accepted input, appended (and synced) before it is acknowledged.

The journal is the truth: the table's state after a power cut is the replay
of its journal. It holds sealed bids, so it is a private file (mode 0600) and
never a log. Format: docs/journal.md.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from table.storage import connect

FORMAT = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    seq  INTEGER PRIMARY KEY,   -- 1, 2, 3 ... in the order the inputs were accepted
    at   TEXT NOT NULL,         -- UTC time, ISO 8601
    kind TEXT NOT NULL,         -- join, start, action, lobby
    data TEXT NOT NULL          -- JSON object, see docs/journal.md
);
"""


class Journal:
    """An append-only SQLite journal of table inputs."""

    def __init__(self, path: str | Path = ":memory:") -> None:
        if str(path) != ":memory:" and not Path(path).exists() and not Path(f"{path}-wal").exists():
            Path(path).touch(mode=0o600)   # a lone -wal is refused by connect, before anything is created
        self._db = connect(path)
        self._db.executescript(SCHEMA)
        self._db.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)", (str(FORMAT),))
        found = int(self._db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()[0])
        if found != FORMAT:
            raise ValueError(f"{path}: journal format {found}, this table reads format {FORMAT}")

    def append(self, kind: str, data: dict) -> int:
        """Write one entry durably; returns its sequence number."""
        at = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        cursor = self._db.execute(
            "INSERT INTO entries (at, kind, data) VALUES (?, ?, ?)", (at, kind, json.dumps(data, sort_keys=True)))
        return cursor.lastrowid

    def entries(self) -> Iterator[tuple[int, str, dict]]:
        """Every entry in order: (seq, kind, data)."""
        for seq, kind, data in self._db.execute("SELECT seq, kind, data FROM entries ORDER BY seq"):
            yield seq, kind, json.loads(data)

    def close(self) -> None:
        self._db.close()
