"""What Five cards' pages show, decided from the public table view alone (no drawing, no pygame): the pages due,
whether a round just ended or the cards are being laid out, the column under the cursor, what to do, the setup
notice, who starts, each column's count and each score spelled out."""
from __future__ import annotations

from typing import TYPE_CHECKING

from table.games.five_cards.rules import COLUMNS, DRAWN
from table.games.kit.pages import resolution_pages

if TYPE_CHECKING:
    from table.screen.i18n import Translator


def pages(table: dict) -> list[tuple[str, int | None]]:
    """The pages to show for this table view, in order; the last one stays on screen.

    When a round has just ended: its count column by column, then its scores,
    the game-over page at the end; once the table is clear again, the table
    page for the next round's setup.
    """
    view = table["view"]
    over = view["phase"] == "over"
    if not (over or round_just_ended(view)):
        return [("table", None)]
    return resolution_pages(table, [("column", k) for k in range(COLUMNS)], True)


def round_just_ended(view: dict) -> bool:
    """Whether a round has just been counted: the next round's setup has not shown a card yet."""
    return view["phase"] == "setup" and view["round_result"] is not None and not view["setup"]["shown"]


def laying_out(view: dict) -> bool:
    """Whether this round's targets are being set out (no card drawn yet): the page shows the setup."""
    return view["phase"] in ("setup", "first") or (view["phase"] == "play" and not view["turns"])


def cursor_column(table: dict) -> int | None:
    """The column under the active seat's cursor while it chooses one (else None)."""
    view = table["view"]
    if view["phase"] != "place":
        return None
    prompt = table.get("prompt")
    return view["legal_columns"][prompt["cursor"] if prompt else 0]


def instruction(t: Translator, table: dict) -> str:
    """The table page's bottom bar: what to do now, and who does it."""
    view = table["view"]
    phase = view["phase"]
    if phase == "setup":
        return t.count("bar_show", view["setup"]["targets_needed"]) if view["setup"]["shown"] else t("bar_shuffle")
    if phase == "first":
        return t("bar_first")
    if phase in ("play", "place"):
        seat = table["joined"][view["active"]]
        if phase == "play":
            return t("bar_draw", seat=seat)
        return t("bar_place", seat=seat, rank=view["last_draw"]["rank"],
                 target=view["target_ranks"][cursor_column(table)])
    return ""


def setup_notice(t: Translator, view: dict) -> tuple[str, str]:
    """(headline, detail) above the targets while they are set out: the last card shown and what to do
    with it, or, once all five are out, how to lay them out."""
    setup = view["setup"]
    if setup["done"]:
        return t("setup_done"), t("setup_lay_out")
    last = setup["last"]
    left = t.count("targets_left", setup["targets_needed"])
    if last is None:
        return t("setup_title", round=view["round"]), t("setup_how")
    if last["role"] == "aside":
        return t("setup_duplicate", rank=last["rank"]), left
    return t("setup_target", rank=last["rank"]), left


def starter_text(t: Translator, table: dict) -> str:
    """Who starts this round and why (empty until the first player is drawn)."""
    view = table["view"]
    p = view["starter"]
    if p is None:
        return ""
    seats = table["joined"]
    reason = view["starter_reason"]
    if reason == DRAWN:
        return t("starter_draw", seat=seats[p])
    scores = view["round_result"]["scores"]
    return t(f"starter_{reason}", seat=seats[p], round=view["round"], mine=scores[p], theirs=scores[1 - p],
             other=seats[1 - p])


def column_text(t: Translator, table: dict, column: dict) -> str:
    """A counted column in words: whose side is larger and takes the target, or the tie and its split."""
    sums, rank = column["sums"], column["rank"]
    winner = column["winner"]
    if winner is None:
        return t("line_tie" if rank % 2 == 0 else "line_tie_rounded", sum=sums[0], rank=rank, half=rank // 2)
    return t("line_wins", seat=table["joined"][winner], win=sums[winner], lose=sums[1 - winner], rank=rank)


def score_formula(t: Translator, result: dict, player: int) -> str:
    """A round score spelled out from its columns: '9 + 10 + 3 (half of 7) = 22'."""
    parts = [str(col["rank"]) if col["winner"] == player else t("half_of", points=col["points"][player],
                                                                   rank=col["rank"])
             for col in result["columns"] if col["winner"] == player or col["split"]]
    score = result["scores"][player]
    if not parts:
        return t("no_points")
    if parts == [str(score)]:
        return parts[0]
    return f"{' + '.join(parts)} = {score}"
