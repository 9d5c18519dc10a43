"""What Festival's pages show, decided from the public table view alone (no drawing, no pygame): the pages due,
whether a turn just ended, what to do and who does it, who plays first."""
from __future__ import annotations

from typing import TYPE_CHECKING

from table.games.kit.pages import resolution_pages

if TYPE_CHECKING:
    from table.screen.i18n import Translator


def pages(table: dict) -> list[tuple[str, int | None]]:
    """The pages to show for this table view, in order; the last one stays on screen.

    After a turn: the turn's end (cards kept, passes, the next first player), then, once the table is clear,
    the table page. At the end: the last turn, every tableau turned over, the gold, and the game-over page.
    """
    view = table["view"]
    if view["phase"] == "over":
        return resolution_pages(table, [("turn", None), ("reveal", None)], True)
    if turn_ended(view):
        return resolution_pages(table, [("turn", None)], False)
    return [("table", None)]


def turn_ended(view: dict) -> bool:
    """Whether a turn has just ended: the next first player has not drawn yet."""
    return view["phase"] == "draw" and view["drawn"] == 0 and view["turn"] > 1


def instruction(t: Translator, table: dict) -> str:
    """The table page's bottom bar: what to do now, and who does it."""
    view = table["view"]
    seat = table["joined"]
    phase = view["phase"]
    if table.get("clearing"):
        return t("prompt_clear")
    if phase == "draw":
        return t("prompt_draw", seat=seat[view["first"]], drawn=view["drawn"], size=view["packet_size"])
    if phase == "face":
        return t("prompt_face", seat=seat[view["holder"]])
    if phase != "keep":
        return ""
    pads = table["shape"]["seat"] > 1
    n = view["packet"]
    receivers = view["receivers"]
    if not view["chosen"]:
        return t("prompt_keep_pads" if pads else "prompt_keep", seat=seat[view["first"]])
    if len(receivers) == 1:
        return t("prompt_last" if n == 2 else "prompt_receive", seat=seat[receivers[0]], n=n)
    giver = seat[view["chosen"][-1]["player"]]
    seats = t.seats(receivers, seat)
    return t("prompt_pass_first" if view["serve_first"] else "prompt_pass_any", seat=giver, n=n, seats=seats)


def plays_first(view: dict, player: int) -> bool:
    """Whether a seat is the first player, while the game is on (its tag beside its name)."""
    return view["phase"] != "over" and view["first"] == player
