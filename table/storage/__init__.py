"""SQLite storage: the tag registry, the journal and its archives, the history of games.

Every file is recognised before anything is written into it: an SQLite file
whose `meta` table says it is one of ours, of this kind and of a format this
table reads. Anything else (garbage, a truncated file, another program's
database, a newer format, a write-ahead log without its database) is refused
with one line and left exactly as it is.
"""
import errno
import logging
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar
from datetime import datetime, timezone
from pathlib import Path

log = logging.getLogger(__name__)

T = TypeVar("T")
MEMORY = ":memory:"
SQLITE_HEADER = b"SQLite format 3\x00"
FULL = sqlite3.SQLITE_FULL   # "database or disk is full"
NEARLY_FULL = 256 * 1024     # a write that fails with less space than this left failed for want of space


class StorageRefused(Exception):
    """A storage file the table will not open, and why (one line for the user); the file is left as it is."""

    def __init__(self, path: str | Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = Path(path)
        self.reason = reason


class StorageFault(Exception):
    """A write the card did not take (nothing was written): `what` is "full" (no space left) or "failing"."""

    def __init__(self, path: str | Path, error: Exception) -> None:
        full = (getattr(error, "errno", None) == errno.ENOSPC or (getattr(error, "sqlite_errorcode", 0) & 0xFF) == FULL
                or _space_left(path) < NEARLY_FULL)   # SQLite says "disk I/O error" when its -shm cannot grow
        self.what = "full" if full else "failing"
        super().__init__(f"{path}: the card {'is full' if full else 'failed to write'} ({error})")


def _space_left(path: str | Path) -> float:
    """The bytes left for files beside `path` (infinite when that cannot be told: in memory, gone)."""
    try:
        usage = os.statvfs(Path(path).parent)
    except (OSError, ValueError):
        return float("inf")
    return usage.f_bavail * usage.f_frsize


class StorageBusy(StorageRefused):
    """A file another running table owns (the reason names it): left alone, never moved aside."""


def connect(path: str | Path, read_only: bool = False) -> sqlite3.Connection:
    """An SQLite connection in WAL mode with full sync, usable from the main loop's thread (read-only: as is).

    A write-ahead log without its database holds acknowledged inputs that opening would throw away (SQLite
    deletes a WAL it cannot use): refused, nothing touched."""
    _refuse_lone_wal(path)
    if read_only:   # nothing created or changed beside it: no -wal, no -shm
        if Path(f"{path}-wal").exists():   # SQLite would make or rewrite a -shm beside them: a private copy
            return _read_in_memory(Path(path))
        return sqlite3.connect(f"{Path(path).absolute().as_uri()}?mode=ro&immutable=1", uri=True,
                               check_same_thread=False)   # no write-ahead log to read: an immutable file
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    if str(path) != MEMORY:
        db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    return db


COPY_TRIES = 20   # a reader's copies of a file another process writes, before it reads the last one as it is


def _read_in_memory(path: Path) -> sqlite3.Connection:
    """An in-memory copy of the file at `path` and its -wal, read from a private copy of both: nothing is created
    or changed beside them. Another process may be writing them (the table, while its link reads the outbox):
    the pair is copied again while the database file changed during the copy (a checkpoint), so that the copy
    of the log belongs to the copy of the database; frames the log gains meanwhile are either whole or ignored
    by SQLite (each frame carries its checksum)."""
    with tempfile.TemporaryDirectory(prefix="cardtable-read-") as folder:
        copy = Path(folder) / path.name
        for _ in range(COPY_TRIES):
            before = _stamp(path)
            shutil.copyfile(path, copy)
            shutil.copyfile(f"{path}-wal", f"{copy}-wal")
            if _stamp(path) == before:
                break
        source = sqlite3.connect(copy)
        try:
            memory = sqlite3.connect(MEMORY, check_same_thread=False)
            source.backup(memory)
        finally:
            source.close()
    return memory


def _stamp(path: Path) -> tuple[int, int, int]:
    """What changes when a file is written: its size, modification time and inode."""
    status = path.stat()
    return status.st_size, status.st_mtime_ns, status.st_ino


def _refuse_lone_wal(path: str | Path) -> None:
    if str(path) != MEMORY and not Path(path).exists() and Path(f"{path}-wal").exists():
        raise StorageRefused(f"{path}-wal", f"exists without {path}: it may hold acknowledged inputs; "
                             f"restore {Path(path).name} or move the -wal file away (nothing was changed)")


def open_store(path: str | Path, kind: str, schema: str, version: int, read_only: bool = False,
               legacy_tables: frozenset[str] = frozenset(), older: tuple[int, ...] = ()) -> sqlite3.Connection:
    """A connection to the `kind` file at `path`, created (mode 0600) when missing or empty, unless read-only.

    An existing file is recognised first, read-only: an SQLite file whose meta says `kind` and format
    `version` or one of the `older` formats it still reads (or, made before files named their kind, exactly the
    tables `legacy_tables`). Anything else
    raises StorageRefused and the file is not touched."""
    if str(path) == MEMORY:
        return _created(connect(path), kind, schema, version)
    path = Path(path)
    blank = not path.exists() or path.stat().st_size == 0
    if blank and (read_only or Path(f"{path}-wal").exists()):
        _refuse_lone_wal(path)
        raise StorageRefused(path, f"no {kind} here" if not path.exists() else f"an empty file, not a {kind}")
    if blank:
        path.touch(mode=0o600)
        return _created(connect(path), kind, schema, version)
    _recognise(path, kind, (version, *older), legacy_tables)
    db = connect(path, read_only)
    if not read_only:
        db.executescript(schema)   # tables added since the file was made
        db.execute("INSERT OR IGNORE INTO meta VALUES ('kind', ?)", (kind,))
    return db


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction on `db` (a connection of `connect`): committed at the end, rolled back on any
    exception."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def _created(db: sqlite3.Connection, kind: str, schema: str, version: int) -> sqlite3.Connection:
    db.executescript(schema)
    db.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)", [("kind", kind), ("format", str(version))])
    return db


def is_sqlite(path: Path) -> bool:
    """Whether the file at `path` begins as an SQLite database does."""
    with path.open("rb") as file:
        return file.read(len(SQLITE_HEADER)) == SQLITE_HEADER


def _recognise(path: Path, kind: str, versions: tuple[int, ...], legacy_tables: frozenset[str]) -> None:
    """Refuse (StorageRefused) a file that is not a sound `kind` file of one of the formats `versions` (the
    newest first); reads only."""
    if not is_sqlite(path):
        raise StorageRefused(path, f"not an SQLite file (garbage, or another program's file): not a {kind}")
    try:
        db = connect(path, read_only=True)
        try:
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise StorageRefused(path, f"damaged (truncated or corrupt: {check}): not read as a {kind}")
            tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            meta = dict(db.execute("SELECT key, value FROM meta")) if "meta" in tables else {}
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        raise StorageRefused(path, f"damaged (truncated or corrupt: {error}): not read as a {kind}") from None
    if meta.get("kind", kind if tables == legacy_tables else None) != kind:
        what = f"a cardtable {meta['kind']}" if "kind" in meta else "another program's database"
        raise StorageRefused(path, f"{what}, not a {kind}")
    if meta.get("format", "1") not in map(str, versions):
        raise StorageRefused(path, f"{kind} format {meta.get('format')}, this table reads format "
                                   f"{' or '.join(map(str, versions))}")


def move_aside(path: str | Path) -> Path:
    """Rename a refused file (and its -wal and -shm, kept as a pair) to PATH.refused-STAMP; returns the new path.

    Nothing is deleted: staff can hand the file to someone who can read it."""
    path = Path(path)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    aside = path.with_name(f"{path.name}.refused-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{path}{suffix}").exists():
            os.replace(f"{path}{suffix}", f"{aside}{suffix}")
    return aside


def open_or_move_aside(path: Path, opener: Callable[[], T]) -> tuple[T, dict | None]:
    """`opener()`; if it refuses the file at `path`, move the file aside (kept) and open afresh.

    Returns what was opened and, for a refused file, a notice for staff: {"file", "kept", "why"}. A file
    another table holds is no reason to move anything: StorageBusy goes up."""
    try:
        return opener(), None
    except StorageBusy:
        raise
    except StorageRefused as refused:
        aside = move_aside(path)
        log.error("%s; moved aside to %s (kept) and started afresh", refused, aside.name)
        return opener(), {"file": path.name, "kept": aside.name, "why": refused.reason}
