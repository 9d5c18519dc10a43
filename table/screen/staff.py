"""The staff menu as the screen draws it, over the page below: its lines, the games, the health, a question."""
from __future__ import annotations

import pygame

from table.screen import draw
from table.screen.draw import BACK, GOLD, MUTED, PANEL, PANEL_HI, RED, SIZE, TEXT, WARN
from table.screen.i18n import Translator

BOX = pygame.Rect(150, 40, SIZE[0] - 300, SIZE[1] - 80)
ROW = 58


def draw_staff(surf: pygame.Surface, t: Translator, staff: dict) -> None:
    """The staff menu (`table_view()["staff"]`) in a panel over the dimmed page."""
    draw.dim(surf, surf.get_rect())
    pygame.draw.rect(surf, PANEL, BOX, border_radius=18)
    pygame.draw.rect(surf, BACK, BOX, 6, border_radius=18)
    band = pygame.Rect(BOX.x, BOX.y, BOX.w, 76)
    pygame.draw.rect(surf, BACK, band, border_top_left_radius=18, border_top_right_radius=18)
    page = staff["page"]
    title = t(f"staff_title_{page}") if page != "confirm" else t(f"staff_ask_{staff['asking']}")
    draw.text(surf, title, 44, TEXT, "center", band.center, width=band.w - 40)
    body = pygame.Rect(BOX.x + 40, band.bottom + 24, BOX.w - 80, BOX.bottom - band.bottom - 110)
    if page == "health":
        _checks(surf, t, staff["checks"], body)
    else:
        if page == "confirm":
            r = draw.text(surf, t(f"staff_warn_{staff['asking']}"), 34, TEXT, "midtop", (body.centerx, body.y),
                          width=body.w, lines=3)
            body.top = r.bottom + 30
        _lines(surf, t, staff, body)
    draw.text(surf, t("staff_hint_health" if page == "health" else "staff_hint"), 28, MUTED, "midbottom",
              (BOX.centerx, BOX.bottom - 24), width=BOX.w - 60, lines=2)


def _lines(surf: pygame.Surface, t: Translator, staff: dict, body: pygame.Rect) -> None:
    """The page's lines, the cursor's framed (a game by its name, a line by its text)."""
    lines = staff["lines"]
    h = min(ROW, body.h // max(len(lines), 1))
    for i, line in enumerate(lines):
        row = pygame.Rect(body.x, body.y + i * h, body.w, h - 6)
        chosen = i == staff["cursor"]
        if chosen:
            pygame.draw.rect(surf, PANEL_HI, row, border_radius=10)
            draw.frame(surf, row, GOLD, 3)
        label = t.game(line)("game_name") if staff["page"] == "games" else t(f"staff_{line}")
        colour = WARN if line in ("poweroff", "reboot", "end_game", "yes") else TEXT
        draw.text(surf, label, 36, GOLD if chosen else colour, "midleft", (row.x + 24, row.centery), width=row.w - 48)


def _checks(surf: pygame.Surface, t: Translator, checks: list[dict], body: pygame.Rect) -> None:
    """One line per check, two when its words need them: a green tick (good), a red cross (a problem), a grey
    dash (not in use here)."""
    if not checks:
        draw.text(surf, t("staff_no_checks"), 34, MUTED, "midtop", (body.centerx, body.y), width=body.w)
        return
    size = 30 if len(checks) <= 8 else 24
    y = body.y
    for check in checks:
        state = {True: "ok", False: "bad", None: "off"}[check["ok"]]
        colour = {True: TEXT, False: WARN, None: MUTED}[check["ok"]]
        words = draw.text(surf, t(f"check_{check['key']}_{state}", **check["params"]), size, colour, "topleft",
                          (body.x + 50, y), width=body.w - 50, lines=2)
        mark = (body.x + 18, words.centery)
        if check["ok"] is True:
            draw.tick(surf, mark, size // 2)
        elif check["ok"] is False:
            pygame.draw.line(surf, RED, (mark[0] - 12, mark[1] - 12), (mark[0] + 12, mark[1] + 12), 6)
            pygame.draw.line(surf, RED, (mark[0] - 12, mark[1] + 12), (mark[0] + 12, mark[1] - 12), 6)
        else:
            pygame.draw.line(surf, MUTED, (mark[0] - 12, mark[1]), (mark[0] + 12, mark[1]), 6)
        y = words.bottom + size // 2
