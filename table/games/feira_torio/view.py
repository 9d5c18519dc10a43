"""What Feira Torio's pages show, decided from the public table view alone (no drawing, no pygame): the
pages due, the round a reveal belongs to, what each seat takes, the prompt, the seat tags, a score spelled out."""
from __future__ import annotations

from typing import TYPE_CHECKING

from table.games.feira_torio.rules import LOTS
from table.games.kit.pages import resolution_pages

if TYPE_CHECKING:
    from table.screen.i18n import Translator


def pages(table: dict) -> list[tuple[str, int | None]]:
    """The pages to show for this table view, in order; the last one stays on screen.

    After a reveal: each lot's result, what everyone takes, the hand's scores
    when it ended one, the game-over page at the end; once the table is clear
    again, the table page with the dealer's prompt.
    """
    view = table["view"]
    over = view["phase"] == "over"
    fresh = view["phase"] == "lots" and not any(view["centre"]["lots"]) and bool(view["reveal"])
    if not (over or fresh):
        return [("table", None)]
    steps = [("reveal", k) for k in range(len(view["reveal"]))] + [("take", None)]
    return resolution_pages(table, steps, over or (view["round"] == 1 and view["hand"] > 1 and bool(view["scores"])))


def revealed_round(view: dict) -> tuple[int, int]:
    """(hand, round) of the round whose reveal the view holds."""
    if view["phase"] == "over":
        return view["hand"], 4
    if view["round"] == 1:
        return view["hand"] - 1, 4
    return view["hand"], view["round"] - 1


def scored_hand(view: dict) -> int:
    """The hand whose scores the view holds."""
    return view["hand"] if view["phase"] == "over" else view["hand"] - 1


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


def discarded(view: dict) -> list[str]:
    """The lots nobody won in the reveal."""
    return [r["lot"] for r in view["reveal"] if r["winner"] is None]


def bid_mark(result: dict, player: int) -> str | None:
    """The tag a revealed bid gets: "wins", "tie" (it tied with another bid on the lot, so it is cancelled), or
    None."""
    if player == result["winner"]:
        return "wins"
    return "tie" if player in result["cancelled"] else None


def lot_notes(result: dict) -> list[str]:
    """What a lot's reveal says under its bids, in order: that tied bids were cancelled, that nobody won."""
    return ["ties_cancelled"] * bool(result["cancelled"]) + ["no_winner"] * (result["winner"] is None)


def formula(score: dict) -> str:
    """A hand's score spelled out: '4 × 3 × 2 × 1 + 5 = 29'."""
    s = " × ".join(str(f) for f in score["factors"])
    if score["bonus"]:
        s += f" + {score['bonus']}"
    return f"{s} = {score['score']}"


def aim(view: dict) -> int | None:
    """The lot the First Bid arrow points at: the pointer while it is chosen, then the first lot."""
    centre = view["centre"]
    return centre["pointer"] if centre["pointer"] is not None else centre["first"]


def slot_order(view: dict) -> list[int]:
    """The lots in resolution order (table order before it is known): the order of each seat's bid slots."""
    return view["centre"]["order"] or list(range(LOTS))


def seat_tags(view: dict, player: int) -> list[str]:
    """The text keys of a seat's tags: dealer, first bid."""
    return [key for key, shown in (("dealer", view["dealer"] == player), ("first_bid", view["first_bid"] == player))
            if shown]


def prompt(t: Translator, table: dict) -> str:
    """What to do now on the table page, and who does it ('' once the game is over)."""
    view, seats = table["view"], table["joined"]
    phase = view["phase"]
    if phase == "lots":
        return t("prompt_lots", seat=seats[view["dealer"]])
    if phase == "first":
        return t("prompt_first", seat=seats[view["first_bid"]])
    if phase == "bidding":
        return t("prompt_bid_single" if table["shape"]["seat"] == 1 else "prompt_bid_slots")
    return ""
