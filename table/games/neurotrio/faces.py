"""How Neurotrio's deck looks: the 54 cards, the 10 base cards and the 8 token sets.

A card is its background's colour (from the deck file) with its nature drawn
as a shape (heart, star, rose, each in a colour of its own) repeated
`strength` times and the strength as a number in the corner: nature reads by
shape, strength by count and number, background by colour and in words in
its name. A base card is its value, big, on a plain light card. A token's
face (enrolment) is a disc of its set's back colour with the set number and
its kind (0, 1, 2, nature, background, strength). The public screen never
knows a bid's token before the end: it draws a neutral back (`token_back`),
and at the end its kind alone (`kind_tag`).
"""
from __future__ import annotations

import math

import pygame

from table.screen import draw, faces
from table.screen.draw import CARD, INK, TEXT, text
from table.screen.i18n import Translator

NAMESPACE = "neurotrio"
SHAPES = {"heart": (225, 55, 70), "star": (255, 205, 50), "rose": (245, 150, 210)}   # each nature's colour
EDGE = CARD                                        # outlines on the dark backgrounds
NEUTRAL = (120, 126, 142)                          # a hidden token's back
# Where the shapes of a card of strength 1, 2, 3 lie (fractions of its width and height), and their radius
# (fraction of its width): on a diagonal like a die's, clear of the number in the top-left corner.
LAYOUT = {1: (((0.55, 0.57),), 0.3), 2: (((0.66, 0.35), (0.36, 0.76)), 0.22),
          3: (((0.72, 0.27), (0.5, 0.54), (0.28, 0.81)), 0.18)}


def nature_shape(surf: pygame.Surface, nature: str, centre, r: float) -> None:
    """A nature's shape (heart, star, rose) of radius `r`, in its colour, outlined in cream."""
    if nature == "star":
        draw.star(surf, centre, r * 1.15, SHAPES[nature], EDGE)
        return
    _silhouette(surf, nature, centre, r + max(1.5, r / 7), EDGE)
    _silhouette(surf, nature, centre, r, SHAPES[nature])
    if nature == "rose":
        pygame.draw.circle(surf, EDGE, centre, r * 0.3)


def _silhouette(surf: pygame.Surface, nature: str, centre, r: float, colour) -> None:
    """A heart or a rose filled in one colour (drawn twice, larger in the outline colour, to outline it)."""
    cx, cy = centre
    if nature == "heart":
        for dx in (-0.48, 0.48):
            pygame.draw.circle(surf, colour, (cx + dx * r, cy - 0.3 * r), 0.55 * r)
        pygame.draw.polygon(surf, colour, [(cx - 1.0 * r, cy - 0.15 * r), (cx + 1.0 * r, cy - 0.15 * r),
                                           (cx, cy + 0.95 * r)])
        return
    for k in range(5):                                  # a rose: five petals round a heart
        a = k * 2 * math.pi / 5 - math.pi / 2
        pygame.draw.circle(surf, colour, (cx + 0.5 * r * math.cos(a), cy + 0.5 * r * math.sin(a)), 0.5 * r)


class Faces(faces.Faces):
    """The cards, bases and tokens of the deck file; `attributes(card)` tells a card's strength, nature and
    background."""

    CHIP_RATIO = 2.85

    def __init__(self, data: dict, lang: str) -> None:
        super().__init__(data, lang)
        self.t = Translator(lang, NAMESPACE)
        self.rows = {row["id"]: (int(row["strength"]), row["nature"], row["background"]) for row in data["cards"]}
        self.backgrounds = {name: tuple(pygame.Color(b["colour"]))[:3] for name, b in data["backgrounds"].items()}
        self.background_names = data["backgrounds"]
        self.bases = {row["id"]: int(row["value"]) for row in data["bases"]}
        self.tokens = {row["id"]: (int(row["set"]), str(row["kind"])) for row in data["tokens"]}
        self.token_backs = [tuple(pygame.Color(c))[:3] for c in data["looks"]["token_backs"]]

    def attributes(self, card: str) -> tuple[int, str, str]:
        """A card's strength, nature and background."""
        return self.rows[card]

    def colour(self, card: str) -> tuple[int, int, int]:
        if card in self.rows:
            return self.backgrounds[self.rows[card][2]]
        if card in self.tokens:
            return self.token_backs[self.tokens[card][0] - 1]
        return CARD

    def name(self, card: str, t) -> str:
        """'2 étoiles, fond vert', 'base 7', 'jeton 3 : nature'; the id itself for an item the deck lacks."""
        if card in self.rows:
            strength, nature, background = self.rows[card]
            names = self.background_names[background]
            return t("card_name", nature=t.count(f"nature_{nature}", strength),
                     background=names.get(t.lang, names["fr"]))
        if card in self.bases:
            return t("base_name", value=self.bases[card])
        if card in self.tokens:
            number, kind = self.tokens[card]
            return t("token_name", set=number, kind=t(f"kind_{kind}"))
        return card

    def mark(self, surf: pygame.Surface, centre, r: float, card: str, lit: bool = True) -> None:
        """A card's nature shape on a disc of its background; a base or token as a disc of its colour."""
        super().mark(surf, centre, r, card, lit)
        if card in self.rows and lit:
            nature_shape(surf, self.rows[card][1], centre, r * 0.6)

    # ------------------------------------------------------------ whole items

    def card(self, surf: pygame.Surface, rect: pygame.Rect, card: str) -> None:
        if card in self.bases:
            self.base(surf, rect, self.bases[card])
        elif card in self.tokens:
            self.token(surf, rect, card)
        else:
            self.playing_card(surf, rect, card)

    def playing_card(self, surf: pygame.Surface, rect: pygame.Rect, card: str) -> None:
        """A playing card: its background, the strength in the corner, the nature's shape `strength` times."""
        strength, nature, background = self.rows[card]
        w, h = rect.size
        radius = max(3, w // 9)
        pygame.draw.rect(surf, self.backgrounds[background], rect, border_radius=radius)
        text(surf, str(strength), max(draw.LEGIBLE, round(h * 0.34)), TEXT, "center",
             (rect.x + w * 0.2, rect.y + h * 0.16))
        spots, r = LAYOUT[strength]
        for fx, fy in spots:
            nature_shape(surf, nature, (rect.x + w * fx, rect.y + h * fy), w * r)
        pygame.draw.rect(surf, EDGE, rect, max(2, w // 30), border_radius=radius)

    def base(self, surf: pygame.Surface, rect: pygame.Rect, value: int) -> None:
        """A base card: its value, big, on a plain light card."""
        w, h = rect.size
        radius = max(3, w // 9)
        pygame.draw.rect(surf, CARD, rect, border_radius=radius)
        digits = len(str(value))
        text(surf, str(value), max(draw.LEGIBLE, round(min(h * 0.8, w * 1.3 / digits ** 0.7))), INK, "center",
             (rect.centerx, rect.centery + h * 0.03), width=w - 4)
        pygame.draw.rect(surf, INK, rect, max(2, w // 30), border_radius=radius)

    def token_back(self, surf: pygame.Surface, rect: pygame.Rect) -> None:
        """A token face down as the public sees it: a neutral back (its set is not public before the end)."""
        self._disc(surf, rect, None)
        pygame.draw.circle(surf, INK, rect.center, min(rect.w, rect.h) * 0.41, 1)

    def token(self, surf: pygame.Surface, rect: pygame.Rect, token: str) -> None:
        """A token's face, as enrolment shows it: its kind on a light disc, round it its set's back colour, the set
        number on top."""
        number, kind = self.tokens[token]
        colour = self._disc(surf, rect, number)
        r = min(rect.w, rect.h) / 2
        cx, cy = rect.center
        pygame.draw.circle(surf, CARD, (cx, cy + r * 0.12), r * 0.62)
        label = self.t(f"kind_{kind}")
        text(surf, label, round(r * (0.9 if len(label) == 1 else 0.36)), INK, "center", (cx, cy + r * 0.14),
             width=round(r * 1.15))
        text(surf, str(number), round(r * 0.34), draw.ink_on(colour), "center", (cx, cy - r * 0.74))

    def kind_tag(self, surf: pygame.Surface, rect: pygame.Rect, kind: str) -> pygame.Rect:
        """A bid's token as the end shows it: its kind on a light pill ringed with a neutral back (its set is
        not public), in `rect` made as wide as its kind needs to be legible; returns the pill."""
        label = self.t(f"kind_{kind}")
        rect = pygame.Rect(rect.x, rect.y, max(rect.w, draw.font(draw.LEGIBLE).size(label)[0] + rect.h // 2 + 8), rect.h)
        radius = rect.h // 2
        pygame.draw.rect(surf, NEUTRAL, rect, border_radius=radius)
        inner = rect.inflate(-rect.h // 5, -rect.h // 5)
        pygame.draw.rect(surf, CARD, inner, border_radius=inner.h // 2)
        pygame.draw.rect(surf, INK, rect, 2, border_radius=radius)
        text(surf, label, max(draw.LEGIBLE, round(inner.h * 0.95)), INK, "center", inner.center, width=inner.w - 8)
        return rect

    def _disc(self, surf: pygame.Surface, rect: pygame.Rect, number: int | None) -> tuple[int, int, int]:
        """A token's disc in set `number`'s back colour (None: neutral), outlined; returns the colour."""
        r = min(rect.w, rect.h) / 2
        colour = NEUTRAL if number is None else self.token_backs[number - 1]
        pygame.draw.circle(surf, colour, rect.center, r)
        pygame.draw.circle(surf, INK, rect.center, r, max(2, round(r / 12)))
        return colour

    # ------------------------------------------------------------ chips

    def chip(self, surf: pygame.Surface, rect: pygame.Rect, card: str) -> None:
        """A card in a list: its background, the strength, the nature's shape `strength` times; a base or a
        token as a pill with its value, or its set and kind."""
        h = rect.h
        radius = h // 5
        if card in self.rows:
            strength, nature, background = self.rows[card]
            pygame.draw.rect(surf, self.backgrounds[background], rect, border_radius=radius)
            text(surf, str(strength), round(h * 0.8), TEXT, "center", (rect.x + h * 0.4, rect.centery + h * 0.04))
            for i in range(strength):
                nature_shape(surf, nature, (rect.x + h * (1.08 + 0.68 * i), rect.centery), h * 0.28)
            pygame.draw.rect(surf, EDGE, rect, 2, border_radius=radius)
            return
        if card in self.tokens:
            number, kind = self.tokens[card]
            colour, label = self.token_backs[number - 1], f"{number} · {self.t(f'kind_{kind}')}"
        else:
            colour, label = CARD, str(self.bases.get(card, card))
        pygame.draw.rect(surf, colour, rect, border_radius=radius)
        text(surf, label, round(h * 0.7), draw.ink_on(colour), "center", rect.center, width=rect.w - 8)
        pygame.draw.rect(surf, INK, rect, 2, border_radius=radius)
