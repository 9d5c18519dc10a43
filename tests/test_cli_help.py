"""`cardtable --help`, as `python -m table` and as `python -m table.cli`: every command listed, none of their bodies
(nor pygame) loaded."""
from __future__ import annotations

import subprocess
import sys

import pytest

COMMANDS = ("run", "demo", "replay", "history", "enrol", "bench", "doctor", "fallback", "backup", "restore", "ended",
            "layout", "link", "hall", "cafe")


@pytest.mark.parametrize("module", ["table", "table.cli"])
def test_help_lists_every_command(module):
    result = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=60,
                            check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: cardtable ")
    assert "{" + ",".join(COMMANDS) + "}" in result.stdout   # every command, in this order


def test_help_loads_only_what_declares_the_commands():
    script = ("import sys\nfrom table.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
              "print(*sorted(m for m in sys.modules if m.startswith(('table', 'pygame')) and "
              "not m.startswith('table.games.')), file=sys.stderr)")
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                            check=False).stderr.split()
    assert loaded == ["table", "table.assets", "table.cli", "table.games", "table.registry", "table.storage"]
