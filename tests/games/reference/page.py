"""High Card's one page: each seat's row (sealed or not, the last round's card, its points)."""
from __future__ import annotations

from table.screen import draw
from table.screen.canvas import HEADER, PROMPT, Canvas
from table.screen.draw import GOLD, MUTED, SIZE, TEXT


def pages(table: dict) -> list[tuple[str, int | None]]:
    return [("table", None)] if table["view"]["phase"] != "over" else [("table", None), ("over", None)]


def draw_page(c: Canvas, page: str, step: int | None) -> None:
    view = c.view
    c.header(c.t("game_name"), subtitle(c))
    for p, row in c.seat_rows(list(range(view["players"])), HEADER + 20, SIZE[1] - PROMPT - 10):
        sealed = c.t("sealed") if view["committed"][p] else "…"
        draw.text(c.surf, sealed, 36, GOLD if view["committed"][p] else MUTED, "midleft", (row.x + 100, row.centery))
        if view["last"]:
            c.chips([view["last"][p]], row.x + 420, row.centery, min(80, row.h - 12))
        draw.text(c.surf, draw.number(view["totals"][p]), 48, TEXT, "midright", (row.right - 24, row.centery))
    c.prompt_bar(c.t("prompt_bid") if view["phase"] != "over" else "")


def subtitle(c: Canvas) -> str:
    return c.t("round_of", round=c.view["round"], rounds=c.view["rounds"])
