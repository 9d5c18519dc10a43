"""How Festival's cards look: the profession's colour band and shape, the number, one star or two."""
from __future__ import annotations

from dataclasses import dataclass

import pygame

from table.screen import faces
from table.screen.draw import (
    INK, LEGIBLE, MUTED, PANEL_HI, card_blank, card_edge, chip_blank, chip_edge, ink_on, shape, star, text)


@dataclass(frozen=True, slots=True)
class Face:
    """What a card shows: its profession (name, colour, shape), number and stars."""

    profession: str
    name: str
    colour: tuple[int, int, int]
    shape: str
    number: int
    stars: int


class Faces(faces.Faces):
    """Every profession shown by colour AND shape; `face(card)` tells its number and stars."""

    CHIP_RATIO = 1.9

    def __init__(self, data: dict, lang: str) -> None:
        super().__init__(data, lang)
        self.professions = {name: (p[lang], tuple(pygame.Color(p["colour"]))[:3], p["shape"])
                            for name, p in data["professions"].items()}
        self.faces = {row["id"]: Face(row["profession"], *self.professions[row["profession"]], int(row["number"]),
                                      int(row["stars"])) for row in data["cards"]}

    def face(self, card: str) -> Face:
        return self.faces[card]

    def colour(self, card: str) -> tuple[int, int, int]:
        return self.faces[card].colour

    def profession_name(self, profession: str) -> str:
        return self.professions[profession][0]

    def emblem(self, surf: pygame.Surface, profession: str, centre, r: float, lit: bool = True) -> None:
        """A profession's shape in its colour (grey when not `lit`)."""
        _, colour, kind = self.professions[profession]
        shape(surf, kind, colour if lit else PANEL_HI, centre, r, INK if lit else MUTED)

    def mark(self, surf: pygame.Surface, centre, r: float, card: str, lit: bool = True) -> None:
        """The card's profession shape, in its colour (grey when not `lit`)."""
        self.emblem(surf, self.faces[card].profession, centre, r, lit)

    def name(self, card: str, t) -> str:
        """'Ménestrel 3' ('Clown 9, 2 étoiles'); the card id itself when the deck does not know it."""
        face = self.faces.get(card)
        if face is None:
            return card
        return t("card_name_two_stars" if face.stars == 2 else "card_name", profession=face.name,
                 number=face.number)

    def card(self, surf: pygame.Surface, rect: pygame.Rect, card: str) -> None:
        """A whole card: the profession's band and name, its shape, the number big, its stars."""
        face = self.faces[card]
        w, h = rect.size
        band = card_blank(surf, rect, face.colour, 0.2)
        text(surf, face.name, round(h * 0.14), ink_on(face.colour), "center", band.center, width=w - 8)
        shape(surf, face.shape, face.colour, (rect.x + w * 0.24, rect.y + h * 0.34), h * 0.08)
        text(surf, str(face.number), round(h * 0.48), INK, "center", (rect.centerx, rect.y + h * 0.56))
        spacing = w * 0.26
        for i in range(face.stars):
            star(surf, (rect.centerx + (i - (face.stars - 1) / 2) * spacing, rect.y + h * 0.87), h * 0.08)
        card_edge(surf, rect)

    def tab(self, surf: pygame.Surface, rect: pygame.Rect, card: str) -> None:
        """A card in its profession's column: the number on the profession's colour, two small stars under it
        for a two-star card."""
        face = self.faces[card]
        h = rect.h
        radius = max(3, rect.w // 6)
        pygame.draw.rect(surf, face.colour, rect, border_radius=radius)
        ink = ink_on(face.colour)
        two = face.stars == 2
        text(surf, str(face.number), max(LEGIBLE, round(h * 0.7)), ink, "center",
             (rect.centerx, rect.y + h * (0.4 if two else 0.52)))
        if two:
            for dx in (-0.22, 0.22):
                star(surf, (rect.centerx + dx * rect.w, rect.y + h * 0.8), h * 0.11)
        pygame.draw.rect(surf, INK, rect, 2, border_radius=radius)

    def chip(self, surf: pygame.Surface, rect: pygame.Rect, card: str) -> None:
        """A card in a list: the profession's stripe and shape, the number, a star per star."""
        face = self.faces[card]
        h = rect.h
        chip_blank(surf, rect, face.colour, 0.5)
        shape(surf, face.shape, face.colour, (rect.x + h * 0.25, rect.centery), h * 0.2, ink_on(face.colour))
        number = text(surf, str(face.number), round(h * 0.8), INK, "midleft", (rect.x + h * 0.6, rect.centery + h * 0.04))
        for i in range(face.stars):
            star(surf, (number.right + h * 0.2, rect.y + h * (0.3 + 0.4 * i if face.stars == 2 else 0.5)), h * 0.16)
        chip_edge(surf, rect)
