"""Chevaux properties over random legal play with the reference deck (2 to 8 players; seeds from hypothesis)."""
from __future__ import annotations

import json
import random
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from table.assets import deck_data
from table.games.chevaux import acts, rules
from table.games.chevaux.rules import (
    ACTIONS, ON_TABLE, UNSEEN, Choose, Keep, Reveal, Switch, apply, check, legal_actions, make_deck, need, new_game,
    observe,
)
from table.games.contract import ButtonPress, CardOnPad, PadShape
from table.games.kit import codec
from table.games.kit.replay import replay

DECK = make_deck(deck_data("chevaux"))
MAX_ACTIONS = 50_000                       # far above any game (about 1,000 actions on average)

games = settings(max_examples=40, deadline=None)
seeds = st.integers(0, 2**32 - 1)


def play_game(seed: int):
    """(setup, actions, states) of a random legal game to its end: players, first seat and time limit drawn too."""
    rng = random.Random(seed)
    players = rng.randrange(2, 9)
    setup = (players, rng.randrange(players), {"time_limit": rng.choice((0, 15))})
    state = new_game(DECK, *setup)
    actions, states = [], [state]
    while not need(state).done:
        assert len(actions) < MAX_ACTIONS, "the game does not end"
        action = rng.choice(legal_actions(state))
        state = apply(state, action)
        actions.append(action)
        states.append(state)
    return setup, actions, states


def rarity(card: str) -> int:
    return DECK.rarity[card]


# ---------------------------------------------------------------- invariants

def assert_cards_conserved(state):
    """Every dealt card is in one stack or on the table: the counts add up to the cards dealt; the table knows
    no more cards in a stack than it holds, and the cards it has never seen are the unknown rest of the stacks
    plus the cards set aside (PR-C3)."""
    t = state.tables
    n, where = state.players, state.where
    pot = state.pot
    assert len(set(pot)) == len(pot) and where.count(ON_TABLE) == len(pot)
    assert all(where[t.index[card]] == ON_TABLE for card in pot)
    assert min(state.counts) >= 0 and sum(state.counts) + len(pot) == t.hand * n
    known = [where.count(p + 1) for p in range(n)]
    assert all(k <= c for k, c in zip(known, state.counts))
    aside = len(DECK.cards) - t.hand * n
    assert where.count(UNSEEN) == aside + sum(c - k for c, k in zip(state.counts, known))
    assert set(where) <= {UNSEEN, ON_TABLE, *range(1, n + 1)}


def assert_round_rules(state):
    """Each finished round: every switch by a rarer card than the chooser's (so at most three), the winner's
    value the best on the final characteristic, and the winner took every card revealed."""
    for result in state.results:
        r = result.round
        chain = [(p, rarity(result.cards[p])) for p, _ in r.chain]
        assert all(a[1] < b[1] for a, b in pairwise(chain)) and len(chain) <= 4
        higher = DECK.traits[r.trait].higher
        values = {p: DECK.values[result.cards[p]][r.trait] for p in r.playing}
        best = (max if higher else min)(values.values())
        assert values[result.winner] == best
        assert result.counts[result.winner] >= len(result.pot)


# ---------------------------------------------------------------- properties

@games
@given(seeds)
def test_random_play_conserves_cards_and_ends_with_the_most_cards_winning(seed):
    _, _, states = play_game(seed)
    for state in states:
        assert_cards_conserved(state)
    final = states[-1]
    assert_round_rules(final)
    top = max(final.counts)
    assert final.winners == tuple(p for p, c in enumerate(final.counts) if c == top)
    assert final.ended == "all_cards" and top == final.tables.hand * final.players    # TimeUp is the table's


@games
@given(seeds)
def test_legal_actions_are_exactly_the_reveals_and_choices_check_accepts(seed):
    _, _, states = play_game(seed)
    rng = random.Random(seed)
    for state in rng.sample(states, min(30, len(states))):
        legal = legal_actions(state)
        every = [Reveal(p, c) for p in range(state.players) for c in DECK.cards]
        every += [cls(p, k) for cls in (Choose, Switch) for p in range(state.players) for k in range(len(DECK.traits))]
        every += [Keep(p) for p in range(state.players)]
        assert {a for a in every if check(state, a) is None} == set(legal)
        assert {a.player for a in legal} <= set(need(state).players)


@games
@given(seeds)
def test_every_action_comes_back_from_its_physical_acts(seed):
    _, _, states = play_game(seed)
    rng = random.Random(seed)
    for state in rng.sample(states, min(20, len(states))):
        for shape in (PadShape(1, 1), PadShape(4, 1)):
            for action in legal_actions(state):
                performed = acts.acts_for(state, action, shape)
                if isinstance(action, Reveal):
                    if not performed:              # the seat's own card of the round just decided: lying there
                        assert acts.interpret(state, CardOnPad(action.card, action.player)) is None
                        continue
                    (act,) = performed
                    assert acts.interpret(state, act) == action
                    continue
                prompt = acts.prompt(state)
                cursor = prompt.start
                *moves, ok = performed
                assert ok == ButtonPress(action.player, "ok") and prompt.player == action.player
                cursor += len(moves)
                assert all(m == ButtonPress(action.player, "next") for m in moves)
                assert prompt.options[cursor % len(prompt.options)] == action


@settings(max_examples=15, deadline=None)
@given(seeds)
def test_the_public_view_never_names_a_card_and_the_journal_replays(seed):
    setup, actions, states = play_game(seed)
    for state in random.Random(seed).sample(states, min(10, len(states))) + states[-1:]:
        public = json.dumps(observe(state, None))
        assert not any(f'"{card}"' in public for card in DECK.cards)
    data = json.loads(json.dumps([codec.to_json(a) for a in actions]))
    assert [codec.from_json(ACTIONS, d) for d in data] == actions
    assert replay(rules, DECK, *setup, actions) == states[-1]


@settings(max_examples=15, deadline=None)
@given(seeds)
def test_a_seat_sees_its_own_revealed_card_in_full(seed):
    _, _, states = play_game(seed)
    for state in random.Random(seed).sample(states, min(20, len(states))):
        for p in range(state.players):
            mine = observe(state, p)["mine"]
            card = state.cards[p] if state.phase != "over" else None
            assert (mine is None) == (card is None)
            if card:
                assert mine["card"] == card and list(mine["values"].values()) == list(DECK.values[card])
