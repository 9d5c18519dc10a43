"""The history: one row per finished game (its result and its archived journal), for `cardtable history`.

A small SQLite file beside the journal; the archived journals live in the
folder games/ next to it, each checked against the SHA-256 the history
recorded before it is handed out. Its outbox holds each finished game for
the café link (table/storage/outbox.py), written in the transaction that
records the game, until the hall holds it.
"""
from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import json
import logging
import shutil
import sqlite3
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from table.storage import StorageRefused, open_store, transaction
from table.storage.chain import new_id
from table.storage.outbox import acked, link_file

FORMAT = 2   # 2: the players column; format 1 is read, and upgraded when written
KIND = "history"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id         INTEGER PRIMARY KEY,
    game       TEXT NOT NULL,      -- its registered name
    options    TEXT NOT NULL,      -- JSON object
    seats      TEXT NOT NULL,      -- JSON list: player p sat at seats[p]
    scores     TEXT NOT NULL,      -- JSON object: seat -> final total
    winners    TEXT NOT NULL,      -- JSON list of seats
    started    TEXT NOT NULL,      -- UTC, ISO 8601: the start entry
    ended      TEXT NOT NULL,      -- UTC, ISO 8601: the action that ended it
    duration_s REAL NOT NULL,
    journal    TEXT NOT NULL,      -- its archived journal, a file name in games/
    first_seq  INTEGER NOT NULL,   -- its entries in that file
    last_seq   INTEGER NOT NULL,
    sha256     TEXT NOT NULL,      -- of the archive file
    players    TEXT NOT NULL DEFAULT '{}',   -- JSON object: seat -> {"id", "name"} of the players cards named
    UNIQUE (journal, first_seq)
);
CREATE TABLE IF NOT EXISTS outbox (
    seq  INTEGER PRIMARY KEY AUTOINCREMENT,   -- the table's own counter, never reused
    kind TEXT NOT NULL,                       -- game
    body TEXT NOT NULL,                       -- JSON object: outbox_body()
    at   TEXT NOT NULL                        -- UTC, ISO 8601: when it was recorded
);
"""
log = logging.getLogger(__name__)

COLUMNS = ("id", "game", "options", "seats", "scores", "winners", "started", "ended", "duration_s", "journal",
           "first_seq", "last_seq", "sha256", "players")
JSON_COLUMNS = ("options", "seats", "scores", "winners", "players")


@dataclass(frozen=True, slots=True)
class Played:
    """One finished game as the history records it."""

    game: str
    options: dict
    seats: list
    scores: dict
    winners: list
    started: str
    ended: str
    first: int
    last: int
    journal: str = ""
    sha256: str = ""
    players: dict = dataclasses.field(default_factory=dict)   # seat -> {"id", "name"}: the seats a player card named

    @property
    def duration_s(self) -> float:
        return (datetime.fromisoformat(self.ended) - datetime.fromisoformat(self.started)).total_seconds()

    def archived(self, journal: str, sha256: str) -> Played:
        return dataclasses.replace(self, journal=journal, sha256=sha256)


class History:
    """The history file at `path`; archived journals go to the folder games/ beside it."""

    def __init__(self, path: str | Path, read_only: bool = False) -> None:
        self.folder = Path(path).parent / "games"
        self._db = open_store(path, KIND, SCHEMA, FORMAT, read_only, older=(1,))
        if not read_only:   # games the hall acknowledged since the last write leave the outbox
            _upgrade(self._db)
            try:
                self._write(lambda: None)
            except (OSError, sqlite3.Error) as error:
                log.warning("%s: the acknowledged games stay in the outbox for now (%s)", path, error)

    def record(self, games: list[Played]) -> None:
        """Add the rows of `games` and their outbox rows in one transaction (a game already recorded from the same
        archive stays, and is not queued again); the games the hall acknowledged leave the outbox."""
        self._write(lambda: self._insert(games))

    def _insert(self, games: list[Played]) -> None:
        at = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        for p in games:
            added = self._db.execute(
                f"INSERT OR IGNORE INTO games ({', '.join(COLUMNS[1:])}) VALUES ({', '.join('?' * (len(COLUMNS) - 1))})",
                (p.game, _json(p.options), _json(p.seats), _json(p.scores), _json(p.winners), p.started, p.ended,
                 p.duration_s, p.journal, p.first, p.last, p.sha256, _json(p.players)))
            if added.rowcount:
                self._db.execute("INSERT INTO outbox (kind, body, at) VALUES ('game', ?, ?)",
                                 (_json(outbox_body(p, added.lastrowid)), at))

    def _write(self, change) -> None:
        """`change()`, then the acknowledged outbox rows deleted, in one transaction: all of it or nothing (the
        outbox's id made the first time)."""
        with transaction(self._db):
            change()
            self._db.execute("INSERT OR IGNORE INTO meta VALUES ('outbox', ?)", (new_id(),))
            self._db.execute("DELETE FROM outbox WHERE seq <= ?",
                             (acked(link_file(self.folder.parent), self.outbox_id),))

    @property
    def outbox_id(self) -> str | None:
        """The outbox's random id (None until the history is first written)."""
        row = self._db.execute("SELECT value FROM meta WHERE key = 'outbox'").fetchone()
        return None if row is None else row[0]

    def outbox(self) -> list[tuple[int, str, dict]]:
        """The outbox, oldest first: (seq, kind, body)."""
        return [(seq, kind, json.loads(body))
                for seq, kind, body in self._db.execute("SELECT seq, kind, body FROM outbox ORDER BY seq")]

    def games(self) -> list[dict]:
        """Every finished game, oldest first, its JSON columns decoded (a history of format 1, read as it is, has
        no players)."""
        rows = self._db.execute("SELECT * FROM games ORDER BY id")
        names = [d[0] for d in rows.description]
        return [{"players": {}} | {name: json.loads(v) if name in JSON_COLUMNS else v for name, v in zip(names, row)}
                for row in rows]

    def export_journal(self, game_id: int, to: Path) -> Path:
        """Copy the archived journal of game `game_id` to `to` (a file, or a folder to put it in), after
        checking it is the file the history recorded; StorageRefused when it is missing or changed."""
        row = self._db.execute("SELECT journal, sha256 FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StorageRefused(self.folder.parent / "history.sqlite", f"no game number {game_id}")
        source = self.folder / row[0]
        if not source.is_file():
            raise StorageRefused(source, "the archived journal is missing")
        if hashlib.sha256(source.read_bytes()).hexdigest() != row[1]:
            raise StorageRefused(source, "the archived journal was changed or damaged since it was archived")
        target = to / row[0] if to.is_dir() else to
        shutil.copyfile(source, target)
        return target

    def close(self) -> None:
        self._db.close()


def outbox_body(played: Played, game_id: int) -> dict:
    """A finished game as the outbox hands it to the hall: its history row's number and result, its times and its
    archive's SHA-256."""
    return {"id": game_id, "game": played.game, "options": played.options, "seats": played.seats,
            "scores": played.scores, "winners": played.winners, "started": played.started, "ended": played.ended,
            "duration_s": played.duration_s, "sha256": played.sha256, "players": played.players}


def history_command(path: Path, as_csv: bool, as_json: bool, export: list[str] | None) -> int:
    """`cardtable history`: the finished games of the history at `path` as a table, CSV or JSON; or, `export`
    being a game's number and a path, copy its archived journal there."""
    if not path.exists():
        print(f"no finished game yet (no history at {path})", file=sys.stderr)
        return 0 if export is None else 1
    history = History(path, read_only=True)
    try:
        if export is not None:
            return _export(history, path, *export)
        games = history.games()
    finally:
        history.close()
    if as_json or as_csv:
        print(json.dumps(games, ensure_ascii=False) if as_json else to_csv(games), end="\n" if as_json else "")
    else:
        _print_games(games)
    return 0


def _export(history: History, path: Path, number: str, to: str) -> int:
    """Copy game `number`'s archived journal to `to`, saying where; one line on stderr when it cannot be written."""
    if not number.isdigit():
        raise StorageRefused(path, f"no game number {number!r} (see cardtable history)")
    try:
        print(f"game {number}: {history.export_journal(int(number), Path(to))}")
    except OSError as error:
        print(f"cardtable history: cannot write {to}: {error.strerror}", file=sys.stderr)
        return 1
    return 0


def _print_games(games: list[dict]) -> None:
    """The finished games as a table: one line each, its scores by seat (and player), the winners marked."""
    print(f"{'#':>4}  {'started (UTC)':16}  {'game':12} {'time':>7}  scores (seat: total)")
    for g in games:
        minutes, seconds = divmod(round(g["duration_s"]), 60)
        named = {seat: f" {player['name']}" for seat, player in g["players"].items()}
        scores = ", ".join(f"{seat}{named.get(seat, '')}: {total}{'*' if int(seat) in g['winners'] else ''}"
                           for seat, total in g["scores"].items())
        print(f"{g['id']:>4}  {g['started'][:16].replace('T', ' '):16}  {g['game']:12} {minutes:>4}:{seconds:02d}  "
              f"{scores}{'' if g['winners'] else '  (ended by staff)'}")
    print(f"{len(games)} game{'s' if len(games) != 1 else ''}; * winner")


def to_csv(games: list[dict]) -> str:
    """The history as CSV, one row per game (JSON columns as JSON text)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for game in games:
        writer.writerow([_json(game[c]) if isinstance(game[c], (dict, list)) else game[c] for c in COLUMNS])
    return out.getvalue()


def _upgrade(db) -> None:
    """Format 1 to 2: the players column (every game recorded before it had none)."""
    if "players" not in {row[1] for row in db.execute("PRAGMA table_info(games)")}:
        with transaction(db):
            db.execute("ALTER TABLE games ADD COLUMN players TEXT NOT NULL DEFAULT '{}'")
            db.execute("INSERT OR REPLACE INTO meta VALUES ('format', ?)", (str(FORMAT),))


def _json(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
