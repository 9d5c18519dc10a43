"""Sweep's screen pages, drawn only from the public view: the table (centre, order of play, seats), the
capture step by step (and a tie's pick), what each seat takes into hand, and a deal's scores by rank.
The lobby, banners and the game-over page are the shared screen's (table/screen/screen.py)."""
from __future__ import annotations

import pygame

from table.games.sweep.rules import CENTRE, HAND
from table.games.sweep.view import (goal, pages, picker, prompt, ranks_text, resolution, rule_sentence, takers,
                                    took_sentence)
from table.screen import draw
from table.screen.canvas import HEADER, PROMPT, Canvas, across
from table.screen.draw import GOLD, INK, MUTED, PANEL, PANEL_HI, SIZE, TEXT

__all__ = ["draw_page", "pages", "subtitle"]   # what the screen asks of a game's page

LEFT = pygame.Rect(16, HEADER + 8, 640, SIZE[1] - HEADER - PROMPT - 16)   # the table page's play area
SEATS_X = (676, SIZE[0] - 16)                                             # its seat panel
CENTRE_CARD = (112, 150)                                                  # a centre place
ORDER_CARD = (84, 112)                                                    # a card in the order of play
WORDS_H = 150                                                             # a capture step in words


def draw_page(c: Canvas, page: str, step: int | None) -> None:
    """Draw one of this game's pages."""
    if page in ("step", "pick"):
        _capture(c, len(resolution(c.view)[2]) - 1 if page == "pick" else step or 0)
    else:
        {"table": _table, "take": _take, "scores": _scores}[page](c)


def subtitle(c: Canvas) -> str:
    """The game-over page's line under the title: the match's target, or a single deal."""
    return goal(c.t, c.view)


def _rank_chips(c: Canvas, ranks: list[int]) -> list[str]:
    return [c.faces.of_rank(r) for r in sorted(ranks, reverse=True)]


# ------------------------------------------------------------ shared parts


def _round_header(c: Canvas, title: str, deal: int, rnd: int, right: str = "") -> None:
    key = "deal_round" if c.view["match"] else "round_of"
    c.header(title, c.t(key, deal=deal, round=rnd, rounds=c.view["rounds"]), right or goal(c.t, c.view))


# ------------------------------------------------------------ table


def _table(c: Canvas) -> None:
    """The centre's 5 places, who starts and the order of play (or the registration), the seats, the prompt."""
    t, view, surf = c.t, c.view, c.surf
    _round_header(c, t("game_name"), view["deal"], view["round"])
    draw.text(surf, t("centre"), 32, MUTED, "topleft", LEFT.topleft)
    draw.text(surf, t.count("pile", view["pile"]), 32, MUTED, "topright", LEFT.topright)
    w, h = CENTRE_CARD
    gap = (LEFT.w - CENTRE * w) // (CENTRE - 1)
    for i, card in enumerate(view["centre"] + [None] * (CENTRE - len(view["centre"]))):
        c.card(pygame.Rect(LEFT.x + i * (w + gap), LEFT.y + 42, w, h), card)
    below = pygame.Rect(LEFT.x, LEFT.y + 42 + h + 24, LEFT.w, LEFT.bottom - (LEFT.y + 42 + h + 24))
    if view["order"]:
        _order(c, below)
    else:
        key = "register_note" if view["phase"] == "register" else "draw_note"
        r = draw.text(surf, t(key, n=HAND), 36, TEXT, "topleft", below.topleft, width=below.w, lines=3)
        if view["phase"] == "register":
            draw.text(surf, t("secret_note"), 30, MUTED, "topleft", (below.x, r.bottom + 16), width=below.w, lines=2)
    _seat_panel(c)
    c.prompt_bar(prompt(c.t, c.table))


def _order(c: Canvas, area: pygame.Rect) -> None:
    """Who starts and why, then the order of play: each seat's played card, the next one framed, the
    seats skipped with an empty hand last."""
    t, view, surf = c.t, c.view, c.surf
    first = t(f"first_{view['first_reason']}", seat=c.seat(view["first_player"]))
    draw.text(surf, first, 36, GOLD, "topleft", area.topleft, width=area.w)
    played = dict(view["played"])
    seats = view["order"] + view["skipped"]
    step = min(128, area.w // len(seats))
    w, h = ORDER_CARD
    top = area.y + 56
    for _, p, cx in c.seat_columns(seats, area.x, step, top + 26, 26):
        card = pygame.Rect(0, 0, w, h)
        card.midtop = (cx, top + 62)
        if p in view["skipped"]:
            draw.tag(surf, t("passes"), 28, card.center, INK, MUTED, "center", step - 6)
            continue
        c.card(card, played.get(p))
        if p == view["turn"] and p not in played:
            draw.frame(surf, card.inflate(10, 10))


def _seat_panel(c: Canvas) -> None:
    """One row per seat: its light, the dealer, the cards held (registered, while registering), its points."""
    t, view, surf = c.t, c.view, c.surf
    x0, x1 = SEATS_X
    held_x, total_x = x0 + 270, x1 - 14
    registering = view["phase"] == "register"
    c.titles([("col_held", "bottomleft", held_x), ("col_points", "bottomright", total_x)], HEADER + 38)
    for p, row in c.seat_rows(list(range(view["players"])), HEADER + 44, SIZE[1] - PROMPT - 6, 100, x0, x1):
        dealer = p == view["dealer"]
        c.seat_name(row, p, 40, [(t("dealer"), GOLD)] * dealer, 4 if dealer else None)
        if registering:
            n = view["registered"][p]
            draw.backs(surf, pygame.Rect(held_x, row.centery - 17, 20, 34), HAND, 26, n)
            draw.text(surf, t("registered", n=n, of=HAND), 40, TEXT, "midleft", (held_x + HAND * 26 + 8, row.centery))
        else:
            draw.back(surf, pygame.Rect(held_x, row.centery - 21, 30, 42), view["hand_counts"][p] > 0)
            draw.text(surf, str(view["hand_counts"][p]), 48, TEXT, "midleft", (held_x + 42, row.centery))
        draw.text(surf, str(view["totals"][p]), 56, TEXT, "midright", (total_x, row.centery + 2))


# ------------------------------------------------------------ capture, step by step


def _capture(c: Canvas, current: int) -> None:
    """One column per step (the current one highlighted, later ones veiled), the centre after the
    current step, and the step in words. While a tie waits for a pick: the targets left and who picks."""
    t, view, surf = c.t, c.view, c.surf
    deal, rnd, steps = resolution(view)
    step = steps[current]
    picking = picker(view, current)
    _round_header(c, t("capture_title"), deal, rnd, t("step_of", step=current + 1, steps=len(steps)))
    bottom = SIZE[1] - (PROMPT if picking is not None else 0) - 8
    box = pygame.Rect(16, bottom - WORDS_H, SIZE[0] - 32, WORDS_H)
    row_y = box.y - 34
    for k, (shown, column) in enumerate(zip(steps, across(len(steps), 320, HEADER + 8, row_y - 34))):
        _step_column(c, shown, k, current, column, picking if k == current else None)
    if picking is None:
        c.labelled_chips(t("centre_after"), step["centre"], (24, row_y), 32, 48, MUTED)
    else:
        r = draw.text(surf, t("targets_left"), 32, GOLD, "midleft", (24, row_y))
        c.chips(step["centre"], r.right + 16, row_y, 48, 10, framed=view["capture"]["left"])
    pygame.draw.rect(surf, PANEL, box, border_radius=12)
    inner = box.inflate(-32, -16)
    lines = [(rule_sentence(c.t, c.table, step), TEXT)]
    if step["tied"]:
        lines.append((t("tie_note", seat=c.seat(step["players"][0])), TEXT))
    took = t("picks_now", seat=c.seat(picking)) if picking is not None else took_sentence(t, c.table, step)
    lines.append((took, GOLD))
    y = inner.y
    for i, (line, colour) in enumerate(lines):
        y = draw.text(surf, line, 38, colour, "topleft", (inner.x, y), width=inner.w, lines=2 - min(i, 1)).bottom + 6
    if picking is not None:
        c.prompt_bar(prompt(c.t, c.table))


def _step_column(c: Canvas, step: dict, k: int, current: int, column: pygame.Rect, picking: int | None) -> None:
    """A step's column: the card(s) played of its rank and by whom, its rule, who took what (and who
    picks now, while a tie waits)."""
    t, surf = c.t, c.surf
    later = c.step_panel(column, k, current, 14, 6)
    m = len(step["cards"])
    w = min(ORDER_CARD[0], (column.w - 16 - 6 * (m - 1)) // m)
    x = column.centerx - (m * w + 6 * (m - 1)) // 2
    for i, (player, card) in enumerate(zip(step["players"], step["cards"])):
        rect = pygame.Rect(x + i * (w + 6), column.y + 10, w, w * 4 // 3)
        c.faces.draw(surf, rect, card, dim=later)
        c.seat_badge((rect.centerx, rect.bottom + 26), min(22, w // 2), player)
    y = column.y + 10 + ORDER_CARD[1] + 56
    if later:
        draw.text(surf, "?", 96, MUTED, "midtop", (column.centerx, y))
        return
    rule = t("rule_highest_short") if step["rule"] == "highest" else t("rule_lower_short", rank=step["rank"])
    tag = draw.tag(surf, rule, 28, (column.centerx, y), INK, GOLD if step["rule"] == "highest" else TEXT,
                   "midtop", column.w - 12)
    y = tag.bottom + 10
    got = takers(step)
    floor = column.bottom - 6
    if picking is not None:
        floor = draw.tag(surf, t("picking", seat=c.seat(picking)), 28, (column.centerx, column.bottom - 8), INK, GOLD,
                         "midbottom", column.w - 12).y - 10
    elif not got:
        draw.text(surf, t("took_nothing"), 30, MUTED, "midtop", (column.centerx, y), width=column.w - 12)
    room = (floor - y) // max(len(got), 1)
    for player, ranks in got:
        r = min(20, room // 2 - 2)
        c.seat_badge((column.x + 10 + r, y + r + 2), r, player)
        block = pygame.Rect(column.x + 2 * r + 18, y, column.w - 2 * r - 26, room - 4)
        y = c.chip_lines(_rank_chips(c, ranks), block, range(2 * r + 4, 14, -2), 6, centred=False) + 10


# ------------------------------------------------------------ take


def _take(c: Canvas) -> None:
    """Per seat, the cards it takes into hand; the centre's leftovers discarded; who starts next."""
    t, view, surf = c.t, c.view, c.surf
    last = view["last_round"]
    _round_header(c, t("take_title"), last["deal"], last["round"])
    took = dict(last["took"])
    starts = view["phase"] == "centre"          # the deal goes on: the last taker starts the next round
    players = list(range(view["players"]))
    h = min(96, (SIZE[1] - 8 - 52 * (1 + starts) - HEADER - 8) // len(players))
    chip_x = 700
    for p, row in c.seat_rows(players, HEADER + 8, HEADER + 8 + h * len(players), h):
        ranks = took.get(p, [])
        line = t("takes_into_hand" if ranks else "takes_none", seat=c.seat(p), ranks=ranks_text(ranks))
        draw.text(surf, line, 40, TEXT if ranks else MUTED, "midleft", (row.x + 90, row.centery),
                  width=chip_x - row.x - 110)
        if ranks:
            c.chips(_rank_chips(c, ranks), chip_x, row.centery, min(56, row.h - 12), width=row.right - 16 - chip_x)
    y = HEADER + 8 + h * len(players) + 26
    c.labelled_chips(t("discarded"), last["discarded"], (24, y), 36, 44)
    if starts:
        draw.text(surf, t("first_last_taker", seat=c.seat(last["last_taker"])), 36, GOLD, "midleft", (24, y + 52),
                  width=SIZE[0] - 48)


# ------------------------------------------------------------ scores


def _scores(c: Canvas) -> None:
    """The deal's scores, one line per rank: each seat's count (the most in gold), who holds the most,
    the rank's points; then each seat's points, and with the match option the totals against the target."""
    t, view, surf = c.t, c.view, c.surf
    scores = view["scores"]
    c.header(t("scores_title", deal=scores["deal"]), "", goal(c.t, c.view))
    n = view["players"]
    lines = [("col_deal_points", scores["points"])] + ([("col_match_total", view["totals"])] if view["match"] else [])
    col_w = min(110, 480 // n)
    xs = [112 + p * col_w + col_w // 2 for p in range(n)]       # each seat's column
    most_x, points_x = 112 + n * col_w + 16, SIZE[0] - 24
    bottom = SIZE[1] - 8 - 58 * len(lines)
    for p, x in enumerate(xs):
        c.seat_badge((x, HEADER + 28), 22, p)
    c.titles([("col_most", "midleft", most_x), ("col_points", "midright", points_x)], HEADER + 28)
    for i, row in c.panels(len(scores["ranks"]), HEADER + 54, bottom, SIZE[1], gap=4, radius=8):
        line = scores["ranks"][i]
        c.chips([c.faces.of_rank(line["rank"])], 28, row.centery, row.h - 4)
        for p, count in enumerate(line["counts"]):
            if p in line["scorers"]:
                draw.tag(surf, str(count), 34, (xs[p], row.centery), INK, GOLD, "center")
            else:
                draw.text(surf, str(count), 34, MUTED if count == 0 else TEXT, "center", (xs[p], row.centery))
        scorers = line["scorers"]
        most = t.count("most", line["most"], seats=t.seats(scorers, c.table["joined"])) if scorers else t("nobody")
        draw.text(surf, most, 30, TEXT, "midleft", (most_x, row.centery), width=points_x - 90 - most_x)
        draw.text(surf, f"+{line['points']}" if line["points"] else "0", 40, GOLD if line["points"] else MUTED,
                  "midright", (points_x, row.centery))
    for j, (key, figures) in enumerate(lines):
        row = pygame.Rect(16, bottom + 4 + j * 58, SIZE[0] - 32, 52)
        pygame.draw.rect(surf, PANEL_HI, row, border_radius=8)
        for x, figure in zip(xs, figures):
            draw.text(surf, str(figure), 44, TEXT, "center", (x, row.centery))
        draw.text(surf, t(key, target=view["target"]), 32, GOLD, "midleft", (most_x, row.centery),
                  width=points_x - most_x)
