"""The installer on plain Debian 12 arm64 (issue 19): an arm64 Debian 12 made with debootstrap and cached as the
x86_64 one is (booted.py), its programs run on this machine by Debian's qemu-user-static through the kernel's
binfmt_misc, and docs/appliance.md's install commands run in it with systemd-nspawn, not booted (under qemu-user
the table's unit cannot start: the netlink of its PrivateNetwork= is not emulated). The test installs the Debian
packages it needs, mounts binfmt_misc and registers qemu-aarch64 where they are missing; a machine that cannot
(no root, no binfmt_misc) fails it loudly."""
from __future__ import annotations

import hashlib
import time
from pathlib import Path

import pytest

from .booted import Machine, as_here, emulates, manual_commands, needs
from .conftest import REPO
from .test_units import EXPOSURE

TOOLS = {"debootstrap": "debootstrap", "systemd-nspawn": "systemd-container", "qemu-aarch64-static": "qemu-user-static"}
GIT, INSTALL = manual_commands()[1:3]   # section 3's two commands: git and the clone, the installer
INSTALLED = ("etc", "usr/local", "opt/cardtable", "var/lib/cardtable", "var/lib/dpkg/status")   # what it changes

pytestmark = pytest.mark.booted


@pytest.fixture(scope="module")
def arm64(tmp_path_factory):
    """The arm64 machine, the table installed in it by the manual's commands (sudo first: Raspberry Pi OS has
    it), as an administrator's shell runs them in their home."""
    lacks = needs(TOOLS) + emulates("aarch64")
    if lacks:
        pytest.fail("the arm64 install test needs " + ", ".join(lacks))
    began = time.monotonic()
    machine = Machine(tmp_path_factory.mktemp("arm64") / "root", REPO, name="cardtable-arm64", arch="arm64")
    machine.made_s = time.monotonic() - began
    try:
        assert machine.run("uname", "-m").stdout == "aarch64\n"
        sudo = machine.run("apt-get", "install", "--yes", "--no-install-recommends", "sudo")
        assert sudo.returncode == 0, sudo.stdout[-2000:] + sudo.stderr
        cloned = machine.run("sh", "-c", f"cd /root && {as_here(GIT)}")
        assert cloned.returncode == 0, cloned.stdout[-2000:] + cloned.stderr
        began = time.monotonic()
        machine.installed = machine.run("sh", "-c", f"cd /root && {as_here(INSTALL)}", timeout_s=900)
        machine.install_s = time.monotonic() - began
        assert machine.installed.returncode == 0, machine.installed.stdout[-3000:] + machine.installed.stderr
        yield machine
    finally:
        machine.close()


def wheel_tag(machine: Machine, name: str) -> str:
    """The tag of the wheel the distribution `name` was installed from in the table's virtual environment."""
    wheel = next(machine.root.glob(f"opt/cardtable/venv/lib/python3*/site-packages/{name}-*.dist-info/WHEEL"))
    return next(line for line in wheel.read_text().splitlines() if line.startswith("Tag: ")).removeprefix("Tag: ")


def test_the_installer_builds_only_spidev_and_skips_what_cannot_apply_in_one_line(arm64):
    out = arm64.installed.stdout
    assert "no wheel of spidev for this machine: installing what builds it\n" in out
    assert [line for line in out.splitlines() if line.startswith("run: apt-get install") and "-dev" in line] == [
        "run: apt-get install --yes --no-install-recommends python3-dev build-essential"]
    assert "liblgpio-dev" not in out and "swig" not in out
    assert wheel_tag(arm64, "lgpio").endswith("manylinux_2_34_aarch64")   # PyPI's wheel
    assert wheel_tag(arm64, "spidev") == "cp311-cp311-linux_aarch64"      # built here
    assert "udevd does not run here (a container, a chroot, an image build)" in out
    assert "no /boot/firmware/config.txt: not Raspberry Pi OS? SPI left as it is" in out
    assert "systemd does not run here (a container, a chroot, an image build)" in out
    assert out.rstrip().endswith("Installed. Reboot, and the table starts by itself: sudo reboot")


def test_the_table_runs_from_its_arm64_virtual_environment(arm64):
    imported = arm64.run("/opt/cardtable/venv/bin/python", "-c",
                         "import platform, lgpio, spidev, pygame; print(platform.machine())")
    assert imported.returncode == 0 and imported.stdout.endswith("aarch64\n"), imported.stderr
    version = arm64.run("cardtable", "--version")   # the manual's: which version runs, as the table's user
    assert version.returncode == 0 and version.stdout == "cardtable 0.1.0\n", version.stderr


def test_systemd_finds_nothing_wrong_in_the_installed_units(arm64):
    """`systemd-analyze verify` and `security --offline` (test_units.py) on the units as installed, the
    programs they name those of the arm64 virtual environment."""
    units = [f"/{path.relative_to(arm64.root)}" for path in sorted(arm64.root.glob("etc/systemd/system/cardtable*"))]
    assert units == ["/etc/systemd/system/cardtable-fallback.service", "/etc/systemd/system/cardtable.service"]
    verify = arm64.run("systemd-analyze", "verify", *units)
    complaints = [line for line in (verify.stdout + verify.stderr).splitlines() if ".service" in line]
    assert (verify.returncode, complaints) == (0, [])
    for unit in units:
        security = arm64.run("systemd-analyze", "security", "--offline=yes", unit)
        assert float(EXPOSURE.search(security.stdout)[2]) <= 2.5, security.stdout + security.stderr


def digests(root: Path) -> dict[str, tuple]:
    """Every file, folder and link the installer may change in the machine at `root`: its mode, owner and what it
    holds (a file's digest, a link's target)."""
    found = {}
    for top in INSTALLED:
        for path in [root / top, *(root / top).rglob("*")]:
            info = path.lstat()
            found[str(path.relative_to(root))] = (info.st_mode, info.st_uid, info.st_gid, content(path))
    return found


def content(path: Path) -> str:
    """A file's digest (a byte-code cache's without its header, which holds its source's time), a link's target."""
    if path.is_symlink():
        return str(path.readlink())
    if not path.is_file():
        return ""
    data = path.read_bytes()
    return hashlib.sha256(data[16:] if path.suffix == ".pyc" else data).hexdigest()


def test_a_second_run_of_the_installer_changes_nothing(arm64):
    before = digests(arm64.root)
    began = time.monotonic()
    again = arm64.run("sh", "-c", f"cd /root && {as_here(INSTALL)}", timeout_s=900)
    again_s = time.monotonic() - began
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr
    assert [line for line in again.stdout.splitlines() if line.startswith(("wrote", "linked", "no wheel"))] == []
    assert "0 upgraded, 0 newly installed, 0 to remove" in again.stdout
    after = digests(arm64.root)
    assert {path: (before.get(path), after.get(path)) for path in before.keys() | after.keys()
            if before.get(path) != after.get(path)} == {}
    print(f"\narm64 Debian 12 under qemu-user: root file system {arm64.made_s:.0f} s (debootstrap, or the cached one "
          f"copied), install {arm64.install_s:.0f} s, second install {again_s:.0f} s")
