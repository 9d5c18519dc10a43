"""`cardtable link`: the table's outbox and live state published to the hall's broker, games deleted only once the
hall acknowledged them (docs/cafe.md).

The link reads the table's files and never writes them: history.sqlite's
outbox, live.json and the registry, read-only. It writes only link.sqlite,
the hall's latest acknowledgement (the table prunes its outbox up to it),
and players.json, the hall's player cards. It tells the hall which of those
cards the table's registry keeps for itself (a deck's card, a staff card),
so that the staff page can say that such a card seats nobody there.
"""
from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt

from table.cafe.mqtt import (PLAYERS, Broker, client, digest, read_ack, read_password, start, stopped_by_signal,
                             table_name, topic)
from table.storage import StorageRefused
from table.storage.hall_cards import HallCards, hall_cards_file, shadowed, write_hall_cards
from table.storage.outbox import LIVE, Acks, link_file, pending
from table.storage.registry import own_tags

WINDOW = 20          # games published and not yet acknowledged, at most
POLL_S = 0.2         # how often the link looks at the outbox and live.json
ACK_WAIT_S = 1.0     # how long after connecting it waits for the retained acknowledgement before publishing
RESEND_S = 30.0      # no acknowledgement for this long while games are out: they are published again

log = logging.getLogger(__name__)


class Link:
    """The link of table `table` whose state directory is `state`, to the broker `broker`."""

    def __init__(self, table: str, state: Path, broker: Broker) -> None:
        self.table = table
        self.history = state / "history.sqlite"
        self.live = state / LIVE
        self.client = client(f"table-{table}", broker, will=(topic(table, "status"), "offline"))
        self.acks = Acks(link_file(state))
        self.cards = hall_cards_file(state)   # the hall's player cards, for the table (written here only)
        self.registry = state / "registry.sqlite"
        self.outbox: str | None = None   # the outbox's id, once read
        self.sent = 0                    # the last game published
        self._lock = threading.Lock()
        self._connected_at: float | None = None   # None while offline
        self._heard: tuple[str, int] | None = None   # the last acknowledgement heard: (outbox, seq)
        self._heard_now = False                    # an acknowledgement came since connecting
        self._fresh = False                        # connected again: everything not acknowledged goes again
        self._progress = time.monotonic()          # when the acknowledgement last moved
        self._drained: tuple | None = None         # the outbox files' stamp when it was last read to its end
        self._live: tuple | None = None            # live.json's stamp when last published
        self._shadows: tuple | None = None         # players.json's and the registry's stamps when last looked at
        self._shadows_sent: str | None = None      # what was last published of them
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.broker = broker

    def run(self, stop: threading.Event) -> None:
        """Publish until `stop` is set, then say "offline" and disconnect."""
        start(self.client, self.broker)
        try:
            while not stop.wait(POLL_S):
                try:
                    self.step()
                except (OSError, sqlite3.Error, StorageRefused) as error:   # a file being replaced, a full card
                    log.warning("the outbox or link.sqlite could not be used (%s): tried again", error)
            if self.client.is_connected():
                self.client.publish(topic(self.table, "status"), "offline", qos=1, retain=True).wait_for_publish(2)
            self.client.disconnect()
        finally:
            self.client.loop_stop()
            self.acks.close()

    def step(self) -> None:
        """Record the acknowledgement; publish the games after it (WINDOW at most out), and live.json and the hall's
        cards the table keeps for itself if they changed."""
        with self._lock:
            heard, connected_at, heard_now, fresh, progress = (self._heard, self._connected_at, self._heard_now,
                                                               self._fresh, self._progress)
            self._fresh = False
        acked = self.acked(heard)
        if fresh:
            self._again(acked)
            self._live = self._shadows = self._shadows_sent = None
        if connected_at is None or not (heard_now or time.monotonic() - connected_at > ACK_WAIT_S):
            return
        if self.sent > acked and time.monotonic() - progress > RESEND_S:
            log.info("no acknowledgement after game %d for %.0f s: publishing again", acked, RESEND_S)
            self._again(acked)
        self._publish_shadowed()   # first: it reads no outbox, which may be refused
        self._publish_games(max(self.sent, acked), acked)
        self._publish_live()

    def acked(self, heard: tuple[str, int] | None) -> int:
        """The hall's acknowledgement of this table's outbox, the last one `heard` or the one recorded in
        link.sqlite (recorded there when it is newer)."""
        if self.outbox is None:
            return 0
        recorded = self.acks.seq(self.outbox)
        if heard is not None and heard[0] == self.outbox and heard[1] > recorded:
            self.acks.record(*heard)
            return heard[1]
        return recorded

    def _publish_games(self, after: int, acked: int) -> None:
        room = WINDOW - (after - acked)
        stamp = _stamp(self.history)
        if room <= 0 or stamp == self._drained:
            return
        outbox, rows = pending(self.history, after, room)
        if outbox != self.outbox:   # the first read, or a history made afresh: from its acknowledgement, next step
            self.outbox, self.sent, self._drained = outbox, 0, None
            return
        for seq, kind, body, at in rows:
            message = {"outbox": outbox, "seq": seq, "kind": kind, "at": at, "digest": digest(body),
                       "body": json.loads(body)}
            self.client.publish(topic(self.table, f"game/{seq}"), json.dumps(message), qos=1)
            self.sent = seq
        if len(rows) < room:
            self._drained = stamp

    def _publish_live(self) -> None:
        stamp = _stamp(self.live)
        if stamp == self._live:
            return
        try:
            text = self.live.read_text()
            json.loads(text)
        except (OSError, ValueError) as error:   # none yet, or being replaced: the next look
            log.debug("%s not published: %s", self.live, error)
            return
        self.client.publish(topic(self.table, "live"), text, qos=1, retain=True)
        self._live = stamp

    def _publish_shadowed(self) -> None:
        """Publish, retained, the hall's player cards that the table's registry keeps from seating their players
        ({"cards": {UID: why}}, hall_cards.shadowed), when players.json or the registry changed what they are."""
        stamps = (_stamp(self.cards), _stamp(self.registry))
        if stamps == self._shadows:
            return
        self._shadows = stamps   # a registry that cannot be read is said once, and read again when it changes
        try:
            text = json.dumps({"cards": shadowed(HallCards(self.cards).cards(), *own_tags(self.registry))},
                              sort_keys=True)
        except (OSError, sqlite3.Error, StorageRefused) as error:
            log.warning("%s could not be read (%s): the hall is not told which of its cards it holds", self.registry,
                        error)
            return
        if text != self._shadows_sent:
            self.client.publish(topic(self.table, "shadowed"), text, qos=1, retain=True)
            self._shadows_sent = text

    def _again(self, acked: int) -> None:
        """Publish every game after `acked` again (duplicates are harmless: the hall keeps one)."""
        self.sent, self._drained = acked, None
        with self._lock:
            self._progress = time.monotonic()

    def _on_connect(self, client: mqtt.Client, _userdata, _flags, reason, _properties) -> None:
        if reason.is_failure:
            log.error("the hall's broker refused the link: %s", reason)
            return
        client.subscribe([(topic(self.table, "ack"), 1), (PLAYERS, 1)])
        client.publish(topic(self.table, "status"), "online", qos=1, retain=True)
        with self._lock:
            self._connected_at, self._heard_now, self._fresh = time.monotonic(), False, True
        log.info("connected to the hall's broker")

    def _on_disconnect(self, _client, _userdata, _flags, reason, _properties) -> None:
        with self._lock:
            self._connected_at = None
        if reason.is_failure:
            log.warning("disconnected from the hall's broker (%s): games stay in the outbox", reason)

    def _on_message(self, _client, _userdata, message: mqtt.MQTTMessage) -> None:
        """The hall's acknowledgement, {"outbox": id, "seq": n}, or its player cards (written for the table);
        anything else is ignored."""
        if message.topic == PLAYERS:
            try:
                log.info("the hall knows %d player cards", write_hall_cards(self.cards, message.payload))
            except (OSError, ValueError) as error:
                log.warning("the hall's player cards were not kept (%s)", error)
            return
        ack = read_ack(message.payload)
        if ack is None:
            log.warning("an acknowledgement that cannot be read was ignored")
            return
        with self._lock:
            self._heard_now = True
            if self._heard is None or self._heard[0] != ack[0] or ack[1] > self._heard[1]:
                self._heard, self._progress = ack, time.monotonic()


def _stamp(path: Path) -> tuple:
    """What changes when the file at `path` or its write-ahead log is written."""
    stamps = []
    for file in (path, Path(f"{path}-wal")):
        try:
            stat = os.stat(file)
            stamps.append((stat.st_mtime_ns, stat.st_size, stat.st_ino))
        except FileNotFoundError:
            stamps.append(None)
    return tuple(stamps)


def link_command(table: str, host: str, port: int, password_file: Path, ca: Path | None, state: Path) -> int:
    """`cardtable link`: run the link of table `table` until stopped (SIGTERM, Ctrl-C)."""
    broker = Broker(host, port, table_name(table), read_password(password_file), ca)
    Link(broker.user, state, broker).run(stopped_by_signal())
    return 0
