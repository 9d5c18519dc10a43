"""What Sweep's pages show, decided from the public table view alone (no drawing, no pygame): the pages due,
the capture on show, who took what, the goal, what to do, a step's rule and captures in words."""
from __future__ import annotations

from typing import TYPE_CHECKING

from table.games.kit.pages import resolution_pages
from table.games.sweep.rules import CENTRE, HAND

if TYPE_CHECKING:
    from table.screen.i18n import Translator


def pages(table: dict) -> list[tuple[str, int | None]]:
    """The pages to show for this table view, in order; the last one stays on screen.

    While a tied seat picks: the capture's steps so far, then the pick. After a
    capture: each step, what everyone takes, the deal's scores when it ended
    one, the game-over page at the end; once the pads are clear again, the
    table page with what to do next.
    """
    view = table["view"]
    if view["phase"] == "pick":
        return [("step", k) for k in range(len(view["capture"]["steps"]))] + [("pick", None)]
    if not fresh(view):
        return [("table", None)]
    steps = [("step", k) for k in range(len(view["last_round"]["steps"]))] + [("take", None)]
    return resolution_pages(table, steps, deal_ended(view))


def fresh(view: dict) -> bool:
    """Whether a capture has just finished: nothing of the next round (or deal) has been laid yet."""
    if view["last_round"] is None:
        return False
    phase = view["phase"]
    return phase == "over" or (phase == "centre" and not view["centre"]) or (
        phase == "register" and not any(view["registered"]))


def deal_ended(view: dict) -> bool:
    """Whether the capture just shown ended a deal (its scores are then due)."""
    return view["phase"] in ("over", "register") and view["scores"] is not None


def resolution(view: dict) -> tuple[int, int, list[dict]]:
    """(deal, round, steps) of the capture on show: the one under way while a tied seat picks (its
    tie last, with the picks so far), else the last round's."""
    if view["phase"] == "pick":
        capture = view["capture"]
        return view["deal"], view["round"], capture["steps"] + [capture["tie"]]
    last = view["last_round"]
    return last["deal"], last["round"], last["steps"]


def takers(step: dict) -> list[tuple[int, list[int]]]:
    """Who took what in a step: (player, ranks taken), in the order they first took."""
    taken: dict[int, list[int]] = {}
    for t in step["taken"]:
        taken.setdefault(t["player"], []).append(t["rank"])
    return list(taken.items())


def ranks_text(ranks: list[int]) -> str:
    """Ranks as players read them, highest first: '9, 9, 4'."""
    return ", ".join(str(r) for r in sorted(ranks, reverse=True))


def goal(t: Translator, view: dict) -> str:
    """The header's right text: the match's target, or a single deal."""
    return t("target", target=view["target"]) if view["match"] else t("one_deal")


def picker(view: dict, current: int) -> int | None:
    """The player picking a tie's target on capture step `current` (None: not that step, or no pick)."""
    steps = resolution(view)[2]
    return view["capture"]["picker"] if view["phase"] == "pick" and current == len(steps) - 1 else None


def prompt(t: Translator, table: dict) -> str:
    """What to do now, and who does it."""
    view, seats = table["view"], table["joined"]
    phase = view["phase"]
    if phase == "register":
        return t("prompt_register", n=HAND)
    if phase == "draw":
        return t("prompt_draw")
    if phase == "centre":
        return t.count("prompt_centre", CENTRE - len(view["centre"]), seat=seats[view["dealer"]])
    if phase in ("play", "pick"):
        return t(f"prompt_{phase}", seat=seats[view["turn"]])
    return t("play_again")


def rule_sentence(t: Translator, table: dict, step: dict) -> str:
    """A step's rule in words: which rank, who played it, what it takes (a tie: that they share)."""
    players = step["players"]
    return t.count(f"rule_{step['rule']}", len(players), rank=step["rank"], who=t.seats(players, table["joined"]))


def took_sentence(t: Translator, table: dict, step: dict) -> str:
    """What a step took, seat by seat: 'Siège 1 prend 9, 9'."""
    got = takers(step)
    if not got:
        return t("took_nothing")
    return " · ".join(t("takes", seat=table["joined"][p], ranks=ranks_text(ranks)) for p, ranks in got)
