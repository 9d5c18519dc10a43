"""The table's checks of itself: watchdog, state directory, read-only system (on fake mountinfo files), and the
health of a running table's readers and seat hubs; each in words, in French and English."""
from __future__ import annotations

import contextlib
import os
import threading
import time
from types import SimpleNamespace

import pytest

from table.appliance.checks import Check, in_brief, protections, table_health
from table.hardware import build
from table.hardware.hub import host
from table.hardware.hub.emulated import firmware_module
from table.layout import load_layout
from table.pipeline import Table
from table.screen.i18n import LANGS, Translator, texts
from table.storage.journal import Journal
from table.storage.registry import TagRegistry

WAIT_S = 15.0   # generous: every condition waited for is met well within it unless something is wrong

PROC = "22 1 0:21 / /proc rw,relatime - proc proc rw\n"
RW_ROOT = "23 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw,errors=remount-ro\n"
RO_ROOT = "23 1 179:2 / / ro,noatime shared:1 - ext4 /dev/mmcblk0p2 ro\n"
# ProtectSystem=strict as the service sees it: the root's mount read-only, its file system not.
STRICT_VIEW = "23 1 179:2 / / ro,noatime shared:1 - ext4 /dev/mmcblk0p2 rw\n"
# raspi-config's overlay (the overlayroot package): the SD card's root read-only below, memory above.
OVERLAY_ROOT = ("25 1 0:27 / / rw,relatime shared:1 - overlay overlayroot rw,lowerdir=/media/root-ro,"
                "upperdir=/media/root-rw/overlay,workdir=/media/root-rw/overlay-workdir\n"
                "26 25 179:2 / /media/root-ro ro,relatime shared:2 - ext4 /dev/mmcblk0p2 ro\n"
                "27 25 0:26 / /media/root-rw rw,relatime shared:3 - tmpfs tmpfs-root rw\n")
# A container's overlay: its lower layers are no mounts of this machine, nothing says they are read-only.
CONTAINER_ROOT = ("25 1 0:27 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/AB:"
                  "/var/lib/docker/overlay2/l/CD,upperdir=/var/lib/docker/overlay2/x/diff,workdir=/var/lib/docker/w\n")


def mountinfo(tmp_path, text: str):
    path = tmp_path / "mountinfo"
    path.write_text(PROC + text)
    return path


def data_mount(point, fstype: str = "ext4", source: str = "/dev/sda1") -> str:
    """A mountinfo line mounting a file system on `point` (escaped as the kernel does)."""
    escaped = str(point).replace("\\", "\\134").replace(" ", "\\040")
    return f"40 23 8:1 / {escaped} rw,noatime shared:30 - {fstype} {source} rw\n"


def keys(checks: list[Check]) -> list[tuple[str, bool | None]]:
    return [(check.key, check.ok) for check in checks]


@pytest.fixture
def state(tmp_path):
    folder = tmp_path / "state"
    folder.mkdir()
    return folder


# ------------------------------------------------------------ the watchdog


@pytest.mark.parametrize("environ, expected", [
    ({}, (None, ())),
    ({"WATCHDOG_USEC": "10000000"}, (None, ())),                                # no socket to feed it through
    ({"NOTIFY_SOCKET": "/run/systemd/notify"}, (False, ())),                     # a service without WatchdogSec=
    ({"NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "10000000"}, (True, (("seconds", "10"),))),
    ({"NOTIFY_SOCKET": "@notify", "WATCHDOG_USEC": "2500000", "WATCHDOG_PID": str(os.getpid())},
     (True, (("seconds", "2.5"),))),
    ({"NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(os.getpid() + 1)},
     (False, ())),                                                               # armed for another process
])
def test_the_watchdog_is_armed_only_when_systemd_watches_this_process(state, tmp_path, environ, expected):
    watchdog = protections(state, environ, mountinfo(tmp_path, RW_ROOT))[0]
    assert watchdog.key == "watchdog" and (watchdog.ok, watchdog.params) == expected


# ------------------------------------------------------------ the state directory


def test_a_writable_state_directory_is_really_written_and_left_as_it_was(state, tmp_path):
    (state / "journal.sqlite").write_bytes(b"games")
    check = protections(state, {}, mountinfo(tmp_path, RW_ROOT))[1]
    params = dict(check.params)
    assert (check.key, check.ok, params["path"]) == ("state_dir", True, str(state))
    assert params["free"] == os.statvfs(state).f_bavail * os.statvfs(state).f_frsize // 1_000_000
    assert sorted(p.name for p in state.iterdir()) == ["journal.sqlite"]


def test_a_missing_state_directory_or_a_file_in_its_place_is_a_problem(tmp_path):
    missing = protections(tmp_path / "gone", {}, mountinfo(tmp_path, RW_ROOT))[1]
    assert (missing.key, missing.ok, missing.params) == ("state_missing", False, (("path", str(tmp_path / "gone")),))
    not_yet = protections(tmp_path / "gone", {}, mountinfo(tmp_path, RW_ROOT), expected=False)[1]
    assert (not_yet.key, not_yet.ok) == ("state_missing", None)          # a user's default before any table ran
    (tmp_path / "file").write_text("not a folder")
    blocked = protections(tmp_path / "file", {}, mountinfo(tmp_path, RW_ROOT))[1]
    assert (blocked.key, blocked.ok) == ("state_dir", False)
    assert dict(blocked.params)["error"] == os.strerror(20)   # ENOTDIR: "Not a directory"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to a read-only folder anyway")
def test_a_state_directory_the_table_may_not_write_to_is_a_problem(state, tmp_path):
    state.chmod(0o500)
    try:
        check = protections(state, {}, mountinfo(tmp_path, RW_ROOT))[1]
    finally:
        state.chmod(0o700)
    assert (check.key, check.ok, dict(check.params)["error"]) == ("state_dir", False, "Permission denied")


def test_a_state_directory_short_of_space_is_a_problem(state, tmp_path, monkeypatch):
    real = os.statvfs(state)
    monkeypatch.setattr(os, "statvfs", lambda path: SimpleNamespace(f_bavail=49_000_000 // real.f_frsize,
                                                                    f_frsize=real.f_frsize))
    check = protections(state, {}, mountinfo(tmp_path, RW_ROOT))[1]
    assert (check.key, check.ok, dict(check.params)["need"]) == ("state_full", False, 50)
    assert dict(check.params)["free"] < 50


# ------------------------------------------------------------ the read-only system


def test_a_writable_root_is_not_in_use_and_the_state_disk_is_not_asked_about(state, tmp_path):
    for view in (RW_ROOT, STRICT_VIEW, CONTAINER_ROOT):
        assert keys(protections(state, {}, mountinfo(tmp_path, view))) == [
            ("watchdog", None), ("state_dir", True), ("root_ro", None)]


def test_no_mountinfo_says_nothing_of_the_root(state, tmp_path):
    assert keys(protections(state, {}, tmp_path / "no-mountinfo"))[2:] == [("root_ro", None)]


def test_a_read_only_root_with_the_state_on_a_disk_of_its_own_is_protected(state, tmp_path):
    checks = protections(state, {}, mountinfo(tmp_path, RO_ROOT + data_mount(state)))
    assert keys(checks) == [("watchdog", None), ("state_dir", True), ("root_ro", True), ("state_disk", True)]
    assert checks[3].params == (("path", str(state)), ("fstype", "ext4"), ("point", str(state)))


def test_a_state_directory_on_the_read_only_root_is_a_problem(tmp_path):
    checks = protections(tmp_path, {}, mountinfo(tmp_path, RO_ROOT))
    assert keys(checks)[2:] == [("root_ro", True), ("state_disk", False)]
    assert dict(checks[3].params)["point"] == "/"


def test_an_overlay_root_with_the_state_on_a_real_partition_is_protected(state, tmp_path):
    checks = protections(state, {}, mountinfo(tmp_path, OVERLAY_ROOT + data_mount(state, "ext4", "/dev/mmcblk0p3")))
    assert keys(checks)[2:] == [("root_overlay", True), ("state_disk", True)]


@pytest.mark.parametrize("data", [
    "",                                                  # no partition of its own: the state lives in the overlay
    "overlay",                                           # recurse=1: its partition overlaid too
    "tmpfs",
])
def test_an_overlay_root_with_the_state_in_memory_is_the_recurse_trap(state, tmp_path, data):
    mounts = OVERLAY_ROOT + (data_mount(state, data, "overlayroot") if data else "")
    checks = protections(state, {}, mountinfo(tmp_path, mounts))
    assert keys(checks)[2:] == [("root_overlay", True), ("state_disk", False)]
    assert dict(checks[3].params)["fstype"] == (data or "overlay")


def test_an_overlay_root_on_a_writable_lower_layer_protects_nothing(state, tmp_path):
    writable_lower = OVERLAY_ROOT.replace("ro,relatime shared:2 - ext4 /dev/mmcblk0p2 ro",
                                          "rw,relatime shared:2 - ext4 /dev/mmcblk0p2 rw")
    assert keys(protections(state, {}, mountinfo(tmp_path, writable_lower)))[2:] == [("root_ro", None)]


def test_mount_points_are_unescaped_and_the_last_mount_on_a_point_counts(tmp_path):
    state = tmp_path / "card table"
    state.mkdir()
    over = data_mount(state, "tmpfs", "tmpfs")
    assert keys(protections(state, {}, mountinfo(tmp_path, RO_ROOT + data_mount(state))))[3] == ("state_disk", True)
    assert keys(protections(state, {}, mountinfo(tmp_path, RO_ROOT + data_mount(state) + over)))[3] == (
        "state_disk", False)


# ------------------------------------------------------------ a running table's readers and hubs


def new_table(layout, hardware) -> Table:
    return Table(layout, hardware, TagRegistry(), Journal())


@contextlib.contextmanager
def running(table: Table):
    """The table's poller and dispatcher threads, as `cardtable run` runs them."""
    stop = threading.Event()
    threads = [threading.Thread(target=table.poller.run, args=(stop, table.layout.presence.poll_interval)),
               threading.Thread(target=table.bus.run, args=(stop,))]
    for thread in threads:
        thread.start()
    try:
        yield table
    finally:
        stop.set()
        for thread in threads:
            thread.join()
        table.close()


def until(condition, what: str):
    deadline = time.monotonic() + WAIT_S
    while not (found := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"never saw {what}")
        time.sleep(0.01)
    return found


def health(table: Table) -> dict[str, Check]:
    """The table's checks by reader pad or hub name (the journal's by its key)."""
    return {dict(check.params).get("pad") or check.key + ":" + dict(check.params).get("hub", ""): check
            for check in table_health(table)}


def test_table_health_only_reads_what_the_poller_found():
    layout = load_layout("sim-6-single")
    table = new_table(layout, build.simulated(layout))
    try:
        table.step()
        table.hardware.readers["seat2"].broken = True
        assert all(check.ok for check in table_health(table))   # it polls nothing: the poller has not seen it yet
        table.step()
        assert health(table)["seat2"] == Check("reader_seat", False, (("seat", 2), ("pad", "seat2")))
    finally:
        table.close()


def test_table_health_names_each_reader_by_its_place_and_tells_failing_from_dead():
    layout = load_layout("sim-6-slots")
    with running(new_table(layout, build.simulated(layout))) as table:
        keys = [check.key for check in table_health(table)]
        assert keys == ["journal", *["reader_seat"] * 24, *["reader_centre"] * 4]
        table.hardware.readers["seat3-b"].broken = True
        table.hardware.readers["centre-c"].broken = True
        until(lambda: not health(table)["seat3-b"].ok, "seat 3's reader failing")
        until(lambda: {health(table)[pad].key for pad in ("seat3-b", "centre-c")} == {"reader_seat_dead",
                                                                                  "reader_centre_dead"},
              "both readers dead")
        checks = health(table)
        assert checks["seat3-b"] == Check("reader_seat_dead", False, (("seat", 3), ("pad", "seat3-b")))
        assert checks["centre-c"] == Check("reader_centre_dead", False, (("pad", "centre-c"),))
        assert [pad for pad, check in checks.items() if not check.ok] == ["seat3-b", "centre-c"]
        table.hardware.readers["seat3-b"].broken = False
        until(lambda: health(table)["seat3-b"].ok, "seat 3's reader back")


ONE_HUB = """
name = "One hub, two seats"
backend = "hubs"
reader = "mfrc522"

[[hubs]]
name = "hub1"
usb = "2e8a:0005"
spi = 0
sck = 2
mosi = 3
miso = 4
reset = 5

[pads.seat1]
board = "hub1"
cs = 6

[pads.seat2]
board = "hub1"
cs = 7

[pads.centre]
board = "hub1"
cs = 8

[[seats]]
pads = ["seat1"]
board = "hub1"
light = [16, 17, 18]
buttons = { next = 0, ok = 1 }

[[seats]]
pads = ["seat2"]
board = "hub1"
light = [19, 20, 21]
buttons = { next = 15, ok = 22 }

[centre]
pads = ["centre"]
"""


@pytest.fixture
def one_hub(tmp_path):
    (tmp_path / "one-hub.toml").write_text(ONE_HUB)
    return tmp_path / "one-hub.toml"


def test_table_health_tells_a_hubs_firmware_its_misfits_and_when_it_goes(one_hub, monkeypatch):
    monkeypatch.setattr(host, "UID_SIZES", (0, 4, 10))   # a host that takes no 7-byte UID: the card's reads misfit
    layout = load_layout(one_hub)
    with running(new_table(layout, build.emulated(layout))) as table:
        assert table.hardware.wait_for_hubs(WAIT_S) == {}
        hub = table.hardware.hubs["hub1"]
        until(lambda: all(check.ok for check in table_health(table)), "its readers polled since it came")
        assert keys(table_health(table)) == [("journal", True), *[("reader_seat", True)] * 2, ("reader_centre", True),
                                             ("hub", True)]
        assert health(table)["hub:hub1"].params == (("hub", "hub1"), ("firmware", firmware_module().FIRMWARE))
        build.ChipPad(table.hardware.chips["seat2"]).place("04C0FFEE000001")
        until(lambda: hub.misfits, "the card's read dropped")
        misfits = health(table)["hub_misfits:hub1"]
        assert (misfits.ok, dict(misfits.params)["hub"], dict(misfits.params)["n"] >= 1) == (False, "hub1", True)
        pico = table.hardware.picos["hub1"]
        table.hardware.closers.remove(pico.close)
        pico.close()                                                          # unplugged
        until(lambda: not health(table)["hub:hub1"].ok, "the hub gone")
        until(lambda: not any(check.ok for check in table_health(table)[1:]), "its readers failing")


# ------------------------------------------------------------ in words


def every_kind_of_check(tmp_path) -> list[Check]:
    """A check of each key and outcome there is."""
    state = tmp_path / "state"
    state.mkdir()
    (tmp_path / "file").write_text("")
    armed = {"NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "10000000"}
    checks = [*protections(state, armed, mountinfo(tmp_path, RO_ROOT + data_mount(state))),
              *protections(tmp_path / "gone", {"NOTIFY_SOCKET": "@n"}, mountinfo(tmp_path, OVERLAY_ROOT)),
              *protections(tmp_path / "file", {}, mountinfo(tmp_path, RW_ROOT)),
              protections(tmp_path / "gone", {}, mountinfo(tmp_path, RW_ROOT), expected=False)[1],
              Check("state_full", False, (("path", str(state)), ("free", 12), ("need", 50)))]
    for seat, pad in ((3, "seat3"), (None, "centre")):
        where = (("pad", pad),) if seat is None else (("seat", seat), ("pad", pad))
        kind = "reader_centre" if seat is None else "reader_seat"
        checks += [Check(kind, True, where), Check(kind, False, where), Check(kind + "_dead", False, where)]
    hub = (("hub", "hub1"), ("firmware", "1.0.0"))
    aside = (("file", "journal.sqlite"), ("kept", "journal.sqlite.refused-20261127T101500Z"), ("why", "damaged"))
    journal = [Check("journal", True), Check("journal_full", False), Check("journal_failing", False),
               Check("file_moved_aside", False, aside), Check("journal_entry_refused", False, (("entry", 12), *aside))]
    return checks + journal + [Check("hub", True, hub), Check("hub", False, hub),
                               Check("hub_misfits", False, (("hub", "hub1"), ("n", 3))),
                               Check("readers", True, (("n", 17),))]


def test_in_brief_the_readers_that_answer_are_one_line_where_the_first_was_and_problems_stay():
    seat = [Check("reader_seat", n != 3, (("seat", n), ("pad", f"seat{n}"))) for n in range(1, 7)]
    centre = Check("reader_centre_dead", False, (("pad", "centre"),))
    hub = Check("hub", True, (("hub", "hub1"), ("firmware", "1.0.0")))
    assert in_brief([*seat, centre, hub]) == [Check("readers", True, (("n", 5),)), seat[2], centre, hub]
    assert in_brief([*seat[:5], hub]) == [*seat[:5], hub]   # four that answer: each its own line


@pytest.mark.parametrize("lang", LANGS)
def test_every_check_reads_as_plain_words_with_its_parameters_filled_in(tmp_path, lang):
    t = Translator(lang)
    checks = every_kind_of_check(tmp_path)
    assert {check.text_key for check in checks} == {key for key in texts(lang) if key.startswith("check_")}
    for check in checks:
        text = check.text(t)
        assert t.has(check.text_key) and "{" not in text, text
    watchdog = checks[0]
    assert watchdog.text(t) == {"fr": "Chien de garde actif (10 s) : si la table se fige, elle redémarre seule.",
                                "en": "Watchdog armed (10 s): if the table freezes, it restarts by itself."}[lang]
