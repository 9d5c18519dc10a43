"""The watchdog's SIGABRT leaves every thread's stack in the journal, then aborts: the live table (on emulated
hardware, headless, in a process of its own) killed as systemd's watchdog kills it, several times, and each time
the whole dump is there (faulthandler's own dump, unsafe while threads run, once crashed midway)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from table.appliance.stacks import all_stacks

LIVE_TABLE = """
import sys
from argparse import Namespace
from pathlib import Path
from table.hardware import build
from table.layout import load_layout
from table.run import run_live
state = Path(sys.argv[1])
layout = load_layout("pi-4-seat")
args = Namespace(journal=state / "journal.sqlite", registry=state / "registry.sqlite", lang="fr", fullscreen=False,
                 spectate=None, headless=True, game=None, frames=0)
print("running", flush=True)
run_live(args, layout, build.emulated(layout))
"""


def test_all_stacks_names_every_thread_with_its_calls():
    text = all_stacks()
    assert "Thread 'MainThread' (most recent call last):" in text
    assert "in test_all_stacks_names_every_thread_with_its_calls" in text


def test_the_watchdogs_abort_writes_every_threads_stack_then_aborts(tmp_path):
    environ = os.environ | {"PYTHONFAULTHANDLER": "1", "SDL_VIDEODRIVER": "dummy"}
    for kill in range(3):
        table = subprocess.Popen([sys.executable, "-c", LIVE_TABLE, tmp_path], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=environ)
        assert table.stdout.readline() == "running\n"
        time.sleep(1.5)                                                  # the threads go round
        table.send_signal(signal.SIGABRT)
        _, err = table.communicate(timeout=30)
        assert table.returncode == -signal.SIGABRT, err
        assert "SIGABRT (the watchdog?): every thread's stack, then abort." in err
        for thread in ("MainThread", "dispatcher", "poller", "reader nurse", "stack dump"):
            assert f"Thread {thread!r} (most recent call last):" in err, (kill, thread, err)
        assert "in run_table" in err and "Fatal Python error" not in err
