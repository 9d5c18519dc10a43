"""The display loop shared by the table's windows: a logical canvas, scaled to fit the panel or window."""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import pygame

from table.screen.draw import INK

FPS = 30


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


def run_display(window: Window, size: tuple[int, int], caption: str, fullscreen: bool = False, frames: int = 0,
                each_frame: Callable[[], None] = lambda: None,
                scale: Callable[[pygame.Surface, tuple[int, int]], pygame.Surface] = pygame.transform.smoothscale
                ) -> None:
    """Open the display and run `window` until it stops running (or for `frames` frames, 0: no limit).

    Each frame calls `each_frame`, draws the window's canvas fitted to the
    display (by `scale` when the sizes differ), and hands it the input
    events, clicks mapped back onto the canvas.
    """
    pygame.display.init()
    pygame.font.init()
    if fullscreen:
        pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
    else:
        w, h = pygame.display.get_desktop_sizes()[0]
        room = pygame.Rect(0, 0, w * 9 // 10, h * 9 // 10)
        pygame.display.set_mode(size if room.contains((0, 0, *size)) else fit(size, room).size, pygame.RESIZABLE)
    pygame.display.set_caption(caption)
    ticker = pygame.time.Clock()
    count = 0
    try:
        while window.running and (not frames or count < frames):
            each_frame()
            display = pygame.display.get_surface()
            shown = fit(size, display.get_rect())
            canvas = window.frame()
            display.fill(INK)
            display.blit(canvas if shown.size == size else scale(canvas, shown.size), shown)
            pygame.display.flip()
            for event in pygame.event.get():
                if event.type == pygame.MOUSEBUTTONDOWN:
                    x, y = event.pos
                    event = pygame.event.Event(event.type, button=event.button, pos=(
                        (x - shown.x) * size[0] // shown.w, (y - shown.y) * size[1] // shown.h))
                window.handle(event)
            ticker.tick(FPS)
            count += 1
    finally:
        pygame.display.quit()
