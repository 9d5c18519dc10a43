"""`cardtable bench engines`: every registered engine's actions and games per second of random legal play (one
core), its input path (each action checked, then applied, as the table takes a live input), and the CPU time to
replay a whole game."""
from __future__ import annotations

import random
import statistics
from time import perf_counter, process_time

from table.bench.common import play_randomly
from table.games.contract import Game
from table.games.kit.replay import replay
from table.registry import GAMES

RECORDED = 50   # games replayed, the first played


def bench_engines(seconds: float) -> dict:
    """Every registered engine's figures, by name."""
    return {name: bench_engine(game, seconds) for name, game in GAMES.items()}


def bench_engine(game: Game, seconds: float) -> dict:
    """One engine's figures: random legal play for `seconds` (one game at least), then the replay of the first
    games played."""
    games, actions, elapsed, cpu, recorded = _play_for(game, seconds)
    replays = [_replay_s(game, *played) for played in recorded]
    return {
        "actions_per_s": round(actions / cpu),          # per second of this process's CPU time: one core
        "actions_per_wall_s": round(actions / elapsed),  # per second of wall time (lower on a busy machine)
        "games_per_s": round(games / cpu, 1),
        "actions_per_game": round(actions / games, 1),
        "input_actions_per_s": round(sum(len(played) for *_, played in recorded) / max(sum(replays), 1e-9)),
        "replay_ms_median": round(statistics.median(replays) * 1e3, 3),
        "replay_ms_max": round(max(replays) * 1e3, 3),
    }


def _play_for(game: Game, seconds: float) -> tuple[int, int, float, float, list]:
    """Games of random legal play for `seconds`: how many games and actions, the wall and CPU time they took,
    and the first RECORDED games (setup, last state, actions)."""
    rng = random.Random(1)
    games = actions = 0
    recorded = []
    start, cpu = perf_counter(), process_time()
    while perf_counter() - start < seconds or not games:
        setup, final, played = _random_game(game, rng)
        games += 1
        actions += len(played)
        if len(recorded) < RECORDED:
            recorded.append((setup, final, played))
    return games, actions, perf_counter() - start, process_time() - cpu, recorded


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
