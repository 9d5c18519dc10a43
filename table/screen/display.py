"""The display loop shared by the table's windows: a logical canvas, scaled to fit the panel or window.

The display is opened on an `Output` (table/screen/outputs.py) while its
screen is there, closed when the screen goes (a TV switched off, or SDL or
the card losing it) and opened again when it comes back; the loop runs on
without it. On the table's own KMS screen (table/screen/kms.py) SDL's
display is never opened: the page is drawn into memory and shown by the card.
"""
from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from typing import Protocol

import pygame

from table.screen.draw import INK
from table.screen.kms import KmsScreen
from table.screen.outputs import ADVICE, NoDisplay, Output

log = logging.getLogger(__name__)

FPS = 30
LOOK_S = 1.0   # how often the screen's connectors are looked at while the loop runs


class Window(Protocol):
    """Something drawn on a canvas of its own size that takes keys and clicks (in canvas coordinates)."""

    running: bool

    def frame(self) -> pygame.Surface:
        """The whole canvas as it is now."""
        ...

    def handle(self, event: pygame.event.Event) -> None:
        ...


def fit(size: tuple[int, int], into: pygame.Rect) -> pygame.Rect:
    """The largest rect of `size`'s aspect that fits centred in `into`."""
    scale = min(into.w / size[0], into.h / size[1])
    rect = pygame.Rect(0, 0, round(size[0] * scale), round(size[1] * scale))
    rect.center = into.center
    return rect


class Display:
    """The display a canvas of `size` is drawn on: opened on `output` while its screen is there, never when
    `output` is None (headless). Full screen when asked, and always without a desktop (kmsdrm); else a window
    that fits the desktop. `scale` fits the canvas to the display when their sizes differ."""

    def __init__(self, output: Output | None, size: tuple[int, int], caption: str = "cardtable",
                 fullscreen: bool = False,
                 scale: Callable[[pygame.Surface, tuple[int, int]], pygame.Surface] = pygame.transform.smoothscale,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.output, self.size, self.caption, self.scale = output, size, caption, scale
        self.fullscreen = fullscreen or output is not None and output.driver in ("kmsdrm", "kms")
        self.opened = False
        self.kms: KmsScreen | None = None   # the table's own KMS screen, while open
        self._on_card: pygame.Surface | None = None   # the canvas it shows (a page is a new surface when it changes)
        self._clock = clock
        self._looked: float | None = None
        self._there = True        # whether the screen was there when last looked at
        self._failed = ""         # the last failure to open, logged once

    def waiting(self) -> str:
        """What the table waits for to be seen ("" while drawn, and headless)."""
        return "" if self.opened or self.output is None else f"waiting for a screen on {self.output.where()}"

    def start(self) -> None:
        """Open the display if its screen is there (NoDisplay if SDL cannot open it), else say the table waits."""
        if self.output is None:
            return
        self._looked, self._there = self._clock(), self.output.screen_there()
        if not self._there:
            log.warning("no screen on %s yet: the table runs, and draws as soon as one is connected",
                        self.output.where())
            return
        try:
            self.open()
        except (pygame.error, OSError) as error:
            raise NoDisplay(f"the display did not open ({self.output.driver or 'SDL'}: {error}); {ADVICE}") from None

    def open(self) -> None:
        """Open the display (pygame.error, or OSError for the table's own KMS screen, if it will not)."""
        if self.output.driver == "kms":
            self.kms, self._on_card = KmsScreen(str(self.output.card.node)), None
            self.opened, self._failed = True, ""
            return
        os.environ.update(self.output.sdl_environ())
        try:
            pygame.display.init()
            if self.fullscreen:
                pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            else:
                w, h = pygame.display.get_desktop_sizes()[0]
                room = pygame.Rect(0, 0, w * 9 // 10, h * 9 // 10)
                pygame.display.set_mode(self.size if room.contains((0, 0, *self.size)) else fit(self.size, room).size,
                                        pygame.RESIZABLE)
            pygame.display.set_caption(self.caption)
        except pygame.error:
            pygame.display.quit()
            raise
        self.opened, self._failed = True, ""

    def close(self) -> None:
        if self.kms is not None:
            kms, self.kms = self.kms, None
            kms.close()
        pygame.display.quit()
        self.opened = False

    def look(self) -> None:
        """About once a second: close the display when its screen went, open it when the screen is there."""
        now = self._clock()
        if self.output is None or self._looked is not None and now - self._looked < LOOK_S:
            return
        self._looked = now
        there = self.output.screen_there()
        if there != self._there:   # only a KMS card's screen comes and goes
            self._there = there
            if there:
                log.info("screen connected on %s: drawing", ", ".join(self.output.card.connected()))
            else:
                log.warning("screen gone from %s: the table runs on, and draws again when it is back",
                            self.output.where())
        if self.opened and not there:
            self.close()
        elif there and not self.opened:
            try:
                self.open()
            except (pygame.error, OSError) as error:
                if str(error) != self._failed:
                    self._failed = str(error)
                    log.warning("the display did not open (%s); trying again every second", error)

    def show(self, canvas: pygame.Surface) -> list[pygame.event.Event]:
        """Draw `canvas` fitted to the open display; the input events since, clicks mapped onto the canvas. A
        display that fails (SDL lost the screen) is closed, to be opened again when the screen is there. On the
        table's own KMS screen a canvas already shown is not copied again (the screen stays as it is)."""
        if self.kms is not None and canvas is self._on_card:
            return []
        try:
            display = self.kms.surface if self.kms is not None else pygame.display.get_surface()
            shown = fit(self.size, display.get_rect())
            display.fill(INK)
            display.blit(canvas if shown.size == self.size else self.scale(canvas, shown.size), shown)
            if self.kms is not None:
                self._on_card = canvas if self.kms.show() else None
                return []
            pygame.display.flip()
            events = pygame.event.get()
        except (pygame.error, OSError) as error:
            log.warning("display lost (%s): the table runs on, and draws again when the screen is back", error)
            self.close()
            return []
        return [self._on_canvas(event, shown) if event.type == pygame.MOUSEBUTTONDOWN else event for event in events]

    def _on_canvas(self, click: pygame.event.Event, shown: pygame.Rect) -> pygame.event.Event:
        """`click` on the display as a click on the canvas, shown at `shown`."""
        x, y = click.pos
        w, h = self.size
        return pygame.event.Event(click.type, button=click.button,
                                  pos=((x - shown.x) * w // shown.w, (y - shown.y) * h // shown.h))


def run_display(window: Window, display: Display, frames: int = 0,
                each_frame: Callable[[], None] = lambda: None) -> None:
    """Run `window` on `display` until it stops running (or for `frames` frames, 0: no limit).

    Each frame calls `each_frame`, then, while the display is open, draws
    the window's canvas on it and hands the window the input events.
    """
    pygame.font.init()
    display.start()
    ticker = pygame.time.Clock()
    count = 0
    try:
        while window.running and (not frames or count < frames):
            each_frame()
            display.look()
            if display.opened:
                for event in display.show(window.frame()):
                    window.handle(event)
            ticker.tick(FPS)
            count += 1
    finally:
        display.close()
