"""Shut down and reboot from the staff menu: the table stops first, then asks systemd, only as the service."""
from __future__ import annotations

import os
import subprocess
from argparse import Namespace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest

from table import run as run_module
from table.appliance.power import carry_out
from table.events import PowerAsked
from table.hardware import build
from table.layout import load_layout
from table.run import run_live


@pytest.mark.parametrize("environ", [{}, {"INVOCATION_ID": "0123abcd"}, {"CARDTABLE_APPLIANCE": "1"}])
def test_outside_the_tables_service_only_the_table_stops(environ, capsys):
    """Another unit (systemd-run --user, a terminal started by a user service) has $INVOCATION_ID too."""
    ran = []
    assert carry_out("poweroff", environ=environ, run=lambda *a, **k: ran.append(a)) == 0
    assert ran == [] and "the machine stays on" in capsys.readouterr().out


@pytest.mark.parametrize("what", ["poweroff", "reboot"])
def test_as_the_service_it_asks_systemctl_and_says_when_systemd_refused(what, caplog):
    ran = []

    def systemctl(command, **options):
        ran.append(command)
        return subprocess.CompletedProcess(command, 0 if len(ran) == 1 else 1, "", "Access denied")

    service = {"INVOCATION_ID": "0123abcd", "CARDTABLE_APPLIANCE": "1"}
    assert carry_out(what, environ=service, run=systemctl) == 0
    assert ran == [["systemctl", what, "--no-ask-password"]]
    assert carry_out(what, environ=service, run=systemctl) == 1   # refused: the service restarts the table
    assert "Access denied" in caplog.text


def test_a_power_request_stops_the_live_table_then_is_carried_out(tmp_path, monkeypatch):
    layout = load_layout("pi-4-seat")
    done = []
    monkeypatch.setattr(run_module, "carry_out", lambda what: done.append(what) or 7)

    def hardware(bus):
        bus.publish(PowerAsked("reboot"))   # as the staff menu publishes it, delivered once the loop runs
        return build.emulated(layout)(bus)

    args = Namespace(journal=tmp_path / "journal.sqlite", registry=tmp_path / "registry.sqlite", lang="fr",
                     spectate=None, fullscreen=False, headless=False, game=None,
                     frames=30 * 600)   # ten minutes unless the request stops it
    assert run_live(args, layout, hardware) == 7
    assert done == ["reboot"]
