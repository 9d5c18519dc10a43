"""The table's screen: the chrome every game shares, and each game's own pages, drawn from the public view.

`Screen.pages` says which pages a table view calls for (the last one stays
up); `Screen.render` draws one of them on a 1280x720 surface. The chrome is
the lobby (the game menu, built from the registry), the refusal and fault
banners, the game-over page (ranking, per-deal columns, crowns, how to
play again) and the rules page (the game's rules at a glance, from the lobby
menu or a seat's menu). Everything else is the game's page module (`pages`, `draw_page`),
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
TITLE_W = 1000    # the widest the game-over title (its winners) is drawn
# The lobby's layout by the most lines its menu has: the title's size and top, the tagline's, the menu's box (top,
# height), the seats' row (centre, largest radius), the tops of the three lines under it.
LOBBY = {4: ((96, 28), (40, 128), (186, 200), (440, 44), (540, 594, 646)),
         6: ((80, 20), (36, 106), (158, 228), (440, 44), (540, 594, 646)),
         8: ((64, 12), (30, 82), (122, 304), (474, 34), (560, 612, 656))}
RULES_PARTS = ("goal", "turn", "secret", "end")   # the rules page's parts, each a title and a text of the game
RULES_TEXT_W, RULES_TEXT_SIZE = 840, 28   # the rules page's texts: each fits 3 lines of this width at this size


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
        if table.get("rules_page"):
            return [("rules", None)]
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
        elif page == "rules":
            self._rules(c)
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
        """Each open seat menu on a bar of its own at the bottom: the seat, its lines, the cursor's in gold, and why
        the OK that opened it did nothing else."""
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
            if menu.get("why"):
                key, params = menu["why"]
                draw.text(c.surf, c.t(key, **params), 28, MUTED, "midleft", (x + 10, bar.centery),
                          width=bar.right - x - 30, lines=2)

    # ------------------------------------------------------------ rules

    def _rules(self, c: Canvas) -> None:
        """The rules at a glance: the goal, a turn, what is secret and the end, beside four cards of the game's
        deck, and how to go back."""
        t, surf = c.t, c.surf
        c.header(t("game_name"), t("rules_title"))
        y = HEADER + 12
        for part in RULES_PARTS:
            draw.text(surf, t(f"rules_{part}_title"), 32, GOLD, "topleft", (40, y))
            body = draw.text(surf, t(f"rules_{part}"), RULES_TEXT_SIZE, TEXT, "topleft", (40, y + 38),
                             width=RULES_TEXT_W, lines=3)
            y = body.bottom + 14
        cards = c.faces.cards
        for i in range(4):
            rect = pygame.Rect(0, 0, 150, 216)
            rect.center = (1000 + (i % 2) * 170, HEADER + 140 + (i // 2) * 236)
            with draw.picture():   # the cards as printed, their small print included
                c.card(rect, cards[(2 * i + 1) * len(cards) // 8])   # one from each quarter of the deck
        seat = c.table["rules_page"]["seat"]
        c.prompt_bar(t("rules_close") if seat is None or c.table["mode"] == "lobby" else
                     t("rules_close_seat", seat=seat), explain=False)

    # ------------------------------------------------------------ lobby

    def _lobby(self, c: Canvas) -> None:
        """The game chosen and its menu (game, options, start), the seats that joined, and what to do."""
        t, surf, table = c.t, c.surf, c.table
        cx = SIZE[0] // 2
        lines = len(table["menu"]["lines"])
        title, tagline, box, (seats_y, most_r), under = LOBBY[min(n for n in LOBBY if n >= lines)]
        draw.text(surf, t("game_name"), title[0], GOLD, "midtop", (cx, title[1]), width=SIZE[0] - 80)
        draw.text(surf, t("tagline", min=table["min_players"], max=table["max_players"]), tagline[0], TEXT,
                  "midtop", (cx, tagline[1]), width=SIZE[0] - 80)
        self._menu(c, pygame.Rect(140, box[0], SIZE[0] - 280, box[1]))
        seats, joined = table["seats"], set(table["joined"])
        step = min(150, (SIZE[0] - 80) // max(len(seats), 1))
        r = min(most_r, step // 2 - 14)
        for i, seat in enumerate(seats):
            x = cx + (i - (len(seats) - 1) / 2) * step
            inside = seat in joined
            draw.badge(surf, (x, seats_y), r, seat, GREEN if inside else LIGHTS["off"])
            name = (table.get("names") or {}).get(str(seat))   # the player a player card named
            label = draw.fitted_name(name, step - 8 - 30 // 2) if name else t("joined" if inside else "free")
            draw.tag(surf, label, 30, (x, seats_y + r + 10), INK, GOLD if name else TEXT if inside else MUTED,
                     "midtop", width=step - 8)
        draw.text(surf, t("lobby_join"), 44, TEXT, "midtop", (cx, under[0]), width=SIZE[0] - 60)
        draw.text(surf, t("lobby_start"), 34, MUTED, "midtop", (cx, under[1]), width=SIZE[0] - 60)
        draw.text(surf, _start_status(t, table)[0], 44, GOLD, "midtop", (cx, under[2]), width=SIZE[0] - 60)

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
            elif line == "rules":
                label, value = t("menu_rules"), t("menu_rules_show")
            elif line == "teach":
                label, value = t("menu_teach"), t("menu_teach_on" if table.get("teach") else "menu_teach_off")
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
        title = t.count("winner", len(winners), seats=t.seats(winners, names=c.table.get("names")))
        if draw.font(draw.LEGIBLE).size(title)[0] > TITLE_W:   # players' names too long to be read in one line
            title = t.count("winner", len(winners), seats=t.seats(winners))
        r = draw.text(surf, title, 76, GOLD, "midtop", (SIZE[0] // 2, HEADER + 18), width=TITLE_W)
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
        for i in range(deals):   # "Manche 3", or "3" where that would not be legible
            label = t("col_hand", hand=i + 1)
            label = label if draw.font(draw.LEGIBLE).size(label)[0] <= step - 10 else str(i + 1)
            draw.text(surf, label, 30, MUTED, "midbottom", (first + i * step + step // 2, top + 36), width=step - 10)
        draw.text(surf, t("col_total"), 30, GOLD, "midbottom", (last + 60, top + 36))
        ranking = sorted(range(view["players"]), key=lambda p: (-view["totals"][p], p))
        for p, row in c.score_rows(ranking, top + 44, SIZE[1] - 64, 84, crown=22, x1=edge - 16):
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
