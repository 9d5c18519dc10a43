"""Shutting the machine down or restarting it when staff ask from the staff menu, once the table has stopped.

As the café's service (cardtable.service sets $CARDTABLE_APPLIANCE=1, and
systemd gives it $INVOCATION_ID), the table asks systemd-logind through
`systemctl`; the installer's polkit rule lets the table's user do that one
thing (systemd/install.py). Anywhere else (a developer's machine, any other
unit, the simulated table, which never asks) only the table stops: nobody's
computer is switched off by a test.
"""
from __future__ import annotations

import logging
import os
import subprocess
from collections.abc import Callable, Mapping

from table.appliance import as_the_service

log = logging.getLogger(__name__)

ASKS = ("poweroff", "reboot")


def carry_out(what: str, environ: Mapping[str, str] = os.environ,
              run: Callable[..., subprocess.CompletedProcess] = subprocess.run) -> int:
    """Power off or reboot the machine when the table runs as its service (the table's exit status: non-zero
    when systemd refused, so that the service restarts and the table is back); else only say so."""
    if what not in ASKS:
        raise ValueError(f"no such power request {what!r}")
    if not as_the_service(environ):
        print(f"staff asked to {what} from the staff menu: the table has stopped "
              "(it does not run as the table's systemd service, so the machine stays on)")
        return 0
    try:
        done = run(["systemctl", what, "--no-ask-password"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as error:
        log.error("could not %s: %s", what, error)
        return 1
    if done.returncode != 0:
        log.error("could not %s: systemctl said %s", what, (done.stderr or done.stdout).strip() or done.returncode)
        return 1
    log.warning("the machine will %s, as staff asked", what)
    return 0
