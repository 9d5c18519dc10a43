"""The table's failures under its service, counted over a longer window than systemd's start limit.

systemd gives up on a table that fails five times in two minutes. A table
that hangs once every few minutes never hits that limit and would restart
for ever, each time losing its players' patience. So each end of the
service that was no success (a watchdog kill, a crash, an error) is
recorded in the state directory (`cardtable ended`, the unit's
ExecStopPost=, told systemd's $SERVICE_RESULT), and the service's `run`
refuses to start after LIMIT of them within WINDOW_S of the same boot: it
exits with TOO_OFTEN, which the unit does not restart, and the fallback
says why. Restarting the machine (a new boot) clears them.
"""
from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path

from table.appliance import as_the_service

LIMIT = 5
WINDOW_S = 30 * 60
SKEW_S = 60      # a failure recorded this far ahead of the clock (set back since) still counts
TOO_OFTEN = 78   # run's exit status then: RestartPreventExitStatus= in cardtable.service
FILE = "failures.log"
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")


def boot_id() -> str:
    """This boot's id (a new one at every start of the machine)."""
    try:
        return BOOT_ID.read_text().strip()
    except OSError:
        return "unknown"


def ended_command(state: Path) -> int:
    """`cardtable ended`: record in the state directory `state` how the service ended ($SERVICE_RESULT)."""
    record(state, os.environ.get("SERVICE_RESULT", ""))
    return 0


def record(state: Path, result: str, at: float | None = None, boot: str | None = None) -> bool:
    """Record that the service ended with systemd's `result`, unless it is "success"; whether it was recorded."""
    if not result or result == "success":
        return False
    line = f"{int(time.time() if at is None else at)} {boot or boot_id()} {result.split()[0]}\n"
    with open(state / FILE, "a", encoding="utf-8") as log:   # one short append: whole, even if cut off after
        log.write(line)
    return True


def recent(state: Path, now: float | None = None, boot: str | None = None) -> list[str]:
    """The results of the failures of this boot within the last WINDOW_S seconds, oldest first (lines that
    cannot be read count as none)."""
    now, boot = time.time() if now is None else now, boot or boot_id()
    try:
        lines = (state / FILE).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and parts[1] == boot and parts[0].isdigit() and -SKEW_S <= now - int(parts[0]) <= WINDOW_S:
            found.append(parts[2])
    return found


def too_often(state: Path, environ: Mapping[str, str] = os.environ) -> str | None:
    """Under the table's service: why it must not start again (one line), or None."""
    if not as_the_service(environ):
        return None
    failures = recent(state)
    if len(failures) < LIMIT:
        return None
    kinds = ", ".join(f"{kind} {failures.count(kind)}" for kind in dict.fromkeys(failures))
    return (f"the table failed {len(failures)} times in {WINDOW_S // 60} minutes ({kinds}): it stays stopped "
            "until the machine is restarted")
