"""`cardtable demo`: seeded bots play a whole game through the whole pipeline, headless."""
from __future__ import annotations

import os
import random
from argparse import Namespace

from table.hardware.simulated import Noise
from table.layout import load_layout
from table.session.replay import public_state
from table.sim.feira_torio_players import FeiraTorioPlayers
from table.sim.simulated_table import SimulatedTable
from table.storage.journal import Journal

NOISY = Noise(miss=0.1, flap=0.2, repeat=0.1)   # a poor reader: still no phantom or lost card


def run_demo(args: Namespace) -> int:
    layout = load_layout(args.layout)
    if not 3 <= args.players <= min(6, len(layout.seats)):
        raise SystemExit(f"Feira Torio needs 3 to 6 players and this table has {len(layout.seats)} seats")
    if args.journal and args.journal.exists():
        raise SystemExit(f"{args.journal} exists: a demo writes a new journal")
    if args.journal:
        args.journal.parent.mkdir(parents=True, exist_ok=True)
    journal = Journal(args.journal or ":memory:")
    sim = SimulatedTable(layout, journal, noise=NOISY if args.noise else Noise(), seed=args.seed)
    players = FeiraTorioPlayers(sim, list(range(1, args.players + 1)), random.Random(args.seed))
    after_round = _frame_writer(args) if args.frames else (lambda view: None)
    try:
        players.join_and_start()
        players.play(after_round)
        state = public_state(sim.session)
    finally:
        sim.close()
        journal.close()
    for seat, total in state["totals"].items():
        crown = "  <- winner" if int(seat) in state["winners"] else ""
        print(f"seat {seat}: {total}{crown}")
    return 0


def _frame_writer(args: Namespace):
    """A callback that writes each page shown after a round (reveal steps, scores, winner) as PNG."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from table.screen import Screen

    screen = Screen(args.lang)
    args.frames.mkdir(parents=True, exist_ok=True)
    count = iter(range(1, 10_000))

    def write(view: dict) -> None:
        game = view["view"]
        hand, round_ = game["hand"], game["round"] - 1
        if game["phase"] == "over":
            round_ = 4
        elif round_ == 0:
            hand, round_ = hand - 1, 4
        for page, step in screen.pages(view):
            name = f"{next(count):03d}-hand{hand}-round{round_}-{page}{'' if step is None else step}.png"
            pygame.image.save(screen.render(view, page, step), str(args.frames / name))

    return write
