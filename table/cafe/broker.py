"""The hall's broker set up from the project's own files: Debian's Mosquitto, persistence on, TLS with a CA made at
set-up, anonymous access off, one password per table and one for the hall, and an ACL that keeps each table to its
own topics (docs/cafe.md)."""
from __future__ import annotations

import ipaddress
import json
import secrets
import socket
import subprocess
from collections.abc import Callable
from pathlib import Path

from table.cafe.mqtt import HALL_USER, PLAYERS, CafeError, table_name

STAFF_PASSWORD = "staff.password"   # the hall's staff page's password, in the set-up's folder
READABLE = "abcdefghjkmnpqrstuvwxyz23456789"   # a staff password's letters: none read as another
AUTOSAVE_S = 2        # how often Mosquitto writes its queues and retained messages to disk
CERTIFICATE_DAYS = 3650


def acl(tables: list[str]) -> str:
    """The ACL: table T publishes its games, live state, status and the hall's cards it cannot take (shadowed), and
    reads only its acknowledgement and the hall's player cards; the hall reads every table's topics and writes
    every acknowledgement and the cards."""
    lines = [f"user {HALL_USER}", "topic read cafe/+/game/+", "topic read cafe/+/live", "topic read cafe/+/status",
             "topic read cafe/+/shadowed", "topic write cafe/+/ack", f"topic write {PLAYERS}", ""]
    for table in tables:
        lines += [f"user {table}", f"topic write cafe/{table}/game/+", f"topic write cafe/{table}/live",
                  f"topic write cafe/{table}/status", f"topic write cafe/{table}/shadowed",
                  f"topic read cafe/{table}/ack", f"topic read {PLAYERS}", ""]
    return "\n".join(lines)


def configuration(folder: Path, port: int, bind: str, user: str) -> str:
    """mosquitto.conf for a broker whose files are in `folder`, listening on `bind`:`port`, run as `user`."""
    return "\n".join([f"user {user}", f"persistence_location {folder / 'data'}/", "log_dest stderr", "log_type error",
                      "log_type warning", "log_type notice", listener(folder, port, bind)])


def listener(folder: Path, port: int, bind: str) -> str:
    """The café's part of the configuration, all a system's Mosquitto needs besides its own (Debian's
    mosquitto.conf, which includes conf.d/): persistence on, no anonymous access, the password file and ACL in
    `folder`, and a TLS listener on `bind`:`port`."""
    return "\n".join([
        "per_listener_settings false", "allow_anonymous false",
        f"password_file {folder / 'passwords'}", f"acl_file {folder / 'acl'}",
        "max_packet_size 1048576", "persistence true", f"autosave_interval {AUTOSAVE_S}",
        f"listener {port} {bind}", f"cafile {folder / 'ca.crt'}", f"certfile {folder / 'server.crt'}",
        f"keyfile {folder / 'server.key'}", "tls_version tlsv1.2", ""])


def set_up(folder: Path, tables: list[str], port: int = 8883, bind: str = "0.0.0.0", user: str = "mosquitto",
           hosts: tuple[str, ...] = ()) -> None:
    """Write the broker's files into `folder`: mosquitto.conf (a broker of its own), cardtable.conf (the same for
    a system's Mosquitto, in its conf.d/), acl, passwords (hashed by mosquitto_passwd), credentials/NAME (each
    client's password, mode 0600), the CA (ca.crt, the file the clients trust) with the broker's certificate for
    `hosts` (besides this machine's names), and tables/NAME.link (all a table's link needs, for `install.py
    --link`; mode 0600), and staff.password (the staff page's, mode 0600): the credentials and certificates made
    once, kept when set up again."""
    names = [table_name(t) for t in tables]
    if HALL_USER in names:
        raise CafeError(f"{HALL_USER!r} is the hall's own name: name the table otherwise")
    (folder / "data").mkdir(parents=True, exist_ok=True)
    (folder / "credentials").mkdir(mode=0o700, exist_ok=True)
    passwords = folder / "passwords"
    users = [HALL_USER, *names]
    if not passwords.exists() or [line.partition(":")[0] for line in passwords.read_text().splitlines()] != users:
        passwords.touch(mode=0o600)
        passwords.write_text("".join(f"{name}:{credential(folder, name)}\n" for name in users))
        _run(["mosquitto_passwd", "-U", str(passwords)], "mosquitto")
    if not (folder / "server.crt").exists():
        certificates(folder, ("localhost", "127.0.0.1", socket.gethostname(), f"{socket.gethostname()}.local", *hosts))
    _write(folder / "acl", acl(names))
    _write(folder / "mosquitto.conf", configuration(folder, port, bind, user))
    _write(folder / "cardtable.conf", listener(folder, port, bind))
    staff_password(folder)
    (folder / "tables").mkdir(mode=0o700, exist_ok=True)
    for name in names:
        link = {"table": name, "hall": (*hosts, "localhost")[0], "port": port, "password": credential(folder, name),
                "ca": (folder / "ca.crt").read_text()}
        (folder / "tables" / f"{name}.link").touch(mode=0o600)
        _write(folder / "tables" / f"{name}.link", json.dumps(link, indent=1) + "\n")


def _write(path: Path, text: str) -> None:
    """Write `text` to `path` unless it already holds it (a broker set up again changes nothing)."""
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def certificates(folder: Path, names: tuple[str, ...]) -> None:
    """A CA (ca.key, ca.crt) and the broker's key and certificate (server.key, server.crt) for the host names and
    addresses `names`, made with openssl."""
    alt = ",".join(dict.fromkeys(f"{'IP' if _is_address(name) else 'DNS'}:{name}" for name in names))
    key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    days = ["-days", str(CERTIFICATE_DAYS)]
    for name in ("ca.key", "server.key"):
        (folder / name).touch(mode=0o600)
    _run(["openssl", "req", "-x509", *key, *days, "-keyout", str(folder / "ca.key"), "-out", str(folder / "ca.crt"),
          "-subj", "/CN=cardtable hall CA", "-addext", "basicConstraints=critical,CA:TRUE"], "openssl")
    _run(["openssl", "req", *key, "-keyout", str(folder / "server.key"), "-out", str(folder / "server.csr"),
          "-subj", f"/CN={names[0]}"], "openssl")
    (folder / "server.ext").write_text(f"subjectAltName={alt}\nextendedKeyUsage=serverAuth\n")
    _run(["openssl", "x509", "-req", *days, "-in", str(folder / "server.csr"), "-CA", str(folder / "ca.crt"),
          "-CAkey", str(folder / "ca.key"), "-CAcreateserial", "-extfile", str(folder / "server.ext"),
          "-out", str(folder / "server.crt")], "openssl")


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _run(command: list[str], package: str) -> None:
    """Run one of the set-up's tools; CafeError when it is missing or fails."""
    try:
        subprocess.run(command, check=True, capture_output=True, text=True)
    except FileNotFoundError:
        raise CafeError(f"{command[0]} is missing: install Debian's {package} (apt-get install {package})") from None
    except subprocess.CalledProcessError as error:
        raise CafeError(f"{command[0]}: {(error.stderr.strip().splitlines() or ['failed'])[-1]}") from None


def staff_password(folder: Path) -> str:
    """The staff page's password, read from staff.password, made the first time: four groups of five letters
    and digits to type on a phone (about 99 bits)."""
    return _secret(folder / STAFF_PASSWORD,
                   lambda: "-".join("".join(secrets.choice(READABLE) for _ in range(5)) for _ in range(4)))


def credential(folder: Path, name: str) -> str:
    """Client `name`'s password: read from credentials/NAME, made (random) the first time."""
    return _secret(folder / "credentials" / name, lambda: secrets.token_urlsafe(24))


def _secret(path: Path, made: Callable[[], str]) -> str:
    """The secret in the file at `path`, made by `made` the first time (the file's mode 0600)."""
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(made() + "\n")
    return path.read_text().strip()
