"""How Chevaux's cards look: the rarity dot's colour, the breed's name and its characteristics.

A whole card is drawn only where its holder sees it (the simulated window's
hands, enrolment). The table's screen never draws a card's face: a revealed
card shows only its rarity (`back`: a face-down card with its rarity dot) and
its value on the current characteristic (`value_text`).
"""
from __future__ import annotations

import pygame

from table.screen import draw, faces
from table.screen.draw import BACK, INK, TEXT, card_blank, card_edge, chip_blank, chip_edge, ink_on, text
from table.games.chevaux.view import value_text
from table.screen.i18n import Translator

NAMESPACE = "chevaux"


DOT_R = 18   # the smallest rarity dot: its number is drawn at the legible size (docs/screen.md)

class Faces(faces.Faces):
    """The breeds of the deck: each card's name in the language, rarity and values."""

    CHIP_RATIO = 4.2

    def __init__(self, data: dict, lang: str) -> None:
        super().__init__(data, lang)
        self.t = Translator(lang, NAMESPACE)
        self.traits = data["traits"]
        self.rows = {row["id"]: row for row in data["cards"]}
        self.colours = [tuple(pygame.Color(c))[:3] for c in data["looks"]["rarity"]]

    def rarity_colour(self, rarity: int) -> tuple[int, int, int]:
        """The dot colour of rarity 1-4 (green, yellow, orange, red)."""
        return self.colours[rarity - 1]

    def colour(self, card: str) -> tuple[int, int, int]:
        return self.rarity_colour(self.rows[card]["rarity"])

    def name(self, card: str, t) -> str:
        """The breed in this language (the card id itself when the deck does not know it)."""
        row = self.rows.get(card)
        return card if row is None else row.get(self.lang, row["en"])

    def dot(self, surf: pygame.Surface, centre, r: float, rarity: int) -> None:
        """The rarity dot, outlined, with its number for those who do not tell the colours apart."""
        colour = self.rarity_colour(rarity)
        pygame.draw.circle(surf, colour, centre, r)
        pygame.draw.circle(surf, INK, centre, r, max(2, round(r / 7)))
        text(surf, str(rarity), round(r * 1.4), ink_on(colour), "center", (centre[0], centre[1] + r * 0.06))

    def back(self, surf: pygame.Surface, rect: pygame.Rect, rarity: int | None) -> None:
        """A revealed card as the public sees it: face down, with its rarity dot in the corner (None: no card)."""
        if rarity is None:
            draw.back(surf, rect, False)
            return
        draw.back(surf, rect, True)
        r = max(min(rect.w, rect.h) * 0.24, DOT_R)   # on a small card the dot covers its corner: it is what shows
        self.dot(surf, (rect.x + r * 1.15, rect.y + r * 1.15), r, rarity)

    def card(self, surf: pygame.Surface, rect: pygame.Rect, card: str) -> None:
        """A whole card: the rarity dot and the breed's name, then one line per characteristic."""
        row = self.rows[card]
        w, h = rect.size
        band = card_blank(surf, rect, BACK, 0.24)
        r = band.h * 0.3
        self.dot(surf, (band.x + r * 1.3, band.centery), r, row["rarity"])
        text(surf, self.name(card, self.t), round(h * 0.12), TEXT, "midleft", (band.x + r * 2.7, band.centery),
             width=round(w - r * 2.7 - 6), lines=2)
        line = (h - band.h) / (len(self.traits) + 0.5)
        for i, trait in enumerate(self.traits):
            y = band.bottom + line * (i + 0.75)
            text(surf, self.t(f"trait_{trait['key']}"), round(line * 0.36), INK, "midleft", (rect.x + w * 0.06, y),
                 width=round(w * 0.5))
            text(surf, value_text(self.t, trait["unit"], row[trait["key"]]), round(line * 0.48), INK, "midright",
                 (rect.right - w * 0.06, y), width=round(w * 0.44))
        card_edge(surf, rect)

    def chip(self, surf: pygame.Surface, rect: pygame.Rect, card: str) -> None:
        """A card in a list: the rarity dot and the breed's name."""
        row = self.rows[card]
        h = rect.h
        chip_blank(surf, rect)
        self.dot(surf, (rect.x + h * 0.5, rect.centery), h * 0.34, row["rarity"])
        text(surf, self.name(card, self.t), round(h * 0.6), INK, "midleft", (rect.x + h, rect.centery + h * 0.04),
             width=round(rect.w - h * 1.1))
        chip_edge(surf, rect)
