"""The staff's message when the table's service has stopped for good: why, and whom to call, full screen.

systemd starts cardtable-fallback.service (`cardtable fallback --fullscreen`)
when cardtable.service fails and will not restart by itself (OnFailure=). It
tells this process which unit failed and how through $MONITOR_UNIT and its
kin (systemd 251 and later; Raspberry Pi OS bookworm has 252); without them
(started by hand, or restarted) `systemctl show` says how the unit ended.
`journalctl` adds the unit's last lines when this user may read the journal.
The message stays until systemd stops it: starting the table's service again
stops this one (Conflicts=), which frees the display for the table.
"""
from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
from argparse import Namespace
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pygame

from table.appliance.failures import LIMIT, TOO_OFTEN, WINDOW_S
from table.screen import draw
from table.screen.display import Display, run_display
from table.screen.outputs import find_output

UNIT = "cardtable.service"
LOG_LINES = 3

# systemd's Result= of the failed service -> why the table stopped (French, English)
REASONS = {
    "exit-code": ("le programme a rencontré une erreur", "the program hit an error"),
    "signal": ("le programme a été interrompu", "the program was killed"),
    "core-dump": ("le programme a planté", "the program crashed"),
    "watchdog": ("le programme ne répondait plus", "the program stopped responding"),
    "timeout": ("le programme n'a pas démarré à temps", "the program did not start in time"),
    "start-limit-hit": ("le programme a redémarré trop souvent", "the program restarted too often"),
    "resources": ("le programme n'a pas pu démarrer", "the program could not start"),
    "oom-kill": ("la mémoire a manqué", "the memory ran out"),
}
TOO_OFTEN_REASON = (f"le programme a échoué {LIMIT} fois en {WINDOW_S // 60} minutes",
                    f"the program failed {LIMIT} times in {WINDOW_S // 60} minutes")
UNKNOWN = ("raison inconnue", "unknown reason")
NOBODY = ("la personne responsable de la table", "the person in charge of the table")
EXIT_CODES = {"1": "exited", "2": "killed", "3": "dumped"}   # systemctl's ExecMainCode (CLD_*) in words
SIGNALS = {str(number.value): number.name.removeprefix("SIG") for number in signal.Signals}   # "6": "ABRT"


@dataclass(frozen=True)
class Failure:
    """How a unit ended, as far as systemd tells: its Result=, its main process's end ("exited 1",
    "killed ABRT"), its last log lines; "" and () where unknown."""

    unit: str
    result: str = ""
    ended: str = ""
    log: tuple[str, ...] = ()

    def reason(self) -> tuple[str, str]:
        """Why the table stopped, in French and in English."""
        if self.ended == f"exited {TOO_OFTEN}":
            return TOO_OFTEN_REASON
        return REASONS.get(self.result, UNKNOWN)


def output(command: list[str]) -> str | None:
    """What `command` prints, or None when it is missing, fails or hangs."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def read_failure(unit: str | None = None, environ: Mapping[str, str] = os.environ,
                 run: Callable[[list[str]], str | None] = output) -> Failure:
    """How `unit` ended (default: the unit that triggered this one, else cardtable.service)."""
    unit = unit or environ.get("MONITOR_UNIT") or UNIT
    if environ.get("MONITOR_UNIT") == unit:
        result, code, status = (environ.get(f"MONITOR_{key}", "") for key in ("SERVICE_RESULT", "EXIT_CODE",
                                                                              "EXIT_STATUS"))
    else:
        shown = run(["systemctl", "show", unit, "--property=Result,ExecMainCode,ExecMainStatus"]) or ""
        values = dict(line.partition("=")[::2] for line in shown.splitlines())
        result, code = values.get("Result", ""), EXIT_CODES.get(values.get("ExecMainCode", ""), "")
        status = values.get("ExecMainStatus", "")
        if code in ("killed", "dumped"):
            status = SIGNALS.get(status, status)
    journal = run(["journalctl", f"_SYSTEMD_UNIT={unit}", "-n", str(LOG_LINES), "-o", "cat", "--no-pager", "-q"])
    return Failure(unit, result, f"{code} {status}".strip() if code else "",
                   tuple(line for line in (journal or "").splitlines() if line.strip()))


def message(failure: Failure, contact: str = "") -> list[tuple[str, str]]:
    """The message's paragraphs, French first, then English: (kind, text), kind "title", "advice" or "detail"."""
    why_fr, why_en = failure.reason()
    call_fr, call_en = (contact, contact) if contact else NOBODY
    detail = " · ".join(part for part in (failure.unit, failure.result, failure.ended) if part)
    return [("title", f"La table s'est arrêtée : {why_fr}."),
            ("advice", f"Éteignez-la puis rallumez-la. Si ce message revient, appelez {call_fr}."),
            ("title", f"The table stopped: {why_en}."),
            ("advice", f"Switch it off and on again. If this message comes back, call {call_en}."),
            ("detail", detail), *(("detail", line) for line in failure.log)]


STYLES = {"title": (54, draw.TEXT), "advice": (40, draw.MUTED), "detail": (24, draw.MUTED)}


def page(failure: Failure, contact: str = "") -> pygame.Surface:
    """The message drawn on the table's canvas: plain text on the table's dark background, a red band on top."""
    pygame.font.init()
    surf = pygame.Surface(draw.SIZE)
    surf.fill(draw.BG)
    surf.fill(draw.RED, (0, 0, draw.SIZE[0], 16))
    width, y, previous = draw.SIZE[0] - 120, 60, ""
    for kind, text in message(failure, contact):
        size, colour = STYLES[kind]
        if previous == "advice" != kind:   # a space after each language's advice
            y += 36
        previous = kind
        y = draw.text(surf, text, size, colour, "topleft", (60, y), width, lines=2).bottom + 12
    return surf


class FallbackWindow:
    """The message, until the window is closed or Escape is pressed (a keyboard, if any)."""

    def __init__(self, canvas: pygame.Surface) -> None:
        self.canvas = canvas
        self.running = True

    def frame(self) -> pygame.Surface:
        return self.canvas

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT or event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.running = False


def run_fallback(args: Namespace) -> int:
    """`cardtable fallback`: the message on the screen until stopped (or for `args.frames` frames); with no
    screen at all, NoDisplay (the one line `cardtable` prints, in the journal under systemd)."""
    failure = read_failure(args.unit)
    contact = args.contact or os.environ.get("CARDTABLE_CONTACT", "")
    print(" ".join(text for _, text in message(failure, contact)[2:4]), file=sys.stderr)
    # no keyboard wanted (its unit has no input devices); the page never changes: scaled to the display once
    display = Display(find_output(inputs=None), draw.SIZE, "cardtable", args.fullscreen,
                      scale=functools.lru_cache(maxsize=1)(pygame.transform.smoothscale))
    run_display(FallbackWindow(page(failure, contact)), display, args.frames)
    return 0
