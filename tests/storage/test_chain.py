"""Entries are chained: each one's digest covers the entry before it, from the journal's own random id, and the
journal's head names its last entry. A deleted, inserted or altered entry, entries missing at the end, another
journal's -wal or an altered archive are found by `replay` alone and refused in one line; under `run` the file
is moved aside and the table resumes before the damage. Journals and archives of format 1 (unchained) are still
read, and a journal of format 1 is chained at its first write."""
from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from table.cli import main
from table.session.replay import replay_journal
from table.storage.journal import Journal
from tests.storage.test_salvage import cut_journal, legal_entries


def closed_journal(path, entries) -> None:
    journal = Journal(path)
    for kind, data in entries:
        journal.append(kind, data)
    journal.close()


def edit(path, *statements) -> None:
    """Change the file behind the table's back (as a person with sqlite3 would)."""
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


def replay_refusal(path, capsys) -> str:
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


ALTERATIONS = {   # how, the SQL, the entry named
    "an entry altered": (["UPDATE entries SET data = replace(data, '\"seat\": 2', '\"seat\": 5') WHERE seq = 3"],
                         "journal entry 3: its digest does not follow entry 2"),
    "an entry deleted": (["DELETE FROM entries WHERE seq = 6"], "journal entry 7: its digest does not follow entry 5"),
    "an entry added at the end": (["INSERT INTO entries SELECT seq + 1, at, kind, data, link FROM entries "
                                   "WHERE seq = (SELECT max(seq) FROM entries)"],
                                  "journal entry 13: its digest does not follow entry 12"),
    "the last entries deleted": (["DELETE FROM entries WHERE seq > 10"],
                                 "journal entry 11: entries 11 to 12 are missing"),
    "an entry added and the head moved": (["INSERT INTO entries SELECT seq + 1, at, kind, data, link FROM entries "
                                           "WHERE seq = 12", "UPDATE meta SET value = '13 x' WHERE key = 'head'"],
                                          "journal entry 13: its digest does not follow entry 12"),
}


@pytest.mark.parametrize("how", ALTERATIONS)
def test_replay_alone_finds_an_altered_journal_and_names_the_entry(tmp_path, capsys, how):
    statements, said = ALTERATIONS[how]
    path = tmp_path / "journal.sqlite"
    entries = legal_entries()
    assert len(entries) == 12
    closed_journal(path, entries)
    replay_journal(path)                      # sound as the table wrote it
    edit(path, *statements)
    assert said in replay_refusal(path, capsys)


def test_another_journals_wal_is_refused_by_replay_and_set_aside_by_run(tmp_path, capsys, monkeypatch):
    """Two tables' journals cut by a power cut; one's database given the other's -wal."""
    for name in ("ours", "theirs"):
        (tmp_path / name).mkdir()
    ours = cut_journal(tmp_path / "ours", legal_entries(seed=3))
    theirs = cut_journal(tmp_path / "theirs", legal_entries(seed=4))
    shutil.copyfile(f"{theirs}-wal", f"{ours}-wal")
    assert "journal entry " in replay_refusal(ours, capsys)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert main(["run", "--journal", str(ours), "--hardware", "simulated", "--frames", "1"]) == 0
    assert len(list(ours.parent.glob("journal.sqlite.refused-*-wal"))) == 1   # kept with the foreign -wal
    replay_journal(ours)                                                       # what restores of it


def test_run_sets_an_altered_journal_aside_and_resumes_before_the_alteration(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    path = tmp_path / "journal.sqlite"
    closed_journal(path, legal_entries())
    edit(path, "DELETE FROM entries WHERE seq = 9")
    assert main(["run", "--journal", str(path), "--hardware", "simulated", "--frames", "1"]) == 0
    assert len(list(tmp_path.glob("journal.sqlite.refused-*"))) == 1
    assert [seq for seq, _, _ in Journal(path, read_only=True).rows()] == list(range(1, 9))
    assert Journal(path, read_only=True).damage() is None


def test_an_altered_archive_is_found_by_replay_alone(tmp_path, capsys):
    from table.events import EventBus
    from table.layout import load_layout
    from table.session.table_session import TableSession
    from table.storage.files import TableFiles
    from tests.storage.test_full_card import finished_game
    path = tmp_path / "journal.sqlite"
    closed_journal(path, finished_game())
    files = TableFiles(path)
    session = TableSession(load_layout("sim-6-single"), None, files.journal, EventBus())
    session._staff_do("to_lobby")                                              # archived
    files.close()
    archive = next((tmp_path / "games").glob("*.sqlite"))
    assert replay_journal(archive)["phase"] == "over"
    archive.chmod(0o600)
    edit(archive, "UPDATE entries SET data = replace(data, '\"column\": 0', '\"column\": 1') "
                  "WHERE seq = (SELECT min(seq) FROM entries WHERE data LIKE '%\"column\": 0%')")
    assert "its digest does not follow" in replay_refusal(archive, capsys)


def format_1_journal(path, entries) -> None:
    """A journal as tables wrote them before entries were chained (format 1)."""
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE entries (seq INTEGER PRIMARY KEY, at TEXT NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL);
        INSERT INTO meta VALUES ('kind', 'journal'), ('format', '1'), ('origin', 'table');
    """)
    db.executemany("INSERT INTO entries (at, kind, data) VALUES ('2026-11-20T10:00:00.000+00:00', ?, ?)",
                   [(kind, json.dumps(data, sort_keys=True)) for kind, data in entries])
    db.commit()
    db.close()


def test_a_format_1_journal_is_still_read_and_chained_at_its_first_write(tmp_path):
    path = tmp_path / "journal.sqlite"
    lobby = [("menu", {"game": "feira-torio", "options": {}, "cursor": -1}), ("join", {"seat": 1}),
             ("join", {"seat": 2})]
    format_1_journal(path, lobby)
    before = path.read_bytes()
    assert replay_journal(path)["joined"] == [1, 2]                           # read as it is, unchained
    journal = Journal(path)
    assert path.read_bytes() == before and journal.damage() is None           # opened: still as it was
    journal.append("join", {"seat": 3})                                       # the first write chains it
    journal.close()
    chained = Journal(path, read_only=True)
    assert chained.damage() is None and [seq for seq, _, _ in chained.rows()] == [1, 2, 3, 4]
    chained.close()
    assert replay_journal(path)["joined"] == [1, 2, 3]
    edit(path, "UPDATE entries SET data = '{\"seat\": 4}' WHERE seq = 2")    # now an alteration is found
    assert Journal(path, read_only=True).damage()[0] == 2


def test_an_archive_of_format_1_is_still_read(tmp_path):
    path = tmp_path / "old-archive.sqlite"
    format_1_journal(path, legal_entries())
    path.chmod(0o400)
    assert replay_journal(path)["game"] == "feira-torio"
