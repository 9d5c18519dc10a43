"""What Chevaux's pages show, decided from the public table view alone (no drawing, no pygame): the pages due,
the best values, each value in words, what to do, who chose which characteristic, the tie-break, a round's
result, which seats are out."""
from __future__ import annotations

from typing import TYPE_CHECKING

from table.games.kit.pages import resolution_pages

if TYPE_CHECKING:
    from table.screen.i18n import Translator


def pages(table: dict) -> list[tuple[str, int | None]]:
    """The pages to show for this table view, in order; the last one stays on screen.

    After a round: its result, then the table page once the pads are clear (the game-over page at the end).
    """
    view = table["view"]
    if view["phase"] == "over":
        return resolution_pages(table, [("result", None)] if view["last_round"] else [], False)
    if round_just_ended(view):
        return resolution_pages(table, [("result", None)], False)
    return [("table", None)]


def value_text(t: Translator, unit: str, value: int | float) -> str:
    """A characteristic's value with its unit ('168 cm', '905 kg', '1823', '2500 av. J.-C.')."""
    number = f"{value:g}" if isinstance(value, float) else str(value)
    if unit == "year" and value < 0:
        return t("unit_year_bc", value=number.lstrip("-"))
    return t(f"unit_{unit}", value=number)


def round_just_ended(view: dict) -> bool:
    """Whether a round has just been decided: the next one has no card revealed yet."""
    return view["last_round"] is not None and view["phase"] == "reveal" and not view["current"]["pot"]


def trait_index(view: dict, key: str | None) -> int | None:
    """The place of characteristic `key` in the view's traits (None: no characteristic chosen yet)."""
    return next((k for k, trait in enumerate(view["traits"]) if trait["key"] == key), None)


def best(view: dict, board: dict) -> list[int]:
    """The players whose revealed card has the best value on the board's characteristic (none before it is
    chosen)."""
    k = trait_index(view, board["trait"])
    shown = [(p, s["value"]) for p, s in enumerate(board["seats"]) if s["value"] is not None]
    if k is None or not shown:
        return []
    pick = max if view["traits"][k]["wins"] == "higher" else min
    top = pick(v for _, v in shown)
    return [p for p, v in shown if v == top]


def value_of(t: Translator, view: dict, board: dict, player: int) -> str:
    """A seat's value on the board's characteristic, with its unit ('' when not shown)."""
    value = board["seats"][player]["value"]
    k = trait_index(view, board["trait"])
    return "" if value is None or k is None else value_text(t, view["traits"][k]["unit"], value)


def instruction(t: Translator, table: dict) -> str:
    """The table page's bottom bar: what to do now, and who does it."""
    view = table["view"]
    seats = table["joined"]
    board = view["current"]
    if view["phase"] == "redraw":
        pending = board["tie"]["pending"]
        return t.count("bar_redraw", len(pending), seats=t.seats(pending, seats))
    seat = seats[view["at"]]
    trait = t(f"trait_{board['trait']}") if board["trait"] else ""
    if view["phase"] == "choose":
        return t("bar_choose", seat=seat)
    if view["phase"] == "switch":
        return t("bar_switch", seat=seat, trait=trait)
    if board["trait"] is None:
        return t("bar_lead", seat=seat)
    return t("bar_reveal", seat=seat, trait=trait)


def chain_text(t: Translator, table: dict, board: dict, key: str) -> str:
    """Who chose characteristic `key` in this round, and whether it is still the one played."""
    seats = table["joined"]
    for i, choice in reversed(list(enumerate(board["chain"]))):
        if choice["trait"] == key:
            seat = seats[choice["player"]]
            if key != board["trait"]:
                return t("trait_dropped", seat=seat)
            return t("trait_chosen" if i == 0 else "trait_switched", seat=seat)
    return ""


def tie_text(t: Translator, table: dict, board: dict, value: str) -> str:
    """The tie-break so far: who tied on the value, the rarity, each re-draw, who had no card left."""
    tie = board["tie"]
    seats = table["joined"]
    if tie is None:
        return ""
    parts = [t("tie_value", seats=t.seats(tie["value"], seats), value=value)]
    if len(tie["rarity"]) > 1:
        parts.append(t("tie_rarity", seats=t.seats(tie["rarity"], seats)))
    for n, step in enumerate(tie["steps"], 1):
        if step:
            rarities = ", ".join(t("redraw_rarity", seat=seats[s["player"]], rarity=s["rarity"]) for s in step)
            parts.append(t("tie_redraw", n=n, rarities=rarities))
    if tie["no_card"]:
        parts.append(t.count("tie_no_card", len(tie["no_card"]), seats=t.seats(tie["no_card"], seats)))
    return " · ".join(parts)


def how_text(t: Translator, result: dict) -> str:
    """Why a tied round's winner won it: the rarest card, a re-draw, no card left (PR-C1); '' for the best value."""
    return t(f"how_{result['how']}") if result["tie"] else ""


def redraws(board: dict, p: int) -> list[int]:
    """The rarities of the cards `p` re-drew in the tie-break, in order."""
    tie = board["tie"]
    return [s["rarity"] for step in (tie["steps"] if tie else []) for s in step if s["player"] == p]


def is_out(board: dict, counts: list[int], player: int, winner: int | None) -> bool:
    """Whether a seat is out of the game: no card left (mid-round, not while its last card is in play)."""
    return not counts[player] and (winner is not None or not board["seats"][player]["playing"])


def table_note(t: Translator, table: dict) -> str:
    """The table page's note: the time is up, the tie-break so far, or how the cards were dealt ('' for none)."""
    view = table["view"]
    board = view["current"]
    if view["time_up"]:
        return t("time_up_note")
    if board["tie"]:
        value = value_of(t, view, board, board["tie"]["value"][0]) if trait_index(view, board["trait"]) is not None \
            else ""
        return tie_text(t, table, board, value)
    if view["round"] == 1 and not board["pot"]:
        aside = view["aside"]
        return t.count("deal", aside, dealt=view["dealt"]) if aside else t("deal_all", dealt=view["dealt"])
    return ""


def result_lines(t: Translator, table: dict) -> tuple[str, str, str]:
    """The result page's lines: who wins and takes how many cards; the best value or the tie-break, how the tie
    was won, who is out now; and the bottom bar (what the winner does, '' once the game is over)."""
    view, seats = table["view"], table["joined"]
    result = view["last_round"]
    winner = seats[result["winner"]]
    tie = result["tie"]
    value = value_of(t, view, result, tie["value"][0] if tie else result["winner"])
    details = [tie_text(t, table, result, value) if tie else t("best_value", value=value), how_text(t, result)]
    if result["out"]:
        details.append(t.count("out_now", len(result["out"]), seats=t.seats(result["out"], seats)))
    bar = "" if view["phase"] == "over" else t("bar_take", seat=winner, n=result["taken"])
    return t("winner_takes", seat=winner, n=result["taken"]), " · ".join(filter(None, details)), bar
