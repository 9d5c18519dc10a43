"""The `cardtable` command: run the table, play a demo, tag a deck, check the hardware, replay a journal, list
the finished games, benchmark, link the table to the café's hall and run the hall."""
from __future__ import annotations

import argparse
import errno
import logging
import os
import re
import sys
from pathlib import Path

from table.registry import GAMES
from table.storage import StorageRefused

DEFAULT_JOURNAL = Path(os.environ.get("CARDTABLE_STATE", Path.home() / ".local/state/cardtable")) / "journal.sqlite"
DEFAULT_REGISTRY = DEFAULT_JOURNAL.parent / "registry.sqlite"
DEFAULT_HALL_STATE = Path(os.environ.get("CARDTABLE_HALL_STATE", Path.home() / ".local/state/cardtable-hall"))
DEFAULT_LAYOUT = os.environ.get("CARDTABLE_LAYOUT", "sim-6-single")
HARDWARE_HELP = ("auto (default): the layout's own hardware when this machine is its table (the Pi, or one of "
                 "its hubs plugged in), else the simulated table; real; simulated")


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # pygame's banner is no output of ours
    parser = command_parser()
    args = parser.parse_args(argv)
    configure_logging(args.verbose)
    try:
        return _command(args.parser, args)
    except StorageRefused as refused:
        print(f"cardtable {args.command}: {refused}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:   # Ctrl-C: a clean stop; every acknowledged input is already in the journal
        print(f"cardtable {args.command}: stopped", file=sys.stderr)
        return 130
    except BrokenPipeError:     # the reader of our output went away (`| head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as error:  # a bad layout, a path that cannot be used, table hardware missing: one line
        if (message := refusal(error)) is None:
            raise
        print(f"cardtable {args.command}: {message}", file=sys.stderr)
        return 1


def command_parser() -> argparse.ArgumentParser:
    """The `cardtable` command's options and its commands, in the order --help lists them."""
    parser = argparse.ArgumentParser(prog="cardtable", description="RFID card table controller")
    parser.add_argument("--version", action="version", version=f"cardtable {package_version()}")
    parser.add_argument("--verbose", action="store_true", help="log what the table accepts and refuses (never a card)")
    commands = parser.add_subparsers(dest="command", required=True)
    for declare in (_declare_run, _declare_demo, _declare_replay, _declare_history, _declare_enrol, _declare_bench,
                    _declare_doctor, _declare_fallback, _declare_backup_and_restore, _declare_ended, _declare_layout,
                    _declare_link, _declare_hall, _declare_cafe):
        declare(commands)
    for command in commands.choices.values():   # a command's misuse is told with that command's usage
        command.set_defaults(parser=command)
    return parser


def _declare_run(commands) -> None:
    run = commands.add_parser("run", help="run the table (the simulated table when there is no table hardware)")
    run.add_argument("--layout", default=DEFAULT_LAYOUT,
                     help="table layout: a file or a name in hardware/layouts (default: $CARDTABLE_LAYOUT or sim-6-single)")
    run.add_argument("--journal", type=Path, default=DEFAULT_JOURNAL, help="journal file (resumed if it exists)")
    run.add_argument("--hardware", choices=("auto", "real", "simulated", "emulated"), default="auto",
                     help=HARDWARE_HELP + "; emulated: the layout's readers emulated, read by the real driver")
    run.add_argument("--registry", type=Path, default=DEFAULT_REGISTRY,
                     help="tag registry file, as made by cardtable enrol (real hardware only)")
    run.add_argument("--game", choices=list(GAMES), help="the game the lobby offers first")
    run.add_argument("--lang", choices=("fr", "en"), default="fr")
    run.add_argument("--spectate", type=web_page, default=os.environ.get("CARDTABLE_SPECTATE") or None, metavar="URL",
                     help="the table's spectator page at the café's hall, shown as a QR code when a game ends "
                     "(default: $CARDTABLE_SPECTATE; docs/cafe.md)")
    run.add_argument("--fullscreen", action="store_true")
    run.add_argument("--headless", action="store_true",
                     help="run the table's own hardware without any screen (hub-only tests, benchmarks)")
    run.add_argument("--frames", type=int, default=0, help="stop after this many frames (0: run until closed)")


def _declare_demo(commands) -> None:
    demo = commands.add_parser("demo", help="bots play a whole game through the whole pipeline, headless")
    demo.add_argument("--game", default=next(iter(GAMES)), choices=list(GAMES))
    demo.add_argument("--players", type=int, default=4)
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument("--layout", help="table layout (default: sim-6-single, sim-8-single for 7 or 8 players)")
    demo.add_argument("--noise", action="store_true", help="noisy readers: missed, flapping and repeated reads")
    demo.add_argument("--frames", type=Path, help="write a PNG for each reveal step and each hand's scores here")
    demo.add_argument("--journal", type=Path, help="keep the journal in this file")
    demo.add_argument("--lang", choices=("fr", "en"), default="fr")


def _declare_replay(commands) -> None:
    replay = commands.add_parser("replay", help="replay a journal and print the final public state")
    replay.add_argument("journal", type=Path)
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.add_argument("--lang", choices=("fr", "en"), default="fr", help="the language of a refusal")


def _declare_history(commands) -> None:
    history = commands.add_parser("history", help="list the finished games (or export them as CSV or JSON), "
                                  "or copy one's archived journal")
    history.add_argument("--journal", type=Path, default=DEFAULT_JOURNAL,
                         help="the table's journal: its history and archives are beside it")
    shown = history.add_mutually_exclusive_group()
    shown.add_argument("--csv", action="store_true", help="print the history as CSV")
    shown.add_argument("--json", action="store_true", help="print the history as one JSON list")
    shown.add_argument("--export", nargs=2, metavar=("N", "PATH"),
                       help="copy game N's archived journal (checked against the history) to PATH")


def _declare_enrol(commands) -> None:
    enrol = commands.add_parser("enrol", help="tag a deck the first time (or staff cards), re-tag a lost card, "
                                "export or import the tag registry")
    enrol.add_argument("--deck", help="the deck to tag (a name in assets/decks, e.g. pairs)")
    enrol.add_argument("--staff", type=int, default=0, metavar="N", help="also tag staff cards 1 to N")
    enrol.add_argument("--player", metavar="NAME", help="tag a regular's player card, for the player of this name "
                       "(docs/cafe.md)")
    enrol.add_argument("--retag", metavar="CARD_ID", help="replace the tag of this lost card, or of the player's card "
                       "(its old tag is retired)")
    enrol.add_argument("--registry", type=Path, default=DEFAULT_REGISTRY, help="tag registry file")
    enrol.add_argument("--layout", default=DEFAULT_LAYOUT,
                       help="table layout whose centre pads are the station, when its hardware is here")
    enrol.add_argument("--hardware", choices=("auto", "real", "simulated"), default="auto", help=HARDWARE_HELP)
    enrol.add_argument("--lang", choices=("fr", "en"), default="fr")
    enrol.add_argument("--fullscreen", action="store_true")
    enrol.add_argument("--frames", type=int, default=0, help="stop after this many frames (0: run until closed)")
    csv = enrol.add_mutually_exclusive_group()
    csv.add_argument("--export", type=Path, metavar="CSV", help="write the registry to this CSV file and stop")
    csv.add_argument("--import", dest="import_", type=Path, metavar="CSV",
                     help="add the rows of this CSV file to the registry (all or nothing) and stop")


def _declare_bench(commands) -> None:
    bench = commands.add_parser("bench", help="print performance figures (no pass/fail)")
    bench.add_argument("what", choices=("engines", "link", "memory", "pipeline", "readers", "startup"))
    bench.add_argument("--json", action="store_true")
    bench.add_argument("--seconds", type=duration, default=2.0,
                       help="time spent on each measurement (engines, pipeline; 0: one game)")


def _declare_doctor(commands) -> None:
    doctor = commands.add_parser("doctor", help="check every reader, light, button and pad of the table; "
                                 "exit status 1 when anything fails")
    doctor.add_argument("--layout", default=DEFAULT_LAYOUT, help="table layout (default: as for run)")
    doctor.add_argument("--emulated", action="store_true",
                        help="run on emulated readers, hubs and pins, answered by an emulated hand")
    doctor.add_argument("--break", dest="broken", action="append", default=[], metavar="PAD",
                        help="emulated or simulated only: make this pad's reader deaf first (repeatable)")
    doctor.add_argument("--patience", type=float, default=30.0, metavar="SECONDS",
                        help="how long to wait for each button press or card")
    doctor.add_argument("--state", type=Path, metavar="DIR",
                        help="the state directory whose protections are checked (default: the journal's; "
                             "missing, it is a problem only when named here or by $CARDTABLE_STATE)")
    doctor.add_argument("--registry", type=Path, metavar="FILE",
                        help="the tag registry whose staff cards are checked (default: the state directory's)")


def _declare_fallback(commands) -> None:
    fallback = commands.add_parser("fallback", help="say on the screen why the table stopped and whom to call, "
                                   "until stopped (run by cardtable-fallback.service, see docs/appliance.md)")
    fallback.add_argument("--unit", help="the failed unit (default: the one systemd names, else cardtable.service)")
    fallback.add_argument("--contact", help="whom the staff should call (default: $CARDTABLE_CONTACT)")
    fallback.add_argument("--fullscreen", action="store_true")
    fallback.add_argument("--frames", type=int, default=0, help="stop after this many frames (0: run until stopped)")


def _declare_backup_and_restore(commands) -> None:
    for name, verb in (("backup", "write every file of the table's state directory (journal, registry, history, "
                                  "archives) to FILE, a gzipped tar, even while the table plays"),
                       ("restore", "put a backup's files in the table's state directory (the table stopped); the "
                                   "files there before are kept in a folder before-restore-TIME")):
        command = commands.add_parser(name, help=verb)
        command.add_argument("file", metavar="FILE", help="the backup file; - for standard " +
                             ("output" if name == "backup" else "input"))
        command.add_argument("--state", type=Path, metavar="DIR", help="the state directory (default: the journal's)")


def _declare_ended(commands) -> None:
    commands.add_parser("ended", help="record how the table's service ended, from systemd's $SERVICE_RESULT (its "
                        "ExecStopPost=): after 5 failures in 30 minutes it stays stopped (docs/appliance.md)")


def _declare_layout(commands) -> None:
    layout = commands.add_parser("layout", help="check a table layout, or print its wiring tables")
    layout.add_argument("action", choices=("check", "wiring"))
    layout.add_argument("file", help="a layout file, or a name in hardware/layouts")


def _declare_link(commands) -> None:
    link = commands.add_parser("link", help="publish the table's finished games and live state to the café's hall "
                               "until stopped (docs/cafe.md)",
                               description="The table's link to the café's hall: publishes the finished games of "
                               "the table's outbox (history.sqlite) and its live state (live.json) to the hall's broker, "
                               "over TLS, until stopped. It never writes the table's files: it writes only link.sqlite "
                               "and players.json, in the folder cardtable-link beside the state directory. See "
                               "docs/cafe.md.")
    link.add_argument("--table", default=os.environ.get("CARDTABLE_TABLE"), required="CARDTABLE_TABLE" not in os.environ,
                      help="the table's name: its broker user and topics (default: $CARDTABLE_TABLE)")
    _broker_options(link, os.environ.get("CARDTABLE_HALL"), "the hall's broker (default: $CARDTABLE_HALL)",
                    "the broker's port (default: 8883)")
    link.add_argument("--state", type=Path, default=DEFAULT_JOURNAL.parent, metavar="DIR",
                      help="the table's state directory (default: the journal's)")


def _declare_hall(commands) -> None:
    hall = commands.add_parser("hall", help="store and acknowledge every table's games until stopped; or, with "
                               "--setup, write the hall's broker files (docs/cafe.md)",
                               description="The café's hall: stores every table's finished games and live state "
                               "from the broker in hall.sqlite, acknowledges the games, and serves the hall's pages (the "
                               "hall screen, each table's spectator page, the players, the league, the staff page) until "
                               "stopped. With --setup FOLDER it only writes the broker's files: its configuration, ACL, "
                               "passwords, certificates, the staff password and each table's link file. See "
                               "docs/cafe.md.")
    _broker_options(hall, "localhost", "the broker (default: localhost); with --setup, the name or address "
                    "the tables reach it by, for its certificate",
                    "the broker's port (default: 8883); with --setup, the port its TLS listener is set up on")
    hall.add_argument("--state", type=Path, default=DEFAULT_HALL_STATE, metavar="DIR",
                      help="where hall.sqlite is (default: $CARDTABLE_HALL_STATE or ~/.local/state/cardtable-hall)")
    hall.add_argument("--setup", type=Path, metavar="FOLDER",
                      help="write mosquitto.conf, its ACL, passwords and each client's credential into FOLDER")
    hall.add_argument("--table", dest="tables", action="append", default=[], metavar="NAME",
                      help="with --setup: a table that may publish (repeatable)")
    hall.add_argument("--web", type=address, default=address("0.0.0.0:8080"), metavar="HOST:PORT",
                      help="where the hall's pages are served (default: 0.0.0.0:8080, every address of this machine)")
    hall.add_argument("--staff-password-file", type=Path, metavar="FILE",
                      help="the staff page's password (staff.password, made by --setup); without it the staff page "
                      "is off")


def _declare_cafe(commands) -> None:
    cafe = commands.add_parser("cafe", help="a simulated café on this machine: Debian's Mosquitto, the hall and its "
                               "pages, tables of bots with their links (docs/cafe.md)",
                               description="A whole café on this machine, each part a process of its own: Debian's "
                               "Mosquitto set up on a free loopback port, the hall with its pages, and tables of bots "
                               "playing with their links. It prints the hall's address, its staff page's password and "
                               "where its files and logs are; Ctrl-C stops every process. It needs Debian's mosquitto "
                               "and openssl. See docs/cafe.md.")
    cafe.add_argument("--tables", type=int, default=3, help="how many tables (1 to 8; each plays another game)")
    cafe.add_argument("--web", type=address, default=address("127.0.0.1:8080"), metavar="HOST:PORT",
                      help="where the hall's pages are served (default: 127.0.0.1:8080)")
    cafe.add_argument("--folder", type=Path, metavar="DIR", help="the café's files and logs (default: a new "
                      "temporary folder)")
    cafe.add_argument("--seconds", type=duration, default=0, help="stop after this many seconds (0: at Ctrl-C)")


def _broker_options(command, host: str | None, host_help: str, port_help: str) -> None:
    command.add_argument("--broker", default=host, required=host is None, metavar="HOST", help=host_help)
    command.add_argument("--port", type=port, default=8883, help=port_help)
    command.add_argument("--password-file", type=Path, metavar="FILE",
                         help="the file holding this client's password (made by cardtable hall --setup)")
    command.add_argument("--ca", type=Path, metavar="FILE",
                         help="the hall's CA certificate, ca.crt (made by cardtable hall --setup): TLS, always")


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("cardtable")
    except PackageNotFoundError:   # run from a checkout that was never installed
        return "(not installed)"


class _JournalPriority(logging.Formatter):
    """Log lines for systemd's journal: the level as a syslog priority prefix, no time (the journal has it)."""

    PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}

    def format(self, record: logging.LogRecord) -> str:
        return f"<{self.PRIORITY.get(record.levelno, 6)}>{record.name}: {super().format(record)}"


def configure_logging(verbose: bool) -> None:
    """Log to stderr (warnings and errors; with --verbose also what the table does); under systemd, whose
    $JOURNAL_STREAM names our stderr, in the journal's own line format."""
    handler = logging.StreamHandler(sys.stderr)
    try:
        stat = os.fstat(sys.stderr.fileno())
    except (AttributeError, OSError, ValueError):   # a stream without a file (pytest's capture)
        stat = None
    if stat is not None and os.environ.get("JOURNAL_STREAM") == f"{stat.st_dev}:{stat.st_ino}":
        handler.setFormatter(_JournalPriority("%(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    if not root.handlers:   # a program that calls main() (the test runner) may log its own way
        root.addHandler(handler)
    root.setLevel(logging.INFO if verbose else logging.WARNING)


def refusal(error: Exception) -> str | None:
    """What to tell the user when `error` comes from their input or their machine, not from a bug; else None."""
    from table.hardware.pins import NoTableHardware
    from table.layout import LayoutError
    from table.screen.outputs import NoDisplay
    from table.cafe.mqtt import CafeError
    if isinstance(error, (LayoutError, NoTableHardware, NoDisplay, CafeError)):
        return str(error)
    if isinstance(error, OSError) and error.filename is not None:   # a path that cannot be read or written
        return f"{error.filename}: {error.strerror}"
    return None


def _command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run the command `args` asks for (its body, imported when asked for); its exit status."""
    if args.command == "run":
        from table.run import run
        return run(args)
    if args.command == "demo":
        from table.sim.demo import run_demo
        return run_demo(args)
    if args.command == "enrol":
        if not (args.deck or args.staff or args.export or args.import_):
            parser.error("enrol needs --deck DECK (and/or --staff N), --export CSV or --import CSV")
        from table.enrol.command import enrol_command
        return enrol_command(args)
    if args.command == "replay":
        from table.session.replay import replay_command
        return replay_command(args.journal, args.json, args.lang)
    if args.command == "layout":
        from table.layout.command import layout_command
        from table.session.lobby import games_for
        return layout_command(args.action, args.file, games_for)
    if args.command == "history":
        from table.storage.history import history_command
        return history_command(args.journal.parent / "history.sqlite", args.csv, args.json, args.export)
    if args.command == "doctor":
        from table.doctor import run_doctor
        named = args.state is not None or "CARDTABLE_STATE" in os.environ   # the appliance's, or one asked for
        return run_doctor(args, args.state or DEFAULT_JOURNAL.parent, state_expected=named)
    if args.command == "fallback":
        from table.appliance.fallback import run_fallback
        return run_fallback(args)
    if args.command in ("backup", "restore"):
        from table.storage.backup import backup_command
        return backup_command(args.command, args.file, args.state or DEFAULT_JOURNAL.parent)
    if args.command == "ended":
        from table.appliance.failures import ended_command
        return ended_command(DEFAULT_JOURNAL.parent)
    if args.command in ("link", "hall", "cafe"):
        return _cafe_command(parser, args)
    from table.bench import bench_command
    return bench_command(args.what, args.seconds, args.json)


def _cafe_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """`cardtable link`, `cardtable hall` or `cardtable cafe`: the café link's services (table/cafe/), or a
    simulated café."""
    if args.command == "cafe":
        from table.cafe.simulated import cafe_command
        return cafe_command(args.tables, args.web, args.folder, args.seconds)
    if args.command == "hall" and args.setup is not None:
        from table.cafe.hall import setup_command
        _check_folder("--setup", args.setup)
        return setup_command(args.setup, args.tables, args.port, args.broker)
    if args.password_file is None or args.ca is None:
        parser.error(f"{args.command} needs --password-file FILE and --ca FILE")
    _check_file("--password-file", args.password_file)
    _check_file("--ca", args.ca)
    if args.command == "link":
        from table.cafe.link import link_command
        from table.storage.outbox import link_file
        _check_folder("--state", args.state, writes=False)
        _check_folder("--state", args.state, link_file(args.state).parent)
        return link_command(args.table, args.broker, args.port, args.password_file, args.ca, args.state)
    if args.staff_password_file is not None:
        _check_file("--staff-password-file", args.staff_password_file)
    _check_folder("--state", args.state)
    from table.cafe.hall import hall_command
    return hall_command(args.broker, args.port, args.password_file, args.ca, args.state, args.web,
                        args.staff_password_file)


FILE_PROBLEMS = {errno.ENOENT: "no such file", errno.ENOTDIR: "no such file", errno.EISDIR: "a folder, not a file",
                 errno.EACCES: "no permission to read it", errno.EPERM: "no permission to read it"}


def _check_file(option: str, path: Path) -> None:
    """CafeError naming `option` unless `path` is a file this process can read."""
    from table.cafe.mqtt import CafeError
    try:
        path.open("rb").close()
    except OSError as error:
        raise CafeError(f"{option} {path}: {FILE_PROBLEMS.get(error.errno, error.strerror)}") from None


def _check_folder(option: str, given: Path, folder: Path | None = None, writes: bool = True) -> None:
    """CafeError naming `option`, given as `given`, unless `folder` (default: `given`) is a folder or can be made one,
    and one this process can write in (when it `writes`)."""
    from table.cafe.mqtt import CafeError
    folder = folder or given
    there = next(p for p in (folder, *folder.parents) if p.exists())   # the folder, or the nearest that would hold it
    if not there.is_dir():
        raise CafeError(f"{option} {given}: " + ("not a folder" if there == given else f"{there} is not a folder"))
    if writes and not os.access(there, os.W_OK | os.X_OK):
        raise CafeError(f"{option} {given}: no permission to write in {there}")


def port(text: str) -> int:
    """A TCP port number (argparse turns the ValueError into one line of usage)."""
    value = int(text)
    if not 0 < value < 65536:
        raise ValueError(text)
    return value


def address(text: str) -> tuple[str, int]:
    """HOST:PORT ([::]:PORT for IPv6) as (host, port) (argparse turns the ValueError into one line of usage)."""
    host, _, number = text.rpartition(":")
    if not host:
        raise ValueError(text)
    return host.strip("[]"), port(number)


def web_page(text: str) -> str:
    """An http(s) address of 100 characters at most, so that its QR code reads from a seat (argparse turns the
    ValueError into one line of usage)."""
    if not re.fullmatch(r"https?://[!-~]{1,92}", text):
        raise ValueError(text)
    return text


def duration(text: str) -> float:
    """A duration in seconds, 0 or more (argparse turns the ValueError into one line of usage)."""
    value = float(text)
    if not value >= 0:
        raise ValueError(text)
    return value


if __name__ == "__main__":
    sys.exit(main())
