"""How Feira Torio's cards look: category band and shape, fingers (bid points) and stars."""
from __future__ import annotations

from dataclasses import dataclass

import pygame

from table.screen import faces
from table.screen.draw import (
    CARD, INK, LEGIBLE, MUTED, PANEL_HI, card_blank, card_edge, chip_blank, chip_edge, ink_on, shape, star, text)


@dataclass(frozen=True, slots=True)
class Face:
    """What a card shows: its category (name, colour, shape), fingers (bid points) and stars."""

    name: str
    colour: tuple[int, int, int]
    shape: str
    fingers: int
    stars: int


class Faces(faces.Faces):
    """Every category shown by colour AND shape; `face(card)` tells its fingers and stars."""

    def __init__(self, data: dict, lang: str) -> None:
        super().__init__(data, lang)
        looks = {name: (c[lang], tuple(pygame.Color(c["colour"]))[:3], c["shape"])
                 for name, c in data["categories"].items()}
        self.faces = {row["id"]: Face(*looks[row["category"]], row["fingers"], row["stars"]) for row in data["cards"]}

    def face(self, card: str) -> Face:
        return self.faces[card]

    def mark(self, surf: pygame.Surface, centre, r: float, card: str, lit: bool = True) -> None:
        """The card's category shape, in its colour (grey when not `lit`)."""
        face = self.faces[card]
        shape(surf, face.shape, face.colour if lit else PANEL_HI, centre, r, INK if lit else MUTED)

    def name(self, card: str, t) -> str:
        """'Taureau 2 doigts, 3 étoiles' (the card id itself when the deck does not know it)."""
        face = self.faces.get(card)
        if face is None:
            return card
        return t("card_name", category=face.name, fingers=t.count("fingers", face.fingers),
                 stars=t.count("stars", face.stars))

    def card(self, surf: pygame.Surface, rect: pygame.Rect, card: str) -> None:
        """A face-up card: category band and name, big shape, fingers (hand + number), one star per star."""
        face = self.faces[card]
        w, h = rect.size
        band = card_blank(surf, rect, face.colour, 0.2)
        text(surf, face.name, max(LEGIBLE, round(h * 0.15)), ink_on(face.colour), "center", band.center, width=w - 8)
        shape(surf, face.shape, face.colour, (rect.centerx, rect.y + h * 0.39), h * 0.13)
        hand(surf, pygame.Rect(rect.x + w * 0.2, rect.y + h * 0.58, h * 0.14, h * 0.2))
        text(surf, str(face.fingers), round(h * 0.34), INK, "midleft", (rect.x + w * 0.42, rect.y + h * 0.69))
        spacing = w * 0.22
        for i in range(face.stars):
            star(surf, (rect.centerx + (i - (face.stars - 1) / 2) * spacing, rect.y + h * 0.88), h * 0.075)
        card_edge(surf, rect)

    def chip(self, surf: pygame.Surface, rect: pygame.Rect, card: str) -> None:
        """A card in a list: colour stripe and shape, fingers (hand + number), stars (star + number)."""
        face = self.faces[card]
        h = rect.h
        chip_blank(surf, rect, face.colour, 0.16)
        shape(surf, face.shape, face.colour, (rect.x + h * 0.62, rect.centery), h * 0.3)
        x = rect.x + h * 1.05
        hand(surf, pygame.Rect(x, rect.y + h * 0.22, h * 0.32, h * 0.5))
        number = text(surf, str(face.fingers), round(h * 0.8), INK, "midleft", (x + h * 0.36, rect.centery + h * 0.04))
        star(surf, (number.right + h * 0.3, rect.centery), h * 0.22)
        text(surf, str(face.stars), max(LEGIBLE, round(h * 0.6)), INK, "midleft",
             (number.right + h * 0.55, rect.centery + h * 0.04))
        chip_edge(surf, rect)


def hand(surf: pygame.Surface, rect: pygame.Rect, colour=INK) -> None:
    """A raised index finger (the mark of a card's fingers, its bid points), fitted in `rect`."""
    w, h = rect.w, rect.h
    fist = pygame.Rect(rect.x, rect.y + h * 0.45, w, h * 0.55)
    pygame.draw.rect(surf, colour, fist, border_radius=round(w * 0.22))
    pygame.draw.rect(surf, colour, (rect.x + w * 0.08, rect.y, w * 0.3, h * 0.7), border_radius=round(w * 0.15))
    for i in (1, 2):
        x = rect.x + w * (0.38 + 0.2 * i)
        pygame.draw.line(surf, CARD, (x, fist.y), (x, fist.y + h * 0.18), max(1, round(w / 14)))
