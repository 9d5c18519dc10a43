"""The installer, run into a folder (--root) from a small checkout: what it writes, twice the same, and what
uninstalling removes and keeps. Every run here has --root: run as root without it, it would install this
machine."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from table.cafe.broker import credential, set_up
from tests.cafe.broker import needs

from .conftest import REPO

CONFIG_TXT = """\
# For more options and information see
# http://rptl.io/configtxt
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on
dtparam=audio=on

[cm4]
otg_mode=1

[all]
"""


@pytest.fixture
def checkout(tmp_path) -> Path:
    """A checkout of the project, small: the installer and the units, two layouts, a package, and what a
    developer's checkout also holds and an installation must not (a virtual environment, bytecode)."""
    source = tmp_path / "checkout"
    (source / "systemd").mkdir(parents=True)
    for name in ("install.py", "cardtable.service", "cardtable-fallback.service", "cardtable-link.service",
                 "cardtable-hall.service"):
        shutil.copy(REPO / "systemd" / name, source / "systemd" / name)
    (source / "hardware" / "layouts").mkdir(parents=True)
    for name in ("pi-4-seat.toml", "hubs-8-seat.toml"):
        shutil.copy(REPO / "hardware" / "layouts" / name, source / "hardware" / "layouts" / name)
    for path in ("table/__init__.py", "table/__pycache__/__init__.cpython-311.pyc", ".venv/bin/python",
                 ".git/HEAD", ".lgd-nfy0"):
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_text("")
    return source


@pytest.fixture
def root(tmp_path) -> Path:
    """A Raspberry Pi OS root, before the installation: its config.txt only."""
    root = tmp_path / "root"
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text(CONFIG_TXT)
    return root


def install(checkout: Path, root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, checkout / "systemd" / "install.py", "--root", root, *args],
                          capture_output=True, text=True, timeout=120, check=False)


def tree(root: Path) -> dict[str, tuple[int, bytes | None]]:
    """Every file, folder and symbolic link under `root`: its mode and contents (a link's: its target)."""
    return {str(p.relative_to(root)): (p.lstat().st_mode, str(p.readlink()) if p.is_symlink() else
                                       None if p.is_dir() else p.read_bytes())
            for p in sorted(root.rglob("*"))}


def test_install_writes_the_table_into_the_root(checkout, root):
    result = install(checkout, root, "--contact", "Marie, 06 12 34 56 78")
    assert (result.returncode, result.stderr) == (0, "")
    service = (root / "etc/systemd/system/cardtable.service").read_text()
    assert "ExecStart=/opt/cardtable/venv/bin/cardtable run --hardware real --fullscreen\n" in service
    fallback = (root / "etc/systemd/system/cardtable-fallback.service").read_text()
    assert "ExecStart=/opt/cardtable/venv/bin/cardtable fallback --fullscreen\n" in fallback
    assert re.findall("@[A-Z]+@", service + fallback) == []
    settings = (root / "etc/default/cardtable").read_text()
    assert "CARDTABLE_LAYOUT=pi-4-seat\n" in settings and "CARDTABLE_CONTACT='Marie, 06 12 34 56 78'\n" in settings
    command = root / "usr/local/bin/cardtable"
    assert command.stat().st_mode & 0o777 == 0o755
    assert "sudo -u cardtable env -C /var/lib/cardtable CARDTABLE_STATE=/var/lib/cardtable" in command.read_text()
    rule = (root / "etc/udev/rules.d/70-cardtable-hubs.rules").read_text()
    for product in ("0005", "000a"):
        assert (f'ATTRS{{idVendor}}=="2e8a", ATTRS{{idProduct}}=="{product}", ENV{{ID_MM_DEVICE_IGNORE}}="1"'
                in rule)
    polkit = (root / "etc/polkit-1/rules.d/50-cardtable-power.rules").read_text()
    assert 'subject.user == "cardtable"' in polkit and "polkit.Result.YES" in polkit
    assert sorted(re.findall(r'"(org\.freedesktop\.[\w.-]+)"', polkit)) == [
        "org.freedesktop.login1.power-off", "org.freedesktop.login1.power-off-multiple-sessions",
        "org.freedesktop.login1.reboot", "org.freedesktop.login1.reboot-multiple-sessions"]
    assert CONFIG_TXT.replace("#dtparam=spi=on", "dtparam=spi=on") == (root / "boot/firmware/config.txt").read_text()
    app = root / "opt/cardtable/app"
    assert sorted(str(p.relative_to(app)) for p in app.rglob("*") if p.is_file()) == [
        "hardware/layouts/hubs-8-seat.toml", "hardware/layouts/pi-4-seat.toml", "systemd/cardtable-fallback.service",
        "systemd/cardtable-hall.service", "systemd/cardtable-link.service", "systemd/cardtable.service",
        "systemd/install.py", "table/__init__.py"]
    assert (root / "var/lib/cardtable").is_dir()
    commands = [line.removeprefix("not run (--root): ") for line in result.stdout.splitlines()
                if line.startswith("not run")]
    for expected in ("apt-get install --yes --no-install-recommends python3-venv libgbm1 libegl1 libgles2 "
                     "libgl1-mesa-dri polkitd sudo",
                     ("useradd --system --user-group --groups spi,gpio,dialout,video,render,input "
                      "--home-dir /var/lib/cardtable --no-create-home --shell /usr/sbin/nologin cardtable"),
                     "/opt/cardtable/venv/bin/pip install --only-binary=lgpio,spidev --editable /opt/cardtable/app",
                     "chown cardtable:cardtable /var/lib/cardtable", "udevadm control --reload-rules",
                     "systemctl daemon-reload", "systemctl enable cardtable.service"):
        assert expected in commands
    assert commands.index("systemctl daemon-reload") < commands.index("systemctl enable cardtable.service")


def test_installing_again_changes_nothing_but_what_is_asked(checkout, root):
    install(checkout, root, "--contact", "Marie")
    first = tree(root)
    again = install(checkout, root)
    assert again.returncode == 0
    assert tree(root) == first
    assert "wrote" not in again.stdout
    install(checkout, root, "--layout", "hubs-8-seat")
    settings = (root / "etc/default/cardtable").read_text()
    assert "CARDTABLE_LAYOUT=hubs-8-seat\n" in settings and "CARDTABLE_CONTACT=Marie\n" in settings
    assert "CARDTABLE_SPECTATE=''\n" in settings
    install(checkout, root, "--spectate", "http://hall.local:8080/table/t1")
    install(checkout, root, "--contact", "Paul")
    settings = (root / "etc/default/cardtable").read_text()
    assert "CARDTABLE_SPECTATE=http://hall.local:8080/table/t1\n" in settings and "CARDTABLE_CONTACT=Paul\n" in settings


def test_uninstall_removes_the_table_and_keeps_its_state(checkout, root):
    install(checkout, root)
    (root / "var/lib/cardtable/registry.sqlite").write_text("the deck's tags")
    result = install(checkout, root, "--uninstall")
    assert result.returncode == 0
    for path in ("etc/systemd/system/cardtable.service", "etc/systemd/system/cardtable-fallback.service",
                 "etc/udev/rules.d/70-cardtable-hubs.rules", "etc/polkit-1/rules.d/50-cardtable-power.rules",
                 "usr/local/bin/cardtable", "etc/default/cardtable", "opt/cardtable"):
        assert not (root / path).exists(), path
    assert (root / "var/lib/cardtable/registry.sqlite").read_text() == "the deck's tags"
    assert "dtparam=spi=on\n" in (root / "boot/firmware/config.txt").read_text()
    assert "not run (--root): systemctl disable --now cardtable.service" in result.stdout
    assert "not run (--root): userdel cardtable" in result.stdout
    assert install(checkout, root, "--uninstall").returncode == 0


def test_an_unknown_layout_is_refused_before_anything_is_done(checkout, root):
    before = tree(root)
    result = install(checkout, root, "--layout", "pi-3-seat")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (f"install.py: no layout 'pi-3-seat' in {checkout / 'hardware/layouts'} "
                             "(put your own layout file there, then name it)\n")
    assert tree(root) == before


def not_run(result: subprocess.CompletedProcess) -> list[str]:
    """The commands the installer printed instead of running them (--root)."""
    return [line.removeprefix("not run (--root): ") for line in result.stdout.splitlines() if line.startswith("not run")]


def test_install_hall_writes_the_hall_and_its_brokers_drop_in_and_a_second_run_changes_nothing(checkout, root):
    result = install(checkout, root, "--hall", "--address", "192.168.1.10", "--add-table", "t1", "--add-table", "t2")
    assert (result.returncode, result.stderr) == (0, "")
    unit = (root / "etc/systemd/system/cardtable-hall.service").read_text()
    assert "ExecStart=/opt/cardtable/venv/bin/cardtable hall --broker 127.0.0.1 --password-file %d/password \\\n" in unit
    assert re.findall("@[A-Z]+@", unit) == []
    assert (root / "etc/default/cardtable-hall").read_text().endswith(
        "CARDTABLE_HALL_ADDRESS=192.168.1.10\n# Where the hall's pages are served, HOST:PORT.\n"
        "CARDTABLE_HALL_WEB=0.0.0.0:8080\n")
    assert (root / "etc/mosquitto/conf.d/cardtable.conf").readlink() == Path("/etc/mosquitto/cardtable/cardtable.conf")
    commands = not_run(result)
    for expected in ("apt-get install --yes --no-install-recommends python3-venv mosquitto openssl",
                     ("/opt/cardtable/venv/bin/cardtable hall --setup /etc/mosquitto/cardtable --broker 192.168.1.10 "
                      "--table t1 --table t2"),
                     "chgrp mosquitto /etc/mosquitto/cardtable/passwords /etc/mosquitto/cardtable/server.key",
                     "systemctl enable cardtable-hall.service", "systemctl restart mosquitto.service"):
        assert expected in commands
    assert not (root / "etc/systemd/system/cardtable.service").exists()   # a hall, not a table
    first = tree(root)
    again = install(checkout, root, "--hall", "--add-table", "t3")   # the address as set the first time
    assert again.returncode == 0
    assert tree(root) == first and "wrote" not in again.stdout and "linked" not in again.stdout
    assert "/opt/cardtable/venv/bin/cardtable hall --setup /etc/mosquitto/cardtable --broker 192.168.1.10 --table t3" \
        in not_run(again)
    assert "systemctl start mosquitto.service" in not_run(again)   # its files as they were: the tables stay linked
    assert install(checkout, root, "--hall", "--web", "127.0.0.1:9000").returncode == 0
    assert "CARDTABLE_HALL_WEB=127.0.0.1:9000\n" in (root / "etc/default/cardtable-hall").read_text()


def test_uninstalling_the_hall_keeps_every_tables_games_and_a_table_installed_beside_it(checkout, root):
    assert install(checkout, root, "--hall", "--address", "192.168.1.10", "--add-table", "t1").returncode == 0
    (root / "var/lib/cardtable-hall").mkdir(parents=True)
    (root / "var/lib/cardtable-hall/hall.sqlite").write_text("every table's games")
    (root / "etc/mosquitto/cardtable/ca.crt").parent.mkdir(parents=True, exist_ok=True)
    (root / "etc/mosquitto/cardtable/ca.crt").write_text("the hall's CA")   # made by the set-up, not run here
    result = install(checkout, root, "--hall", "--uninstall")
    assert result.returncode == 0
    for path in ("etc/systemd/system/cardtable-hall.service", "etc/default/cardtable-hall",
                 "etc/mosquitto/conf.d/cardtable.conf", "etc/mosquitto/cardtable", "opt/cardtable"):
        assert not (root / path).exists() and not (root / path).is_symlink(), path
    assert (root / "var/lib/cardtable-hall/hall.sqlite").read_text() == "every table's games"
    for command in ("systemctl disable --now cardtable-hall.service", "systemctl try-restart mosquitto.service"):
        assert command in not_run(result)
    assert "Kept /var/lib/cardtable-hall" in result.stdout
    assert install(checkout, root, "--hall", "--uninstall").returncode == 0   # again: nothing left to do
    install(checkout, root)                               # a table and the hall on one machine
    install(checkout, root, "--hall", "--address", "192.168.1.10")
    assert install(checkout, root, "--hall", "--uninstall").returncode == 0
    assert (root / "opt/cardtable/app").is_dir() and (root / "etc/systemd/system/cardtable.service").exists()


@pytest.fixture
def link_file(tmp_path) -> Path:
    """Table t1's link file, made by the hall's own set-up (table/cafe/broker.py, the real openssl and
    mosquitto_passwd) for a hall at 192.168.1.10."""
    lacks = needs()
    if lacks:
        pytest.skip("needs " + ", ".join(lacks))
    set_up(tmp_path / "hall", ["t1"], hosts=("192.168.1.10",))
    return tmp_path / "hall" / "tables" / "t1.link"


def test_install_link_writes_the_tables_link_from_its_link_file_and_keeps_it(checkout, root, link_file):
    result = install(checkout, root, "--link", str(link_file))
    assert (result.returncode, result.stderr) == (0, "")
    hall = link_file.parents[1]
    assert (root / "etc/default/cardtable-link").read_text().endswith(
        "CARDTABLE_TABLE=t1\nCARDTABLE_HALL=192.168.1.10\nCARDTABLE_HALL_PORT=8883\n")
    assert (root / "etc/systemd/system/cardtable-link.service.d/hall.conf").read_text().endswith(
        "[Service]\nIPAddressAllow=192.168.1.10\n")
    password = root / "etc/cardtable-link/password"
    assert (password.read_text(), password.stat().st_mode & 0o777) == (credential(hall, "t1") + "\n", 0o600)
    assert (root / "etc/cardtable-link/ca.crt").read_text() == (hall / "ca.crt").read_text()
    unit = (root / "etc/systemd/system/cardtable-link.service").read_text()
    assert "ExecStart=/opt/cardtable/venv/bin/cardtable link --port ${CARDTABLE_HALL_PORT}" in unit
    commands = not_run(result)
    assert commands.index("systemctl daemon-reload") < commands.index("systemctl enable cardtable-link.service")
    assert "systemctl restart cardtable-link.service" in commands
    first = tree(root)
    again = install(checkout, root)   # an upgrade: the link kept, its unit as it was
    assert tree(root) == first and "wrote" not in again.stdout
    assert "systemctl try-restart cardtable-link.service" in not_run(again)
    assert install(checkout, root, "--uninstall").returncode == 0
    for path in ("etc/systemd/system/cardtable-link.service", "etc/systemd/system/cardtable-link.service.d",
                 "etc/default/cardtable-link", "etc/cardtable-link"):
        assert not (root / path).exists(), path


@pytest.mark.parametrize("args, text, status, said", [
    (["--link", "t1.link"], "not json", 1, "install.py: {file}: not a link file made by the hall (Expecting value: "
                                          "line 1 column 1 (char 0))"),
    (["--link", "t1.link"], '{"table": "t1"}', 1, "install.py: {file}: not a link file made by the hall (it needs "
                                                  "table, hall, port, password, ca)"),
    (["--link", "t1.link"], '{"table": "t1", "hall": "hall.local", "port": 8883, "password": "p", "ca": "c"}', 1,
     "install.py: the hall's address must be an IP address, not 'hall.local' (the link's unit lets only that "
     "address through)"),
    (["--hall"], "", 1, "install.py: the first time, --address ADDRESS: the hall's IP address on the café's network"),
    (["--add-table", "t1"], "", 2, "install.py: error: --add-table is for the hall (--hall)"),
    (["--hall", "--address", "192.168.1.10", "--link", "t1.link"], "", 2, "install.py: error: --link is for a table"),
])
def test_bad_hall_or_link_settings_are_refused_in_one_line_before_anything_is_done(checkout, root, tmp_path, args,
                                                                                   text, status, said):
    file = tmp_path / "t1.link"
    file.write_text(text)
    before = tree(root)
    result = install(checkout, root, *(str(file) if arg == "t1.link" else arg for arg in args))
    assert (result.returncode, result.stdout, result.stderr.splitlines()[-1]) == (status, "", said.format(file=file))
    assert "Traceback" not in result.stderr
    assert tree(root) == before


@pytest.mark.parametrize("config, expected", [
    ("#dtparam=spi=on\ndtparam=audio=on\n", "dtparam=spi=on\ndtparam=audio=on\n"),
    ("dtparam=spi=off\n", "dtparam=spi=on\n"),
    ("dtparam=spi=on\n#dtparam=spi=on\n", "dtparam=spi=on\n#dtparam=spi=on\n"),
    ("dtparam=audio=on\n[pi4]\narm_boost=1", "dtparam=audio=on\n[pi4]\narm_boost=1\n[all]\ndtparam=spi=on\n"),
    ("", "[all]\ndtparam=spi=on\n"),
])
def test_spi_is_switched_on_once_for_every_pi(installer, config, expected):
    assert installer.spi_enabled(config) == expected
    assert installer.spi_enabled(expected) == expected


@pytest.mark.skipif(shutil.which("node") is None, reason="no JavaScript engine here to run polkit's rule")
def test_the_polkit_rule_lets_only_the_tables_user_power_off_and_reboot(checkout, root):
    """polkit runs its rules as JavaScript: run this one for a few (user, action) pairs."""
    install(checkout, root)
    rule = (root / "etc/polkit-1/rules.d/50-cardtable-power.rules").read_text()
    asks = [("cardtable", "org.freedesktop.login1.power-off"), ("cardtable", "org.freedesktop.login1.reboot"),
            ("cardtable", "org.freedesktop.login1.reboot-multiple-sessions"),
            ("cardtable", "org.freedesktop.login1.suspend"), ("cardtable", "org.freedesktop.systemd1.manage-units"),
            ("pi", "org.freedesktop.login1.power-off")]
    script = ("const rules = []; const polkit = {Result: {YES: 'yes'}, addRule: (f) => rules.push(f)};\n" + rule +
              f"\nfor (const [user, id] of {json.dumps(asks)}) "
              "console.log(rules.map((f) => f({id: id}, {user: user})).find((r) => r) || 'ask');")
    answers = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout.split()
    assert answers == ["yes", "yes", "yes", "ask", "ask", "ask"]


class Machine:
    """A system as the installer's steps see it, run for real in nothing: the commands asked, with those that fail
    here (`failing`: command lines), and whether udevd and systemd run."""

    def __init__(self, installer, failing: set[str], udevd: bool = True, systemd: bool = True) -> None:
        self.installer, self.failing, self.udevd, self.systemd, self.ran = installer, failing, udevd, systemd, []

    def run(self, *command, may_fail: bool = False, quiet: bool = False) -> bool:
        line = " ".join(str(part) for part in command)
        self.ran.append(line)
        if line in self.failing and not may_fail:
            raise self.installer.Refused(f"{line} failed")
        return line not in self.failing

    def udevd_runs(self) -> bool:
        return self.udevd

    def systemd_runs(self) -> bool:
        return self.systemd


PIP = "/opt/cardtable/venv/bin/pip install"
WHEELS_ONLY = f"{PIP} --only-binary=lgpio,spidev --editable /opt/cardtable/app"
NO_WHEEL = {name: f"{PIP} --dry-run --no-deps --only-binary=:all: {name}" for name in ("lgpio", "spidev")}


def test_build_packages_are_installed_only_for_an_extension_without_a_wheel_and_only_those_the_archive_has(
        installer, capsys):
    wheels = Machine(installer, failing=set())                           # x86_64: lgpio has a wheel
    installer.install_package(wheels)
    assert wheels.ran == [WHEELS_ONLY]
    debian_arm = Machine(installer, failing={WHEELS_ONLY, NO_WHEEL["spidev"]})   # arm64: lgpio has a wheel
    installer.install_package(debian_arm)
    assert debian_arm.ran[-2:] == ["apt-get install --yes --no-install-recommends python3-dev build-essential",
                                   f"{PIP} --only-binary=lgpio --editable /opt/cardtable/app"]
    assert capsys.readouterr().out == "no wheel of spidev for this machine: installing what builds it\n"
    neither = Machine(installer, failing={WHEELS_ONLY, *NO_WHEEL.values(), "apt-cache show liblgpio-dev"})
    installer.install_package(neither)                                  # plain Debian has no liblgpio-dev
    assert neither.ran[-2:] == ["apt-get install --yes --no-install-recommends python3-dev build-essential swig",
                                f"{PIP} --only-binary=:none: --editable /opt/cardtable/app"]
    assert capsys.readouterr().out == ("no wheel of spidev nor lgpio for this machine: installing what builds them "
                                       "(liblgpio-dev not in this system's archive: left out)\n")
    pi_os = Machine(installer, failing={WHEELS_ONLY, *NO_WHEEL.values()})   # Raspberry Pi OS has liblgpio-dev
    installer.install_package(pi_os)
    assert pi_os.ran[-2] == ("apt-get install --yes --no-install-recommends python3-dev build-essential swig "
                             "liblgpio-dev")


def test_a_pip_failure_that_is_no_missing_wheel_installs_no_build_packages(installer):
    offline = Machine(installer, failing={WHEELS_ONLY})
    with pytest.raises(installer.Refused, match="pip could not install the table"):
        installer.install_package(offline)
    assert not any(line.startswith("apt-get") for line in offline.ran)


def test_without_udevd_the_rule_is_written_and_its_reload_skipped_in_one_line(installer, capsys):
    container = Machine(installer, failing={"udevadm control --reload-rules"}, udevd=False)
    installer.reload_udev(container, trigger=True)
    assert container.ran == []
    assert capsys.readouterr().out == ("udevd does not run here (a container, a chroot, an image build): the udev "
                                       "rule applies from the next boot\n")
    booted = Machine(installer, failing=set())
    installer.reload_udev(booted, trigger=True)
    assert booted.ran == ["udevadm control --reload-rules", "udevadm trigger --action=change --subsystem-match=tty"]


def test_without_systemd_the_units_are_enabled_and_the_reload_and_restart_skipped_in_one_line(installer, capsys):
    container = Machine(installer, failing={"systemctl daemon-reload", "systemctl try-restart cardtable.service"},
                        systemd=False)
    installer.reload_systemd(container)
    installer.enable(container, "cardtable.service")
    assert container.ran == ["systemctl enable cardtable.service"]
    assert capsys.readouterr().out == ("systemd does not run here (a container, a chroot, an image build): it reads "
                                       "the units at the next boot\n")
