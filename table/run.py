"""`cardtable run` on a table's own hardware: a poller thread reads the pads, a dispatcher thread runs the rest.

The poller thread only polls and publishes; the dispatcher thread delivers
each event as soon as it is published (presence, session, journal, lights);
the main thread copies the table's view and draws the page due, once a frame,
while a screen is there (none with --headless).
Without the layout's hardware, `run` opens the simulated table instead.
"""
from __future__ import annotations

import functools
import logging
import sys
import threading
from argparse import Namespace
from pathlib import Path

import pygame

from table.appliance.failures import TOO_OFTEN, too_often
from table.appliance.notify import Notifier
from table.appliance.power import carry_out
from table.appliance.stacks import all_stacks, dump_stacks_on_abort
from table.events import PowerAsked, Tick
from table.hardware import build
from table.hardware.pins import NoTableHardware
from table.layout import Layout, load_layout
from table.pipeline import Table
from table.screen import Screen
from table.screen.display import FPS, Display, run_display
from table.screen.draw import SIZE
from table.screen.outputs import Output, find_output
from table.screen.pager import Pager
from table.storage.files import TableFiles
from table.vitals import problems
from table.registry import GAMES

log = logging.getLogger(__name__)


class TableWindow:
    """The table's screen, full size: the page due now of the table's view. Escape quits (a keyboard, if any)."""

    def __init__(self, table: Table, lang: str = "fr", spectate: str | None = None) -> None:
        self.table = table
        self.pager = Pager(Screen(GAMES, lang, spectate))
        self.running = True

    def frame(self) -> pygame.Surface:
        return self.pager.frame(self.table.table_view())

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT or event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.running = False


def run(args: Namespace) -> int:
    """`cardtable run`: the layout's own hardware when it is all here, else the simulated table."""
    layout = load_layout(args.layout)   # a LayoutError is the one line `cardtable` prints for it
    hardware, missing = build.choose(layout, args.hardware)
    if hardware is None and args.headless:
        raise NoTableHardware(f"--headless runs the table on its own hardware, and layout {layout.name!r} has none "
                              "here (the simulated table is a window)")
    say_missing(layout, missing, hardware is None, "the simulated table")
    if hardware is None:
        from table.sim.window import run_window
        return run_window(args)
    return run_live(args, layout, hardware)


def say_missing(layout: Layout, missing: list[str], simulated: bool, instead: str) -> None:
    """Tell what table hardware is missing, if any, and what opens instead (or that it will show as faulty)."""
    if not missing:
        return
    then = f"opening {instead} instead" if simulated else "its readers there will show as out of order"
    print(f"Table hardware missing for layout {layout.name!r}; {then}:", *(f"  - {m}" for m in missing), sep="\n")


def run_live(args: Namespace, layout: Layout, hardware: build.Builder) -> int:
    """Run the table on `hardware` until the window closes (or for `args.frames` frames); without any display
    with `args.headless`. Under the table's service, after too many failures of late: one line, TOO_OFTEN."""
    if why := too_often(Path(args.journal).parent):
        print(f"cardtable run: {why}", file=sys.stderr)
        return TOO_OFTEN
    dump_stacks_on_abort()   # before any other thread starts
    output = None if args.headless else find_output(inputs=None)   # no screen at all: NoDisplay, before anything opens
    files = TableFiles(args.journal, args.registry)
    table = Table(layout, hardware, files.registry, files.journal, args.game)
    for notice in files.notices:
        table.session.tell_staff(notice)
    if table.session.resumed_note:
        print(f"cardtable run: {table.session.resumed_note}")
    for name, problem in table.hardware.wait_for_hubs(build.HUBS_WAIT_S).items():
        print(f"seat hub {name}: {problem}; its pads show as faulty until it is back")
    window = TableWindow(table, args.lang, args.spectate)
    asked: list[str] = []   # staff asked to power off or reboot from the staff menu: stop, then do it
    table.bus.subscribe(PowerAsked, lambda event: (asked.append(event.what), setattr(window, "running", False)))
    stop = threading.Event()
    poller = start_polling(table, stop)
    try:
        run_table(window, output, args.fullscreen, args.frames)
    finally:
        stop.set()
        poller.join()
        try:
            table.close()
        finally:
            files.close()
    return carry_out(asked[0]) if asked else 0


def start_polling(table: Table, stop: threading.Event) -> threading.Thread:
    """The table's poller thread, started: every reader polled each `poll_interval` until `stop` is set."""
    poller = threading.Thread(target=table.poller.run, args=(stop, table.layout.presence.poll_interval),
                              name="poller", daemon=True)
    poller.start()
    return poller


def run_table(window: TableWindow, output: Output | None, fullscreen: bool = False, frames: int = 0,
              notifier: Notifier | None = None) -> None:
    """The table's main loop until `window` stops running (or for `frames` frames): a dispatcher thread delivers
    each event as soon as it is published while this thread draws the pages on `output` (while its screen is
    there; None: headless) and keeps systemd told."""
    notifier = notifier or Notifier()
    polled = threading.Event()
    window.table.bus.subscribe(Tick, lambda _tick: polled.set())
    # a page is a new surface only when it changed: scaled to the display once
    display = Display(output, SIZE, "cardtable", fullscreen,
                      scale=functools.lru_cache(maxsize=1)(pygame.transform.smoothscale))
    count, ready, failing = 0, False, []

    def each_frame() -> None:
        """Before each frame: READY once a frame went round (drawn, when the screen is there) and the readers
        were polled; the watchdog fed only while every thread the table needs goes round; the status (once a
        second)."""
        nonlocal count, ready, failing
        if not ready and count and polled.is_set():
            notifier.ready(status_of(window.table, display))
            ready = True
        elif count % FPS == 0:
            notifier.status("; ".join(failing) or status_of(window.table, display))
        now_failing = problems(window.table.heartbeats())   # just before feeding: the status may have waited
        if now_failing != failing:
            failing = now_failing
            if failing:
                log.critical("the table does not work (%s): the watchdog is no longer fed. Every thread's stack:\n%s",
                             "; ".join(failing), all_stacks())
        if not failing:
            notifier.watchdog()
        count += 1

    stop = threading.Event()
    dispatcher = threading.Thread(target=window.table.bus.run, args=(stop,), name="dispatcher", daemon=True)
    dispatcher.start()
    try:
        run_display(window, display, frames, each_frame)
    finally:
        notifier.stopping()
        stop.set()
        dispatcher.join()


def status_of(table: Table, display: Display) -> str:
    """What the table does, in one line for `systemctl status` (never a card), and what it waits for to be seen."""
    view = table.table_view()
    doing = (f"lobby, {len(view['joined'])} seat(s) joined" if view["mode"] == "lobby"
             else f"playing {view['game']} at seats {', '.join(map(str, view['joined']))}")
    faults = view["faults"]
    return "; ".join(filter(None, (doing, f"{len(faults)} reader(s) faulty" if faults else "", display.waiting())))
