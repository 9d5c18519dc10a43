"""Chevaux's screen pages, drawn only from the public view: the table (each seat's stack count and revealed card
as a back with its rarity dot, the characteristic table with the current line marked and its values, who chose
and switched, the tie-break, the seat prompt) and a round's result (the values, the best framed, the
tie-break, the winner and the cards taken). The lobby, banners, clock and game-over page are the shared
screen's (table/screen/screen.py, canvas.py).

A revealed card shows only its rarity and its value on the current characteristic (TABLE-PROTOCOLS 2.3):
never its name nor its other values.
"""
from __future__ import annotations

import pygame

from table.games.chevaux.faces import DOT_R
from table.games.chevaux.rules import ALL_CARDS
from table.games.chevaux.view import (best, chain_text, instruction, is_out, pages, redraws, result_lines,
                                      table_note, value_of)
from table.screen import draw
from table.screen.canvas import HEADER, PROMPT, Canvas, across
from table.screen.draw import GOLD, INK, MUTED, PANEL, PANEL_HI, SIZE, TEXT

__all__ = ["draw_page", "pages", "subtitle"]   # what the screen asks of a game's page

LABEL_X, LABEL_W = 16, 250                  # the characteristic names, left of the seat columns
SEATS_X = LABEL_X + LABEL_W + 8             # the seat columns, up to the right edge
SEATS_W = SIZE[0] - 16 - SEATS_X
COLUMN_MAX = 220                            # a seat column's widest (few players)
SEAT_TOP, SEAT_H = HEADER + 8, 222          # a seat's panel: badge, count, status, its card(s)
TRAITS_TOP, TRAIT_H = SEAT_TOP + SEAT_H + 10, 62   # one row per characteristic
CARD = (62, 86)                             # a revealed card, face down, with its rarity dot
REDRAW = (36, 50)                           # a re-drawn card
NOTE_Y = SIZE[1] - PROMPT - 92              # the tie-break / deal / time-up line
PROMPT_Y = SIZE[1] - PROMPT - 36            # the seat prompt's options


def draw_page(c: Canvas, page: str, step: int | None) -> None:
    """Draw one of this game's pages."""
    {"table": _table, "result": _result}[page](c)


def subtitle(c: Canvas) -> str:
    """The game-over page's header right text: why the game ended."""
    return c.t("ended_all_cards" if c.view["ended"] == ALL_CARDS else "ended_time")


# ------------------------------------------------------------ geometry


def column(players: int, p: int) -> pygame.Rect:
    """Player `p`'s column (its seat panel and its cells in the characteristic table), full height."""
    return across(players, COLUMN_MAX, SEAT_TOP, TRAITS_TOP, 0, SEATS_X, SEATS_X + SEATS_W)[p]


# ------------------------------------------------------------ the board (table and result pages)


def _board(c: Canvas, board: dict, counts: list[int], winner: int | None = None) -> None:
    """The seat panels (count, status, the card as a back with its rarity dot, re-draws) and the characteristic
    table for `board` (the round in progress, or a finished one)."""
    view = c.view
    _rarities(c)
    for p in range(view["players"]):
        _seat(c, board, counts, p, winner)
    top = best(view, board)
    for k, trait in enumerate(view["traits"]):
        _trait(c, board, k, trait, top)


def _rarities(c: Canvas) -> None:
    """The rarity dots' legend, above the characteristic names."""
    box = pygame.Rect(LABEL_X, SEAT_TOP, LABEL_W, SEAT_H)
    pygame.draw.rect(c.surf, PANEL, box, border_radius=12)
    draw.text(c.surf, c.t("rarity"), 30, GOLD, "topleft", (box.x + 12, box.y + 10), width=box.w - 24)
    for r in range(1, 5):
        y = box.y + 30 + r * 42
        c.faces.dot(c.surf, (box.x + 30, y), DOT_R, r)
        draw.text(c.surf, c.t(f"rarity_{r}"), 28, TEXT, "midleft", (box.x + 56, y), width=box.w - 66)


def _seat(c: Canvas, board: dict, counts: list[int], p: int, winner: int | None) -> None:
    t, view, surf = c.t, c.view, c.surf
    rect = column(view["players"], p).inflate(-6, 0)
    rect.h = SEAT_H
    shown = board["seats"][p]
    out = is_out(board, counts, p, winner)
    pygame.draw.rect(surf, PANEL_HI if p == view["at"] else PANEL, rect, border_radius=12)
    r = min(24, rect.w // 6)
    c.seat_badge((rect.x + 8 + r, rect.y + 10 + r), r, p)
    if rect.w >= 180:                       # narrower, the badge alone names the seat
        draw.text(surf, t("seat", seat=c.seat(p)), 30, TEXT, "midleft", (rect.x + 16 + 2 * r, rect.y + 10 + r),
                  width=rect.w - 24 - 2 * r)
    draw.text(surf, t.count("cards", counts[p]), 34, MUTED if out else TEXT, "midtop",
              (rect.centerx, rect.y + 20 + 2 * r), width=rect.w - 12)
    status = "out" if out else "leader" if p == board["leader"] else None
    if status:
        draw.tag(surf, t(status), 24, (rect.centerx, rect.y + 104), INK, MUTED if out else GOLD, "midtop", rect.w - 12)
    if shown["playing"]:
        card = pygame.Rect((0, 0), CARD)
        card.midbottom = (rect.centerx - (REDRAW[0] // 2 if redraws(board, p) else 0), rect.bottom - 8)
        c.faces.back(surf, card, shown["rarity"])
        for i, rarity in enumerate(redraws(board, p)):
            small = pygame.Rect(card.right + 4 + i * 10, card.bottom - REDRAW[1] - i * 6, *REDRAW)
            c.faces.back(surf, small, rarity)
    if p == winner:
        draw.frame(surf, rect.inflate(6, 6))
        draw.crown(surf, (rect.centerx, rect.y - 2), 14)
    elif out:
        draw.dim(surf, rect)


def _trait(c: Canvas, board: dict, k: int, trait: dict, top: list[int]) -> None:
    """A characteristic's row: its name and which way wins, who chose it; on the current one, every revealed
    card's value, the best in gold."""
    t, view, surf = c.t, c.view, c.surf
    row = pygame.Rect(LABEL_X, TRAITS_TOP + k * TRAIT_H, SIZE[0] - 2 * LABEL_X, TRAIT_H - 6)
    current = trait["key"] == board["trait"]
    pygame.draw.rect(surf, PANEL_HI if current else PANEL, row, border_radius=10)
    draw.text(surf, t(f"trait_{trait['key']}"), 32, GOLD if current else TEXT, "topleft", (row.x + 12, row.y + 4),
              width=LABEL_W - 16)
    note = chain_text(t, c.table, board, trait["key"]) or t(f"trait_{trait['key']}_wins")
    draw.text(surf, note, draw.LEGIBLE, TEXT if current else MUTED, "bottomleft", (row.x + 12, row.bottom - 5),
              width=LABEL_W - 16)
    if not current:
        return
    draw.frame(surf, row, GOLD, 4)
    for p in range(view["players"]):
        cell = column(view["players"], p)
        label = value_of(t, view, board, p)
        if not label:
            continue
        if p in top:
            box = pygame.Rect(cell.x + 4, row.y + 5, cell.w - 8, row.h - 10)
            pygame.draw.rect(surf, GOLD, box, border_radius=10)
            draw.crown(surf, (box.x + 10, box.y + 4), 8)
        draw.text(surf, label, 32, INK if p in top else TEXT, "center", (cell.centerx, row.centery),
                  width=cell.w - 14, lines=2)


# ------------------------------------------------------------ table


def _table(c: Canvas) -> None:
    """The round in progress: the board, the tie-break or what to know now, the seat prompt, what to do."""
    t, view = c.t, c.view
    c.header(t("game_name"), t("round", round=view["round"]))
    _board(c, view["current"], view["totals"])
    note = table_note(t, c.table)
    if note:
        c.line(note, NOTE_Y, 32, GOLD, 2)
    prompt = c.table.get("prompt")
    if prompt:
        seat = c.seat(prompt["player"])
        label = draw.text(c.surf, t("prompt_seat", seat=seat), 32, TEXT, "midleft", (LABEL_X + 12, PROMPT_Y))
        c.seat_prompt(prompt["player"], pygame.Rect(label.right + 14, PROMPT_Y - 20, 0, 40), 32)
    c.prompt_bar(instruction(t, c.table))


# ------------------------------------------------------------ result


def _result(c: Canvas) -> None:
    """The round just decided: its values on the final characteristic, the best framed, the tie-break, the
    winner and the cards it takes, who is out."""
    t, view = c.t, c.view
    result = view["last_round"]
    c.header(t("result_title", round=result["round"]), t(f"trait_{result['trait']}"), "")
    _board(c, result, result["counts"], result["winner"])
    headline, details, bar = result_lines(t, c.table)
    c.line(headline, NOTE_Y - 12, 40, GOLD)
    c.line(details, NOTE_Y + 32, draw.LEGIBLE, lines=3)
    c.prompt_bar(bar)
