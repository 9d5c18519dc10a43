"""`cardtable bench`: performance figures (DESIGN targets), never pass/fail.

engines: actions per second and complete games per second with random legal
play on one core, and the time to replay a full game.
pipeline: from the raw read that settles a card to the seat light changing
(software time, p50/p99), and complete simulated games per second through
the whole pipeline.
"""
from __future__ import annotations

import random
import statistics
import tempfile
from pathlib import Path
from time import perf_counter, perf_counter_ns

from table.assets import deck_data
from table.games import feira_torio as ft


SEATS = [1, 2, 3, 4]


def run_bench(what: str, seconds: float) -> dict:
    return {"engines": bench_engines, "pipeline": bench_pipeline}[what](seconds)


def _random_game(deck: ft.Deck, rng: random.Random) -> tuple[ft.State, ft.State, list]:
    """A game of random legal play: its first state, its last state, and its actions."""
    players = rng.randint(ft.MIN_PLAYERS, ft.MAX_PLAYERS)
    first = state = ft.new_game(deck, players, dealer=rng.randrange(players))
    actions = []
    while state.phase != "over":
        action = rng.choice(ft.legal_actions(state))
        state = ft.apply(state, action)
        actions.append(action)
    return first, state, actions


def bench_engines(seconds: float) -> dict:
    deck = ft.Deck.from_data(deck_data(ft.NAME))
    rng = random.Random(1)
    games = actions = 0
    recorded = []
    start = perf_counter()
    while perf_counter() - start < seconds:
        first, final, played = _random_game(deck, rng)
        games += 1
        actions += len(played)
        if len(recorded) < 50:
            recorded.append((first, final, played))
    elapsed = perf_counter() - start
    replays = []
    for first, final, played in recorded:
        t = perf_counter()
        replayed = ft.replay(deck, first.players, first.dealer, played)
        replays.append(perf_counter() - t)
        if replayed != final:
            raise AssertionError("replay differs from the game played")
    return {
        "game": ft.NAME,
        "actions_per_s": round(actions / elapsed),
        "games_per_s": round(games / elapsed, 1),
        "actions_per_game": round(actions / games, 1),
        "replay_ms_median": round(statistics.median(replays) * 1e3, 3),
        "replay_ms_max": round(max(replays) * 1e3, 3),
    }


def bench_pipeline(seconds: float) -> dict:
    from table.events import CardPlaced
    from table.layout import load_layout
    from table.sim.feira_torio_players import FeiraTorioPlayers
    from table.sim.simulated_table import SimulatedTable
    from table.storage.journal import Journal

    latencies: list[int] = []
    games = 0
    folder = tempfile.TemporaryDirectory()
    journal = Journal(Path(folder.name) / "journal.sqlite")   # a real file: every input is synced before its light
    sim = SimulatedTable(load_layout("sim-6-single"), journal, seed=0)
    placed = {"at": 0}
    sim.table.bus.subscribe(CardPlaced, lambda e: placed.__setitem__("at", e.at_ns))
    for light in sim.table.lights.values():
        light.show = _timed(light.show, placed, latencies)
    start = perf_counter()
    try:
        while perf_counter() - start < seconds or not games:
            players = FeiraTorioPlayers(sim, SEATS, random.Random(games))
            if games:
                players.world.press(SEATS[0], "ok")   # the same seats start another game
            else:
                players.join_and_start()
            players.play()
            players.world.press(SEATS[0], "ok")       # back to the lobby
            games += 1
        elapsed = perf_counter() - start
    finally:
        sim.close()
        journal.close()
        folder.cleanup()
    latencies.sort()
    return {
        "games_per_s": round(games / elapsed, 2),
        "light_changes": len(latencies),
        "read_to_light_us_p50": round(latencies[len(latencies) // 2] / 1e3, 1),
        "read_to_light_us_p99": round(latencies[int(len(latencies) * 0.99)] / 1e3, 1),
        "read_to_light_us_max": round(latencies[-1] / 1e3, 1),
    }


def _timed(show, placed: dict, latencies: list[int]):
    """Wrap a light's `show` to record the time since the read that placed the last card."""
    def timed(state):
        show(state)
        if placed["at"]:
            latencies.append(perf_counter_ns() - placed["at"])
            placed["at"] = 0
    return timed
