"""Card faces: how a deck's cards look on screen, in the simulated window and at enrolment.

`Faces` is what every game's faces give the screen (built from the deck's
data file and a language): a card's name in words, and the card drawn as a
full card ("card") or as a small chip in a list ("chip"). `RankFaces` is the
data-driven default for ranked decks (a colour per rank from the deck file,
the big rank, its pips): a deck like the Pairs deck needs no face code.
"""
from __future__ import annotations

import pygame

from table.screen import draw
from table.screen.draw import CARD, INK


class Faces:
    """The faces of one deck in one language; subclasses draw their own cards."""

    CHIP_RATIO = 2.85   # a chip is this many times as wide as it is high

    def __init__(self, data: dict, lang: str) -> None:
        self.data = data
        self.lang = lang
        self.cards = [row["id"] for row in data["cards"]]

    def name(self, card: str, t) -> str:
        """The card in words (the card id itself by default)."""
        return card

    def draw(self, surf: pygame.Surface, rect: pygame.Rect, card: str, style: str = "card",
             dim: bool = False) -> None:
        """The card in `rect`: a whole card, or a chip (`style` "chip"); veiled when `dim`."""
        (self.chip if style == "chip" else self.card)(surf, rect, card)
        if dim:
            draw.dim(surf, rect)

    def mark(self, surf: pygame.Surface, centre, r: float, card: str, lit: bool = True) -> None:
        """A small mark of the card (a disc in its colour; grey when not `lit`), for grids of cards."""
        pygame.draw.circle(surf, self.colour(card) if lit else draw.PANEL_HI, centre, r)
        pygame.draw.circle(surf, INK if lit else draw.MUTED, centre, r, max(2, round(r / 9)))

    def colour(self, card: str) -> tuple[int, int, int]:
        return draw.MUTED

    def chip_width(self, h: int) -> int:
        """The width of a chip `h` pixels high."""
        return round(h * self.CHIP_RATIO)

    def card(self, surf: pygame.Surface, rect: pygame.Rect, card: str) -> None:
        _blank(surf, rect)
        draw.text(surf, card, round(rect.h * 0.2), INK, "center", rect.center, width=rect.w - 8)

    def chip(self, surf: pygame.Surface, rect: pygame.Rect, card: str) -> None:
        _blank(surf, rect)
        draw.text(surf, card, round(rect.h * 0.6), INK, "center", rect.center, width=rect.w - 8)


class RankFaces(Faces):
    """Ranked cards (`rank` per card; `[looks] colours`, one per rank, in the deck file): the rank, big,
    on a band of its colour, with one pip per rank so that ranks read by count as well as by number."""

    CHIP_RATIO = 1.5

    def __init__(self, data: dict, lang: str) -> None:
        super().__init__(data, lang)
        self.ranks = {row["id"]: int(row["rank"]) for row in data["cards"]}
        colours = data.get("looks", {}).get("colours", [])
        self.colours = {rank: tuple(pygame.Color(colours[rank - 1]))[:3] if rank <= len(colours) else draw.MUTED
                        for rank in set(self.ranks.values())}

    def colour(self, card: str) -> tuple[int, int, int]:
        return self.colours[self.ranks[card]]

    def of_rank(self, rank: int) -> str:
        """A card of `rank` (every copy of a rank looks the same), to draw a rank given without its card."""
        return min(card for card, r in self.ranks.items() if r == rank)

    def name(self, card: str, t) -> str:
        rank = self.ranks.get(card)
        return card if rank is None else t("card_rank", rank=rank)

    def card(self, surf: pygame.Surface, rect: pygame.Rect, card: str) -> None:
        rank = self.ranks[card]
        colour = self.colours[rank]
        w, h = rect.size
        draw.card_blank(surf, rect, colour, 0.16)
        draw.text(surf, str(rank), round(h * 0.55), INK, "center", (rect.centerx, rect.y + h * 0.5))
        pip = max(3, round(h * 0.035))
        per_row = 5
        for i in range(rank):
            row, col = divmod(i, per_row)
            in_row = min(per_row, rank - row * per_row)
            x = rect.centerx + (col - (in_row - 1) / 2) * pip * 3
            y = rect.y + h * 0.8 + row * pip * 2.6
            pygame.draw.circle(surf, colour, (x, y), pip)
            pygame.draw.circle(surf, INK, (x, y), pip, 1)
        draw.card_edge(surf, rect)

    def chip(self, surf: pygame.Surface, rect: pygame.Rect, card: str) -> None:
        rank = self.ranks[card]
        h = rect.h
        draw.chip_blank(surf, rect, self.colours[rank], 0.22)
        draw.text(surf, str(rank), round(h * 0.8), INK, "center", (rect.x + h * 0.22 + (rect.w - h * 0.22) / 2,
                                                                  rect.centery + h * 0.04))
        draw.chip_edge(surf, rect)


def _blank(surf: pygame.Surface, rect: pygame.Rect) -> None:
    pygame.draw.rect(surf, CARD, rect, border_radius=max(3, rect.h // 8))
    pygame.draw.rect(surf, INK, rect, 2, border_radius=max(3, rect.h // 8))
