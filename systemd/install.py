#!/usr/bin/env python3
"""Install the card table as an appliance on Raspberry Pi OS Lite (64-bit, bookworm) on a Pi 4 or Pi 5, or on
plain Debian 12 (x86_64 or arm64), or uninstall it (docs/appliance.md):

    sudo python3 systemd/install.py [--layout NAME] [--contact "Marie, 06 12 34 56 78"] [--link FILE]
    sudo python3 systemd/install.py --uninstall

or the café's hall (docs/cafe.md), with its broker, on any Debian 12, and a table's link file there:

    sudo python3 systemd/install.py --hall --address 192.168.1.10 [--web HOST:PORT] [--add-table NAME]

It runs with the system's python3 and its standard library only, since it
makes the virtual environment the table runs in. Each step can run again and
leaves the same result: the apt packages, the user `cardtable` and its
groups, a copy of this checkout in /opt/cardtable/app and its virtual
environment in /opt/cardtable/venv, the state directory /var/lib/cardtable,
the settings /etc/default/cardtable, the command /usr/local/bin/cardtable
(the table's own, run as its user with its settings and state), a udev rule
that keeps ModemManager off the seat hubs, a polkit rule that lets the table
shut down or restart the machine (its staff menu), SPI switched on in config.txt,
the units installed and the table's enabled; with --link FILE (a table's
link file, made at the hall) also the link to the hall, its settings
/etc/default/cardtable-link and /etc/cardtable-link/, and its unit.
--uninstall removes all that but the state directory (the games' journal,
the tag registry, the history), the apt packages and SPI.

--hall installs the hall instead: the apt packages (Debian's mosquitto and
openssl), the same app and virtual environment, the settings
/etc/default/cardtable-hall, the broker's files in /etc/mosquitto/cardtable
(made by `cardtable hall --setup`: the CA, one password per table, the ACL)
with Mosquitto's drop-in /etc/mosquitto/conf.d/cardtable.conf, and the
hall's unit, enabled; --add-table NAME gives a table its password and its
link file, /etc/mosquitto/cardtable/tables/NAME.link. --hall --uninstall
removes the hall's unit, settings and broker files (the tables' link files
stop working) but its state directory (every table's games), Mosquitto and
the apt packages.

Steps that cannot apply here are said in one line and skipped: no udevd
(a container, a chroot, an image build: the rule applies from the next
boot), no systemd running (the same: the units are enabled and start at
the next boot), no config.txt (not a Pi). What builds a C extension (a
compiler, headers) is installed only when pip finds no wheel of it for
this machine.

--root DIR writes every file under DIR instead of / and prints, instead of
running them, the commands that need a real system (apt-get, groupadd,
useradd, usermod, userdel, chown, the virtual environment, udevadm,
systemctl): the tests install into a folder.
"""
from __future__ import annotations

import argparse
import ipaddress
import json
import os
import pwd
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1]   # the checkout this script is in
USER = "cardtable"
GROUPS = ("spi", "gpio", "dialout", "video", "render", "input")   # the groups of the table's devices
PREFIX = Path("/opt/cardtable")
APP, VENV = PREFIX / "app", PREFIX / "venv"
STATE = Path("/var/lib/cardtable")
SETTINGS = Path("/etc/default/cardtable")
COMMAND = Path("/usr/local/bin/cardtable")
UNITS = Path("/etc/systemd/system")
UNIT_NAMES = ("cardtable.service", "cardtable-fallback.service")
LINK_UNIT, HALL_UNIT = "cardtable-link.service", "cardtable-hall.service"
LINK_SETTINGS = Path("/etc/default/cardtable-link")
LINK_FILES = Path("/etc/cardtable-link")                          # the hall's CA and the table's password
LINK_DROPIN = UNITS / f"{LINK_UNIT}.d" / "hall.conf"              # IPAddressAllow= the hall's address
HALL_SETTINGS = Path("/etc/default/cardtable-hall")
HALL_STATE = Path("/var/lib/cardtable-hall")                       # hall.sqlite (systemd's StateDirectory)
BROKER = Path("/etc/mosquitto/cardtable")                         # the hall's broker files (`cardtable hall --setup`)
BROKER_DROPIN = Path("/etc/mosquitto/conf.d/cardtable.conf")      # Debian's mosquitto.conf includes conf.d/
BROKER_SECRETS = ("passwords", "server.key")                      # read by Mosquitto once it is its own user
UDEV_RULE = Path("/etc/udev/rules.d/70-cardtable-hubs.rules")
POLKIT_RULE = Path("/etc/polkit-1/rules.d/50-cardtable-power.rules")
CONFIG_TXT = (Path("/boot/firmware/config.txt"), Path("/boot/config.txt"))   # bookworm, then older releases
SPI_ON = "dtparam=spi=on"
NOT_COPIED = (".git", ".venv", "__pycache__", "*.egg-info", ".*_cache", ".hypothesis", ".lgd-nfy*", "build", "out")

# Debian packages. The display without a desktop (SDL's KMSDRM) needs GBM, EGL, GLES and Mesa's drivers; the
# staff menu's power-off needs polkit; the command `cardtable` runs the table's own as its user with sudo.
PACKAGES = ("python3-venv", "libgbm1", "libegl1", "libgles2", "libgl1-mesa-dri", "polkitd", "sudo")
HALL_PACKAGES = ("python3-venv", "mosquitto", "openssl")
# The C extensions and what builds each where pip finds no wheel of it for this machine (spidev on arm64: PyPI
# has none, piwheels 32-bit ones only): the compiler and Python's headers, and for lgpio swig and the lg
# library's headers (liblgpio-dev: in Raspberry Pi OS's archive only). Those the archive lacks are left out.
BUILDS = {"spidev": ("python3-dev", "build-essential"),
          "lgpio": ("python3-dev", "build-essential", "swig", "liblgpio-dev")}
UDEV_CONTROL = Path("/run/udev/control")      # udevd's socket: there when udevd runs
SYSTEMD_RUNS = Path("/run/systemd/system")    # there when systemd runs the system (sd_booted)

UDEV_TEXT = """\
# The card table's seat hubs (Raspberry Pi Picos on USB serial): ModemManager must not probe them as modems.
# 2e8a:0005 is MicroPython, which the hubs run; 2e8a:000a is the Pico SDK's USB serial.
ATTRS{idVendor}=="2e8a", ATTRS{idProduct}=="0005", ENV{ID_MM_DEVICE_IGNORE}="1"
ATTRS{idVendor}=="2e8a", ATTRS{idProduct}=="000a", ENV{ID_MM_DEVICE_IGNORE}="1"
"""

# The staff menu's "shut down" and "restart" (table/appliance/power.py): logind asks polkit whether the table's
# user may; this rule says yes to those actions only, and only for that user (polkit 121+, JavaScript rules).
POLKIT_TEXT = """\
// The card table (cardtable.service) may shut down or restart the machine when staff ask from its staff menu.
polkit.addRule(function (action, subject) {
    if (subject.user == "cardtable" && [
            "org.freedesktop.login1.power-off", "org.freedesktop.login1.power-off-multiple-sessions",
            "org.freedesktop.login1.reboot", "org.freedesktop.login1.reboot-multiple-sessions"
        ].indexOf(action.id) >= 0) {
        return polkit.Result.YES;
    }
});
"""

SETTINGS_TEXT = """\
# The card table's settings, read by cardtable.service and cardtable-fallback.service (docs/appliance.md).
# After a change: sudo systemctl restart cardtable
# The table's layout: a name in {layouts}.
CARDTABLE_LAYOUT={CARDTABLE_LAYOUT}
# Whom the staff call when the screen says the table stopped.
CARDTABLE_CONTACT={CARDTABLE_CONTACT}
# The table's spectator page at the café's hall (docs/cafe.md), a QR code on the screen when a game ends; empty: none.
CARDTABLE_SPECTATE={CARDTABLE_SPECTATE}
"""
LINK_SETTINGS_TEXT = """\
# The table's link to the café's hall, read by cardtable-link.service (docs/cafe.md); written by
# systemd/install.py --link FILE from the table's link file, with /etc/cardtable-link/ and the unit's drop-in.
# The table's name (its broker user and topics), the hall's address and its broker's port.
CARDTABLE_TABLE={CARDTABLE_TABLE}
CARDTABLE_HALL={CARDTABLE_HALL}
CARDTABLE_HALL_PORT={CARDTABLE_HALL_PORT}
"""
HALL_SETTINGS_TEXT = """\
# The café's hall, read by cardtable-hall.service (docs/cafe.md). After a change: sudo systemctl restart cardtable-hall
# The address the tables reach the hall by (its broker's certificate holds it; the tables' link files name it).
CARDTABLE_HALL_ADDRESS={CARDTABLE_HALL_ADDRESS}
# Where the hall's pages are served, HOST:PORT.
CARDTABLE_HALL_WEB={CARDTABLE_HALL_WEB}
"""
COMMAND_TEXT = f"""\
#!/bin/sh
# `cardtable` as the table's service runs it: its user, settings and state directory (systemd/install.py).
# Stop the table first for what needs its screen or readers (doctor, enrol): sudo systemctl stop cardtable
# An SDL video driver the administrator chose (SDL_VIDEODRIVER=dummy on a machine with no screen) is kept.
set -a
. {SETTINGS}
set +a
exec sudo -u {USER} env -C {STATE} CARDTABLE_STATE={STATE} CARDTABLE_LAYOUT="$CARDTABLE_LAYOUT" \\
    CARDTABLE_CONTACT="$CARDTABLE_CONTACT" CARDTABLE_SPECTATE="$CARDTABLE_SPECTATE" \\
    ${{SDL_VIDEODRIVER:+SDL_VIDEODRIVER="$SDL_VIDEODRIVER"}} {VENV}/bin/cardtable "$@"
"""
DEFAULT_SETTINGS = {"CARDTABLE_LAYOUT": "pi-4-seat", "CARDTABLE_CONTACT": "", "CARDTABLE_SPECTATE": ""}
HALL_DEFAULTS = {"CARDTABLE_HALL_ADDRESS": "", "CARDTABLE_HALL_WEB": "0.0.0.0:8080"}
LINK_KEYS = {"table": str, "hall": str, "port": int, "password": str, "ca": str}   # a link file's, and their types


class Refused(Exception):
    """The installer cannot go on: one line for the user."""


class System:
    """The machine being installed: files under `root`; commands run, or with --root only printed."""

    def __init__(self, root: Path | None) -> None:
        self.root = root

    def path(self, path: Path) -> Path:
        """Where the system's `path` is written."""
        return path if self.root is None else self.root / path.relative_to("/")

    def run(self, *command: str | Path, may_fail: bool = False, quiet: bool = False) -> bool:
        """Run `command` (or print it, with --root); whether it succeeded. Refused if it fails, unless it
        `may_fail`; `quiet`: its output is not shown (a question to the system)."""
        line = shlex.join(str(part) for part in command)
        if self.root is not None:
            print(f"not run (--root): {line}")
            return True
        if not quiet:
            print(f"run: {line}", flush=True)
        out = subprocess.DEVNULL if quiet else None
        status = subprocess.run([str(part) for part in command], check=False, stdout=out, stderr=out,
                                env=os.environ | {"DEBIAN_FRONTEND": "noninteractive"}).returncode
        if status and not may_fail:
            raise Refused(f"{line} failed (exit status {status})")
        return not status

    def udevd_runs(self) -> bool:
        """Whether udevd runs (with --root, taken as yes)."""
        return self.root is not None or UDEV_CONTROL.exists()

    def systemd_runs(self) -> bool:
        """Whether systemd runs this system (with --root, taken as yes)."""
        return self.root is not None or SYSTEMD_RUNS.is_dir()

    def has_user(self, name: str) -> bool:
        """Whether the user exists (with --root, taken as not yet)."""
        if self.root is not None:
            return False
        try:
            pwd.getpwnam(name)
        except KeyError:
            return False
        return True

    def write(self, path: Path, text: str, mode: int = 0o644) -> None:
        """Write the system's file `path` (its folders made as needed), unless it already holds `text`."""
        target = self.path(path)
        if not target.exists() or target.read_text() != text:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
            print(f"wrote {path}")
        target.chmod(mode)

    def symlink(self, path: Path, target: Path) -> bool:
        """Make the system's `path` a symbolic link to `target`, unless it is one; whether it was made."""
        link = self.path(path)
        if link.is_symlink() and link.readlink() == target:
            return False
        link.parent.mkdir(parents=True, exist_ok=True)
        link.unlink(missing_ok=True)
        link.symlink_to(target)
        print(f"linked {path} to {target}")
        return True

    def contents(self, folder: Path) -> dict[str, bytes]:
        """Every file under the system's `folder`, by its path there (empty when there is no such folder)."""
        root = self.path(folder)
        return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}

    def remove(self, path: Path) -> None:
        """Remove the system's file or folder `path`, if there."""
        target = self.path(path)
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        elif target.exists() or target.is_symlink():
            target.unlink()
        else:
            return
        print(f"removed {path}")


def unit_text(name: str, venv: Path = VENV, app: Path = APP) -> str:
    """The unit `name` of systemd/, its placeholders filled: the virtual environment and the app's folder."""
    text = (SOURCE / "systemd" / name).read_text()
    return text.replace("@VENV@", str(venv)).replace("@APP@", str(app))


def read_settings(path: Path, text: str) -> dict[str, str]:
    """The KEY=value lines of the environment file `path` holding `text` (values unquoted as systemd does)."""
    settings = {}
    for line in text.splitlines():
        key, equals, value = line.partition("=")
        if equals and not key.lstrip().startswith("#"):
            try:
                settings[key.strip()] = " ".join(shlex.split(value))
            except ValueError:
                raise Refused(f"{path}: cannot read the line {line!r}") from None
    return settings


def spi_enabled(config: str) -> str:
    """config.txt's text with SPI switched on: a commented or "off" dtparam=spi line turned on, else one added
    for all Pis at the end."""
    if re.search(rf"^[ \t]*{SPI_ON}[ \t]*$", config, re.MULTILINE):
        return config
    config, found = re.subn(r"^[# \t]*dtparam=spi=(on|off)[ \t]*$", SPI_ON, config, count=1, flags=re.MULTILINE)
    return config if found else "".join(f"{line}\n" for line in config.splitlines()) + f"[all]\n{SPI_ON}\n"


def install(system: System, layout: str | None, contact: str | None, spectate: str | None,
            link: Path | None) -> None:
    """Every step of the table's installation, each one idempotent; its link to the hall with a link file, or
    again when it has one."""
    layouts = SOURCE / "hardware" / "layouts"
    if layout is not None and not (layouts / f"{layout}.toml").is_file():
        raise Refused(f"no layout {layout!r} in {layouts} (put your own layout file there, then name it)")
    hall = link and read_link(link)
    install_app(system, PACKAGES)
    for group in GROUPS:
        system.run("groupadd", "--system", "--force", group)
    if system.has_user(USER):
        system.run("usermod", "--append", "--groups", ",".join(GROUPS), USER)
    else:
        system.run("useradd", "--system", "--user-group", "--groups", ",".join(GROUPS), "--home-dir", STATE,
                   "--no-create-home", "--shell", "/usr/sbin/nologin", USER)

    system.path(STATE).mkdir(parents=True, exist_ok=True)
    system.path(STATE).chmod(0o750)
    system.run("chown", f"{USER}:{USER}", STATE)
    write_settings(system, SETTINGS, SETTINGS_TEXT, DEFAULT_SETTINGS, {
        "CARDTABLE_LAYOUT": layout, "CARDTABLE_CONTACT": contact, "CARDTABLE_SPECTATE": spectate},
        layouts=APP / "hardware" / "layouts")
    system.write(COMMAND, COMMAND_TEXT, mode=0o755)
    system.write(UDEV_RULE, UDEV_TEXT)
    reload_udev(system, trigger=True)
    system.write(POLKIT_RULE, POLKIT_TEXT)
    enable_spi(system)

    if hall:
        write_link(system, hall)
    linked = system.path(LINK_SETTINGS).exists()
    units = (*UNIT_NAMES, LINK_UNIT) if linked else UNIT_NAMES
    for name in units:
        system.write(UNITS / name, unit_text(name))
    reload_systemd(system)
    enable(system, UNIT_NAMES[0])
    if linked:
        enable(system, LINK_UNIT, restart="restart" if hall else "try-restart")
    print("Installed. Reboot, and the table starts by itself: sudo reboot")


def install_app(system: System, packages: tuple[str, ...]) -> None:
    """The apt `packages`, this checkout in the app's folder and its virtual environment."""
    system.run("apt-get", "update")
    apt_install(system, packages)
    copy_app(system)
    system.run("python3", "-m", "venv", VENV)
    install_package(system)
    system.run(VENV / "bin" / "python", "-m", "compileall", "-q", APP / "table")   # the service cannot write there


def enable(system: System, unit: str, restart: str = "try-restart") -> None:
    """Enable `unit` and, where systemd runs, restart it (`try-restart`: if it runs; an upgrade, the new code
    now)."""
    system.run("systemctl", "enable", unit)
    if system.systemd_runs():
        system.run("systemctl", restart, unit)


def reload_systemd(system: System) -> None:
    """Have systemd read the units again, where it runs."""
    if not system.systemd_runs():
        print("systemd does not run here (a container, a chroot, an image build): it reads the units at the next boot")
        return
    system.run("systemctl", "daemon-reload")


def read_link(path: Path) -> dict:
    """A table's link file, made at the hall (`install.py --hall --add-table NAME`): refused in one line when it
    is not one."""
    try:
        link = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise Refused(f"{path}: not a link file made by the hall ({error})") from None
    if not (isinstance(link, dict) and all(isinstance(link.get(key), kind) for key, kind in LINK_KEYS.items())):
        raise Refused(f"{path}: not a link file made by the hall (it needs {', '.join(LINK_KEYS)})")
    hall_address(link["hall"])
    return link


def hall_address(address: str) -> str:
    """The hall's address, an IP address (the link's unit allows only it: IPAddressAllow= takes addresses)."""
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        raise Refused(f"the hall's address must be an IP address, not {address!r} (the link's unit lets only "
                      "that address through)") from None


def write_link(system: System, hall: dict) -> None:
    """The link's settings from the link file `hall`: the hall's CA, the table's password (root's only), the
    settings file and the unit's drop-in allowing the hall's address."""
    system.write(LINK_FILES / "ca.crt", hall["ca"])
    system.write(LINK_FILES / "password", hall["password"] + "\n", mode=0o600)
    write_settings(system, LINK_SETTINGS, LINK_SETTINGS_TEXT, {}, {
        "CARDTABLE_TABLE": hall["table"], "CARDTABLE_HALL": hall["hall"], "CARDTABLE_HALL_PORT": str(hall["port"])})
    system.write(LINK_DROPIN, f"# The hall's address (systemd/install.py --link).\n[Service]\n"
                              f"IPAddressAllow={hall_address(hall['hall'])}\n")


def install_hall(system: System, address: str | None, web: str | None, tables: list[str]) -> None:
    """Every step of the hall's installation, each one idempotent; the tables named get their password and
    link file."""
    existing = system.path(HALL_SETTINGS)
    settings = HALL_DEFAULTS | (read_settings(HALL_SETTINGS, existing.read_text()) if existing.exists() else {})
    if not (address or settings["CARDTABLE_HALL_ADDRESS"]):
        raise Refused("the first time, --address ADDRESS: the hall's IP address on the café's network")
    address = hall_address(address or settings["CARDTABLE_HALL_ADDRESS"])
    install_app(system, HALL_PACKAGES)
    settings = write_settings(system, HALL_SETTINGS, HALL_SETTINGS_TEXT, HALL_DEFAULTS,
                              {"CARDTABLE_HALL_ADDRESS": address, "CARDTABLE_HALL_WEB": web})
    credentials = system.path(BROKER / "credentials")
    known = {path.name for path in credentials.iterdir()} - {"hall"} if credentials.is_dir() else set()
    before = system.contents(BROKER)
    system.run(VENV / "bin" / "cardtable", "hall", "--setup", BROKER, "--broker", address,
               *(option for name in sorted(known | set(tables)) for option in ("--table", name)))
    system.run("chgrp", "mosquitto", *(BROKER / name for name in BROKER_SECRETS))
    system.run("chmod", "0640", *(BROKER / name for name in BROKER_SECRETS))
    linked = system.symlink(BROKER_DROPIN, BROKER / "cardtable.conf")
    system.write(UNITS / HALL_UNIT, unit_text(HALL_UNIT))
    reload_systemd(system)
    # its listener, passwords and ACL as set up now: restarted only when they changed (a table added), so that
    # running the installer again does not cut every table's link
    changed = linked or system.contents(BROKER) != before
    enable(system, "mosquitto.service", restart="restart" if changed else "start")
    enable(system, HALL_UNIT, restart="restart")
    host, _, port = settings["CARDTABLE_HALL_WEB"].rpartition(":")
    pages = f"http://{address if host in ('0.0.0.0', '::', '') else host}:{port}"
    print(f"Hall installed: its pages at {pages}/, the staff page (player cards) at {pages}/staff; its password: "
          f"sudo cat {BROKER}/staff.password. A table's link file is {BROKER}/tables/NAME.link (--add-table NAME "
          "makes it): copy it to the table, then there: sudo python3 systemd/install.py --link NAME.link")


def apt_install(system: System, packages: tuple[str, ...]) -> None:
    system.run("apt-get", "install", "--yes", "--no-install-recommends", *packages)


def install_package(system: System) -> None:
    """The table into its virtual environment: from wheels alone if pip finds them for this machine, else the C
    extensions it finds no wheel of built, with the build packages of those this system's archive has."""
    pip = (VENV / "bin" / "pip", "install")
    if system.run(*pip, only_binary(BUILDS), "--editable", APP, may_fail=True):
        return
    built = [name for name in BUILDS if not system.run(*pip, "--dry-run", "--no-deps", "--only-binary=:all:", name,
                                                         may_fail=True, quiet=True)]
    if not built:
        raise Refused("pip could not install the table, though it finds a wheel of each C extension (above: why)")
    needed = tuple(dict.fromkeys(package for name in built for package in BUILDS[name]))
    available = tuple(p for p in needed if system.run("apt-cache", "show", p, may_fail=True, quiet=True))
    missing = sorted(set(needed) - set(available))
    print(f"no wheel of {' nor '.join(built)} for this machine: installing what builds {'them' if built[1:] else 'it'}"
          + (f" ({', '.join(missing)} not in this system's archive: left out)" if missing else ""))
    apt_install(system, available)
    system.run(*pip, only_binary(set(BUILDS) - set(built)), "--editable", APP)


def only_binary(names) -> str:
    """pip's option to take the extensions `names` from wheels only (none: ":none:")."""
    return f"--only-binary={','.join(sorted(names)) or ':none:'}"


def reload_udev(system: System, trigger: bool = False) -> None:
    """Have udevd read its rules again (and apply them to the serial ports now), where udevd runs."""
    if not system.udevd_runs():
        print("udevd does not run here (a container, a chroot, an image build): the udev rule applies from the "
              "next boot")
        return
    system.run("udevadm", "control", "--reload-rules")
    if trigger:
        system.run("udevadm", "trigger", "--action=change", "--subsystem-match=tty")


def write_settings(system: System, path: Path, text: str, defaults: dict[str, str], given: dict[str, str | None],
                   **extra) -> dict[str, str]:
    """The settings file `path`, `text` filled in with the settings already there (else the `defaults`) but those
    `given` now (and the `extra` placeholders); those settings."""
    existing = system.path(path)
    settings = defaults | (read_settings(path, existing.read_text()) if existing.exists() else {})
    settings |= {key: value for key, value in given.items() if value is not None}
    system.write(path, text.format(**extra, **{key: shlex.quote(value) for key, value in settings.items()}))
    return settings


def copy_app(system: System) -> None:
    """This checkout, copied afresh to the app's folder (the service may not read a home folder)."""
    app = system.path(APP)
    if app.resolve() == SOURCE:
        return
    if app.exists():
        shutil.rmtree(app)
    shutil.copytree(SOURCE, app, ignore=shutil.ignore_patterns(*NOT_COPIED), symlinks=True)
    print(f"copied {SOURCE} to {APP}")


def enable_spi(system: System) -> None:
    """dtparam=spi=on in the Pi's config.txt (read at boot: a reboot turns SPI on)."""
    config = next((path for path in CONFIG_TXT if system.path(path).is_file()), None)
    if config is None:
        print(f"no {CONFIG_TXT[0]}: not Raspberry Pi OS? SPI left as it is")
        return
    target = system.path(config)
    system.write(config, spi_enabled(target.read_text()), mode=target.stat().st_mode & 0o7777)


def uninstall(system: System) -> None:
    """Remove what `install` made, but the state directory, the apt packages and SPI."""
    system.run("systemctl", "disable", "--now", UNIT_NAMES[0], LINK_UNIT, may_fail=True)
    system.run("systemctl", "stop", UNIT_NAMES[1], may_fail=True)
    units = (*UNIT_NAMES, LINK_UNIT)
    for path in (*(UNITS / name for name in units), LINK_DROPIN.parent, LINK_SETTINGS, LINK_FILES, UDEV_RULE,
                 POLKIT_RULE, COMMAND, SETTINGS, PREFIX):
        system.remove(path)
    reload_systemd(system)
    system.run("systemctl", "reset-failed", *units, may_fail=True)
    reload_udev(system)
    system.run("userdel", USER, may_fail=True)
    print(f"Uninstalled. Kept {STATE} (the journal, the tag registry, the history): remove it by hand if you "
          "mean to; the apt packages and SPI are left as they are.")


def uninstall_hall(system: System) -> None:
    """Remove what `install_hall` made, but the hall's state directory, Mosquitto and the apt packages (the app too
    while a table is installed on this machine)."""
    system.run("systemctl", "disable", "--now", HALL_UNIT, may_fail=True)
    table_here = system.path(UNITS / UNIT_NAMES[0]).exists()
    for path in (UNITS / HALL_UNIT, HALL_SETTINGS, BROKER_DROPIN, BROKER, *(() if table_here else (PREFIX,))):
        system.remove(path)
    reload_systemd(system)
    system.run("systemctl", "reset-failed", HALL_UNIT, may_fail=True)
    if system.systemd_runs():
        system.run("systemctl", "try-restart", "mosquitto.service")   # back to Debian's own settings
    print(f"Hall uninstalled. Kept {HALL_STATE} (every table's games): remove it by hand if you mean to. The "
          "tables' link files no longer work (a new hall makes new ones); Mosquitto and the apt packages are left.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="install.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--layout", help="the table's layout: a name in hardware/layouts "
                                         f"(default: as already set, else {DEFAULT_SETTINGS['CARDTABLE_LAYOUT']})")
    parser.add_argument("--contact", help="whom the staff call when the table stops, e.g. \"Marie, 06 12 34 56 78\"")
    parser.add_argument("--spectate", metavar="URL", help="the table's spectator page at the café's hall, shown as a "
                        "QR code when a game ends, e.g. http://hall.local:8080/table/t1 (docs/cafe.md)")
    parser.add_argument("--link", type=Path, metavar="FILE", help="link the table to the café's hall: FILE is "
                        "the table's link file, made at the hall by --hall --add-table NAME (docs/cafe.md)")
    parser.add_argument("--uninstall", action="store_true", help="remove the table, or with --hall the hall (their "
                        "state directories are kept)")
    hall = parser.add_argument_group("the café's hall (instead of a table)")
    hall.add_argument("--hall", action="store_true", help="install the hall and its broker, Debian's Mosquitto")
    hall.add_argument("--address", help="the hall's IP address on the café's network, which the tables reach it by "
                                        "(needed the first time)")
    hall.add_argument("--web", metavar="HOST:PORT", help="where the hall's pages are served (default: as already set, "
                                                        f"else {HALL_DEFAULTS['CARDTABLE_HALL_WEB']})")
    hall.add_argument("--add-table", dest="tables", action="append", default=[], metavar="NAME",
                      help="give the table NAME a password and a link file (repeatable)")
    parser.add_argument("--root", type=Path, metavar="DIR",
                        help="write under DIR and print the commands instead of running them")
    args = parser.parse_args(argv)
    table_only = {"--layout": args.layout, "--contact": args.contact, "--spectate": args.spectate, "--link": args.link}
    hall_only = {"--address": args.address, "--web": args.web, "--add-table": args.tables or None}
    for option, value in (table_only if args.hall else hall_only).items():
        if value is not None:
            parser.error(f"{option} is for {'a table' if args.hall else 'the hall (--hall)'}")
    if args.root is None and os.geteuid() != 0:
        print("install.py: run it as root: sudo python3 systemd/install.py", file=sys.stderr)
        return 1
    system = System(args.root and args.root.resolve())
    try:
        if args.uninstall:
            (uninstall_hall if args.hall else uninstall)(system)
        elif args.hall:
            install_hall(system, args.address, args.web, args.tables)
        else:
            install(system, args.layout, args.contact, args.spectate, args.link)
    except (Refused, OSError) as error:
        print(f"install.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
