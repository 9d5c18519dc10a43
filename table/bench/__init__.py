"""`cardtable bench`: performance figures (DESIGN targets), never pass/fail; one module per bench.

engines: actions per second and complete games per second with random legal
play on one core, beside a bare sealed-bid probe played in turns with each
engine; the input path (check + apply) and the time to replay a full game.
pipeline: complete simulated games per second through the whole pipeline,
stepped in process; and in the loop `cardtable run` runs (its poller and
dispatcher threads, its run loop drawing the pages, headless), the time from
the raw read that settles a card to the pins of the seat light it changes
(p50/p99/max).
startup: the time from opening the table's files to its first frame after 0,
100 and 1,000 finished games, and as start-up was with one journal of every game;
and the time from starting `cardtable run` (the live table, on emulated
hardware) to its READY=1 to systemd, with SDL's dummy display and headless.
memory: the peak resident memory of `cardtable run` (the live table, on
emulated hardware, drawing at its full frame rate) on each display path
this machine can run: SDL's dummy driver, X11 with SDL's software and GL
framebuffers (Xvfb).
link: the café link on this machine's loopback with its real parts (Mosquitto, `cardtable hall` and `cardtable
link` as processes): the time a table's link takes to have 1,000 queued games acknowledged by the hall, the time
from a table's changed live state to its card at a hall page's event stream (p50/p95), and a hall holding 30 linked
tables and 100 spectators' streams for 20 s (streams held, the same time under that load, the hall's peak memory
and CPU time).
readers: SPI transfers per poll of an empty pad and of a pad with a card, for
our MFRC522 driver and for the mfrc522 0.0.7 package, counted in the
emulator; and the modelled time of a poll round of a 9-pad table at 1 MHz.
"""
from __future__ import annotations

import json

from table.bench import engines, link, memory, pipeline, readers, startup


def run_bench(what: str, seconds: float) -> dict:
    """The figures of the bench `what`; `seconds` for each measurement of engines and pipeline."""
    if what == "readers":
        return readers.bench_readers()
    if what == "startup":
        return startup.bench_startup()
    if what == "memory":
        return memory.bench_memory()
    if what == "link":
        return link.bench_link()
    return {"engines": engines.bench_engines, "pipeline": pipeline.bench_pipeline}[what](seconds)


def bench_command(what: str, seconds: float, as_json: bool) -> int:
    """`cardtable bench WHAT`: its figures, as one JSON object or one `name: value` line each."""
    figures = run_bench(what, seconds)
    print(json.dumps(figures) if as_json else "\n".join(f"{k}: {v}" for k, v in figures.items()))
    return 0
