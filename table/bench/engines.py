"""`cardtable bench engines`: every registered engine's actions and games per second of random legal play (one
core), beside the probe's (table/bench/probe.py) played in turns with it, its input path (each action checked,
then applied, as the table takes a live input), and the CPU time to replay a whole game."""
from __future__ import annotations

import random
import statistics
from time import perf_counter, process_time

from table.bench.common import play_randomly
from table.bench.probe import PROBE
from table.games.contract import Game
from table.games.kit.replay import replay
from table.registry import GAMES

RECORDED = 50   # games replayed, the first played
SLICE_S = 0.05  # the engine and the probe take turns this long, so the machine's load weighs on both alike


def bench_engines(seconds: float) -> dict:
    """Every registered engine's figures, by name."""
    return {name: bench_engine(game, seconds) for name, game in GAMES.items()}


def bench_engine(game: Game, seconds: float) -> dict:
    """One engine's figures: random legal play for `seconds` (one game at least) in slices, the probe's between
    them, then the replay of the first games played."""
    engine, probe = Play(game), Play(PROBE)
    while engine.wall < seconds or not engine.games:
        engine.run(min(SLICE_S, seconds))
        probe.run(min(SLICE_S, seconds))
    replays = [_replay_s(game, *played) for played in engine.recorded]
    actions_per_s = engine.actions / engine.cpu
    return {
        "actions_per_s": round(actions_per_s),                    # per second of this process's CPU time: one core
        "actions_per_wall_s": round(engine.actions / engine.wall),  # per second of wall time (lower on a busy machine)
        "probe_actions_per_s": round(probe.actions / probe.cpu),
        "vs_probe": round(actions_per_s / (probe.actions / probe.cpu), 2),
        "games_per_s": round(engine.games / engine.cpu, 1),
        "actions_per_game": round(engine.actions / engine.games, 1),
        "input_actions_per_s": round(sum(len(played) for *_, played in engine.recorded) / max(sum(replays), 1e-9)),
        "replay_ms_median": round(statistics.median(replays) * 1e3, 3),
        "replay_ms_max": round(max(replays) * 1e3, 3),
    }


class Play:
    """Random legal play of one game, run in slices: the games and actions so far, the wall and CPU time they
    took, and the first RECORDED games (setup, last state, actions)."""

    def __init__(self, game: Game):
        self.game, self.rng = game, random.Random(1)
        self.games = self.actions = 0
        self.wall = self.cpu = 0.0
        self.recorded: list = []

    def run(self, seconds: float) -> None:
        """Games until `seconds` of wall time have passed (one game at least)."""
        start, cpu = perf_counter(), process_time()
        while True:
            setup, final, played = _random_game(self.game, self.rng)
            self.games += 1
            self.actions += len(played)
            if len(self.recorded) < RECORDED:
                self.recorded.append((setup, final, played))
            if perf_counter() - start >= seconds:
                break
        self.wall += perf_counter() - start
        self.cpu += process_time() - cpu


def _random_game(game: Game, rng: random.Random) -> tuple[tuple, object, list]:
    """A game of random legal play, with random options: its setup, its last state, and its actions."""
    info = game.info
    players = rng.choice(info.players)
    options = {o.name: rng.choice(o.choices) for o in info.options}
    setup = (players, rng.randrange(players), options)
    return (setup, *play_randomly(game, game.rules.new_game(game.deck, *setup), rng))


def _replay_s(game: Game, setup: tuple, final, played: list) -> float:
    """The CPU time to replay a game: every action checked, then applied, as restoring a journal and taking a live
    input do; AssertionError when the replay refuses an action or ends elsewhere than the game played."""
    start = process_time()
    try:
        state = replay(game.rules, game.deck, *setup, played)
    except ValueError as refused:
        raise AssertionError(f"{game.name}: {refused}") from None
    elapsed = process_time() - start
    if state != final:
        raise AssertionError(f"{game.name}: replay differs from the game played")
    return elapsed
