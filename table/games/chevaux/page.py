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

from table.games.chevaux.faces import value_text
from table.games.chevaux.rules import ALL_CARDS
from table.games.kit.pages import resolution_pages
from table.screen import draw
from table.screen.canvas import HEADER, PROMPT, Canvas
from table.screen.draw import GOLD, INK, MUTED, PANEL, PANEL_HI, SIZE, TEXT
from table.screen.i18n import Translator

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


def pages(table: dict) -> list[tuple[str, int | None]]:
    """The pages to show for this table view, in order; the last one stays on screen.

    After a round: its result, then the table page once the pads are clear (the game-over page at the end).
    """
    view = table["view"]
    if view["phase"] == "over":
        return resolution_pages(table, [("result", None)] if view["last_round"] else [], False)
    if round_just_ended(view):
        return resolution_pages(table, [("result", None)], False)
    return [("table", None)]


def draw_page(c: Canvas, page: str, step: int | None) -> None:
    """Draw one of this game's pages."""
    {"table": _table, "result": _result}[page](c)


def subtitle(c: Canvas) -> str:
    """The game-over page's header right text: why the game ended."""
    return c.t("ended_all_cards" if c.view["ended"] == ALL_CARDS else "ended_time")


# ------------------------------------------------------------ what to say (pure)


def round_just_ended(view: dict) -> bool:
    """Whether a round has just been decided: the next one has no card revealed yet."""
    return view["last_round"] is not None and view["phase"] == "reveal" and not view["current"]["pot"]


def trait_index(view: dict, key: str | None) -> int | None:
    """The place of characteristic `key` in the view's traits (None: no characteristic chosen yet)."""
    return next((k for k, trait in enumerate(view["traits"]) if trait["key"] == key), None)


def best(view: dict, board: dict) -> list[int]:
    """The players whose revealed card has the best value on the board's characteristic (none before it is
    chosen)."""
    k = trait_index(view, board["trait"])
    shown = [(p, s["value"]) for p, s in enumerate(board["seats"]) if s["value"] is not None]
    if k is None or not shown:
        return []
    pick = max if view["traits"][k]["wins"] == "higher" else min
    top = pick(v for _, v in shown)
    return [p for p, v in shown if v == top]


def value_of(t: Translator, view: dict, board: dict, player: int) -> str:
    """A seat's value on the board's characteristic, with its unit ('' when not shown)."""
    value = board["seats"][player]["value"]
    k = trait_index(view, board["trait"])
    return "" if value is None or k is None else value_text(t, view["traits"][k]["unit"], value)


def instruction(t: Translator, table: dict) -> str:
    """The table page's bottom bar: what to do now, and who does it."""
    view = table["view"]
    seats = table["joined"]
    board = view["current"]
    if view["phase"] == "redraw":
        pending = board["tie"]["pending"]
        return t.count("bar_redraw", len(pending), seats=t.seats([seats[p] for p in pending]))
    seat = seats[view["at"]]
    trait = t(f"trait_{board['trait']}") if board["trait"] else ""
    if view["phase"] == "choose":
        return t("bar_choose", seat=seat)
    if view["phase"] == "switch":
        return t("bar_switch", seat=seat, trait=trait)
    if board["trait"] is None:
        return t("bar_lead", seat=seat)
    return t("bar_reveal", seat=seat, trait=trait)


def chain_text(t: Translator, table: dict, board: dict, key: str) -> str:
    """Who chose characteristic `key` in this round, and whether it is still the one played."""
    seats = table["joined"]
    for i, choice in reversed(list(enumerate(board["chain"]))):
        if choice["trait"] == key:
            seat = seats[choice["player"]]
            if key != board["trait"]:
                return t("trait_dropped", seat=seat)
            return t("trait_chosen" if i == 0 else "trait_switched", seat=seat)
    return ""


def tie_text(t: Translator, table: dict, board: dict, value: str) -> str:
    """The tie-break so far: who tied on the value, the rarity, each re-draw, who had no card left."""
    tie = board["tie"]
    seats = table["joined"]
    if tie is None:
        return ""

    def named(players: list[int]) -> str:
        return t.seats([seats[p] for p in players])

    parts = [t("tie_value", seats=named(tie["value"]), value=value)]
    if len(tie["rarity"]) > 1:
        parts.append(t("tie_rarity", seats=named(tie["rarity"])))
    for n, step in enumerate(tie["steps"], 1):
        if step:
            rarities = ", ".join(t("redraw_rarity", seat=seats[s["player"]], rarity=s["rarity"]) for s in step)
            parts.append(t("tie_redraw", n=n, rarities=rarities))
    if tie["no_card"]:
        parts.append(t.count("tie_no_card", len(tie["no_card"]), seats=named(tie["no_card"])))
    return " · ".join(parts)


def how_text(t: Translator, result: dict) -> str:
    """Why a tied round's winner won it: the rarest card, a re-draw, no card left (PR-C1); '' for the best value."""
    return t(f"how_{result['how']}") if result["tie"] else ""


# ------------------------------------------------------------ geometry (pure)


def column(players: int, p: int) -> pygame.Rect:
    """Player `p`'s column (its seat panel and its cells in the characteristic table), full height."""
    w = min(COLUMN_MAX, SEATS_W // players)
    left = SEATS_X + (SEATS_W - w * players) // 2
    return pygame.Rect(left + p * w, SEAT_TOP, w, TRAITS_TOP - SEAT_TOP)


def trait_row(k: int) -> pygame.Rect:
    return pygame.Rect(LABEL_X, TRAITS_TOP + k * TRAIT_H, SIZE[0] - 2 * LABEL_X, TRAIT_H - 6)


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
        c.faces.dot(c.surf, (box.x + 30, y), 15, r)
        draw.text(c.surf, c.t(f"rarity_{r}"), 28, TEXT, "midleft", (box.x + 56, y), width=box.w - 66)


def _seat(c: Canvas, board: dict, counts: list[int], p: int, winner: int | None) -> None:
    t, view, surf = c.t, c.view, c.surf
    rect = column(view["players"], p).inflate(-6, 0)
    rect.h = SEAT_H
    seat = c.seat(p)
    shown = board["seats"][p]
    out = not counts[p] and (winner is not None or not shown["playing"])   # mid-round, its last card is in play
    pygame.draw.rect(surf, PANEL_HI if p == view["at"] else PANEL, rect, border_radius=12)
    r = min(24, rect.w // 6)
    draw.badge(surf, (rect.x + 8 + r, rect.y + 10 + r), r, seat, c.light(seat))
    if rect.w >= 180:                       # narrower, the badge alone names the seat
        draw.text(surf, t("seat", seat=seat), 30, TEXT, "midleft", (rect.x + 16 + 2 * r, rect.y + 10 + r),
                  width=rect.w - 24 - 2 * r)
    draw.text(surf, t.count("cards", counts[p]), 34, MUTED if out else TEXT, "midtop",
              (rect.centerx, rect.y + 20 + 2 * r), width=rect.w - 12)
    status = "out" if out else "leader" if p == board["leader"] else None
    if status:
        draw.tag(surf, t(status), 24, (rect.centerx, rect.y + 104), INK, MUTED if out else GOLD, "midtop",
                 rect.w - 12)
    if shown["playing"]:
        card = pygame.Rect((0, 0), CARD)
        card.midbottom = (rect.centerx - (REDRAW[0] // 2 if _redraws(board, p) else 0), rect.bottom - 8)
        c.faces.back(surf, card, shown["rarity"])
        for i, rarity in enumerate(_redraws(board, p)):
            small = pygame.Rect(card.right + 4 + i * 10, card.bottom - REDRAW[1] - i * 6, *REDRAW)
            c.faces.back(surf, small, rarity)
    if p == winner:
        draw.frame(surf, rect.inflate(6, 6))
        draw.crown(surf, (rect.centerx, rect.y - 2), 14)
    elif out:
        draw.dim(surf, rect)


def _redraws(board: dict, p: int) -> list[int]:
    """The rarities of the cards `p` re-drew in the tie-break, in order."""
    tie = board["tie"]
    return [s["rarity"] for step in (tie["steps"] if tie else []) for s in step if s["player"] == p]


def _trait(c: Canvas, board: dict, k: int, trait: dict, top: list[int]) -> None:
    """A characteristic's row: its name and which way wins, who chose it; on the current one, every revealed
    card's value, the best in gold."""
    t, view, surf = c.t, c.view, c.surf
    row = trait_row(k)
    current = trait["key"] == board["trait"]
    pygame.draw.rect(surf, PANEL_HI if current else PANEL, row, border_radius=10)
    draw.text(surf, t(f"trait_{trait['key']}"), 32, GOLD if current else TEXT, "topleft", (row.x + 12, row.y + 4),
              width=LABEL_W - 16)
    note = chain_text(t, c.table, board, trait["key"]) or t(f"trait_{trait['key']}_wins")
    draw.text(surf, note, 22, TEXT if current else MUTED, "bottomleft", (row.x + 12, row.bottom - 5),
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


def _note(c: Canvas, text: str) -> None:
    draw.text(c.surf, text, 32, GOLD, "midtop", (SIZE[0] // 2, NOTE_Y), width=SIZE[0] - 40, lines=2)


# ------------------------------------------------------------ table


def _table(c: Canvas) -> None:
    """The round in progress: the board, the tie-break or what to know now, the seat prompt, what to do."""
    t, view = c.t, c.view
    board = view["current"]
    c.header(t("game_name"), t("round", round=view["round"]))
    _board(c, board, view["totals"])
    k = trait_index(view, board["trait"])
    value = value_of(t, view, board, board["tie"]["value"][0]) if board["tie"] and k is not None else ""
    if view["time_up"]:
        _note(c, t("time_up_note"))
    elif board["tie"]:
        _note(c, tie_text(t, c.table, board, value))
    elif view["round"] == 1 and not board["pot"]:
        aside = view["aside"]
        _note(c, t.count("deal", aside, dealt=view["dealt"]) if aside else t("deal_all", dealt=view["dealt"]))
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
    seats = c.table["joined"]
    c.header(t("result_title", round=result["round"]), t(f"trait_{result['trait']}"), "")
    _board(c, result, result["counts"], result["winner"])
    winner = seats[result["winner"]]
    value = value_of(t, view, result, result["winner"] if not result["tie"] else result["tie"]["value"][0])
    lines = [t("winner_takes", seat=winner, n=result["taken"]),
             tie_text(t, c.table, result, value) if result["tie"] else t("best_value", value=value), how_text(t, result)]
    if result["out"]:
        lines.append(t.count("out_now", len(result["out"]), seats=t.seats([seats[p] for p in result["out"]])))
    y = NOTE_Y - 12
    draw.text(c.surf, lines[0], 40, GOLD, "midtop", (SIZE[0] // 2, y), width=SIZE[0] - 40)
    draw.text(c.surf, " · ".join(filter(None, lines[1:])), 26, TEXT, "midtop", (SIZE[0] // 2, y + 44), width=SIZE[0] - 40,
              lines=2)
    over = view["phase"] == "over"
    c.prompt_bar("" if over else t("bar_take", seat=winner, n=result["taken"]))
