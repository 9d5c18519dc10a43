"""A Debian 12 machine for the appliance tests, booted with systemd-nspawn (real systemd as PID 1, commands run
inside with nsenter) or, where its systemd cannot run (arm64 under qemu-user), each command spawned in it with
systemd-nspawn; the checkout bound read-only at /opt/src.

The root file system is made once per machine and architecture with
debootstrap (minbase, plus systemd, dbus and python3) and cached in
ROOTFS_CACHE; each test session runs a copy of it. apt's and pip's
downloads are cached beside it.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

from .conftest import REPO

ROOTFS_CACHE = Path(os.environ.get("CARDTABLE_ROOTFS_CACHE", "/var/cache/cardtable-ci"))
SUITE, MIRROR = "bookworm", "http://deb.debian.org/debian"
INCLUDE = "systemd,systemd-sysv,dbus,python3,python3-venv,ca-certificates"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")


TOOLS = {"debootstrap": "debootstrap", "systemd-nspawn": "systemd-container", "nsenter": "util-linux",
         "qemu-system-x86_64": "qemu-system-x86", "mkfs.ext4": "e2fsprogs"}
BINFMT = Path("/proc/sys/fs/binfmt_misc")


def needs(tools: dict[str, str] = TOOLS) -> list[str]:
    """What this machine lacks of `tools` (each command's Debian package; by default what boots the appliance),
    once the packages of those missing were installed (as root); empty: nothing."""
    if os.geteuid() != 0:
        return ["root (debootstrap and systemd-nspawn need it)"]
    missing = sorted({package for tool, package in tools.items() if shutil.which(tool) is None})
    if missing:
        subprocess.run(["apt-get", "update", "-qq"], capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], capture_output=True,
                       env=os.environ | {"DEBIAN_FRONTEND": "noninteractive"})
    return [f"the command {tool} (Debian package {package}, which did not install)"
            for tool, package in tools.items() if shutil.which(tool) is None]


def emulates(cpu: str) -> list[str]:
    """What this machine lacks to run `cpu`'s programs, once the kernel's binfmt_misc was mounted and
    qemu-user-static's qemu-`cpu` registered with it and enabled, where they were not; empty: nothing."""
    entry = BINFMT / f"qemu-{cpu}"
    try:
        if not (BINFMT / "register").exists():
            subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", BINFMT], check=True, capture_output=True)
        if not entry.exists():
            (BINFMT / "register").write_text(Path(f"/usr/lib/binfmt.d/qemu-{cpu}.conf").read_text().strip())
        entry.write_text("1")
    except (OSError, subprocess.CalledProcessError) as error:
        return [f"the kernel's binfmt_misc running {cpu} programs with qemu-{cpu} ({error})"]
    return []


def root_file_system(arch: str | None = None) -> Path:
    """The cached Debian root file system (of the Debian architecture `arch`, else this machine's), made first
    if missing (about a minute from Debian's archive; 3 minutes for arm64 under qemu-user)."""
    name = f"debian-{SUITE}-minbase" + (f"-{arch}" if arch else "")
    rootfs = ROOTFS_CACHE / name
    if not (rootfs / ".complete").exists():
        building = ROOTFS_CACHE / f"{name}.building"
        shutil.rmtree(building, ignore_errors=True)
        ROOTFS_CACHE.mkdir(parents=True, exist_ok=True)
        foreign = [f"--arch={arch}"] if arch else []
        subprocess.run(["debootstrap", "--variant=minbase", f"--include={INCLUDE}", *foreign, SUITE, building, MIRROR],
                       check=True, capture_output=True, text=True)
        shutil.rmtree(rootfs, ignore_errors=True)
        building.rename(rootfs)
        (rootfs / ".complete").touch()
    return rootfs


MANUAL = REPO / "docs/appliance.md"
# What differs here from a Pi, and only that: the owner's command -> what runs here instead
AS_HERE = {
    "git clone REPOSITORY cardtable": "git clone /opt/src cardtable",   # the checkout under test
    "--layout pi-4-seat": "--layout hubs-8-seat",   # no Pi here: the hub layout, whose missing hubs show as faulty
    "--staff 2 --fullscreen": "--staff 2 --fullscreen --frames 30",     # nobody lays cards: it stops by itself
    "cardtable enrol": "SDL_VIDEODRIVER=dummy cardtable enrol",          # and there is no screen
    "table-backup-2026-11-27.tar.gz": "table-backup-$(date +%F).tar.gz",   # the manual's example date: today's
}


def manual_commands() -> list[str]:
    """The commands of docs/appliance.md's command blocks, in order (a block nested in a list is a file's
    lines, not commands)."""
    return [line.strip() for line in MANUAL.read_text().splitlines() if re.match(r"    [^ ]", line)]


def as_here(command: str) -> str:
    """The manual's `command` as it runs here (AS_HERE)."""
    for written, here in AS_HERE.items():
        command = command.replace(written, here)
    return command


class Machine:
    """A copy of the root file system (of `arch`, else this machine's) in `folder`, named `name`, with the
    checkout `source` at /opt/src (a worktree's git folder bound at its own path, so that git reads it there)."""

    def __init__(self, folder: Path, source: Path, name: str = "cardtable-appliance", arch: str | None = None) -> None:
        self.root, self.source, self.name = folder, source, name
        subprocess.run(["cp", "-a", "--reflink=auto", root_file_system(arch), folder], check=True)
        if HOST_CA.is_file():   # trust what this machine trusts (a network whose HTTPS proxy has its own CA)
            shutil.copy(HOST_CA, folder / HOST_CA.relative_to("/"))
        # apt's and pip's downloads (not the wheels pip builds: each session builds them afresh)
        caches = {ROOTFS_CACHE / "apt": "/var/cache/apt/archives", ROOTFS_CACHE / "pip/http": "/root/.cache/pip/http"}
        for cache in caches:
            cache.mkdir(parents=True, exist_ok=True)
        self.binds = [f"--bind-ro={source}:/opt/src", *(f"--bind={cache}:{inside}" for cache, inside in caches.items())]
        git = subprocess.run(["git", "-C", source, "rev-parse", "--path-format=absolute", "--git-common-dir"],
                             capture_output=True, text=True)
        if git.returncode == 0 and not Path(git.stdout.strip()).is_relative_to(source):
            self.binds.append(f"--bind-ro={git.stdout.strip()}")
        self.nspawn: subprocess.Popen | None = None
        self.booted_at = 0.0

    def nspawn_options(self) -> list[str]:
        """systemd-nspawn's options for this machine: its name, its root file system and what is bound in it."""
        return ["--register=no", "--keep-unit", f"--machine={self.name}", f"--directory={self.root}", *self.binds]

    def boot(self, timeout_s: float = 60) -> None:
        """Boot the machine and wait until systemd has started it."""
        self.booted_at = time.monotonic()
        self.nspawn = subprocess.Popen(["systemd-nspawn", "--boot", "--console=passive", *self.nspawn_options()],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._until(lambda: self.pid1 is not None, timeout_s, "the container's PID 1")
        self._until(lambda: self.run("systemctl", "is-system-running").stdout.strip() in ("running", "degraded"),
                    timeout_s, "systemd to finish booting")

    @property
    def pid1(self) -> int | None:
        """The host's PID of the container's systemd."""
        try:
            children = Path(f"/proc/{self.nspawn.pid}/task/{self.nspawn.pid}/children").read_text().split()
        except OSError:
            return None
        return int(children[0]) if children else None

    def run(self, *command: str, timeout_s: float = 600) -> subprocess.CompletedProcess:
        """`command` inside the machine as root, with a clean environment (as an administrator's shell): entered
        once the machine was booted, else spawned in it by systemd-nspawn (the machine's systemd not running)."""
        if self.nspawn is None:
            enter = ["systemd-nspawn", "--quiet", "--as-pid2", "--pipe", *self.nspawn_options()]
        else:
            enter = ["nsenter", "-t", str(self.pid1), "-a"]
        return subprocess.run([*enter, "env", "-i", f"PATH={PATH}", "HOME=/root", "LANG=C.UTF-8", *command],
                              capture_output=True, text=True, timeout=timeout_s)

    def show(self, unit: str, *properties: str) -> dict[str, str]:
        """systemd's properties of `unit`."""
        out = self.run("systemctl", "show", unit, *(f"--property={p}" for p in properties)).stdout
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def log(self, unit: str, since_cursor: str | None = None) -> str:
        """The journal of `unit` (after `since_cursor`, if given)."""
        after = [f"--after-cursor={since_cursor}"] if since_cursor else []
        return self.run("journalctl", f"--unit={unit}", "--no-pager", "--output=cat", *after).stdout

    def cursor(self) -> str:
        """Where the journal ends now."""
        out = self.run("journalctl", "--no-pager", "--show-cursor", "--lines=0").stdout
        return out.strip().rpartition("-- cursor: ")[2]

    def power_cut(self) -> None:
        """Kill the machine's PID 1 outright, as a power cut ends everything at once."""
        os.kill(self.pid1, 9)
        self.nspawn.wait(timeout=30)

    def close(self) -> None:
        if self.nspawn is not None and self.nspawn.poll() is None:
            self.power_cut()
        shutil.rmtree(self.root, ignore_errors=True)

    def virtual_machine(self, console: Path) -> VirtualMachine:
        """This machine's system, stopped, booted in QEMU with Debian's kernel and a virtio-gpu KMS card (a screen
        connected): journald copies every log line to the serial console, written to `console`."""
        if self.nspawn is not None and self.nspawn.poll() is None:
            self.power_cut()
        conf = self.root / "etc/systemd/journald.conf.d/console.conf"
        conf.parent.mkdir(parents=True, exist_ok=True)
        conf.write_text("[Journal]\nForwardToConsole=yes\nTTYPath=/dev/ttyS0\nMaxLevelConsole=info\n")
        image = self.root.parent / "disk.ext4"
        subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "root", "-d", self.root, image, "3G"], check=True)
        return VirtualMachine(self.root / "boot", image, console)

    @staticmethod
    def _until(done, timeout_s: float, what: str) -> None:
        deadline = time.monotonic() + timeout_s
        while not done():
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {what} after {timeout_s:g} s")
            time.sleep(0.2)


class VirtualMachine:
    """QEMU (software emulation: nested KVM hangs on these machines) booting the kernel in `boot` on the ext4
    `image`, with a virtio-gpu KMS card and a keyboard, its serial console written to `console`."""

    def __init__(self, boot: Path, image: Path, console: Path) -> None:
        kernel, initrd = sorted(boot.glob("vmlinuz-*"))[-1], sorted(boot.glob("initrd.img-*"))[-1]
        self.console = console
        self.qemu = subprocess.Popen(
            ["qemu-system-x86_64", "-machine", "q35", "-accel", "tcg", "-m", "1536", "-smp", "2", "-nodefaults",
             "-display", "none", "-vga", "none", "-device", "virtio-gpu-pci", "-device", "virtio-keyboard-pci",
             "-kernel", kernel, "-initrd", initrd, "-append", "root=/dev/vda rw console=ttyS0 quiet",
             "-drive", f"file={image},format=raw,if=virtio", "-serial", f"file:{console}", "-nic", "none"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.started = time.monotonic()

    def log(self) -> str:
        try:
            return self.console.read_bytes().decode(errors="replace")
        except OSError:
            return ""

    def wait_for(self, text: str, timeout_s: float, failed: str | None = None) -> float:
        """Seconds from the start until `text` is on the console; TimeoutError with the console's end, at once
        when `failed` is there first."""
        deadline = self.started + timeout_s
        while text not in (log := self.log()):
            if time.monotonic() > deadline or self.qemu.poll() is not None or failed and failed in log:
                raise TimeoutError(f"no {text!r} on the console after {time.monotonic() - self.started:.0f} s:\n"
                                   f"{log[-3000:]}")
            time.sleep(1)
        return time.monotonic() - self.started

    def close(self) -> None:
        self.qemu.kill()
        self.qemu.wait()
