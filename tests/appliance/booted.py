"""A Debian 12 machine booted with systemd-nspawn for the appliance tests: real systemd as PID 1, the checkout
bound read-only at /opt/src, commands run inside with nsenter.

The root file system is made once per machine with debootstrap (minbase,
plus systemd, dbus and python3) and cached in ROOTFS_CACHE; each test
session boots a copy of it. apt's and pip's downloads are cached beside it.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

ROOTFS_CACHE = Path(os.environ.get("CARDTABLE_ROOTFS_CACHE", "/var/cache/cardtable-ci"))
SUITE, MIRROR = "bookworm", "http://deb.debian.org/debian"
INCLUDE = "systemd,systemd-sysv,dbus,python3,python3-venv,ca-certificates"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")


TOOLS = {"debootstrap": "debootstrap", "systemd-nspawn": "systemd-container", "nsenter": "util-linux",
         "qemu-system-x86_64": "qemu-system-x86", "mkfs.ext4": "e2fsprogs"}


def needs() -> list[str]:
    """What this machine lacks to boot the appliance (empty: nothing), once the Debian packages of the tools
    that are missing were installed (as root)."""
    if os.geteuid() != 0:
        return ["root (debootstrap and systemd-nspawn need it)"]
    missing = sorted({package for tool, package in TOOLS.items() if shutil.which(tool) is None})
    if missing:
        subprocess.run(["apt-get", "update", "-qq"], capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], capture_output=True,
                       env=os.environ | {"DEBIAN_FRONTEND": "noninteractive"})
    return [f"the command {tool} (Debian package {package}, which did not install)"
            for tool, package in TOOLS.items() if shutil.which(tool) is None]


def root_file_system() -> Path:
    """The cached Debian root file system, made first if missing (about a minute from Debian's archive)."""
    rootfs = ROOTFS_CACHE / f"debian-{SUITE}-minbase"
    if not (rootfs / ".complete").exists():
        building = ROOTFS_CACHE / f"debian-{SUITE}-minbase.building"
        shutil.rmtree(building, ignore_errors=True)
        ROOTFS_CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(["debootstrap", "--variant=minbase", f"--include={INCLUDE}", SUITE, building, MIRROR],
                       check=True, capture_output=True, text=True)
        shutil.rmtree(rootfs, ignore_errors=True)
        building.rename(rootfs)
        (rootfs / ".complete").touch()
    return rootfs


class Machine:
    """A booted copy of the root file system in `folder`, named `name`, with the checkout `source` at
    /opt/src."""

    def __init__(self, folder: Path, source: Path, name: str = "cardtable-appliance") -> None:
        self.root, self.source, self.name = folder, source, name
        subprocess.run(["cp", "-a", "--reflink=auto", root_file_system(), folder], check=True)
        if HOST_CA.is_file():   # trust what this machine trusts (a network whose HTTPS proxy has its own CA)
            shutil.copy(HOST_CA, folder / HOST_CA.relative_to("/"))
        self.caches = {ROOTFS_CACHE / "apt": "/var/cache/apt/archives", ROOTFS_CACHE / "pip": "/root/.cache/pip"}
        for cache in self.caches:
            cache.mkdir(parents=True, exist_ok=True)
        self.nspawn: subprocess.Popen | None = None
        self.booted_at = 0.0

    def boot(self, timeout_s: float = 60) -> None:
        """Boot the machine and wait until systemd has started it."""
        binds = [f"--bind={cache}:{inside}" for cache, inside in self.caches.items()]
        self.booted_at = time.monotonic()
        self.nspawn = subprocess.Popen(
            ["systemd-nspawn", "--boot", "--register=no", "--keep-unit", f"--machine={self.name}",
             "--console=passive", f"--directory={self.root}", f"--bind-ro={self.source}:/opt/src", *binds],
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
        """`command` inside the machine as root, with a clean environment (as an administrator's shell)."""
        return subprocess.run(["nsenter", "-t", str(self.pid1), "-a", "env", "-i", f"PATH={PATH}", "HOME=/root",
                               "LANG=C.UTF-8", *command], capture_output=True, text=True, timeout=timeout_s)

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
