"""A table of bots as a process of its own, for the fault test: `python -m tests.cafe.table_process STATE SEED N`
plays Feira Torio in the state directory STATE until its history holds N games, going on from whatever a kill
left (a game half played, a game over not yet left), each game left by a press back to the lobby."""
from __future__ import annotations

import random
import sys
from pathlib import Path

from table.layout import load_layout
from table.registry import GAMES
from table.sim.simulated_table import SimulatedTable
from table.storage.files import TableFiles

SEATS = [1, 2, 3]


def play(state: Path, seed: int, games: int) -> None:
    files = TableFiles(state / "journal.sqlite")
    sim = SimulatedTable(load_layout("sim-6-single"), files.journal, game="feira-torio", seed=seed)
    rng = random.Random(seed)
    while len(files.journal.history.games()) < games:
        if sim.session.state is None and sim.session.joined:
            sim.clear()
            sim.press(SEATS[0], "ok")   # the seats the last game left joined start the next
        bots = GAMES["feira-torio"].bots.Players(sim, SEATS, random.Random(rng.random()))
        if sim.session.state is None:
            bots.join_and_start()
        bots.play()
        sim.press(2, "ok")
    sim.close()
    files.close()


if __name__ == "__main__":
    play(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
