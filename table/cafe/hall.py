"""`cardtable hall`: the hall's service, storing every table's games and acknowledging them (docs/cafe.md).

Each game is stored once, keyed by (table, outbox, seq), after its digest
is checked; the acknowledgement of a table's outbox is the highest seq below
which the hall holds every game of it, published retained on
cafe/<table>/ack: duplicates are harmless and a gap is never acknowledged.
"""
from __future__ import annotations

import json
import logging
import re
import sqlite3
import threading
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import paho.mqtt.client as mqtt

from table.cafe.broker import STAFF_PASSWORD, set_up
from table.cafe.pages import Bulletin, Pages, listening
from table.cafe.staff import Staff
from table.cafe.mqtt import (HALL_USER, NAME, OUTBOX, PLAYERS, Broker, ack, client, digest, read_password, start,
                             stopped_by_signal, topic)
from table.storage import open_store, transaction
from table.storage.hall_cards import SHADOWS, hall_cards
from table.storage.registry import UID, player_problem

KIND = "hall"
FORMAT = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    tbl      TEXT NOT NULL,      -- the table's name
    outbox   TEXT NOT NULL,      -- the id of the table's outbox
    seq      INTEGER NOT NULL,   -- its seq in that outbox
    kind     TEXT NOT NULL,
    body     TEXT NOT NULL,      -- JSON object, as the table's outbox holds it
    at       TEXT NOT NULL,      -- UTC, ISO 8601: when the table recorded it
    received TEXT NOT NULL,      -- UTC, ISO 8601: when the hall stored it
    PRIMARY KEY (tbl, outbox, seq)
);
CREATE TABLE IF NOT EXISTS outboxes (
    tbl     TEXT NOT NULL,
    outbox  TEXT NOT NULL,
    acked   INTEGER NOT NULL DEFAULT 0,   -- every game of it up to this seq is stored
    updated TEXT NOT NULL,                -- when a game of it last came
    PRIMARY KEY (tbl, outbox)
);
CREATE TABLE IF NOT EXISTS tables (
    tbl    TEXT PRIMARY KEY,
    status TEXT,                         -- online, offline
    live   TEXT                          -- its public state now (JSON), as it published it
);
CREATE TABLE IF NOT EXISTS cards (  -- the player cards enrolled on the staff page
    uid   TEXT PRIMARY KEY,             -- the card's UID, as the registry writes it
    pid   TEXT NOT NULL,                -- its player's id (p- and 12 hex digits)
    name  TEXT NOT NULL,
    since TEXT NOT NULL                 -- UTC, ISO 8601: when it was enrolled
);
CREATE INDEX IF NOT EXISTS games_by_time ON games (tbl, at);   -- a table's latest games, for the pages
"""
SEQ = re.compile(r"[0-9]{1,18}")
SUBSCRIPTIONS = [(topic("+", "game/+"), 1), (topic("+", "live"), 1), (topic("+", "status"), 1),
                 (topic("+", "shadowed"), 1)]

log = logging.getLogger(__name__)


class Hall:
    """The hall's store at `path` (hall.sqlite), fed from the broker `broker`."""

    def __init__(self, path: Path, broker: Broker, changed: Callable[[str], None] = lambda _table: None) -> None:
        self.client = client(HALL_USER, broker)   # first: a CA that cannot be used leaves no hall.sqlite made
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = open_store(path, KIND, SCHEMA, FORMAT)
        self._lock = threading.Lock()
        self.changed = changed   # told a table's name each time a game, live state or status of it is kept
        self.broker = broker
        self._cards: dict[str, dict] = {}   # the player cards the stored games name: UID -> {"id", "name"}
        for body, in self._db.execute("SELECT body FROM games ORDER BY at, seq"):
            self._learn(json.loads(body))
        self._enrolled = {uid: {"id": pid, "name": name}   # those enrolled here, which win over the games'
                          for uid, pid, name in self._db.execute("SELECT uid, pid, name FROM cards")}
        self._cards_sent: str | None = None   # the cards as last published (None: not since connecting)
        self._shadowed: dict[str, dict[str, str]] = {}   # table -> the cards it keeps for itself: UID -> why

    def run(self, stop: threading.Event, pages: Pages) -> None:
        """Store and acknowledge, and serve `pages`, until `stop` is set."""
        start(self.client, self.broker)
        pages.start()
        try:
            stop.wait()
            self.client.disconnect()
        finally:
            pages.stop()
            self.client.loop_stop()
            self._db.close()

    def store(self, table: str, seq: int, message: dict) -> tuple[str, int] | None:
        """Store one game's message (once) and return the acknowledgement of its outbox: (outbox, seq); None when
        it is refused (no outbox id, not a game of that seq, or its digest differs)."""
        body = json.dumps(message.get("body"), sort_keys=True, ensure_ascii=False)
        outbox = message.get("outbox")
        if not (isinstance(outbox, str) and OUTBOX.fullmatch(outbox) and message.get("seq") == seq
                and message.get("digest") == digest(body) and isinstance(message.get("at"), str)):
            log.error("table %s: game %s refused: its outbox, seq, time or digest does not match", table, seq)
            return None
        with self._lock, transaction(self._db):
            added = self._db.execute("INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?)",
                                     (table, outbox, seq, str(message.get("kind")), body, message["at"], _now()))
            if added.rowcount:
                self._learn(message["body"])
            self._db.execute("INSERT OR IGNORE INTO outboxes (tbl, outbox, updated) VALUES (?, ?, '')", (table, outbox))
            acked = self._db.execute("SELECT acked FROM outboxes WHERE tbl = ? AND outbox = ?",
                                     (table, outbox)).fetchone()[0]
            for (held,) in self._db.execute("SELECT seq FROM games WHERE tbl = ? AND outbox = ? AND seq > ? "
                                            "ORDER BY seq", (table, outbox, acked)).fetchall():
                if held != acked + 1:
                    break
                acked = held
            self._db.execute("UPDATE outboxes SET acked = ?, updated = ? WHERE tbl = ? AND outbox = ?",
                             (acked, _now(), table, outbox))
        self.changed(table)
        return outbox, acked

    def _learn(self, body) -> None:
        """Learn the player cards a stored game names (a later naming of a card wins); an entry that is not a sound
        card (a UID, a player id, a name) is left out."""
        players = body.get("players") if isinstance(body, dict) else None
        if isinstance(players, dict):
            self._cards.update((p["card"], {"id": p["id"], "name": p["name"]}) for p in players.values()
                               if isinstance(p, dict) and isinstance(p.get("card"), str)
                               and UID.fullmatch(p["card"]) and player_problem(p.get("id"), p.get("name")) is None)

    def cards(self) -> dict[str, dict]:
        """Every player card the hall knows: UID -> {"id", "name", "here"} (here: enrolled on the staff page)."""
        with self._lock:
            return {uid: {**card, "here": False} for uid, card in self._cards.items()} | {
                uid: {**card, "here": True} for uid, card in self._enrolled.items()}

    def enrol(self, uid: str, pid: str, name: str) -> str | None:
        """Enrol card `uid` as player `pid`'s, named `name` (checked by the caller), and publish it for every
        table; when the hall already knows that card, nothing changes and its player's name is returned."""
        with self._lock:
            owner = self._enrolled.get(uid) or self._cards.get(uid)
            if owner is not None:
                return owner["name"]
            with transaction(self._db):
                self._db.execute("INSERT INTO cards VALUES (?, ?, ?, ?)", (uid, pid, name, _now()))
            self._enrolled[uid] = {"id": pid, "name": name}
        log.info("player card %s enrolled for %s (%s)", uid, pid, name)
        self.publish_cards(self.client)
        return None

    def publish_cards(self, client: mqtt.Client) -> None:
        """Publish the player cards the hall knows, retained, for every table's link, when they changed."""
        with self._lock:
            text = hall_cards(self._cards | self._enrolled)
            if text == self._cards_sent:
                return
            self._cards_sent = text
        client.publish(PLAYERS, text, qos=1, retain=True)

    def _on_connect(self, client: mqtt.Client, _userdata, _flags, reason, _properties) -> None:
        if reason.is_failure:
            log.error("the broker refused the hall: %s", reason)
            return
        client.subscribe(SUBSCRIPTIONS)
        with self._lock:   # the newest of each table last: it stays retained
            acks = self._db.execute("SELECT tbl, outbox, acked FROM outboxes ORDER BY updated").fetchall()
        for table, outbox, acked in acks:   # again, in case the broker lost its retained messages
            client.publish(topic(table, "ack"), ack(outbox, acked), qos=1, retain=True)
        with self._lock:
            self._cards_sent = None
        self.publish_cards(client)
        log.info("connected to the broker")

    def _on_message(self, client: mqtt.Client, _userdata, message: mqtt.MQTTMessage) -> None:
        """A table's message: read as data only; anything malformed is logged and dropped."""
        parts = message.topic.split("/")
        if len(parts) < 3 or not NAME.fullmatch(parts[1]):
            log.warning("a message on %r was ignored", message.topic[:80])
            return
        table, what = parts[1], "/".join(parts[2:])
        if what in ("live", "status"):
            self.note(table, what, message.payload.decode("utf-8", "replace")[:65536])
            return
        if what == "shadowed":
            self._note_shadowed(table, message.payload)
            return
        seq = parts[3] if len(parts) == 4 and parts[2] == "game" else ""
        try:
            game = json.loads(message.payload)
        except ValueError:
            game = None
        if not SEQ.fullmatch(seq) or not isinstance(game, dict):
            log.warning("table %s: a message on %r that is no game was ignored", table, message.topic[:80])
            return
        try:
            acked = self.store(table, int(seq), game)
        except (OSError, sqlite3.Error) as error:   # not acknowledged: the link publishes it again
            log.error("table %s: game %s could not be stored: %s", table, seq, error)
            return
        if acked is not None:
            client.publish(topic(table, "ack"), ack(*acked), qos=1, retain=True)
            self.publish_cards(client)

    def note(self, table: str, what: str, text: str) -> None:
        """Keep a table's latest live state or status (a failure is logged: the next one replaces it)."""
        try:
            with self._lock, transaction(self._db):
                self._db.execute("INSERT OR IGNORE INTO tables (tbl) VALUES (?)", (table,))
                self._db.execute(f"UPDATE tables SET {what} = ? WHERE tbl = ?", (text, table))
        except (OSError, sqlite3.Error) as error:
            log.error("table %s: its %s could not be kept: %s", table, what, error)
            return
        self.changed(table)

    def _note_shadowed(self, table: str, payload: bytes) -> None:
        """Keep which of the hall's cards `table` keeps from seating their players ({"cards": {UID: why}}); the
        entries that are not a UID and a reason are left out. An empty message (its retained one cleared, a table
        taken out of the café) forgets the table's."""
        if not payload:
            with self._lock:
                self._shadowed.pop(table, None)
            return
        try:
            cards = json.loads(payload).get("cards")
        except (ValueError, AttributeError, RecursionError):
            cards = None
        if not isinstance(cards, dict):
            log.warning("table %s: the cards it cannot take were not read", table)
            return
        with self._lock:
            self._shadowed[table] = {uid: why for uid, why in cards.items()
                                     if isinstance(uid, str) and UID.fullmatch(uid) and why in SHADOWS}

    def shadowed(self) -> dict[str, list[tuple[str, str]]]:
        """The hall's player cards some table keeps from seating their players: UID -> [(table, why)], by table."""
        found: dict[str, list[tuple[str, str]]] = {}
        with self._lock:
            for table, cards in sorted(self._shadowed.items()):
                for uid, why in cards.items():
                    found.setdefault(uid, []).append((table, why))
        return found

    def games(self) -> list[tuple[str, str, int, dict]]:
        """Every game stored: (table, outbox, seq, body), by table, outbox and seq."""
        with self._lock:
            rows = self._db.execute("SELECT tbl, outbox, seq, body FROM games ORDER BY tbl, outbox, seq").fetchall()
        return [(table, outbox, seq, json.loads(body)) for table, outbox, seq, body in rows]

    def tables(self) -> list[tuple[str, str | None, str | None]]:
        """Every table the hall heard of, by name: (name, status, live state as it published it)."""
        with self._lock:
            return self._db.execute("SELECT name, status, live FROM (SELECT tbl AS name FROM tables UNION "
                                    "SELECT tbl FROM games) LEFT JOIN tables ON tbl = name ORDER BY name").fetchall()

    def latest(self, table: str, count: int) -> list[dict]:
        """The last `count` games of `table` the hall holds, the newest first: their bodies as the table sent them."""
        with self._lock:
            rows = self._db.execute("SELECT body FROM games WHERE tbl = ? ORDER BY at DESC, seq DESC LIMIT ?",
                                    (table, count)).fetchall()
        return [json.loads(body) for body, in rows]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def hall_command(host: str, port: int, password_file: Path, ca: Path | None, state: Path,
                 web: tuple[str, int], staff_password_file: Path | None = None) -> int:
    """`cardtable hall`: store and acknowledge the tables' games in STATE/hall.sqlite, and serve the pages at `web`
    (host, port), the staff page signed in to with the password in `staff_password_file` (None: off), until
    stopped."""
    staff = Staff(read_password(staff_password_file)) if staff_password_file else None
    listener = listening(web)
    bulletin = Bulletin()
    hall = Hall(state / "hall.sqlite", Broker(host, port, HALL_USER, read_password(password_file), ca), bulletin.notify)
    hall.run(stopped_by_signal(), Pages(hall, bulletin, listener, staff))
    return 0


def setup_command(folder: Path, tables: list[str], port: int, host: str) -> int:
    """`cardtable hall --setup FOLDER --table T...`: write the broker's files and say how to start it."""
    set_up(folder, tables, port, hosts=(host,))
    print(f"hall files in {folder}: start the broker with mosquitto -c {folder / 'mosquitto.conf'} (or put "
          f"{folder / 'cardtable.conf'} in a system Mosquitto's conf.d/); the clients trust {folder / 'ca.crt'}; each "
          f"one's password is in {folder / 'credentials'}/NAME; a table's link file, for install.py --link, is "
          f"{folder / 'tables'}/NAME.link; the staff page's password is in {folder / STAFF_PASSWORD}")
    return 0
