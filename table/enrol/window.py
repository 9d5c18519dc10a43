"""The enrolment station's window: the enrol screen, and below it the simulated reader when there is no hardware.

Keys (and clicks on the screen's buttons) drive the `Enrolment`; with a
simulated pad (`BlankTags`) a strip under the screen places, re-places and
lifts tags. See docs/enrolment.md.
"""
from __future__ import annotations

from functools import partial
from typing import Callable

import pygame

from table.enrol.station import BlankTags, Station
from table.events import CardRemoved
from table.screen import draw
from table.screen.draw import BG, GOLD, MUTED, PANEL, SIZE, TEXT
from table.enrol.screen import EnrolScreen

STRIP = 110     # height of the simulated reader's strip under the screen


class EnrolWindow:
    """The station as one drawing: `handle` keys and clicks, then `frame` draws the canvas.

    `controls` holds the clickable rects of the last frame by name: the
    screen's buttons, and new, again, lift for the simulated reader.
    """

    def __init__(self, station: Station, lang: str = "fr", blanks: BlankTags | None = None) -> None:
        self.station = station
        self.enrolment = station.enrolment
        self.blanks = blanks
        self.screen = EnrolScreen(lang, self.enrolment.deck)
        self.t = self.screen.t
        self.canvas = pygame.Surface((SIZE[0], SIZE[1] + (STRIP if blanks else 0)))
        self.running = True
        self.controls: dict[str, tuple[pygame.Rect, Callable[[], None]]] = {}
        e = self.enrolment
        self._keys = {pygame.K_LEFT: e.back, pygame.K_p: e.back, pygame.K_RIGHT: e.next, pygame.K_n: e.next,
                      pygame.K_r: e.toggle_retag, pygame.K_ESCAPE: self.quit}
        if blanks:
            station.bus.subscribe(CardRemoved, blanks.removed)
            self._keys |= {pygame.K_t: blanks.new, pygame.K_a: blanks.again, pygame.K_l: blanks.lift}

    def handle(self, event: pygame.event.Event) -> None:
        """A key, a click (at a point of the canvas) or quit."""
        if event.type == pygame.QUIT:
            self.quit()
        elif event.type == pygame.KEYDOWN and event.key in self._keys:
            self._keys[event.key]()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for rect, action in self.controls.values():
                if rect.collidepoint(event.pos):
                    return action()

    def quit(self) -> None:
        self.running = False

    def frame(self) -> pygame.Surface:
        """Draw the whole window as it is now."""
        e = self.enrolment
        self.canvas.fill(BG)
        self.canvas.blit(self.screen.render(e), (0, 0))
        actions = {"back": e.back, "next": e.next, "retag": e.toggle_retag, "quit": self.quit}
        self.controls = {name: (rect, actions.get(name) or partial(e.pick, int(name.removeprefix("pick"))))
                         for name, rect in self.screen.buttons.items()}
        if self.blanks:
            self._draw_reader()
        return self.canvas

    def _draw_reader(self) -> None:
        t, surf, blanks = self.t, self.canvas, self.blanks
        strip = pygame.Rect(0, SIZE[1], SIZE[0], STRIP)
        pygame.draw.rect(surf, PANEL, strip)
        pygame.draw.line(surf, GOLD, strip.topleft, strip.topright, 3)
        draw.text(surf, t("enrol_sim_title"), 34, GOLD, "topleft", (40, strip.y + 14))
        uid = blanks.reader.card
        on_pad = t("enrol_sim_on_pad", uid=uid) if uid else t("enrol_sim_empty")
        draw.text(surf, on_pad, 28, TEXT if uid else MUTED, "topleft", (40, strip.y + 62), width=330)
        x = 410
        for name, key, action, w in (("new", "T", blanks.new, 300), ("again", "A", blanks.again, 310),
                                     ("lift", "L", blanks.lift, 200)):
            rect = pygame.Rect(x, strip.y + 25, w, 60)
            draw.button(surf, rect, t(f"enrol_sim_{name}"), key, 28)
            self.controls[name] = (rect, action)
            x += w + 10
