"""A journal that does not restore never stops the table and loses nothing.

Under `run` the table resumes at the last entry that restores; the whole
original file is moved aside with its -wal, byte for byte, and staff see
which entry was refused, why and where the file was kept. `replay` says the
same in one line, never a traceback, and never writes (a table draw that is
due is shown as due).
"""
from __future__ import annotations

import random
import shutil
import sqlite3

import pytest

from table.cli import main
from table.events import EventBus
from table.registry import GAMES
from table.games.kit.codec import to_json
from table.layout import load_layout
from table.session.replay import public_state, replay_journal
from table.session.table_session import TableSession
from table.storage.chain import link
from table.storage.journal import Journal

JOINS = [("join", {"seat": s}) for s in (1, 2, 3)]
START = ("start", {"game": "feira-torio", "options": {}, "seats": [1, 2, 3], "first": 0})


def legal_entries(game: str = "feira-torio", players: int = 3, until=None, seed: int = 3) -> list:
    """A legal journal of `game`: menu, joins, start, then random legal actions until `until(need)` (or 12)."""
    info = GAMES[game].info
    rules = GAMES[game].rules
    seats = list(range(1, players + 1))
    entries = [("menu", {"game": game, "options": {}, "cursor": -1}), *(("join", {"seat": s}) for s in seats),
               ("start", {"game": game, "options": info.defaults(), "seats": seats, "first": 0})]
    state, rng = rules.new_game(GAMES[game].deck, players, 0, info.defaults()), random.Random(seed)
    while not (until(rules.need(state)) if until else len(entries) >= 12):
        action = rng.choice(rules.legal_actions(state))
        entries.append(("action", to_json(action)))
        state = rules.apply(state, action)
    return entries


def cut_journal(folder, entries, raw: dict[int, tuple[str, str]] | None = None):
    """A journal in `folder` as a power cut leaves it: its entries in the write-ahead log (-wal beside it), entry
    numbers in `raw` stored as (kind, text) whatever they hold. Returns its path."""
    live = folder / "live"
    live.mkdir()
    journal = Journal(live / "journal.sqlite")
    for seq, (kind, data) in enumerate(entries, 1):
        if raw and seq in raw:
            append_raw(journal, *raw[seq])
        else:
            journal.append(kind, data)
    path = folder / "journal.sqlite"
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{live / 'journal.sqlite'}{suffix}", f"{path}{suffix}")   # while it is open: the cut
    journal.close()
    return path


def append_raw(journal: Journal, kind: str, text: str) -> None:
    """Append an entry of `kind` whose data is `text` as stored, chained, as a table with a bug would have
    journaled it (Journal.append takes only what json.dumps makes)."""
    seq, previous = journal._head
    at = "2026-11-27T10:00:00.000+00:00"
    digest = link(previous, seq + 1, at, kind, text)
    db = journal._writer()
    db.execute("INSERT INTO entries (seq, at, kind, data, link) VALUES (?, ?, ?, ?, ?)",
               (seq + 1, at, kind, text, digest))
    db.execute("INSERT OR REPLACE INTO meta VALUES ('head', ?)", (f"{seq + 1} {digest}",))
    journal._head = (seq + 1, digest)


def files(path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.parent.glob(path.name + "*")) if p.is_file()}


DAMAGES = {
    "data that is not JSON": ({10: ("action", "{not json")}, "its data is not JSON"),
    "data that is no object": ({10: ("action", "[1, 2]")}, "not a JSON object"),
    "an action the rules refuse": ({10: ("action", '{"type": "Bid", "player": 0, "position": 0, "card": "ZZ99"}')},
                                   "entry 10"),
    "back to the lobby mid-game": ({10: ("lobby", '{"seats": [1, 2, 3]}')}, "before the game is over"),
    "an unknown kind": ({10: ("teleport", "{}")}, "unknown entry kind"),
    "a missing field": ({10: ("cursor", "{}")}, "missing field 'at'"),
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_replay_names_the_damaged_entry_in_one_line_and_writes_nothing(tmp_path, capsys, damage):
    raw, words = DAMAGES[damage]
    path = cut_journal(tmp_path, legal_entries(), raw)
    before = files(path)
    assert main(["replay", str(path), "--json"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"cardtable replay: {path}: journal entry 10: ") and words in err, err
    assert files(path) == before


@pytest.mark.parametrize("damage", DAMAGES)
def test_run_resumes_at_the_last_entry_that_restores_and_keeps_the_whole_file(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    raw, _ = DAMAGES[damage]
    entries = legal_entries()
    path = cut_journal(tmp_path, entries, raw)
    before = files(path)
    from table.sim.window import SimWindow
    shown = []
    monkeypatch.setattr(SimWindow, "frame", lambda self, real=SimWindow.frame: shown.append(
        self.sim.table.table_view()) or real(self))
    assert main(["run", "--journal", str(path), "--hardware", "simulated", "--frames", "2"]) == 0
    kept = sorted(tmp_path.glob("journal.sqlite.refused-*"))
    assert [p.name.rsplit("-", 1)[-1] if p.name.endswith("-wal") else "" for p in kept] == ["", "wal"]
    assert {name.replace(kept[0].name, "journal.sqlite"): data for name, data in files(kept[0]).items()} == before
    notice = shown[0]["notice"]
    assert (notice["key"], notice["params"]["entry"], notice["params"]["kept"]) == \
           ("journal_entry_refused", 10, kept[0].name)
    assert shown[0]["mode"] == "game"                                           # the game goes on
    nine = Journal()
    for kind, data in entries[:9]:
        nine.append(kind, data)
    expected = public_state(TableSession(load_layout("sim-8-single"), None, nine, EventBus()))
    assert replay_journal(path) == expected                                     # from the entry before it
    assert main(["run", "--journal", str(path), "--hardware", "simulated", "--frames", "1"]) == 0
    assert len(list(tmp_path.glob("journal.sqlite.refused-*"))) == 2           # a sound journal stays


def test_the_health_page_keeps_the_notice_after_the_banner(tmp_path):
    from table.hardware import build
    from table.pipeline import Table
    from table.storage.registry import TagRegistry
    path = cut_journal(tmp_path, legal_entries(), {11: ("action", "{")})
    layout = load_layout("sim-6-single")
    table = Table(layout, build.simulated(layout), TagRegistry(), Journal(path))
    try:
        assert table.table_view()["notice"]["params"]["entry"] == 11
        assert [c["key"] for c in table.checkup()][:2] == ["journal", "journal_entry_refused"]
        table.session._open_staff_menu()                                        # staff saw it
        assert table.table_view()["notice"] is None
        assert "journal_entry_refused" in [c["key"] for c in table.checkup()]
    finally:
        table.close()


@pytest.mark.parametrize("game, players", [("sweep", 3), ("five-cards", 2)])
def test_replay_of_a_journal_stopping_where_a_table_draw_is_due_shows_it_due_and_writes_nothing(
        tmp_path, capsys, game, players):
    entries = legal_entries(game, players, until=lambda need: need.table_draw)
    path = cut_journal(tmp_path, entries)
    before = files(path)
    assert main(["replay", str(path), "--json"]) == 0
    import json
    state = json.loads(capsys.readouterr().out)
    assert state["to_act"]["how"] == "table_draw"
    assert files(path) == before
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    assert db.execute("SELECT count(*) FROM entries").fetchone()[0] == len(entries)
    db.close()


# ------------------------------------------------------------ found in review: each failed before its fix


def test_a_game_the_staff_chose_is_kept_across_a_restart_with_nobody_joined(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    journal.append("menu", {"game": "sweep", "options": {}, "cursor": -1})
    journal.close()
    session = TableSession(load_layout("sim-6-single"), None, Journal(path), EventBus())
    assert session.menu.game == "sweep" and replay_journal(path)["game"] == "sweep"


def test_a_game_in_play_behind_a_finished_one_keeps_its_numbers_when_the_start_archives_the_first(tmp_path):
    """The start-up archive renumbers the journal: the game in play is archived later with its own start."""
    from table.storage.files import TableFiles
    from tests.storage.test_full_card import finished_game
    first = finished_game(seed=1)
    second = finished_game(seed=2)
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)                                                    # no history: nothing archived
    for kind, data in [*first, ("lobby", {"seats": [1, 2]}), *second[3:]]:    # game 2: its start and actions
        journal.append(kind, data)
    journal.close()
    files = TableFiles(path)
    session = TableSession(load_layout("sim-6-single"), None, files.journal, EventBus())
    assert [g["game"] for g in files.journal.history.games()] == ["five-cards"]   # game 1, archived at the start
    heard = []
    session.bus.subscribe(__import__("table.events").events.Refused, heard.append)
    session._staff_do("to_lobby")                                              # game 2 over: back to the lobby
    games = files.journal.history.games()
    files.close()
    assert not heard and len(games) == 2
    archive = tmp_path / "games" / games[1]["journal"]
    rows = [kind for _, kind, _ in Journal(archive, read_only=True).rows()]
    assert rows[games[1]["first_seq"] - 1] == "start"                          # its own start entry
    assert replay_journal(archive)["phase"] == "over"


def test_a_stored_head_or_data_that_is_no_text_is_refused_in_one_line(tmp_path, capsys):
    for edit in ("UPDATE meta SET value = 'x y' WHERE key = 'head'",
                 "UPDATE entries SET data = CAST(data AS BLOB) WHERE seq = 4"):
        path = tmp_path / f"{len(list(tmp_path.iterdir()))}.sqlite"
        journal = Journal(path)
        for kind, data in legal_entries():
            journal.append(kind, data)
        journal.close()
        db = sqlite3.connect(path)
        db.execute(edit)
        db.commit()
        db.close()
        assert main(["replay", str(path)]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "journal entry" in err and "Traceback" not in err


def test_replay_of_a_journal_with_its_wal_and_shm_changes_neither(tmp_path, capsys):
    live = tmp_path / "live"
    live.mkdir()
    journal = Journal(live / "journal.sqlite")
    for kind, data in legal_entries():
        journal.append(kind, data)
    for suffix in ("", "-wal", "-shm"):                                        # a power cut: all three left
        shutil.copyfile(f"{live / 'journal.sqlite'}{suffix}", f"{tmp_path / 'journal.sqlite'}{suffix}")
    journal.close()
    path = tmp_path / "journal.sqlite"
    before = files(path)
    assert set(before) == {"journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm"}
    assert main(["replay", str(path), "--json"]) == 0
    assert files(path) == before


# ------------------------------------------------------------ found by a hostile run: each failed before its fix


@pytest.mark.parametrize("seq, kind, text, words", [
    (3, "join", '{"seat": true}', "no seat number"),
    (12, "action", '{"type": "' + "x" * 200_000 + '"}', "…"),
])
def test_entries_the_chain_cannot_see_are_refused_in_one_short_line(tmp_path, capsys, seq, kind, text, words):
    path = cut_journal(tmp_path, legal_entries(), {seq: (kind, text)})
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and len(err) < 400


def test_entry_times_that_cannot_be_compared_count_no_time(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite")
    for kind, data in legal_entries()[:3]:
        journal.append(kind, data)
    journal._writer().execute("UPDATE entries SET at = 'yesterday' WHERE seq = 1")
    assert journal.seconds_between(1, 3) == 0.0
    journal._writer().execute("UPDATE entries SET at = '2026-11-27T10:00:00' WHERE seq = 1")   # no time zone
    assert journal.seconds_between(1, 3) == 0.0


def test_a_journal_without_its_entries_table_is_set_aside_and_the_table_goes_on(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    for kind, data in legal_entries():
        journal.append(kind, data)
    journal.close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE entries")
    db.commit()
    db.close()
    assert main(["run", "--journal", str(path), "--hardware", "simulated", "--frames", "1"]) == 0
    assert len(list(tmp_path.glob("journal.sqlite.refused-*"))) == 1
    assert replay_journal(path)["phase"] == "lobby"


def test_a_refused_entrys_reason_names_its_fields_never_their_values(tmp_path, capsys):
    """A malformed sealed bid: replay (and the staff notice) says which fields, never which card."""
    path = cut_journal(tmp_path, legal_entries(), {12: (
        "action", '{"type": "Bid", "player": 0, "position": 0, "card": "VA03", "extra": 1}')})
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "journal entry 12: not an action of this game: type Bid with fields" in err and "VA03" not in err
