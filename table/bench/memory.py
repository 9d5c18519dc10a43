"""`cardtable bench memory`: the peak resident memory of `cardtable run` as the appliance runs it (the live table of
the pi-4-seat layout on emulated hardware, full screen, its display loop drawing at its full frame rate) on each
display path this machine can run: SDL's dummy driver (drawing into memory only), and on an X server (Xvfb,
started here when it is installed) SDL's software framebuffer and its GL one (Mesa; llvmpipe on a machine without a
GPU). The Pi's own path, the table's own KMS screen (table/screen/kms.py), needs a KMS card: the appliance test
measures it where it boots the system in QEMU (tests/appliance/test_booted.py)."""
from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from table.screen.display import FPS

SECONDS = 10          # each path draws this long
PATHS = {             # the SDL settings of each display path
    "dummy": {"SDL_VIDEODRIVER": "dummy"},
    "x11_software": {"SDL_VIDEODRIVER": "x11", "SDL_FRAMEBUFFER_ACCELERATION": "0"},
    "x11_gl": {"SDL_VIDEODRIVER": "x11", "SDL_FRAMEBUFFER_ACCELERATION": "1"},
}


def bench_memory(seconds: float = SECONDS) -> dict:
    """Per display path, the peak resident memory (MiB) of `cardtable run` drawing `seconds` of frames, and the
    frames per second it drew (its start included); a note for the X11 paths where Xvfb is not installed."""
    figures: dict = {"frames": round(seconds * FPS)}
    with tempfile.TemporaryDirectory() as folder, _x_server() as display:
        for name, settings in PATHS.items():
            if settings["SDL_VIDEODRIVER"] == "x11" and display is None:
                figures[name] = "not measured: Xvfb is not installed (Debian's package xvfb)"
                continue
            environ = {**settings, **({"DISPLAY": display} if display else {})}
            peak_kib, wall_s = _run(Path(folder) / name, environ, figures["frames"])
            figures[f"{name}_peak_rss_mib"] = round(peak_kib / 1024, 1)
            figures[f"{name}_frames_per_s"] = round(figures["frames"] / wall_s, 1)
    return figures


def _run(folder: Path, environ: dict, frames: int) -> tuple[int, float]:
    """Run the live table for `frames` frames with `environ` added: its peak resident memory (KiB: the kernel's
    VmHWM of the process, read as it runs; its rusage would count the bench's own memory from before the exec)
    and its wall time."""
    folder.mkdir()
    command = [sys.executable, "-m", "table", "run", "--layout", "pi-4-seat", "--hardware", "emulated",
               "--fullscreen", "--frames", str(frames), "--journal", str(folder / "journal.sqlite"),
               "--registry", str(folder / "registry.sqlite")]
    start = time.perf_counter()
    process = subprocess.Popen(command, env={**os.environ, **environ}, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    peak_kib = 0
    while process.poll() is None:
        peak_kib = max(peak_kib, _high_water_kib(process.pid))
        time.sleep(0.05)
    wall_s = time.perf_counter() - start
    said = process.stderr.read().decode()
    process.stderr.close()
    if process.returncode:
        raise RuntimeError(f"cardtable run with {environ} failed: {said[-500:]}")
    return peak_kib, wall_s


def _high_water_kib(pid: int) -> int:
    """The process's peak resident memory so far (0 once it has ended)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return 0


@contextlib.contextmanager
def _x_server() -> Iterator[str | None]:
    """An Xvfb server of 1920x1080 for the X11 paths, on a free display number; None when Xvfb is not installed."""
    if shutil.which("Xvfb") is None:
        yield None
        return
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        with os.fdopen(read) as said:
            number = said.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        yield f":{number}"
    finally:
        server.terminate()
        server.wait()
