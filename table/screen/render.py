"""The Feira Torio score screen, drawn only from the table's public view.

`Screen.pages` says which pages a table view calls for (the last one stays
up); `Screen.render` draws one of them on a 1280x720 surface. Players are
engine indices in the view; they are shown as seats (table["joined"][p]).
"""
from __future__ import annotations

import pygame

from table.assets import deck_data
from table.screen import draw
from table.screen.draw import BG, FAULT, GOLD, GREEN, INK, LIGHTS, MUTED, PANEL, PANEL_HI, RED, SIZE, TEXT, Face
from table.screen.i18n import Translator

GAME = "feira-torio"
TARGET = 50
BONUS = 5            # points for keeping all four categories
LOTS = 4
HEADER = 84          # height of the title bar (the message banner covers it)
PROMPT = 68          # height of the prompt bar at the bottom of the table page
CROSS = (360, 372)   # centre of the cross of lots on the table page
LOT = (150, 190)     # size of a lot card on the table page


def revealed_round(view: dict) -> tuple[int, int]:
    """(hand, round) of the round whose reveal the view holds."""
    if view["phase"] == "over":
        return view["hand"], 4
    if view["round"] == 1:
        return view["hand"] - 1, 4
    return view["hand"], view["round"] - 1


def take_back(view: dict) -> list[dict[str, list[str]]]:
    """Per player, after the reveal: lots to take, winning bids to discard, other bids to take back."""
    moves = [{"take": [], "discard": [], "back": []} for _ in range(view["players"])]
    for result in view["reveal"]:
        for player, bid in result["bids"]:
            if player == result["winner"]:
                moves[player]["take"].append(result["lot"])
                moves[player]["discard"].append(bid)
            else:
                moves[player]["back"].append(bid)
        for player, cards in result["withdrawn"]:
            moves[player]["back"].extend(cards)
    return moves


def formula(score: dict) -> str:
    """A hand's score spelled out: '4 × 3 × 2 × 1 + 5 = 29'."""
    s = " × ".join(str(f) for f in score["factors"])
    if score["bonus"]:
        s += f" + {score['bonus']}"
    return f"{s} = {score['score']}"


class Screen:
    """The score screen of one table, in one language."""

    def __init__(self, lang: str = "fr", game: str = GAME):
        pygame.font.init()
        self.t = Translator(lang)
        data = deck_data(game)
        looks = {name: (c[self.t.lang], tuple(pygame.Color(c["colour"]))[:3], c["shape"])
                 for name, c in data["categories"].items()}
        self.faces = {row["id"]: Face(*looks[row["category"]], row["fingers"], row["stars"]) for row in data["cards"]}

    # ------------------------------------------------------------ pages

    def pages(self, table: dict) -> list[tuple[str, int | None]]:
        """The pages to show for this table view, in order; the last one stays on screen."""
        view = table.get("view")
        if table["mode"] == "lobby" or view is None:
            return [("lobby", None)]
        over = view["phase"] == "over"
        fresh = view["phase"] == "lots" and not any(view["centre"]["lots"]) and bool(view["reveal"])
        if not (over or fresh):
            return [("table", None)]
        pages: list[tuple[str, int | None]] = [("reveal", k) for k in range(len(view["reveal"]))]
        pages.append(("take", None))
        if over or (view["round"] == 1 and view["hand"] > 1 and view["scores"]):
            pages.append(("scores", None))
        if over:
            pages.append(("winner", None))
        return pages

    def render(self, table: dict, page: str, step: int | None = None) -> pygame.Surface:
        """One page of the screen for this table view, on a new 1280x720 surface."""
        surf = pygame.Surface(SIZE)
        surf.fill(BG)
        if page == "lobby":
            self._lobby(surf, table)
        elif page == "reveal":
            self._reveal(surf, table, step or 0)
        else:
            {"table": self._table, "take": self._take, "scores": self._scores, "winner": self._winner}[page](surf, table)
        if table.get("message"):
            self._banner(surf, self._message(table), RED)
        elif table.get("faults"):
            self._banner(surf, self._fault(table["faults"]), FAULT)
        return surf

    # ------------------------------------------------------------ shared parts

    def card_name(self, card: str) -> str:
        """'Taureau 2 doigts, 3 étoiles' (the card id itself when the deck does not know it)."""
        face = self.faces.get(card)
        if face is None:
            return card
        return self.t("card_name", category=face.name, fingers=self.t.count("fingers", face.fingers),
                      stars=self.t.count("stars", face.stars))

    def _header(self, surf: pygame.Surface, title: str, middle: str = "", right: str = "") -> None:
        pygame.draw.rect(surf, PANEL, (0, 0, SIZE[0], HEADER))
        text_mid = HEADER // 2
        draw.text(surf, title, 52, TEXT, "midleft", (24, text_mid), width=520)
        draw.text(surf, middle, 46, GOLD, "center", (760, text_mid), width=420)
        draw.text(surf, right, 34, MUTED, "midright", (SIZE[0] - 24, text_mid), width=300)

    def _round_header(self, surf: pygame.Surface, title: str, hand: int, rnd: int) -> None:
        self._header(surf, title, self.t("hand_round", hand=hand, round=rnd), self.t("target", target=TARGET))

    def _seat(self, table: dict, player: int) -> int:
        return table["joined"][player]

    def _light(self, table: dict, seat: int):
        lights = table.get("lights") or {}
        state = lights.get(seat, lights.get(str(seat), "off"))
        return LIGHTS.get(state, LIGHTS["off"])

    def _chips(self, surf: pygame.Surface, cards: list[str], x: float, cy: float, h: int, gap: int = 8) -> None:
        """A row of chips `h` high starting at x, centred on cy (a dash for none)."""
        if not cards:
            draw.text(surf, "—", h, MUTED, "midleft", (x + h // 2, cy))
        w = draw.chip_width(h)
        for i, card in enumerate(cards):
            draw.chip(surf, pygame.Rect(x + i * (w + gap), cy - h / 2, w, h), self.faces[card])

    def _seat_rows(self, surf: pygame.Surface, table: dict, players: list[int], top: int, bottom: int,
                   most: int = 100):
        """Draw one panel row per player (seat badge on the left) between top and bottom; yields (player, row)."""
        h = min(most, (bottom - top) // max(len(players), 1))
        for i, p in enumerate(players):
            row = pygame.Rect(16, top + i * h, SIZE[0] - 32, h - 8)
            pygame.draw.rect(surf, PANEL, row, border_radius=12)
            seat = self._seat(table, p)
            draw.badge(surf, (row.x + 54, row.centery), min(34, row.h // 2 - 4), seat, self._light(table, seat))
            yield p, row

    def _message(self, table: dict) -> str:
        """The latest refusal, in words."""
        message = dict(table["message"])
        params = dict(message.get("params") or {})
        if "card" in params:
            params["card"] = self.card_name(params["card"])
        message["params"] = params
        return self.t.message(message, min_players=table.get("min_players"), max_players=table.get("max_players"),
                              players=len(table.get("joined") or ()))

    def _fault(self, faults: list[dict]) -> str:
        """The first faulty reader, in words, with how many more there are."""
        first = faults[0]
        where = self.t("reader_of_centre") if first["seat"] is None else self.t("reader_of_seat", seat=first["seat"])
        text = self.t("reader_dead" if first["dead"] else "reader_failing", where=where)
        return text if len(faults) == 1 else f"{text} {self.t('more_faults', n=len(faults) - 1)}"

    def _banner(self, surf: pygame.Surface, text: str, colour) -> None:
        """A warning across the title bar."""
        rect = pygame.Rect(0, 0, SIZE[0], HEADER + 10)
        pygame.draw.rect(surf, colour, rect)
        pygame.draw.rect(surf, TEXT, rect, 4)
        draw.shape(surf, "triangle", GOLD, (52, rect.centery + 4), 30)
        draw.text(surf, "!", 44, INK, "center", (52, rect.centery + 10))
        draw.text(surf, text, 42, TEXT, "midleft", (100, rect.centery), width=SIZE[0] - 124, lines=2)

    # ------------------------------------------------------------ lobby

    def _lobby(self, surf: pygame.Surface, table: dict) -> None:
        t = self.t
        cx = SIZE[0] // 2
        draw.text(surf, t("game_name"), 120, GOLD, "midtop", (cx, 110))
        draw.text(surf, t("tagline", min=table["min_players"], max=table["max_players"]), 44, TEXT, "midtop", (cx, 200))
        seats, joined = table["seats"], set(table["joined"])
        step = min(180, (SIZE[0] - 80) // max(len(seats), 1))
        r = min(56, step // 2 - 12)
        for i, seat in enumerate(seats):
            x = cx + (i - (len(seats) - 1) / 2) * step
            inside = seat in joined
            draw.badge(surf, (x, 340), r, seat, GREEN if inside else LIGHTS["off"])
            draw.tag(surf, t("joined" if inside else "free"), 36, (x, 340 + r + 12), INK,
                     TEXT if inside else MUTED, "midtop")
        draw.text(surf, t("lobby_join"), 50, TEXT, "midtop", (cx, 490), width=SIZE[0] - 60)
        draw.text(surf, t("lobby_start"), 40, MUTED, "midtop", (cx, 560), width=SIZE[0] - 60)
        missing = table["min_players"] - len(joined)
        status = t.count("lobby_need", missing) if missing > 0 else t("lobby_ready", n=len(joined))
        draw.text(surf, status, 48, GOLD, "midtop", (cx, 630), width=SIZE[0] - 60)

    # ------------------------------------------------------------ table

    def _lot_rects(self) -> list[pygame.Rect]:
        (cx, cy), (w, h) = CROSS, LOT
        dx, dy = w + 22, h - 12
        return [pygame.Rect(0, 0, w, h).move(cx - w // 2 + x, cy - h // 2 + y)
                for x, y in ((0, -dy), (dx, 0), (0, dy), (-dx, 0))]

    def _table(self, surf: pygame.Surface, table: dict) -> None:
        t, view = self.t, table["view"]
        centre = view["centre"]
        self._round_header(surf, t("game_name"), view["hand"], view["round"])
        rects = self._lot_rects()
        for position, rect in enumerate(rects):
            lot = centre["lots"][position]
            if lot:
                draw.card(surf, rect, self.faces[lot])
            else:
                draw.back(surf, rect, False)
        aim = centre["pointer"] if centre["pointer"] is not None else centre["first"]
        if aim is not None:
            target = rects[aim]
            end = {0: target.midbottom, 1: target.midleft, 2: target.midtop, 3: target.midright}[aim]
            draw.arrow(surf, CROSS, end)
            pygame.draw.circle(surf, GOLD, CROSS, 16)
        for rank, position in enumerate(centre["order"] or ()):
            rect = rects[position]
            draw.badge(surf, (rect.x - 20, rect.y + 30), 26, rank + 1, GOLD)
        self._seat_panel(surf, table, view)
        prompt = self._prompt(table, view)
        if prompt:
            bar = pygame.Rect(0, SIZE[1] - PROMPT, SIZE[0], PROMPT)
            pygame.draw.rect(surf, PANEL_HI, bar)
            draw.text(surf, prompt, 44, GOLD, "center", bar.center, width=SIZE[0] - 40)

    def _prompt(self, table: dict, view: dict) -> str:
        t = self.t
        phase = view["phase"]
        if phase == "lots":
            return t("prompt_lots", seat=self._seat(table, view["dealer"]))
        if phase == "first":
            return t("prompt_first", seat=self._seat(table, view["first_bid"]))
        if phase == "bidding":
            return t("prompt_bid_single" if table.get("single_pad", True) else "prompt_bid_slots")
        return ""

    def _seat_panel(self, surf: pygame.Surface, table: dict, view: dict) -> None:
        t = self.t
        x0, x1 = 690, SIZE[0] - 16
        order = view["centre"]["order"] or list(range(LOTS))
        slot_w, slot_x = 34, x0 + 322
        draw.text(surf, t("col_bids"), 28, MUTED, "midbottom", (slot_x + 2 * (slot_w + 8) - 4, HEADER + 38))
        draw.text(surf, t("col_points"), 28, MUTED, "bottomright", (x1 - 14, HEADER + 38))
        n = view["players"]
        top, bottom = HEADER + 44, SIZE[1] - PROMPT - 6
        h = min(110, (bottom - top) // n)
        for p in range(n):
            seat = self._seat(table, p)
            row = pygame.Rect(x0, top + p * h, x1 - x0, h - 8)
            pygame.draw.rect(surf, PANEL, row, border_radius=12)
            r = min(30, row.h // 2 - 4)
            draw.badge(surf, (row.x + 12 + r, row.centery), r, seat, self._light(table, seat))
            name = draw.text(surf, t("seat", seat=seat), 44, TEXT, "bottomleft", (row.x + 24 + 2 * r, row.centery + 2))
            x = name.x
            for key, shown in (("dealer", view["dealer"] == p), ("first_bid", view["first_bid"] == p)):
                if shown:
                    x = draw.tag(surf, t(key), 28, (x, row.centery + 6), INK, GOLD if key == "dealer" else TEXT).right + 8
            committed = view["committed"][p]
            slots_h = min(46, row.h - 40)
            for i, position in enumerate(order):
                draw.back(surf, pygame.Rect(slot_x + i * (slot_w + 8), row.y + 6, slot_w, slots_h), committed[position])
            if all(committed):
                draw.text(surf, t("locked"), 34, GREEN, "midtop", (slot_x + 2 * (slot_w + 8) - 4, row.y + slots_h + 9))
            draw.text(surf, str(view["totals"][p]), 60, TEXT, "midright", (x1 - 14, row.centery + 2))

    # ------------------------------------------------------------ reveal

    def _reveal(self, surf: pygame.Surface, table: dict, step: int) -> None:
        t, view = self.t, table["view"]
        self._round_header(surf, t("reveal_title"), *revealed_round(view))
        results = view["reveal"]
        width, gap = 302, 10
        x = (SIZE[0] - LOTS * width - (LOTS - 1) * gap) // 2
        for k, result in enumerate(results):
            column = pygame.Rect(x + k * (width + gap), HEADER + 8, width, SIZE[1] - HEADER - 16)
            if k <= step:
                pygame.draw.rect(surf, PANEL_HI if k == step else PANEL, column, border_radius=14)
            lot = pygame.Rect(0, 0, 124, 156)
            lot.midtop = (column.centerx + 16, column.y + 10)
            draw.card(surf, lot, self.faces[result["lot"]], dim=k > step)
            draw.badge(surf, (column.x + 34, column.y + 40), 26, k + 1, GOLD)
            if k <= step:
                self._lot_result(surf, table, result, column.inflate(-16, 0), lot.bottom + 12)
            else:
                draw.text(surf, "?", 120, MUTED, "midtop", (column.centerx, lot.bottom + 60))

    def _lot_result(self, surf: pygame.Surface, table: dict, result: dict, column: pygame.Rect, y: int) -> None:
        t = self.t
        bids = sorted(result["bids"], key=lambda b: (-self.faces[b[1]].fingers, b[0]))
        h = min(64, (column.bottom - y - 96) // max(len(bids), 1))
        if not bids:
            draw.text(surf, t("no_bids"), 32, MUTED, "midtop", (column.centerx, y))
        for i, (player, card) in enumerate(bids):
            row = pygame.Rect(column.x, y + i * h, column.w, h - 6)
            seat = self._seat(table, player)
            r = min(22, row.h // 2)
            draw.badge(surf, (row.x + r + 2, row.centery), r, seat, self._light(table, seat))
            chip = pygame.Rect(row.x + 2 * r + 10, row.y + 2, draw.chip_width(min(44, row.h - 4)), min(44, row.h - 4))
            chip.centery = row.centery
            draw.chip(surf, chip, self.faces[card])
            label = (chip.right + 8, row.centery)
            room = row.right - label[0] - 2
            if player == result["winner"]:
                draw.frame(surf, row.inflate(8, 6))
                draw.tag(surf, t("wins"), 28, label, INK, GOLD, "midleft", room)
            elif player in result["cancelled"]:
                draw.strike(surf, chip)
                draw.tag(surf, t("cancelled"), 26, label, TEXT, RED, "midleft", room)
        y += len(bids) * h + 10
        if result["winner"] is None:
            draw.text(surf, t("no_winner"), 32, TEXT, "midtop", (column.centerx, y), width=column.w, lines=2)
        for player, cards in result["withdrawn"]:
            r = draw.text(surf, t("takes_back", seat=self._seat(table, player)), 28, TEXT, "topleft",
                          (column.x, y), width=column.w, lines=2)
            h = min(40, int((column.w - 6 * len(cards)) / (2.85 * len(cards))))
            self._chips(surf, cards, column.x, r.bottom + 8 + h // 2, h, 6)

    # ------------------------------------------------------------ take

    def _take(self, surf: pygame.Surface, table: dict) -> None:
        t, view = self.t, table["view"]
        self._round_header(surf, t("take_title"), *revealed_round(view))
        moves = take_back(view)
        counts = [max(max(len(m[key]) for m in moves), 1) for key in ("take", "discard", "back")]
        gap, least = 10, 180
        h = min(56, int((SIZE[0] - 130 - 20 - 2 * 30 - gap * sum(counts)) / (2.85 * sum(counts))))
        step = draw.chip_width(h) + gap
        columns, x = [], 130
        for key, move, n in zip(("col_take", "col_discard", "col_back"), ("take", "discard", "back"), counts):
            width = max(n * step, least)
            draw.text(surf, t(key), 32, GOLD, "bottomleft", (x, HEADER + 66), width=width - 16, lines=2)
            columns.append((move, x))
            x += width + 30
        draw.text(surf, t("col_seat"), 32, GOLD, "bottomleft", (30, HEADER + 66), width=100)
        discarded = [r["lot"] for r in view["reveal"] if r["winner"] is None]
        bottom = SIZE[1] - (80 if discarded else 10)
        for p, row in self._seat_rows(surf, table, list(range(view["players"])), HEADER + 74, bottom):
            for move, x in columns:
                self._chips(surf, moves[p][move], x, row.centery, h, gap)
        if discarded:
            r = draw.text(surf, t.count("lots_discarded", len(discarded)), 36, TEXT, "midleft", (30, SIZE[1] - 40))
            self._chips(surf, discarded, r.right + 20, SIZE[1] - 40, 50)

    # ------------------------------------------------------------ scores

    def _score_columns(self) -> tuple[int, int, int, int]:
        """(kept x, widest chip height, formula x, totals right edge) on the scores page.

        Sized from the right: totals as wide as 3 digits, then room for the
        longest formula (every category kept at the most stars, plus the
        bonus), then chips as tall as fit one per category in what is left.
        """
        categories = len({face.name for face in self.faces.values()})
        stars = max(face.stars for face in self.faces.values())
        longest = formula({"factors": [stars] * categories, "bonus": BONUS, "score": stars ** categories + BONUS})
        right = SIZE[0] - 16 - 24
        total_w = max(draw.font(64).size("888")[0], draw.font(34).size(self.t("col_total"))[0])
        calc_x = right - total_w - 40 - draw.font(44).size(longest)[0]
        kept_x, gap, h = 130, 8, 56
        while h > 12 and categories * draw.chip_width(h) + (categories - 1) * gap > calc_x - 30 - kept_x:
            h -= 1
        return kept_x, h, calc_x, right

    def _scores(self, surf: pygame.Surface, table: dict) -> None:
        t, view = self.t, table["view"]
        hand = view["hand"] if view["phase"] == "over" else view["hand"] - 1
        self._header(surf, t("scores_title", hand=hand), "", t("target", target=TARGET))
        kept_x, most, calc_x, right = self._score_columns()
        calc_w = right - 100 - calc_x
        draw.text(surf, t("col_kept"), 34, GOLD, "bottomleft", (kept_x, HEADER + 48), width=calc_x - 30 - kept_x)
        draw.text(surf, t("col_calc"), 34, GOLD, "bottomleft", (calc_x, HEADER + 48), width=calc_w)
        draw.text(surf, t("col_total"), 34, GOLD, "bottomright", (right, HEADER + 48))
        scores = {s["player"]: s for s in view["scores"]}
        for p, row in self._seat_rows(surf, table, list(range(view["players"])), HEADER + 56, SIZE[1] - 10):
            score = scores.get(p)
            if score:
                self._chips(surf, score["kept"], kept_x, row.centery, min(most, row.h - 16))
                draw.text(surf, formula(score), 44, TEXT, "midleft", (calc_x, row.centery), width=calc_w)
            draw.text(surf, str(view["totals"][p]), 64, TEXT, "midright", (right, row.centery))

    # ------------------------------------------------------------ winner

    def _winner(self, surf: pygame.Surface, table: dict) -> None:
        t, view = self.t, table["view"]
        winners = [self._seat(table, p) for p in view["winners"]]
        self._header(surf, t("game_name"), t("game_over_title"), t("target", target=TARGET))
        title = t.count("winner", len(winners), seats=t.seats(winners))
        r = draw.text(surf, title, 84, GOLD, "midtop", (SIZE[0] // 2, HEADER + 24), width=1000)
        draw.crown(surf, (r.x - 60, r.centery), 36)
        draw.crown(surf, (r.right + 60, r.centery), 36)
        history = view["history"]
        hands = len(history)
        first, last = 330, 1100
        step = min(160, (last - 60 - first) // max(hands, 1))
        top = r.bottom + 30
        for i in range(hands):
            draw.text(surf, t("col_hand", hand=i + 1), 32, MUTED, "midbottom", (first + i * step + step // 2, top + 36),
                      width=step - 10)
        draw.text(surf, t("col_total"), 32, GOLD, "midbottom", (last + 60, top + 36))
        ranking = sorted(range(view["players"]), key=lambda p: (-view["totals"][p], p))
        for p, row in self._seat_rows(surf, table, ranking, top + 44, SIZE[1] - 10, 84):
            draw.text(surf, t("seat", seat=self._seat(table, p)), 40, TEXT, "midleft", (row.x + 100, row.centery))
            for i, points in enumerate(history):
                draw.text(surf, str(points[p]), 40, TEXT, "center", (first + i * step + step // 2, row.centery))
            draw.text(surf, str(view["totals"][p]), 56, TEXT, "center", (last + 60, row.centery))
            if p in view["winners"]:
                draw.frame(surf, row)
                draw.crown(surf, (row.x + 260, row.centery), 22)
