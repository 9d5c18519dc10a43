"""`cardtable cafe`, as a newcomer runs it: Debian's Mosquitto, the hall and tables of bots with their links, each a
process; the hall's page shows the tables live, their finished games and their regulars; it stops cleanly, leaving
no process behind, and says in one line what it lacks."""
from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from table.cafe import simulated
from table.cafe.broker import staff_password
from table.cafe.mqtt import CafeError
from tests.cafe.broker import REPO, free_port, needs, until


def page(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return answer.read().decode()
    except OSError:
        return ""


def test_a_simulated_cafe_shows_its_tables_games_and_players_at_the_hall_then_stops(tmp_path):
    lacks = needs()
    if lacks:
        pytest.fail("the simulated café needs " + ", ".join(lacks))
    web = free_port()
    cafe = subprocess.Popen([sys.executable, "-m", "table", "cafe", "--tables", "2", "--web", f"127.0.0.1:{web}",
                             "--folder", str(tmp_path / "cafe"), "--seconds", "90"], cwd=REPO, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        hall = f"http://127.0.0.1:{web}"
        until(lambda: page(hall).count('class="table online"') == 2, 30, "both tables online at the hall")
        until(lambda: "<li>" in page(hall), 60, "a finished game at the hall")
        assert "Alice" in page(f"{hall}/players") and "<table" in page(f"{hall}/league")
        assert 'id="sign-in"' in page(f"{hall}/staff"), "the staff page is on"
        cafe.terminate()   # as Ctrl-C or systemd would stop it
        output, _ = cafe.communicate(timeout=30)
    finally:
        cafe.kill()
    assert cafe.returncode == 0, output
    assert f"its hall: http://127.0.0.1:{web}/" in output and "Traceback" not in output
    assert f"its staff page: http://127.0.0.1:{web}/staff (password: {staff_password(tmp_path / 'cafe/broker')})" \
        in output
    time.sleep(0.5)
    left = subprocess.run(["pgrep", "-f", str(tmp_path / "cafe")], capture_output=True, text=True).stdout
    assert left == "", "every process of the café stopped"


def test_a_cafe_of_too_many_tables_is_one_line():
    run = subprocess.run([sys.executable, "-m", "table", "cafe", "--tables", "9"], cwd=REPO, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 1 and run.stderr.strip().splitlines() == [
        "cardtable cafe: a simulated café has 1 to 8 tables, not 9"]


def test_a_cafe_for_negative_seconds_is_one_line_of_usage():
    run = subprocess.run([sys.executable, "-m", "table", "cafe", "--seconds", "-1"], cwd=REPO, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2 and run.stdout == "" and "argument --seconds: invalid duration value: '-1'" in run.stderr


def test_a_cafe_whose_pages_address_is_taken_is_one_line_and_starts_nothing(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as taken:   # another program serves that address
        web = f"127.0.0.1:{taken.getsockname()[1]}"
        run = subprocess.run([sys.executable, "-m", "table", "cafe", "--web", web, "--folder", str(tmp_path / "cafe")],
                             cwd=REPO, capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stdout) == (1, "") and run.stderr.splitlines() == [
        f"cardtable cafe: the pages cannot be served at {web}: Address already in use"]
    assert not (tmp_path / "cafe").exists()


def test_a_process_of_the_cafe_that_stops_is_named_with_its_log_and_the_logs_last_line(tmp_path, monkeypatch):
    monkeypatch.setattr(simulated, "stopped_by_signal", threading.Event)
    for code, log, said in [
        ("print('starting'); sys.exit('cardtable hall: why it stopped')", tmp_path / "hall.log",
         f'its log {tmp_path / "hall.log"} ends: "cardtable hall: why it stopped"'),
        ("pass", tmp_path / "quiet.log", f"its log {tmp_path / 'quiet.log'} is empty"),
    ]:
        processes = {simulated.started([sys.executable, "-c", f"import sys; {code}"], log): log}
        with pytest.raises(CafeError) as stopped:
            simulated._wait(processes, 30)
        assert str(stopped.value) == f"a process of the café stopped: {Path(sys.executable).name} -c import sys; " \
            f"{code}; {said}"
