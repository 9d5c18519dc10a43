"""`cardtable run` on a table's own hardware (the emulated Pi table, read by the real driver in a thread), and its
loop (poller and dispatcher threads, pages drawn on the main thread) on a simulated table."""
from __future__ import annotations

import os
import threading
from argparse import Namespace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
import pytest

from table.assets import deck_data
from table.cli import main
from table.hardware import build
from table.hardware.ports import LightState
from table.layout import layout_path, load_layout
from table.run import TableWindow, run_live, run_table, start_polling
from table.screen.outputs import find_output
from table.sim.simulated_table import SimulatedTable
from table.storage.journal import Journal
from table.storage.registry import Tag, TagRegistry, enrol_simulated
from tests.test_events import wait_for


def test_run_without_the_layouts_hardware_says_what_is_missing_and_opens_the_simulated_table(tmp_path, capsys):
    assert main(["run", "--layout", "pi-4-seat", "--frames", "2", "--journal", str(tmp_path / "j.sqlite")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Table hardware missing for layout 'Pi-wired 4 seats, one pad per seat'; "
                          "opening the simulated table instead:")
    assert "this is not a Raspberry Pi" in out and "/dev/spidev0.0" in out


def test_run_refuses_a_broken_layout_with_its_problems(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(layout_path("pi-4-seat").read_text().replace("cs = 5", "cs = 4"))
    assert main(["run", "--layout", str(bad), "--frames", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cardtable run: ") and "is used twice" in err and str(bad) in err


def test_the_live_table_reads_cards_on_its_poller_thread_and_journals_the_joins(tmp_path):
    layout = load_layout("pi-4-seat")
    registry_path = tmp_path / "registry.sqlite"
    registry = TagRegistry(registry_path)
    enrol_simulated(registry, "feira-torio", [c["id"] for c in deck_data("feira-torio")["cards"]])
    uids = [registry.uid_of(Tag("card", "feira-torio", card)) for card in ("TA01", "VA02", "AB03")]
    registry.close()

    def hardware(bus):
        built = build.emulated(layout)(bus)
        for pad, uid in zip(("seat1", "seat2", "seat4"), uids):
            build.ChipPad(built.chips[pad]).place(uid)   # three players sit down with a card on their pad
        return built

    args = Namespace(journal=tmp_path / "journal.sqlite", registry=registry_path, lang="fr", fullscreen=False, game=None,
                     spectate=None, headless=False, frames=60)   # two seconds at 30 frames a second: about 100 polls of every pad
    assert run_live(args, layout, hardware) == 0
    journal = Journal(args.journal)
    assert [(kind, data) for _, kind, data in journal.entries()] == [
        ("join", {"seat": 1}), ("join", {"seat": 2}), ("join", {"seat": 4})]
    journal.close()


def run_loop(sim: SimulatedTable, **options) -> None:
    """The loop of `cardtable run` on a simulated table: its poller thread, and its run loop on this thread."""
    stop = threading.Event()
    poller = start_polling(sim.table, stop)
    try:
        run_table(TableWindow(sim.table), find_output(), **options)
    finally:
        stop.set()
        poller.join()


def test_a_card_lights_its_seat_while_a_frame_is_being_drawn(monkeypatch):
    """The frame waits for the seat light: it would wait in vain if events were delivered between frames."""
    sim = SimulatedTable(load_layout("sim-6-single"))
    draw, lit = TableWindow.frame, []

    def frame(window: TableWindow):
        if not lit:
            sim.pads["seat2"].place(sim.uid("TA01"))
            lit.append(wait_for(lambda: sim.table.lights[2].state is LightState.LOCKED))
            window.running = False
        return draw(window)

    monkeypatch.setattr(TableWindow, "frame", frame)
    try:
        run_loop(sim)
    finally:
        sim.close()
    assert lit == [True] and sim.session.joined == [2]


def test_the_run_loop_draws_a_page_each_frame_scales_it_once_and_stops_its_threads(monkeypatch):
    sim = SimulatedTable(load_layout("sim-6-single"))
    draw, drawn, scaled = TableWindow.frame, [], []
    scale = pygame.transform.smoothscale

    def frame(window: TableWindow):
        drawn.append(draw(window))
        return drawn[-1]

    monkeypatch.setattr(TableWindow, "frame", frame)
    monkeypatch.setattr(pygame.transform, "smoothscale", lambda page, size: scaled.append(size) or scale(page, size))
    try:
        run_loop(sim, frames=5)
    finally:
        sim.close()
    assert [page.get_size() for page in drawn] == [(1280, 720)] * 5
    assert len(scaled) == 1 and scaled[0] != (1280, 720)   # the dummy display is smaller; the lobby never changed
    assert not [thread.name for thread in threading.enumerate() if thread.name in ("dispatcher", "poller")]


def test_the_run_loop_tells_systemd_it_is_ready_once_a_frame_is_up_and_feeds_the_watchdog(tmp_path):
    """READY=1 with a status after the first frame drawn and the first round of polls, WATCHDOG=1 while it runs,
    STOPPING=1 at the end: over a real datagram socket, as systemd's $NOTIFY_SOCKET."""
    import socket

    from table.appliance.notify import Notifier
    address = str(tmp_path / "notify")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(address)
    server.settimeout(5)
    notifier = Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "20000"})   # armed: fed every 10 ms
    sim = SimulatedTable(load_layout("sim-6-single"))
    try:
        stop = threading.Event()
        poller = start_polling(sim.table, stop)
        try:
            run_table(TableWindow(sim.table), find_output(), frames=8, notifier=notifier)
        finally:
            stop.set()
            poller.join()
    finally:
        sim.close()
    messages = []
    server.settimeout(0.5)
    try:
        while True:
            messages.append(server.recv(4096).decode())
    except TimeoutError:
        pass
    server.close()
    ready = [m for m in messages if m.startswith("READY=1")]
    assert len(ready) == 1 and "STATUS=lobby, 0 seat(s) joined" in ready[0]
    assert messages.index(ready[0]) < len(messages) - 1
    assert "WATCHDOG=1" in messages and messages[-1].startswith("STOPPING=1")


class Killer:
    """An event whose handler ends the thread that delivers it (SystemExit is no error the bus catches), or holds
    it for `stuck_s` seconds."""

    def __init__(self, stuck_s: float = 0.0) -> None:
        self.stuck_s = stuck_s
        self.at: float | None = None

    def __call__(self, _event) -> None:
        import time
        self.at = time.monotonic()
        if not self.stuck_s:
            raise SystemExit
        time.sleep(self.stuck_s)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")   # the thread killed on purpose
@pytest.mark.parametrize("how", ["dispatcher dies", "dispatcher stuck", "poller dies"])
def test_the_watchdog_is_no_longer_fed_once_a_thread_the_table_needs_dies_or_is_stuck(tmp_path, monkeypatch, how,
                                                                                       caplog):
    """Over a real notify socket: WATCHDOG=1 while every thread goes round, none from the moment one has died (or
    has not gone round for STUCK_S), so systemd restarts the table."""
    import socket
    import time

    from table import vitals
    from table.appliance.notify import Notifier
    from table.events import PowerAsked
    monkeypatch.setattr(vitals, "STUCK_S", 0.3)
    address = str(tmp_path / "notify")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(address)
    server.settimeout(0.1)
    heard: list[tuple[float, str]] = []
    done = threading.Event()

    def listen() -> None:
        while not done.is_set():
            try:
                message = server.recv(4096).decode()
                heard.append((time.monotonic(), message))
            except TimeoutError:
                pass

    receiver = threading.Thread(target=listen, daemon=True)
    receiver.start()
    notifier = Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "40000"})   # fed every 20 ms while well
    sim = SimulatedTable(load_layout("sim-6-single"))
    killer = Killer(stuck_s=2.5 if how == "dispatcher stuck" else 0.0)   # held past the run's 1.5 s of frames
    begun = time.monotonic()
    wall_minus_monotonic = time.time() - begun                      # log records carry wall-clock times
    if how == "poller dies":
        reader = sim.table.hardware.readers["seat1"]
        monkeypatch.setattr(reader, "poll", lambda: killer(None) if time.monotonic() > begun + 0.5 else None)
    else:
        sim.table.bus.subscribe(PowerAsked, killer)
        threading.Timer(0.5, lambda: sim.table.bus.publish(PowerAsked("nothing"))).start()
    try:
        stop = threading.Event()
        poller = start_polling(sim.table, stop)
        try:
            with caplog.at_level("CRITICAL"):
                run_table(TableWindow(sim.table), find_output(), frames=45, notifier=notifier)
        finally:
            stop.set()
            poller.join()
    finally:
        sim.close()
        done.set()
        receiver.join()
        server.close()
    fed = [at for at, message in heard if message == "WATCHDOG=1"]
    assert killer.at is not None and fed and fed[0] < killer.at, "fed while the table worked"
    noticed = [record.created - wall_minus_monotonic for record in caplog.records
               if "the watchdog is no longer fed" in record.getMessage()]
    assert noticed and ("stopped" in caplog.text or "stuck" in caplog.text)
    due = killer.at + (vitals.STUCK_S if how == "dispatcher stuck" else 0.0)
    assert noticed[0] - due < 1.0, "noticed within a second (a loaded machine schedules the dying thread late)"
    back = killer.at + killer.stuck_s if killer.stuck_s else float("inf")   # a stuck dispatcher goes round again
    assert [at for at in fed if noticed[0] < at < back] == [], "never fed while a thread does not go round"
    assert "Every thread's stack:\nThread " in caplog.text and "Thread 'MainThread'" in caplog.text
    if how == "dispatcher stuck":                                     # where it is stuck, for whoever reads the log
        assert "time.sleep(self.stuck_s)" in caplog.text
