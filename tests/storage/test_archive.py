"""A journal per game: a finished game moves to a verified archive and its result to the history, even across a
power cut in the middle of the move; `cardtable history` lists and exports them."""
from __future__ import annotations

import csv
import hashlib
import io
import json
import random
import shutil
import sqlite3
import stat
from contextlib import closing

import pytest

from table.cli import main
from table.events import EventBus
from table.registry import GAMES
from table.games.kit import codec
from table.layout import load_layout
from table.session.replay import public_state, replay_journal
from table.session.table_session import TableSession
from table.sim.simulated_table import SimulatedTable
from table.storage import journal as journal_module
from table.storage.files import TableFiles
from table.storage.history import History, Played as Recorded
from table.storage.journal import Journal
from tests.games.tables import Played

LAYOUT = load_layout("sim-6-single")
SEATS = [1, 2, 3]


def game_entries(seed: int, joins: bool) -> list[tuple[str, dict]]:
    """A whole random legal Feira Torio game at seats 1-3 as journal entries, ended by the press back to the
    lobby; `joins`: the seats join first."""
    played = Played.record(GAMES["feira-torio"].rules, GAMES["feira-torio"].deck, 3, seed)
    first = random.Random(seed).randrange(3)   # the recorder's first draw
    return ([("join", {"seat": s}) for s in SEATS] if joins else []) + [
        ("start", {"game": "feira-torio", "options": {}, "seats": SEATS, "first": first}),
        *(("action", codec.to_json(a)) for a in played.actions),
        ("lobby", {"seats": SEATS})]


def write(path, entries) -> None:
    journal = Journal(path)
    for kind, data in entries:
        journal.append(kind, data)
    journal.close()


def session_on(files: TableFiles) -> TableSession:
    return TableSession(LAYOUT, None, files.journal, EventBus())


@pytest.fixture
def one_game(tmp_path):
    """Bots play a whole game at a running table (its journal, history and archives on disk), then a seat
    presses OK back to the lobby: the public state at the game's end, and the table's folder."""
    files = TableFiles(tmp_path / "journal.sqlite")
    sim = SimulatedTable(LAYOUT, files.journal, game="feira-torio", seed=3)
    bots = GAMES["feira-torio"].bots.Players(sim, SEATS, random.Random(3))
    bots.join_and_start()
    bots.play()
    ended = json.loads(json.dumps(public_state(sim.session)))
    sim.press(2, "ok")
    assert sim.session.state is None and sim.session.joined == SEATS
    sim.close()
    files.close()
    return ended, tmp_path


def test_a_finished_game_moves_to_a_verified_archive_and_its_result_to_the_history(one_game):
    ended, folder = one_game
    [archive] = (folder / "games").iterdir()
    assert json.loads(json.dumps(replay_journal(archive))) == ended, "the archive replays to the game's end"
    assert stat.S_IMODE(archive.stat().st_mode) == 0o400
    live = list(Journal(folder / "journal.sqlite", read_only=True).entries())
    assert [(kind, data) for _, kind, data in live] == [
        ("menu", {"game": "feira-torio", "options": {}, "cursor": -1, "teach": False}),
        *(("join", {"seat": s}) for s in SEATS)], "the live journal holds only the lobby the game left"
    [row] = TableFiles(folder / "journal.sqlite").journal.history.games()
    assert row["game"] == "feira-torio" and row["seats"] == SEATS and row["options"] == {}
    assert row["scores"] == ended["totals"] and row["winners"] == ended["winners"]
    assert row["journal"] == archive.name and row["sha256"] == hashlib.sha256(archive.read_bytes()).hexdigest()
    assert row["started"] < row["ended"] and row["duration_s"] > 0
    archived = list(Journal(archive, read_only=True).entries())
    start = next(seq for seq, kind, _ in archived if kind == "start")
    assert (row["first_seq"], row["last_seq"]) == (start, len(archived)) and archived[-1][1] == "action"


def test_the_table_goes_on_from_the_lobby_the_archived_game_left(one_game):
    _, folder = one_game
    files = TableFiles(folder / "journal.sqlite")
    session = session_on(files)
    assert session.state is None and session.joined == SEATS and session.menu.game == "feira-torio"
    session._menu(1, "ok")   # seat 1 starts the next game at once: the three seats are still joined
    assert session.state is not None and session.players == tuple(SEATS)
    files.close()


def test_a_game_cut_off_before_its_archive_is_archived_at_the_next_start(tmp_path):
    """A power cut after the press back to the lobby was journaled, before the game was archived (or a
    journal written before journals were rotated): the next start archives every finished game, once."""
    path = tmp_path / "journal.sqlite"
    in_play = game_entries(4, joins=False)[:40]
    write(path, game_entries(1, joins=True) + game_entries(2, joins=False) + game_entries(3, joins=False) + in_play)
    shutil.copy(path, tmp_path / "before.sqlite")
    before = TableSession(LAYOUT, None, Journal(tmp_path / "before.sqlite", read_only=True), EventBus()).state
    files = TableFiles(path)
    session = session_on(files)
    assert session.state == before, "the game in play goes on where it was"
    rows = files.journal.history.games()
    assert [r["first_seq"] for r in rows][0] == 4 and len(rows) == 3
    assert len({r["journal"] for r in rows}) == 1, "one archive holds the three games cut off together"
    kinds = [kind for _, kind, _ in files.journal.entries()]
    assert kinds[:4] == ["menu", "join", "join", "join"] and kinds[4] == "start" and "lobby" not in kinds
    assert len(kinds) == 4 + len(in_play)
    files.close()
    again = TableFiles(path)
    assert session_on(again).state == before and len(again.journal.history.games()) == 3, "archived once"
    again.close()


def test_a_failing_card_while_archiving_keeps_the_game_journaled_and_play_goes_on(tmp_path, monkeypatch):
    """The archive and the history row are written, then the journal cannot be replaced (a full card, or a
    power cut there): the table plays on, and the next start finishes the move without a second row."""
    path = tmp_path / "journal.sqlite"
    write(path, game_entries(5, joins=True))

    def failing(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(journal_module, "_replace", failing)
    files = TableFiles(path)
    session = session_on(files)
    assert session.state is None and session.joined == SEATS
    assert "lobby" in [kind for _, kind, _ in files.journal.entries()], "the game is still in the journal"
    session._menu(1, "ok")
    assert session.state is not None, "and the table plays on"
    files.close()
    monkeypatch.undo()
    write(path, [])
    files = TableFiles(path)
    session = session_on(files)
    assert session.state is not None and len(files.journal.history.games()) == 1
    assert [kind for _, kind, _ in files.journal.entries()][:5] == ["menu", "join", "join", "join", "start"]
    files.close()


def test_history_lists_and_exports_the_finished_games(one_game, capsys, tmp_path_factory):
    ended, folder = one_game
    journal = str(folder / "journal.sqlite")
    capsys.readouterr()
    assert main(["history", "--journal", journal]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[0] == "1" and "feira-torio" in lines[1] and lines[-1] == "1 game; * winner"
    assert main(["history", "--journal", journal, "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["scores"] == ended["totals"]
    assert main(["history", "--journal", journal, "--csv"]) == 0
    [line] = csv.DictReader(io.StringIO(capsys.readouterr().out))
    assert line["game"] == "feira-torio" and json.loads(line["scores"]) == ended["totals"]
    out = tmp_path_factory.mktemp("export")
    assert main(["history", "--journal", journal, "--export", "1", str(out)]) == 0
    [copy] = out.iterdir()
    assert json.loads(json.dumps(replay_journal(copy))) == ended


def test_history_refuses_an_archive_changed_since_it_was_archived(one_game, capsys, tmp_path_factory):
    _, folder = one_game
    out = tmp_path_factory.mktemp("export")
    [archive] = (folder / "games").iterdir()
    archive.chmod(0o600)
    archive.write_bytes(archive.read_bytes()[:-1] + b"\x01")
    capsys.readouterr()
    assert main(["history", "--journal", str(folder / "journal.sqlite"), "--export", "1", str(out)]) == 1
    err = capsys.readouterr().err
    assert "changed or damaged" in err and err.count("\n") == 1 and not list(out.iterdir())
    assert main(["history", "--journal", str(folder / "journal.sqlite"), "--export", "9", str(out)]) == 1
    assert "no game number 9" in capsys.readouterr().err


def test_history_of_a_table_that_never_finished_a_game(tmp_path, capsys):
    assert main(["history", "--journal", str(tmp_path / "journal.sqlite")]) == 0
    assert "no finished game yet" in capsys.readouterr().err
    assert not list(tmp_path.iterdir()), "nothing created"


def test_a_history_of_format_1_is_read_as_it_is_and_upgraded_when_written_keeping_every_game(tmp_path):
    """Histories made before player cards have no players column: `cardtable history` reads them (no players),
    and the table's next write adds the column, every game kept with no players."""
    path = tmp_path / "history.sqlite"
    with closing(sqlite3.connect(path)) as db:
        db.executescript("""
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO meta VALUES ('kind', 'history'), ('format', '1');
            CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,
                seats TEXT NOT NULL, scores TEXT NOT NULL, winners TEXT NOT NULL, started TEXT NOT NULL,
                ended TEXT NOT NULL, duration_s REAL NOT NULL, journal TEXT NOT NULL, first_seq INTEGER NOT NULL,
                last_seq INTEGER NOT NULL, sha256 TEXT NOT NULL, UNIQUE (journal, first_seq));
            INSERT INTO games VALUES (1, 'sweep', '{}', '[1, 2, 3]', '{"1": 5, "2": 9, "3": 1}', '[2]',
                '2026-11-01T20:00:00+00:00', '2026-11-01T20:30:00+00:00', 1800, 'a.sqlite', 1, 90, 'ab');
        """)
        db.commit()
    read = History(path, read_only=True)
    assert [g["players"] for g in read.games()] == [{}]
    read.close()
    history = History(path)
    history.record([Recorded("sweep", {}, [1, 2], {"1": 3, "2": 4}, [2], "2026-11-02T20:00:00+00:00",
                           "2026-11-02T20:20:00+00:00", 1, 50, "b.sqlite", "cd",
                           {"2": {"id": "p-00000000a11c", "name": "Alice"}})])
    games = history.games()
    history.close()
    assert [g["players"] for g in games] == [{}, {"2": {"id": "p-00000000a11c", "name": "Alice"}}]
    assert games[0]["scores"] == {"1": 5, "2": 9, "3": 1}
