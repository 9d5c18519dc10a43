"""What Neurotrio's pages show, decided from the public table view alone (no drawing, no pygame): the pages due,
what to do, the notes over the domain, the prompt's cell, who acts, the bids on each card, what each seat box
shows, a bid's score spelled out, the order of the end pages' rows."""
from __future__ import annotations

from typing import TYPE_CHECKING

from table.games.kit.pages import resolution_pages, signed
from table.games.neurotrio.rules import ATTRIBUTES, NUMBERS

if TYPE_CHECKING:
    from table.screen.i18n import Translator

COLUMNS = ("start", "rewards", "passes", "finishing", "penalty", "bids")   # the scores page's points by kind


def pages(table: dict) -> list[tuple[str, int | None]]:
    """The pages to show for this table view, in order; the last one stays on screen.

    Setup (start card, deal, registration): the setup page; then the domain page; at the end the finishing
    bonuses and penalties, the treasure, every bid's score, the points by kind and the game-over page.
    """
    phase = table["view"]["phase"]
    if phase == "over":
        return resolution_pages(table, [("finish", None), ("treasure", None), ("bids", None)], True)
    return [("setup" if phase in ("show", "register") else "domain", None)]


def instruction(t: Translator, table: dict) -> str:
    """The bottom bar: what to do now, and who does it."""
    view, seats = table["view"], table["joined"]
    phase = view["phase"]
    if phase in ("show", "register"):
        return t(f"bar_{phase}")
    if phase == "bid":
        key = "bar_bid_caller" if view["bidder"] == view["caller"] else "bar_bid"
        return t(key, seat=seats[view["bidder"]])
    if phase == "build":
        return t("bar_place" if view["chosen"] else "bar_choose", seat=seats[view["active"]])
    return ""


def notes(t: Translator, table: dict) -> list[str]:
    """The lines over the domain: the neuro round (who called, who bids, who next, who passed) or who may call
    neuro now; the grown limits; "deux cartes"; what a bid mark says, while bids lie on the domain."""
    view, seats = table["view"], table["joined"]
    lines = []
    if view["phase"] == "bid":
        line = t("neuro_round", caller=seats[view["caller"]], seat=seats[view["bidder"]])
        later = view["to_bid"][1:]
        if later:
            line += f" · {t('neuro_next', seats=t.seats(later, seats))}"
        if view["passed"]:
            line += f" · {t('neuro_passed', seats=t.seats(view['passed'], seats))}"
        lines.append(line)
    elif view["callers"]:
        lines.append(t("neuro_open", seats=t.seats(view["callers"], seats)))
    if view["grown"]:
        lines.append(t("grown", rows=view["limits"][0], cols=view["limits"][1]))
    if view["two_cards"] is not None:
        lines.append(t("two_cards", seat=seats[view["two_cards"]]))
    if bids_on(view):
        lines.append(t("bid_legend"))
    return lines


def neuro_note(view: dict) -> bool:
    """Whether the first note is about neuro (a round under way, or a call open): it is shown in gold."""
    return view["phase"] == "bid" or bool(view["callers"])


def cursor_cell(table: dict) -> tuple[int, int] | None:
    """The cell the seat prompt's cursor is on (row, col), or None without a cell prompt."""
    prompt = table.get("prompt")
    if not prompt or prompt["cursor"] is None:
        return None
    key, params = prompt["labels"][prompt["cursor"]]
    return (params["row"], params["col"]) if key == "cell" else None


def to_act(view: dict) -> int | None:
    """The player to act: the bidder during a neuro round, else the active player."""
    return view["bidder"] if view["phase"] == "bid" else view["active"]


def bids_on(view: dict) -> dict[str, list[tuple[dict, bool]]]:
    """Per domain card, the bids on it with a base, in the order made: (bid, whether it is the bid under way)."""
    bids = [(bid, False) for bid in view["bids"]] + [(view["bid"], True)] * bool(view["bid"] and view["bid"]["card"])
    on: dict[str, list[tuple[dict, bool]]] = {}
    for bid, current in bids:
        if bid["card"] and bid["base"]:
            on.setdefault(bid["card"], []).append((bid, current))
    return on


def seat_piece(view: dict, p: int) -> str:
    """What a seat box shows right of the points: "chosen" (the card the player to act chose), "bid" (its bid
    under way) or "tokens" (its tokens left)."""
    if p == to_act(view) and view["chosen"]:
        return "chosen"
    return "bid" if view["bid"] and view["bid"]["bidder"] == p else "tokens"


def place(view: dict, p: int) -> int | None:
    """A seat's finishing place (1, 2...) once its hand is empty, else None."""
    return None if view["counts"][p] or p not in view["finished"] else view["finished"].index(p) + 1


def finish_order(view: dict) -> list[int]:
    """The finish page's rows: the finished players in finishing order, then those still holding cards."""
    return view["finished"] + [p for p in range(view["players"]) if p not in view["finished"]]


def ranking(view: dict) -> list[int]:
    """The players from the highest total down (ties by player)."""
    return sorted(range(view["players"]), key=lambda p: (-view["totals"][p], p))


def bid_text(t: Translator, bid: dict, mine: tuple, hidden: tuple) -> str:
    """A bid's score spelled out (N7), from the attributes of its card (`mine`) and of the treasure (`hidden`):
    'base 7 × jeton 2 sur une carte à 2 attributs communs : +14'."""
    token, base, score = bid["token"], bid["base"], signed(bid["score"])
    if token == "0":
        return t("score_bluff", base=base, score=score)
    if token in NUMBERS:
        shared = sum(a == b for a, b in zip(mine, hidden))
        return t(f"score_number_{shared}", base=base, token=token, score=score)
    i = ATTRIBUTES.index(token)
    return t(f"score_{token}_{'same' if mine[i] == hidden[i] else 'other'}", base=base, score=score)
