"""`cardtable bench link` at a small size, with the café's real parts (Debian's Mosquitto, `cardtable hall` and
`cardtable link` as processes): its figures are measured, and it leaves no process and no folder behind; without
Mosquitto it is a note."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import pytest

from table.bench.link import bench_link
from tests.cafe.broker import REPO, needs


def test_the_link_bench_catches_up_sees_changes_at_the_pages_and_holds_every_spectator(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))   # its folders here: other runs' are not its own
    lacks = needs()
    if lacks:
        pytest.fail("the link bench needs " + ", ".join(lacks))
    figures = bench_link(queued=50, changes=10, tables=3, spectators=5, seconds=4)
    assert figures["catch_up_games"] == 50 and 0 < figures["catch_up_s"] < 20
    for part, sent in (("event", 10), ("load", 3 * 4)):
        assert figures[f"{part}_changes_sent"] == sent and figures[f"{part}_cards_missed"] < sent / 2
        assert 0 < figures[f"{part}_to_page_ms_p50"] <= figures[f"{part}_to_page_ms_p95"] < 2000
    assert figures["event_connections_held"] == 1
    assert figures["load_tables"] == 3 and figures["load_spectators"] == figures["load_connections_held"] == 5
    assert 0 < figures["load_hall_cpu_s"] < figures["load_s"] and 20 < figures["load_hall_peak_rss_mib"] < 1024
    assert list(tmp_path.glob("cardtable-bench-link-*")) == []
    assert subprocess.run(["pgrep", "-f", f"{tmp_path}/cardtable-bench-link-"], capture_output=True).stdout == b""


def test_without_mosquitto_the_link_bench_says_so_in_its_figures():
    run = subprocess.run([sys.executable, "-m", "table", "bench", "link", "--json"], cwd=REPO, capture_output=True,
                         text=True, timeout=60, env=os.environ | {"PATH": "/nonexistent"})
    assert run.returncode == 0 and run.stderr == ""
    assert json.loads(run.stdout) == {"link": "not measured: it needs Debian's mosquitto, mosquitto_passwd, openssl "
                                              "(sudo apt install mosquitto openssl)"}
