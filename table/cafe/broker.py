"""The hall's broker set up from the project's own files: Debian's Mosquitto, persistence on, anonymous access off,
one password per table and one for the hall, and an ACL that keeps each table to its own topics (docs/cafe.md)."""
from __future__ import annotations

import secrets
import subprocess
from pathlib import Path

from table.cafe.mqtt import HALL_USER, CafeError, table_name

AUTOSAVE_S = 2   # how often Mosquitto writes its queues and retained messages to disk


def acl(tables: list[str]) -> str:
    """The ACL: table T publishes its games, live state and status, and reads only its acknowledgement; the hall
    reads every table's topics and writes every acknowledgement."""
    lines = [f"user {HALL_USER}", "topic read cafe/+/game/+", "topic read cafe/+/live", "topic read cafe/+/status",
             "topic write cafe/+/ack", ""]
    for table in tables:
        lines += [f"user {table}", f"topic write cafe/{table}/game/+", f"topic write cafe/{table}/live",
                  f"topic write cafe/{table}/status", f"topic read cafe/{table}/ack", ""]
    return "\n".join(lines)


def configuration(folder: Path, port: int, bind: str, user: str) -> str:
    """mosquitto.conf for a broker whose files are in `folder`, listening on `bind`:`port`, run as `user`."""
    return "\n".join([
        f"user {user}", "per_listener_settings false", "allow_anonymous false",
        f"password_file {folder / 'passwords'}", f"acl_file {folder / 'acl'}",
        "persistence true", f"persistence_location {folder / 'data'}/", f"autosave_interval {AUTOSAVE_S}",
        "log_dest stderr", "log_type error", "log_type warning", "log_type notice",
        f"listener {port} {bind}", ""])


def set_up(folder: Path, tables: list[str], port: int = 1883, bind: str = "0.0.0.0", user: str = "mosquitto") -> None:
    """Write the broker's files into `folder`: mosquitto.conf, acl, passwords (hashed by mosquitto_passwd) and
    credentials/NAME, each client's password (mode 0600), kept when set up again."""
    names = [table_name(t) for t in tables]
    if HALL_USER in names:
        raise CafeError(f"{HALL_USER!r} is the hall's own name: name the table otherwise")
    (folder / "data").mkdir(parents=True, exist_ok=True)
    (folder / "credentials").mkdir(mode=0o700, exist_ok=True)
    passwords = folder / "passwords"
    passwords.touch(mode=0o600)
    passwords.write_text("".join(f"{name}:{credential(folder, name)}\n" for name in [HALL_USER, *names]))
    try:
        subprocess.run(["mosquitto_passwd", "-U", str(passwords)], check=True, capture_output=True, text=True)
    except FileNotFoundError:
        raise CafeError("mosquitto_passwd is missing: install Debian's mosquitto (apt-get install mosquitto)") from None
    except subprocess.CalledProcessError as error:
        raise CafeError(f"mosquitto_passwd: {error.stderr.strip()}") from None
    (folder / "acl").write_text(acl(names))
    (folder / "mosquitto.conf").write_text(configuration(folder, port, bind, user))


def credential(folder: Path, name: str) -> str:
    """Client `name`'s password: read from credentials/NAME, made (random) the first time."""
    path = folder / "credentials" / name
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(secrets.token_urlsafe(24) + "\n")
    return path.read_text().strip()
