"""The `cardtable` command, in process: demo, replay of the demo's journal, bench."""
from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import re

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
import pytest

from table.bench import pipeline, startup
from table.cli import address, main, web_page
from table.registry import GAMES
from table.storage.journal import Journal

LINE = re.compile(r"seat (\d): (\d+)(  <- winner)?")
FRAME = re.compile(r"(\d{4})-after(\d{3})-(\w+)\.png")


def run(capsys, *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def totals(out: str) -> dict[int, tuple[int, bool]]:
    """seat -> (total, winner) from the demo's output, which is nothing but one line per seat."""
    lines = out.splitlines()
    found = [LINE.fullmatch(line) for line in lines]
    assert all(found), lines
    return {int(m[1]): (int(m[2]), bool(m[3])) for m in found}


@pytest.fixture(scope="module")
def demo_fr(tmp_path_factory):
    folder = tmp_path_factory.mktemp("demo")
    frames, journal = folder / "frames", folder / "game.sqlite"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["demo", "--players", "3", "--seed", "1", "--frames", str(frames),
                     "--journal", str(journal)]) == 0
    return out.getvalue(), frames, journal


def test_demo_prints_one_line_per_seat_with_the_winner_marked(demo_fr):
    out, _, _ = demo_fr
    result = totals(out)
    assert sorted(result) == [1, 2, 3]
    top = max(total for total, _ in result.values())
    assert top > 50   # the game ends when someone passes 50
    assert {seat for seat, (_, won) in result.items() if won} == {s for s, (t, _) in result.items() if t == top}


def test_demo_writes_a_frame_for_every_reveal_step_and_every_hands_scores(demo_fr):
    _, frames, _ = demo_fr
    names = sorted(p.name for p in frames.iterdir())
    parsed = [FRAME.fullmatch(n) for n in names]
    assert all(parsed), [n for n, m in zip(names, parsed) if not m]
    assert [int(m[1]) for m in parsed] == list(range(1, len(names) + 1))   # numbered in order
    rounds = max(int(m[2]) for m in parsed)
    assert rounds % 4 == 0   # whole hands of 4 rounds
    expected = []
    for rnd in range(1, rounds + 1):
        expected += [(rnd, f"reveal{k}") for k in range(4)] + [(rnd, "take")]
        if rnd % 4 == 0:
            expected.append((rnd, "scores"))
        expected.append((rnd, "over" if rnd == rounds else "table"))   # once the table is clear: what next
    assert [(int(m[2]), m[3]) for m in parsed] == expected
    for name in (names[0], names[-1], next(n for n in names if "scores" in n)):
        assert pygame.image.load(str(frames / name)).get_size() == (1280, 720)


def test_demo_keeps_its_journal_and_replaying_it_gives_the_same_totals(demo_fr, capsys):
    out, _, journal = demo_fr
    assert journal.exists()
    state = json.loads(run(capsys, "replay", str(journal), "--json"))
    assert state["phase"] == "over"
    shown = totals(out)
    assert {int(seat): total for seat, total in state["totals"].items()} == {s: t for s, (t, _) in shown.items()}
    assert set(state["winners"]) == {s for s, (_, won) in shown.items() if won}


def test_demo_in_english_draws_the_same_pages_in_another_language(demo_fr, tmp_path, capsys):
    out_fr, frames_fr, _ = demo_fr
    frames = tmp_path / "frames"
    out = run(capsys, "demo", "--players", "3", "--seed", "1", "--frames", str(frames), "--lang", "en")
    assert out == out_fr                      # the same game
    names = sorted(p.name for p in frames.iterdir())
    assert names == sorted(p.name for p in frames_fr.iterdir())
    scores = next(n for n in names if "scores" in n)
    assert (frames / scores).read_bytes() != (frames_fr / scores).read_bytes()


def test_demo_on_noisy_readers_plays_the_same_game(demo_fr, capsys):
    out_fr, _, _ = demo_fr
    out = run(capsys, "demo", "--players", "3", "--seed", "1", "--noise")
    assert totals(out) and out == out_fr


def test_demo_with_other_seeds_and_player_counts(capsys):
    for players, seed in ((4, 2), (6, 3)):
        result = totals(run(capsys, "demo", "--players", str(players), "--seed", str(seed), "--layout", "sim-6-slots"))
        assert sorted(result) == list(range(1, players + 1))
        assert any(won for _, won in result.values())


def test_demo_never_writes_over_a_table_journal_or_another_file_or_seats_too_few_players(tmp_path, capsys):
    journal = tmp_path / "game.sqlite"
    journal.write_bytes(b"")
    assert main(["demo", "--journal", str(journal)]) == 1
    assert "an empty file, not a journal" in capsys.readouterr().err and journal.read_bytes() == b""
    Journal(journal).close()   # a table's journal (run, the simulated window)
    kept = journal.read_bytes()
    with pytest.raises(SystemExit, match="a table's journal, not a demo's"):
        main(["demo", "--journal", str(journal)])
    assert journal.read_bytes() == kept
    with pytest.raises(SystemExit, match="3 to 6 players"):
        main(["demo", "--players", "2"])


def test_the_readme_demo_command_twice(tmp_path, capsys):
    """The second run replaces the journal the first one wrote, and plays the same game."""
    out = tmp_path / "out"
    argv = ["demo", "--players", "3", "--seed", "1", "--frames", str(out), "--journal", str(out / "game.sqlite")]
    first = run(capsys, *argv)
    entries = list(Journal(out / "game.sqlite", read_only=True).entries())
    assert run(capsys, *argv) == first
    again = list(Journal(out / "game.sqlite", read_only=True).entries())
    assert [(kind, data) for _, kind, data in again] == [(kind, data) for _, kind, data in entries]


ENGINE_KEYS = {"actions_per_s": int, "actions_per_wall_s": int, "probe_actions_per_s": int, "vs_probe": float,
               "games_per_s": float, "actions_per_game": float, "input_actions_per_s": int,
               "replay_ms_median": float, "replay_ms_max": float}
PIPELINE_KEYS = {"game": str, "games_per_s": float, "light_changes": int, "laid_to_light_ms_p50": float,
                 "laid_to_light_ms_p95": float, "laid_to_light_ms_p99": float, "read_to_light_us_p50": float,
                 "read_to_light_us_p99": float, "read_to_light_us_max": float}


def check_figures(figures: dict, keys: dict) -> None:
    assert set(figures) == set(keys)
    for key, kind in keys.items():
        assert isinstance(figures[key], (int, float) if kind is float else kind), (key, figures[key])
        if kind is not str:
            assert figures[key] >= 0


def test_bench_engines_prints_json_with_the_documented_figures(capsys):
    figures = json.loads(run(capsys, "bench", "engines", "--json", "--seconds", "0.2"))
    assert set(figures) == set(GAMES)   # every registered engine
    for game in figures.values():
        check_figures(game, ENGINE_KEYS)
        assert game["actions_per_s"] > 0


def test_bench_pipeline_prints_json_with_the_documented_figures(capsys):
    # --seconds 0: exactly one game
    figures = json.loads(run(capsys, "bench", "pipeline", "--json", "--seconds", "0"))
    check_figures(figures, PIPELINE_KEYS)
    assert figures["light_changes"] > 0


def test_bench_pipeline_plays_more_than_one_game(monkeypatch, capsys):
    clock = itertools.count(0.0, 0.01)   # a clock that lets several games start, whatever the machine's speed
    monkeypatch.setattr(pipeline, "perf_counter", lambda: next(clock))
    figures = json.loads(run(capsys, "bench", "pipeline", "--json", "--seconds", "0.2"))
    check_figures(figures, PIPELINE_KEYS)


def test_a_reader_that_goes_away_stops_the_output_quietly(tmp_path):
    """`cardtable replay FILE | head`: the pipe closes early; no traceback, the status of a broken pipe."""
    import subprocess
    import sys
    path = tmp_path / "game.sqlite"
    assert main(["demo", "--players", "3", "--seed", "2", "--journal", str(path)]) == 0
    child = subprocess.Popen([sys.executable, "-m", "table", "replay", str(path)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    child.stdout.close()
    assert child.wait(timeout=60) == 141
    assert b"Traceback" not in child.stderr.read()


def test_ctrl_c_is_a_clean_stop(monkeypatch, capsys):
    import table.bench

    def interrupted(what, seconds):
        raise KeyboardInterrupt
    monkeypatch.setattr(table.bench, "run_bench", interrupted)
    assert main(["bench", "engines"]) == 130
    assert capsys.readouterr().err == "cardtable bench: stopped\n"


def test_a_negative_duration_is_one_line_of_usage(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["bench", "engines", "--seconds", "-1"])
    assert stop.value.code == 2
    assert "invalid duration value: '-1'" in capsys.readouterr().err


@pytest.mark.parametrize("argv, said", [
    (["hall", "--web", "8080"], "invalid address value: '8080'"),
    (["hall", "--web", "hall.local:99999"], "invalid address value: 'hall.local:99999'"),
    (["run", "--spectate", "hall.local/table/t1"], "invalid web_page value: 'hall.local/table/t1'"),
    (["run", "--spectate", "http://hall.local/" + "t" * 90], "invalid web_page value"),
])
def test_a_bad_address_of_the_hall_pages_is_one_line_of_usage(capsys, argv, said):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and said in capsys.readouterr().err


def test_the_pages_address_and_a_tables_spectator_page():
    assert address("0.0.0.0:8080") == ("0.0.0.0", 8080) and address("[::]:80") == ("::", 80)
    assert web_page("http://hall.local:8080/table/t1") == "http://hall.local:8080/table/t1"


def test_bench_startup_measures_the_first_frame_after_finished_games_now_and_as_before_and_the_time_to_ready():
    figures = startup.bench_startup(counts=(0, 3))
    assert set(figures) == {f"first_frame_ms_{n}_games{how}" for n in (0, 3) for how in ("", "_one_journal_before")
                            } | {"ready_ms_dummy_display", "ready_ms_headless"}
    assert all(isinstance(v, float) and v > 0 for v in figures.values())


def test_a_neurotrio_demo_shows_its_grid_as_it_grows(tmp_path, capsys):
    """A frame each time the domain grows by a card, besides each resolution."""
    frames = tmp_path / "frames"
    run(capsys, "demo", "--game", "neurotrio", "--players", "3", "--seed", "1", "--frames", str(frames))
    grown = [p.name for p in sorted(frames.iterdir()) if p.name.endswith("-domain.png")]
    assert len(grown) >= 30, "the domain is drawn as it grows, not only at the end"


def test_a_chevaux_demo_plays_at_the_players_pace_and_ends_at_its_time_limit(tmp_path, capsys):
    """Bots act at once; the demo's table clock gives each input the players' pace, so the game clock runs out
    after a reasonable number of rounds, and the game ends as its rules say (time up: most cards win)."""
    from table.session.replay import replay_journal
    path = tmp_path / "demo.sqlite"
    run(capsys, "demo", "--game", "chevaux", "--players", "3", "--seed", "1", "--journal", str(path))
    state = replay_journal(path)
    assert state["phase"] == "over" and state["time_up"] and 20 <= state["round"] <= 60
    most = max(state["totals"].values())
    assert state["winners"] == [int(seat) for seat, total in state["totals"].items() if total == most]
