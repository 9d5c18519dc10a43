"""Failures counted over 30 minutes of one boot (issue 19, item 5): recorded from systemd's $SERVICE_RESULT,
refused start after five, a fallback that says so; a new boot starts afresh."""
from __future__ import annotations

from argparse import Namespace

from table.appliance import failures
from table.appliance.failures import LIMIT, TOO_OFTEN, WINDOW_S, recent, record, too_often
from table.appliance.fallback import Failure, message
from table.cli import main
from table.hardware import build
from table.layout import load_layout
from table.run import run_live

SERVICE = {"CARDTABLE_APPLIANCE": "1", "INVOCATION_ID": "0123abcd"}


def test_only_failures_of_this_boot_within_the_window_count(tmp_path):
    now = 1_800_000_000
    assert not record(tmp_path, "success", now, "boot-a")                 # a clean stop is no failure
    assert not (tmp_path / failures.FILE).exists()
    for at, boot, result in ((now - WINDOW_S - 1, "boot-a", "watchdog"), (now - 60, "boot-b", "signal"),
                             (now - 600, "boot-a", "watchdog"), (now - 5, "boot-a", "core-dump")):
        assert record(tmp_path, result, at, boot)
    with open(tmp_path / failures.FILE, "a") as log:
        log.write("garbage\n12 boot-a\n")                                 # a line cut short counts as none
    assert recent(tmp_path, now, "boot-a") == ["watchdog", "core-dump"]
    assert recent(tmp_path, now, "boot-c") == []                           # a new boot: cleared


def test_the_service_refuses_to_start_after_five_failures_and_says_which(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(failures, "boot_id", lambda: "this-boot")
    for result in ["watchdog"] * 3 + ["core-dump"] * (LIMIT - 4):
        record(tmp_path, result)
    assert too_often(tmp_path, SERVICE) is None                            # four: still starts
    record(tmp_path, "core-dump")
    why = too_often(tmp_path, SERVICE)
    assert why == ("the table failed 5 times in 30 minutes (watchdog 3, core-dump 2): it stays stopped until the "
                   "machine is restarted")
    assert too_often(tmp_path, {}) is None                                 # by hand, outside the service: it runs
    for key, value in SERVICE.items():
        monkeypatch.setenv(key, value)
    layout = load_layout("pi-4-seat")
    args = Namespace(journal=tmp_path / "journal.sqlite", registry=tmp_path / "registry.sqlite", lang="fr",
                     spectate=None, fullscreen=False, headless=True, game=None, frames=1)
    assert run_live(args, layout, build.emulated(layout)) == TOO_OFTEN == 78
    assert capsys.readouterr().err == f"cardtable run: {why}\n"
    assert not (tmp_path / "journal.sqlite").exists()                      # nothing opened


def test_cardtable_ended_records_what_systemd_says(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDTABLE_STATE", str(tmp_path))
    monkeypatch.setattr("table.cli.DEFAULT_JOURNAL", tmp_path / "journal.sqlite")
    for result in ("success", "watchdog", "exit-code"):
        monkeypatch.setenv("SERVICE_RESULT", result)
        assert main(["ended"]) == 0
    assert recent(tmp_path) == ["watchdog", "exit-code"]


def test_the_fallback_says_the_table_failed_too_often():
    failure = Failure("cardtable.service", "exit-code", f"exited {TOO_OFTEN}")
    texts = [text for _, text in message(failure, "Marie")]
    assert texts[0] == "La table s'est arrêtée : le programme a échoué 5 fois en 30 minutes."
    assert texts[2] == "The table stopped: the program failed 5 times in 30 minutes."
