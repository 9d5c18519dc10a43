"""`cardtable cafe`: a whole café on one machine, to see it before buying a table: Debian's Mosquitto set up by the
project's own files, the hall with its pages, and simulated tables of bots, each with its link, each a process of
its own as in a real café (docs/cafe.md). Each table plays one game again and again at a players' pace, with two
regulars seated by their player cards, so the hall shows live tables, results, players and a league.
"""
from __future__ import annotations

import getpass
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from table.cafe.broker import STAFF_PASSWORD, set_up, staff_password
from table.cafe.mqtt import HALL_USER, CafeError, stopped_by_signal
from table.layout import load_layout
from table.registry import GAMES
from table.sim.simulated_table import SimulatedTable
from table.storage.files import TableFiles
from table.storage.registry import player_tag, simulated_uid

HOST = "127.0.0.1"
TOOLS = ("mosquitto", "mosquitto_passwd", "openssl")
REGULARS = ("Alice", "Bruno", "Chloé", "Driss", "Emma", "Farid", "Gaëlle", "Hugo")
PACE_S = 0.4   # a bot's pause between two acts: a game a few minutes long, as the hall's screen shows it
LISTEN_S = 30   # how long Mosquitto and the hall may take to listen


def seats_for(game: str) -> list[int]:
    """The seats a simulated table of `game` plays with: four, or what the game takes."""
    players = GAMES[game].info.players
    return list(range(1, max(players.start, min(4, players.stop - 1)) + 1))


def play_table(state: Path, game: str, seed: int, games: int = 0, pace_s: float = 0.0,
               regulars: tuple[str, ...] = ()) -> None:
    """Bots play `game` at a table whose state directory is `state`, again and again (until its history holds
    `games` games; 0: until stopped), going on from whatever a stop left; `regulars` are seated by their player
    cards (made here, as enrolled) at the first seats, the other seats are guests."""
    files = TableFiles(state / "journal.sqlite", state / "registry.sqlite")
    for name in regulars:
        if files.registry.player_id(name) is None:
            files.registry.enrol(simulated_uid(f"player/{name}"), player_tag(f"p-{simulated_uid(name)[:12].lower()}"),
                                 name)
    sim = SimulatedTable(load_layout("sim-6-single"), files.journal, files.registry, game=game, seed=seed)
    rng, seats = random.Random(seed), seats_for(game)
    try:
        while not games or len(files.journal.history.games()) < games:
            if sim.session.state is None and sim.session.joined:
                sim.clear()
                sim.press(seats[0], "ok")   # the seats the last game left joined start the next
            bots = GAMES[game].bots.Players(sim, seats, random.Random(rng.random()))   # its world: the game now
            if sim.session.state is None:   # the first game: the seats join, the regulars lay their cards
                for seat in seats:
                    bots.world.join(seat)
                for seat, name in zip(seats, regulars):
                    sim.tap(sim.table.layout.seats[seat - 1].pads[0], files.registry.player_id(name))
                bots.world.press(seats[0], "ok")
            bots.play(each_step=lambda: time.sleep(pace_s))
            sim.press(seats[-1], "ok")   # back to the lobby, the same seats joined
    finally:
        sim.close()
        files.close()


def cafe_command(tables: int, web: tuple[str, int], folder: Path | None, seconds: float) -> int:
    """`cardtable cafe`: run a simulated café until stopped (or for `seconds`), its hall's pages at `web`."""
    if not 1 <= tables <= len(GAMES):
        raise CafeError(f"a simulated café has 1 to {len(GAMES)} tables, not {tables}")
    missing = missing_tools()
    if missing:
        raise CafeError(f"the café needs {missing}")
    from table.cafe.pages import listening   # here: a table's process needs none of the pages
    listening(web).close()   # an address that is taken or not this machine's: one line before anything starts
    home = folder or Path(tempfile.mkdtemp(prefix="cardtable-cafe-"))
    names = [f"t{n + 1}" for n in range(tables)]
    port = free_port()
    set_up(home / "broker", names, port, HOST, getpass.getuser())
    processes: dict[subprocess.Popen, Path] = {}   # each process of the café: its log
    try:
        broker_log, hall_log = home / "mosquitto.log", home / "hall.log"
        broker = started(["mosquitto", "-c", str(home / "broker" / "mosquitto.conf")], broker_log)
        processes[broker] = broker_log
        wait_listening(HOST, port, broker, broker_log)
        hall = started([sys.executable, "-m", "table", "hall", *client_options(home / "broker", port, HALL_USER),
                        "--state", str(home / "hall"), "--web", f"{web[0]}:{web[1]}",
                        "--staff-password-file", str(home / "broker" / STAFF_PASSWORD)], hall_log)
        processes[hall] = hall_log
        for n, (name, game) in enumerate(zip(names, GAMES)):
            state = home / name / "cardtable"
            link_log, table_log = home / f"link-{name}.log", home / f"table-{name}.log"
            state.mkdir(parents=True, exist_ok=True)
            processes[started([sys.executable, "-m", "table", "link", "--table", name, *client_options(
                home / "broker", port, name), "--state", str(state)], link_log)] = link_log
            regulars = REGULARS[2 * n % len(REGULARS):][:2]   # two regulars a table, each at one table only
            processes[started([sys.executable, "-m", __name__, str(state), game, str(n + 1), *regulars],
                              table_log)] = table_log
        wait_listening(*web, hall, hall_log)   # its address is said once the hall serves it
        print(f"a café of {tables} tables ({', '.join(f'{n}: {g}' for n, g in zip(names, GAMES))}); its hall: "
              f"http://{web[0]}:{web[1]}/ ; its staff page: http://{web[0]}:{web[1]}/staff (password: "
              f"{staff_password(home / 'broker')}); files and logs in {home}; Ctrl-C stops it", flush=True)
        _wait(processes, seconds)
    finally:
        for process in reversed(processes):
            process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
    return 0


def missing_tools() -> str:
    """The café's tools this machine lacks, said for the user ("": none)."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    return f"Debian's {', '.join(missing)} (sudo apt install mosquitto openssl)" if missing else ""


def client_options(broker: Path, port: int, user: str) -> list[str]:
    """The command-line options of `user`'s client (the hall, a table's link) of the café's broker listening on
    `port`, its files in `broker`."""
    return ["--broker", HOST, "--port", str(port), "--ca", str(broker / "ca.crt"),
            "--password-file", str(broker / "credentials" / user)]


def started(args: list[str], log: Path) -> subprocess.Popen:
    """`args` started as a process, its output added to `log`."""
    with open(log, "a") as out:
        return subprocess.Popen(args, stdout=out, stderr=out)


def stopped(process: subprocess.Popen, log: Path) -> CafeError:
    """The error that says `process` of the café stopped, with the last line of its log, `log`."""
    lines = log.read_text(errors="replace").strip().splitlines()
    said = f'its log {log} ends: "{lines[-1].strip()}"' if lines else f"its log {log} is empty"
    return CafeError(f"a process of the café stopped: {_named(process)}; {said}")


def _named(process: subprocess.Popen) -> str:
    """`process` as its command line begins, e.g. "python3 -m table hall"."""
    return " ".join([Path(process.args[0]).name, *map(str, process.args[1:4])])


def free_port() -> int:
    """A TCP port free on the loopback now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def wait_listening(host: str, port: int, process: subprocess.Popen, log: Path) -> None:
    """Until `process`, its output in `log`, listens at `host`:`port` (CafeError when it stops or takes over
    LISTEN_S)."""
    end = time.monotonic() + LISTEN_S
    while time.monotonic() < end:
        _check_running({process: log})
        try:
            socket.create_connection((host, port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise CafeError(f"{_named(process)} did not listen at {host}:{port} within {LISTEN_S} s (its log: {log})")


def _check_running(processes: dict[subprocess.Popen, Path]) -> None:
    """CafeError when one of `processes` (each with its log) ended."""
    ended = next((p for p in processes if p.poll() is not None), None)
    if ended is not None:
        raise stopped(ended, processes[ended])


def _wait(processes: dict[subprocess.Popen, Path], seconds: float) -> None:
    """Until `seconds` passed (0: until Ctrl-C or SIGTERM), or a process of the café ended (CafeError)."""
    stop, end = stopped_by_signal(), time.monotonic() + seconds if seconds else None
    try:
        while not stop.wait(0.2) and (end is None or time.monotonic() < end):
            _check_running(processes)
    except KeyboardInterrupt:   # Ctrl-C: the café stops, its files kept
        pass


if __name__ == "__main__":   # one simulated table of bots: STATE GAME SEED [REGULAR...]
    play_table(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), 0, PACE_S, tuple(sys.argv[4:]))
