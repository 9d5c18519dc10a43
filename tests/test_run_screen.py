"""`cardtable run` and its screen: the live loop with the TV off, switched on, off and on again (a fake
/sys/class/drm, SDL's dummy driver); headless; and one line when there is no screen at all."""
from __future__ import annotations

import logging
import socket
import threading

import pygame
import pytest

from table.cli import main
from table.layout import load_layout
from table.run import TableWindow, run_table, start_polling
from table.screen import display as display_module
from table.screen import outputs
from table.screen.outputs import KmsCard, Output
from table.sim.simulated_table import SimulatedTable
from tests.test_events import wait_for


class Systemd:
    """systemd's end of the notify socket, read on a thread of its own as systemd does (a full socket would block
    the table): every message the table sent so far."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(address)
        self.sock.settimeout(0.05)
        self.got: list[str] = []
        self.stop = threading.Event()
        self.reader = threading.Thread(target=self._read, name="systemd")
        self.reader.start()

    def _read(self) -> None:
        """Until stopped, then what is left."""
        while not self.stop.is_set():
            try:
                self.got.append(self.sock.recv(4096).decode())
            except TimeoutError:
                pass
        self.sock.setblocking(False)
        try:
            while True:
                self.got.append(self.sock.recv(4096).decode())
        except BlockingIOError:
            pass

    def messages(self) -> list[str]:
        return list(self.got)

    def said(self, start: str) -> list[str]:
        return [m for m in self.messages() if m.startswith(start)]

    def close(self) -> list[str]:
        """Every message, once the table has stopped."""
        self.stop.set()
        self.reader.join()
        return self.got


@pytest.fixture
def systemd(tmp_path):
    listening = Systemd(str(tmp_path / "notify"))
    yield listening
    listening.close()
    listening.sock.close()


def test_the_table_plays_with_the_tv_off_and_draws_when_it_comes_on_goes_and_comes_back(tmp_path, monkeypatch,
                                                                                         systemd, caplog):
    from table.appliance.notify import Notifier
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(display_module, "LOOK_S", 0.05)   # look at the connector often: a quick test
    drm = tmp_path / "sys/class/drm"
    (drm / "card1-HDMI-A-1").mkdir(parents=True)
    status = drm / "card1-HDMI-A-1/status"
    status.write_text("disconnected\n")
    output = Output("dummy", KmsCard("platform-gpu-card", 1, drm))
    sim = SimulatedTable(load_layout("sim-6-single"))
    window = TableWindow(sim.table)
    drawn: list[bool] = []   # for each frame drawn: whether the display was open
    draw = TableWindow.frame
    monkeypatch.setattr(TableWindow, "frame", lambda self: drawn.append(pygame.display.get_init()) or draw(self))
    failed: list[BaseException] = []

    def fed_more(times: int):
        """A condition: the loop fed the watchdog `times` more times (so it went round that many frames at least)."""
        fed = len(systemd.said("WATCHDOG=1")) + times
        return lambda: len(systemd.said("WATCHDOG=1")) >= fed

    def the_evening() -> None:
        try:
            assert wait_for(lambda: systemd.said("READY=1"))
            assert systemd.said("READY=1") == ["READY=1\nSTATUS=lobby, 0 seat(s) joined; waiting for a screen on "
                                               "HDMI-A-1"]
            sim.pads["seat2"].place(sim.uid("TA01"))       # a player sits down: the table plays without a screen
            assert wait_for(lambda: sim.session.joined == [2])
            assert wait_for(fed_more(10)) and drawn == []
            status.write_text("connected\n")               # the TV comes on
            assert wait_for(lambda: len(drawn) >= 3)
            assert wait_for(lambda: "STATUS=lobby, 1 seat(s) joined" in systemd.messages())
            status.write_text("disconnected\n")            # and goes off
            assert wait_for(lambda: not pygame.display.get_init())
            shown = len(drawn)
            assert wait_for(fed_more(10)) and len(drawn) == shown
            assert wait_for(lambda: systemd.messages()[-2:].count(
                "STATUS=lobby, 1 seat(s) joined; waiting for a screen on HDMI-A-1") == 1)
            status.write_text("connected\n")               # and on again: drawn at once
            assert wait_for(lambda: len(drawn) > shown)
        except BaseException as error:
            failed.append(error)
        finally:
            window.running = False

    evening = threading.Thread(target=the_evening, name="evening")
    stop = threading.Event()
    poller = start_polling(sim.table, stop)
    evening.start()
    try:
        run_table(window, output, notifier=Notifier({"NOTIFY_SOCKET": systemd.address, "WATCHDOG_USEC": "20000"}))
    finally:
        window.running = False
        evening.join()
        stop.set()
        poller.join()
        sim.close()
    if failed:
        raise failed[0]
    assert all(drawn) and not pygame.display.get_init()
    assert [(r.levelname, r.getMessage()) for r in caplog.records if r.name == display_module.__name__] == [
        ("WARNING", "no screen on HDMI-A-1 yet: the table runs, and draws as soon as one is connected"),
        ("INFO", "screen connected on HDMI-A-1: drawing"),
        ("WARNING", "screen gone from HDMI-A-1: the table runs on, and draws again when it is back"),
        ("INFO", "screen connected on HDMI-A-1: drawing")]
    assert systemd.close()[-1] == "STOPPING=1"


def test_headless_the_live_table_says_ready_and_opens_no_display(tmp_path, monkeypatch, systemd):
    monkeypatch.setenv("NOTIFY_SOCKET", systemd.address)
    monkeypatch.setattr(pygame.display, "init", lambda: pytest.fail("a headless table opened the display"))
    monkeypatch.setattr(TableWindow, "frame", lambda self: pytest.fail("a headless table drew a frame"))
    assert main(["run", "--headless", "--hardware", "emulated", "--layout", "pi-4-seat", "--frames", "10",
                 "--journal", str(tmp_path / "journal.sqlite"), "--registry", str(tmp_path / "registry.sqlite")]) == 0
    said = systemd.close()
    assert [m for m in said if m.startswith("READY=1")] == ["READY=1\nSTATUS=lobby, 0 seat(s) joined"]
    assert said[-1] == "STOPPING=1"


def test_headless_without_table_hardware_is_refused_in_one_line(tmp_path, capsys):
    assert main(["run", "--headless", "--frames", "1", "--journal", str(tmp_path / "journal.sqlite")]) == 1
    out, err = capsys.readouterr()
    assert (out, err) == ("", "cardtable run: --headless runs the table on its own hardware, and layout 'Simulated "
                              "6 seats, one pad per seat' has none here (the simulated table is a window)\n")


@pytest.mark.parametrize("command", [
    ["run"], ["run", "--hardware", "emulated", "--layout", "pi-4-seat"], ["enrol", "--deck", "pairs"], ["fallback"]])
def test_with_no_screen_at_all_each_command_says_so_in_one_line_before_anything_opens(tmp_path, monkeypatch, capsys,
                                                                                       command):
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(outputs, "kms_cards", lambda *roots: [])
    monkeypatch.setattr(pygame.display, "init", lambda: pytest.fail("the display was opened"))
    state = tmp_path / "state"
    assert main([*command, "--frames", "1", *(["--journal", str(state / "journal.sqlite")] if command[0] == "run"
                                               else []),
                 *(["--registry", str(state / "registry.sqlite")] if command[0] != "fallback" else [])]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == (f"cardtable {command[0]}: no screen to draw on: no desktop, and no KMS card with a screen "
                       "connector in /dev/dri; connect a screen or run under a desktop (X or Wayland); "
                       "`cardtable run --headless` runs the table without a screen")
    assert not (state / "journal.sqlite").exists()
