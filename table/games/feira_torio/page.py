"""Feira Torio's screen pages, drawn only from the public view: the table, the reveal lot by lot,
what each seat takes, the scores of a hand. The lobby, banners and the game-over page are the
shared screen's (table/screen/screen.py)."""
from __future__ import annotations

import pygame

from table.games.feira_torio.rules import BONUS, LOTS, TARGET
from table.games.feira_torio.view import (aim, bid_mark, discarded, formula, lot_notes, pages, prompt,
                                          revealed_round, scored_hand, seat_tags, slot_order, take_back)
from table.screen import draw
from table.screen.canvas import HEADER, PROMPT, Canvas, across
from table.screen.draw import GOLD, GREEN, INK, MUTED, RED, SIZE, TEXT

__all__ = ["draw_page", "pages", "subtitle"]   # what the screen asks of a game's page

CROSS = (360, 372)   # centre of the cross of lots on the table page
LOT = (150, 190)     # size of a lot card on the table page


def draw_page(c: Canvas, page: str, step: int | None) -> None:
    """Draw one of this game's pages."""
    {"table": _table, "take": _take, "scores": _scores}[page](c) if page != "reveal" else _reveal(c, step or 0)


def subtitle(c: Canvas) -> str:
    """The game-over page's line under the title: the target."""
    return c.t("target", target=TARGET)


def _round_header(c: Canvas, title: str, hand: int, rnd: int) -> None:
    c.header(title, c.t("hand_round", hand=hand, round=rnd), c.t("target", target=TARGET))


# ------------------------------------------------------------ table


def _lot_rects() -> list[pygame.Rect]:
    (cx, cy), (w, h) = CROSS, LOT
    dx, dy = w + 22, h - 12
    return [pygame.Rect(0, 0, w, h).move(cx - w // 2 + x, cy - h // 2 + y)
            for x, y in ((0, -dy), (dx, 0), (0, dy), (-dx, 0))]


def _table(c: Canvas) -> None:
    t, view, surf = c.t, c.view, c.surf
    centre = view["centre"]
    _round_header(c, t("game_name"), view["hand"], view["round"])
    rects = _lot_rects()
    for position, rect in enumerate(rects):
        c.card(rect, centre["lots"][position])
    arrow = aim(view)
    if arrow is not None:
        target = rects[arrow]
        end = {0: target.midbottom, 1: target.midleft, 2: target.midtop, 3: target.midright}[arrow]
        draw.arrow(surf, CROSS, end)
        pygame.draw.circle(surf, GOLD, CROSS, 16)
    for rank, position in enumerate(centre["order"] or ()):
        rect = rects[position]
        draw.badge(surf, (rect.x - 20, rect.y + 30), 26, rank + 1, GOLD)
    _seat_panel(c, view)
    c.prompt_bar(prompt(c.t, c.table))


def _seat_panel(c: Canvas, view: dict) -> None:
    t, surf = c.t, c.surf
    x0, x1 = 690, SIZE[0] - 16
    slot_w, slot_x = 34, x0 + 322
    c.titles([("col_bids", "midbottom", slot_x + 2 * (slot_w + 8) - 4), ("col_points", "bottomright", x1 - 14)],
             HEADER + 38)
    for p, row in c.seat_rows(list(range(view["players"])), HEADER + 44, SIZE[1] - PROMPT - 6, 110, x0, x1, 30):
        c.seat_name(row, p, 44, [(t(key), GOLD if key == "dealer" else TEXT) for key in seat_tags(view, p)], 2, 4,
                    badge=30)
        committed = view["committed"][p]
        slots_h = min(46, row.h - 40)
        for i, position in enumerate(slot_order(view)):
            draw.back(surf, pygame.Rect(slot_x + i * (slot_w + 8), row.y + 6, slot_w, slots_h), committed[position])
        if all(committed):
            draw.text(surf, t("locked"), 34, GREEN, "midtop", (slot_x + 2 * (slot_w + 8) - 4, row.y + slots_h + 9))
        draw.text(surf, str(view["totals"][p]), 60, TEXT, "midright", (x1 - 14, row.centery + 2))


# ------------------------------------------------------------ reveal


def _reveal(c: Canvas, step: int) -> None:
    t, view, surf = c.t, c.view, c.surf
    _round_header(c, t("reveal_title"), *revealed_round(view))
    for k, (result, column) in enumerate(zip(view["reveal"], across(LOTS, 302, HEADER + 8, SIZE[1] - 8))):
        c.step_panel(column, k, step, 14)
        lot = pygame.Rect(0, 0, 124, 156)
        lot.midtop = (column.centerx + 16, column.y + 10)
        c.faces.draw(surf, lot, result["lot"], dim=k > step)
        draw.badge(surf, (column.x + 34, column.y + 40), 26, k + 1, GOLD)
        if k <= step:
            _lot_result(c, result, column.inflate(-16, 0), lot.bottom + 12)
        else:
            draw.text(surf, "?", 120, MUTED, "midtop", (column.centerx, lot.bottom + 60))


def _lot_result(c: Canvas, result: dict, column: pygame.Rect, y: int) -> None:
    t, surf = c.t, c.surf
    bids = sorted(result["bids"], key=lambda b: (-c.faces.face(b[1]).fingers, b[0]))
    notes = lot_notes(result)
    h = min(64, (column.bottom - y - 96 - 40 * bool(result["cancelled"])) // max(len(bids), 1))
    if not bids:
        draw.text(surf, t("no_bids"), 32, MUTED, "midtop", (column.centerx, y))
    for i, (player, card) in enumerate(bids):
        row = pygame.Rect(column.x, y + i * h, column.w, h - 6)
        r = min(22, row.h // 2)
        c.seat_badge((row.x + r + 2, row.centery), r, player)
        chip = pygame.Rect(row.x + 2 * r + 10, row.y + 2, c.faces.chip_width(min(44, row.h - 4)), min(44, row.h - 4))
        chip.centery = row.centery
        c.faces.draw(surf, chip, card, "chip")
        label = (chip.right + 8, row.centery)
        room = row.right - label[0] - 2
        mark = bid_mark(result, player)
        if mark == "wins":
            draw.frame(surf, row.inflate(8, 6))
            draw.tag(surf, t("wins"), 28, label, INK, GOLD, "midleft", room)
        elif mark == "tie":
            draw.strike(surf, chip)
            draw.tag(surf, t("tie"), 26, label, TEXT, RED, "midleft", room)
    y += len(bids) * h + 10
    for note in notes:
        y = draw.text(surf, t(note), 32, TEXT, "midtop", (column.centerx, y), width=column.w, lines=2).bottom + 6
    for player, cards in result["withdrawn"]:
        r = draw.text(surf, t("takes_back", seat=c.seat(player)), 28, TEXT, "topleft",
                      (column.x, y), width=column.w, lines=2)
        h = min(40, int((column.w - 6 * len(cards)) / (2.85 * len(cards))))
        c.chips(cards, column.x, r.bottom + 8 + h // 2, h, 6)


# ------------------------------------------------------------ take


def _take(c: Canvas) -> None:
    t, view, surf = c.t, c.view, c.surf
    _round_header(c, t("take_title"), *revealed_round(view))
    moves = take_back(view)
    counts = [max(max(len(m[key]) for m in moves), 1) for key in ("take", "discard", "back")]
    gap, least = 10, 180
    h = min(56, int((SIZE[0] - 130 - 20 - 2 * 30 - gap * sum(counts)) / (2.85 * sum(counts))))
    step = c.faces.chip_width(h) + gap
    columns, x = [], 130
    for key, move, n in zip(("col_take", "col_discard", "col_back"), ("take", "discard", "back"), counts):
        width = max(n * step, least)
        draw.text(surf, t(key), 32, GOLD, "bottomleft", (x, HEADER + 66), width=width - 16, lines=2)
        columns.append((move, x))
        x += width + 30
    draw.text(surf, t("col_seat"), 32, GOLD, "bottomleft", (30, HEADER + 66), width=100)
    lost = discarded(view)
    for p, row in c.seat_rows(list(range(view["players"])), HEADER + 74, SIZE[1] - (80 if lost else 10)):
        for move, x in columns:
            c.chips(moves[p][move], x, row.centery, h, gap)
    if lost:
        c.labelled_chips(t.count("lots_discarded", len(lost)), lost, (30, SIZE[1] - 40), 36, 50, space=20)


# ------------------------------------------------------------ scores


def _score_columns(c: Canvas) -> tuple[int, int, int, int]:
    """(kept x, widest chip height, formula x, totals right edge) on the scores page.

    Sized from the right: totals as wide as 3 digits, then room for the
    longest formula (every category kept at the most stars, plus the
    bonus), then chips as tall as fit one per category in what is left.
    """
    categories = len({face.name for face in c.faces.faces.values()})
    stars = max(face.stars for face in c.faces.faces.values())
    longest = formula({"factors": [stars] * categories, "bonus": BONUS, "score": stars ** categories + BONUS})
    right = SIZE[0] - 16 - 24
    total_w = max(draw.font(64).size("888")[0], draw.font(34).size(c.t("col_total"))[0])
    calc_x = right - total_w - 40 - draw.font(44).size(longest)[0]
    kept_x = 130
    return kept_x, c.chip_height(categories, calc_x - 30 - kept_x, 56), calc_x, right


def _scores(c: Canvas) -> None:
    t, view, surf = c.t, c.view, c.surf
    c.header(t("scores_title", hand=scored_hand(view)), "", t("target", target=TARGET))
    kept_x, most, calc_x, right = _score_columns(c)
    calc_w = right - 100 - calc_x
    c.titles([("col_kept", "bottomleft", kept_x, calc_x - 30 - kept_x), ("col_calc", "bottomleft", calc_x, calc_w),
              ("col_total", "bottomright", right)], HEADER + 48, 34, GOLD)
    scores = {s["player"]: s for s in view["scores"]}
    for p, row in c.seat_rows(list(range(view["players"])), HEADER + 56, SIZE[1] - 10):
        score = scores.get(p)
        if score:
            c.chips(score["kept"], kept_x, row.centery, min(most, row.h - 16))
            draw.text(surf, formula(score), 44, TEXT, "midleft", (calc_x, row.centery), width=calc_w)
        draw.text(surf, str(view["totals"][p]), 64, TEXT, "midright", (right, row.centery))
