"""Neurotrio through a live session: taps and buttons to actions, the cell prompt, the seat menus, a call."""
from __future__ import annotations

from table.games.neurotrio import rules
from table.storage.registry import Tag, TagRegistry, deck_cards, enrol_simulated
from tests.session.desk import Desk

START, REMOVED = "2SGa", "3RBb"


def neurotrio_desk() -> Desk:
    registry = TagRegistry()
    enrol_simulated(registry, "neurotrio", deck_cards("neurotrio"))
    return Desk(registry=registry)


def tap(desk: Desk, pad: str, item: str) -> list:
    uid = desk.registry.uid_of(Tag("card", "neurotrio", item))
    return desk.place_uid(pad, uid) + desk.remove(pad)


def kinds(events: list) -> list[tuple[str, str]]:
    return [(type(e).__name__, getattr(e, "what", getattr(e, "message", None))) for e in events]


def started(seats=(1, 2, 3)) -> tuple[Desk, list[list[str]]]:
    """Seats join and start (the first seat plays first), the start card shown, every hand registered."""
    desk = neurotrio_desk()
    for seat, card in zip(seats, ("1HKa", "1HKb", "1HGa")):
        tap(desk, desk.pad(seat), card)
    assert desk.session.menu.game == "neurotrio"
    assert kinds(desk.press(seats[0], "ok")) == [("Accepted", "start")]
    assert kinds(tap(desk, "centre", START)) == [("Accepted", "action")]
    counts = desk.session.public()["dealt"]
    cards = [c for c in deck_cards("neurotrio")[:54] if c not in (START, REMOVED)]   # the cards, not accessories
    hands, at = [], 0
    for count in counts:
        hands.append(cards[at:at + count])
        at += count
    for seat, hand in zip(seats, hands):
        for i, card in enumerate(hand):
            assert kinds(tap(desk, desk.pad(seat), card)) == [("Accepted", "action")]
            if i == 0:
                assert tap(desk, desk.pad(seat), card) == []   # a card of its registered hand read again: no act
    assert desk.session.public()["phase"] == "build"
    return desk, hands


def test_out_of_turn_a_card_is_refused_and_a_token_out_of_bidding_too_neither_named():
    desk, hands = started()
    refused = tap(desk, desk.pad(2), hands[1][0])
    assert kinds(refused) == [("Refused", "not_your_turn")] and hands[1][0] not in str(refused)
    refused = tap(desk, desk.pad(1), "T1-nature")
    assert kinds(refused) == [("Refused", "not_now_bid")] and "T1" not in str(refused)


def test_the_cell_prompt_starts_on_the_best_reward_and_places_where_ok_is_pressed():
    desk, hands = started()
    card = next(c for c in hands[0] if rules.legal_cells(desk.session.state, c))
    assert kinds(tap(desk, desk.pad(1), card)) == [("Accepted", "action")]
    assert tap(desk, desk.pad(1), card) == []            # its chosen card read again
    cells = desk.session.public()["cells"]
    prompt = desk.session.table_view()["prompt"]
    assert prompt["player"] == 0 and prompt["cursor"] == rules.best_cell(tuple(map(tuple, cells)))
    assert [params for _, params in prompt["labels"]] == [{"row": r, "col": c, "reward": w} for r, c, w in cells]
    desk.press(1, "next")
    row, col, _ = cells[(prompt["cursor"] + 1) % len(cells)]
    assert kinds(desk.press(1, "ok")) == [("Accepted", "action")]
    assert [row, col, card] in desk.session.public()["domain"]


def test_seat_menus_pass_then_another_seat_calls_neuro_and_bids_with_three_taps():
    desk, hands = started()
    # no call before a first play: a seat's OK opens only Back and the rules, and its bar says why
    assert desk.press(2, "ok") == []
    assert desk.session.table_view()["menus"] == {"2": {"cursor": 0, "why": ["nothing_to_choose", {}], "labels": [
        ["menu_back", {}], ["menu_rules", {}]]}}
    assert desk.press(2, "ok") == [] and desk.session.table_view()["menus"] == {}   # OK on "Back": closed
    assert desk.press(1, "ok") == []                     # the active seat's menu opens on "Back"
    assert desk.session.table_view()["menus"] == {"1": {"cursor": 0, "why": None, "labels": [
        ["menu_back", {}], ["menu_pass", {"cost": 1}], ["menu_rules", {}]]}}
    assert desk.press(1, "ok") == [] and desk.session.table_view()["menus"] == {}   # OK on "Back": closed
    desk.press(1, "ok")
    desk.press(1, "next")
    assert kinds(desk.press(1, "ok")) == [("Accepted", "action")]
    assert desk.session.public()["passes"] == [1, 0, 0] and desk.session.public()["active"] == 1
    # the call window is open: seat 3 (not active) calls through its menu
    desk.press(3, "ok")
    assert desk.session.table_view()["menus"]["3"]["labels"] == [["menu_back", {}], ["menu_call", {}],
                                                                 ["menu_rules", {}]]
    desk.press(3, "next")
    assert kinds(desk.press(3, "ok")) == [("Accepted", "action")]
    view = desk.session.public()
    assert view["phase"] == "bid" and view["caller"] == 2 and view["to_bid"][0] == 2
    assert desk.press(3, "ok") == []                                          # the caller cannot pass...
    assert desk.session.table_view()["menus"]["3"]["why"] == ["caller_must_bid", {}]
    assert desk.press(1, "ok") == []                                          # ...nor a seat before its turn
    assert desk.session.table_view()["menus"]["1"]["why"] == ["not_your_bid", {}]
    desk.press(3, "back"), desk.press(3, "ok"), desk.press(1, "back"), desk.press(1, "ok")   # both closed on Rules
    assert desk.session.table_view()["rules_page"] == {"seat": 1}
    assert desk.press(3, "next") == [] and desk.session.table_view()["rules_page"] == {"seat": 1}   # seat 1's page
    assert desk.press(1, "next") == [] and desk.session.table_view()["rules_page"] is None
    for item in ("B7", START, "T3-2"):
        assert kinds(tap(desk, desk.pad(3), item)) == [("Accepted", "action")]
    view = desk.session.public()
    assert view["bids"] == [{"bidder": 2, "base": 7, "card": START, "token": "hidden"}]
    assert "T3-2" not in str(desk.session.table_view())
    assert view["to_bid"][0] == 0                       # clockwise from the caller: seat 1 next, it passes
    desk.press(1, "ok")
    desk.press(1, "next")
    assert kinds(desk.press(1, "ok")) == [("Accepted", "action")]
    assert desk.session.public()["to_bid"][0] == 1
