"""`cardtable backup` and `restore`: every file of the state directory, taken while the table writes, put back
whole with the table stopped; a bad backup changes nothing."""
from __future__ import annotations

import io
import tarfile

import pytest

from table.cli import main
from table.session.replay import replay_journal
from table.storage import StorageBusy, StorageRefused
from table.storage.backup import backup, restore
from table.storage.files import TableFiles, own
from table.storage.registry import TagRegistry, staff_tag
from tests.storage.test_salvage import legal_entries


@pytest.fixture
def state(tmp_path):
    """A state directory as a table leaves it: a journal in play (its last entries still in its -wal, the
    journal open), a registry with a protected staff card, a failures log."""
    folder = tmp_path / "state"
    files = TableFiles(folder / "journal.sqlite", folder / "registry.sqlite")
    for kind, data in legal_entries("feira-torio", 3):
        files.journal.append(kind, data)
    files.registry.enrol("04000000000001", staff_tag(1))
    files.registry.staff_key("04000000000001")                                 # as enrolment makes the secret
    files.registry.mark_protected("04000000000001")
    (folder / "failures.log").write_text("1800000000 boot watchdog\n")
    yield folder, files
    files.close()


def test_a_backup_taken_while_the_table_writes_restores_the_same_table(state, tmp_path):
    folder, files = state
    assert (folder / "journal.sqlite-wal").stat().st_size > 0                 # entries not yet in the file
    expected = replay_journal(folder / "journal.sqlite")
    out = io.BytesIO()
    assert backup(folder, out) == 4                                            # journal, registry, history, log
    names = sorted(tarfile.open(fileobj=io.BytesIO(out.getvalue())).getnames())
    assert names == ["failures.log", "history.sqlite", "journal.sqlite", "registry.sqlite"]
    files.close()
    elsewhere = tmp_path / "new-card"
    count, aside = restore(elsewhere, io.BytesIO(out.getvalue()))
    assert (count, aside) == (4, None)
    assert replay_journal(elsewhere / "journal.sqlite") == expected
    registry = TagRegistry(elsewhere / "registry.sqlite")
    assert registry.protected("04000000000001") and registry.staff_key("04000000000001") == \
        TagRegistry(folder / "registry.sqlite").staff_key("04000000000001")   # the same secret: cards still prove
    registry.close()
    assert (elsewhere / "failures.log").read_text() == "1800000000 boot watchdog\n"


def test_a_restore_keeps_the_files_it_replaces_and_waits_for_the_table_to_stop(state):
    folder, files = state
    expected = replay_journal(folder / "journal.sqlite")
    out = io.BytesIO()
    backup(folder, out)
    with pytest.raises(StorageBusy, match="one table per journal"):
        restore(folder, io.BytesIO(out.getvalue()))                            # the table runs
    files.close()
    (folder / "journal.sqlite").write_bytes(b"a journal damaged since")
    count, aside = restore(folder, io.BytesIO(out.getvalue()))
    assert count == 4 and aside.name.startswith("before-restore-")
    assert (aside / "journal.sqlite").read_bytes() == b"a journal damaged since"
    assert replay_journal(folder / "journal.sqlite") == expected
    lock = own(folder / "journal.sqlite")                                     # the table can start again
    lock.close()


def tar_of(members: dict[str, bytes]) -> io.BytesIO:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    out.seek(0)
    return out


@pytest.mark.parametrize("members, why", [
    ({"../escape": b"x", "journal.sqlite": b""}, "not a plain file inside the state directory"),
    ({"/etc/passwd": b"x"}, "not a plain file inside the state directory"),
    ({"notes.txt": b"x"}, "holds neither a journal nor a registry"),
    ({"journal.sqlite": b"not SQLite at all"}, "journal.sqlite: in the backup cannot be opened"),
])
def test_a_bad_backup_is_refused_and_changes_nothing(state, members, why):
    folder, files = state
    files.close()
    before = sorted((p.name, p.read_bytes()) for p in folder.iterdir() if p.is_file())
    with pytest.raises(StorageRefused, match=why):
        restore(folder, tar_of(members))
    assert sorted((p.name, p.read_bytes()) for p in folder.iterdir() if p.is_file()) == before
    assert [p.name for p in folder.iterdir() if p.is_dir()] == []


def test_not_a_backup_at_all_is_one_line(state, tmp_path, capsys):
    folder, files = state
    files.close()
    junk = tmp_path / "junk.tar.gz"
    junk.write_bytes(b"\x1f\x8b garbage")
    assert main(["restore", str(junk), "--state", str(folder)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cardtable restore: the backup: cannot be read (") and err.count("\n") == 1


def test_the_commands_back_up_to_a_file_and_restore_from_it(state, tmp_path, capsys):
    folder, files = state
    target = tmp_path / "table.tar.gz"
    assert main(["backup", str(target), "--state", str(folder)]) == 0
    assert capsys.readouterr().err == f"backed up 4 files of {folder} to {target}\n"
    files.close()
    assert main(["restore", str(target), "--state", str(tmp_path / "other")]) == 0
    assert capsys.readouterr().err == f"restored 4 files to {tmp_path / 'other'}\n"


def test_a_backup_to_standard_output_leaves_it_open(state, capsysbinary):
    """`cardtable backup -`: the tar on standard output, which the command does not close (the process writes
    on after it)."""
    folder, _ = state
    assert main(["backup", "-", "--state", str(folder)]) == 0
    out = capsysbinary.readouterr().out
    assert sorted(tarfile.open(fileobj=io.BytesIO(out)).getnames())[0] == "failures.log"
    print("still open")
    assert capsysbinary.readouterr().out == b"still open\n"
