"""Bad files never stop the table and are never written into: a journal, registry or history file that is
garbage, truncated, another program's, another kind of ours or of an unknown format is refused in one line;
`run` moves it aside (kept byte for byte), tells staff on the screen and starts in the lobby. One table per
journal."""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest

from table.cli import main
from table.storage import StorageBusy, StorageRefused
from table.storage.files import TableFiles
from table.storage.history import History
from table.storage.journal import Journal
from table.storage.registry import TagRegistry

KINDS = {"journal": Journal, "registry": TagRegistry, "history": History}


def sound(kind: str, path) -> bytes:
    """A sound file of `kind` with something in it, closed: its bytes."""
    store = KINDS[kind](path)
    if kind == "journal":
        store.append("join", {"seat": 1})
    store.close()
    return path.read_bytes()


def foreign(path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    db.execute("INSERT INTO photos (name) VALUES ('holidays.jpg')")
    db.commit()
    db.close()


def spoil(kind: str, how: str, path) -> str:
    """Make the file at `path` bad in way `how`; the words its refusal gives."""
    if how == "garbage":
        path.write_bytes(os.urandom(3000))
        return "not an SQLite file"
    if how == "text":
        path.write_text("seat,card\n1,VA01\n")
        return "not an SQLite file"
    if how == "truncated":
        data = sound(kind, path)
        path.write_bytes(data[: len(data) // 2])
        return "damaged"
    if how == "foreign":
        foreign(path)
        return "another program's database"
    if how == "other-kind":
        other = next(k for k in KINDS if k != kind)
        sound(other, path)
        return f"a cardtable {other}, not a {kind}"
    sound(kind, path)
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = '99' WHERE key = 'format'")
    db.commit()
    db.close()
    return f"{kind} format 99, this table reads format {'2 or 1' if kind in ('journal', 'registry', 'history') else 1}"


HOWS = ["garbage", "text", "truncated", "foreign", "other-kind", "newer-format"]


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("kind", list(KINDS))
def test_a_bad_file_is_refused_in_one_line_and_left_as_it_is(tmp_path, kind, how):
    path = tmp_path / f"{kind}.sqlite"
    words = spoil(kind, how, path)
    before = path.read_bytes()
    with pytest.raises(StorageRefused) as refused:
        KINDS[kind](path)
    assert words in str(refused.value) and "\n" not in str(refused.value) and str(path) in str(refused.value)
    assert path.read_bytes() == before, "nothing is ever written into a file not recognised"
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name], "no -wal or -shm created beside it"


@pytest.mark.parametrize("how", ["empty", "foreign", "garbage"])
def test_replay_refuses_what_is_not_a_journal_and_writes_nothing(tmp_path, capsys, how):
    path = tmp_path / "journal.sqlite"
    if how == "empty":
        path.touch()
    else:
        spoil("journal", how, path)
    before = path.read_bytes()
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 1
    out, err = capsys.readouterr()
    assert not out and err.startswith(f"cardtable replay: {path}: ") and err.count("\n") == 1
    assert path.read_bytes() == before


@pytest.mark.parametrize("kind", ["journal", "registry", "history"])
def test_run_moves_a_bad_file_aside_tells_staff_and_starts_in_the_lobby(tmp_path, kind):
    files = {"journal": tmp_path / "journal.sqlite", "registry": tmp_path / "registry.sqlite",
             "history": tmp_path / "history.sqlite"}
    if kind != "registry":
        sound("registry", files["registry"])
    spoil(kind, "truncated", files[kind])
    kept = files[kind].read_bytes()
    opened = TableFiles(files["journal"], files["registry"])
    [notice] = opened.notices
    [aside] = tmp_path.glob(f"{kind}.sqlite.refused-*")
    assert aside.read_bytes() == kept, "kept, byte for byte"
    assert notice == {"file": f"{kind}.sqlite", "kept": aside.name, "why": notice["why"]}
    assert "damaged" in notice["why"]
    assert list(opened.journal.entries()) == [] and opened.registry.lookup("04A1B2C3") is None
    opened.close()


def test_run_shows_staff_why_and_plays_on(tmp_path, monkeypatch):
    """Through `cardtable run`: a garbage journal is kept aside, the screen says so, the table is in the lobby."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    path = tmp_path / "journal.sqlite"
    spoil("journal", "garbage", path)
    from table.sim.window import SimWindow
    shown = []
    monkeypatch.setattr(SimWindow, "frame", lambda self, real=SimWindow.frame: shown.append(
        self.sim.table.table_view()) or real(self))
    assert main(["run", "--journal", str(path), "--hardware", "simulated", "--frames", "2"]) == 0
    assert shown[0]["mode"] == "lobby"
    assert shown[0]["notice"]["key"] == "file_moved_aside"
    assert shown[0]["notice"]["params"]["file"] == "journal.sqlite"
    assert len(list(tmp_path.glob("journal.sqlite.refused-*"))) == 1
    from table.screen import message_text
    text = message_text("fr", shown[0]["notice"])
    assert "journal.sqlite" in text and "mis de côté" in text


def test_one_table_per_journal_and_the_second_names_the_first(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    path = tmp_path / "journal.sqlite"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pathlib import Path; from table.storage.files import TableFiles; "
         f"files = TableFiles(Path({str(path)!r})); print('open', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "open\n"
        with pytest.raises(StorageBusy, match=f"in use by process {holder.pid}"):
            TableFiles(path)
        capsys.readouterr()
        assert main(["run", "--journal", str(path), "--hardware", "simulated", "--frames", "1"]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"cardtable run: {path}: in use by process {holder.pid}") and err.count("\n") == 1
        assert not list(tmp_path.glob("*.refused-*")), "a busy journal is never moved aside"
    finally:
        holder.stdin.close()
        holder.wait()
    TableFiles(path).close()   # the lock went with the process


def test_the_lock_goes_with_a_killed_table(tmp_path):
    path = tmp_path / "journal.sqlite"
    subprocess.run([sys.executable, "-c", "import os, signal; from pathlib import Path; "
                    "from table.storage.files import TableFiles; "
                    f"files = TableFiles(Path({str(path)!r})); os.kill(os.getpid(), signal.SIGKILL)"], check=False)
    TableFiles(path).close()
