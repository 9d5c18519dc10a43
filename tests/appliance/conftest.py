"""The installer (systemd/install.py, a script run with the system's python3), loaded as a module."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "systemd" / "install.py"


@pytest.fixture(scope="session")
def installer():
    spec = importlib.util.spec_from_file_location("cardtable_install", INSTALL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
