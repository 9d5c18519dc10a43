"""The staff's message when the table stopped: why (as systemd tells), whom to call, drawn full screen."""
from __future__ import annotations

import os
import subprocess
import sys

import pygame
import pytest

from table.appliance.fallback import Failure, message, page, read_failure
from table.screen import draw

WATCHDOG = {"MONITOR_UNIT": "cardtable.service", "MONITOR_SERVICE_RESULT": "watchdog", "MONITOR_EXIT_CODE": "dumped",
            "MONITOR_EXIT_STATUS": "ABRT", "MONITOR_INVOCATION_ID": "cc8fdc149b2b4ca698d4f259f4054236"}
LOG = "Fatal Python error: Aborted\n\nThread 0x0000007f8c1ff1c0 (most recent call first):\n"


class Machine:
    """systemctl and journalctl as a test sets them: what each prints (None: missing or failing); the commands
    run."""

    def __init__(self, systemctl: str | None = None, journalctl: str | None = None) -> None:
        self.outputs = {"systemctl": systemctl, "journalctl": journalctl}
        self.commands: list[list[str]] = []

    def __call__(self, command: list[str]) -> str | None:
        self.commands.append(command)
        return self.outputs[command[0]]


def test_systemd_names_the_unit_and_how_it_ended():
    machine = Machine(journalctl=LOG)
    failure = read_failure(environ=WATCHDOG, run=machine)
    assert failure == Failure("cardtable.service", "watchdog", "dumped ABRT",
                              ("Fatal Python error: Aborted", "Thread 0x0000007f8c1ff1c0 (most recent call first):"))
    assert [command[0] for command in machine.commands] == ["journalctl"]
    assert "_SYSTEMD_UNIT=cardtable.service" in machine.commands[0]


def test_without_systemds_variables_systemctl_says_how_the_unit_ended():
    machine = Machine(systemctl="Result=signal\nExecMainCode=2\nExecMainStatus=9\n")
    assert read_failure(environ={}, run=machine) == Failure("cardtable.service", "signal", "killed KILL")
    machine = Machine(systemctl="ExecMainStatus=1\nResult=start-limit-hit\nExecMainCode=1\n")
    assert read_failure("other.service", environ=WATCHDOG, run=machine) == Failure(
        "other.service", "start-limit-hit", "exited 1")
    assert machine.commands[0][:3] == ["systemctl", "show", "other.service"]


def test_without_systemctl_or_journal_the_unit_alone_is_named():
    failure = read_failure(environ={}, run=Machine())
    assert failure == Failure("cardtable.service")
    assert failure.reason() == ("raison inconnue", "unknown reason")


def test_the_message_is_french_first_then_english_with_whom_to_call():
    texts = [text for _, text in message(Failure("cardtable.service", "start-limit-hit", "exited 1"),
                                         "Marie, 06 12 34 56 78")]
    assert texts[:4] == [
        "La table s'est arrêtée : le programme a redémarré trop souvent.",
        "Éteignez-la puis rallumez-la. Si ce message revient, appelez Marie, 06 12 34 56 78.",
        "The table stopped: the program restarted too often.",
        "Switch it off and on again. If this message comes back, call Marie, 06 12 34 56 78."]
    assert texts[4] == "cardtable.service · start-limit-hit · exited 1"
    nobody = [text for _, text in message(Failure("cardtable.service"))]
    assert nobody[1].endswith("appelez la personne responsable de la table.")
    assert nobody[3].endswith("call the person in charge of the table.")


@pytest.mark.parametrize("failure, contact", [
    (Failure("cardtable.service"), ""),
    (Failure("cardtable.service", "start-limit-hit", "exited 1", (
        '  File "/opt/cardtable/app/table/run.py", line 52, in run',
        "    hardware, missing = build.choose(layout, args.hardware)",
        ("table.hardware.pins.NoTableHardware: no Raspberry Pi header GPIO controller (pinctrl-rp1, "
         "pinctrl-bcm2711, pinctrl-bcm2835) among /dev/gpiochip*: found none. Not a Raspberry Pi, or this user may "
         "not open /dev/gpiochip* (add it to the gpio group); without it, run the simulated table"))),
     "Marie (la gérante), 06 12 34 56 78, ou le service technique du café au 01 23 45 67 89"),
], ids=["unknown", "long"])
def test_the_page_shows_every_line_on_the_screen_apart(failure, contact, drawing, out, request):
    surface = {}
    parts = drawing(lambda: surface.setdefault("page", page(failure, contact)), {"text": lambda rect, *_: rect})
    pygame.image.save(surface["page"], out / f"fallback-{request.node.callspec.id}.png")
    assert [text for _, text, _ in parts] == [text for _, text in message(failure, contact)]
    screen = pygame.Rect((0, 0), draw.SIZE)
    for index, (_, text, rect) in enumerate(parts):
        assert screen.contains(rect), text
        assert not any(rect.colliderect(other) for _, _, other in parts[index + 1:]), text
    assert surface["page"].get_at((640, 8))[:3] == draw.RED


def cardtable_fallback(environ: dict[str, str]) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MONITOR_", "CARDTABLE_"))}
    return subprocess.run([sys.executable, "-m", "table", "fallback", "--frames", "2", "--contact", "Marie"],
                          env=env | {"PYGAME_HIDE_SUPPORT_PROMPT": "1"} | environ, capture_output=True, text=True,
                          timeout=120, check=False)


def test_the_command_shows_the_message_and_says_it():
    result = cardtable_fallback(WATCHDOG | {"SDL_VIDEODRIVER": "dummy"})
    assert (result.returncode, result.stdout) == (0, "")
    assert result.stderr.splitlines()[0] == ("The table stopped: the program stopped responding. Switch it off and "
                                             "on again. If this message comes back, call Marie.")


def test_without_a_display_the_command_says_so_in_one_line():
    result = cardtable_fallback(WATCHDOG | {"SDL_VIDEODRIVER": "nosuchdriver"})
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1].startswith("cardtable fallback: the display did not open (nosuchdriver: ")
    assert "Traceback" not in result.stderr
