"""The pixel check of every game's pages: a SHA-256 of each frame of seeded games, compared with a recorded one.

For every registered game, at its smallest and largest player counts, in
each language, with its default options and with each option moved off its
default: one seeded random game, its lobby, and every page of the states
where what is shown changes kind (and a few more), some with a game clock.
Run from the repository's root:

    SDL_VIDEODRIVER=dummy python tests/screen/pages_fingerprint.py            # compare with the record
    SDL_VIDEODRIVER=dummy python tests/screen/pages_fingerprint.py --record   # record it again
    SDL_VIDEODRIVER=dummy python tests/screen/pages_fingerprint.py --png DIR  # and save every frame

A refactor of the pages keeps every hash; a change of what they draw records again.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]   # this checkout's table, not an installed one

import pygame  # noqa: E402

import table  # noqa: E402

from games.tables import random_states, table_view  # noqa: E402
from table.registry import GAMES  # noqa: E402
from table.screen import Screen  # noqa: E402
from table.screen.i18n import LANGS  # noqa: E402

RECORD = Path(__file__).with_name("pages_fingerprint.json")
STRIDE = 25          # besides each new kind of state, every STRIDE-th state is drawn
KINDS = 2            # how many states of each kind are drawn
CLOCKS = ({"left_s": 754, "limit_s": 900, "paused": False}, {"left_s": 42, "limit_s": 900, "paused": False},
          {"left_s": 300, "limit_s": 900, "paused": True})


def variants(game, players: int) -> list[dict]:
    """The default options, and each option moved to its first other choice (when it applies at `players`)."""
    changed = {o.name: next(c for c in o.choices if c != o.default) for o in game.info.options
               if not o.players or players in o.players}
    return [{}, changed] if changed else [{}]


def seats_for(players: int) -> list[int]:
    """Seat numbers with gaps, so pages show seats other than the player indices."""
    return [1 + p + (p >= 1) for p in range(players)]


def frames(screens: dict[str, Screen]) -> Iterator[tuple[str, pygame.Surface]]:
    """(name, surface) of every frame of the check, in a fixed order."""
    for name, game in GAMES.items():
        counts = game.info.players
        for players in sorted({counts.start, counts.stop - 1}):
            for v, options in enumerate(variants(game, players)):
                views = list(_views(game, players, v, options))
                for lang in LANGS:
                    screen = screens[lang]
                    for key, view in views:
                        for page, step in screen.pages(view):
                            frame = f"{name}/{players}p/v{v}/{lang}/{key}/{page}" + ("" if step is None else f".{step}")
                            yield frame, screen.render(view, page, step)


def _views(game, players: int, variant: int, options: dict) -> Iterator[tuple[str, dict]]:
    """The table views drawn for one seeded game: its lobby, then the states chosen."""
    seats = seats_for(players)
    seen: dict[tuple, int] = {}
    for i, state in enumerate(random_states(game, players, 7 + variant, options)):
        view = table_view(game, state, seats=seats)
        if i == 0:
            yield "lobby", {**view, "mode": "lobby", "view": None}
            yield "rules", {**view, "mode": "lobby", "view": None, "rules_page": {"seat": None}}
            yield "rules-seat", {**view, "rules_page": {"seat": seats[-1]}}
        phase = view["view"].get("phase")
        kind = (phase, view["prompt"] is not None, view["clearing"])
        seen[kind] = seen.get(kind, 0) + 1
        if seen[kind] <= KINDS or i % STRIDE == 0 or game.rules.need(state).done:
            view["clock"] = CLOCKS[i % len(CLOCKS)] if i % 2 else None
            view["teach"] = seen[kind] == 2   # a first game: the prompt bar says why too
            if seen[kind] == 1 and view["prompt"] is None:   # a seat's menu open, saying why its OK did nothing
                view["menus"] = {str(seats[0]): {"cursor": 1, "labels": [["menu_back", {}], ["menu_rules", {}]],
                                                 "why": ["not_your_turn", {}]}}
            if seen[kind] == 2:   # a refusal's banner, or a reader's
                view["message"] = {"key": "seat_not_joined", "params": {}, "seat": seats[-1]}
            elif i % STRIDE == 0:
                view["faults"] = [{"pad": "seat2", "seat": seats[1], "dead": True}]
            yield f"s{i:04d}", view


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="record the hashes instead of comparing")
    parser.add_argument("--png", type=Path, help="save every frame as a PNG in this folder")
    args = parser.parse_args()
    print(f"pages of {Path(table.__file__).parent}")
    pygame.font.init()
    screens = {lang: Screen(GAMES, lang) for lang in LANGS}
    hashes = {}
    for frame, surf in frames(screens):
        hashes[frame] = hashlib.sha256(pygame.image.tobytes(surf, "RGB")).hexdigest()
        if args.png:
            path = args.png / (frame.replace("/", "-") + ".png")
            path.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(surf, path)
    if args.record:
        RECORD.write_text(json.dumps(hashes, indent=0, sort_keys=True) + "\n")
        print(f"{len(hashes)} frames recorded in {RECORD}")
        return 0
    recorded = json.loads(RECORD.read_text())
    changed = sorted(f for f in hashes.keys() & recorded.keys() if hashes[f] != recorded[f])
    missing, new = sorted(recorded.keys() - hashes.keys()), sorted(hashes.keys() - recorded.keys())
    for label, names in (("changed", changed), ("missing", missing), ("new", new)):
        for frame in names:
            print(f"{label}: {frame}")
    same = len(hashes) - len(changed) - len(new)
    print(f"{same} of {len(recorded)} recorded frames identical; {len(changed)} changed, {len(missing)} missing, "
          f"{len(new)} new")
    return 1 if changed or missing or new else 0


if __name__ == "__main__":
    sys.exit(main())
