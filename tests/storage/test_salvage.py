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
from table.games import GAMES, deck_for
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
    state, rng = rules.new_game(deck_for(game), players, 0, info.defaults()), random.Random(seed)
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
    db.execute("INSERT INTO entries (seq, at, kind, data, link) VALUES (?, ?, ?, ?, ?)", (seq + 1, at, kind, text, digest))
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
        table.session._staff_card()                                             # staff saw it
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
