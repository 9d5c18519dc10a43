"""Sweep's screen pages, drawn only from the public view: the table (centre, order of play, seats), the
capture step by step (and a tie's pick), what each seat takes into hand, and a deal's scores by rank.
The lobby, banners and the game-over page are the shared screen's (table/screen/screen.py)."""
from __future__ import annotations

import pygame

from table.games.sweep.rules import CENTRE, HAND
from table.games.kit.pages import resolution_pages
from table.screen import draw
from table.screen.canvas import HEADER, PROMPT, Canvas
from table.screen.draw import GOLD, INK, MUTED, PANEL, PANEL_HI, SIZE, TEXT

LEFT = pygame.Rect(16, HEADER + 8, 640, SIZE[1] - HEADER - PROMPT - 16)   # the table page's play area
SEATS_X = (676, SIZE[0] - 16)                                             # its seat panel
CENTRE_CARD = (112, 150)                                                  # a centre place
ORDER_CARD = (84, 112)                                                    # a card in the order of play
WORDS_H = 150                                                             # a capture step in words


def pages(table: dict) -> list[tuple[str, int | None]]:
    """The pages to show for this table view, in order; the last one stays on screen.

    While a tied seat picks: the capture's steps so far, then the pick. After a
    capture: each step, what everyone takes, the deal's scores when it ended
    one, the game-over page at the end; once the pads are clear again, the
    table page with what to do next.
    """
    view = table["view"]
    if view["phase"] == "pick":
        return [("step", k) for k in range(len(view["capture"]["steps"]))] + [("pick", None)]
    if not fresh(view):
        return [("table", None)]
    steps = [("step", k) for k in range(len(view["last_round"]["steps"]))] + [("take", None)]
    return resolution_pages(table, steps, deal_ended(view))


def draw_page(c: Canvas, page: str, step: int | None) -> None:
    """Draw one of this game's pages."""
    if page in ("step", "pick"):
        _capture(c, len(resolution(c.view)[2]) - 1 if page == "pick" else step or 0)
    else:
        {"table": _table, "take": _take, "scores": _scores}[page](c)


def subtitle(c: Canvas) -> str:
    """The game-over page's line under the title: the match's target, or a single deal."""
    return _goal(c)


# ------------------------------------------------------------ what the view says


def fresh(view: dict) -> bool:
    """Whether a capture has just finished: nothing of the next round (or deal) has been laid yet."""
    if view["last_round"] is None:
        return False
    phase = view["phase"]
    return phase == "over" or (phase == "centre" and not view["centre"]) or (
        phase == "register" and not any(view["registered"]))


def deal_ended(view: dict) -> bool:
    """Whether the capture just shown ended a deal (its scores are then due)."""
    return view["phase"] in ("over", "register") and view["scores"] is not None


def resolution(view: dict) -> tuple[int, int, list[dict]]:
    """(deal, round, steps) of the capture on show: the one under way while a tied seat picks (its
    tie last, with the picks so far), else the last round's."""
    if view["phase"] == "pick":
        capture = view["capture"]
        return view["deal"], view["round"], capture["steps"] + [capture["tie"]]
    last = view["last_round"]
    return last["deal"], last["round"], last["steps"]


def takers(step: dict) -> list[tuple[int, list[int]]]:
    """Who took what in a step: (player, ranks taken), in the order they first took."""
    taken: dict[int, list[int]] = {}
    for t in step["taken"]:
        taken.setdefault(t["player"], []).append(t["rank"])
    return list(taken.items())


def ranks_text(ranks: list[int]) -> str:
    """Ranks as players read them, highest first: '9, 9, 4'."""
    return ", ".join(str(r) for r in sorted(ranks, reverse=True))


def _rank_card(c: Canvas, rank: int) -> str:
    """A card of `rank` (every copy of a rank looks the same), to draw a rank the view gives without its card."""
    return next(card for card, r in sorted(c.faces.ranks.items()) if r == rank)


def _rank_chips(c: Canvas, ranks: list[int]) -> list[str]:
    return [_rank_card(c, r) for r in sorted(ranks, reverse=True)]


# ------------------------------------------------------------ shared parts


def _goal(c: Canvas) -> str:
    view = c.view
    return c.t("target", target=view["target"]) if view["match"] else c.t("one_deal")


def _round_header(c: Canvas, title: str, deal: int, rnd: int, right: str = "") -> None:
    view = c.view
    middle = c.t("deal_round" if view["match"] else "round_of", deal=deal, round=rnd, rounds=view["rounds"])
    c.header(title, middle, right or _goal(c))


def _who(c: Canvas, players: list[int]) -> str:
    return c.t.seats([c.seat(p) for p in players])


def _chip_block(c: Canvas, cards: list[str], rect: pygame.Rect, most: int = 48, gap: int = 6) -> int:
    """Chips in rows inside `rect`, as tall as fit (at most `most`); returns the bottom drawn."""
    h = most
    while True:
        per_row = max(1, (rect.w + gap) // (c.faces.chip_width(h) + gap))
        rows = -(-len(cards) // per_row)
        if rows * (h + gap) - gap <= rect.h or h <= 16:
            break
        h -= 2
    for row in range(rows):
        c.chips(cards[row * per_row:(row + 1) * per_row], rect.x, rect.y + row * (h + gap) + h / 2, h, gap)
    return rect.y + rows * (h + gap) - gap


# ------------------------------------------------------------ table


def _table(c: Canvas) -> None:
    """The centre's 5 places, who starts and the order of play (or the registration), the seats, the prompt."""
    t, view, surf = c.t, c.view, c.surf
    _round_header(c, t("game_name"), view["deal"], view["round"])
    draw.text(surf, t("centre"), 32, MUTED, "topleft", LEFT.topleft)
    draw.text(surf, t.count("pile", view["pile"]), 32, MUTED, "topright", LEFT.topright)
    w, h = CENTRE_CARD
    gap = (LEFT.w - CENTRE * w) // (CENTRE - 1)
    for i in range(CENTRE):
        place = pygame.Rect(LEFT.x + i * (w + gap), LEFT.y + 42, w, h)
        if i < len(view["centre"]):
            c.faces.draw(surf, place, view["centre"][i])
        else:
            draw.back(surf, place, False)
    below = pygame.Rect(LEFT.x, LEFT.y + 42 + h + 24, LEFT.w, LEFT.bottom - (LEFT.y + 42 + h + 24))
    if view["order"]:
        _order(c, below)
    else:
        key = "register_note" if view["phase"] == "register" else "draw_note"
        r = draw.text(surf, t(key, n=HAND), 36, TEXT, "topleft", below.topleft, width=below.w, lines=3)
        if view["phase"] == "register":
            draw.text(surf, t("secret_note"), 30, MUTED, "topleft", (below.x, r.bottom + 16), width=below.w, lines=2)
    _seat_panel(c)
    c.prompt_bar(_prompt(c))


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
    for i, p in enumerate(seats):
        cx = area.x + i * step + step // 2
        seat = c.seat(p)
        draw.badge(surf, (cx, top + 26), 26, seat, c.light(seat))
        card = pygame.Rect(0, 0, w, h)
        card.midtop = (cx, top + 62)
        if p in view["skipped"]:
            draw.tag(surf, t("passes"), 28, card.center, INK, MUTED, "center", step - 6)
        elif p in played:
            c.faces.draw(surf, card, played[p])
        else:
            draw.back(surf, card, False)
            if p == view["turn"]:
                draw.frame(surf, card.inflate(10, 10))


def _prompt(c: Canvas) -> str:
    """What to do now, and who does it."""
    t, view = c.t, c.view
    phase = view["phase"]
    if phase == "register":
        return t("prompt_register", n=HAND)
    if phase == "draw":
        return t("prompt_draw")
    if phase == "centre":
        return t.count("prompt_centre", CENTRE - len(view["centre"]), seat=c.seat(view["dealer"]))
    if phase in ("play", "pick"):
        return t(f"prompt_{phase}", seat=c.seat(view["turn"]))
    return t("play_again")


def _seat_panel(c: Canvas) -> None:
    """One row per seat: its light, the dealer, the cards held (registered, while registering), its points."""
    t, view, surf = c.t, c.view, c.surf
    x0, x1 = SEATS_X
    held_x, total_x = x0 + 270, x1 - 14
    registering = view["phase"] == "register"
    draw.text(surf, t("col_held"), 28, MUTED, "bottomleft", (held_x, HEADER + 38))
    draw.text(surf, t("col_points"), 28, MUTED, "bottomright", (total_x, HEADER + 38))
    players = list(range(view["players"]))
    for p, row in c.seat_rows(players, HEADER + 44, SIZE[1] - PROMPT - 6, 100, x0, x1):
        r = min(34, row.h // 2 - 4)
        name_at = (row.x + 24 + 2 * r, row.centery)
        if p == view["dealer"]:
            draw.text(surf, t("seat", seat=c.seat(p)), 40, TEXT, "bottomleft", (name_at[0], name_at[1] + 4))
            draw.tag(surf, t("dealer"), 28, (name_at[0], name_at[1] + 6), INK, GOLD)
        else:
            draw.text(surf, t("seat", seat=c.seat(p)), 40, TEXT, "midleft", name_at)
        if registering:
            n = view["registered"][p]
            for i in range(HAND):
                draw.back(surf, pygame.Rect(held_x + i * 26, row.centery - 17, 20, 34), i < n)
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
    picker = view["capture"]["picker"] if view["phase"] == "pick" and current == len(steps) - 1 else None
    _round_header(c, t("capture_title"), deal, rnd, t("step_of", step=current + 1, steps=len(steps)))
    bottom = SIZE[1] - (PROMPT if picker is not None else 0) - 8
    box = pygame.Rect(16, bottom - WORDS_H, SIZE[0] - 32, WORDS_H)
    row_y = box.y - 34
    gap = 10
    width = min(320, (SIZE[0] - 32 - gap * (len(steps) - 1)) // len(steps))
    x = (SIZE[0] - len(steps) * width - (len(steps) - 1) * gap) // 2
    for k, shown in enumerate(steps):
        column = pygame.Rect(x + k * (width + gap), HEADER + 8, width, row_y - 34 - HEADER - 8)
        _step_column(c, shown, k, current, column, picker if k == current else None)
    if picker is None:
        r = draw.text(surf, t("centre_after"), 32, MUTED, "midleft", (24, row_y))
        c.chips(step["centre"], r.right + 16, row_y, 48)
    else:
        r = draw.text(surf, t("targets_left"), 32, GOLD, "midleft", (24, row_y))
        _framed_chips(c, step["centre"], view["capture"]["left"], r.right + 16, row_y)
    pygame.draw.rect(surf, PANEL, box, border_radius=12)
    inner = box.inflate(-32, -16)
    lines = [(_rule_sentence(c, step), TEXT)]
    if step["tied"]:
        lines.append((t("tie_note", seat=c.seat(step["players"][0])), TEXT))
    lines.append((t("picks_now", seat=c.seat(picker)) if picker is not None else _took_sentence(c, step), GOLD))
    y = inner.y
    for i, (line, colour) in enumerate(lines):
        y = draw.text(surf, line, 38, colour, "topleft", (inner.x, y), width=inner.w, lines=2 - min(i, 1)).bottom + 6
    if picker is not None:
        c.prompt_bar(_prompt(c))


def _step_column(c: Canvas, step: dict, k: int, current: int, column: pygame.Rect, picker: int | None) -> None:
    """A step's column: the card(s) played of its rank and by whom, its rule, who took what (and who
    picks now, while a tie waits)."""
    t, surf = c.t, c.surf
    later = k > current
    if not later:
        pygame.draw.rect(surf, PANEL_HI if k == current else PANEL, column, border_radius=14)
    if k == current:
        draw.frame(surf, column.inflate(6, 6))
    m = len(step["cards"])
    w = min(ORDER_CARD[0], (column.w - 16 - 6 * (m - 1)) // m)
    x = column.centerx - (m * w + 6 * (m - 1)) // 2
    for i, (player, card) in enumerate(zip(step["players"], step["cards"])):
        rect = pygame.Rect(x + i * (w + 6), column.y + 10, w, w * 4 // 3)
        c.faces.draw(surf, rect, card, dim=later)
        seat = c.seat(player)
        draw.badge(surf, (rect.centerx, rect.bottom + 26), min(22, w // 2), seat, c.light(seat))
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
    if picker is not None:
        floor = draw.tag(surf, t("picking", seat=c.seat(picker)), 28, (column.centerx, column.bottom - 8), INK, GOLD,
                         "midbottom", column.w - 12).y - 10
    elif not got:
        draw.text(surf, t("took_nothing"), 30, MUTED, "midtop", (column.centerx, y), width=column.w - 12)
    room = (floor - y) // max(len(got), 1)
    for player, ranks in got:
        seat = c.seat(player)
        r = min(20, room // 2 - 2)
        draw.badge(surf, (column.x + 10 + r, y + r + 2), r, seat, c.light(seat))
        block = pygame.Rect(column.x + 2 * r + 18, y, column.w - 2 * r - 26, room - 4)
        y = _chip_block(c, _rank_chips(c, ranks), block, 2 * r + 4) + 10


def _framed_chips(c: Canvas, cards: list[str], framed: list[str], x: float, cy: float, h: int = 48) -> None:
    """A row of chips, the `framed` ones in gold (a tie's targets left)."""
    step = c.faces.chip_width(h) + 10
    c.chips(cards, x, cy, h, 10)
    for i, card in enumerate(cards):
        if card in framed:
            draw.frame(c.surf, pygame.Rect(x + i * step - 5, cy - h / 2 - 5, step, h + 10), GOLD, 4)


def _rule_sentence(c: Canvas, step: dict) -> str:
    """A step's rule in words: which rank, who played it, what it takes (a tie: that they share)."""
    return c.t.count(f"rule_{step['rule']}", len(step["players"]), rank=step["rank"], who=_who(c, step["players"]))


def _took_sentence(c: Canvas, step: dict) -> str:
    """What a step took, seat by seat: 'Siège 1 prend 9, 9'."""
    got = takers(step)
    if not got:
        return c.t("took_nothing")
    return " · ".join(c.t("takes", seat=c.seat(p), ranks=ranks_text(ranks)) for p, ranks in got)


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
        line = t("takes_into_hand", seat=c.seat(p), ranks=ranks_text(ranks)) if ranks else \
            t("takes_none", seat=c.seat(p))
        draw.text(surf, line, 40, TEXT if ranks else MUTED, "midleft", (row.x + 90, row.centery),
                  width=chip_x - row.x - 110)
        if ranks:
            chip = c.chip_height(len(ranks), row.right - 16 - chip_x, min(56, row.h - 12))
            c.chips(_rank_chips(c, ranks), chip_x, row.centery, chip)
    y = HEADER + 8 + h * len(players) + 26
    r = draw.text(surf, t("discarded"), 36, TEXT, "midleft", (24, y))
    c.chips(last["discarded"], r.right + 16, y, 44)
    if starts:
        draw.text(surf, t("first_last_taker", seat=c.seat(last["last_taker"])), 36, GOLD, "midleft", (24, y + 52),
                  width=SIZE[0] - 48)


# ------------------------------------------------------------ scores


def _scores(c: Canvas) -> None:
    """The deal's scores, one line per rank: each seat's count (the most in gold), who holds the most,
    the rank's points; then each seat's points, and with the match option the totals against the target."""
    t, view, surf = c.t, c.view, c.surf
    scores = view["scores"]
    c.header(t("scores_title", deal=scores["deal"]), "", _goal(c))
    n = view["players"]
    lines = [("col_deal_points", scores["points"])] + ([("col_match_total", view["totals"])] if view["match"] else [])
    first_x = 112
    col_w = min(110, 480 // n)
    most_x = first_x + n * col_w + 16
    points_x = SIZE[0] - 24
    top = HEADER + 54
    bottom = SIZE[1] - 8 - 58 * len(lines)
    for p in range(n):
        seat = c.seat(p)
        draw.badge(surf, (first_x + p * col_w + col_w // 2, HEADER + 28), 22, seat, c.light(seat))
    draw.text(surf, t("col_most"), 28, MUTED, "midleft", (most_x, HEADER + 28))
    draw.text(surf, t("col_points"), 28, MUTED, "midright", (points_x, HEADER + 28))
    h = (bottom - top) // len(scores["ranks"])
    for i, line in enumerate(scores["ranks"]):
        row = pygame.Rect(16, top + i * h, SIZE[0] - 32, h - 4)
        pygame.draw.rect(surf, PANEL, row, border_radius=8)
        chip = h - 8
        c.chips([_rank_card(c, line["rank"])], 28, row.centery, chip)
        for p, count in enumerate(line["counts"]):
            at = (first_x + p * col_w + col_w // 2, row.centery)
            if p in line["scorers"]:
                draw.tag(surf, str(count), 34, at, INK, GOLD, "center")
            else:
                draw.text(surf, str(count), 34, MUTED if count == 0 else TEXT, "center", at)
        most = t.count("most", line["most"], seats=_who(c, line["scorers"])) if line["scorers"] else t("nobody")
        draw.text(surf, most, 30, TEXT, "midleft", (most_x, row.centery), width=points_x - 90 - most_x)
        draw.text(surf, f"+{line['points']}" if line["points"] else "0", 40, GOLD if line["points"] else MUTED,
                  "midright", (points_x, row.centery))
    for j, (key, figures) in enumerate(lines):
        row = pygame.Rect(16, bottom + 4 + j * 58, SIZE[0] - 32, 52)
        pygame.draw.rect(surf, PANEL_HI, row, border_radius=8)
        for p, figure in enumerate(figures):
            draw.text(surf, str(figure), 44, TEXT, "center", (first_x + p * col_w + col_w // 2, row.centery))
        draw.text(surf, t(key, target=view["target"]), 32, GOLD, "midleft", (most_x, row.centery),
                  width=points_x - most_x)
