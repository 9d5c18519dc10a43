"""The MQTT side the link and the hall share: topics, names, and a paho-mqtt 2 client (MQTT 5, persistent session).

Topics, for a table T: cafe/T/game/<seq> (one finished game, QoS 1),
cafe/T/live (its public state, retained), cafe/T/status ("online", or the
Last Will "offline", retained) and cafe/T/ack (the hall's acknowledgement,
retained). Payloads are only ever parsed as data.
"""
from __future__ import annotations

import hashlib
import json
import logging
import re
import signal
import threading
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")   # a table's name: its topics' level, its broker user
OUTBOX = re.compile(r"[0-9a-f]{32}")             # an outbox's id
HALL_USER = "hall"
PLAYERS = "cafe/players"   # the player cards the hall knows, retained: every table's link reads them
SESSION_S = 30 * 24 * 3600   # how long the broker keeps a client's session (its queued messages) while it is away
KEEPALIVE_S = 10

log = logging.getLogger(__name__)


class CafeError(Exception):
    """A setting of the link or the hall that cannot be used (one line for the user)."""


@dataclass(frozen=True, slots=True)
class Broker:
    """Where the broker is and how to log in: `ca`, the hall's CA certificate, turns TLS on."""

    host: str
    port: int
    user: str
    password: str
    ca: Path | None = None


def table_name(text: str) -> str:
    """`text` if it can name a table (lower-case letters, digits and dashes, 32 at most); else CafeError."""
    if not NAME.fullmatch(text):
        raise CafeError(f"{text!r} cannot name a table: lower-case letters, digits and dashes (32 at most)")
    return text


def topic(table: str, what: str) -> str:
    return f"cafe/{table}/{what}"


def digest(body: str) -> str:
    """The SHA-256 of a game's body as the outbox holds it (canonical JSON)."""
    return hashlib.sha256(body.encode()).hexdigest()


def ack(outbox: str, seq: int) -> str:
    """The hall's acknowledgement of `outbox`'s games 1..`seq`."""
    return json.dumps({"outbox": outbox, "seq": seq})


def read_ack(payload: bytes) -> tuple[str, int] | None:
    """(outbox, seq) of an acknowledgement; None when it is not one."""
    try:
        read = json.loads(payload)
    except ValueError:
        return None
    if not (isinstance(read, dict) and isinstance(read.get("outbox"), str) and OUTBOX.fullmatch(read["outbox"])
            and type(read.get("seq")) is int and read["seq"] >= 0):
        return None
    return read["outbox"], read["seq"]


def read_password(path: Path) -> str:
    """The password in the file at `path` (its first line); CafeError when it cannot be read or is empty."""
    try:
        password = path.read_text().strip()
    except OSError as error:
        raise CafeError(f"{path}: {error.strerror}") from None
    if not password:
        raise CafeError(f"{path}: empty: no password in it")
    return password


def client(client_id: str, broker: Broker, will: tuple[str, str] | None = None) -> mqtt.Client:
    """A client that keeps its session on the broker (`client_id` fixed, clean_start off) and, once started,
    connects and reconnects by itself; `will`: (topic, payload) the broker publishes retained if it goes."""
    made = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    made.username_pw_set(broker.user, broker.password)
    if broker.ca is not None:
        try:
            made.tls_set(ca_certs=str(broker.ca))
        except OSError as error:   # ssl.SSLError too
            why = getattr(error, "reason", None) or error.strerror or error
            raise CafeError(f"--ca {broker.ca}: no CA certificate can be read there ({why})") from None
    if will is not None:
        made.will_set(*will, qos=1, retain=True)
    made.reconnect_delay_set(0.5, 5)
    made.on_connect_fail = _unreachable(broker)
    made.suppress_exceptions = True   # a callback that fails is logged and the client goes on
    made.on_log = _callback_failed
    return made


def _callback_failed(_client, _userdata, _level, text: str) -> None:
    """paho's log, of which only a callback of ours that failed is said (the callbacks say the rest)."""
    if text.startswith("Caught exception"):
        log.error("%s", text)


def _unreachable(broker: Broker):
    """Says once that the broker cannot be reached (the client tries again every few seconds, for ever)."""
    said = []

    def say(_client, _userdata) -> None:
        if not said:
            log.warning("the broker %s:%d cannot be reached: trying again every few seconds", broker.host,
                        broker.port)
            said.append(True)
    return say


def start(made: mqtt.Client, broker: Broker) -> None:
    """Connect in the background, the session kept SESSION_S on the broker."""
    properties = Properties(PacketTypes.CONNECT)
    properties.SessionExpiryInterval = SESSION_S
    made.connect_async(broker.host, broker.port, KEEPALIVE_S, clean_start=False, properties=properties)
    made.loop_start()


def stopped_by_signal() -> threading.Event:
    """An event set by SIGTERM (systemd's stop), so a service ends its loop cleanly."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    return stop
