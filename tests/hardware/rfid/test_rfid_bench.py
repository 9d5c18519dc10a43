"""`cardtable bench readers`: figures from the emulator, for our driver and for mfrc522 0.0.7."""
from __future__ import annotations

import json

from table.cli import main


def test_bench_readers_prints_json_figures_for_both_backends(capsys):
    capsys.readouterr()
    assert main(["bench", "readers", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert all(isinstance(value, (int, float)) and value >= 0 for value in figures.values())
    ours = [figures["ours_%s_poll_transfers" % name] for name in ("empty", "uid4", "uid7", "uid10")]
    assert ours == sorted(ours) and ours[0] <= 12 and ours[-1] <= 60
    for name in ("empty", "uid4", "uid7", "uid10"):
        assert figures["ours_%s_poll_modelled_transfers" % name] >= figures["ours_%s_poll_transfers" % name]
        assert figures["ours_%s_left_poll_modelled_us" % name] < figures["ours_%s_poll_modelled_us" % name]
        assert figures["ours_round_ms_%s" % name] == round(9 * figures["ours_%s_left_poll_modelled_us" % name] / 1e3, 1)
        assert figures["ours_scans_per_s_%s" % name] >= figures["hub_scans_per_s_%s" % name] > 0
    assert figures["hub_scans_per_s_uid7"] >= 25                  # issue 21: 9 pads of NTAGs on each hub (goal 40)
    assert figures["ours_laid_to_placed_ms_p95"] < figures["hub_laid_to_placed_ms_p95"] < 100
    assert figures["mfrc522_empty_poll_transfers"] > 100 * figures["ours_empty_poll_transfers"]
    assert figures["mfrc522_uid4_left_reads_per_10_polls"] == 5
