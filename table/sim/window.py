"""`cardtable run` without table hardware: a pygame window that is the simulated table.

The window shows the table's screen (its public view only) beside a control
panel for the operator, who stands in for every player: each seat with its
light (drawn from the mock pins) and its Next and OK buttons, every seat's
hand, the selected seat's hand to lay cards from, the pile, and controls to
pick up the cards, tap the staff card or let the bots play the next step.
Texts are the sim_* keys of assets/i18n. See docs/simulated-table.md.
"""
from __future__ import annotations

import random
import time
from argparse import Namespace
from typing import Any, Callable

import pygame

from table.events import PowerAsked
from table.registry import GAMES
from table.layout import Layout, load_layout
from table.screen import Screen, Translator, draw
from table.screen.display import Display, run_display
from table.screen.outputs import find_output
from table.screen.draw import BG, GOLD, INK, MUTED, PANEL, PANEL_HI, TEAMS, TEXT
from table.screen.pager import Pager
from table.sim.simulated_table import SimulatedTable
from table.bots.world import CannotDo
from table.storage.files import TableFiles
from table.storage.journal import Journal

SIZE = (1600, 900)                     # the window's own drawing surface, scaled to fit the display
GAME = pygame.Rect(0, 0, 1120, 630)    # where the table's screen (1280x720) is shown
PANEL_X = GAME.right + 8               # the seats and the keyboard help, right of the screen
ROW_H = 80                             # one seat in the panel (less when 7 or 8 seats must fit)
CARD = (134, 170)                      # a card of the selected seat's hand
CONTROLS_X = 660                       # the pile and table controls, below the screen
TABLE_CARD = TEAMS[0]                  # the frame of a card on the table the selected seat may designate

HELP = (("1-{seats}", "sim_help_seat"), ("J", "sim_help_join"), ("N / O", "sim_help_buttons"),
        ("< > sim_key_enter", "sim_help_place"), ("D", "sim_help_show"), ("C", "sim_help_pick_up"),
        ("S", "sim_help_staff"), ("A", "sim_help_auto"), ("sim_key_esc", "sim_help_quit"))


class SimWindow:
    """The simulated table as one drawing: call a control method (or `handle` an event), then `frame`.

    `seat` is the selected seat, `cursor` the selected card of its hand,
    `pager.page` the (page, step) of the table's screen shown, `leds` the colour
    and light state drawn for each seat, `controls` the clickable rects of
    the last frame by name (seat3, next3, ok3, card0, show, pick_up, staff,
    auto), `note` the last operator message (an i18n key).
    """

    def __init__(self, layout: Layout, journal: Journal, lang: str = "fr", seed: int | None = None,
                 clock: Callable[[], float] = time.monotonic, game: str | None = None,
                 spectate: str | None = None) -> None:
        self.sim = SimulatedTable(layout, journal, game=game)
        self.rng = random.Random(seed)
        self.bots = None
        self._follow_game()
        self.screen = Screen(GAMES, lang, spectate)
        self.common = Translator(lang)
        self.canvas = pygame.Surface(SIZE)
        self.seat = 1
        self.cursor = 0
        self.running = True
        self.asked: str | None = None   # staff asked to power off or reboot: the window closes
        self.sim.table.bus.subscribe(PowerAsked, self._power)
        self.pager = Pager(self.screen, clock)
        self.leds: dict[int, tuple[tuple[int, int], tuple[int, int, int], str]] = {}   # seat -> centre, colour, state
        self.controls: dict[str, tuple[pygame.Rect, Callable[[], None]]] = {}
        self._shown: pygame.Surface | None = None     # the frame of the table's screen drawn in _game
        self._game: pygame.Surface | None = None
        self._keys = {pygame.K_j: self.join, pygame.K_n: lambda: self.press("next"),
                      pygame.K_o: lambda: self.press("ok"), pygame.K_LEFT: lambda: self.move(-1),
                      pygame.K_RIGHT: lambda: self.move(1), pygame.K_RETURN: self.place,
                      pygame.K_KP_ENTER: self.place, pygame.K_d: self.show, pygame.K_c: self.pick_up,
                      pygame.K_s: self.staff, pygame.K_a: self.auto, pygame.K_ESCAPE: self.quit}

    # ------------------------------------------------------------ controls

    def select(self, seat: int) -> None:
        if 1 <= seat <= len(self.sim.table.layout.seats):
            self.seat, self.cursor = seat, 0

    def join(self) -> None:
        self._do(self.world.join, self.seat)

    def press(self, button: str, seat: int | None = None) -> None:
        """The selected seat (or `seat`) presses "next" or "ok"."""
        self.select(seat or self.seat)
        self._do(self.world.press, self.seat, button)

    def move(self, step: int) -> None:
        """Move the card cursor along the selected seat's hand."""
        self.cursor = max(0, min(self.cursor + step, len(self.hand) - 1))

    def place(self, index: int | None = None) -> None:
        """The selected seat lays the card under the cursor (or at `index`) from its hand."""
        if not self.hand:
            self.note = "sim_no_card"
            return
        self.cursor = min(self.cursor if index is None else index, len(self.hand) - 1)
        card = self.hand[self.cursor]
        if self._do(self.world.lay, self.seat, card) and self.hand[self.cursor:self.cursor + 1] == [card]:
            self.move(1)   # taken and still in hand (a registration tap): on to the next card
        self.move(0)

    def show(self) -> None:
        self._do(self.world.show)

    def pick_up(self) -> None:
        self._do(self.world.pick_up)

    def staff(self) -> None:
        self._do(self.world.staff)

    def auto(self) -> None:
        self._do(self.bots.step_all)

    @property
    def hand(self) -> list[str]:
        """The cards the selected seat may lay: its hand, and the cards on the table it may designate now."""
        return self.world.reach(self.seat)

    @property
    def game(self) -> str:
        """The game in play, or chosen in the lobby."""
        session = self.sim.session
        return session.chosen.name

    @property
    def t(self) -> Translator:
        return self.common.game(self.game)

    @property
    def faces(self):
        return self.screen.faces(self.game)

    def _follow_game(self) -> None:
        """The bots and physical world of the game now chosen (a new lobby choice brings its own)."""
        if self.bots is None or self.bots.game != self.game:
            self.bots = GAMES[self.game].bots.Players(self.sim, [s.number for s in self.sim.table.layout.seats],
                                                      self.rng)
            self.bots.game = self.game
            self.world = self.bots.world
            self.note = self.world.note

    def _do(self, act: Callable, *args) -> Any:
        """Do an operator's act; what it returned (None when it could not be done: `note` says why)."""
        self.note = None
        try:
            return act(*args)
        except CannotDo as why:
            self.note = why.args[0]
        finally:
            self._follow_game()

    # ------------------------------------------------------------ events

    def handle(self, event: pygame.event.Event) -> None:
        """A key, a click (at a point of the 1600x900 drawing) or quit."""
        if event.type == pygame.QUIT:
            self.quit()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.click(event.pos)
        elif event.type == pygame.KEYDOWN:
            self.key(event.key, getattr(event, "scancode", 0))

    def key(self, key: int, scancode: int = 0) -> None:
        """Digits by key position (they need no shift on AZERTY) or, when no position is known, by label;
        letters by label."""
        if pygame.KSCAN_1 <= scancode <= pygame.KSCAN_9:
            return self.select(scancode - pygame.KSCAN_1 + 1)
        for first in (pygame.K_KP1, pygame.K_1) if not scancode else (pygame.K_KP1,):
            if first <= key <= first + 8:
                return self.select(key - first + 1)
        if key in self._keys:
            self._keys[key]()

    def click(self, pos: tuple[int, int]) -> None:
        """Run the control drawn at `pos` in the last frame."""
        for rect, action in reversed(self.controls.values()):
            if rect.collidepoint(pos):
                return action()

    def quit(self) -> None:
        self.running = False

    def _power(self, event: PowerAsked) -> None:
        self.asked = event.what
        self.quit()

    # ------------------------------------------------------------ drawing

    @property
    def row_h(self) -> int:
        """The height of a seat's row in the panel: ROW_H, or less so that every seat and the keys fit."""
        return min(ROW_H, (SIZE[1] - 44 - 8 - 44 - len(HELP) * 24) // len(self.sim.table.layout.seats) - 6)

    def frame(self) -> pygame.Surface:
        """Draw the whole window (its 1600x900 surface) as it is now."""
        self.controls = {}
        self.canvas.fill(BG)
        self._draw_game()
        self._draw_seats()
        self._draw_help()
        self._draw_hand()
        self._draw_controls()
        return self.canvas

    def close(self) -> None:
        self.sim.close()

    def _draw_game(self) -> None:
        """The table's screen: each page of a new sequence for PAGE_S, then the last one stays."""
        frame = self.pager.frame(self.sim.table.table_view())
        if frame is not self._shown:
            self._shown, self._game = frame, pygame.transform.smoothscale(frame, GAME.size)
        self.canvas.blit(self._game, GAME)

    def _draw_seats(self) -> None:
        t, surf = self.t, self.canvas
        draw.text(surf, t("sim_title"), 34, GOLD, "midleft", (PANEL_X + 6, 22))
        for i, spec in enumerate(self.sim.table.layout.seats):
            seat = spec.number
            row = pygame.Rect(PANEL_X, 44 + i * (self.row_h + 6), SIZE[0] - PANEL_X - 8, self.row_h)
            chosen = seat == self.seat
            pygame.draw.rect(surf, PANEL_HI if chosen else PANEL, row, border_radius=10)
            if chosen:
                draw.frame(surf, row, GOLD, 3)
            self.controls[f"seat{seat}"] = (row, lambda s=seat: self.select(s))
            draw.badge(surf, (row.x + 32, row.centery), 24, seat, GOLD if chosen else TEXT)
            factory = self.sim.factories[spec.board]
            colour = tuple(round(255 * factory.pin(pin).state) for pin in spec.light)
            state = self.sim.table.lights[seat].state.value
            led = (row.x + 82, row.y + 24)
            pygame.draw.circle(surf, colour, led, 14)
            pygame.draw.circle(surf, MUTED, led, 15, 2)
            self.leds[seat] = (led, colour, state)
            in_lobby = self.sim.session.state is None and state == "locked"
            draw.text(surf, t("joined" if in_lobby else f"sim_light_{state}"), 26, TEXT, "midleft",
                      (row.x + 104, led[1]), width=150)
            short = self.row_h < ROW_H   # 7 or 8 seats: the buttons stand right of the hand's chips, not above
            top = row.centery - 17 if short else row.y + 8
            for button, rect in (("next", pygame.Rect(row.right - 186, top, 112, 34)),
                                 ("ok", pygame.Rect(row.right - 66, top, 58, 34))):
                self._button(f"{button}{seat}", rect, t(f"sim_{button}"), lambda s=seat, b=button: self.press(b, s),
                             size=26)
            hand = self.world.hands.get(seat)
            if hand:
                self._chips(hand, row.x + 66, row.bottom - 20, 28, row.right - (194 if short else 8))
            else:
                joined = seat in (self.sim.session.players or self.sim.session.joined)
                status = "sim_no_hand" if hand is not None else None if joined else "free"   # joined: its light says
                if status:
                    draw.text(surf, t(status), 24, MUTED, "midleft", (row.x + 70, row.bottom - 20))

    def _draw_help(self) -> None:
        t, surf = self.t, self.canvas
        top = 44 + len(self.sim.table.layout.seats) * (self.row_h + 6) + 8
        draw.text(surf, t("sim_keys"), 30, GOLD, "topleft", (PANEL_X + 6, top))
        step = min(32, (SIZE[1] - top - 44) // len(HELP))
        for i, (keys, what) in enumerate(HELP):
            y = top + 44 + i * step
            seats = len(self.sim.table.layout.seats)
            label = " ".join(t(k) if k.startswith("sim_") else k.format(seats=seats) for k in keys.split())
            draw.tag(surf, label, 22, (PANEL_X + 6, y), INK, GOLD, "midleft")
            draw.text(surf, t(what), 24, TEXT, "midleft", (PANEL_X + 150, y), width=SIZE[0] - PANEL_X - 160)

    def _draw_hand(self) -> None:
        t, surf, seat = self.t, self.canvas, self.seat
        top = GAME.bottom + 12
        session = self.sim.session
        hand = self.hand   # once per frame: it asks the rules what the seat may designate
        if seat in self.world.hands or (session.state is not None and seat in session.players):
            held = len(self.world.hands.get(seat, ()))   # the hand, not what else the seat may tap (tokens...)
            title = f"{t('sim_hand', seat=seat)} · {t.count('sim_cards', held)}"
            designated = sum(card in self.world.table for card in hand)
            if designated:
                title += f" · {t.count('sim_on_table', designated)}"
        elif session.state is None:
            title = t("sim_seat_joined" if seat in session.joined else "sim_seat_lobby", seat=seat)
        else:
            title = t("sim_seat_out", seat=seat)
        draw.text(surf, title, 30, TEXT, "topleft", (16, top), width=CONTROLS_X - 32)
        area = pygame.Rect(16, top + 36, CONTROLS_X - 32, SIZE[1] - 30 - top - 36)
        # After its hand, what the seat laid that still lies on the table, to look at (a seat reading the card it
        # revealed, where the game's world says so): marked, not to be laid again.
        laid = [c for c in self.world.table if self.world.laid.get(c) == seat and c not in hand] \
            if self.world.LAID_IN_VIEW else []
        for i, (card, rect) in enumerate(zip(hand + laid, card_grid(len(hand) + len(laid), area))):
            self.faces.draw(surf, rect, card)
            if i >= len(hand):
                draw.tag(surf, t("sim_laid"), 20, (rect.centerx, rect.bottom + 2), INK, MUTED, "midbottom")
                continue
            if card in self.world.table:                  # a card on the table the seat may designate
                draw.frame(surf, rect.inflate(6, 6), TABLE_CARD, 3)
            if i == self.cursor:
                draw.frame(surf, rect.inflate(8, 8), GOLD, 4)
            self.controls[f"card{i}"] = (rect, lambda i=i: self.place(i))
        if seat in self.world.hands and not hand and not laid:
            draw.text(surf, t("sim_no_hand"), 28, MUTED, "topleft", (16, top + 44))
        draw.text(surf, t("sim_deal_note"), 24, MUTED, "bottomleft", (16, SIZE[1] - 6), width=CONTROLS_X - 32)

    def _draw_controls(self) -> None:
        t = self.t
        y = GAME.bottom + 12
        for name, key, label, action in (("show", "D", t("sim_pile", n=len(self.world.pile)), self.show),
                                         ("pick_up", "C", t("sim_pick_up"), self.pick_up),
                                         ("staff", "S", t("sim_staff"), self.staff),
                                         ("auto", "A", t("sim_auto"), self.auto)):
            rect = pygame.Rect(CONTROLS_X, y, GAME.right - CONTROLS_X - 8, 44)
            self._button(name, rect, label, action, key)
            if name == "pick_up" and self.world.round_over:   # what the table waits for: the cards played picked up
                draw.frame(self.canvas, rect.inflate(6, 6), GOLD, 3)
            y += 52
        if self.note:
            draw.text(self.canvas, t(self.note), 24, GOLD, "topleft", (CONTROLS_X, y),
                      width=GAME.right - CONTROLS_X - 8, lines=2)

    def _button(self, name: str, rect: pygame.Rect, label: str, action: Callable[[], None], key: str = "",
                size: int = 28) -> None:
        """A clickable button, with its key in a gold cap on the left."""
        draw.button(self.canvas, rect, label, key, size)
        self.controls[name] = (rect, action)

    def _chips(self, cards: list[str], x: int, cy: int, h: int, right: int) -> None:
        """A row of chips at most `h` high, smaller when needed so that they end before `right`; the count
        alone when they would be too small to read."""
        while h > 18 and len(cards) * (self.faces.chip_width(h) + 4) > right - x:
            h -= 1
        if len(cards) * (self.faces.chip_width(h) + 4) > right - x:
            draw.text(self.canvas, self.t.count("sim_cards", len(cards)), 24, TEXT, "midleft", (x, cy))
            return
        w = self.faces.chip_width(h)
        for i, card in enumerate(cards):
            self.faces.draw(self.canvas, pygame.Rect(x + i * (w + 4), cy - h // 2, w, h), card, "chip")


def card_grid(count: int, area: pygame.Rect, gap: int = 12) -> list[pygame.Rect]:
    """Rects for `count` cards in rows filling `area`, as large as fit (at most the size of CARD)."""
    w, h = CARD
    while h > 30:
        w = round(h * CARD[0] / CARD[1])
        per_row = max(1, (area.w + gap) // (w + gap))
        if -(-count // per_row) * (h + gap) - gap <= area.h:
            break
        h -= 2
    per_row = max(1, (area.w + gap) // (w + gap))
    return [pygame.Rect(area.x + (i % per_row) * (w + gap), area.y + (i // per_row) * (h + gap), w, h)
            for i in range(count)]


def run_window(args: Namespace) -> int:
    """`cardtable run`: open the simulated table's window; resume the journal if it exists."""
    output = find_output()   # none: NoDisplay, before anything opens
    files = TableFiles(args.journal)
    pygame.font.init()
    window = SimWindow(load_layout(args.layout), files.journal, args.lang, game=args.game,
                       spectate=args.spectate)
    for notice in files.notices:
        window.sim.session.tell_staff(notice)
    if window.sim.session.resumed_note:
        print(f"cardtable run: {window.sim.session.resumed_note}")
    try:
        caption = f"cardtable · {window.t('sim_title')}"
        run_display(window, Display(output, SIZE, caption, args.fullscreen), args.frames, each_frame=window.sim.tick)
    finally:
        window.close()
        files.close()
    if window.asked:   # the simulated table never switches its machine off
        print(f"staff asked to {window.asked} from the staff menu: the simulated table closes")
    return 0
