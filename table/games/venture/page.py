"""Venture's screen pages, drawn only from the public view: the table (centre or slug, each seat's status,
hand count, score pile by rank and total), the firing step by step, what each seat takes, and the scores
of a deal. The lobby, banners and the game-over page are the shared screen's (table/screen/screen.py).

Cards are shown grouped by rank: a chip of the rank, then "×n" when there are several.
"""
from __future__ import annotations

import pygame

from table.games.kit.pages import signed
from table.games.venture.view import pages, prompt, rank_groups, score_parts, take_moves
from table.screen import draw
from table.screen.canvas import HEADER, PROMPT, Canvas
from table.screen.draw import GOLD, GREEN, INK, MUTED, PANEL, RED, SIZE, TEXT

__all__ = ["draw_page", "pages", "subtitle"]   # what the screen asks of a game's page

LEFT, RIGHT = 16, SIZE[0] - 16
BAND = pygame.Rect(LEFT, HEADER + 8, RIGHT - LEFT, 92)     # the band under the header: the centre, the slug
LABEL_W = 230                                             # the band's label column


def draw_page(c: Canvas, page: str, step: int | None) -> None:
    """Draw one of this game's pages."""
    if page == "fire":
        _fire(c, step or 0)
    else:
        {"table": _table, "take": _take, "scores": _scores}[page](c)


def subtitle(c: Canvas) -> str:
    """The game-over page's header right text: how many deals were played."""
    return c.t.count("deals_count", c.view["deals"])


# ------------------------------------------------------------ drawing helpers


def _counted(c: Canvas, cards: list[str]) -> list[tuple[str, str]]:
    """Cards as chips by rank, labelled "×n" when several."""
    return [(card, c.t("times", n=n) if n > 1 else "") for card, n in rank_groups(cards, c.faces.ranks)]


def _groups(c: Canvas, groups: list[tuple[str, str]], box: pygame.Rect, most: int = 52) -> int:
    """Chips with a label after each, (card, label), laid out in `box`: as tall as fit (at most `most`),
    onto several lines when the box is tall enough; a dash for none. Returns the right edge used."""
    if not groups:
        return draw.text(c.surf, "—", min(most, 44), MUTED, "midleft", (box.x + 8, box.centery)).right
    gap = 10
    for h in range(min(most, box.h), 13, -1):
        size = max(20, round(h * 0.8))
        widths = [c.faces.chip_width(h) + (draw.font(size).size(label)[0] + 6 if label else 0) for _, label in groups]
        lines, x = [[]], 0
        for i, w in enumerate(widths):
            if x and x + w > box.w:
                lines.append([])
                x = 0
            lines[-1].append(i)
            x += w + gap
        widest = max(sum(widths[i] + gap for i in line) - gap for line in lines)
        if (len(lines) * (h + gap) - gap <= box.h and widest <= box.w) or h == 14:
            break
    top = box.centery - (len(lines) * (h + gap) - gap) / 2
    right = box.x
    for row, line in enumerate(lines):
        x, cy = box.x, top + row * (h + gap) + h / 2
        for i in line:
            card, label = groups[i]
            chip = pygame.Rect(x, cy - h / 2, c.faces.chip_width(h), h)
            c.faces.draw(c.surf, chip, card, "chip")
            if label:
                draw.text(c.surf, label, size, TEXT, "midleft", (chip.right + 6, cy))
            x += widths[i] + gap
            right = max(right, x - gap)
    return right


def _band(c: Canvas, label: str) -> pygame.Rect:
    """The band under the header with its label on the left; returns the box left for its cards."""
    pygame.draw.rect(c.surf, PANEL, BAND, border_radius=12)
    draw.text(c.surf, label, 32, GOLD, "midleft", (BAND.x + 16, BAND.centery), width=LABEL_W - 24, lines=2)
    return pygame.Rect(BAND.x + LABEL_W, BAND.y + 8, BAND.w - LABEL_W - 16, BAND.h - 16)


def _round_header(c: Canvas, title: str) -> None:
    last = c.view["last_round"]
    c.header(title, c.t("deal_round", deal=last["deal"], deals=c.view["deals"], round=last["round"],
                        rounds=c.view["rounds"]), c.t("dealer_is", seat=c.seat(c.view["dealer"])))


# ------------------------------------------------------------ table

STATUS_X, HAND_X, PILE_X, TOTAL_X = 330, 470, 560, RIGHT - 14


def _table(c: Canvas) -> None:
    t, view, surf = c.t, c.view, c.surf
    phase = view["phase"]
    middle = {"draft": "deal_draft", "slug": "deal_slug"}.get(phase, "deal_round")
    c.header(t("game_name"), t(middle, deal=view["deal"], deals=view["deals"], round=view["round"],
                               rounds=view["rounds"]), t("dealer_is", seat=c.seat(view["dealer"])))
    if phase in ("draft", "slug"):
        _slug(c)
    else:
        _groups(c, _counted(c, view["centre"]), _band(c, t("centre")))
    top = BAND.bottom + 40
    columns = [("col_hand_count", "midbottom", HAND_X + 40), ("col_pile", "bottomleft", PILE_X),
               ("col_total", "bottomright", TOTAL_X)]
    if phase in ("draft", "bidding"):
        columns.append((f"col_{'draft' if phase == 'draft' else 'bid'}", "midbottom", STATUS_X + 50))
    c.titles(columns, top - 4)
    for p, row in c.seat_rows(list(range(view["players"])), top, SIZE[1] - PROMPT - 6):
        r = min(34, row.h // 2 - 4)
        draw.text(surf, t("seat", seat=c.seat(p)), 36, TEXT, "midleft", (row.x + 24 + 2 * r, row.centery),
                  width=STATUS_X - row.x - 34 - 2 * r)
        _status(c, p, pygame.Rect(STATUS_X, row.y + 4, HAND_X - STATUS_X - 20, row.h - 8))
        draw.text(surf, str(view["in_hand"][p]), 40, TEXT, "center", (HAND_X + 40, row.centery))
        _groups(c, _counted(c, view["piles"][p]), pygame.Rect(PILE_X, row.y + 4, TOTAL_X - 110 - PILE_X, row.h - 8), 44)
        draw.text(surf, draw.number(view["totals"][p]), 48, TEXT, "midright", (TOTAL_X, row.centery))
    c.prompt_bar(prompt(c.t, c.table))


def _slug(c: Canvas) -> None:
    """The slug in the band: the cards shown so far face up, the rest face down."""
    view = c.view
    shown, size = view["slug"], view["slug_size"]
    box = _band(c, c.t("slug", shown=len(shown), size=size))
    h = box.h
    w = round(h * 0.72)
    for i in range(size):
        rect = pygame.Rect(box.x + i * (w + 12), box.y, w, h)
        if i < len(shown):
            c.faces.draw(c.surf, rect, shown[i])
        else:
            draw.back(c.surf, rect, True)
    if view["phase"] == "draft":
        draw.text(c.surf, c.t("slug_face_down"), 30, MUTED, "midleft", (box.x + size * (w + 12) + 10, box.centery),
                  width=box.right - box.x - size * (w + 12) - 10)


def _status(c: Canvas, p: int, box: pygame.Rect) -> None:
    """A seat's status: its draft done or not, its sealed bid in or not (a face-down card, never the card)."""
    view = c.view
    if view["phase"] == "draft":
        done = view["drafted"][p]
        draw.tag(c.surf, c.t("draft_done" if done else "draft_busy"), 28, (box.x, box.centery),
                 INK, GREEN if done else MUTED, "midleft", box.w)
    elif view["phase"] == "bidding":
        h = min(44, box.h)
        committed = view["committed"][p]
        draw.back(c.surf, pygame.Rect(box.x, box.centery - h // 2, round(h * 0.72), h), committed)
        if committed:
            draw.tick(c.surf, (box.x + round(h * 0.72) + 30, box.centery), 16)


# ------------------------------------------------------------ firing


def _fire(c: Canvas, current: int) -> None:
    t, view, surf = c.t, c.view, c.surf
    last = view["last_round"]
    _round_header(c, t("fire_title"))
    _groups(c, _counted(c, last["centre_before"]), _band(c, t("centre_before")))
    steps = last["steps"]
    top, bottom = BAND.bottom + 10, SIZE[1] - 8
    h = min(110, (bottom - top) // len(steps))   # a step's height, as c.panels lays them out
    most_bids = max(len(s["bids"]) for s in steps)
    chip_h = min(50, h - 18)
    r = min(24, (h - 18) // 2)
    text_x = LEFT + 16 + c.faces.chip_width(chip_h) + 12 + most_bids * (2 * r + 8) + 8
    for k, row in c.panels(len(steps), top, bottom, 110, LEFT, RIGHT, lit=current):
        step = steps[k]
        chip = pygame.Rect(row.x + 16, row.centery - chip_h // 2, c.faces.chip_width(chip_h), chip_h)
        c.faces.draw(surf, chip, step["bids"][0]["card"], "chip")
        for i, bid in enumerate(step["bids"]):
            c.seat_badge((chip.right + 12 + r + i * (2 * r + 8), row.centery), r, bid["seat"])
        if k > current:
            draw.dim(surf, row)
            draw.text(surf, "?", 44, MUTED, "midleft", (text_x, row.centery))
            continue
        if k == current:
            draw.frame(surf, row.inflate(6, 6))
        if step["result"] == "captured":
            draw.strike(surf, chip)
        said = draw.text(surf, _step_text(c, step), 32, TEXT, "midleft", (text_x, row.centery),
                         width=(RIGHT - text_x) // 2 if step["taken"] else RIGHT - text_x - 16)
        if step["taken"]:
            _groups(c, _counted(c, step["taken"]), pygame.Rect(said.right + 16, row.y + 6,
                                                               row.right - 12 - said.right - 16, row.h - 12), 48)


def _step_text(c: Canvas, step: dict) -> str:
    """A step's result in words."""
    t = c.t
    result = step["result"]
    if result == "highest":
        return t("step_highest", top=c.faces.ranks[step["taken"][0]])
    if result == "lower":
        return t("step_lower", rank=step["rank"]) if step["taken"] else t("step_lower_none")
    if result == "missed":
        return t("step_missed")
    return t("step_captured", seat=c.seat(step["by"]))


# ------------------------------------------------------------ take


BID_X, TO_X, TAKES_X, PILE_COUNT_X = 110, 210, 440, RIGHT - 14


def _take(c: Canvas) -> None:
    t, view, surf = c.t, c.view, c.surf
    last = view["last_round"]
    _round_header(c, t("take_title"))
    top = HEADER + 50
    c.titles([("col_bid", "bottomleft", BID_X), ("col_bid_to", "bottomleft", TO_X),
                ("col_takes", "bottomleft", TAKES_X), ("col_pile_count", "bottomright", PILE_COUNT_X)], top - 4)
    centre_y = SIZE[1] - PROMPT - 46
    moves = take_moves(last)
    for p, row in c.seat_rows(list(range(view["players"])), top, centre_y - 44):
        move = moves[p]
        h = min(48, row.h - 12)
        c.faces.draw(surf, pygame.Rect(BID_X, row.centery - h / 2, c.faces.chip_width(h), h), move["bid"], "chip")
        to = t("to_centre") if move["to"] is None else t("to_seat", seat=c.seat(move["to"]))
        draw.text(surf, to, 32, MUTED if move["to"] is None else TEXT, "midleft", (TO_X, row.centery),
                  width=TAKES_X - TO_X - 16)
        _groups(c, _counted(c, move["takes"]), pygame.Rect(TAKES_X, row.y + 4, PILE_COUNT_X - 90 - TAKES_X, row.h - 8), 48)
        draw.text(surf, str(view["pile_counts"][p]), 44, TEXT, "midright", (PILE_COUNT_X, row.centery))
    label = draw.text(surf, t("centre_after"), 32, GOLD, "midleft", (LEFT + 8, centre_y), width=LABEL_W)
    _groups(c, _counted(c, last["centre_after"]), pygame.Rect(label.right + 16, centre_y - 26, RIGHT - label.right - 24, 52))
    c.prompt_bar(t("prompt_take"))


# ------------------------------------------------------------ scores


LOST_X, LOST_PTS_X, WON_X, WON_PTS_X, DEAL_X, SUM_X = 110, 570, 600, 1010, 1130, RIGHT - 14


def _scores(c: Canvas) -> None:
    t, view, surf = c.t, c.view, c.surf
    scores = view["scores"]
    over = view["phase"] == "over"
    several = view["deals"] > 1
    c.header(t("scores_title", deal=scores["deal"]), "", subtitle(c))
    _groups(c, _counted(c, scores["centre"]), _band(c, t("centre_end")))
    top = BAND.bottom + 44
    deal_x = DEAL_X if several else SUM_X
    columns = [("col_lost", "bottomleft", LOST_X), ("col_won", "bottomleft", WON_X), ("col_deal", "bottomright", deal_x)]
    c.titles(columns + [("col_total", "bottomright", SUM_X)] * several, top - 4)
    bottom = SIZE[1] - (8 if over else PROMPT + 6)
    for player_score, (p, row) in zip(scores["players"], c.seat_rows(list(range(view["players"])), top, bottom)):
        lost, lost_points, won, won_points = score_parts(player_score)
        lost_cards = [card for r in lost for card in r["cards"]]
        _groups(c, _counted(c, lost_cards), pygame.Rect(LOST_X, row.y + 4, LOST_PTS_X - 70 - LOST_X, row.h - 8), 44)
        if lost:
            draw.text(surf, signed(lost_points), 40, RED, "midright", (LOST_PTS_X, row.centery))
        won_groups = [(r["cards"][0], t("with_centre", n=len(r["cards"]), centre=len(r["centre"])) if r["centre"]
                       else t("times", n=len(r["cards"])) if len(r["cards"]) > 1 else "") for r in won]
        _groups(c, won_groups, pygame.Rect(WON_X, row.y + 4, WON_PTS_X - 70 - WON_X, row.h - 8), 44)
        if won:
            draw.text(surf, signed(won_points), 40, GREEN, "midright", (WON_PTS_X, row.centery))
        draw.text(surf, f"= {signed(player_score['points'])}", 48, GOLD, "midright", (deal_x, row.centery))
        if several:
            draw.text(surf, draw.number(view["totals"][p]), 48, TEXT, "midright", (SUM_X, row.centery))
    if not over:
        c.prompt_bar(t("prompt_next_deal", seat=c.seat(view["dealer"]), deal=view["deal"]))
