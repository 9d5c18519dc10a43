"""systemd's notify protocol, received on a real AF_UNIX datagram socket as systemd's would."""
from __future__ import annotations

import os
import socket
import uuid

import pytest

from table.appliance.notify import Notifier, socket_address, watchdog_interval


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def bound(address: str) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.setblocking(False)
    return sock


def received(sock: socket.socket) -> list[str]:
    """Every message waiting on `sock`."""
    messages = []
    while True:
        try:
            messages.append(sock.recv(4096).decode())
        except BlockingIOError:
            return messages


@pytest.fixture
def systemd(tmp_path):
    """A notify socket at a path, as systemd makes one: (its socket, $NOTIFY_SOCKET)."""
    path = str(tmp_path / "notify")
    with bound(path) as sock:
        yield sock, path


def test_messages_reach_the_socket(systemd):
    sock, address = systemd
    notifier = Notifier({"NOTIFY_SOCKET": address})
    assert notifier.ready("Lobby: waiting for players")
    assert notifier.status("Feira Torio: bidding")
    assert notifier.stopping()
    notifier.close()
    assert received(sock) == ["READY=1\nSTATUS=Lobby: waiting for players", "STATUS=Feira Torio: bidding",
                              "STOPPING=1"]


def test_an_abstract_socket_is_reached():
    name = f"cardtable-test-{uuid.uuid4().hex}"
    with bound("\0" + name) as sock:
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).ready()
        assert received(sock) == ["READY=1"]


def test_a_status_is_sent_only_when_it_changes(systemd):
    sock, address = systemd
    notifier = Notifier({"NOTIFY_SOCKET": address})
    sent = [notifier.ready("Lobby"), notifier.status("Lobby"), notifier.status("Sweep"), notifier.status("Sweep"),
            notifier.status("Lobby")]
    assert sent == [True, False, True, False, True]
    assert received(sock) == ["READY=1\nSTATUS=Lobby", "STATUS=Sweep", "STATUS=Lobby"]


def test_the_watchdog_is_fed_once_per_interval(systemd):
    sock, address = systemd
    clock = Clock()
    notifier = Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "2000000", "WATCHDOG_PID": str(os.getpid())},
                        clock=clock)
    assert notifier.watchdog_interval == 1.0
    fed = []
    for now in (0.0, 0.03, 0.5, 0.99, 1.0, 1.2, 2.1, 2.2):
        clock.now = now
        fed.append(notifier.watchdog())
    assert fed == [True, False, False, False, True, False, True, False]
    assert received(sock) == ["WATCHDOG=1"] * 3


@pytest.mark.parametrize("environ, armed", [
    ({}, None),
    ({"WATCHDOG_USEC": "0"}, None),
    ({"WATCHDOG_USEC": "ten"}, None),
    ({"WATCHDOG_USEC": "10000000"}, 5.0),
    ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "4242"}, 5.0),
    ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "4243"}, None),   # armed for another process
])
def test_whether_the_watchdog_is_armed(environ, armed):
    assert watchdog_interval(environ, pid=4242) == armed


def test_outside_systemd_nothing_is_sent():
    notifier = Notifier({"WATCHDOG_USEC": "10000000"})
    assert (notifier.address, notifier.watchdog_interval) == (None, None)
    assert not any((notifier.ready("Lobby"), notifier.status("Sweep"), notifier.watchdog(), notifier.stopping()))


def test_a_socket_that_is_gone_is_no_error(tmp_path):
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert not notifier.ready()
    assert not notifier.watchdog()


def test_a_socket_nobody_reads_never_blocks_the_table_and_is_logged_once(systemd, caplog):
    """A full receive queue: the table's loop must go on (a blocking send would hang it, and the watchdog
    with it); the messages are dropped, one warning says so, and sending works again once read."""
    sock, address = systemd
    notifier = Notifier({"NOTIFY_SOCKET": address})
    sent = [notifier.send(f"STATUS={n}") for n in range(5000)]   # far more than a socket queue holds
    assert sent[0] and not sent[-1]
    assert len([r for r in caplog.records if "cannot tell systemd" in r.message]) == 1
    received(sock)
    assert notifier.send("STATUS=read again")
    notifier.close()


@pytest.mark.parametrize("value, address", [
    ("/run/systemd/notify", "/run/systemd/notify"), ("@name", "\0name"), ("@", None), ("", None),
    ("vsock:2:1234", None), ("relative/path", None),
])
def test_socket_addresses(value, address):
    assert socket_address(value) == address
