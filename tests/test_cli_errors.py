"""Bad use of a command ends in one clear line on stderr and a non-zero status, never a traceback (issue 11).

Each case runs `python -m table` as a user would, so that whatever escapes
the command would show as the interpreter's traceback.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from table.cli import main
from table.hardware import pins
from table.layout import layout_path
from table.storage.registry import TagRegistry


def cardtable(tmp_path, *argv: str) -> subprocess.CompletedProcess:
    """`cardtable ARGV` run in a process of its own, its state (journal, registry) under `tmp_path`."""
    env = {name: value for name, value in os.environ.items() if name != "CARDTABLE_LAYOUT"}
    env |= {"CARDTABLE_STATE": str(tmp_path / "state"), "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    return subprocess.run([sys.executable, "-m", "table", *argv], capture_output=True, text=True, env=env,
                          timeout=120, check=False)


def assert_refused(result: subprocess.CompletedProcess, message: str) -> None:
    """The command said `message` on stderr, that one line only, and ended with status 1."""
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    assert (result.returncode, result.stderr) == (1, message + "\n")


@pytest.fixture
def a_file(tmp_path):
    """A plain file, where a command wants a folder."""
    path = tmp_path / "notes.txt"
    path.write_text("not a folder\n")
    return path


def test_a_missing_layout_is_named(tmp_path):
    nosuch = layout_path("nosuch")
    for command in (["demo"], ["doctor"], ["enrol", "--deck", "pairs"]):
        result = cardtable(tmp_path, *command, "--layout", "nosuch")
        assert_refused(result, f"cardtable {command[0]}: {nosuch}: cannot read it (No such file or directory)")


def test_a_wrong_layout_is_named_with_its_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(layout_path("pi-4-seat").read_text().replace("[centre]", "[center]"))
    result = cardtable(tmp_path, "doctor", "--layout", str(bad), "--emulated")
    assert_refused(result, f"cardtable doctor: {bad}: center: unknown key (known here: name, backend, reader, "
                           "presence, lights, pi, hubs, pads, seats, centre); did you mean 'centre'?")


def test_a_demo_of_a_player_count_the_game_does_not_take_says_which_it_takes(tmp_path):
    assert_refused(cardtable(tmp_path, "demo", "--game", "five-cards", "--players", "3"),
                   "cardtable demo: five-cards is for 2 players and this table has 6 seats, not 3 players")
    assert_refused(cardtable(tmp_path, "demo", "--game", "kitty", "--players", "9"),
                   "cardtable demo: kitty is for 3 to 6 players and this table has 8 seats, not 9 players")


def test_demo_frames_must_be_a_folder_that_can_be_made(tmp_path, a_file):
    assert_refused(cardtable(tmp_path, "demo", "--players", "3", "--frames", str(a_file)),
                   f"cardtable demo: {a_file} is a file: --frames takes a folder")
    assert_refused(cardtable(tmp_path, "demo", "--players", "3", "--frames", str(a_file / "frames")),
                   f"cardtable demo: {a_file / 'frames'}: Not a directory")


def test_journal_and_registry_paths_that_cannot_be_written(tmp_path, a_file):
    assert_refused(cardtable(tmp_path, "demo", "--players", "3", "--journal", str(a_file / "game.sqlite")),
                   f"cardtable demo: {a_file}: File exists")
    assert_refused(cardtable(tmp_path, "run", "--frames", "1", "--journal", str(a_file / "journal.sqlite")),
                   f"cardtable run: {a_file}: File exists")
    assert_refused(cardtable(tmp_path, "enrol", "--deck", "pairs", "--registry", str(a_file / "tags.sqlite")),
                   f"cardtable enrol: {a_file}: File exists")


def test_enrol_export_to_a_path_that_cannot_be_written(tmp_path, a_file):
    registry = tmp_path / "registry.sqlite"
    TagRegistry(registry).close()
    for target, problem in ((a_file / "tags.csv", "Not a directory"), (tmp_path, "Is a directory")):
        result = cardtable(tmp_path, "enrol", "--registry", str(registry), "--export", str(target))
        assert_refused(result, f"cardtable enrol: {target}: {problem}")


def test_doctor_break_is_for_emulated_tables_and_known_pads(tmp_path):
    assert_refused(cardtable(tmp_path, "doctor", "--layout", "pi-4-seat", "--break", "seat1"),
                   "cardtable doctor: --break needs --emulated (a real reader cannot be made deaf)")
    assert_refused(cardtable(tmp_path, "doctor", "--layout", "pi-4-seat", "--emulated", "--break", "seat9"),
                   "cardtable doctor: no pad 'seat9' in 'Pi-wired 4 seats, one pad per seat' "
                   "(its pads: seat1, seat2, seat3, seat4, centre)")


@pytest.mark.parametrize("command", [["run", "--frames", "1"], ["enrol", "--deck", "pairs", "--frames", "1"]])
def test_real_hardware_asked_for_off_a_pi_is_refused_before_anything_opens(tmp_path, monkeypatch, capsys, command):
    monkeypatch.setattr(pins, "pi_model", lambda root=None: None)
    assert main([*command, "--layout", "pi-4-seat", "--hardware", "real",
                 "--registry", str(tmp_path / "registry.sqlite")]) == 1
    out, err = capsys.readouterr()
    assert "missing" not in out
    assert err == (f"cardtable {command[0]}: this is not a Raspberry Pi (no Raspberry Pi model in "
                   "/proc/device-tree/model): the layout's lights, buttons and readers on the Pi cannot be driven "
                   "here; use --hardware simulated\n")


def test_version_and_logs_in_the_journal_format_under_systemd(tmp_path):
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "table", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("cardtable ")
    script = ("import logging, os, sys; from table.cli import configure_logging; st = os.fstat(2); "
              "os.environ['JOURNAL_STREAM'] = f'{st.st_dev}:{st.st_ino}'; configure_logging(False); "
              "logging.getLogger('table.x').warning('reader seat1 failed'); logging.getLogger('table.x').info('quiet')")
    err = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True).stderr
    assert err == "<4>table.x: reader seat1 failed\n"
    script = script.replace("os.environ['JOURNAL_STREAM'] = f'{st.st_dev}:{st.st_ino}'; ", "").replace(
        "configure_logging(False)", "configure_logging(True)")
    err = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True).stderr
    assert err.count("\n") == 2 and "WARNING table.x: reader seat1 failed" in err and "INFO table.x: quiet" in err


def test_replay_of_a_journal_that_is_not_there_or_only_its_wal(tmp_path):
    journal = tmp_path / "journal.sqlite"
    assert_refused(cardtable(tmp_path, "replay", str(journal)), f"cardtable replay: no journal at {journal}")
    Path(f"{journal}-wal").write_bytes(b"acknowledged inputs, maybe")
    assert_refused(cardtable(tmp_path, "replay", str(journal)),
                   f"cardtable replay: {journal}-wal: exists without {journal}: it may hold acknowledged inputs; "
                   "restore journal.sqlite or move the -wal file away (nothing was changed)")
    assert not journal.exists()


def test_the_cli_module_runs_as_a_script_too():
    """`python -m table.cli` as `python -m table` (a name it uses was defined under the __main__ guard)."""
    result = subprocess.run([sys.executable, "-m", "table.cli", "bench", "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "--seconds" in result.stdout, result.stderr
