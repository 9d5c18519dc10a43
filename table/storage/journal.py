"""The journal: every accepted input, appended (and synced) before it is acknowledged.

The journal is the truth: the table's state after a power cut is the replay
of its journal. It holds sealed bids, so it is a private file (mode 0600) and
never a log. The live journal holds only the lobby and the game in play: a
finished game's entries move to an archive file (games/ beside the journal)
and its result to the history, so that start-up never replays old games.
Format: docs/journal.md.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from table.storage import MEMORY, StorageFault, StorageRefused, connect, move_aside, open_store, transaction
from table.storage.chain import first_break, link, new_id
from table.storage.history import History, Played

FORMAT = 2        # 2: entries chained (table/storage/chain.py); 1, unchained, is still read and upgraded
OLDER = (1,)
KIND = "journal"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    seq  INTEGER PRIMARY KEY,   -- 1, 2, 3 ... in the order the inputs were accepted
    at   TEXT NOT NULL,         -- UTC time, ISO 8601
    kind TEXT NOT NULL,         -- menu, join, start, action, cursor, lobby
    data TEXT NOT NULL,         -- JSON object, see docs/journal.md
    link TEXT                   -- the digest of this entry after the one before it (format 2)
);
CREATE TABLE IF NOT EXISTS ident (id TEXT NOT NULL);   -- the journal's random id: written once, never in a -wal
"""
LEGACY_TABLES = frozenset({"meta", "entries"})

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game in the journal: entries `first` (its start) to `last` (back to the lobby), its result,
    and `lobby`: the entries that rebuild the lobby as the game left it (a new journal begins with them)."""

    first: int
    last: int
    result: dict          # game, options, seats, scores (seat -> total), winners (seats)
    lobby: tuple[tuple[str, dict], ...]


class Journal:
    """An append-only SQLite journal of table inputs; with a history, it archives each finished game.

    `read_only` opens one as it is, for replay, and never writes. Otherwise an existing file is still read as
    it is until the first write (so a journal that does not restore can be set aside byte for byte); a write
    the card does not take raises StorageFault, writes nothing, and leaves the journal usable.
    """

    def __init__(self, path: str | Path = MEMORY, read_only: bool = False, history: History | None = None,
                 origin: str = "table") -> None:
        self.path = path if str(path) == MEMORY else Path(path)
        self.history = history
        self.read_only = read_only
        self._origin = origin
        blank = isinstance(self.path, str) or not self.path.exists() or self.path.stat().st_size == 0
        self._writing = blank and not read_only   # a new file is made at once: there is nothing to keep as it is
        self._head: tuple[int, str] | None = None   # the last entry's number and digest (read when writing)
        self._aside: int | None = None   # entries to go on with once the file is set aside (not done yet)
        self._db: sqlite3.Connection | None = _open(path, not self._writing)
        if self._writing:
            self._ready_to_write()

    @property
    def on_disk(self) -> bool:
        """Whether it is a file (not in memory)."""
        return isinstance(self.path, Path)

    def _writer(self) -> sqlite3.Connection:
        """The connection to write with: the file opened for writing at the first write (again after a failure)."""
        if self._aside is not None:
            self._set_aside()   # `_aside` is cleared first: the reads it makes never come back here
        if self._db is None or not self._writing:
            if self._db is not None:
                self._db.close()
                self._db = None
            self._db = _open(self.path)
            self._writing = True
            try:
                self._ready_to_write()
            except BaseException:   # not ready: opened again, from the start, at the next write
                self._db.close()
                self._db = None
                raise
        return self._db

    def _reader(self) -> sqlite3.Connection:
        return self._db if self._db is not None else self._writer()

    def _ready_to_write(self) -> None:
        """Stamp the origin, chain an unchained journal (a new one, or format 1: its entries as they are, from a
        new id), and read the head to append after."""
        db = self._db
        db.execute("INSERT OR REPLACE INTO meta VALUES ('origin', ?)", (self._origin,))
        if _format(db) != FORMAT or _journal_id(db) is None:
            columns = {row[1] for row in db.execute("PRAGMA table_info(entries)")}
            if "link" not in columns:
                db.execute("ALTER TABLE entries ADD COLUMN link TEXT")
            _chain_into(db, new_id(), db.execute("SELECT seq, at, kind, data FROM entries ORDER BY seq").fetchall())
        head = _head(db) or (0, _journal_id(db))
        known = None if self._head is None else self._head[0]
        if known is not None and known < head[0]:   # a write reported failed that reached the file after all
            log.warning("entries %d to %d of %s were refused but written: removed", known + 1, head[0], self.path)
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM entries WHERE seq > ?", (known,))
            db.execute("INSERT OR REPLACE INTO meta VALUES ('head', ?)", (f"{known} {self._head[1]}",))
            db.execute("COMMIT")
            head = self._head
        self._head = head

    @property
    def origin(self) -> str:
        """What wrote into this journal last: "table" (run, the simulated window), "demo" or "archive"."""
        row = self._reader().execute("SELECT value FROM meta WHERE key = 'origin'").fetchone()
        return "table" if row is None else row[0]

    def append(self, kind: str, data: dict) -> int:
        """Write one entry durably; returns its sequence number. StorageFault: the card did not take it (nothing
        written)."""
        try:
            db = self._writer()
            seq, at, text = self._head[0] + 1, _now(), json.dumps(data, sort_keys=True)
            digest = link(self._head[1], seq, at, kind, text)
            with transaction(db):
                db.execute("INSERT INTO entries (seq, at, kind, data, link) VALUES (?, ?, ?, ?, ?)",
                           (seq, at, kind, text, digest))
                db.execute("INSERT OR REPLACE INTO meta VALUES ('head', ?)", (f"{seq} {digest}",))
        except (OSError, sqlite3.Error, StorageRefused) as error:   # refused: it could not be read again to write
            self._reopen()   # an entry that reached the file after all is removed: it was refused
            raise StorageFault(self.path, error) from error
        self._head = (seq, digest)
        return seq


    def rows(self) -> Iterator[tuple[int, str, str]]:
        """Every entry in order as stored: (seq, kind, data as JSON text, unchecked)."""
        yield from self._reader().execute("SELECT seq, kind, data FROM entries ORDER BY seq")

    def damage(self) -> tuple[int, str] | None:
        """Where this journal's chain breaks: the first entry that does not follow and why (None: it holds, or
        an unchained journal of format 1)."""
        db = self._reader()
        journal_id = _journal_id(db)
        if journal_id is None:   # unchained: format 1 (a journal with an id is chained, whatever its meta says)
            return None if _format(db) != FORMAT else (1, "the journal has no id: it was not written by a table")
        rows = db.execute("SELECT seq, at, kind, data, link FROM entries ORDER BY seq")
        return first_break(journal_id, rows, _head(db))

    def entries(self) -> Iterator[tuple[int, str, dict]]:
        """Every entry in order: (seq, kind, data)."""
        for seq, kind, data in self.rows():
            yield seq, kind, json.loads(data)

    def seconds_between(self, first: int, last: int) -> float:
        """The time from entry `first` to entry `last`, in seconds (0 when their times cannot tell: none is
        counted rather than a wrong one)."""
        at = dict(self._reader().execute("SELECT seq, at FROM entries WHERE seq IN (?, ?)", (first, last)))
        try:
            seconds = (datetime.fromisoformat(at[last]) - datetime.fromisoformat(at[first])).total_seconds()
        except (KeyError, TypeError, ValueError):
            log.warning("entries %d and %d of %s have times that cannot be compared: no time counted",
                        first, last, self.path)
            return 0.0
        return seconds if 0 <= seconds < 1e7 else 0.0

    def set_aside(self, upto: int) -> Path | None:
        """Move this journal's files aside whole (byte for byte: nothing wrote into them yet) and go on in a new
        journal holding entries 1..`upto` as they were; returns where the files were kept. When the card does not
        let it (None), nothing moved, and it is done before the next write."""
        self._aside = upto
        try:
            return self._set_aside()
        except (OSError, sqlite3.Error, StorageRefused) as error:
            log.error("could not set the journal aside yet (before the next write): %s", error)
            return None

    def _set_aside(self) -> Path:
        upto, self._aside = self._aside, None
        try:
            return self._move_aside(upto)
        except BaseException:
            self._aside = upto   # tried again before the next write
            raise

    def _move_aside(self, upto: int) -> Path:
        try:
            rows = _rows(self._db or _open(self.path, True), upto)
        except sqlite3.DatabaseError:   # no entries can be read at all: go on with none
            rows = []
        fresh = _fresh(self.path, rows, (self._db and _journal_id(self._db)) or new_id())   # first: a full card
        if self._db is not None:                                                          # moves nothing
            self._db.close()
            self._db = None
        kept = move_aside(self.path)
        os.replace(fresh, self.path)
        _sync(self.path.parent)
        self._writer()
        return kept

    def archive(self, games: list[Finished]) -> int:
        """Move the finished `games` (in order) out of the live journal: their entries into one archive file
        (up to the last game's end: its replay shows the game over), their results into the history; the
        journal then holds the last one's lobby and what followed, renumbered: returns by how much the entries
        after the last game's end moved down (0: nothing was archived).

        Each step can be cut by a power cut: until the journal is replaced (the last step), the next start
        finds the games still there and archives them again, over the same archive file and history rows. A
        full or failing card leaves the games in the journal (archived at the next start): it never raises."""
        if self.history is None or not games:
            return 0
        last = games[-1].last
        try:
            self._writer()
            played = [self._played(game) for game in games]
            rest = self._db.execute("SELECT at, kind, data FROM entries WHERE seq > ? ORDER BY seq",
                                    (last,)).fetchall()
            self._db.close()   # the last connection: its write-ahead log is checkpointed into the file
            self._db = None
            archive = self.history.folder / f"{_stamp(played[-1].started)}-{played[-1].game}.sqlite"
            digest = _copy_verified(self.path, archive, last - 1)
            self.history.record([p.archived(archive.name, digest) for p in played])
            begun = _now()
            lobby = [(begun, k, json.dumps(d, sort_keys=True)) for k, d in games[-1].lobby]
            _replace(self.path, [(seq, *row) for seq, row in enumerate(lobby + rest, 1)], new_id())
        except (OSError, sqlite3.Error, StorageRefused) as error:   # play on, the games stay journaled
            log.error("could not archive the finished game (the journal keeps it, archived at next start): %s",
                      error)
            return 0
        finally:
            self._reopen()
        return last - len(lobby)

    def _reopen(self) -> None:
        """Open the file again for writing (now, or at the next write if the card does not let it)."""
        if self._db is not None:
            self._db.close()
            self._db = None
        try:
            self._writer()
        except (OSError, sqlite3.Error, StorageRefused) as error:
            log.error("the journal cannot be opened again (at the next write): %s", error)

    def _played(self, game: Finished) -> Played:
        started = self._db.execute("SELECT at FROM entries WHERE seq = ?", (game.first,)).fetchone()[0]
        ended = self._db.execute("SELECT max(at) FROM entries WHERE seq > ? AND seq < ? AND kind = 'action'",
                                 (game.first, game.last)).fetchone()[0] or started
        return Played(**game.result, started=started, ended=ended, first=game.first, last=game.last - 1)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()


def rechain(path: Path) -> None:
    """Chain the entries of the journal at `path` as they are now: for benches and tests that write entries in
    bulk or move their times behind the table's back (the table itself never needs it)."""
    db = _open(path)
    try:
        _chain_into(db, _journal_id(db) or new_id(), _rows(db, sys.maxsize))
    finally:
        db.close()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _stamp(at: str) -> str:
    """A file-name stamp of an ISO time: 20261123T101502.123Z."""
    return datetime.fromisoformat(at).strftime("%Y%m%dT%H%M%S.%f")[:-3] + "Z"


def _rows(db, upto: int) -> list[tuple]:
    return db.execute("SELECT seq, at, kind, data FROM entries WHERE seq <= ? ORDER BY seq", (upto,)).fetchall()


def _open(path: str | Path, read_only: bool = False) -> sqlite3.Connection:
    return open_store(path, KIND, SCHEMA, FORMAT, read_only, LEGACY_TABLES, older=OLDER)


def _format(db: sqlite3.Connection) -> int:
    row = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    return 1 if row is None else int(row[0])


def _journal_id(db: sqlite3.Connection) -> str | None:
    try:
        row = db.execute("SELECT id FROM ident").fetchone()
    except sqlite3.OperationalError:   # format 1, read as it is: no such table
        return None
    return None if row is None else row[0]


def _head(db: sqlite3.Connection) -> tuple[int, str] | None:
    row = db.execute("SELECT value FROM meta WHERE key = 'head'").fetchone()
    if row is None:
        return None
    seq, _, digest = str(row[0]).partition(" ")
    return (int(seq), digest) if seq.isdigit() else (-1, str(row[0]))   # an unreadable head matches no entry


def _chain_into(db: sqlite3.Connection, journal_id: str, rows: list[tuple]) -> None:
    """Make the journal `db` hold id `journal_id` and exactly `rows` (seq, at, kind, data), chained, in format
    FORMAT, in one transaction; then checkpoint, so that the id lies in the file itself, never in a -wal."""
    digest = journal_id
    db.execute("BEGIN IMMEDIATE")
    db.execute("DELETE FROM ident")
    db.execute("INSERT INTO ident VALUES (?)", (journal_id,))
    db.execute("DELETE FROM entries")
    for seq, at, kind, data in rows:
        digest = link(digest, seq, at, kind, data)
        db.execute("INSERT INTO entries (seq, at, kind, data, link) VALUES (?, ?, ?, ?, ?)",
                   (seq, at, kind, data, digest))
    db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                   [("format", str(FORMAT)), ("head", f"{rows[-1][0] if rows else 0} {digest}")])
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _copy_verified(source: Path, archive: Path, upto: int) -> str:
    """Copy entries 1..`upto` of the journal `source` into the read-only file `archive`, check the copy reads
    back the same rows, and return its SHA-256."""
    archive.parent.mkdir(parents=True, exist_ok=True)
    draft = archive.with_name(archive.name + ".part")
    for leftover in (draft, Path(f"{draft}-wal"), Path(f"{draft}-shm")):
        leftover.unlink(missing_ok=True)   # an archive cut short by a power cut: ours, never acknowledged
    reader = connect(source, read_only=True)
    rows = _rows(reader, upto)
    journal_id = _journal_id(reader) or new_id()
    reader.close()
    copy = _open(draft)
    copy.execute("INSERT OR REPLACE INTO meta VALUES ('origin', 'archive')")
    _chain_into(copy, journal_id, rows)   # the journal's id: the same digests as its entries there
    copy.execute("PRAGMA journal_mode=DELETE")   # one self-contained file
    copy.close()
    check = connect(draft, read_only=True)
    same = _rows(check, upto) == rows
    check.close()
    if not same:
        raise OSError(f"{draft}: the archive does not read back as written")
    _sync(draft)
    draft.chmod(0o400)
    os.replace(draft, archive)
    _sync(archive.parent)
    return hashlib.sha256(archive.read_bytes()).hexdigest()


def _replace(path: Path, rows: list[tuple], journal_id: str) -> None:
    """Replace the journal at `path`, atomically, by a new one of id `journal_id` holding `rows` (seq, at, kind,
    data), chained."""
    os.replace(_fresh(path, rows, journal_id), path)
    _sync(path.parent)


def _fresh(path: Path, rows: list[tuple], journal_id: str) -> Path:
    """A new journal beside `path` (PATH.new, synced) of id `journal_id` holding `rows`, chained."""
    fresh = path.with_name(path.name + ".new")
    for leftover in (fresh, Path(f"{fresh}-wal"), Path(f"{fresh}-shm")):
        leftover.unlink(missing_ok=True)
    db = _open(fresh)
    try:
        _chain_into(db, journal_id, rows)
    finally:
        db.close()
    _sync(fresh)
    return fresh


def _sync(path: Path) -> None:
    """fsync a file or a folder (a rename is durable once its folder is)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
