"""Neurotrio bots: their choices from their own view only (TABLE-PROTOCOLS 3.4), and whole games through the
simulated table (session, journal, lights) at every player count, resumed, and from `cardtable demo`."""
from __future__ import annotations

import random

import pytest

from table.cli import main
from table.events import EventBus
from table.registry import GAMES
from table.games.neurotrio import bots
from table.games.neurotrio.bots import cells, choose, frontier, interrupt, plan
from table.games.neurotrio.rules import (BidBase, BidCard, BidToken, Call, Choose, NoBid, Pass, Place, Register, Show,
                                         apply, check, legal_actions, legal_cells, new_game, observe, treasure)
from table.hardware.ports import LightState
from table.layout import load_layout
from table.session.table_session import TableSession
from table.sim.simulated_table import SimulatedTable
from table.storage.journal import Journal

DECK = GAMES["neurotrio"].deck
RNG = random.Random(0)


def layout_for(players: int, slots: bool = False):
    return load_layout("sim-6-slots" if slots else "sim-6-single" if players <= 6 else "sim-8-single")


def run(state, *actions):
    for action in actions:
        assert check(state, action) is None, (action, check(state, action))
        state = apply(state, action)
    return state


def registered(players: int, deal: list[str]):
    """A game with the start card 1HKa and every hand registered: `deal` dealt clockwise from player 0 (the card
    missing from it and from the start card was put aside)."""
    state = run(new_game(DECK, players, 0), Show("1HKa"))
    return run(state, *(Register(i % players, c) for i, c in enumerate(deal)))


def placed_once(state):
    """The game after player 0 lays the first card it may lay on its first cell."""
    first = next(a for a in mine(state, 0) if isinstance(a, Choose))
    return run(state, first, Place(0, *legal_cells(state, first.card)[0][:2]))


DEAL = [c for c in DECK.cards if c not in ("1HKa", "3RBb")]


def mine(state, player: int) -> list:
    return [a for a in legal_actions(state) if a.player == player]


def random_states(players: int, seed: int):
    """Every state of a game played by random legal actions, with no neuro."""
    rng = random.Random(seed)
    state = run(new_game(DECK, players, seed % players), Show(rng.choice(DECK.cards)))
    while state.phase != "over":
        yield state
        state = apply(state, rng.choice([a for a in legal_actions(state) if not isinstance(a, Call)]))


# ---------------------------------------------------------------- decisions

@pytest.mark.parametrize("players, seed", [(3, 1), (5, 2), (8, 3)])
def test_the_bot_reads_the_legal_cells_of_every_card_off_its_view(players, seed):
    checked = 0
    for state in random_states(players, seed):
        if state.phase == "build" and state.chosen is None:
            p = state.active
            view = observe(state, p)
            spaces = frontier(view)
            for card in state.hands[p]:
                assert cells(spaces, DECK.kind[card]) == list(legal_cells(state, card))
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("players, seed", [(4, 4), (7, 5)])
def test_the_bot_lays_the_card_with_the_best_reward_where_it_earns_most(players, seed):
    for state in random_states(players, seed):
        if state.phase != "build":
            continue
        p = state.active
        legal = [a for a in mine(state, p) if not isinstance(a, Call)]
        action = choose(observe(state, p), legal, RNG)
        if state.chosen is not None:
            spots = legal_cells(state, state.chosen)
            best = max(r for _, _, r in spots)
            assert action == Place(p, *next((row, col) for row, col, r in spots if r == best))
            continue
        options = {c: legal_cells(state, c) for c in state.hands[p]}
        if not any(options.values()):
            assert action == Pass(p)
            continue
        top = max(r for spots in options.values() for _, _, r in spots)
        fewest = min(len(spots) for spots in options.values() if any(r == top for _, _, r in spots))
        assert isinstance(action, Choose)
        assert max(r for _, _, r in options[action.card]) == top and len(options[action.card]) == fewest


def test_the_bot_believes_the_copies_it_has_not_seen_and_never_the_treasure():
    # Two games that differ only in the card put aside: player 2 holds the one the other game put aside.
    held = next(c for c in DEAL[2::4] if DECK.kind[c] != DECK.kind["3RBb"])
    a = placed_once(registered(4, DEAL))
    b = placed_once(registered(4, [c if c != held else "3RBb" for c in DEAL]))
    assert treasure(a) != treasure(b) and a.hands[2] != b.hands[2]
    view = observe(a, 1)
    assert view == observe(b, 1) and view["end"] is None
    seen = {*view["hand"], *(c for _, _, c in view["domain"])}
    for kind, p in enumerate(bots.belief(view)):
        assert p == pytest.approx((2 - sum(DECK.kind[c] == kind for c in seen)) / (54 - len(seen)))
    assert plan(view) == plan(observe(b, 1))
    assert interrupt(view, mine(a, 1), RNG) == interrupt(observe(b, 1), mine(b, 1), RNG)
    a, b = (run(s, Call(1)) for s in (a, b))
    for _ in range(3):                          # the bid, piece by piece
        x, y = (choose(observe(s, 1), mine(s, 1), RNG) for s in (a, b))
        assert x == y
        a, b = run(a, x), run(b, y)


def test_the_caller_bids_base_card_then_token_and_bluffs_with_0_when_nothing_pays():
    state = placed_once(registered(3, DEAL))
    caller = next(p for p in range(3) if plan(observe(state, p)).value <= 0)
    assert interrupt(observe(state, caller), [Call(caller)], RNG) is None
    state = run(state, Call(caller))
    pieces = []
    while state.neuro.order[0] == caller:
        action = choose(observe(state, caller), mine(state, caller), RNG)
        pieces.append(type(action))
        state = run(state, action)
    assert pieces == [BidBase, BidCard, BidToken]
    view = observe(state, caller)
    assert view["my_bids"] == ["0"] and view["bids"][0]["base"] == 10
    bidder = view["bidder"]                     # nobody else expects anything of a bid this early: no bid
    assert plan(observe(state, bidder)).value <= 0
    assert choose(observe(state, bidder), mine(state, bidder), RNG) == NoBid(bidder)


def test_a_bidder_bets_its_best_expected_card_and_token():
    # Late in a game the bot knows much: it bids the (card, token) it expects most from, with base 10.
    state = next(s for s in random_states(3, 8) if s.phase == "build" and s.turn > 30 and Call(1) in
                 legal_actions(s) and plan(observe(s, 1)).value > 0)
    best = plan(observe(state, 1))
    state = run(state, Call(1))
    for _ in range(3):
        state = run(state, choose(observe(state, 1), mine(state, 1), RNG))
    view = observe(state, 1)
    assert view["bids"][-1] == {"bidder": 1, "base": 10, "card": best.card, "token": "hidden"}
    assert view["my_bids"][-1] == best.token


# ---------------------------------------------------------------- whole games at the simulated table

def watched(monkeypatch, sim):
    """Make every decision of the bots check that it sees its own view and its own legal actions only."""
    seen = []

    def spy(decide):
        def check_view(view, legal, rng):
            state = sim.session.state
            assert view == observe(state, view["seat"]) and view["end"] is None
            assert all(a.player == view["seat"] for a in legal)
            seat = sim.session.players[view["seat"]]
            assert all(DECK.tokens[a.token][0] == seat for a in legal if isinstance(a, BidToken))
            seen.append(view["seat"])
            return decide(view, legal, rng)
        return check_view
    monkeypatch.setattr(bots, "choose", spy(bots.choose))
    monkeypatch.setattr(bots, "interrupt", spy(bots.interrupt))
    return seen


@pytest.mark.parametrize("players", range(3, 9))
def test_bots_play_whole_games_through_the_table(tmp_path, monkeypatch, players):
    for seed in (players, players + 10):
        path = tmp_path / f"journal-{seed}.sqlite"
        sim = SimulatedTable(layout_for(players), Journal(path), game="neurotrio", seed=seed)
        seen = watched(monkeypatch, sim)
        table = GAMES["neurotrio"].bots.Players(sim, list(range(1, players + 1)), random.Random(seed))
        table.join_and_start()
        final = table.play()
        state = sim.session.state
        lights = {seat: sim.table.lights[seat].state for seat in range(1, players + 1)}
        sim.close()
        monkeypatch.undo()
        assert set(seen) == set(range(players))
        assert final["phase"] == "over" and final["winners"]
        assert {s for s, light in lights.items() if light is LightState.WINNER} == {p + 1 for p in final["winners"]}
        assert final["bids"], "the bots called neuro and bid"
        for bid in final["bids"]:
            assert bid["base"] and bid["card"] and bid["token"] in ("0", "1", "2", "nature", "background", "strength")
        for p in range(players):
            assert final["points"][p]["bids"] == sum(b["score"] for b in final["bids"] if b["bidder"] == p)
            assert state.neuro.sets[p] in (None, p + 1)          # token set k at seat k
        restored = TableSession(layout_for(players), None, Journal(path), EventBus())
        assert restored.state == state and restored.over


def test_bots_play_at_a_table_with_several_pads_per_seat():
    sim = SimulatedTable(layout_for(4, slots=True), Journal(), game="neurotrio", seed=6)
    table = GAMES["neurotrio"].bots.Players(sim, [1, 2, 3, 4], random.Random(6))
    table.join_and_start()
    final = table.play()
    sim.close()
    assert final["winners"] and final["bids"]


@pytest.mark.parametrize("phase, note", [("register", "sim_resumed_redealt"), ("bid", "sim_resumed")])
def test_a_game_opened_again_half_way_is_played_to_its_end(tmp_path, phase, note):
    path = tmp_path / "journal.sqlite"
    sim = SimulatedTable(layout_for(5), Journal(path), game="neurotrio", seed=7)
    table = GAMES["neurotrio"].bots.Players(sim, [1, 2, 3, 4, 5], random.Random(7))
    table.join_and_start()
    while sim.session.state.phase != phase or (phase == "register" and len(sim.session.state.unseen) > 30) or \
            (phase == "bid" and sim.session.state.neuro.piece.base is None):
        assert not sim.session.over
        table.step()
    before = sim.session.state
    sim.close()
    again = SimulatedTable(layout_for(5), Journal(path), game="neurotrio", seed=8)
    assert again.session.state == before
    table = GAMES["neurotrio"].bots.Players(again, [1, 2, 3, 4, 5], random.Random(8))
    assert table.world.note == note
    hands = [table.world.hands[seat] for seat in again.session.players]
    assert len({c for hand in hands for c in hand}) == sum(map(len, hands))
    for p, hand in enumerate(hands):
        assert set(before.hands[p]) <= set(hand)
        assert len(hand) == (before.setup.counts[p] if phase == "register" else len(before.hands[p]))
    final = table.play()
    again.close()
    assert final["winners"]


def test_cardtable_demo_plays_neurotrio(capsys):
    for players, seed in ((3, 1), (8, 2)):
        assert main(["demo", "--game", "neurotrio", "--players", str(players), "--seed", str(seed)]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert [line.split(":")[0] for line in lines] == [f"seat {s}" for s in range(1, players + 1)]
        assert any(line.endswith("<- winner") for line in lines)
