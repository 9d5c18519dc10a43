"""`cardtable demo`: seeded bots play a whole game through the whole pipeline, headless."""
from __future__ import annotations

import os
import random
from argparse import Namespace
from pathlib import Path

from table.events import Accepted
from table.hardware.simulated import Noise
from table.layout import load_layout
from table.registry import GAMES
from table.session.replay import public_state
from table.sim.simulated_table import SimulatedTable
from table.storage.journal import Journal

NOISY = Noise(miss=0.1, flap=0.2, repeat=0.1)   # a poor reader: still no phantom or lost card
PACE_S = 4.0   # the players' pace: the table's time a demo lets pass per input it takes (a card laid, a button)


class PlayersPace:
    """A demo's table clock: PACE_S seconds per input the table took, counted after each of the bots' steps
    (never in the middle of one), so that a game clock runs out as it would with people at the table (bots act
    at once), and a timed game ends at its time limit as the rules say."""

    def __init__(self) -> None:
        self.now = 0.0
        self.inputs = 0

    def __call__(self) -> float:
        return self.now

    def took(self, _accepted: Accepted) -> None:
        self.inputs += 1

    def step_done(self) -> None:
        self.now, self.inputs = self.now + PACE_S * self.inputs, 0


def run_demo(args: Namespace) -> int:
    game = GAMES[args.game]
    players = game.info.players
    layout = load_layout(args.layout or ("sim-6-single" if args.players <= 6 else "sim-8-single"))
    if args.players not in players or args.players > len(layout.seats):
        counts = f"{players.start}" if len(players) == 1 else f"{players.start} to {players.stop - 1}"
        raise SystemExit(f"cardtable demo: {game.name} is for {counts} players "
                         f"and this table has {len(layout.seats)} seats, not {args.players} players")
    if args.frames and args.frames.exists() and not args.frames.is_dir():
        raise SystemExit(f"cardtable demo: {args.frames} is a file: --frames takes a folder")
    if args.journal:
        replace_demo_journal(args.journal)
    journal = Journal(args.journal or ":memory:", origin="demo")
    sim = SimulatedTable(layout, journal, game=game.name, noise=NOISY if args.noise else Noise(), seed=args.seed)
    pace = PlayersPace()
    sim.table.clock = pace
    sim.table.bus.subscribe(Accepted, pace.took)
    bots = game.bots.Players(sim, list(range(1, args.players + 1)), random.Random(args.seed))
    after_round = _frame_writer(args) if args.frames else (lambda view: None)
    try:
        bots.join_and_start()
        bots.play(after_round, pace.step_done)
        state = public_state(sim.session)
    finally:
        sim.close()
        journal.close()
    for seat, total in state["totals"].items():
        crown = "  <- winner" if int(seat) in state["winners"] else ""
        print(f"seat {seat}: {total}{crown}")
    return 0


def replace_demo_journal(path: Path) -> None:
    """Make room for a demo's journal at `path`: a journal an earlier demo wrote there is replaced; any other
    file is refused (SystemExit with one line), never written over."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        return
    earlier = Journal(path, read_only=True)   # StorageRefused: not a journal at all
    origin = earlier.origin
    earlier.close()
    if origin != "demo":
        raise SystemExit(f"cardtable demo: {path} is a table's journal, not a demo's: a demo never writes over it")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _frame_writer(args: Namespace):
    """A callback that writes each page shown after a round (resolution steps, scores, game over) as PNG."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from table.screen import Screen

    screen = Screen(GAMES, args.lang)
    args.frames.mkdir(parents=True, exist_ok=True)
    count = iter(range(1, 100_000))
    rounds = iter(range(1, 100_000))

    def write(view: dict) -> None:
        after = next(rounds)
        for page, step in screen.pages(view):
            name = f"{next(count):04d}-after{after:03d}-{page}{'' if step is None else step}.png"
            pygame.image.save(screen.render(view, page, step), str(args.frames / name))

    return write
