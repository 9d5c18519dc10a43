"""Debian's real Mosquitto for the café tests, set up by the project's own files (table/cafe/broker.py) on a free
loopback port; and the link and the hall as processes of their own (`cardtable link`, `cardtable hall`)."""
from __future__ import annotations

import fcntl
import getpass
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from table.cafe.broker import STAFF_PASSWORD, credential, set_up
from table.cafe.mqtt import HALL_USER, Broker
from table.cafe.simulated import HOST, free_port

REPO = Path(__file__).resolve().parents[2]
TOOLS = {"mosquitto": "mosquitto", "mosquitto_passwd": "mosquitto", "openssl": "openssl"}
TABLES = ["t1", "t2", "t3", "t4"]   # the tables the tests' broker lets in


def needs(tools: dict[str, str] = TOOLS) -> list[str]:
    """What this machine lacks of `tools` (command -> Debian package; by default the broker's), empty: nothing,
    once their packages were installed (as root) where they are missing."""
    if os.geteuid() == 0 and any(shutil.which(tool) is None for tool in tools):
        with open("/tmp/cardtable-tests-apt.lock", "w") as lock:   # test workers install one at a time
            fcntl.flock(lock, fcntl.LOCK_EX)
            missing = sorted({package for tool, package in tools.items() if shutil.which(tool) is None})
            if missing:
                subprocess.run(["apt-get", "update", "-qq"], capture_output=True)
                subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing],
                               capture_output=True, env=os.environ | {"DEBIAN_FRONTEND": "noninteractive"})
    return [f"the command {tool} (Debian package {package}: install it, or run the tests as root)"
            for tool, package in tools.items() if shutil.which(tool) is None]


def until(done, seconds: float, what: str):
    """Wait until `done()` is true (returns it); AssertionError naming `what` after `seconds`."""
    end = time.monotonic() + seconds
    while not (result := done()):
        assert time.monotonic() < end, f"{what}: not after {seconds} s"
        time.sleep(0.05)
    return result


class RunningBroker:
    """Mosquitto with its files in `folder`, for `tables` and the hall; started, killed, started again."""

    def __init__(self, folder: Path, tables: list[str]) -> None:
        self.folder = folder
        self.port = free_port()
        self.web_port = free_port()   # the hall's pages
        set_up(folder, tables, self.port, HOST, getpass.getuser())
        self.process: subprocess.Popen | None = None
        self.services: list[Service] = []   # its clients' processes, killed with it

    def start(self) -> None:
        log = open(self.folder / "mosquitto.log", "a")
        self.process = subprocess.Popen(["mosquitto", "-c", str(self.folder / "mosquitto.conf")], stderr=log,
                                        stdout=log)
        log.close()
        until(self._listening, 10, "mosquitto listening")

    def _listening(self) -> bool:
        assert self.process.poll() is None, (self.folder / "mosquitto.log").read_text()
        try:
            socket.create_connection((HOST, self.port), timeout=0.2).close()
        except OSError:
            return False
        return True

    def kill(self) -> None:
        """SIGKILL: nothing saved since the last autosave."""
        self.process.kill()
        self.process.wait()

    def close(self) -> None:
        """Kill the services and the broker."""
        for service in self.services:
            service.kill()
        self.kill()

    def link(self, table: str, state: Path, port: int | None = None) -> Service:
        """`cardtable link` of `table`, whose state directory is `state`, on this broker (not started); through
        `port` (a proxy's) when given."""
        options = self.options(table) + (["--port", str(port)] if port else [])
        return self.service(["table", "--verbose", "link", "--table", table, *options, "--state", str(state)],
                            state.parent / f"link-{table}.log")

    def hall(self, state: Path) -> Service:
        """`cardtable hall` keeping hall.sqlite in `state`, on this broker, its pages on loopback's `web_port`
        (not started)."""
        return self.service(["table", "--verbose", "hall", *self.options(HALL_USER), "--state", str(state),
                             "--web", f"{HOST}:{self.web_port}", "--staff-password-file",
                             str(self.folder / STAFF_PASSWORD)], state.parent / "hall.log")

    def service(self, args: list[str], log: Path) -> Service:
        """A process killed with this broker (not started)."""
        service = Service(args, log)
        self.services.append(service)
        return service

    def stop(self) -> None:
        """SIGTERM: Mosquitto saves its queues and retained messages first."""
        self.process.terminate()
        self.process.wait()

    def broker(self, user: str) -> Broker:
        return Broker(HOST, self.port, user, credential(self.folder, user), self.folder / "ca.crt")

    def options(self, user: str) -> list[str]:
        """The command-line options of `user`'s client of this broker."""
        return ["--broker", HOST, "--port", str(self.port), "--password-file", str(self.folder / "credentials" / user),
                "--ca", str(self.folder / "ca.crt")]


class Service:
    """A Python module run as a process of its own with `args` (`cardtable link`, `cardtable hall`, a table of
    bots), from the repository, its output in `log`."""

    def __init__(self, args: list[str], log: Path) -> None:
        self.args, self.log = args, log
        self.process: subprocess.Popen | None = None

    def start(self) -> Service:
        with open(self.log, "a") as log:
            self.process = subprocess.Popen([sys.executable, "-m", *self.args], stderr=log, stdout=log, cwd=REPO)
        return self

    def ended(self) -> int | None:
        """Its exit status (None: running)."""
        return self.process.poll()

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send `sig` and wait for the process to end (nothing when it has ended or never started)."""
        if self.process is not None:
            self.process.send_signal(sig)
            self.process.wait(10)


class Proxy:
    """A loopback TCP proxy to `port` that can cut every connection passing through it, as a network does."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.create_server((HOST, 0))
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near = self.listener.accept()[0]
            except OSError:   # closed
                return
            try:
                far = socket.create_connection((HOST, self.target))
            except OSError:   # the broker is down: the client tries again
                near.close()
                continue
            with self._lock:
                self.sockets += [near, far]
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=_pump, args=(a, b), daemon=True).start()

    def cut(self) -> None:
        """Cut every connection now (the clients connect again through it)."""
        with self._lock:
            sockets, self.sockets = self.sockets, []
        for each in sockets:
            _shut(each)
            each.close()

    def close(self) -> None:
        self.listener.close()
        self.cut()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    """Copy `source` to `sink` until either closes, then close both (a broker gone is a connection gone)."""
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    _shut(source)
    _shut(sink)


def _shut(each: socket.socket) -> None:
    try:
        each.shutdown(socket.SHUT_RDWR)
    except OSError:   # already closed
        pass
