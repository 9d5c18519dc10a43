"""SQLite storage: the tag registry and the journal."""
import sqlite3
from pathlib import Path


class StorageRefused(Exception):
    """A storage file the table will not open, and why (one line for the user); the file is left as it is."""


def connect(path: str | Path) -> sqlite3.Connection:
    """An SQLite connection in WAL mode with full sync, usable from the main loop's thread.

    A write-ahead log without its database holds acknowledged inputs that opening would throw away (SQLite
    deletes a WAL it cannot use): refused, nothing touched."""
    if str(path) != ":memory:" and not Path(path).exists() and Path(f"{path}-wal").exists():
        raise StorageRefused(f"{path}-wal exists without {path}: it may hold acknowledged inputs; "
                             f"restore {Path(path).name} or move the -wal file away (nothing was changed)")
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    if str(path) != ":memory:":
        db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    return db
