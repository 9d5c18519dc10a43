"""The behaviour check of every rules engine: one SHA-256 per game and player count over seeded random games,
compared with a recorded one.

For every registered game at every player count, 100 seeded games (30 of
Chevaux, whose games are long; `--games` sets another count) with random
options, played through the public API by a seeded choice among the legal
actions. Each step hashes what the engine says: its need, its legal
actions in their order, the refusal of the action taken one step earlier,
the state after apply (its compared fields; sets sorted), the game clock; after
every 7th action and at the end, the public view and each seat's observation
(as JSON, the views' own form); each game ends with its replay,
which must reach the same state. Run from the repository's root (all games: 25
minutes on a busy core, Chevaux most of it):

    python tests/games/engine_fingerprint.py              # compare with the record
    python tests/games/engine_fingerprint.py --record     # record it again
    python tests/games/engine_fingerprint.py --game chevaux

A speed-up of an engine keeps every digest; a change of its rules records again.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from dataclasses import fields, is_dataclass
from pathlib import Path
from types import MappingProxyType

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))   # this checkout's table, not an installed one

import table  # noqa: E402

from table.games.contract import Game  # noqa: E402
from table.games.kit.replay import replay  # noqa: E402
from table.registry import GAMES  # noqa: E402

RECORD = Path(__file__).with_name("engine_fingerprint.json")
GAMES_PER_COUNT = 100
FEWER = {"chevaux": 30}   # games per count where games are long (Chevaux: 1,100 actions on average, 6,000 at most)
VIEW_STRIDE = 7      # the views are hashed after every 7th action and at the end (they cost the most)


class Digests:
    """Short digests of values, equal for equal values whatever the process's string hashing: a dataclass by
    its type and compared fields, a set sorted, a mapping in its order. Immutable values are digested once
    each (states share most of their parts with the state before)."""

    def __init__(self):
        self.known: dict[int, tuple[object, str]] = {}   # id -> (the value, kept alive; its digest)
        self.compared: dict[type, tuple[str, ...]] = {}

    def of(self, value) -> str:
        if value is None or isinstance(value, (str, int, float, bytes)):
            return repr(value)
        if isinstance(value, (list, dict)):
            return self._digest(value)
        known = self.known.get(id(value))
        if known is None:
            known = self.known[id(value)] = (value, self._digest(value))
        return known[1]

    def _digest(self, value) -> str:
        if isinstance(value, (tuple, list)):
            parts = map(self.of, value)
        elif isinstance(value, (frozenset, set)):
            parts = sorted(map(self.of, value))
        elif isinstance(value, (dict, MappingProxyType)):
            parts = (self.of(k) + ":" + self.of(v) for k, v in value.items())
        elif is_dataclass(value):
            names = self.compared.get(type(value))
            if names is None:
                names = self.compared[type(value)] = tuple(f.name for f in fields(value) if f.compare)
            parts = (self.of(getattr(value, name)) for name in names)
        else:
            raise TypeError(f"no digest for {type(value).__name__}")
        text = type(value).__name__ + "(" + ",".join(parts) + ")"
        return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def play(game: Game, players: int, seed: str, digest) -> None:
    """One seeded random game, every step's behaviour fed to `digest`; AssertionError when the engine breaks
    its contract (a legal action refused, a replay that ends elsewhere)."""
    rules = game.rules
    rng = random.Random(seed)
    options = {o.name: rng.choice(o.choices) for o in game.info.options}
    first = rng.randrange(players)
    clock = getattr(rules, "time_limit", None)

    digests = Digests()

    def feed(*values) -> None:
        digest.update(digests.of(values).encode())

    state = rules.new_game(game.deck, players, first, options)
    feed("setup", options, first, state)
    actions, previous = [], None
    while True:
        need = rules.need(state)
        feed(need)
        if need.done:
            break
        legal = rules.legal_actions(state)
        action = rng.choice(legal)
        assert rules.check(state, action) is None, f"{game.name}: legal {action} refused"
        feed(legal, action, previous and rules.check(state, previous))
        state = rules.apply(state, action)
        actions.append(previous := action)
        feed(state, clock and clock(state))
        if len(actions) % VIEW_STRIDE == 0 or rules.need(state).done:
            views = [rules.observe(state, p) for p in (None, *range(players))]
            digest.update(json.dumps(views, default=digests.of, check_circular=False).encode())
    replayed = replay(rules, game.deck, players, first, options, actions)
    assert replayed == state, f"{game.name}: the replay ends elsewhere"
    feed("replayed", replayed)


def fingerprint(game: Game, players: int, games: int) -> str:
    """The digest of `games` seeded games of `game` at `players`."""
    digest = hashlib.sha256()
    for i in range(games):
        play(game, players, f"{game.name}/{players}/{i}", digest)
    return digest.hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="record the digests instead of comparing")
    parser.add_argument("--game", action="append", choices=list(GAMES), help="only this game (repeatable)")
    parser.add_argument("--games", type=int, help=f"games per game and player count (default {GAMES_PER_COUNT}, "
                                                  f"or as FEWER says)")
    args = parser.parse_args()
    print(f"engines of {Path(table.__file__).parent}")
    digests = {}
    for name in args.game or GAMES:
        games = args.games or FEWER.get(name, GAMES_PER_COUNT)
        for players in GAMES[name].info.players:
            key = f"{name}/{players}p/{games}"
            digests[key] = fingerprint(GAMES[name], players, games)
            print(f"{key}: {digests[key][:16]}", flush=True)
    recorded = json.loads(RECORD.read_text()) if RECORD.exists() else {}
    if args.record:
        RECORD.write_text(json.dumps({**recorded, **digests}, indent=0, sort_keys=True) + "\n")
        print(f"{len(digests)} digests recorded in {RECORD}")
        return 0
    unknown = sorted(digests.keys() - recorded.keys())
    changed = sorted(k for k in digests.keys() & recorded.keys() if digests[k] != recorded[k])
    for label, keys in (("changed", changed), ("not recorded", unknown)):
        for key in keys:
            print(f"{label}: {key}")
    print(f"{len(digests) - len(changed) - len(unknown)} of {len(digests)} digests identical; {len(changed)} "
          f"changed, {len(unknown)} not recorded")
    return 1 if changed or unknown else 0


if __name__ == "__main__":
    sys.exit(main())
