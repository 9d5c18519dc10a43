"""The journal file: WAL, private, ordered, versioned; and `cardtable replay` of it."""
from __future__ import annotations

import json
import random
import sqlite3
import stat

import pytest

from table.cli import main
from table.events import Accepted
from table.layout import load_layout
from table.session.replay import public_state, replay_journal
from table.games.feira_torio.bots import Players as FeiraTorioPlayers
from table.sim.simulated_table import SimulatedTable
from table.storage import StorageRefused
from table.storage.journal import FORMAT, Journal


def test_a_file_journal_is_in_wal_mode_with_full_sync(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    journal.append("join", {"seat": 1})
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2   # FULL
    other = sqlite3.connect(path)   # WAL is a property of the file: another connection sees it too
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    other.close()
    journal.close()


def test_the_journal_file_is_private(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    journal.append("join", {"seat": 1})   # it holds sealed bids
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    for side in tmp_path.glob("journal.sqlite-*"):   # the WAL and shared-memory files hold them too
        assert stat.S_IMODE(side.stat().st_mode) == 0o600, side.name
    journal.close()


def test_entries_come_back_in_order_with_their_data_after_reopening(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    written = [("join", {"seat": 3}), ("join", {"seat": 1}), ("join", {"seat": 6}),
               ("start", {"game": "feira-torio", "seats": [1, 3, 6], "dealer": 2}),
               ("action", {"type": "PlaceLot", "position": 0, "card": "TA07"}),
               ("action", {"type": "Bid", "player": 1, "position": 3, "card": "VA01"})]
    seqs = [journal.append(kind, data) for kind, data in written]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    journal.close()
    journal = Journal(path)
    entries = list(journal.entries())
    assert [seq for seq, _, _ in entries] == seqs
    assert [(kind, data) for _, kind, data in entries] == written
    journal.append("lobby", {"seats": [1, 3, 6]})
    assert list(journal.entries())[-1][1:] == ("lobby", {"seats": [1, 3, 6]})
    journal.close()


def test_an_in_memory_journal_works_the_same():
    journal = Journal()
    journal.append("join", {"seat": 2})
    assert list(journal.entries()) == [(1, "join", {"seat": 2})]


def test_a_journal_of_another_format_is_refused_with_a_clear_error(tmp_path):
    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = ? WHERE key = 'format'", (str(FORMAT + 1),))
    db.commit()
    db.close()
    with pytest.raises(StorageRefused, match=rf"journal format {FORMAT + 1}.*format {FORMAT}") as error:
        Journal(path)
    assert str(path) in str(error.value)


# ---------------------------------------------------------------- replay

@pytest.fixture(scope="module")
def game_journals(tmp_path_factory):
    """A bot game on the simulated table with a file journal, and copies of its first entries at a few
    points (in the lobby, mid-hand just after a reveal, mid-bidding); with the live session's public
    state at each of those points."""
    folder = tmp_path_factory.mktemp("replay")
    path = folder / "game.sqlite"
    journal = Journal(path)
    sim = SimulatedTable(load_layout("sim-6-slots"), journal, seed=4)
    live: dict[int, dict] = {}   # journal length -> the live public state then

    def on_accepted(_event: Accepted) -> None:
        live[sum(1 for _ in journal.entries())] = public_state(sim.session)

    sim.table.bus.subscribe(Accepted, on_accepted)
    try:
        players = FeiraTorioPlayers(sim, [2, 3, 5, 6], random.Random(4))
        players.join_and_start()
        players.play()
        entries = list(journal.entries())
    finally:
        sim.close()
        journal.close()
    types = [data.get("type") for _, _, data in entries]
    points = {
        "lobby": 2,
        "mid-hand": next(k for k in range(80, len(entries)) if types[k - 1] == "Bid" and types[k] == "PlaceLot"),
        "bidding": next(k for k in range(60, len(entries)) if types[k - 1] == "Bid" and types[k] == "Bid"),
        "end": len(entries),
    }
    files, cuts = {"end": path}, {}
    for name, k in points.items():
        cuts[name] = live[k]
        if name != "end":
            files[name] = folder / f"{name}.sqlite"
            copy = Journal(files[name])
            for _, kind, data in entries[:k]:
                copy.append(kind, data)
            copy.close()
    return files, cuts


def replay_json(capsys, path) -> dict:
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1, "--json prints one line"
    return json.loads(out)


def as_json(value) -> dict:
    return json.loads(json.dumps(value))


def test_replay_json_of_a_finished_game_is_the_live_sessions_public_state(game_journals, capsys):
    files, cuts = game_journals
    got = replay_json(capsys, files["end"])
    assert got == as_json(cuts["end"])
    assert {"game", "phase", "hand", "totals", "holdings", "centre", "first_bid", "discards", "scores",
            "history", "seats"} <= set(got)
    assert got["game"] == "feira-torio" and got["phase"] == "over"
    assert set(got["totals"]) == {"2", "3", "5", "6"} and got["seats"] == [2, 3, 5, 6]
    assert len(got["holdings"]) == len(got["scores"]) == 4   # per player: player p sits at seats[p]
    assert all(isinstance(t, int) for t in got["totals"].values())
    assert got["winners"] and all(got["totals"][str(w)] == max(got["totals"].values()) for w in got["winners"])


@pytest.mark.parametrize("cut", ["mid-hand", "bidding"])
def test_replay_json_mid_game_is_the_public_state_at_that_point(game_journals, capsys, cut):
    files, cuts = game_journals
    got = replay_json(capsys, files[cut])
    assert got == as_json(cuts[cut])
    assert got["phase"] in ("lots", "bidding")
    if cut == "bidding":
        committed = [c for row in got["committed"] for c in row]
        assert any(committed) and not all(committed)
        assert all(isinstance(h, list) or h is None for h in got["holdings"])


def test_replay_of_a_journal_still_in_the_lobby(game_journals, capsys):
    files, cuts = game_journals
    got = replay_json(capsys, files["lobby"])
    assert got == {"format": 2, "game": "feira-torio", "phase": "lobby", "joined": [2, 3], "options": {}, "names": {}} == \
        as_json(cuts["lobby"])


def test_replay_without_json_prints_the_same_state_indented(game_journals, capsys):
    files, cuts = game_journals
    capsys.readouterr()
    assert main(["replay", str(files["end"])]) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == as_json(replay_journal(files["end"])) == as_json(cuts["end"])
    assert out.count("\n") > 10


def test_replay_of_a_missing_journal_is_one_line(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nothing.sqlite"), "--json"]) == 1
    assert capsys.readouterr().err == f"cardtable replay: no journal at {tmp_path / 'nothing.sqlite'}\n"
    assert not (tmp_path / "nothing.sqlite").exists()


def test_a_write_ahead_log_without_its_journal_is_refused_and_never_deleted(tmp_path, capsys, monkeypatch):
    """SQLite would delete a -wal it cannot use, and the acknowledged inputs in it with it. `replay` refuses
    it; `run` moves it aside, kept whole, and starts afresh."""
    import os

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    path = tmp_path / "journal.sqlite"
    live = Journal(path)
    live.append("join", {"seat": 1})
    wal = (tmp_path / "journal.sqlite-wal")
    kept = wal.read_bytes()            # the acknowledged join is in the log, not yet in the database
    live.close()
    os.remove(path)
    wal.write_bytes(kept)
    with pytest.raises(StorageRefused, match="journal.sqlite-wal: exists without"):
        Journal(path)
    assert main(["replay", str(path)]) == 1   # replay: refused in one line naming the -wal, nothing created
    assert "journal.sqlite-wal: exists without" in capsys.readouterr().err
    assert wal.read_bytes() == kept and not path.exists()
    assert main(["run", "--journal", str(path), "--hardware", "simulated", "--frames", "1"]) == 0
    [aside] = tmp_path.glob("journal.sqlite.refused-*-wal")
    assert aside.read_bytes() == kept and not wal.exists()
