"""SQLite storage: the tag registry and the journal."""
import sqlite3
from pathlib import Path


def connect(path: str | Path) -> sqlite3.Connection:
    """An SQLite connection in WAL mode with full sync, usable from the main loop's thread."""
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    if str(path) != ":memory:":
        db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    return db
