"""Seeded bots play every registered game through the whole pipeline of a simulated table.

At the smallest and largest player count each game is played to its end;
its journal restores to the same state. A game stopped half way and opened
again from its journal (a power cut) is rebuilt by the game's world and
played to its end.
"""
from __future__ import annotations

import random

import pytest

from table.events import EventBus
from table.registry import GAMES
from table.layout import load_layout
from table.session.table_session import TableSession
from table.sim.simulated_table import SimulatedTable
from table.storage.journal import Journal

CASES = [(name, n) for name, game in GAMES.items() for n in dict.fromkeys((game.info.players[0], game.info.players[-1]))]


def layout_for(players: int):
    return load_layout("sim-6-single" if players <= 6 else "sim-8-single")


def bots_at(sim: SimulatedTable, name: str, players: int, seed: int):
    return GAMES[name].bots.Players(sim, list(range(1, players + 1)), random.Random(seed))


@pytest.mark.parametrize("name, players", CASES)
def test_bots_play_a_whole_game_and_the_journal_restores_it(tmp_path, name, players):
    path = tmp_path / "journal.sqlite"
    sim = SimulatedTable(layout_for(players), Journal(path), game=name, seed=players)
    bots = bots_at(sim, name, players, players)
    bots.join_and_start()
    resolutions = []
    final = bots.play(lambda view: resolutions.append(view["view"]["phase"]))
    state = sim.session.state
    sim.close()
    assert final["winners"] and set(final["winners"]) <= set(range(players))
    assert resolutions, "the table saw at least one resolution"
    restored = TableSession(layout_for(players), None, Journal(path), EventBus())
    assert restored.state == state and restored.over


@pytest.mark.parametrize("name", list(GAMES))
def test_a_game_opened_again_half_way_is_played_to_its_end(tmp_path, name):
    players = GAMES[name].info.players[0]
    path = tmp_path / "journal.sqlite"
    sim = SimulatedTable(layout_for(players), Journal(path), game=name, seed=1)
    bots = bots_at(sim, name, players, 1)
    bots.join_and_start()
    for _ in range(60):
        bots.step()
    before = sim.session.state
    sim.close()
    again = SimulatedTable(layout_for(players), Journal(path), game=name, seed=2)
    assert again.session.state == before
    bots = bots_at(again, name, players, 2)
    assert bots.world.note in ("sim_resumed", "sim_resumed_redealt")
    final = bots.play()
    again.close()
    assert again.session.over and final["winners"]
