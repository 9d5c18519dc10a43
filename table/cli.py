"""The `cardtable` command: run the table, play a demo, replay a journal, benchmark."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

DEFAULT_JOURNAL = Path(os.environ.get("CARDTABLE_STATE", Path.home() / ".local/state/cardtable")) / "journal.sqlite"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cardtable", description="RFID card table controller")
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="run the table (the simulated table when there is no table hardware)")
    run.add_argument("--layout", default="sim-6-single", help="table layout: a file or a name in hardware/layouts")
    run.add_argument("--journal", type=Path, default=DEFAULT_JOURNAL, help="journal file (resumed if it exists)")
    run.add_argument("--lang", choices=("fr", "en"), default="fr")
    run.add_argument("--fullscreen", action="store_true")
    run.add_argument("--frames", type=int, default=0, help="stop after this many frames (0: run until closed)")

    demo = commands.add_parser("demo", help="bots play a whole game through the whole pipeline, headless")
    demo.add_argument("--game", default="feira-torio", choices=("feira-torio",))
    demo.add_argument("--players", type=int, default=4)
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument("--layout", default="sim-6-single")
    demo.add_argument("--noise", action="store_true", help="noisy readers: missed, flapping and repeated reads")
    demo.add_argument("--frames", type=Path, help="write a PNG for each reveal step and each hand's scores here")
    demo.add_argument("--journal", type=Path, help="keep the journal in this file")
    demo.add_argument("--lang", choices=("fr", "en"), default="fr")

    replay = commands.add_parser("replay", help="replay a journal and print the final public state")
    replay.add_argument("journal", type=Path)
    replay.add_argument("--json", action="store_true", help="print one JSON object")

    bench = commands.add_parser("bench", help="print performance figures (no pass/fail)")
    bench.add_argument("what", choices=("engines", "pipeline", "readers"))
    bench.add_argument("--json", action="store_true")
    bench.add_argument("--seconds", type=float, default=2.0, help="time spent on each measurement (engines, pipeline)")

    args = parser.parse_args(argv)
    if args.command == "run":
        from table.sim.window import run_window
        return run_window(args)
    if args.command == "demo":
        from table.sim.demo import run_demo
        return run_demo(args)
    if args.command == "replay":
        from table.session.replay import replay_journal
        if not args.journal.exists():
            parser.error(f"no journal at {args.journal}")
        state = replay_journal(args.journal)
        print(json.dumps(state, ensure_ascii=False) if args.json else json.dumps(state, ensure_ascii=False, indent=2))
        return 0
    from table.bench import run_bench
    figures = run_bench(args.what, args.seconds)
    print(json.dumps(figures) if args.json else "\n".join(f"{k}: {v}" for k, v in figures.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
