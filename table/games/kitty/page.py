"""Kitty's screen pages, drawn only from the public view: the table (the centre pad, the kitty, one row per
seat), the reveal step by step, what each seat takes, a deal's scores by rank and the stakes settlement.
The lobby, banners and the game-over page are the shared screen's (table/screen/screen.py).

With partners every seat row and scoring row carries its team's colour band, and the team totals are shown
(TABLE-PROTOCOLS 1.7).
"""
from __future__ import annotations

import pygame

from table.games.kitty.rules import TARGET
from table.games.kitty.view import (bid_order, destinations, formula, held, lowest_up, marks, pages, per_round,
                                    progress, prompt, reveal_steps, settlement_text, step_text, take_moves, to_give,
                                    units)
from table.screen import draw
from table.screen.canvas import HEADER, PROMPT, Canvas
from table.screen.draw import GOLD, GREEN, INK, MUTED, PANEL, RED, SIZE, TEAMS, TEXT

__all__ = ["draw_page", "pages", "subtitle"]   # what the screen asks of a game's page

BOTTOM = SIZE[1] - PROMPT - 8                                     # lowest y above the prompt bar
CENTRE = pygame.Rect(16, HEADER + 12, 404, BOTTOM - HEADER - 12)  # the centre pad's panel, table page
ROWS_X = CENTRE.right + 16                                        # the seat rows, right of it
TARGET_CARD = (136, 182)                                          # a target, table and reveal pages
REVEAL_LINES = HEADER + 306                                       # the reveal's step lines start here


def draw_page(c: Canvas, page: str, step: int | None) -> None:
    """Draw one of this game's pages."""
    if page == "reveal":
        _reveal(c, step or 0)
    else:
        {"table": _table, "take": _take, "scores": _scores, "stakes": _stakes}[page](c)


def subtitle(c: Canvas) -> str:
    """The long game's goal (the header's right text on every page, the game-over page's included)."""
    return c.t("goal", target=TARGET) if c.view["options"]["long"] else ""


# ------------------------------------------------------------ shared bits


def _header(c: Canvas, title: str, deal: int, rnd: int | None = None) -> None:
    """The title bar: `title`, the deal (long game only) and the round (None: registering), the goal."""
    t, view = c.t, c.view
    parts = [t("deal", deal=deal)] * view["options"]["long"]
    parts.append(t("registering") if rnd is None else t("round", round=rnd, rounds=view["rounds"]))
    c.header(title, " · ".join(parts), subtitle(c))


# ------------------------------------------------------------ table


def _table(c: Canvas) -> None:
    """The centre pad and the kitty on the left, one row per seat on the right, what to do at the bottom."""
    t, view = c.t, c.view
    _header(c, t("game_name"), view["deal"], view["round"] if view["phase"] != "register" else None)
    _centre(c)
    _seat_rows(c)
    c.prompt_bar(prompt(t, c.table))


def _centre(c: Canvas) -> None:
    """The centre pad: this round's targets (shown, or still to show), the kitty face down, the teams."""
    t, view, surf = c.t, c.view, c.surf
    pygame.draw.rect(surf, PANEL, CENTRE, border_radius=14)
    per = per_round(view)
    x, y = CENTRE.x + 20, CENTRE.y + 12
    draw.text(surf, t.count("target_label", per), 34, GOLD, "topleft", (x, y))
    for i, card in enumerate(view["targets"] + [None] * (per - len(view["targets"]))):
        rect = pygame.Rect((x + i * (TARGET_CARD[0] + 20), y + 46), TARGET_CARD)
        c.card(rect, card)
        if not card:
            draw.text(surf, "?", 90, MUTED, "center", rect.center)
    y += 46 + TARGET_CARD[1] + 18
    left = view["kitty_left"]
    draw.text(surf, t.count("kitty_left", left), 32, TEXT, "topleft", (x, y))
    draw.backs(surf, pygame.Rect(x, y + 40, 36, 50), left, 44)
    if view["teams"]:
        _team_totals(c, pygame.Rect(x, y + 106, CENTRE.w - 40, CENTRE.bottom - y - 114))


def _team_totals(c: Canvas, box: pygame.Rect) -> None:
    """Each team: its band colour, its seats, its total."""
    t, view, surf = c.t, c.view, c.surf
    draw.text(surf, t("col_teams"), 30, MUTED, "topleft", box.topleft)
    h = min(56, (box.h - 38) // len(view["teams"]))
    for i, (team, total) in enumerate(zip(view["teams"], view["team_totals"])):
        row = pygame.Rect(box.x, box.y + 38 + i * h, box.w, h - 6)
        pygame.draw.rect(surf, TEAMS[i], (row.x, row.y, 12, row.h), border_radius=4)
        draw.text(surf, t.seats(team, c.table["joined"]), 32, TEXT, "midleft", (row.x + 24, row.centery),
                  width=row.w - 110)
        draw.text(surf, str(total), 44, TEXT, "midright", (row.right, row.centery))


def _seat_rows(c: Canvas) -> None:
    """One row per seat: light badge, name (and dealer), cards held, this phase's progress (registered
    count, or a face-down card and a tick once passed or bid), the targets gained this deal, the total."""
    t, view, surf = c.t, c.view, c.surf
    x1 = SIZE[0] - 16
    held_x, status_x, gained_x = ROWS_X + 262, ROWS_X + 340, ROWS_X + 470
    top = HEADER + 12
    status = [(f"col_{view['phase']}", "midtop", status_x + 50)] * (progress(view, 0) is not None)
    c.titles([("col_held", "midtop", held_x), *status, ("col_gained", "topleft", gained_x),
              ("col_points", "topright", x1 - 14)], top)
    for p, row in c.seat_rows(list(range(view["players"])), top + 36, BOTTOM + 8, 100, ROWS_X, x1):
        dealer = view["dealer"] == p
        c.seat_name(row, p, 40, [(t("dealer"), GOLD)] * dealer, 4 if dealer else None)
        draw.text(surf, str(held(view, p)), 44, TEXT, "center", (held_x, row.centery))
        _status(c, p, pygame.Rect(status_x, row.y + 6, 100, row.h - 12))
        c.chips(view["taken"][p], gained_x, row.centery, min(48, row.h - 20), 6, x1 - 100 - gained_x)
        draw.text(surf, str(view["totals"][p]), 56, TEXT, "midright", (x1 - 14, row.centery))


def _status(c: Canvas, p: int, box: pygame.Rect) -> None:
    """A seat's progress in this phase: registered/expected, or a face-down card; a tick once all in."""
    shown = progress(c.view, p)
    if shown is None:
        return
    count, done = shown
    if count:
        right = draw.text(c.surf, count, 40, GREEN if done else TEXT, "midleft", (box.x, box.centery)).right + 24
    else:
        h = min(56, box.h)
        card = pygame.Rect(box.x + 14, box.centery - h // 2, h * 3 // 4, h)
        draw.back(c.surf, card, done)
        right = card.right + 32
    if done:
        draw.tick(c.surf, (right, box.centery), 16)


# ------------------------------------------------------------ reveal


def _reveal(c: Canvas, step: int) -> None:
    """Step `step` of the round's resolution: the targets (and where each went so far), the bids from the
    lowest up with their marks so far, and the steps so far in words, the current one framed; a step that
    waits for a seat (pick, gift) says on the prompt bar who does what."""
    t, view, surf = c.t, c.view, c.surf
    resolution = view["resolution"]
    steps = lowest_up(reveal_steps(view), c.faces.ranks)[:step + 1]
    _header(c, t("reveal_title"), resolution["deal"], resolution["round"])
    _revealed_targets(c, resolution["targets"], steps)
    _bid_ladder(c, resolution["bids"], steps)
    waiting = steps[-1]["step"] in ("choose", "give")
    for k, row in c.step_rows(len(steps), len(steps) - 1, REVEAL_LINES, BOTTOM if waiting else SIZE[1] - 10, 66):
        r = min(24, row.h // 2 - 2)
        draw.badge(surf, (row.x + 12 + r, row.centery), r, k + 1, GOLD)
        said = step_text(t, c.table, steps[k], c.card_name, c.faces.ranks)
        draw.text(surf, said, min(36, row.h - 6), TEXT if k == len(steps) - 1 else MUTED, "midleft",
                  (row.x + 2 * r + 26, row.centery), width=row.right - row.x - 2 * r - 40)
    if waiting:
        c.prompt_bar(t("prompt_discard_bids") if c.table.get("clearing") else prompt(t, c.table))


def _revealed_targets(c: Canvas, targets: list[str], steps: list[dict]) -> None:
    """The round's targets, each with where it went so far: a seat, discarded, or to be given."""
    t, surf = c.t, c.surf
    rank = c.faces.ranks
    went, giving = destinations(steps, rank), to_give(steps, rank)
    x, y = 24, HEADER + 8
    w, h = TARGET_CARD
    draw.text(surf, t.count("target_label", len(targets)), 30, GOLD, "topleft", (x, y))
    for i, card in enumerate(targets):
        rect = pygame.Rect(x + i * (w + 14), y + 38, w, h)
        c.faces.draw(surf, rect, card)
        if card in went or card == giving:
            player = went.get(card)
            label, fg, bg = ((t("to_give"), INK, TEXT) if card == giving else
                             (t("discarded"), TEXT, RED) if player is None else
                             (t("seat", seat=c.seat(player)), INK, GOLD))
            draw.tag(surf, label, 30, (rect.centerx, rect.bottom + 6), fg, bg, "midtop", w + 12)


def _bid_ladder(c: Canvas, bids: list[str], steps: list[dict]) -> None:
    """Every bid, lowest first, under its seat's badge (its light's colour); marked by the steps so far
    (struck out when tied), the bids of the current step framed."""
    t, surf = c.t, c.surf
    rank = c.faces.ranks
    marked = marks(steps, rank)
    current = steps[-1]
    concerned = set(current["players"]) if current["step"] == "tie" else {current.get("player")}
    x0, x1 = 2 * TARGET_CARD[0] + 70, SIZE[0] - 16
    w = min(170, (x1 - x0) // len(bids))
    card_w = min(130, w - 22)
    for _, p, cx in c.seat_columns(bid_order(bids, rank), x0, w, HEADER + 34, 26):
        card = pygame.Rect(0, 0, card_w, card_w * 4 // 3)
        card.midtop = (cx, HEADER + 72)
        c.faces.draw(surf, card, bids[p])
        mark = marked.get(p)
        if mark == "tie":
            draw.strike(surf, card)
        if mark:
            fg, bg = (TEXT, RED) if mark == "tie" else (INK, GOLD)
            draw.tag(surf, t(f"mark_{mark}"), 30, (cx, card.bottom + 8), fg, bg, "midtop", w - 6)
        if p in concerned and current["step"] != "give":
            draw.frame(surf, card.inflate(12, 12), RED if mark == "tie" else GOLD)


# ------------------------------------------------------------ take


def _take(c: Canvas) -> None:
    """What every seat does now: the targets it takes into hand, the bid it discards; targets discarded."""
    t, view = c.t, c.view
    resolution = view["resolution"]
    _header(c, t("take_title"), resolution["deal"], resolution["round"])
    taken, discarded = take_moves(view, c.faces.ranks)
    take_x, discard_x = 310, 860
    top = HEADER + 12
    c.titles([("col_take", "topleft", take_x), ("col_discard", "topleft", discard_x)], top, 32, GOLD)
    for p, row in c.seat_rows(list(range(view["players"])), top + 44, BOTTOM - (70 if discarded else 0)):
        c.seat_name(row, p, 40)
        h = min(56, row.h - 16)
        c.chips(taken[p], take_x, row.centery, h)
        c.chips([resolution["bids"][p]], discard_x, row.centery, h)
    if discarded:
        c.labelled_chips(t.count("targets_discarded", len(discarded)), discarded, (30, BOTTOM - 36), 36, 50, space=20)
    c.prompt_bar(t("prompt_clear") if c.table.get("clearing") else t("prompt_take"))


# ------------------------------------------------------------ scores


def _scores(c: Canvas) -> None:
    """The deal's score: per scoring unit its cards by rank (its hand), the ranks where it holds most
    (gold: it scores the rank's value), its points spelled out, and its total."""
    t, view, surf = c.t, c.view, c.surf
    scores = view["scores"]
    c.header(t("scores_title", deal=scores["deal"]), "", subtitle(c))
    c.line(t("scores_rule"), HEADER + 8, 30)
    ranks = scores["ranks"]
    grid_x, cell = 200, 56
    calc_x = grid_x + len(ranks) * cell + 20
    right = SIZE[0] - 30
    top = HEADER + 52
    for i, rank in enumerate(ranks):
        c.faces.draw(surf, pygame.Rect(grid_x + i * cell + 4, top, cell - 8, 40), c.faces.of_rank(rank), "chip")
    c.titles([("col_calc", "midleft", calc_x), ("col_total", "midright", right)], top + 20, 30, GOLD)
    for u, row, _ in c.unit_rows(units(view), top + 50, SIZE[1] - 10):
        for i, count in enumerate(scores["counts"][u]):
            box = pygame.Rect(grid_x + i * cell + 3, row.y + 6, cell - 6, row.h - 12)
            scored = u in scores["scorers"][i]
            if scored:
                pygame.draw.rect(surf, GOLD, box, border_radius=8)
            draw.text(surf, str(count) if count else "·", 40, INK if scored else TEXT, "center", box.center)
        draw.text(surf, formula(scores, u), 34, TEXT, "midleft", (calc_x, row.centery),
                  width=right - 110 - calc_x, lines=2)
        draw.text(surf, str(view["totals"][units(view)[u][0]]), 56, TEXT, "midright", (right, row.centery))


# ------------------------------------------------------------ stakes


def _stakes(c: Canvas) -> None:
    """The stakes settled on the final totals: what each unit receives or pays, and its net."""
    t, view, surf = c.t, c.view, c.surf
    stakes = view["stakes"]
    c.header(t("stakes_title"), "", subtitle(c))
    c.line(t("stakes_rule", stake=stakes["stake"]), HEADER + 8, 30)
    right = SIZE[0] - 30
    for u, row, x in c.unit_rows(units(view), HEADER + 56, SIZE[1] - 10):
        unit = units(view)[u]
        draw.text(surf, settlement_text(t, c.table, unit), 34, TEXT, "midleft", (x, row.centery),
                  width=right - 150 - x, lines=2)
        net = stakes["net"][unit[0]]
        draw.text(surf, f"{net:+d}" if net else "0", 56, GREEN if net > 0 else RED if net < 0 else TEXT,
                  "midright", (right, row.centery))
