"""What Venture's pages show, decided from the public table view alone (no drawing, no pygame): the pages due,
whether a firing is on show, ranks grouped, what each seat takes, a score's parts, who is meant, what to do."""
from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING, Mapping

from table.games.kit.pages import resolution_pages

if TYPE_CHECKING:
    from table.screen.i18n import Translator


def fired(view: dict) -> bool:
    """Whether the view still holds a firing nobody has acted on since (no bid, no slug card yet):
    the firing's pages are due. The draft OKs of the next deal do not count (as for the table gate)."""
    last = view["last_round"]
    if last is None:
        return False
    if view["phase"] == "over":
        return True
    if any(view["committed"]):
        return False
    if view["phase"] == "bidding":
        return (last["deal"], last["round"]) == (view["deal"], view["round"] - 1)
    return not view["slug"]


def pages(table: dict) -> list[tuple[str, int | None]]:
    """The pages to show for this table view, in order; the last one stays on screen.

    After a firing: each step, what everyone takes, the deal's scores when the
    firing ended a deal, the game-over page at the end; once the table is clear
    again, the table page.
    """
    view = table["view"]
    if not fired(view):
        return [("table", None)]
    steps = [("fire", k) for k in range(len(view["last_round"]["steps"]))] + [("take", None)]
    return resolution_pages(table, steps, view["phase"] == "over" or view["deal"] > view["last_round"]["deal"])


def rank_groups(cards: list[str], rank: Mapping[str, int]) -> list[tuple[str, int]]:
    """Cards sorted by rank as (a card of the rank, how many) per rank."""
    return [(group[0], len(group)) for group in (list(g) for _, g in groupby(cards, key=rank.__getitem__))]


def take_moves(last_round: dict) -> list[dict]:
    """Per player, after a firing: `bid` (the card), `to` (the player whose pile it goes on, None: the centre)
    and `takes` (the cards the player puts on its face-up score pile)."""
    owner = {card: step["taker"] for step in last_round["steps"] for card in step["taken"]}
    return [{"bid": b["card"], "to": owner.get(b["card"]), "takes": last_round["gains"][b["seat"]]}
            for b in last_round["bids"]]


def score_parts(player_score: dict) -> tuple[list[dict], int, list[dict], int]:
    """A seat's deal score split as on the page: (incomplete ranks, their points at -1 a card,
    complete ranks, their points at +1 a card of the rank)."""
    ranks = player_score["ranks"]
    lost = [r for r in ranks if not r["complete"]]
    won = [r for r in ranks if r["complete"]]
    return lost, sum(r["points"] for r in lost), won, sum(r["points"] for r in won)


def table_columns(view: dict) -> list[str]:
    """The table page's column titles: the draft or the bid while one is made, the cards in hand, the face-up
    score pile (its title says it is counted at the deal's end: until then the totals are the deals ended'),
    the total."""
    status = {"draft": ["col_draft"], "bidding": ["col_bid"]}.get(view["phase"], [])
    return status + ["col_hand_count", "col_pile", "col_total"]


def who(t: Translator, table: dict, players: list[int]) -> str:
    """'Tout le monde' when every player is meant, else the seats."""
    if len(players) == table["view"]["players"]:
        return t("everyone")
    return t.seats(players, table["joined"])


def prompt(t: Translator, table: dict) -> str:
    """What to do now and who does it."""
    view = table["view"]
    phase = view["phase"]
    if phase == "draft":
        return t("prompt_draft", who=who(t, table, [p for p, done in enumerate(view["drafted"]) if not done]))
    if phase == "slug":
        return t("prompt_slug", seat=table["joined"][view["dealer"]], n=len(view["slug"]) + 1, size=view["slug_size"])
    if phase == "bidding":
        key = "prompt_bid" if table["shape"]["seat"] == 1 else "prompt_bid_pads"
        return t(key, who=who(t, table, [p for p, done in enumerate(view["committed"]) if not done]))
    return ""
