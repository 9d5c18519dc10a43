"""The enrolment screen (`cardtable enrol`): the next card to scan, large, with progress and the last result.

Drawn from an `Enrolment` on the same 1280x720 surface and in the same
style as the score screen. `EnrolScreen.buttons` holds the clickable rects
of the last render by name (back, next, retag, quit, and pickN for the Nth
card of the grid), for a touch screen or a mouse.
"""
from __future__ import annotations

import math

import pygame

from table.assets import deck_data
from table.enrol.enrolment import Enrolment
from table.registry import game_for_deck
from table.screen import draw
from table.screen.draw import (
    BACK,
    BG,
    CARD,
    GOLD,
    GREEN,
    INK,
    MUTED,
    PANEL,
    RED,
    SIZE,
    TEXT,
)
from table.screen.faces import Faces
from table.screen.i18n import Translator
from table.storage.registry import Tag

HEADER = 84
PICTURE = pygame.Rect(40, 112, 330, 418)     # the card to scan (the aspect of the score screen's cards)
RIGHT = pygame.Rect(410, 100, 830, 520)      # its name, what to do, the last result, every card
RESULT = pygame.Rect(RIGHT.x, 262, RIGHT.w, 112)
GRID = pygame.Rect(RIGHT.x, 394, RIGHT.w, 226)
COLUMNS = 10
BUTTONS_Y, BUTTON_H = 644, 60


class EnrolScreen:
    """The enrolment screen in one language, for the deck (and staff cards) of an enrolment."""

    def __init__(self, lang: str = "fr", deck: str | None = None) -> None:
        pygame.font.init()
        self.t = Translator(lang)
        self.deck = deck
        game = game_for_deck(deck) if deck else None
        self.game = game and game.name   # the texts that name the deck's cards
        self.faces = (game.faces if game else Faces)(deck_data(deck), self.t.lang) if deck else None
        self.buttons: dict[str, pygame.Rect] = {}

    def name(self, tag: Tag, enrolment: Enrolment | None = None) -> str:
        """A card's name ('Taureau 1 doigt, 4 étoiles'), a staff card's, a player's card's (named by `enrolment`),
        or another deck's card id."""
        if tag.kind == "staff":
            return self.t("enrol_staff_name", n=tag.card.removeprefix("staff-"))
        if tag.kind == "player":
            return self.t("enrol_player_name", name=enrolment.player_name(tag.card) if enrolment else tag.card)
        if self.faces and tag.deck == self.deck:
            return self.faces.name(tag.card, self.t.game(self.game))
        return tag.card

    def render(self, enrolment: Enrolment) -> pygame.Surface:
        """The screen for the enrolment as it is now, on a new 1280x720 surface."""
        self.buttons = {}
        surf = pygame.Surface(SIZE)
        surf.fill(BG)
        self._header(surf, enrolment)
        self._picture(surf, enrolment)
        self._progress(surf, enrolment)
        self._target(surf, enrolment)
        self._result(surf, enrolment)
        self._grid(surf, enrolment)
        self._buttons(surf, enrolment)
        return surf

    def outcome_text(self, enrolment: Enrolment) -> str:
        """The last outcome as the result panel says it."""
        last = enrolment.last
        if last is None:
            return self.t("enrol_waiting")
        tag = last.tag
        return self.t(last.key, card=self.name(tag, enrolment) if tag else "", deck=tag and tag.deck, uid=last.uid)

    # ------------------------------------------------------------ parts

    def title(self, enrolment: Enrolment | None = None) -> str:
        """'Pairs · enregistrement des cartes' (the deck's file name, spaced and capitalised), or what else
        `enrolment` tags."""
        if self.deck is None:
            return self.t("enrol_title_player" if enrolment and enrolment.player else "enrol_title_staff")
        return self.t("enrol_title", deck=self.deck.replace("-", " ").title())

    def _header(self, surf: pygame.Surface, enrolment: Enrolment) -> None:
        pygame.draw.rect(surf, PANEL, (0, 0, SIZE[0], HEADER))
        draw.text(surf, self.title(enrolment), 48, TEXT, "midleft", (24, HEADER // 2), width=880)
        draw.text(surf, self.t("enrol_progress", done=enrolment.done, total=len(enrolment.targets)), 52, GOLD,
                  "midright", (SIZE[0] - 24, HEADER // 2), width=300)

    def _picture(self, surf: pygame.Surface, enrolment: Enrolment) -> None:
        tag = enrolment.target
        if tag.kind == "staff":
            self._badge_card(surf, PICTURE, self.t("enrol_staff_band"), tag.card.removeprefix("staff-"), GOLD)
        elif tag.kind == "player":
            self._badge_card(surf, PICTURE, self.t("enrol_player_band"), enrolment.player_name(tag.card)[:1], GREEN)
        else:
            self.faces.draw(surf, PICTURE, tag.card)
        if enrolment.retagging:
            draw.frame(surf, PICTURE.inflate(16, 16), GOLD, 6)

    def _badge_card(self, surf: pygame.Surface, rect: pygame.Rect, band_text: str, mark: str, colour) -> None:
        """A staff card or a player's card: a blue band saying which, and its number (or initial) in a disc."""
        radius = rect.w // 12
        pygame.draw.rect(surf, CARD, rect, border_radius=radius)
        band = pygame.Rect(rect.x, rect.y, rect.w, rect.h * 0.2)
        pygame.draw.rect(surf, BACK, band, border_top_left_radius=radius, border_top_right_radius=radius)
        draw.text(surf, band_text, round(rect.h * 0.12), TEXT, "center", band.center, width=rect.w - 16)
        draw.badge(surf, (rect.centerx, rect.y + rect.h * 0.58), round(rect.w * 0.3), mark, colour)
        pygame.draw.rect(surf, INK, rect, max(2, rect.w // 40), border_radius=radius)

    def _progress(self, surf: pygame.Surface, enrolment: Enrolment) -> None:
        done, total = enrolment.done, len(enrolment.targets)
        y = PICTURE.bottom + 22
        draw.text(surf, self.t.count("enrol_tagged", done, total=total), 34, TEXT, "topleft", (PICTURE.x, y),
                  width=PICTURE.w)
        bar = pygame.Rect(PICTURE.x, y + 44, PICTURE.w, 26)
        pygame.draw.rect(surf, PANEL, bar, border_radius=13)
        if done:
            pygame.draw.rect(surf, GREEN, (bar.x, bar.y, max(bar.h, bar.w * done // total), bar.h), border_radius=13)
        pygame.draw.rect(surf, MUTED, bar, 2, border_radius=13)

    def _target(self, surf: pygame.Surface, enrolment: Enrolment) -> None:
        t, tag = self.t, enrolment.target
        uid = enrolment.uid_of(tag)
        if enrolment.retagging:
            prompt, colour = t("enrol_retag_prompt"), GOLD
        elif enrolment.complete:
            prompt, colour = t("enrol_complete"), GREEN
        else:
            prompt, colour = t("enrol_next"), MUTED
        draw.text(surf, prompt, 36, colour, "topleft", RIGHT.topleft, width=RIGHT.w)
        draw.text(surf, self.name(tag, enrolment), 60, TEXT, "topleft", (RIGHT.x, RIGHT.y + 48), width=RIGHT.w)
        label = draw.tag(surf, tag.card, 32, (RIGHT.x, RIGHT.y + 138), INK, TEXT, "midleft")
        if uid is None:
            status = t("enrol_place")
        else:
            status = t("enrol_old_tag" if enrolment.retagging else "enrol_has_tag", uid=uid)
        draw.text(surf, status, 34, GOLD if uid is None or enrolment.retagging else MUTED, "midleft",
                  (label.right + 16, label.centery), width=RIGHT.right - label.right - 16)

    def _result(self, surf: pygame.Surface, enrolment: Enrolment) -> None:
        last = enrolment.last
        colour = PANEL if last is None else GREEN if last.accepted else RED
        pygame.draw.rect(surf, colour, RESULT, border_radius=14)
        ink = MUTED if last is None else draw.ink_on(colour)
        draw.text(surf, self.outcome_text(enrolment), 38, ink, "midleft", (RESULT.x + 24, RESULT.centery),
                  width=RESULT.w - 48, lines=2)

    def _grid(self, surf: pygame.Surface, enrolment: Enrolment) -> None:
        """Every card to tag, in order: cream with its shape once tagged, dark until then; the one shown framed."""
        n = len(enrolment.targets)
        rows = math.ceil(n / COLUMNS)
        gap = 8
        w = (GRID.w - (COLUMNS - 1) * gap) // COLUMNS
        h = min(48, (GRID.h - (rows - 1) * gap) // rows)
        for i, tag in enumerate(enrolment.targets):
            cell = pygame.Rect(GRID.x + i % COLUMNS * (w + gap), GRID.y + i // COLUMNS * (h + gap), w, h)
            tagged = enrolment.uid_of(tag) is not None
            pygame.draw.rect(surf, CARD if tagged else PANEL, cell, border_radius=6)
            centre = (cell.x + h * 0.45, cell.centery)
            if tag.kind == "card":
                self.faces.mark(surf, centre, h * 0.28, tag.card, tagged)
                short = tag.card
            else:   # a staff card (P1...) or the player's card (its initial)
                pygame.draw.circle(surf, GOLD if tag.kind == "staff" else GREEN, centre, h * 0.28)
                short = "P" + tag.card.removeprefix("staff-") if tag.kind == "staff" else enrolment.player_name(
                    tag.card)[:1]
            draw.text(surf, short, round(h * 0.5), INK if tagged else MUTED, "midleft", (cell.x + h * 0.85, cell.centery),
                      width=cell.right - round(cell.x + h * 0.85) - 2)
            if i == enrolment.cursor:
                draw.frame(surf, cell.inflate(6, 6), GOLD, 4)
            self.buttons[f"pick{i}"] = cell

    def _buttons(self, surf: pygame.Surface, enrolment: Enrolment) -> None:
        t = self.t
        retag = "enrol_retag_cancel" if enrolment.retagging else "enrol_retag"
        specs = (("back", "<", t("enrol_back"), 250), ("next", ">", t("enrol_forward"), 250),
                 ("retag", "R", t(retag), 430), ("quit", t("sim_key_esc"), t("enrol_quit"), 230))
        gap = (SIZE[0] - 80 - sum(w for *_, w in specs)) // (len(specs) - 1)
        x = 40
        for name, key, label, w in specs:
            rect = pygame.Rect(x, BUTTONS_Y, w, BUTTON_H)
            draw.button(surf, rect, label, key, 30)
            if name == "retag" and enrolment.retagging:
                draw.frame(surf, rect.inflate(8, 8), GOLD, 4)
            self.buttons[name] = rect
            x += w + gap
