"""`cardtable bench memory`: the live table's peak resident memory on each display path this machine runs (Xvfb,
Debian's xvfb, installed for the X11 paths as the café's tests install Mosquitto)."""
from __future__ import annotations

from table.bench.memory import PATHS, bench_memory
from tests.cafe.broker import needs


def test_every_display_path_is_measured_while_the_table_draws():
    assert not needs({"Xvfb": "xvfb"})
    figures = bench_memory(seconds=1)
    for name in PATHS:
        assert 20 < figures[f"{name}_peak_rss_mib"] < 1024
        assert 0 < figures[f"{name}_frames_per_s"] <= 31
    assert figures["dummy_peak_rss_mib"] < figures["x11_gl_peak_rss_mib"]
