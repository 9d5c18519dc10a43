"""High Card registered for a test, at the simulated table: the bots play it to the end, and a table opened
again half way deals the unseen cards again and plays on."""
from __future__ import annotations

import random

from table.layout import load_layout
from table.registry import GAMES
from table.sim.simulated_table import SimulatedTable
from table.storage.journal import Journal
from tests.games.reference import GAME


def test_the_bots_play_a_whole_game_and_a_table_opened_again_half_way_plays_on(monkeypatch, tmp_path):
    monkeypatch.setitem(GAMES, GAME.name, GAME)   # its one registry line
    path = tmp_path / "journal.sqlite"
    sim = SimulatedTable(load_layout("sim-6-single"), Journal(path), game=GAME.name)
    bots = GAME.bots.Players(sim, [1, 3, 4], random.Random(1))
    bots.join_and_start()
    while sim.session.state.round < 3:
        bots.step_all()
    sim.close()
    again = SimulatedTable(load_layout("sim-6-single"), Journal(path), game=GAME.name)
    bots = GAME.bots.Players(again, [1, 3, 4], random.Random(2))
    assert bots.world.note == "sim_resumed_redealt"
    final = bots.play()
    again.close()
    assert final["phase"] == "over" and final["winners"] and sum(final["totals"]) <= 5
