"""Five Cards' screen pages, drawn only from the public view: the table (the targets being set out,
then the five columns as they lie on the felt), the round's count column by column, and the round's
scores. The lobby, banners and the game-over page are the shared screen's (table/screen/screen.py).

The table page is the reference for the physical layout: the targets low to high in a row across
the middle, the first player's cards above them, the second player's below, each seat's panel on
the left beside its side.
"""
from __future__ import annotations

import pygame

from table.games.five_cards.rules import COLUMNS
from table.games.five_cards.view import (column_text, cursor_column, instruction, laying_out, pages,
                                         score_formula, setup_notice, starter_text)
from table.screen import draw
from table.screen.canvas import HEADER, PROMPT, Canvas
from table.screen.draw import BG, GOLD, INK, MUTED, PANEL, PANEL_HI, SIZE, TEXT

__all__ = ["draw_page", "pages", "subtitle"]   # what the screen asks of a game's page

TOP, BOTTOM = HEADER + 8, SIZE[1] - PROMPT - 8      # the table page's body
MIDDLE = (TOP + BOTTOM) // 2                        # the targets' row
SEATS_X, SEATS_W = 16, 262                          # the seat panels, left of the columns
COLUMNS_X, COLUMN_W, COLUMN_GAP = 288, 190, 6
TARGET = (76, 104)                                  # a target card on the table page
CHIP, CHIP_GAP, PER_ROW = 38, 6, 3                  # a side's cards: rows of three, from the target outwards
SUM_H = 48                                          # room for a side's sum, next to the target
ROW_TOP, ROW_H = HEADER + 56, 114                   # the count page's rows, one per column


def draw_page(c: Canvas, page: str, step: int | None) -> None:
    """Draw one of this game's pages."""
    if page == "column":
        _count(c, step or 0)
    else:
        {"table": _table, "scores": _scores}[page](c)


def subtitle(c: Canvas) -> str:
    """The game-over page's header right text: the goal."""
    return c.t("goal", goal=c.view["goal"])


# ------------------------------------------------------------ geometry


def column_x(k: int) -> int:
    return COLUMNS_X + k * (COLUMN_W + COLUMN_GAP)


def target_rect(k: int) -> pygame.Rect:
    """The target card of column `k` (0-4, low to high) on the table page."""
    rect = pygame.Rect((0, 0), TARGET)
    rect.center = (column_x(k) + COLUMN_W // 2, MIDDLE)
    return rect


def side_rect(k: int, player: int) -> pygame.Rect:
    """Player 0's side of column `k` (above the target) or player 1's (below)."""
    clear = TARGET[1] // 2 + 6                          # of the targets' row
    top, bottom = (TOP, MIDDLE - clear) if player == 0 else (MIDDLE + clear, BOTTOM)
    return pygame.Rect(column_x(k), top, COLUMN_W, bottom - top)


def chip_rect(k: int, player: int, i: int, width: int) -> pygame.Rect:
    """The `i`th card of a side (chips `width` wide): rows of three, from the target outwards."""
    side = side_rect(k, player)
    row, place = divmod(i, PER_ROW)
    left = side.centerx - (PER_ROW * width + (PER_ROW - 1) * CHIP_GAP) // 2
    offset = SUM_H + CHIP_GAP + row * (CHIP + CHIP_GAP)
    y = side.bottom - offset - CHIP if player == 0 else side.y + offset
    return pygame.Rect(left + place * (width + CHIP_GAP), y, width, CHIP)


def inner(side: pygame.Rect, player: int, margin: int) -> tuple[str, tuple[int, int]]:
    """(anchor, point) `margin` inside a side's edge next to the target, for player `player`'s side (for the
    other player's: the edge away from it)."""
    if player == 0:
        return "midbottom", (side.centerx, side.bottom - margin)
    return "midtop", (side.centerx, side.y + margin)


def seat_rect(player: int) -> pygame.Rect:
    """A seat's panel, beside its side of the columns."""
    h = (BOTTOM - TOP) // 2 - 4
    return pygame.Rect(SEATS_X, TOP if player == 0 else BOTTOM - h, SEATS_W, h)


# ------------------------------------------------------------ table


def _table(c: Canvas) -> None:
    view = c.view
    c.header(c.t("game_name"), c.t("round", round=view["round"]), subtitle(c))
    for p in range(view["players"]):
        _seat_panel(c, p)
    if laying_out(view):
        _setup(c)
    else:
        for column in view["columns"]:
            _column(c, column)
    c.prompt_bar(instruction(c.t, c.table))


def _seat_panel(c: Canvas, p: int) -> None:
    """A seat: its light, its total against the goal, whether it starts, and its last card this round."""
    t, view, surf = c.t, c.view, c.surf
    rect, seat = seat_rect(p), c.seat(p)
    pygame.draw.rect(surf, PANEL, rect, border_radius=12)
    if view["active"] == p:
        draw.frame(surf, rect, c.light(seat), 4)
    c.seat_badge((rect.x + 42, rect.y + 40), 28, p)
    draw.text(surf, t("seat", seat=seat), 44, TEXT, "midleft", (rect.x + 80, rect.y + 42), width=rect.w - 90)
    total = draw.text(surf, str(view["totals"][p]), 72, TEXT, "topleft", (rect.x + 18, rect.y + 76))
    draw.text(surf, f"/ {view['goal']}", 36, MUTED, "bottomleft", (total.right + 8, total.bottom - 4))
    if view["starter"] == p:
        draw.tag(surf, t("starts"), 28, (rect.x + 18, rect.y + 134), INK, TEXT)
    last = view["last_draw"]
    if last is None or last["player"] != p or laying_out(view):
        return
    chip = pygame.Rect(rect.x + 18, rect.y + 172, c.faces.chip_width(44), 44)
    c.faces.draw(surf, chip, last["card"], "chip")
    column = cursor_column(c.table) if last["how"] == "pending" else last["column"]
    if column is not None:
        draw.arrow(surf, (chip.right + 8, chip.centery), (chip.right + 40, chip.centery), GOLD, 6)
        where = t("prompt_column", column=column + 1, rank=view["target_ranks"][column])
        draw.text(surf, where, 34, GOLD, "midleft", (chip.right + 46, chip.centery), width=rect.right - chip.right - 54)
    draw.text(surf, t(f"how_{last['how']}"), 30, TEXT, "topleft", (rect.x + 18, chip.bottom + 8),
              width=rect.w - 30, lines=2)


def _setup(c: Canvas) -> None:
    """The targets being set out: the row so far (empty frames for the rest), the last card shown, the
    cards set aside, who starts."""
    t, view, surf = c.t, c.view, c.surf
    width = COLUMNS * COLUMN_W + (COLUMNS - 1) * COLUMN_GAP
    cx = COLUMNS_X + width // 2
    setup = view["setup"]
    last = setup["last"]
    marked = last and not setup["done"] and (last["duplicate_of"] or last["card"])   # the target it concerns
    for k, card in enumerate(view["targets"] + [None] * (COLUMNS - len(view["targets"]))):
        c.card(target_rect(k), card)
        if card and card == marked:
            draw.frame(surf, target_rect(k).inflate(12, 12))
    headline, detail = setup_notice(t, view)
    draw.text(surf, headline, 56, GOLD, "midbottom", (cx, TOP + 110), width=width)
    draw.text(surf, detail, 36, TEXT, "midtop", (cx, TOP + 130), width=width, lines=2)
    y = MIDDLE + TARGET[1] // 2 + 64
    if setup["aside"]:
        label = t("aside_back" if setup["done"] else "aside")
        chips_w = len(setup["aside"]) * (c.faces.chip_width(44) + 8)
        label_w = min(draw.font(36).size(label)[0], width - chips_w - 16)
        r = draw.text(surf, label, 36, GOLD if setup["done"] else TEXT, "midleft",
                      (cx - (label_w + 16 + chips_w) // 2, y), width=label_w, lines=2)
        c.chips(setup["aside"], r.right + 16, y, 44)
    draw.text(surf, starter_text(t, c.table), 36, TEXT, "midtop", (cx, y + 60), width=width, lines=2)


def _column(c: Canvas, column: dict) -> None:
    """A column as it lies on the felt: the target, each side's cards and sum, who leads; while the active
    seat chooses, its legal columns framed (the one under its cursor boldly, with the card drawn)."""
    surf, view = c.surf, c.view
    k = column["column"]
    c.faces.draw(surf, target_rect(k), column["target"])
    cursor = cursor_column(c.table)
    width = c.faces.chip_width(CHIP)
    last = view["last_draw"]
    for p in range(view["players"]):
        side = side_rect(k, p)
        leads = column["leader"] == p
        pygame.draw.rect(surf, PANEL_HI if leads else PANEL, side, border_radius=10)
        cards = column["sides"][p]
        for i, card in enumerate(cards):
            c.faces.draw(surf, chip_rect(k, p, i, width), card, "chip")
        if last and last["how"] in ("auto", "chosen") and (last["player"], last["column"]) == (p, k):
            draw.frame(surf, chip_rect(k, p, len(cards) - 1, width).inflate(8, 8), GOLD, 3)
        anchor, at = inner(side, p, 4)
        pill = draw.tag(surf, str(column["sums"][p]), 44, at, INK if leads else TEXT, GOLD if leads else BG, anchor)
        if leads:
            draw.crown(surf, (pill.right + 22, pill.centery), 14)
        if cursor is not None and p == view["active"]:
            _choice(c, column, p, k == cursor)


def _choice(c: Canvas, column: dict, p: int, chosen: bool) -> None:
    """The choosing seat's side of a column: dimmed when the card may not go there; else framed and
    labelled like its prompt option, and for the column under the cursor, the card drawn in its place."""
    t, surf, view = c.t, c.surf, c.view
    k = column["column"]
    side = side_rect(k, p)
    legal = view["legal_columns"]
    if k not in legal:
        draw.dim(surf, side)
        return
    draw.frame(surf, side, GOLD, 6 if chosen else 2)
    prompt = c.table.get("prompt")
    key, params = prompt["labels"][legal.index(k)] if prompt else ("prompt_column", {"rank": column["rank"]})
    label = ("» " if chosen else "") + t(key, **params)
    anchor, at = inner(side, 1 - p, 6)                 # the edge away from the target
    draw.tag(surf, label, 28, at, INK if chosen else TEXT, GOLD if chosen else BG, anchor, COLUMN_W - 12)
    if chosen:
        chip = chip_rect(k, p, len(column["sides"][p]), c.faces.chip_width(CHIP))
        c.faces.draw(surf, chip, view["drawn"], "chip")
        draw.frame(surf, chip.inflate(8, 8), GOLD, 3)


# ------------------------------------------------------------ the count, column by column


def _count(c: Canvas, step: int) -> None:
    """The round's count up to column `step`: each column counted so far on its row (the current one
    highlighted), each side's cards and sum, the points and why; later columns only show their target."""
    t, view, surf = c.t, c.view, c.surf
    result = view["round_result"]
    c.header(t("result_title", round=result["round"]), t("result_step", column=step + 1, columns=COLUMNS), subtitle(c))
    ender = result["ender"]
    chip = pygame.Rect(24, HEADER + 8, c.faces.chip_width(40), 40)
    c.faces.draw(surf, chip, ender["card"], "chip")
    draw.text(surf, t("result_ender", seat=c.seat(ender["player"]), rank=ender["rank"]), 34, TEXT, "midleft",
              (chip.right + 14, chip.centery), width=SIZE[0] - chip.right - 40)
    for k, column in enumerate(result["columns"]):
        row = pygame.Rect(16, ROW_TOP + k * ROW_H, SIZE[0] - 32, ROW_H - 8)
        card = pygame.Rect(row.x + 12, row.y + 6, 68, row.h - 12)
        later = c.step_panel(row, k, step, 12, 0)
        c.faces.draw(surf, card, column["target"], dim=later)
        if not later:
            _counted(c, column, row, card.right)


def _counted(c: Canvas, column: dict, row: pygame.Rect, x: int) -> None:
    """One counted column on its row: per seat its cards, sum and points; the outcome in words."""
    t, surf = c.t, c.surf
    sides = column["sides"]
    chips_x, sum_x, why_x = x + 70, x + 470, x + 560
    h = c.chip_height(max(map(len, sides)), sum_x - chips_x - 12, 38, 6)
    for p, cards in enumerate(sides):
        y = row.y + row.h // 4 + p * row.h // 2
        c.seat_badge((x + 40, y), 20, p)
        c.chips(cards, chips_x, y, h, 6)
        won = column["winner"] == p
        draw.text(surf, f"= {column['sums'][p]}", 40, GOLD if won else TEXT, "midleft", (sum_x, y))
        points = column["points"][p]
        if won:
            draw.tag(surf, f"+{points}", 40, (row.right - 12, y), INK, GOLD, "midright")
        else:
            draw.text(surf, f"+{points}", 40, TEXT if points else MUTED, "midright", (row.right - 22, y))
    draw.text(surf, column_text(t, c.table, column), 36, TEXT, "midleft", (why_x, row.centery),
              width=row.right - 110 - why_x, lines=2)


# ------------------------------------------------------------ scores


def _scores(c: Canvas) -> None:
    """The round's scores, each spelled out column by column, the totals against the goal, and who starts
    the next round and why (or that the game is over)."""
    t, view, surf = c.t, c.view, c.surf
    result = view["round_result"]
    over = view["phase"] == "over"
    c.header(t("scores_title", round=result["round"]), "", subtitle(c))
    formula_x, right = 330, SIZE[0] - 40
    c.titles([("col_round", "bottomleft", formula_x), ("col_total", "bottomright", right)], HEADER + 56, 34, GOLD)
    for p, row in c.score_rows(list(range(view["players"])), HEADER + 64, HEADER + 64 + 2 * 150, 150, (96, 48)):
        draw.text(surf, score_formula(t, result, p), 44, TEXT, "midleft", (formula_x, row.centery),
                  width=right - 200 - formula_x, lines=2)
        goal = draw.text(surf, f"/ {view['goal']}", 36, MUTED, "bottomright", (right, row.centery + 24))
        draw.text(surf, str(result["totals"][p]), 72, TEXT, "bottomright", (goal.x - 8, goal.bottom + 4))
    outcome = t("game_end", goal=view["goal"]) if over else starter_text(t, c.table)
    c.line(outcome, row.bottom + 30, 40, GOLD, 2, 40)          # under the last row
    c.prompt_bar("" if over else t("bar_gather"))
