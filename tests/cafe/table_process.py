"""A table of bots as a process of its own, for the fault test: `python -m tests.cafe.table_process STATE SEED N`
plays Feira Torio in the state directory STATE until its history holds N games, going on from whatever a kill
left (a game half played, a game over not yet left): the simulated café's table (table/cafe/simulated.py), at
full speed and without regulars."""
import sys
from pathlib import Path

from table.cafe.simulated import play_table

if __name__ == "__main__":
    play_table(Path(sys.argv[1]), "feira-torio", int(sys.argv[2]), int(sys.argv[3]))
