"""Choosing the screen before the display opens, and the display following its screen, on fake /dev/dri and
/sys/class/drm trees (the display itself opened with SDL's dummy driver, or the table's own KMS screen on an
emulated card)."""
from __future__ import annotations

import logging
import os
from pathlib import Path

import pygame
import pytest

from table.screen import display as display_module
from table.screen.display import Display
from table.screen.kms import KmsScreen
from table.screen.outputs import KmsCard, NoDisplay, Output, find_output, kms_cards
from tests.screen.kms_card import EmulatedCard, mode

HDMI = {"HDMI-A-1": "connected", "HDMI-A-2": "disconnected", "Writeback-1": "unknown"}


@pytest.fixture(autouse=True)
def sdl_environ(monkeypatch):
    """The driver a display opened here puts in the environment (for SDL) is taken out after the test."""
    monkeypatch.setenv("SDL_VIDEODRIVER", os.environ.get("SDL_VIDEODRIVER", "dummy"))


def machine(root: Path, cards: dict[str, tuple[int, dict[str, str]]], by_path: bool = True) -> tuple[Path, Path]:
    """Fake /dev/dri and /sys/class/drm under `root`: by-path name -> (card number, connector -> status)."""
    dri, drm = root / "dev/dri", root / "sys/class/drm"
    (dri / "by-path").mkdir(parents=True)
    drm.mkdir(parents=True)
    for name, (index, connectors) in cards.items():
        (dri / f"card{index}").touch()
        if by_path:
            (dri / "by-path" / name).symlink_to(f"../card{index}")
            (dri / "by-path" / name.replace("-card", "-render")).symlink_to(f"../renderD{128 + index}")
        for connector, status in connectors.items():
            (drm / f"card{index}-{connector}").mkdir()
            (drm / f"card{index}-{connector}" / "status").write_text(status + "\n")
    return dri, drm


def pi(root: Path, gpu: int, v3d: int, hdmi: dict[str, str] = HDMI) -> tuple[Path, Path]:
    """A Pi 4 or 5 without a desktop: its display card (vc4) and its render-only card (v3d), numbered as they came."""
    return machine(root, {"platform-fec00000.v3d-card": (v3d, {}), "platform-gpu-card": (gpu, hdmi)})


@pytest.mark.parametrize("gpu, v3d", [(1, 0), (0, 1), (2, 1)])
def test_without_a_desktop_the_pis_display_card_is_found_by_name_whatever_its_number(tmp_path, gpu, v3d):
    dri, drm = pi(tmp_path, gpu, v3d)
    output = find_output({}, dri, drm, tmp_path / "input", "linux")
    assert output == Output("kmsdrm", KmsCard("platform-gpu-card", gpu, drm, dri))
    assert output.sdl_environ() == {"SDL_VIDEODRIVER": "kmsdrm", "SDL_KMSDRM_DEVICE_INDEX": str(gpu)}
    assert output.card.connectors() == {"HDMI-A-1": "connected", "HDMI-A-2": "disconnected"}
    assert output.screen_there()
    # a window that takes no input (the table, its fallback) draws on the card itself, not through SDL
    assert find_output({}, dri, drm, None, "linux") == Output("kms", KmsCard("platform-gpu-card", gpu, drm, dri))
    assert output.card.node == dri / f"card{gpu}"


@pytest.mark.parametrize("environ, driver", [
    ({"SDL_VIDEODRIVER": "x11", "DISPLAY": ":0"}, "x11"),   # the user's choice, whatever else there is
    ({"DISPLAY": ":0"}, ""),                                 # a desktop: SDL chooses
    ({"WAYLAND_DISPLAY": "wayland-0"}, ""),
])
def test_the_users_driver_and_a_desktop_come_before_the_kms_card(tmp_path, environ, driver):
    dri, drm = pi(tmp_path, 1, 0)
    output = find_output(environ, dri, drm, tmp_path / "input", "linux")
    assert output == Output(driver) and output.screen_there()
    assert output.sdl_environ() == ({"SDL_VIDEODRIVER": driver} if driver else {})


def test_off_linux_sdl_chooses(tmp_path):
    assert find_output({}, tmp_path / "no-dri", tmp_path / "no-drm", tmp_path / "input", "darwin") == Output("")


def test_a_screen_switched_off_is_waited_for_on_its_card(tmp_path):
    dri, drm = pi(tmp_path, 1, 0, {"HDMI-A-1": "disconnected", "HDMI-A-2": "disconnected"})
    output = find_output({}, dri, drm, tmp_path / "input", "linux")
    assert output.card.index == 1 and not output.screen_there()
    assert output.where() == "HDMI-A-1 or HDMI-A-2"
    (drm / "card1-HDMI-A-2/status").write_text("connected\n")
    assert output.screen_there() and output.card.connected() == ["HDMI-A-2"]


def test_a_card_with_a_screen_connected_comes_before_one_without(tmp_path):
    dri, drm = machine(tmp_path, {"pci-0000:00:02.0-card": (0, {"eDP-1": "disconnected"}),
                                  "pci-0000:01:00.0-card": (1, {"DP-1": "connected"})})
    assert [card.name for card in kms_cards(dri, drm)] == ["pci-0000:00:02.0-card", "pci-0000:01:00.0-card"]
    assert find_output({}, dri, drm, tmp_path / "input", "linux").card.index == 1


def test_without_udevs_names_the_cards_themselves_are_looked_at(tmp_path):
    dri, drm = machine(tmp_path, {"platform-gpu-card": (3, {"HDMI-A-1": "connected"})}, by_path=False)
    assert kms_cards(dri, drm) == [KmsCard("card3", 3, drm, dri)]


@pytest.mark.parametrize("cards", [{}, {"platform-fec00000.v3d-card": (0, {})}])
def test_no_screen_at_all_is_one_clear_refusal(tmp_path, cards):
    dri, drm = machine(tmp_path, cards)
    with pytest.raises(NoDisplay) as refused:
        find_output({}, dri, drm, tmp_path / "input", "linux")
    assert str(refused.value) == (f"no screen to draw on: no desktop, and no KMS card with a screen connector in "
                                  f"{dri}; connect a screen or run under a desktop (X or Wayland); "
                                  "`cardtable run --headless` runs the table without a screen")
    with pytest.raises(NoDisplay):
        find_output({}, tmp_path / "nothing", tmp_path / "nothing", tmp_path / "input", "linux")


@pytest.mark.parametrize("readable, environ, warned", [
    (False, {}, True), (True, {}, False), (False, {"DISPLAY": ":0"}, False)])
def test_unreadable_input_devices_are_one_warning_before_kmsdrm_opens(tmp_path, monkeypatch, caplog, readable,
                                                                      environ, warned):
    dri, drm = pi(tmp_path, 1, 0)
    (tmp_path / "input").mkdir()
    for name in ("event0", "event1", "mice"):
        (tmp_path / "input" / name).touch()
    access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: readable if "event" in str(path) else access(path, mode))
    find_output(environ, dri, drm, tmp_path / "input", "linux")
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING] == (
        [f"cannot read {tmp_path / 'input'}/event*: this user is not in group input, so keyboard and mouse are "
         "ignored (the seat buttons work)"] if warned else [])


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def tv(tmp_path):
    """A Pi whose TV is off: (its HDMI-A-1 status file, the output: its card, opened with SDL's dummy driver)."""
    _, drm = pi(tmp_path, 1, 0, {"HDMI-A-1": "disconnected"})
    yield drm / "card1-HDMI-A-1/status", Output("dummy", KmsCard("platform-gpu-card", 1, drm))
    pygame.display.quit()


def messages(caplog) -> list[str]:
    return [f"{r.levelname} {r.getMessage()}" for r in caplog.records if r.name == display_module.__name__]


def test_the_display_opens_when_the_tv_comes_on_and_closes_when_it_goes_looking_once_a_second(tv, caplog):
    caplog.set_level(logging.INFO)
    status, output = tv
    clock = Clock()
    display = Display(output, (1280, 720), clock=clock)
    display.start()
    assert not display.opened and not pygame.display.get_init()
    assert display.waiting() == "waiting for a screen on HDMI-A-1"
    status.write_text("connected\n")
    clock.now = 0.9
    display.look()
    assert not display.opened                     # not looked at again yet
    clock.now = 1.0
    display.look()
    assert display.opened and pygame.display.get_init() and display.waiting() == ""
    assert pygame.display.get_surface().get_flags() & pygame.FULLSCREEN == 0   # dummy here; kmsdrm: full screen
    clock.now = 2.5
    display.look()                                # nothing changed: nothing said
    status.write_text("disconnected\n")
    clock.now = 3.5
    display.look()
    assert not display.opened and not pygame.display.get_init()
    assert messages(caplog) == [
        "WARNING no screen on HDMI-A-1 yet: the table runs, and draws as soon as one is connected",
        "INFO screen connected on HDMI-A-1: drawing",
        "WARNING screen gone from HDMI-A-1: the table runs on, and draws again when it is back"]


def test_a_display_that_fails_is_closed_and_opened_again(tv, monkeypatch, caplog):
    status, output = tv
    status.write_text("connected\n")
    clock = Clock()
    display = Display(output, (1280, 720), clock=clock)
    display.start()
    canvas = pygame.Surface((1280, 720))
    flip = pygame.display.flip

    def lost() -> None:
        raise pygame.error("lost the screen")

    monkeypatch.setattr(pygame.display, "flip", lost)
    assert display.show(canvas) == [] and not display.opened
    assert messages(caplog) == [
        "WARNING display lost (lost the screen): the table runs on, and draws again when the screen is back"]
    monkeypatch.setattr(pygame.display, "flip", flip)
    clock.now = 1.0
    display.look()
    assert display.opened
    display.show(canvas)
    display.close()


def test_a_display_that_will_not_open_is_refused_at_start_and_retried_later(tv, caplog):
    status, output = tv
    broken = Output("nosuchdriver", output.card)
    status.write_text("connected\n")
    with pytest.raises(NoDisplay, match=r"^the display did not open \(nosuchdriver: "):
        Display(broken, (1280, 720)).start()
    status.write_text("disconnected\n")
    clock = Clock()
    display = Display(broken, (1280, 720), clock=clock)
    display.start()                               # the TV is off: the table starts, and waits
    status.write_text("connected\n")
    for clock.now in (1.0, 2.0, 3.0):
        display.look()
    assert not display.opened
    assert [m for m in messages(caplog) if "did not open" in m] == [
        "WARNING the display did not open (nosuchdriver not available); trying again every second"]


def test_headless_nothing_ever_opens(monkeypatch):
    monkeypatch.setattr(pygame.display, "init", lambda: pytest.fail("a headless display opened"))
    display = Display(None, (1280, 720), clock=Clock())
    display.start()
    display.look()
    assert not display.opened and display.waiting() == ""


def test_on_the_tables_own_kms_screen_the_page_is_on_the_card_while_the_tv_is_there(tv, monkeypatch):
    status, output = tv
    cards = []
    monkeypatch.setattr(display_module, "KmsScreen", lambda path: KmsScreen(
        path, lambda _: cards.append(EmulatedCard({32: (True, [mode(1280, 800, preferred=True)], 22)})) or cards[-1]))
    kms = Output("kms", output.card)
    clock = Clock()
    display = Display(kms, (1280, 720), clock=clock)
    assert display.fullscreen and kms.sdl_environ() == {}
    status.write_text("connected\n")
    display.start()
    canvas = pygame.Surface((1280, 720))
    canvas.fill((200, 30, 30))
    assert display.show(canvas) == [] and not pygame.display.get_init()   # SDL's display never opened
    cards[0].vblank()
    shown = cards[0].on_screen(41)
    assert shown[:4] == bytes((24, 20, 20, 0)) and shown[4 * 1280 * 40:][:4] == bytes((30, 30, 200, 0))   # INK, page
    display.show(canvas)
    assert cards[0].pending is None                   # the same page: nothing copied, nothing flipped
    changed = canvas.copy()                           # a page that changes is a new surface (table/screen/pager.py)
    changed.fill((30, 200, 30))
    display.show(changed)
    display.show(canvas)                              # a flip still pending: skipped...
    cards[0].vblank()
    display.show(canvas)                              # ...and shown at the next frame
    cards[0].vblank()
    assert cards[0].on_screen(41) == shown
    status.write_text("disconnected\n")
    clock.now = 1.0
    display.look()
    assert not display.opened and cards[0].closed
    status.write_text("connected\n")
    clock.now = 2.0
    display.look()
    assert display.opened and len(cards) == 2 and not cards[1].closed
    display.close()
    assert cards[1].closed
