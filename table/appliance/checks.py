"""The table's checks of itself, in words for the staff: its protections (watchdog, state directory, read-only
system) and the health of its readers and seat hubs.

Each finding is a `Check`, whose text is check_KEY_ok, check_KEY_bad or
check_KEY_off in assets/i18n/LANG/common.toml. The staff menu shows them on
the screen, `cardtable doctor` prints the protections.
"""
from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from table.appliance.notify import socket_address, watchdog_interval

LOW_SPACE_MB = 50                                 # less free space than this in the state directory is a problem
IN_MEMORY = frozenset({"overlay", "tmpfs", "ramfs"})   # file systems whose writes are gone at the next boot


@dataclass(frozen=True, slots=True)
class Check:
    """One protection or part checked: `key` names it in the texts (check_KEY_ok / check_KEY_bad /
    check_KEY_off in assets/i18n/{fr,en}/common.toml), `ok` True (good), False (a problem staff should
    act on) or None (not in use here: e.g. no watchdog because not run by systemd), `params` for the text."""

    key: str
    ok: bool | None
    params: tuple[tuple[str, object], ...] = ()

    @property
    def text_key(self) -> str:
        """The key of its text."""
        return f"check_{self.key}_{'off' if self.ok is None else 'ok' if self.ok else 'bad'}"

    def text(self, t: Callable[..., str]) -> str:
        """Its text in the language of translator `t` (table.screen.i18n.Translator)."""
        return t(self.text_key, **dict(self.params))


def protections(state_dir: Path, environ: Mapping[str, str] = os.environ,
                mountinfo: Path = Path("/proc/self/mountinfo"), expected: bool = True) -> list[Check]:
    """The watchdog, the state directory `state_dir` (written to for real; when it is not `expected` to exist,
    as a user's default one before any table ran, its absence is no problem), and the read-only system (from
    `mountinfo`), with, when the system is protected, whether the state directory lives on a disk of its own."""
    state_dir = Path(state_dir)
    checks = [_watchdog(environ), _state_dir(state_dir, expected)]
    try:
        mounts = _mounts(mountinfo.read_text())
    except OSError:   # not Linux: no mounts to tell
        mounts = []
    checks.append(_root(mounts))
    if checks[-1].ok:
        checks.append(_state_disk(state_dir, mounts))
    return checks


def table_health(table) -> list[Check]:
    """The journal's writes and the files set aside at start-up, then every reader of a running `table`
    (table.pipeline.Table), answering, failing or dead, then each seat hub: connected, and the frames it sent that
    did not fit its wiring.

    Only reads what the poller and hubs already know (the faulty pads under the
    bus's lock, as the screen's fault banner does): it polls and waits for nothing.
    """
    with table.bus.lock:
        faults = dict(table.faults.pads)   # pad -> "failing" or "dead"
        storage, notices = table.session.storage, list(table.session.notices)
    checks = [Check("journal" if storage is None else f"journal_{storage}", storage is None),
              *(Check(n["key"], False, tuple(n["params"].items())) for n in notices)]
    checks += [_reader(pad, table.layout.pad_place(pad)[0], faults.get(pad)) for pad in table.layout.pads]
    for name, hub in table.hardware.hubs.items():
        checks.append(Check("hub", hub.ready, (("hub", name), ("firmware", hub.firmware or "?"))))
        if hub.misfits:
            checks.append(Check("hub_misfits", False, (("hub", name), ("n", hub.misfits))))
    return checks


def in_brief(checks: list[Check], many: int = 4) -> list[Check]:
    """`checks` for a screen: the readers that answer in one line ("17 readers answer") where the first of them
    was, when there are more than `many`; every problem stays a line of its own."""
    answering = [c for c in checks if c.key.startswith("reader_") and c.ok]
    if len(answering) <= many:
        return checks
    first = checks.index(answering[0])
    return [*(c for c in checks[:first] if c not in answering), Check("readers", True, (("n", len(answering)),)),
            *(c for c in checks[first:] if c not in answering)]


def _reader(pad: str, seat: int | None, fault: str | None) -> Check:
    """A reader named by where it is (a seat's, or the centre's): answering, failing (`fault` "failing": being
    reset) or dead."""
    key, where = ("reader_centre", (("pad", pad),)) if seat is None else ("reader_seat", (("seat", seat), ("pad", pad)))
    return Check(key + ("_dead" if fault == "dead" else ""), fault is None, where)


# ------------------------------------------------------------ protections


def _watchdog(environ: Mapping[str, str]) -> Check:
    """Armed (its timeout in seconds) when systemd watches this process; not in use when systemd did not start it."""
    if socket_address(environ.get("NOTIFY_SOCKET", "")) is None:
        return Check("watchdog", None)
    interval = watchdog_interval(environ)   # half the timeout
    if interval is None:
        return Check("watchdog", False)
    return Check("watchdog", True, (("seconds", f"{2 * interval:g}"),))


def _state_dir(path: Path, expected: bool) -> Check:
    """Whether a small file can really be written to `path` (created, written, synced, removed), and its free
    space; a missing `path` is a problem only when it is `expected`."""
    where = (("path", str(path)),)
    try:
        handle, name = tempfile.mkstemp(prefix=".cardtable-check-", dir=path)
        try:
            os.write(handle, b"cardtable check\n")
            os.fsync(handle)
        finally:
            os.close(handle)
            os.unlink(name)
        usage = os.statvfs(path)
    except FileNotFoundError:
        return Check("state_missing", False if expected else None, where)
    except OSError as error:
        return Check("state_dir", False, (*where, ("error", error.strerror or str(error))))
    free = usage.f_bavail * usage.f_frsize // 1_000_000
    if free < LOW_SPACE_MB:
        return Check("state_full", False, (*where, ("free", free), ("need", LOW_SPACE_MB)))
    return Check("state_dir", True, (*where, ("free", free)))


@dataclass(frozen=True, slots=True)
class _Mount:
    """One mount of /proc/self/mountinfo: its mount point, file system type, the mount's own options and its file
    system's (an overlay's lowerdir among them)."""

    point: str
    fstype: str
    options: tuple[str, ...]
    fs_options: tuple[str, ...]

    @property
    def fs_read_only(self) -> bool:
        """Whether the file system itself is read-only (not only this view of it, as ProtectSystem= makes it)."""
        return "ro" in self.fs_options


def _unescape(field: str) -> str:
    """A mountinfo path: spaces, tabs and backslashes come as octal escapes."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), field)


def _mounts(text: str) -> list[_Mount]:
    """The mounts of a mountinfo text, in order (a later mount on the same point hides the earlier)."""
    mounts = []
    for line in text.splitlines():
        own, _, fs = line.partition(" - ")
        fields, fs_fields = own.split(), fs.split()
        if len(fields) >= 6 and len(fs_fields) >= 3:
            mounts.append(_Mount(_unescape(fields[4]), fs_fields[0], tuple(fields[5].split(",")),
                                 tuple(fs_fields[2].split(","))))
    return mounts


def _mount_of(path: str | Path, mounts: list[_Mount]) -> _Mount | None:
    """The mount that holds `path` (absolute): the deepest mount point above it, the last one mounted there."""
    path = PurePosixPath(path)
    holding = [m for m in mounts if PurePosixPath(m.point) == path or PurePosixPath(m.point) in path.parents]
    return max(reversed(holding), key=lambda m: len(PurePosixPath(m.point).parts), default=None)


def _root(mounts: list[_Mount]) -> Check:
    """Read-only root: its file system mounted read-only, or an overlay (raspi-config's) whose lower layers are
    read-only mounts; a writable root (or none found) is not in use: the read-only system is optional."""
    root = _mount_of("/", mounts)
    if root is None:
        return Check("root_ro", None)
    if root.fs_read_only:
        return Check("root_ro", True)
    lowers = [layer for option in root.fs_options if option.startswith("lowerdir=")
              for layer in option.removeprefix("lowerdir=").split(":")]
    if root.fstype == "overlay" and lowers and all(_is_read_only_mount(layer, mounts) for layer in lowers):
        return Check("root_overlay", True)
    return Check("root_ro", None)


def _is_read_only_mount(point: str, mounts: list[_Mount]) -> bool:
    """Whether a read-only file system is mounted on `point` itself."""
    mount = _mount_of(point, mounts)
    return mount.point == point and mount.fs_read_only


def _state_disk(path: Path, mounts: list[_Mount]) -> Check:
    """With the system protected, the state directory must be on a writable file system of its own: not on the
    root, not in memory (the overlay's recurse=0 trap), else the table's games vanish at the next boot."""
    mount = _mount_of(path.resolve(), mounts)   # the root's at least
    ok = mount.point != "/" and mount.fstype not in IN_MEMORY and not mount.fs_read_only and "ro" not in mount.options
    return Check("state_disk", ok, (("path", str(path)), ("fstype", mount.fstype), ("point", mount.point)))
