"""What the table hands the café link: the outbox, live.json, and how far the hall holds the games (link.sqlite).

The table writes the outbox (in history.sqlite, in the transaction that
records a finished game) and live.json (its public state now). The link
reads both and never writes them; it records the hall's acknowledgement in
its own file, link.sqlite, in the folder cardtable-link beside the table's
state directory. The table deletes the outbox rows up to that
acknowledgement when it next writes its history. One writer per file.

Each outbox has a random id, made with its history file: a history set
aside (damaged) and made afresh counts its games from 1 again, under a new
id, so its games are never taken for the old ones, and an acknowledgement
counts only for the outbox it names.
"""
from __future__ import annotations

import json
import logging
import os
import sqlite3
from pathlib import Path

from table.storage import StorageRefused, connect, open_store

LINK_FOLDER = "cardtable-link"
LIVE = "live.json"
KIND = "link"
FORMAT = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS acked (
    one    INTEGER PRIMARY KEY CHECK (one = 1),
    outbox TEXT NOT NULL,      -- the id of the outbox acknowledged
    seq    INTEGER NOT NULL    -- the hall holds its games 1..seq
);
"""

log = logging.getLogger(__name__)


def link_file(state: Path) -> Path:
    """The link's file for the table whose state directory is `state`."""
    return state.parent / LINK_FOLDER / "link.sqlite"


class Acks:
    """link.sqlite, written by the link only: the outbox the hall acknowledged last, and the highest seq of it
    the hall holds with every lower one."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = open_store(path, KIND, SCHEMA, FORMAT)

    def seq(self, outbox: str) -> int:
        """The acknowledgement of outbox `outbox` (0: none)."""
        return _seq(self._db, outbox)

    def record(self, outbox: str, seq: int) -> None:
        """Record the hall's acknowledgement `seq` of outbox `outbox` (never moves back within one outbox)."""
        self._db.execute("INSERT INTO acked VALUES (1, ?, ?) ON CONFLICT (one) DO UPDATE SET outbox = ?, "
                         "seq = CASE WHEN outbox = ? THEN max(seq, ?) ELSE ? END", (outbox, seq, outbox, outbox, seq, seq))

    def close(self) -> None:
        self._db.close()


def acked(path: Path, outbox: str) -> int:
    """The acknowledgement of outbox `outbox` recorded in the link's file at `path`, read-only (0: none, another
    outbox's, or unreadable)."""
    if not path.exists():
        return 0
    try:
        db = open_store(path, KIND, SCHEMA, FORMAT, read_only=True)
        try:
            return _seq(db, outbox)
        finally:
            db.close()
    except (OSError, sqlite3.Error, StorageRefused) as error:
        log.warning("%s: the hall's acknowledgement cannot be read (%s): the outbox keeps every game", path, error)
        return 0


def _seq(db: sqlite3.Connection, outbox: str) -> int:
    row = db.execute("SELECT seq FROM acked WHERE outbox = ?", (outbox,)).fetchone()
    return 0 if row is None else int(row[0])


def pending(history: Path, above: int, limit: int) -> tuple[str | None, list[tuple[int, str, str, str]]]:
    """The outbox's id in the history at `history` and up to `limit` of its rows after seq `above`, in order:
    (seq, kind, body, at); read-only (no id and no rows while there is no history, or one not written since it
    has an outbox)."""
    if not history.exists():
        return None, []
    db = connect(history, read_only=True)
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'outbox'").fetchone()
        if row is None:
            return None, []
        return row[0], db.execute("SELECT seq, kind, body, at FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?",
                                  (above, limit)).fetchall()
    finally:
        db.close()


def write_live(path: Path, state: dict) -> None:
    """Replace the file at `path` by `state` as JSON, atomically (a reader sees the old file or the new one)."""
    draft = path.with_name(path.name + ".new")
    draft.write_text(json.dumps(state, sort_keys=True, ensure_ascii=False))
    os.replace(draft, path)
