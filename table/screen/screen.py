"""The table's screen: the chrome every game shares, and each game's own pages, drawn from the public view.

`Screen.pages` says which pages a table view calls for (the last one stays
up); `Screen.render` draws one of them on a 1280x720 surface. The chrome is
the lobby (the game menu, built from the registry), the refusal and fault
banners, and the game-over page (ranking, per-deal columns, crowns, how to
play again). Everything else is the game's page module (`pages`, `draw_page`),
reached through the registry.
"""
from __future__ import annotations

from collections.abc import Mapping
from functools import cache

import pygame

from table.assets import deck_data
from table.games.contract import Game
from table.screen import draw
from table.screen.canvas import HEADER, Canvas
from table.screen.draw import BG, FAULT, GOLD, GREEN, INK, LIGHTS, MUTED, PANEL, PANEL_HI, RED, SIZE, TEXT, WARN
from table.screen.faces import Faces
from table.screen.i18n import Translator
from table.screen.staff import draw_staff


QR_COLUMN = 270   # the game-over page's right column, for the QR code of the table's spectator page


class Screen:
    """The score screen of one table, in one language; `spectate`, the address of the table's spectator page at the
    café's hall (docs/cafe.md), shown as a QR code on the game-over page."""

    def __init__(self, games: Mapping[str, Game], lang: str = "fr", spectate: str | None = None):
        pygame.font.init()
        self.games = games
        self.t = Translator(lang)
        self.spectate = spectate

    @cache
    def faces(self, game: str) -> Faces:
        """The card faces of a game's deck, in this screen's language."""
        info = self.games[game].info
        return self.games[game].faces(deck_data(info.deck), self.t.lang)

    # ------------------------------------------------------------ pages

    def pages(self, table: dict) -> list[tuple[str, int | None]]:
        """The pages to show for this table view, in order; the last one stays on screen."""
        if table["mode"] == "lobby" or table.get("view") is None:
            return [("lobby", None)]
        return self.games[table["game"]].page.pages(table)

    def render(self, table: dict, page: str, step: int | None = None) -> pygame.Surface:
        """One page of the screen for this table view, on a new 1280x720 surface."""
        surf = pygame.Surface(SIZE)
        surf.fill(BG)
        c = self.canvas(surf, table)
        if page == "lobby":
            self._lobby(c)
        elif page == "over":
            self._over(c)
        else:
            self.games[table["game"]].page.draw_page(c, page, step)
        if table.get("menus"):
            self._menus(c, table["menus"])
        top = SIZE[1] - HEADER - 10 if page == "lobby" else 0   # the lobby's title stays: the banner goes below
        if table.get("message"):
            self._banner(surf, self._message(c, table["message"]), RED, top)
        elif table.get("notice"):
            self._banner(surf, self._message(c, table["notice"]), FAULT, top)
        elif table.get("faults"):
            self._banner(surf, self._fault(c, table["faults"]), FAULT, top)
        if table.get("staff"):
            draw_staff(surf, self.t, table["staff"])
        return surf

    def canvas(self, surf: pygame.Surface, table: dict) -> Canvas:
        return Canvas(surf, table, self.t.game(table["game"]), self.faces(table["game"]))

    # ------------------------------------------------------------ banners

    def _message(self, c: Canvas, message: dict) -> str:
        """A refusal or a notice for staff, in words (never naming a card: the session gives none)."""
        table, t = c.table, c.t
        return t.message(message, min_players=table.get("min_players"), max_players=table.get("max_players"),
                         players=len(table.get("joined") or ()), game_name=t("game_name"),
                         plays_with=t.plays_with(table.get("min_players"), table.get("max_players")))

    def _fault(self, c: Canvas, faults: list[dict]) -> str:
        """The first faulty reader in words, naming the seat that cannot play, and how many more there are."""
        t, first = c.t, faults[0]
        if first["seat"] is None:
            text = t("reader_dead_centre" if first["dead"] else "reader_failing", where=t("reader_of_centre"))
        else:
            text = t("reader_dead_seat" if first["dead"] else "reader_failing",
                     where=t("reader_of_seat", seat=first["seat"]), seat=first["seat"])
        return text if len(faults) == 1 else f"{text} {t('more_faults', n=len(faults) - 1)}"

    def _banner(self, surf: pygame.Surface, text: str, colour, top: int = 0) -> None:
        """A warning across the title bar (or across the page at `top`)."""
        rect = pygame.Rect(0, top, SIZE[0], HEADER + 10)
        pygame.draw.rect(surf, colour, rect)
        pygame.draw.rect(surf, TEXT, rect, 4)
        draw.shape(surf, "triangle", GOLD, (52, rect.centery + 4), 30)
        draw.text(surf, "!", 44, INK, "center", (52, rect.centery + 10))
        draw.text(surf, text, 42, TEXT, "midleft", (100, rect.centery), width=SIZE[0] - 124, lines=2)

    def _menus(self, c: Canvas, menus: dict[str, dict]) -> None:
        """Each open seat menu on a bar of its own at the bottom: the seat, its lines, the cursor's in gold."""
        for i, (seat, menu) in enumerate(sorted(menus.items(), key=lambda item: int(item[0]))):
            bar = pygame.Rect(0, SIZE[1] - (i + 1) * 70, SIZE[0], 66)
            pygame.draw.rect(c.surf, PANEL, bar)
            pygame.draw.rect(c.surf, GOLD, bar, 3)
            draw.badge(c.surf, (bar.x + 40, bar.centery), 26, int(seat), c.light(int(seat)))
            x = bar.x + 84
            for j, (key, params) in enumerate(menu["labels"]):
                chosen = j == menu["cursor"]
                tag = draw.tag(c.surf, ("» " if chosen else "") + c.t(key, **params), 32, (x, bar.centery),
                               INK if chosen else TEXT, GOLD if chosen else PANEL_HI, "midleft")
                x = tag.right + 14

    # ------------------------------------------------------------ lobby

    def _lobby(self, c: Canvas) -> None:
        """The game chosen and its menu (game, options, start), the seats that joined, and what to do."""
        t, surf, table = c.t, c.surf, c.table
        cx = SIZE[0] // 2
        many = len(table["menu"]["lines"]) > 4   # many options: a smaller title leaves the menu room to breathe
        draw.text(surf, t("game_name"), 80 if many else 96, GOLD, "midtop", (cx, 20 if many else 28),
                  width=SIZE[0] - 80)
        draw.text(surf, t("tagline", min=table["min_players"], max=table["max_players"]), 36 if many else 40, TEXT,
                  "midtop", (cx, 106 if many else 128), width=SIZE[0] - 80)
        self._menu(c, pygame.Rect(140, 158, SIZE[0] - 280, 228) if many else pygame.Rect(140, 186, SIZE[0] - 280, 200))
        seats, joined = table["seats"], set(table["joined"])
        step = min(150, (SIZE[0] - 80) // max(len(seats), 1))
        r = min(44, step // 2 - 14)
        for i, seat in enumerate(seats):
            x = cx + (i - (len(seats) - 1) / 2) * step
            inside = seat in joined
            draw.badge(surf, (x, 440), r, seat, GREEN if inside else LIGHTS["off"])
            draw.tag(surf, t("joined" if inside else "free"), 30, (x, 440 + r + 10), INK,
                     TEXT if inside else MUTED, "midtop")
        draw.text(surf, t("lobby_join"), 44, TEXT, "midtop", (cx, 540), width=SIZE[0] - 60)
        draw.text(surf, t("lobby_start"), 34, MUTED, "midtop", (cx, 594), width=SIZE[0] - 60)
        draw.text(surf, _start_status(t, table)[0], 44, GOLD, "midtop", (cx, 646), width=SIZE[0] - 60)

    def _menu(self, c: Canvas, box: pygame.Rect) -> None:
        """The lobby menu's lines, the cursor's framed: the game (‹ name ›), each option and its value, Start."""
        t, surf, table = c.t, c.surf, c.table
        menu = table["menu"]
        lines = menu["lines"]
        h = min(52, box.h // len(lines))
        size = 34 if h >= 44 else 30
        pygame.draw.rect(surf, PANEL, pygame.Rect(box.x, box.y, box.w, h * len(lines)).inflate(16, 12),
                         border_radius=14)
        for i, line in enumerate(lines):
            row = pygame.Rect(box.x, box.y + i * h, box.w, h - 4)
            chosen = i == menu["cursor"]
            if chosen:
                pygame.draw.rect(surf, PANEL_HI, row, border_radius=10)
                draw.frame(surf, row, GOLD, 3)
            if line == "game":
                label, value = t("menu_game"), f"‹ {t('game_name')} ›"
            elif line == "start":   # what stops it, if anything (as the status line under the seats says)
                status, ready = _start_status(t, table, short=True)
                label, value = t("menu_start"), "" if ready else status
            else:
                option = next(o for o in self.games[table["game"]].info.options if o.name == line)
                value = table["options"].get(line)
                label = t(f"option_{line}")
                value = t(f"option_{line}_{_key(value)}") if t.has(f"option_{line}_{_key(value)}") else str(value)
                if option.players and len(table["joined"]) not in option.players:
                    value = t("option_only_with", value=value, players=" / ".join(map(str, option.players)))
            draw.text(surf, label, size, GOLD if chosen else TEXT, "midleft", (row.x + 20, row.centery),
                      width=row.w // 2 - 30)
            draw.text(surf, value, size, TEXT if line != "start" else WARN, "midright",
                      (row.right - 20, row.centery), width=row.w // 2 - 10)

    # ------------------------------------------------------------ game over

    def _over(self, c: Canvas) -> None:
        """The winners, every seat ranked with its points per deal (the view's `history`) and total,
        and how to play again."""
        t, surf, view = c.t, c.surf, c.view
        winners = [c.seat(p) for p in view["winners"]]
        page = self.games[c.table["game"]].page
        c.header(t("game_name"), t("game_over_title"), page.subtitle(c))
        title = t.count("winner", len(winners), seats=t.seats(winners))
        r = draw.text(surf, title, 76, GOLD, "midtop", (SIZE[0] // 2, HEADER + 18), width=1000)
        draw.crown(surf, (r.x - 60, r.centery), 34)
        draw.crown(surf, (r.right + 60, r.centery), 34)
        history = view.get("history") or []
        deals = len(history)
        edge = SIZE[0] - (QR_COLUMN if self.spectate else 0)
        first, last = 330, edge - 180
        step = min(160, (last - 60 - first) // max(deals, 1))
        top = r.bottom + 20
        if self.spectate:
            code = draw.qr(surf, self.spectate, (edge + QR_COLUMN // 2 - 8, top + 125), 250)
            draw.text(surf, t("spectate"), 28, TEXT, "midtop", (code.centerx, code.bottom + 12), width=QR_COLUMN - 24,
                      lines=2)
        for i in range(deals):
            draw.text(surf, t("col_hand", hand=i + 1), 30, MUTED, "midbottom", (first + i * step + step // 2, top + 36),
                      width=step - 10)
        draw.text(surf, t("col_total"), 30, GOLD, "midbottom", (last + 60, top + 36))
        ranking = sorted(range(view["players"]), key=lambda p: (-view["totals"][p], p))
        for p, row in c.score_rows(ranking, top + 44, SIZE[1] - 64, 84, crown=(260, 22), x1=edge - 16):
            for i, points in enumerate(history):
                draw.text(surf, draw.number(points[p]), 40, TEXT, "center", (first + i * step + step // 2, row.centery))
            draw.text(surf, draw.number(view["totals"][p]), 56, TEXT, "center", (last + 60, row.centery))
        c.prompt_bar(t("play_again"))


def _key(value) -> str:
    """An option value as a text-key suffix: true/false for booleans, else the value."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _start_status(t: Translator, table: dict, short: bool = False) -> tuple[str, bool]:
    """Whether the seats that joined can start the game chosen, in words ('Encore 1 joueur pour commencer',
    'Cinq cartes se joue à 2 : 3 inscrits', '3 joueurs : prêts à commencer'; `short`: the misfit without the
    game's name), and whether they can."""
    joined, least, most = len(table["joined"]), table["min_players"], table["max_players"]
    if joined < least:
        return t.count("lobby_need", least - joined), False
    if joined > most:
        plays_with = t.plays_with(least, most)
        if short:
            return t("start_misfit", players=joined, plays_with=plays_with), False
        return t("players_misfit", game_name=t("game_name"), players=joined, plays_with=plays_with), False
    return t("lobby_ready", n=joined), True
