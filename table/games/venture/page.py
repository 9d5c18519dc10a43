"""Venture's screen pages, drawn only from the public view: the table (centre or slug, each seat's status,
hand count, score pile by rank and total), the firing step by step, what each seat takes, and the scores
of a deal. The lobby, banners and the game-over page are the shared screen's (table/screen/screen.py).

Cards are shown grouped by rank: a chip of the rank, then "×n" when there are several.
"""
from __future__ import annotations

import pygame

from table.games.kit.pages import signed
from table.games.venture.view import pages, prompt, rank_groups, score_parts, table_columns, take_moves
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


def _ranks(c: Canvas, cards: list[str], box: pygame.Rect, most: int = 52) -> None:
    """Cards as chips by rank in `box`, labelled "×n" when several (`_groups`)."""
    _groups(c, [(card, c.t("times", n=n) if n > 1 else "") for card, n in rank_groups(cards, c.faces.ranks)], box, most)


def _groups(c: Canvas, groups: list[tuple[str, str]], box: pygame.Rect, most: int = 52) -> None:
    """Chips with a label after each, (card, label), laid out in `box`: as tall as fit (at most `most`),
    onto several lines when the box is tall enough; a dash for none."""
    if not groups:
        draw.text(c.surf, "—", min(most, 44), MUTED, "midleft", (box.x + 8, box.centery))
    else:
        c.chip_lines([card for card, _ in groups], box, range(min(most, box.h), 13, -1), 10,
                     [label for _, label in groups])


def _cell(row: pygame.Rect, x0: int, x1: int) -> pygame.Rect:
    """A seat row's box from x0 to x1, 4 pixels in from its top and bottom."""
    return pygame.Rect(x0, row.y + 4, x1 - x0, row.h - 8)


def _band(c: Canvas, label: str) -> pygame.Rect:
    """The band under the header with its label on the left; returns the box left for its cards."""
    pygame.draw.rect(c.surf, PANEL, BAND, border_radius=12)
    draw.text(c.surf, label, 32, GOLD, "midleft", (BAND.x + 16, BAND.centery), width=LABEL_W - 24, lines=2)
    return pygame.Rect(BAND.x + LABEL_W, BAND.y + 8, BAND.w - LABEL_W - 16, BAND.h - 16)


def _header(c: Canvas, title: str, deal: int, rnd: int, middle: str = "deal_round") -> None:
    """The title bar: `title`, the deal and round (`middle`'s text), the dealer."""
    view = c.view
    c.header(title, c.t(middle, deal=deal, deals=view["deals"], round=rnd, rounds=view["rounds"]),
             c.t("dealer_is", seat=c.seat(view["dealer"])))


# ------------------------------------------------------------ table

STATUS_X, HAND_X, PILE_X, TOTAL_X = 330, 470, 560, RIGHT - 14


def _table(c: Canvas) -> None:
    t, view, surf = c.t, c.view, c.surf
    phase = view["phase"]
    middle = {"draft": "deal_draft", "slug": "deal_slug"}.get(phase, "deal_round")
    _header(c, t("game_name"), view["deal"], view["round"], middle)
    if phase in ("draft", "slug"):
        _slug(c)
    else:
        _ranks(c, view["centre"], _band(c, t("centre")))
    top = BAND.bottom + 40
    place = {"col_draft": ("midbottom", STATUS_X + 50), "col_bid": ("midbottom", STATUS_X + 50),
             "col_hand_count": ("midbottom", HAND_X + 40), "col_pile": ("bottomleft", PILE_X, TOTAL_X - 80 - PILE_X),
             "col_total": ("bottomright", TOTAL_X)}
    c.titles([(key, *place[key]) for key in table_columns(view)], top - 4)
    for p, row in c.seat_rows(list(range(view["players"])), top, SIZE[1] - PROMPT - 6):
        c.seat_name(row, p, 36, right=STATUS_X - 10)
        _status(c, p, _cell(row, STATUS_X, HAND_X - 20))
        draw.text(surf, str(view["in_hand"][p]), 40, TEXT, "center", (HAND_X + 40, row.centery))
        _ranks(c, view["piles"][p], _cell(row, PILE_X, TOTAL_X - 110), 44)
        draw.text(surf, draw.number(view["totals"][p]), 48, TEXT, "midright", (TOTAL_X, row.centery))
    c.prompt_bar(prompt(c.t, c.table))


def _slug(c: Canvas) -> None:
    """The slug in the band: the cards shown so far face up, the rest face down."""
    view = c.view
    shown, size = view["slug"], view["slug_size"]
    box = _band(c, c.t("slug", shown=len(shown), size=size))
    h = box.h
    w = round(h * 0.72)
    for i, card in enumerate(shown):
        c.faces.draw(c.surf, pygame.Rect(box.x + i * (w + 12), box.y, w, h), card)
    draw.backs(c.surf, pygame.Rect(box.x + len(shown) * (w + 12), box.y, w, h), size - len(shown), w + 12)
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
    _header(c, t("fire_title"), last["deal"], last["round"])
    _ranks(c, last["centre_before"], _band(c, t("centre_before")))
    steps = last["steps"]
    top, bottom = BAND.bottom + 10, SIZE[1] - 8
    h = min(110, (bottom - top) // len(steps))   # a step's height, as c.panels lays them out
    chip_h = min(50, h - 18)
    r = min(24, (h - 18) // 2)
    text_x = LEFT + 16 + c.faces.chip_width(chip_h) + 12 + max(len(s["bids"]) for s in steps) * (2 * r + 8) + 8
    for k, row in c.step_rows(len(steps), current, top, bottom, 110, LEFT, RIGHT):
        step = steps[k]
        chip = pygame.Rect(row.x + 16, row.centery - chip_h // 2, c.faces.chip_width(chip_h), chip_h)
        c.faces.draw(surf, chip, step["bids"][0]["card"], "chip")
        for i, bid in enumerate(step["bids"]):
            c.seat_badge((chip.right + 12 + r + i * (2 * r + 8), row.centery), r, bid["seat"])
        if k > current:
            draw.dim(surf, row)
            draw.text(surf, "?", 44, MUTED, "midleft", (text_x, row.centery))
            continue
        if step["result"] == "captured":
            draw.strike(surf, chip)
        said = draw.text(surf, _step_text(c, step), 32, TEXT, "midleft", (text_x, row.centery),
                         width=(RIGHT - text_x) // 2 if step["taken"] else RIGHT - text_x - 16)
        if step["taken"]:
            box = pygame.Rect(said.right + 16, row.y + 6, row.right - 28 - said.right, row.h - 12)
            _ranks(c, step["taken"], box, 48)


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
    _header(c, t("take_title"), last["deal"], last["round"])
    top = HEADER + 50
    c.titles([("col_bid", "bottomleft", BID_X), ("col_bid_to", "bottomleft", TO_X),
              ("col_takes", "bottomleft", TAKES_X), ("col_pile_count", "bottomright", PILE_COUNT_X)], top - 4)
    centre_y = SIZE[1] - PROMPT - 46
    for move, (p, row) in zip(take_moves(last), c.seat_rows(list(range(view["players"])), top, centre_y - 44)):
        c.chips([move["bid"]], BID_X, row.centery, min(48, row.h - 12))
        to = t("to_centre") if move["to"] is None else t("to_seat", seat=c.seat(move["to"]))
        draw.text(surf, to, 32, MUTED if move["to"] is None else TEXT, "midleft", (TO_X, row.centery),
                  width=TAKES_X - TO_X - 16)
        _ranks(c, move["takes"], _cell(row, TAKES_X, PILE_COUNT_X - 90), 48)
        draw.text(surf, str(view["pile_counts"][p]), 44, TEXT, "midright", (PILE_COUNT_X, row.centery))
    label = draw.text(surf, t("centre_after"), 32, GOLD, "midleft", (LEFT + 8, centre_y), width=LABEL_W)
    _ranks(c, last["centre_after"], pygame.Rect(label.right + 16, centre_y - 26, RIGHT - label.right - 24, 52))
    c.prompt_bar(t("prompt_take"))


# ------------------------------------------------------------ scores


LOST_X, LOST_PTS_X, WON_X, WON_PTS_X, DEAL_X, SUM_X = 110, 570, 600, 1010, 1130, RIGHT - 14


def _scores(c: Canvas) -> None:
    t, view, surf = c.t, c.view, c.surf
    scores = view["scores"]
    over = view["phase"] == "over"
    several = view["deals"] > 1
    c.header(t("scores_title", deal=scores["deal"]), "", subtitle(c))
    _ranks(c, scores["centre"], _band(c, t("centre_end")))
    top = BAND.bottom + 44
    deal_x = DEAL_X if several else SUM_X
    c.titles([("col_lost", "bottomleft", LOST_X), ("col_won", "bottomleft", WON_X), ("col_deal", "bottomright", deal_x),
              *[("col_total", "bottomright", SUM_X)] * several], top - 4)
    bottom = SIZE[1] - (8 if over else PROMPT + 6)
    for player_score, (p, row) in zip(scores["players"], c.seat_rows(list(range(view["players"])), top, bottom)):
        lost, lost_points, won, won_points = score_parts(player_score)
        _ranks(c, [card for r in lost for card in r["cards"]], _cell(row, LOST_X, LOST_PTS_X - 70), 44)
        won_groups = [(r["cards"][0], t("with_centre", n=len(r["cards"]), centre=len(r["centre"])) if r["centre"]
                       else t("times", n=len(r["cards"])) if len(r["cards"]) > 1 else "") for r in won]
        _groups(c, won_groups, _cell(row, WON_X, WON_PTS_X - 70), 44)
        for points, x, colour in ((lost_points, LOST_PTS_X, RED), (won_points, WON_PTS_X, GREEN)):
            if points:
                draw.text(surf, signed(points), 40, colour, "midright", (x, row.centery))
        draw.text(surf, f"= {signed(player_score['points'])}", 48, GOLD, "midright", (deal_x, row.centery))
        if several:
            draw.text(surf, draw.number(view["totals"][p]), 48, TEXT, "midright", (SUM_X, row.centery))
    if not over:
        c.prompt_bar(t("prompt_next_deal", seat=c.seat(view["dealer"]), deal=view["deal"]))
