"""Neurotrio's screen pages, drawn only from the public view: the setup (the start card, the deal and each
hand's registration), the domain (the reference the players fix the physical grid to: every card where it
lies, a ring of empty cells round them, the legal cells with their rewards and the prompt's cursor while a
seat chooses, the bids on their cards; each seat's hand count, points, tokens left and finishing place), and
at the end the finishing bonuses and penalties, the treasure, every bid's score spelled out and the points
by kind. The lobby, banners, seat menus and the game-over page are the shared screen's
(table/screen/screen.py).

Before the end the screen never knows a hand, a token's kind or set, the removed card or the treasure: a
bid's token is a neutral back (TABLE-PROTOCOLS 3.3).
"""
from __future__ import annotations

from typing import NamedTuple

import pygame

from table.games.kit.pages import signed
from table.games.neurotrio.view import (COLUMNS, bid_text, bids_on, cursor_cell, finish_order, instruction,
                                        neuro_note, notes, pages, place, ranking, seat_piece, to_act)
from table.screen import draw
from table.screen.canvas import HEADER, PROMPT, Canvas
from table.screen.draw import GOLD, GREEN, INK, MUTED, PANEL, PANEL_HI, RED, SIZE, TEAMS, TEXT
from table.screen.i18n import Translator

TOP, BOTTOM = HEADER + 8, SIZE[1] - PROMPT - 8   # the page's body, between the title and the prompt bars
SEATS_W = 460                                    # the seat boxes' column, on the right of the domain page
SEATS_X = SIZE[0] - 16 - SEATS_W
BOARD = pygame.Rect(16, TOP, SEATS_X - 28, BOTTOM - TOP)   # the domain and its notes
NOTE_H = 34                                      # a note line over the domain
CELL_MAX = 150                                   # a cell's height at most (a small domain)
RATIO = 0.75                                     # a cell's width to its height: the cards stand upright
GAP = 4                                          # between cells
BIDDING = TEAMS[0]                               # the bid under way's colour

__all__ = ["draw_page", "pages", "subtitle"]   # what the screen asks of a game's page
MARK_R = 19   # the smallest bid mark: its base's value is drawn at the legible size (docs/screen.md)

def draw_page(c: Canvas, page: str, step: int | None) -> None:
    """Draw one of this game's pages."""
    {"setup": _setup, "domain": _domain, "finish": _finish, "treasure": _treasure, "bids": _bids,
     "scores": _scores}[page](c)


def subtitle(c: Canvas) -> str:
    """The end pages' header right text: why the building ended."""
    return c.t(f"ended_{c.view['end']['reason']}")


# ------------------------------------------------------------ the grid (pure geometry)


class Grid(NamedTuple):
    """Where the domain page draws its cells: cell (`top`, `left`) at (x, y), each w x h, GAP apart; `rows`
    x `cols` cells in all (the bounding box and a ring of empty cells round it)."""

    top: int
    left: int
    rows: int
    cols: int
    x: int
    y: int
    w: int
    h: int

    @classmethod
    def fit(cls, box: dict, area: pygame.Rect) -> "Grid":
        """The largest cells (at most CELL_MAX high) for the box and its ring, centred in `area`."""
        rows, cols = box["rows"] + 2, box["cols"] + 2
        h = min(CELL_MAX, (area.h - (rows - 1) * GAP) / rows, (area.w - (cols - 1) * GAP) / cols / RATIO)
        w, h = int(h * RATIO), int(h)
        width, height = cols * (w + GAP) - GAP, rows * (h + GAP) - GAP
        return cls(box["top"] - 1, box["left"] - 1, rows, cols, area.centerx - width // 2,
                   area.centery - height // 2, w, h)

    def rect(self, row: int, col: int) -> pygame.Rect:
        """Cell (row, col)'s rect (rows and columns counted from the start card, as in the view)."""
        return pygame.Rect(self.x + (col - self.left) * (self.w + GAP), self.y + (row - self.top) * (self.h + GAP),
                           self.w, self.h)

    def cells(self):
        """Every (row, col) drawn, in reading order."""
        return ((r, c) for r in range(self.top, self.top + self.rows) for c in range(self.left, self.left + self.cols))


# ------------------------------------------------------------ setup


def _setup(c: Canvas) -> None:
    """Before play: shuffle and show a start card on the centre pad; then deal from the first seat, the start
    card as shown, and each seat's registered and dealt counts."""
    t, view, surf = c.t, c.view, c.surf
    c.header(t("game_name"), t("setup_title"))
    cx = SIZE[0] // 2
    if view["phase"] == "show":
        draw.text(surf, t("setup_shuffle"), 50, GOLD, "midtop", (cx, TOP + 24), width=SIZE[0] - 60, lines=2)
        pad = (cx - 250, TOP + 320)
        pygame.draw.circle(surf, PANEL, pad, 150)
        pygame.draw.circle(surf, MUTED, pad, 150, 4)
        draw.text(surf, t("centre_pad"), 30, MUTED, "midtop", (pad[0], pad[1] + 100))
        draw.back(surf, pygame.Rect(pad[0] - 60, pad[1] - 110, 120, 160), True)
        draw.text(surf, t("setup_show"), 40, TEXT, "midleft", (cx - 40, pad[1]), width=SIZE[0] - cx - 20, lines=4)
    else:
        card = pygame.Rect(40, TOP + 60, 240, 320)
        draw.text(surf, t("start_card"), 34, GOLD, "midbottom", (card.centerx, card.y - 12), width=300)
        c.faces.draw(surf, card, view["start_card"])
        draw.text(surf, t("start_card_note"), 28, TEXT, "midtop", (card.centerx, card.bottom + 14), width=300, lines=3)
        x0 = card.right + 50
        draw.text(surf, t("setup_deal", seat=c.seat(view["first"])), 40, GOLD, "topleft", (x0, TOP + 8),
                  width=SIZE[0] - 16 - x0)
        for p, row in c.seat_rows(list(range(view["players"])), TOP + 62, BOTTOM + 8, 90, x0):
            _registration(c, p, row)
    c.prompt_bar(instruction(t, c.table))


def _registration(c: Canvas, p: int, row: pygame.Rect) -> None:
    """A seat's registered / dealt count with its bar, a tick once complete, and its starting points."""
    t, view, surf = c.t, c.view, c.surf
    done, dealt = view["counts"][p], view["dealt"][p]
    x = row.x + row.h + 20
    size = min(44, row.h - 14)
    draw.text(surf, f"{done} / {dealt}", size, TEXT, "midleft", (x, row.centery))
    bar = pygame.Rect(x + 130, row.centery - 10, 300, 20)
    pygame.draw.rect(surf, PANEL_HI, bar, border_radius=10)
    pygame.draw.rect(surf, GREEN, (bar.x, bar.y, max(bar.h, bar.w * done // dealt), bar.h), border_radius=10)
    if done == dealt:
        draw.tick(surf, (bar.right + 34, row.centery), 16)
    draw.text(surf, t("start_points", points=view["points"][p]["start"]), min(32, size), MUTED, "midright",
              (row.right - 16, row.centery), width=row.right - bar.right - 80)


# ------------------------------------------------------------ the domain


def layout(t: Translator, table: dict) -> tuple[list[str], Grid]:
    """The domain page's notes (one line each over the domain) and its grid (in the room left under them)."""
    lines = notes(t, table)
    skip = NOTE_H * len(lines) + (6 if lines else 0)
    return lines, Grid.fit(table["view"]["box"], pygame.Rect(BOARD.x, BOARD.y + skip, BOARD.w, BOARD.h - skip))


def _domain(c: Canvas) -> None:
    """The main page: the limits and the bases left on top, the notes, the domain, the seat boxes, what to do."""
    t, view = c.t, c.view
    c.header(t("game_name"), t("limits", rows=view["limits"][0], cols=view["limits"][1]))
    _bases(c)
    lines, grid = layout(t, c.table)
    for i, line in enumerate(lines):
        x, y = BOARD.x + 4, BOARD.y + NOTE_H * i + NOTE_H // 2
        if line == t("bid_legend"):   # the legend of the bid marks, after one
            _bid_mark(c, (x + MARK_R, y), MARK_R, 7, True)
            x += 2 * MARK_R + 10
        draw.text(c.surf, line, 28, GOLD if i == 0 and neuro_note(view) else TEXT, "midleft", (x, y),
                  width=BOARD.right - x - 4)
    _board(c, grid)
    _seats(c)
    c.prompt_bar(instruction(t, c.table))


def _bases(c: Canvas) -> None:
    """The base cards left, small, at the right end of the title bar."""
    surf, left = c.surf, c.view["bases_left"]
    right = SIZE[0] - 24
    draw.text(surf, c.t("bases"), 24, MUTED, "topright", (right, 8))
    if not left:
        draw.text(surf, "—", 34, MUTED, "topright", (right, 38))
    w, h, step = 26, 32, 29
    for i, value in enumerate(left):
        c.faces.base(surf, pygame.Rect(right - (len(left) - i) * step + step - w, 36, w, h), value)


def _board(c: Canvas, grid: Grid) -> None:
    """The domain as the reference for the physical grid: empty cells, the cards (the last one laid framed),
    the legal cells with their rewards and the cursor's cell while a seat chooses, the bids on their cards."""
    view, surf = c.view, c.surf
    laid = {(row, col): card for row, col, card in view["domain"]}
    where = {card: (row, col) for (row, col), card in laid.items()}
    for cell in grid.cells():
        if cell not in laid:
            pygame.draw.rect(surf, PANEL, grid.rect(*cell), border_radius=max(3, grid.w // 9))
    for (row, col), card in laid.items():
        c.faces.draw(surf, grid.rect(row, col), card)
    if len(view["domain"]) > 1:
        row, col, _ = view["domain"][-1]
        draw.frame(surf, grid.rect(row, col).inflate(8, 8), TEXT, 3)
    cursor = cursor_cell(c.table)
    size = max(draw.LEGIBLE, grid.h * 2 // 5)
    for row, col, reward in view["cells"]:
        if (row, col) != cursor:
            rect = grid.rect(row, col)
            pygame.draw.rect(surf, GREEN, rect, 3, border_radius=max(3, grid.w // 9))
            if reward:
                draw.tag(surf, f"+{reward}", size, rect.center, INK, GREEN, "center")
    _bid_marks(c, grid, where)   # over the cards and cells: a row of marks grown past its card stays whole
    for row, col, reward in view["cells"]:
        if (row, col) == cursor:   # the cell the seat is choosing, over all
            rect = grid.rect(row, col)
            c.faces.draw(surf, rect, view["chosen"], dim=True)
            draw.frame(surf, rect.inflate(12, 12), GOLD, 6)
            if reward:
                draw.tag(surf, f"+{reward}", size, rect.midbottom, INK, GOLD, "center")


def _bid_marks(c: Canvas, grid: Grid, where: dict[str, tuple[int, int]]) -> None:
    """Each bid on its domain card, as it lies there (`_bid_mark`); the bid under way in its own colour, its card
    framed. Several bids on one card share its lower half."""
    bid = c.view["bid"]
    if bid and bid["card"]:
        draw.frame(c.surf, grid.rect(*where[bid["card"]]).inflate(10, 10), BIDDING, 5)
    spilt: list[pygame.Rect] = []   # the rows of marks laid across neighbours so far
    laid = []
    for card, marks in bids_on(c.view).items():
        rect = grid.rect(*where[card])
        r, per_row = max((_mark_radius(rect, len(marks), k), k) for k in range(1, len(marks) + 1))
        if r < MARK_R:   # too small to read on the card: legible marks in a row across its foot, over its neighbours
            r, per_row, card_rect = MARK_R, len(marks), rect
            rect = pygame.Rect(0, 0, 2 * r * len(marks) + 2, 2 * r + 2)
            rect.midbottom = card_rect.midbottom
            while rect.inflate(12, 12).collidelist(spilt) >= 0:   # below any other card's row, none hiding another
                rect.y += 2 * r + 8
            spilt.append(rect)
            pygame.draw.line(c.surf, GOLD, card_rect.center, rect.center, 5)   # tied to its card, under every row
        laid.append((rect, r, per_row, marks))
    for row in spilt:
        pygame.draw.rect(c.surf, INK, row.inflate(8, 8), border_radius=row.h // 2 + 4)
    for rect, r, per_row, marks in laid:
        for i, (bid, current) in enumerate(marks):
            line, k = divmod(i, per_row)
            _bid_mark(c, (rect.right - r - 1 - k * 2 * r, rect.bottom - r - 1 - line * 2 * r), r, bid["base"],
                      bid["token"] is not None, BIDDING if current else GOLD)


def _mark_radius(card: pygame.Rect, marks: int, per_row: int) -> float:
    """How large `marks` bid marks may be on a card, `per_row` side by side: one line of them anywhere, more in
    its lower half."""
    lines = -(-marks // per_row)
    return min(card.w * 0.3, card.w / (2 * per_row) - 1, card.h / (4 * lines) if lines > 1 else card.h)


def _bid_mark(c: Canvas, centre, r: float, base: int, token: bool, colour=GOLD) -> None:
    """A bid as the public sees it: its base's value in a disc, with a small neutral back on it once its token
    (hidden) is in."""
    x, y = centre
    pygame.draw.circle(c.surf, colour, centre, r)
    pygame.draw.circle(c.surf, INK, centre, r, max(1, round(r / 8)))
    draw.text(c.surf, str(base), round(r * 1.3), INK, "center", (x, y + r * 0.05))
    if token:
        small = r * 0.55
        c.faces.token_back(c.surf, pygame.Rect(x + r * 0.8 - small, y - r * 0.8 - small, 2 * small, 2 * small))


# ------------------------------------------------------------ seat boxes


def _seats(c: Canvas) -> None:
    """One box per seat, in playing order, the one to act framed."""
    turn = to_act(c.view)
    for p, box in c.panels(c.view["players"], TOP, BOTTOM + 8, 120, SEATS_X, SEATS_X + SEATS_W, lit=turn):
        _seat(c, p, box, p == turn)


def _seat(c: Canvas, p: int, box: pygame.Rect, turn: bool) -> None:
    """A seat's badge; its hand count (or, once empty, its finishing place); its points; then its bids and
    tokens left, or the card it chose, or its bid under way."""
    t, view, surf = c.t, c.view, c.surf
    r = min(28, box.h // 2 - 6)
    c.seat_badge((box.x + 10 + r, box.centery), r, p)
    size = min(52, box.h - 14)
    x = box.x + 22 + 2 * r
    if place(view, p) is None:
        draw.back(surf, pygame.Rect(x, box.centery - size * 0.32, size * 0.46, size * 0.64), True)
        draw.text(surf, str(view["counts"][p]), size, TEXT, "midleft", (x + size * 0.56, box.centery))
    else:
        draw.tag(surf, t(f"place_{place(view, p)}"), round(size * 0.7), (x, box.centery), INK, GOLD, "midleft")
    x += round(size * 1.75)
    draw.star(surf, (x + size * 0.25, box.centery), size * 0.25)
    draw.text(surf, draw.number(view["totals"][p]), size, GOLD, "midleft", (x + size * 0.56, box.centery))
    x += round(size * 2)
    right = pygame.Rect(x, box.y + 4, box.right - 10 - x, box.h - 8)
    piece = seat_piece(view, p)
    if piece == "chosen":
        c.chips([view["chosen"]], right.x, right.centery, c.chip_height(1, right.w, min(48, right.h)))
    elif piece == "bid":
        _bid_pieces(c, view["bid"], right)
    else:
        _tokens(c, p, right, size)
    if turn:
        draw.frame(surf, box, GOLD, 4)


def _tokens(c: Canvas, p: int, area: pygame.Rect, size: int) -> None:
    """A seat's tokens left (a back and their number) and its passes."""
    r = size * 0.3
    left = c.view["tokens_left"][p]
    c.faces.token_back(c.surf, pygame.Rect(area.x, area.centery - r, 2 * r, 2 * r))
    draw.text(c.surf, str(left), size, TEXT if left else MUTED, "midleft", (area.x + 2 * r + 6, area.centery))
    passes = c.view["passes"][p]
    if passes:
        draw.text(c.surf, c.t.count("passes", passes), 24, MUTED, "midright", (area.right, area.centery),
                  width=area.w - round(2 * r + size * 1.2))


def _bid_pieces(c: Canvas, bid: dict, area: pygame.Rect) -> None:
    """The bid under way in its bidder's box: the base (or an empty disc), the card bet on (or an empty frame),
    the token (a back, or an empty disc)."""
    surf = c.surf
    r = min(18, area.h // 2 - 2)
    h = min(2 * r, c.chip_height(1, area.w - 4 * r - 16, 2 * r))
    w = c.faces.chip_width(h)
    pieces = (area.x + r, area.x + 2 * r + 8, area.x + 2 * r + w + 16 + r)
    if bid["base"]:
        _bid_mark(c, (pieces[0], area.centery), r, bid["base"], False, BIDDING)
    else:
        pygame.draw.circle(surf, MUTED, (pieces[0], area.centery), r, 2)
    if bid["card"]:
        c.chips([bid["card"]], pieces[1], area.centery, h)
    else:
        pygame.draw.rect(surf, MUTED, (pieces[1], area.centery - h // 2, w, h), 2, border_radius=h // 5)
    if bid["token"]:
        c.faces.token_back(surf, pygame.Rect(pieces[2] - r, area.centery - r, 2 * r, 2 * r))
    else:
        pygame.draw.circle(surf, MUTED, (pieces[2], area.centery), r, 2)


# ------------------------------------------------------------ the end


def _finish(c: Canvas) -> None:
    """Finishing bonuses 5/3/1 in finishing order, then each seat still holding cards: its count (the cards
    stay hidden) and its penalty."""
    t, view, surf = c.t, c.view, c.surf
    c.header(t("finish_title"), "", subtitle(c))
    c.line(t("finish_rule"), TOP, 28, lines=2)
    for p, row in c.score_rows(finish_order(view), TOP + 72, BOTTOM + 8, 90):
        points = view["points"][p]
        x = row.x + 320
        if p in view["finished"]:
            draw.tag(surf, t(f"place_{view['finished'].index(p) + 1}"), 36, (x, row.centery), INK, GOLD, "midleft")
            score = points["finishing"]
        else:
            count = view["counts"][p]
            draw.backs(surf, pygame.Rect(x, row.centery - 22, 32, 44), min(count, 12), 14)
            draw.text(surf, t.count("keeps", count), 36, TEXT, "midleft", (x + min(count, 12) * 14 + 36, row.centery))
            score = points["penalty"]
        draw.text(surf, signed(score), 56, RED if score < 0 else GOLD if score else MUTED, "midright",
                  (row.right - 24, row.centery))
    c.prompt_bar("")


def _treasure(c: Canvas) -> None:
    """The treasure, big, named; the removed card, its twin, beside it."""
    t, view, surf = c.t, c.view, c.surf
    end = view["end"]
    c.header(t("treasure_title"), "", subtitle(c))
    draw.text(surf, t("treasure", card=c.card_name(end["treasure"])), 56, GOLD, "midtop", (SIZE[0] // 2, TOP + 8),
              width=SIZE[0] - 40)
    card = pygame.Rect(0, 0, 300, 400)
    card.midtop = (SIZE[0] // 2 - 130, TOP + 84)
    c.faces.draw(surf, card, end["treasure"])
    draw.frame(surf, card.inflate(18, 18), GOLD, 7)
    removed = pygame.Rect(card.right + 80, card.y + 100, 180, 240)
    c.faces.draw(surf, removed, end["removed"])
    draw.text(surf, t("removed"), 30, TEXT, "midtop", (removed.centerx, removed.bottom + 12), width=330, lines=2)
    c.prompt_bar(t("treasure_note"))


def _bids(c: Canvas) -> None:
    """Every bid in the order made: its bidder, base, card and token (turned over), its score spelled out."""
    t, view, surf = c.t, c.view, c.surf
    c.header(t("bids_title"), "", subtitle(c))
    bids = view["bids"]
    if not bids:
        draw.text(surf, t("no_bids"), 48, MUTED, "center", (SIZE[0] // 2, SIZE[1] // 2))
    treasure = c.faces.attributes(view["end"]["treasure"])
    for i, row in c.panels(len(bids), TOP, BOTTOM + 8, 84, gap=6):
        bid = bids[i]
        r = min(28, row.h // 2 - 4)
        c.seat_badge((row.x + 10 + r, row.centery), r, bid["bidder"])
        x = row.x + 24 + 2 * r
        size = row.h - 10
        c.faces.base(surf, pygame.Rect(x, row.y + 5, size * 3 // 4, size), bid["base"])
        x += size * 3 // 4 + 10
        chip = min(size, 52)
        x = c.chips([bid["card"]], x, row.centery, chip) + 10
        token = pygame.Rect(x, row.centery - chip // 2, round(chip * 2.6), chip)
        x = c.faces.kind_tag(surf, token, bid["token"]).right + 16
        said = bid_text(t, bid, c.faces.attributes(bid["card"]), treasure)
        draw.text(surf, said, min(30, row.h - 20), TEXT, "midleft", (x, row.centery), width=row.right - 140 - x)
        score = bid["score"]
        draw.text(surf, signed(score), min(52, row.h), RED if score < 0 else GOLD if score else MUTED, "midright",
                  (row.right - 20, row.centery))
    c.prompt_bar("")


def _scores(c: Canvas) -> None:
    """Each seat's points by kind (start, rewards, passes, finishing, penalty, bids) and total; the winners
    framed."""
    t, view, surf = c.t, c.view, c.surf
    c.header(t("scores_title"), "", subtitle(c))
    first, step = 300, 128
    xs = [first + k * step + step // 2 for k in range(len(COLUMNS))]   # each kind's column
    c.titles([(f"col_{key}", "midbottom", x, step - 8) for key, x in zip(COLUMNS, xs)], TOP + 36)
    total_x = first + len(COLUMNS) * step + 90
    draw.text(surf, t("col_total"), 28, GOLD, "midbottom", (total_x, TOP + 36))
    for p, row in c.score_rows(ranking(view), TOP + 44, BOTTOM + 8, 84, crown=20):
        for key, x in zip(COLUMNS, xs):
            value = view["points"][p][key]
            shown = draw.number(value) if value else "·"
            draw.text(surf, shown, 40, TEXT if value else MUTED, "center", (x, row.centery))
        draw.text(surf, draw.number(view["totals"][p]), 52, TEXT, "center", (total_x, row.centery))
    c.prompt_bar("")
