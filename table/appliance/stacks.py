"""Every thread's Python stack for the journal, taken safely: under the GIL, from `sys._current_frames`.

faulthandler (PYTHONFAULTHANDLER) dumps the other threads' stacks from a
signal handler while those threads run on, which can itself crash midway
(seen once in three watchdog kills: the main thread's stack was lost). So
the watchdog's SIGABRT is taken over: blocked in every thread, it is
received by a thread of its own that writes every stack and only then
aborts the process, as systemd expects. faulthandler keeps the fatal
errors (a segmentation fault, an abort from C).
"""
from __future__ import annotations

import faulthandler
import functools
import os
import signal
import sys
import threading
import traceback


def all_stacks() -> str:
    """Every thread's Python stack, most recent call last, each under its thread's name."""
    names = {thread.ident: thread.name for thread in threading.enumerate()}
    return "\n".join(f"Thread {names.get(ident, ident)!r} (most recent call last):\n"
                     + "".join(traceback.format_stack(frame)).rstrip("\n")
                     for ident, frame in sys._current_frames().items())


@functools.cache   # once per process: called again, nothing more
def dump_stacks_on_abort() -> None:
    """Take over SIGABRT sent from outside (systemd's watchdog): write every thread's stack to stderr (the
    journal), then abort. Call on the main thread before other threads start: they inherit the block."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGABRT})
    threading.Thread(target=_on_abort, name="stack dump", daemon=True).start()


def _on_abort() -> None:
    signal.sigwait({signal.SIGABRT})
    out = sys.stderr
    out.write(f"SIGABRT (the watchdog?): every thread's stack, then abort.\n{all_stacks()}\n")
    out.flush()
    faulthandler.disable()   # its own dump, unsafe, would follow abort()
    os.abort()
