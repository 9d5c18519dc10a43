"""What Kitty's pages show, decided from the public table view alone (no drawing, no pygame): the pages due, the
reveal's steps from the lowest bid up and in words, where each card goes, what each seat takes, the bid marks and
order, the scoring units, what to do, each seat's cards held and progress, a deal's points and the stakes
settled in words."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from table.games.kit.pages import resolution_pages
from table.games.kitty.rules import ONE

if TYPE_CHECKING:
    from table.screen.i18n import Translator

AFTER_THE_BIDS = {"discard": 1, "gift": 2, "choose": 3, "give": 3}  # reveal steps after the bids, in order


def pages(table: dict) -> list[tuple[str, int | None]]:
    """The pages to show for this table view, in order; the last one stays on screen.

    While a round waits for a pick or a gift: its reveal step by step, the last step being the choice
    awaited. After a round: its reveal, what everyone takes, the deal's scores when it ended one (and at
    the game's end the stakes, then the game-over page); once the table is clear again, the table page.
    """
    view = table["view"]
    phase = view["phase"]
    steps = [("reveal", k) for k in range(len(reveal_steps(view)))]
    if phase in ("pick", "gift"):
        return steps
    deal_ended = phase == "over" or (phase == "register" and view["deal"] > 1 and not any(view["registered"]))
    round_ended = phase == "targets" and not view["targets"] and view["round"] > 1
    if not (deal_ended or round_ended):
        return [("table", None)]
    return resolution_pages(table, steps + [("take", None)], deal_ended,
                            (("stakes", None),) * bool(view["stakes"]) + (("over", None),))


def reveal_steps(view: dict) -> list[dict]:
    """The steps of the round being (or last) resolved, in order, ending with the choice it waits for: a
    soft pick ("choose": `player`, `cards`) or the 1's gift ("give": `player`, `card`, `players`)."""
    resolution = view["resolution"]
    steps = list(resolution["steps"]) if resolution else []
    if view["phase"] == "pick":
        steps.append({"step": "choose", "player": view["picker"], "cards": view["targets"]})
    elif view["phase"] == "gift":
        gift = view["gift"]
        steps.append({"step": "give", "player": gift["giver"], "card": gift["card"], "players": gift["receivers"]})
    return steps


def lowest_up(steps: list[dict], rank: dict[str, int]) -> list[dict]:
    """The steps as the reveal walks the bids, from the lowest up: each tie and each unique bid's win,
    pick or take at its rank; then the discards, the gift, and last the choice awaited."""
    def place(s: dict) -> tuple[int, int]:
        at = s["rank"] if s["step"] == "tie" else rank[s["bid"]] if "bid" in s else 0
        return AFTER_THE_BIDS.get(s["step"], 0), at
    return sorted(steps, key=place)


def destinations(steps: list[dict], rank: dict[str, int]) -> dict[str, int | None]:
    """Where each target went in these steps: the player who takes it into hand, or None (discarded).
    A target the 1 won is nobody's until it is given (see `to_give`)."""
    went: dict[str, int | None] = {}
    for s in steps:
        if s["step"] in ("win", "take") or (s["step"] == "pick" and rank[s["bid"]] != ONE):
            went[s["card"]] = s["player"]
        elif s["step"] == "gift":
            went[s["card"]] = s["to"]
        elif s["step"] == "discard":
            went[s["card"]] = None
    return went


def to_give(steps: list[dict], rank: dict[str, int]) -> str | None:
    """The target the 1 won and has not given yet in these steps, if any."""
    card = None
    for s in steps:
        if s["step"] in ("one", "give") or (s["step"] == "pick" and rank[s["bid"]] == ONE):
            card = s["card"]
        elif s["step"] == "gift":
            card = None
    return card


def take_moves(view: dict, rank: dict[str, int]) -> tuple[list[list[str]], list[str]]:
    """After a round: per player, the targets it takes into hand; and the targets discarded.
    (Every bid is discarded.)"""
    resolution = view["resolution"]
    taken: list[list[str]] = [[] for _ in range(view["players"])]
    discarded = []
    for card, player in destinations(resolution["steps"], rank).items():
        if player is None:
            discarded.append(card)
        else:
            taken[player].append(card)
    return taken, discarded


def marks(steps: list[dict], rank: dict[str, int]) -> dict[int, str]:
    """The mark each bidder's bid gets from these steps: "tie", "win", "one" (a 1 that must give),
    "pick", "take", or "choose" (the pick awaited)."""
    marked: dict[int, str] = {}
    for s in steps:
        kind = s["step"]
        if kind == "tie":
            marked.update(dict.fromkeys(s["players"], "tie"))
        elif kind == "pick" and rank[s["bid"]] == ONE:
            marked[s["player"]] = "one"
        elif kind in ("win", "one", "pick", "take", "choose"):
            marked[s["player"]] = kind
    return marked


def bid_order(bids: list[str], rank: dict[str, int]) -> list[int]:
    """The bidders from the lowest bid up (ties side by side)."""
    return sorted(range(len(bids)), key=lambda p: (rank[bids[p]], p))


def units(view: dict) -> list[list[int]]:
    """The scoring units: the teams with partners, else each player alone."""
    return view["teams"] or [[p] for p in range(view["players"])]


def per_round(view: dict) -> int:
    """Targets shown this round."""
    return view["targets_per_round"][view["round"] - 1]


def prompt(t: Translator, table: dict) -> str:
    """What to do now, and who does it."""
    view, seats = table["view"], table["joined"]
    phase = view["phase"]
    if table.get("clearing"):
        return t("prompt_clear")
    if phase == "register":
        return t("prompt_register", n=view["hand_size"])
    if phase == "targets":
        return t.count("prompt_show", per_round(view) - len(view["targets"]))
    if phase in ("pass", "bid"):
        return t(f"prompt_{phase}")
    if phase == "pick":
        return t("prompt_pick", seat=seats[view["picker"]])
    if phase == "gift":   # the giver decides: it hands the target to a receiver of its choice, who taps it
        gift = view["gift"]
        return t("prompt_gift", seat=seats[gift["giver"]], receivers=t.seats(gift["receivers"], seats, "seats_or"))
    return ""


def held(view: dict, p: int) -> int:
    """The cards a seat holds: while registering, the cards dealt (not yet all registered)."""
    return view["hand_size"] if view["phase"] == "register" else view["counts"][p]


def progress(view: dict, p: int) -> tuple[str, bool] | None:
    """A seat's progress in this phase: (registered/expected, all in) while registering; ("", whether its card
    is in) while passing or bidding; None otherwise."""
    phase = view["phase"]
    if phase == "register":
        return f"{view['registered'][p]}/{view['hand_size']}", view["registered"][p] == view["hand_size"]
    if phase in ("pass", "bid"):
        return "", view["passed" if phase == "pass" else "bid"][p]
    return None


def step_text(t: Translator, table: dict, s: dict, name: Callable[[str], str], rank: Mapping[str, int]) -> str:
    """One resolution step in words (`name`: a card's name)."""
    seat = table["joined"].__getitem__
    kind = s["step"]
    if kind == "tie":
        return t("step_tie", rank=s["rank"], seats=t.seats(s["players"], table["joined"]))
    if kind == "discard":
        return t(f"step_discard_{s['why']}", card=name(s["card"]))
    if kind == "give":
        receivers = t.seats(s["players"], table["joined"], "seats_or")
        return t("step_give", seat=seat(s["player"]), card=name(s["card"]), receivers=receivers)
    if kind == "choose":
        return t("step_choose", seat=seat(s["player"]), cards=" / ".join(name(card) for card in s["cards"]))
    if kind == "pick" and rank[s["bid"]] == ONE:
        kind = "pick_one"
    params = {"seat": seat(s["player"]), "card": name(s["card"])}
    if "bid" in s:
        params["bid"] = name(s["bid"])
    if "to" in s:
        params["to"] = seat(s["to"])
    return t(f"step_{kind}", **params)


def formula(scores: dict, u: int) -> str:
    """A unit's deal points spelled out from the ranks it scored: '2 + 7 + 9 = 18' (just the points for one or
    none)."""
    ranks = [rank for i, rank in enumerate(scores["ranks"]) if u in scores["scorers"][i]]
    points = scores["unit_points"][u]
    if len(ranks) < 2:
        return str(points)
    return f"{' + '.join(map(str, ranks))} = {points}"


def settlement_text(t: Translator, table: dict, unit: list[int]) -> str:
    """'reçoit 8 de Siège 2, 4 de Siège 1', 'paie 8 à Siège 3', or nothing to pay."""
    payments, seats = table["view"]["stakes"]["payments"], table["joined"]
    gets = [t("from_unit", amount=p["amount"], unit=t.seats(p["from"], seats)) for p in payments if p["to"] == unit]
    pays = [t("to_unit", amount=p["amount"], unit=t.seats(p["to"], seats)) for p in payments if p["from"] == unit]
    if gets:
        return t("stakes_gets", items=", ".join(gets))
    if pays:
        return t("stakes_pays", items=", ".join(pays))
    return t("stakes_even")
