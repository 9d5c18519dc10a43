"""`cardtable backup` and `cardtable restore`: everything in a table's state directory, as one gzipped tar.

A backup may be taken while the table plays: each SQLite file (journal,
registry, history, archives) is copied with SQLite's online backup, so the
copy is whole and holds what its write-ahead log holds; any other file
(the failures log, a file set aside) is copied as it is. A restore needs
the table stopped (it takes the journal's lock), checks every file of the
backup before it changes anything (a member outside the folder, a link,
an SQLite file that is no journal, registry or history of this table's
formats: refused, nothing changed), then moves the files there now into
a folder `before-restore-TIME` and puts the backup's in their place.
"""
from __future__ import annotations

import shutil
import sqlite3
import sys
import tarfile
import tempfile
import time
from contextlib import nullcontext
import zlib
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from table.storage import StorageRefused, connect, is_sqlite
from table.storage.files import own
from table.storage.history import History
from table.storage.journal import Journal
from table.storage.registry import TagRegistry

SKIPPED = (".lock", "-wal", "-shm")   # the lock, and the logs the online backup takes in
ASIDE = "before-restore-"


def backup_command(command: str, file: str, state: Path) -> int:
    """`cardtable backup FILE` or `cardtable restore FILE` ("-": standard output or input) of the state directory
    `state`; what was done in one line on stderr (standard output may be the backup)."""
    if command == "backup":
        if not state.is_dir():
            raise StorageRefused(state, "there is no state directory here: nothing to back up")
        with open(file, "wb") if file != "-" else nullcontext(sys.stdout.buffer) as out:
            count = backup(state, out)
        print(f"backed up {count} files of {state} to {'standard output' if file == '-' else file}", file=sys.stderr)
        return 0
    with open(file, "rb") if file != "-" else nullcontext(sys.stdin.buffer) as source:
        count, aside = restore(state, source)
    kept = f"; the files there before are in {aside}" if aside else ""
    print(f"restored {count} files to {state}{kept}", file=sys.stderr)
    return 0


def backup(state: Path, out: BinaryIO) -> int:
    """Write every file of the state directory `state` to `out` as a gzipped tar; how many files."""
    count = 0
    with tarfile.open(fileobj=out, mode="w|gz") as tar, tempfile.TemporaryDirectory() as scratch:
        for path in sorted(p for p in state.rglob("*") if p.is_file() and not p.name.endswith(SKIPPED)):
            name = path.relative_to(state).as_posix()
            if name.startswith(ASIDE):
                continue
            source = _snapshot(path, Path(scratch) / "copy") if is_sqlite(path) else path
            tar.add(source, arcname=name, recursive=False)
            count += 1
    return count


def restore(state: Path, source: BinaryIO) -> tuple[int, Path | None]:
    """Put the files of the backup read from `source` in the state directory `state`, the table stopped; how many,
    and where the files there before were moved (None: there were none). StorageRefused: nothing changed."""
    state.mkdir(parents=True, exist_ok=True)
    lock = own(state / "journal.sqlite")   # StorageBusy while the table runs
    try:
        with tempfile.TemporaryDirectory(dir=state, prefix=".restoring-") as scratch:
            names = _unpack(source, Path(scratch))
            for name in names:
                _check(Path(scratch) / name, name)
            before = [p for p in state.iterdir() if not p.name.startswith((".restoring-", ASIDE))
                      and not p.name.endswith(".lock")]
            aside = state / f"{ASIDE}{time.strftime('%Y%m%dT%H%M%S')}" if before else None
            if aside is not None:
                aside.mkdir()
                for path in before:
                    path.rename(aside / path.name)
            for name in names:
                target = state / name
                target.parent.mkdir(parents=True, exist_ok=True)
                (Path(scratch) / name).rename(target)
                target.chmod(0o600)
        return len(names), aside
    finally:
        lock.close()


def _snapshot(path: Path, copy: Path) -> Path:
    """A whole copy of the SQLite file at `path` (its write-ahead log included), by SQLite's online backup; the
    file's bytes as they are when SQLite cannot read it (a damaged file set aside)."""
    copy.unlink(missing_ok=True)
    try:
        source = connect(path, read_only=True)
        try:
            with sqlite3.connect(copy) as target:
                source.backup(target)
            target.close()
        finally:
            source.close()
    except sqlite3.Error:
        shutil.copyfile(path, copy)
    return copy


def _unpack(source: BinaryIO, folder: Path) -> list[str]:
    """Every member of the backup, written under `folder`; StorageRefused for anything but plain files inside."""
    names = []
    try:
        with tarfile.open(fileobj=source, mode="r|gz") as tar:
            for member in tar:
                name = PurePosixPath(member.name)
                if not member.isfile() or name.is_absolute() or ".." in name.parts or not name.parts:
                    raise StorageRefused(member.name, "not a plain file inside the state directory: "
                                                      "this is no backup of a table (nothing was changed)")
                target = folder / name
                target.parent.mkdir(parents=True, exist_ok=True)
                with tar.extractfile(member) as data, target.open("wb") as out:
                    shutil.copyfileobj(data, out)
                names.append(str(name))
    except (tarfile.TarError, EOFError, OSError, zlib.error) as error:
        raise StorageRefused("the backup", f"cannot be read ({error}): nothing was changed") from None
    if "journal.sqlite" not in names and "registry.sqlite" not in names:
        raise StorageRefused("the backup", "holds neither a journal nor a registry: nothing was changed")
    return names


def _check(path: Path, name: str) -> None:
    """Refuse (StorageRefused) a journal, registry, history or archive of the backup that this table cannot
    open; other files are taken as they are."""
    archive = name.startswith("games/") and name.endswith(".sqlite")
    opener = OPENERS.get("journal.sqlite" if archive else name)
    if opener is None:
        return
    try:
        opener(path).close()
    except (StorageRefused, sqlite3.Error, OSError) as error:
        raise StorageRefused(name, f"in the backup cannot be opened ({error}): nothing was changed") from None


OPENERS = {"journal.sqlite": lambda path: Journal(path, read_only=True), "registry.sqlite": TagRegistry,
           "history.sqlite": lambda path: History(path, read_only=True)}
