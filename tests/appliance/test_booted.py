"""The appliance under a real systemd: a Debian 12 machine booted with systemd-nspawn, the installer run in it as
docs/appliance.md says, and the units checked as they run (issue 19). The machine has no table hardware and no
screen: the layout is hubs-8-seat (its hubs are missing, so every pad shows as faulty) and SDL draws on its
dummy driver (a drop-in, the one setting the machine adds). The tests install debootstrap and systemd-nspawn
where they are missing; a machine that cannot boot one (no root) fails them loudly."""
from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import time

import pygame
import pytest

from table.cafe.simulated import free_port
from table.screen.display import fit
from table.screen.draw import INK
from table.storage.history import History
from table.storage.journal import Journal
from table.storage.outbox import acked
from tests.storage.test_outbox import played
from tests.storage.test_salvage import legal_entries

from .booted import Machine, as_here, manual_commands, needs
from .conftest import REPO

SETTINGS = "/etc/default/cardtable"
NO_SCREEN = "[Service]\nEnvironment=SDL_VIDEODRIVER=dummy\n"
THREADS = ("MainThread", "dispatcher", "poller", "reader nurse", "stack dump")

pytestmark = pytest.mark.booted


@pytest.fixture(scope="module")
def machine(tmp_path_factory):
    lacks = needs()
    if lacks:
        pytest.fail("the appliance tests need " + ", ".join(lacks))
    machine = Machine(tmp_path_factory.mktemp("appliance") / "root", REPO)
    try:
        machine.boot()
        began = time.monotonic()
        machine.installed = machine.run("python3", "/opt/src/systemd/install.py", "--layout", "hubs-8-seat",
                                        "--contact", "Marie, 06 12 34 56 78")
        machine.install_s = time.monotonic() - began
        assert machine.installed.returncode == 0, machine.installed.stdout + machine.installed.stderr
        for unit in ("cardtable", "cardtable-fallback"):
            dropin = machine.root / f"etc/systemd/system/{unit}.service.d/no-screen.conf"
            dropin.parent.mkdir(parents=True)
            dropin.write_text(NO_SCREEN)
        machine.run("systemctl", "daemon-reload")
        yield machine
    finally:
        machine.close()


def start(machine: Machine) -> float:
    """Start the table afresh (its failures forgotten, by systemd and by the table); seconds from `systemctl
    start` to READY."""
    machine.run("systemctl", "reset-failed", "cardtable.service", "cardtable-fallback.service")
    (machine.root / "var/lib/cardtable/failures.log").unlink(missing_ok=True)
    began = time.monotonic()
    started = machine.run("systemctl", "restart", "cardtable.service", timeout_s=90)   # returns at READY (notify)
    assert started.returncode == 0, started.stderr + machine.log("cardtable.service")[-3000:]
    return time.monotonic() - began


def until(condition, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"never saw {what} in {timeout_s:g} s"
        time.sleep(0.5)


def test_the_installer_runs_on_plain_debian_and_a_second_run_changes_nothing(machine):
    out = machine.installed.stdout
    assert "udevd does not run here (a container, a chroot, an image build)" in out
    assert "no /boot/firmware/config.txt: not Raspberry Pi OS? SPI left as it is" in out
    assert out.rstrip().endswith("Installed. Reboot, and the table starts by itself: sudo reboot")
    again = machine.run("python3", "/opt/src/systemd/install.py")
    assert again.returncode == 0, again.stderr
    assert [line for line in again.stdout.splitlines() if line.startswith("wrote")] == []
    print(f"\ninstall on plain Debian 12: {machine.install_s:.1f} s")


def test_the_table_is_ready_and_says_what_it_does(machine):
    ready_s = start(machine)
    status = machine.show("cardtable.service", "ActiveState", "StatusText", "NRestarts")
    assert status["ActiveState"] == "active"
    assert status["StatusText"].startswith("lobby, 0 seat(s) joined; 36 reader(s) faulty"), status
    print(f"\nsystemctl start -> READY: {ready_s:.1f} s")


def test_a_frozen_table_leaves_every_stack_and_is_restarted_by_the_watchdog_each_time(machine):
    start(machine)
    for freeze in range(2):
        before = machine.show("cardtable.service", "MainPID", "NRestarts")
        cursor = machine.cursor()
        frozen = time.monotonic()
        machine.run("sh", "-c", f"kill -STOP {before['MainPID']}")
        until(lambda: machine.show("cardtable.service", "NRestarts")["NRestarts"] != before["NRestarts"], 60,
              "a restart")
        until(lambda: machine.show("cardtable.service", "ActiveState")["ActiveState"] == "active", 60,
              "the table ready again")
        back_s = time.monotonic() - frozen
        log = machine.log("cardtable.service", cursor)
        assert "Watchdog timeout (limit 10s)!" in log
        assert "SIGABRT (the watchdog?): every thread's stack, then abort." in log
        for thread in THREADS:
            assert f"Thread {thread!r} (most recent call last):" in log, (freeze, thread, log[-4000:])
        assert "Fatal Python error" not in log
        print(f"\nfrozen -> ready again ({freeze + 1}): {back_s:.1f} s")


def test_the_service_has_no_network_and_writes_only_its_state(machine):
    start(machine)
    shown = machine.show("cardtable.service", "RestrictAddressFamilies", "MainPID")
    assert shown["RestrictAddressFamilies"].split() == ["AF_UNIX"]
    security = machine.run("systemd-analyze", "security", "cardtable.service")
    exposure = float(re.search(r"Overall exposure level for cardtable.service: (\d+\.\d+)", security.stdout)[1])
    assert exposure <= 2.5, security.stdout
    as_table = ("nsenter", "-t", shown["MainPID"], "-m", "setpriv", "--reuid=cardtable", "--regid=cardtable",
                "--init-groups")
    for folder, writable in (("/var/lib/cardtable", True), ("/dev/shm", False), ("/run/lock", False),
                             ("/opt/cardtable/app", False), ("/etc", False), ("/var/lib", False),
                             ("/tmp", True), ("/var/tmp", True)):   # the last two its own (PrivateTmp)
        wrote = machine.run(*as_table, "sh", "-c", f"echo probe > {folder}/probe && rm {folder}/probe")
        assert (wrote.returncode == 0) == writable, (folder, wrote.stderr)
    print(f"\nsystemd-analyze security cardtable.service (booted): {exposure}")


def test_the_polkit_rule_lets_the_table_power_off_and_reboot_and_nothing_more(machine):
    """Asked of the booted system's polkitd (pkcheck, over D-Bus): the table's process may power off and reboot
    (its staff menu); not halt nor manage units, and another unprivileged user may not reboot."""
    start(machine)
    table = machine.show("cardtable.service", "MainPID")["MainPID"]

    def allowed(action: str, pid: str) -> bool:
        return machine.run("pkcheck", "--action-id", f"org.freedesktop.{action}", "--process", pid).returncode == 0

    assert allowed("login1.power-off", table) and allowed("login1.reboot", table)
    assert not allowed("login1.halt", table) and not allowed("systemd1.manage-units", table)
    other = machine.run("sh", "-c", "setpriv --reuid=nobody --regid=nogroup --clear-groups sleep 60 & sleep 1; "
                                    "pkcheck --action-id org.freedesktop.login1.reboot --process $!")
    assert other.returncode != 0 and "requires authentication" in other.stderr


def test_after_five_failed_starts_the_fallback_says_why_and_whom_to_call(machine):
    settings = machine.root / SETTINGS.removeprefix("/")
    kept = settings.read_text()
    settings.write_text(kept.replace("CARDTABLE_LAYOUT=hubs-8-seat", "CARDTABLE_LAYOUT=no-such-layout"))
    try:
        machine.run("systemctl", "reset-failed", "cardtable.service", "cardtable-fallback.service")
        (machine.root / "var/lib/cardtable/failures.log").unlink(missing_ok=True)
        machine.run("systemctl", "restart", "cardtable.service", timeout_s=90)
        until(lambda: machine.show("cardtable-fallback.service", "ActiveState")["ActiveState"] == "active", 90,
              "the fallback")
        ended = machine.show("cardtable.service", "Result", "NRestarts")
        assert ended == {"Result": "exit-code", "NRestarts": "5"}   # the fifth restart hit the start limit
        until(lambda: "Marie, 06 12 34 56 78" in machine.log("cardtable-fallback.service"), 30,
              "the fallback's message")
        assert ("The table stopped: the program hit an error. Switch it off and on again. If this message comes "
                "back, call Marie, 06 12 34 56 78.") in machine.log("cardtable-fallback.service")
    finally:
        settings.write_text(kept)
    start(machine)                                                   # the table again: the fallback stops
    assert machine.show("cardtable-fallback.service", "ActiveState")["ActiveState"] == "inactive"


def test_hangs_that_recur_slowly_leave_the_table_stopped_with_the_fallback_saying_why(machine):
    """Four failures of this boot in the last half hour (as `cardtable ended` records them), then one more hang:
    the watchdog's kill is the fifth, the start after it refuses (78, not restarted), the fallback says so."""
    start(machine)
    log = machine.root / "var/lib/cardtable/failures.log"
    # The boot id as the service sees it: nspawn shows the container another, which ProtectKernelTunables= hides.
    main = machine.show("cardtable.service", "MainPID")["MainPID"]
    boot = machine.run("nsenter", "-t", main, "-m", "cat", "/proc/sys/kernel/random/boot_id").stdout.strip()
    log.write_text("".join(f"{time.time() - 300 * n:.0f} {boot} watchdog\n" for n in range(1, 5)))
    machine.run("chown", "cardtable:cardtable", "/var/lib/cardtable/failures.log")
    try:
        machine.run("sh", "-c", f"kill -STOP {main}")
        until(lambda: machine.show("cardtable-fallback.service", "ActiveState")["ActiveState"] == "active", 90,
              "the fallback")
        assert machine.show("cardtable.service", "ExecMainStatus", "ActiveState") == {
            "ExecMainStatus": "78", "ActiveState": "failed"}
        assert ("cardtable run: the table failed 5 times in 30 minutes (watchdog 5): it stays stopped until the "
                "machine is restarted") in machine.log("cardtable.service")
        until(lambda: "the program failed 5 times in 30 minutes" in machine.log("cardtable-fallback.service"), 30,
              "the fallback's message")
    finally:
        log.unlink()
    start(machine)


def test_a_game_resumes_after_a_power_cut(machine):
    """A game in the journal; the machine's PID 1 killed outright; booted again, the table plays that game."""
    start(machine)
    machine.run("systemctl", "stop", "cardtable.service")
    path = machine.root / "var/lib/cardtable/journal.sqlite"
    for name in ("journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm"):
        (path.parent / name).unlink(missing_ok=True)
    journal = Journal(path)
    for kind, data in legal_entries("feira-torio", 3):
        journal.append(kind, data)
    journal.close()
    machine.run("sh", "-c", "chown cardtable:cardtable /var/lib/cardtable/journal.sqlite*")
    start(machine)
    playing = machine.show("cardtable.service", "StatusText")["StatusText"]
    assert playing.startswith("playing feira-torio at seats 1, 2, 3"), playing
    machine.power_cut()
    machine.boot()
    until(lambda: machine.show("cardtable.service", "ActiveState")["ActiveState"] == "active", 90,
          "the table ready after the boot")
    boot_to_ready_s = time.monotonic() - machine.booted_at
    assert machine.show("cardtable.service", "StatusText")["StatusText"] == playing
    print(f"\nboot -> READY: {boot_to_ready_s:.1f} s")


def test_a_backup_taken_during_play_brings_the_table_back_on_a_blank_state(machine):
    """As docs/appliance.md says: `sudo cardtable backup -` while the table runs, then with the table stopped
    and its state lost, `sudo cardtable restore -`: the table is where it was."""
    start(machine)
    before = machine.show("cardtable.service", "StatusText")["StatusText"]
    taken = machine.run("sh", "-c", "cardtable backup - > /root/table-backup.tar.gz")
    said = taken.stderr.splitlines()[-1]   # after sudo's word about the container's host name, if any
    assert taken.returncode == 0 and said.startswith("backed up "), taken.stderr
    machine.run("systemctl", "stop", "cardtable.service")
    machine.run("sh", "-c", "rm -r /var/lib/cardtable/*")                   # a new SD card, say
    restored = machine.run("sh", "-c", "cardtable restore - < /root/table-backup.tar.gz")
    assert restored.returncode == 0 and restored.stderr.splitlines()[-1].startswith("restored "), restored.stderr
    start(machine)
    assert machine.show("cardtable.service", "StatusText")["StatusText"] == before


def exposure(machine: Machine, unit: str) -> float:
    """`systemd-analyze security`'s overall exposure of `unit` in the booted system."""
    security = machine.run("systemd-analyze", "security", unit)
    return float(re.search(rf"Overall exposure level for {unit}: (\d+\.\d+)", security.stdout)[1])


def test_the_hall_and_a_linked_table_run_under_their_own_units(machine):
    """docs/cafe.md's set-up on one machine: install.py --hall --add-table t1 (Debian's Mosquitto, TLS on 8883),
    then install.py --link with t1's link file. The hall and the link are active with an exposure of at most 2.5,
    and the hall's staff page takes the staff password the installer made (root's only) and no other;
    the table's live state and a finished game reach hall.sqlite, and the hall's acknowledgement link.sqlite, from
    which the table, started again, prunes its outbox; the link writes its own directory and not the table's; a
    second run of each installer writes nothing and leaves the broker running as it was; `--hall --uninstall`
    then removes the hall and keeps its games and the table."""
    start(machine)
    began = time.monotonic()
    web = free_port()   # the machine shares this one's network: its default 8080 may be taken here
    hall = machine.run("python3", "/opt/src/systemd/install.py", "--hall", "--address", "127.0.0.1", "--add-table", "t1",
                       "--web", f"127.0.0.1:{web}")
    assert hall.returncode == 0, hall.stdout + hall.stderr
    link = machine.run("python3", "/opt/src/systemd/install.py", "--link", "/etc/mosquitto/cardtable/tables/t1.link")
    assert link.returncode == 0, link.stdout + link.stderr
    install_s = time.monotonic() - began
    try:
        for unit in ("mosquitto.service", "cardtable-hall.service", "cardtable-link.service"):
            until(lambda: machine.show(unit, "ActiveState")["ActiveState"] == "active", 60, f"{unit} active")
        scores = {unit: exposure(machine, unit) for unit in ("cardtable-hall.service", "cardtable-link.service")}
        assert max(scores.values()) <= 2.5, scores
        staff = machine.root / "etc/mosquitto/cardtable/staff.password"
        assert staff.stat().st_mode & 0o777 == 0o600 and "/staff" in hall.stdout   # root's; the installer says where
        for password, answer in ((staff.read_text().strip(), ["303", "True"]), ("not it", ["401", "False"])):
            signed = lambda: machine.run("/opt/cardtable/venv/bin/python", "-c", STAFF_SIGN_IN, password, str(web))
            try:
                until(lambda: signed().stdout.split() == answer, 30, f"the staff page answering {answer}")
            except AssertionError as error:
                ran = signed()
                raise AssertionError(f"{error}: {ran.stdout}{ran.stderr}\n"
                                     + machine.log("cardtable-hall.service")[-2000:]) from None
        history = machine.root / "var/lib/cardtable/history.sqlite"
        record = History(history)
        record.record([played(1)])
        outbox = record.outbox_id
        record.close()
        machine.run("sh", "-c", "chown cardtable:cardtable /var/lib/cardtable/history.sqlite*")
        store = machine.root / "var/lib/private/cardtable-hall/hall.sqlite"

        def at_the_hall() -> tuple:
            try:
                db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
                try:
                    return (db.execute("SELECT status, live IS NOT NULL FROM tables WHERE tbl = 't1'").fetchone(),
                            db.execute("SELECT outbox, seq, body FROM games WHERE tbl = 't1'").fetchall())
                finally:
                    db.close()
            except sqlite3.Error:   # not made yet
                return None, []

        try:
            until(lambda: at_the_hall()[0] == ("online", 1) and at_the_hall()[1], 60, "t1's live state and game")
        except AssertionError as error:
            raise AssertionError(f"{error}: {at_the_hall()}\n" + "\n".join(
                machine.log(unit)[-2000:] for unit in ("cardtable-hall.service", "cardtable-link.service"))) from None
        [(at_outbox, seq, body)] = at_the_hall()[1]
        assert (at_outbox, seq, json.loads(body)["sha256"]) == (outbox, 1, played(1).sha256)
        for unit in ("cardtable-hall.service", "cardtable-link.service"):   # never failed on the way
            assert machine.show(unit, "NRestarts")["NRestarts"] == "0", machine.log(unit)[-3000:]
        acks = machine.root / "var/lib/cardtable-link/link.sqlite"
        until(lambda: acked(acks, outbox) == 1, 30, "the hall's acknowledgement in link.sqlite")
        start(machine)   # the table writes its history as it starts: the game the hall holds leaves the outbox
        kept = History(history, read_only=True)
        assert kept.outbox() == []
        kept.close()
        as_link = ("nsenter", "-t", machine.show("cardtable-link.service", "MainPID")["MainPID"], "-m",
                   "setpriv", "--reuid=cardtable", "--regid=cardtable", "--clear-groups")
        for folder, writable in (("/var/lib/cardtable", False), ("/var/lib/cardtable-link", True)):
            wrote = machine.run(*as_link, "sh", "-c", f"echo probe > {folder}/probe && rm {folder}/probe")
            assert (wrote.returncode == 0) == writable, (folder, wrote.stderr)
        broker_pid = machine.show("mosquitto.service", "MainPID")["MainPID"]
        for again in (["--hall"], []):
            rerun = machine.run("python3", "/opt/src/systemd/install.py", *again)
            assert rerun.returncode == 0, rerun.stderr
            assert [line for line in rerun.stdout.splitlines() if line.startswith(("wrote", "linked"))] == []
        assert machine.show("mosquitto.service", "MainPID")["MainPID"] == broker_pid   # not restarted: links kept
        removed = machine.run("python3", "/opt/src/systemd/install.py", "--hall", "--uninstall")
        assert removed.returncode == 0 and "Kept /var/lib/cardtable-hall" in removed.stdout, removed.stderr
        assert not (machine.root / "etc/systemd/system/cardtable-hall.service").exists()
        assert (machine.root / "var/lib/private/cardtable-hall/hall.sqlite").is_file()   # every table's games
        assert machine.show("mosquitto.service", "ActiveState")["ActiveState"] == "active"   # Debian's own settings
        assert (machine.root / "opt/cardtable/venv").is_dir()   # the table installed beside it keeps its app
    finally:   # the next test boots this system without a network
        machine.run("systemctl", "disable", "--now", "cardtable-link.service", "cardtable-hall.service",
                    "mosquitto.service")
    print(f"\ninstall --hall and --link: {install_s:.1f} s; systemd-analyze security (booted): {scores}")


STAFF_SIGN_IN = """if True:   # the hall's staff page, signed in to as a browser does: PASSWORD PORT -> its status, a session or not
    import http.client, sys, urllib.parse
    hall = http.client.HTTPConnection("127.0.0.1", int(sys.argv[2]), timeout=30)
    hall.request("POST", "/staff/sign-in", urllib.parse.urlencode({"password": sys.argv[1]}),
                 {"Origin": f"http://127.0.0.1:{sys.argv[2]}", "Content-Type": "application/x-www-form-urlencoded"})
    answer = hall.getresponse()
    print(answer.status, "cardtable-staff=" in (answer.getheader("set-cookie") or ""))"""
PI_CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait\n"


def test_every_command_of_the_owners_manual_runs_and_does_what_it_says(machine):
    """docs/appliance.md from its first command to its last, run in order in the machine as the administrator's
    shell would (in their home, through sudo), with only what AS_HERE changes; then the update the manual
    describes (`git -C cardtable pull` and the install command again). Each does what the manual says it does,
    and a command the manual gains that this test does not know fails it."""
    assert machine.run("apt-get", "install", "--yes", "--no-install-recommends", "sudo").returncode == 0
    cmdline = machine.root / "boot/firmware/cmdline.txt"   # Raspberry Pi OS's, as the manual's first command finds it
    cmdline.parent.mkdir(parents=True, exist_ok=True)
    cmdline.write_text(PI_CMDLINE)
    status = lambda: machine.run("systemctl", "is-active", "cardtable.service").stdout.strip()

    def installed(ran) -> bool:
        """Installed and enabled at boot; then, as the manual says, `sudo reboot` (here the start a boot makes),
        or, a table already running, restarted on the new code."""
        if ran.returncode or machine.run("systemctl", "is-enabled", "cardtable.service").stdout.strip() != "enabled":
            return False
        if status() != "active" and "sudo reboot" in ran.stdout:
            machine.run("systemctl", "start", "cardtable.service", timeout_s=90)
        return status() == "active"

    checks = {   # what the manual says each does, seen after it ran
        "sudo sed": lambda ran: cmdline.read_text() == PI_CMDLINE[:-1] + " video=HDMI-A-1:1920x1080@60D\n",
        "sudo apt-get install -y git && git clone": lambda ran: ran.returncode == 0,
        "sudo python3 cardtable/systemd/install.py": installed,
        "sudo systemctl stop cardtable": lambda ran: status() == "inactive",
        "cardtable enrol": lambda ran: ran.returncode == 0,
        "cardtable doctor": lambda ran: ran.returncode == 1 and "hub" in ran.stdout,   # the hubs are missing here
        "sudo systemctl start cardtable": lambda ran: status() == "active",
        "sudo cardtable backup": lambda ran: ran.returncode == 0 and "backed up " in ran.stderr,
        "sudo cardtable restore": lambda ran: ran.returncode == 0 and "restored " in ran.stderr,
        "git -C cardtable pull": lambda ran: ran.returncode == 0 and "Already up to date." in ran.stdout,
    }
    commands = manual_commands() + ["git -C cardtable pull", manual_commands()[2]]   # section 6's update
    for command in commands:
        check = next((check for start, check in checks.items() if command.startswith(start)), None)
        assert check is not None, f"docs/appliance.md has a command this test does not check: {command}"
        ran = machine.run("sh", "-c", f"cd /root && {as_here(command)}", timeout_s=900)
        assert check(ran), (command, ran.returncode, ran.stdout[-2000:], ran.stderr[-2000:])


# Once the table or its fallback runs and has drawn for 5 s: its memory (peak and now), the screen read back, the
# kernel's DRM state; then, for the table, the screen unplugged and plugged again (the connector's status forced
# off, then probed again, as the kernel does when a cable goes and comes back) and the same once it draws again.
KMS_REPORT = """#!/bin/sh
until systemctl -q is-active cardtable.service cardtable-fallback.service; do sleep 1; done
sleep 5
for unit in cardtable cardtable-fallback; do
    pid=$(systemctl show -p MainPID --value $unit.service)
    [ "$pid" = 0 ] || echo "$unit memory:" $(grep -E '^(VmHWM|VmRSS)' /proc/$pid/status)
done
/opt/cardtable/venv/bin/python /usr/local/sbin/kms_screen.py /dev/dri/card0 /var/tmp/screen.raw
echo KMS state:
cat /sys/kernel/debug/dri/0/state
"""
REPLUG = """status=$(ls /sys/class/drm/card0-*/status | head -n 1)
said() { systemctl show -p StatusText --value cardtable.service; }
echo off > $status
until said | grep -q "waiting for a screen"; do sleep 1; done
echo "unplugged: $(cat $status); the table: $(said)"
sleep 3
echo detect > $status
while said | grep -q "waiting for a screen"; do sleep 1; done
sleep 10
echo "plugged again: $(cat $status); the table: $(said)"
/opt/cardtable/venv/bin/python /usr/local/sbin/kms_screen.py /dev/dri/card0 /var/tmp/screen-again.raw
echo KMS state again:
cat /sys/kernel/debug/dri/0/state
"""
DONE = "sync\necho report done\n"


def peak_memory_mib(log: str, unit: str) -> float:
    """The peak resident memory of `unit`'s process, as the report unit wrote it to the console, in MiB."""
    return int(re.search(rf"{unit} memory: VmHWM: +(\d+) kB", log)[1]) / 1024


# The table's page as this machine draws it with the appliance's settings (hubs-8-seat, its hubs missing), saved
# at its 60th frame: python3 - PNG STATE
EXPECTED = """
import os, sys, pygame
from table.cli import main
from table.screen import display
def show(self, canvas, shown=[]):
    shown.append(canvas)
    if len(shown) == 60:
        pygame.image.save(canvas, sys.argv[1])
    return []
display.Display.show = show
os.environ.update(SDL_VIDEODRIVER="dummy", CARDTABLE_APPLIANCE="1", CARDTABLE_STATE=sys.argv[2])
main(["run", "--layout", "hubs-8-seat", "--hardware", "real", "--frames", "61"])
"""


def same_pixels(screen: pygame.Surface, canvas: pygame.Surface) -> float:
    """The share of the screen's pixels equal (each channel within 8) to `canvas` fitted to it as the display
    fits it (table/screen/display.py), the margins included."""
    expected = pygame.Surface(screen.get_size())
    expected.fill(INK)
    shown = fit(canvas.get_size(), expected.get_rect())
    expected.blit(pygame.transform.smoothscale(canvas, shown.size), shown)
    close = pygame.mask.from_threshold(screen.convert(expected), (0, 0, 0), (9, 9, 9, 255), expected)
    return close.count() / (screen.get_width() * screen.get_height())


def read_back(machine: Machine, name: str) -> pygame.Surface:
    """The screen the report unit read back into /var/tmp/`name` in the virtual machine's disk, stopped."""
    raw = machine.root.parent / name
    subprocess.run(["debugfs", "-R", f"dump /var/tmp/{name} {raw}", machine.root.parent / "disk.ext4"],
                   capture_output=True, check=True)
    head, _, pixels = raw.read_bytes().partition(b"\n")
    width, height = map(int, head.split())
    pixels = bytearray(pixels)
    pixels[3::4] = b"\xff" * (width * height)   # XRGB8888's X byte is no alpha: opaque
    return pygame.image.frombytes(bytes(pixels), (width, height), "BGRA")


def on_the_plane(log: str, heading: str = "KMS state:") -> bool:
    """Whether the kernel's DRM state, as the report unit wrote it to the console after `heading`, shows a
    framebuffer on the card's primary plane."""
    state = re.sub(r"\[ *[\d.]+\] [\w-]+\[\d+\]: ", "", log[log.index(heading):])   # the journal's prefixes
    return re.search(r"plane\[\d+\]: plane-0\s+crtc=crtc-0\s+fb=\d+", state) is not None


def test_on_a_real_kms_screen_the_table_and_its_fallback_start_under_their_own_units(machine, tmp_path):
    """The same system with Debian's kernel, booted in QEMU with a virtio-gpu KMS card whose screen is
    connected, without the dummy driver: the table reaches READY under its unit and draws on the card itself
    (table/screen/kms.py); the screen, read back from the card, is the lobby this machine draws; unplugged
    (the connector forced off), the table says it waits for a screen, and plugged again it draws the lobby
    again. Booted again with a layout that does not exist, the fallback's message is on the card's plane after
    five failed starts. The table's and the fallback's peak memory are printed."""
    start(machine)
    kernel = machine.run("apt-get", "install", "--yes", "--no-install-recommends", "linux-image-amd64", "udev",
                         timeout_s=900)
    assert kernel.returncode == 0, kernel.stderr[-2000:]
    machine.run("systemctl", "stop", "cardtable.service")
    machine.run("sh", "-c", "rm -r /var/lib/cardtable/*")   # a table from a blank state: the lobby, as drawn here
    for unit in ("cardtable", "cardtable-fallback"):
        (machine.root / f"etc/systemd/system/{unit}.service.d/no-screen.conf").unlink()
    script = machine.root / "usr/local/sbin/kms-report"
    script.write_text(KMS_REPORT + REPLUG + DONE)
    script.chmod(0o755)
    (machine.root / "usr/local/sbin/kms_screen.py").write_text((REPO / "tests/appliance/kms_screen.py").read_text())
    report = machine.root / "etc/systemd/system/kms-report.service"
    report.write_text("[Service]\nType=oneshot\nExecStart=/usr/local/sbin/kms-report\n"
                      "StandardOutput=journal+console\n[Install]\nWantedBy=multi-user.target\n")
    (machine.root / "etc/systemd/system/multi-user.target.wants/kms-report.service").symlink_to(report)
    vm = machine.virtual_machine(machine.root.parent / "table.log")
    try:
        ready_s = vm.wait_for("Started cardtable.service", 420, failed="cardtable.service: Main process exited")
        vm.wait_for("report done", 420)
        log = vm.log()
    finally:
        vm.close()
    shown = [read_back(machine, name) for name in ("screen.raw", "screen-again.raw")]
    assert "cardtable.service: Main process exited" not in log and "cardtable.service: Failed" not in log, log[-3000:]
    assert on_the_plane(log), log[-3000:]
    table_mib = peak_memory_mib(log, "cardtable")
    unplugged, plugged = (re.search(rf"{said}: (.*)", log)[1].strip() for said in ("unplugged", "plugged again"))
    assert unplugged.startswith("disconnected; the table: lobby"), log[-3000:]
    assert unplugged.endswith("waiting for a screen on Virtual-1"), log[-3000:]
    assert "screen gone from Virtual-1: the table runs on" in log, log[-3000:]
    assert plugged.startswith("connected; the table: lobby") and "waiting" not in plugged, log[-3000:]
    assert on_the_plane(log, "KMS state again:"), log[-3000:]
    subprocess.run([sys.executable, "-", tmp_path / "lobby.png", tmp_path / "state"], input=EXPECTED, text=True,
                   cwd=REPO, check=True, capture_output=True)
    lobby = pygame.image.load(tmp_path / "lobby.png")
    same = [same_pixels(screen, lobby) for screen in shown]
    for n, screen in enumerate(shown):
        pygame.image.save(screen, tmp_path / f"screen-{n}.png")
    print(f"\nthe screen read back from the card, before the unplug and after: {same[0]:.1%} and {same[1]:.1%} of "
          f"its pixels the lobby's ({tmp_path})")
    assert min(same) > 0.99
    script.write_text(KMS_REPORT + DONE)
    settings = machine.root / SETTINGS.removeprefix("/")
    settings.write_text(settings.read_text().replace("CARDTABLE_LAYOUT=hubs-8-seat", "CARDTABLE_LAYOUT=no-such"))
    vm = machine.virtual_machine(machine.root.parent / "fallback.log")
    try:
        fallback_s = vm.wait_for("Started cardtable-fallback.service", 420,
                                 failed="cardtable-fallback.service: Main process exited")
        vm.wait_for("report done", 180)
        log = vm.log()
    finally:
        vm.close()
    assert "The table stopped: the program hit an error." in log and on_the_plane(log), log[-3000:]
    print(f"\nQEMU boot -> READY on a KMS screen: {ready_s:.0f} s; -> the fallback on it: {fallback_s:.0f} s; "
          f"peak resident memory on the KMS screen: the table {table_mib:.1f} MiB, "
          f"the fallback {peak_memory_mib(log, 'cardtable-fallback'):.1f} MiB")
