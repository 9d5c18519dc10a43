"""`replay --json` says who must act and how, and the open prompt, for every game; never a chance outcome."""
from __future__ import annotations

import json
import random

import pytest

from table.cli import main
from table.registry import GAMES
from table.games.kit.codec import to_json
from table.storage.journal import Journal


def journal_until(path, name: str, test, seed: int = 1):
    """A journal of a random game of `name` (fewest players) up to the first state passing `test`."""
    game = GAMES[name]
    rules, players = game.rules, game.info.players[0]
    journal = Journal(path)
    seats = list(range(1, players + 1))
    for seat in seats:
        journal.append("join", {"seat": seat})
    journal.append("start", {"game": name, "options": game.info.defaults(), "seats": seats, "first": 0})
    state, rng = rules.new_game(GAMES[name].deck, players, 0, game.info.defaults()), random.Random(seed)
    while not test(rules, state):
        action = rng.choice(rules.legal_actions(state))
        journal.append("action", to_json(action))
        state = rules.apply(state, action)
    journal.close()
    return state


def replayed(capsys, path) -> dict:
    assert main(["replay", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name", list(GAMES))
def test_replay_says_who_must_act_and_how(tmp_path, capsys, name):
    path = tmp_path / "journal.sqlite"
    acts = GAMES[name].acts
    state = journal_until(path, name, lambda rules, s: rules.need(s).simultaneous or acts.prompt(s) is not None
                          or rules.need(s).done)
    need = GAMES[name].rules.need(state)
    out = replayed(capsys, path)
    assert out["to_act"]["seats"] == [p + 1 for p in need.players]
    assert out["to_act"]["how"] == ("sealed" if need.simultaneous else "done" if need.done else "turn")
    assert "outcomes" not in json.dumps(out["to_act"])
    prompt = GAMES[name].acts.prompt(state)
    assert (out["prompt"] is None) == (prompt is None)
    if prompt is not None:
        assert out["prompt"]["player"] == prompt.player and out["prompt"]["cursor"] == prompt.start


def test_a_chance_card_to_show_names_who_shows_it_never_the_cards(tmp_path, capsys):
    path = tmp_path / "journal.sqlite"
    state = journal_until(path, "kitty", lambda rules, s: rules.need(s).chance and s.phase != "register")
    out = replayed(capsys, path)
    assert out["to_act"] == {"how": "chance", "seats": [], "by": None}
    kitty_cards = GAMES["kitty"].rules.need(state).outcomes
    assert kitty_cards and not any(f'"{card}"' in json.dumps(out) for card in kitty_cards)
