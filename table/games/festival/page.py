"""Festival's screen pages, drawn only from the public view: the table (this turn's packet and who chose, in
order, then every seat's tableau by profession with its face-down cards as backs), the end of a turn (the
cards kept in order, who passed to whom, the next first player and why), and at the end every tableau
turned over and the gold table. The lobby, banners and the game-over page are the shared screen's
(table/screen/screen.py).

The table page is the reference for the tableaus as they lie in front of the players (TABLE-PROTOCOLS 1.11).
"""
from __future__ import annotations

import pygame

from table.games.festival.rules import LATER, LOWEST, STAYS
from table.games.festival.view import instruction, pages, plays_first
from table.screen import draw
from table.screen.canvas import HEADER, PROMPT, Canvas
from table.screen.draw import GOLD, INK, MUTED, PANEL, PANEL_HI, SIZE, TEXT

__all__ = ["draw_page", "pages", "subtitle"]   # what the screen asks of a game's page

BOTTOM = SIZE[1] - PROMPT - 8                      # lowest y above the prompt bar
TURN = pygame.Rect(16, HEADER + 8, SIZE[0] - 32, 112)   # this turn: the packet, and the seats that chose
NAME_W = 220                                       # a seat row's badge, name and first-player tag
CELL_W = 173                                       # a profession's cell in a seat row (five professions, V1)
CELLS_X = 16 + NAME_W                              # the first profession cell
HIDDEN_X = CELLS_X + 5 * CELL_W + 4                # the face-down cards, to the row's end
TAB_H = 48                                         # a card in its profession's cell (3:4)
PER_LINE = 4                                       # cards on one line of a cell; more take two lines
BACK = (32, 44)                                    # a face-down card
VEIL = (90, 150, 255)                              # the mark under a card that lay face down
GOLD_W = 150                                       # a profession's cell in the gold table


# ------------------------------------------------------------ which pages


def draw_page(c: Canvas, page: str, step: int | None) -> None:
    """Draw one of this game's pages."""
    {"table": _table, "turn": _turn, "reveal": _reveal, "scores": _scores}[page](c)


def subtitle(c: Canvas) -> str:
    """The header's right text on every page: the simplified game, when it is played."""
    return c.t("option_simplified") if c.view["options"]["simplified"] else ""


def next_first_text(c: Canvas, turn: dict) -> str:
    """Who is the next first player and why (V3)."""
    seat = c.seat(turn["next_first"])
    if turn["reason"] in (LOWEST, LATER):
        return c.t(f"next_first_{turn['reason']}", seat=seat, number=c.faces.face(turn["deciding"]).number)
    return c.t("next_first_stays", seat=seat)


# ------------------------------------------------------------ shared bits


def _professions(c: Canvas, y: int, width: int = CELL_W) -> None:
    """Each profession's shape and name over its cells (`width` each)."""
    for k, profession in enumerate(c.view["professions"]):
        x = CELLS_X + k * width
        c.faces.emblem(c.surf, profession, (x + 18, y), 13)
        draw.text(c.surf, c.faces.profession_name(profession), 28, TEXT, "midleft", (x + 38, y), width=width - 44)


def _name(c: Canvas, player: int, row: pygame.Rect) -> None:
    """The seat's name, and its first-player tag while the game is on."""
    first = plays_first(c.view, player)
    c.seat_name(row, player, 38, [(c.t("first_player"), GOLD)] * first, 8 if first else None, tag_size=26)


def _cell(c: Canvas, cards: list[str], stars: int, x: int, row: pygame.Rect, framed: str | None = None,
          veiled: set[str] = frozenset()) -> None:
    """A profession's cell: its star count, then its cards, overlapping when many, on two lines beyond
    `PER_LINE`; `framed` (this turn's card) in gold; `veiled` cards (turned over at the end) underlined."""
    surf = c.surf
    if not cards:
        return
    draw.star(surf, (x + 16, row.centery - 2), 14)
    draw.text(surf, str(stars), 40, TEXT, "midleft", (x + 32, row.centery))
    half = -(-len(cards) // 2)
    lines = [cards] if len(cards) <= PER_LINE else [cards[:half], cards[half:]]
    h = min(TAB_H, (row.h - 6) // len(lines) - 4)
    w = h * 3 // 4
    left, right = x + 58, x + CELL_W - 6
    for i, line in enumerate(lines):
        y = row.centery - len(lines) * (h + 4) // 2 + i * (h + 4) + 2
        step = min(w + 3, (right - left - w) / max(len(line) - 1, 1))
        for j, card in enumerate(line):
            rect = pygame.Rect(left + j * step, y, w, h)
            c.faces.tab(surf, rect, card)
            if card in veiled:
                pygame.draw.rect(surf, VEIL, (rect.x, rect.bottom + 2, min(step, w) - 2, 5))
            if card == framed:
                draw.frame(surf, rect.inflate(10, 10), GOLD, 4)


def _backs(c: Canvas, count: int, row: pygame.Rect, framed: bool = False, pending: bool = False) -> None:
    """Face-down cards as backs, overlapping when many; this turn's framed; a card whose face is being chosen
    as an empty back with '?'."""
    surf = c.surf
    w, h = BACK
    shown = count + pending
    step = min(w + 6, (row.right - 12 - HIDDEN_X - w) / max(shown - 1, 1))
    for i in range(shown):
        rect = pygame.Rect(HIDDEN_X + i * step, row.centery - h // 2, w, h)
        draw.back(surf, rect, i < count)
        if i == count:
            draw.text(surf, "?", 34, GOLD, "center", rect.center)
        elif framed and i == count - 1:
            draw.frame(surf, rect.inflate(8, 8), GOLD, 4)


# ------------------------------------------------------------ table


def _table(c: Canvas) -> None:
    """This turn on top, every seat's tableau below, what to do at the bottom."""
    t, view = c.t, c.view
    c.header(t("game_name"), t("turn", turn=view["turn"], turns=view["turns"]), t.count("pile_left", view["pile"]))
    _this_turn(c)
    _tableaus(c)
    c.prompt_bar(instruction(t, c.table))


def _this_turn(c: Canvas) -> None:
    """The packet (drawn so far, or left) and who holds it, then each seat that chose, in order, with its card
    (face up) or a back, and the face prompt, or who may receive the packet now (before the first choice: who
    will be served first)."""
    t, view, surf = c.t, c.view, c.surf
    pygame.draw.rect(surf, PANEL, TURN, border_radius=14)
    size = view["packet_size"]
    drawing = view["phase"] == "draw"
    x, y = TURN.x + 16, TURN.y + 8
    label = t("packet_drawing", drawn=view["drawn"], size=size) if drawing else t.count("packet_left", view["packet"])
    draw.text(surf, label, 30, GOLD, "topleft", (x, y), width=290)
    if view["holder"] is not None:
        draw.text(surf, t("held_by", seat=c.seat(view["holder"])), 26, MUTED, "topleft", (x, y + 30), width=290)
    draw.backs(surf, pygame.Rect(x, TURN.bottom - 46, 32, 40), size, 44, view["drawn"] if drawing else view["packet"])
    x = TURN.x + 330
    pygame.draw.line(surf, PANEL_HI, (x - 14, TURN.y + 10), (x - 14, TURN.bottom - 10), 3)
    draw.text(surf, t("col_this_turn"), 28, MUTED, "topleft", (x, y))
    cy, h = TURN.centery + 14, 56
    for i, choice in enumerate(view["chosen"]):
        cx = x + i * 140
        if i:
            draw.arrow(surf, (cx - 30, cy), (cx - 4, cy), GOLD, 6)
        c.seat_badge((cx + 24, cy), 24, choice["player"])
        rect = pygame.Rect(cx + 56, cy - h // 2, h * 3 // 4, h)
        if choice["card"]:
            c.faces.tab(surf, rect, choice["card"])
        else:
            draw.back(surf, rect, choice["up"] is not None)
            if choice["up"] is None:
                draw.text(surf, "?", 40, GOLD, "center", rect.center)
    left = x + len(view["chosen"]) * 140 + (10 if view["chosen"] else 0)
    prompt = c.table.get("prompt")
    if prompt:
        c.seat_prompt(prompt["player"], pygame.Rect(left, cy - 20, TURN.right - left, 40), 34)
    elif len(view["receivers"]) > 1:
        key = "serve_first" if view["serve_first"] else "serve_any"
        draw.text(surf, t(key, seats=t.seats(view["receivers"], c.table["joined"])), 32, TEXT, "midleft",
                  (left, cy), width=TURN.right - left - 12, lines=2)
    elif not view["chosen"] and view["priority"]:
        draw.text(surf, t("serve_first", seats=t.seats(view["priority"], c.table["joined"])), 32, MUTED, "midleft",
                  (left, cy), width=TURN.right - left - 12, lines=2)


def _tableaus(c: Canvas) -> None:
    """One row per seat: its name; per profession its star count and face-up cards; its face-down cards as
    backs. This turn's card is framed."""
    view, t = c.view, c.t
    top = TURN.bottom + 10
    _professions(c, top + 16)
    draw.text(c.surf, t("col_hidden"), 28, MUTED, "midleft", (HIDDEN_X, top + 16), width=SIZE[0] - 16 - HIDDEN_X)
    chosen = {ch["player"]: ch for ch in view["chosen"]}
    for p, row in c.seat_rows(list(range(view["players"])), top + 36, BOTTOM + 8, 100):
        _name(c, p, row)
        tableau = view["tableaus"][p]
        mine = chosen.get(p)
        for k, profession in enumerate(view["professions"]):
            _cell(c, tableau["up"][profession], tableau["stars"][profession], CELLS_X + k * CELL_W, row,
                  mine["card"] if mine else None)
        _backs(c, tableau["down"], row, bool(mine) and mine["up"] is False, tableau["pending"])


# ------------------------------------------------------------ end of a turn


def _turn(c: Canvas) -> None:
    """The turn just ended: each seat in the order it chose, who it received the packet from, its card (face
    up) or a back; the last seat's discard; the next first player (its card framed) and why; who is served
    first next turn."""
    t, view, surf = c.t, c.view, c.surf
    turn = view["log"][-1]
    c.header(t("turn_title", turn=turn["turn"], turns=view["turns"]), "", subtitle(c))
    chosen = turn["chosen"]
    w = min(240, (SIZE[0] - 32) // len(chosen))
    x0 = (SIZE[0] - w * len(chosen)) // 2
    card_w = min(150, w - 50)
    card_h = card_w * 4 // 3
    top = HEADER + 16
    for i, _, cx in c.seat_columns([choice["player"] for choice in chosen], x0, w, top + 30, 28):
        choice = chosen[i]
        if i:
            draw.arrow(surf, (cx - w + 40, top + 30), (cx - 40, top + 30), MUTED, 6)
        note = t("first_player") if i == 0 else t("received_from", seat=c.seat(chosen[i - 1]["player"]))
        draw.text(surf, note, 26, GOLD if i == 0 else MUTED, "midtop", (cx, top + 66), width=w - 8)
        rect = pygame.Rect(0, 0, card_w, card_h)
        rect.midtop = (cx, top + 100)
        if choice["card"]:
            c.faces.draw(surf, rect, choice["card"])
        else:
            draw.back(surf, rect, True)
            draw.tag(surf, t("face_down"), 26, (cx, rect.bottom + 8), TEXT, PANEL_HI, "midtop", w - 8)
        if choice["player"] == turn["next_first"] and turn["reason"] != STAYS:
            draw.frame(surf, rect.inflate(14, 14), GOLD, 6)
    y = top + 100 + card_h + 50
    c.line(t("discarded", seat=c.seat(chosen[-1]["player"])), y, 30, MUTED)
    c.line(next_first_text(c, turn), y + 42, 40, GOLD)
    if view["phase"] != "over":
        served = view["priority"]
        text = t("priority_next", turn=view["turn"], seats=t.seats(served, c.table["joined"])) if served \
            else t("priority_none", turn=view["turn"])
        c.line(text, y + 94, 32)
    c.prompt_bar(t("prompt_clear") if c.table.get("clearing") else "")


# ------------------------------------------------------------ the end


def _reveal(c: Canvas) -> None:
    """Every tableau turned over: each seat's cards by profession with its stars, the cards that lay face down
    underlined."""
    t, view = c.t, c.view
    c.header(t("reveal_title"), "", subtitle(c))
    top = HEADER + 12
    _professions(c, top + 16)
    for p, row in c.seat_rows(list(range(view["players"])), top + 36, BOTTOM + 8, 110):
        _name(c, p, row)
        revealed = view["revealed"][p]
        hidden = {r["card"] for r in revealed if not r["up"]}
        stars = view["gold"][p]["stars"]
        for k, profession in enumerate(view["professions"]):
            cards = [r["card"] for r in revealed if c.faces.face(r["card"]).profession == profession]
            _cell(c, cards, stars[profession], CELLS_X + k * CELL_W, row, veiled=hidden)
    c.prompt_bar(t("reveal_note"))


def _scores(c: Canvas) -> None:
    """The gold: per profession each seat's stars and the gold they win, the professions held and their bonus,
    the two-star cards, the total; the winners framed. The simplified game: the card numbers and their sum."""
    t, view, surf = c.t, c.view, c.surf
    c.header(t("scores_title"), "", subtitle(c))
    simplified = view["options"]["simplified"]
    c.line(t("rule_simplified" if simplified else "rule_gold"), HEADER + 8, 28, lines=2)
    top = HEADER + 72
    sets_x = CELLS_X + 5 * GOLD_W + 4
    nines_x = sets_x + 106
    if not simplified:
        _professions(c, top + 16, GOLD_W)
    columns = [("col_numbers", "midleft", CELLS_X)] if simplified else \
        [("col_sets", "midleft", sets_x, 100), ("col_nines", "midleft", nines_x, 76)]
    c.titles([*columns, ("col_total", "midright", SIZE[0] - 24)], top + 16, 28, GOLD)
    for p, row in c.seat_rows(list(range(view["players"])), top + 36, SIZE[1] - 10, 110):
        _name(c, p, row)
        gold = view["gold"][p]
        if simplified:
            cards = [r["card"] for r in view["revealed"][p]]
            c.chips(cards, CELLS_X, row.centery, min(50, row.h - 16), 6, SIZE[0] - 140 - CELLS_X)
        else:
            for k, profession in enumerate(view["professions"]):
                _gold_cell(c, gold["stars"][profession], gold["majority"][profession], CELLS_X + k * GOLD_W, row)
            draw.text(surf, t("sets_gold", n=gold["professions"], gold=gold["sets"]), 34,
                      GOLD if gold["sets"] else TEXT, "midleft", (sets_x, row.centery), width=100)
            draw.text(surf, draw.number(-gold["two_star"]) if gold["two_star"] else "·", 40, TEXT, "center",
                      (nines_x + 30, row.centery))
        draw.text(surf, str(gold["total"]), 56, TEXT, "midright", (SIZE[0] - 24, row.centery))
        if p in view["winners"]:
            draw.frame(surf, row)


def _gold_cell(c: Canvas, stars: int, gold: int, x: int, row: pygame.Rect) -> None:
    """A seat's stars in a profession, and the gold they win there (on gold when some)."""
    surf = c.surf
    if not stars:
        draw.text(surf, "·", 40, MUTED, "center", (x + GOLD_W // 2, row.centery))
        return
    draw.star(surf, (x + 18, row.centery), 14)
    draw.text(surf, str(stars), 40, TEXT, "midleft", (x + 34, row.centery))
    if gold:
        draw.tag(surf, f"+{gold}", 36, (x + GOLD_W - 12, row.centery), INK, GOLD, "midright")
