"""Which page of the table's screen to show now: each page of a new sequence for a while, then the last one."""
from __future__ import annotations

import time
from collections.abc import Callable

import pygame

from table.screen.screen import Screen

PAGE_S = 2.5   # how long each page of a new sequence stays up


class Pager:
    """Turns table views into the frame to show: a new sequence of pages (a reveal, say) is shown page by
    page, PAGE_S each, and its last page stays; a frame is drawn again only when its page or view changed.
    A sequence that only grows (a page added at its end, e.g. once the table is clear) goes on where it was, or
    from its first new page when its last page was already up."""

    def __init__(self, screen: Screen, clock: Callable[[], float] = time.monotonic) -> None:
        self.screen = screen
        self.clock = clock
        self.pages: list[tuple[str, int | None]] = []
        self.page: tuple[str, int | None] = ("lobby", None)
        self.since = clock()
        self._shown: tuple | None = None
        self._frame: pygame.Surface | None = None

    def frame(self, view: dict) -> pygame.Surface:
        """The 1280x720 frame of the page due now for `view`."""
        pages, now = self.screen.pages(view), self.clock()
        if pages != self.pages:
            if pages[:len(self.pages)] != self.pages:
                self.since = now
            elif now - self.since >= (len(self.pages) - 1) * PAGE_S:   # grown after its last page came up:
                self.since = now - len(self.pages) * PAGE_S            # its first new page, now
            self.pages = pages
        self.page = pages[min(int((now - self.since) / PAGE_S), len(pages) - 1)]
        if (self.page, view) != self._shown:
            self._shown = (self.page, view)
            self._frame = self.screen.render(view, *self.page)
        return self._frame
