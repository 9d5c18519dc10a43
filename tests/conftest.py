"""Every test runs without a screen or sound card."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def out(tmp_path_factory, request):
    """Where a module's PNGs go: $CARDTABLE_SCREENS (to look at them) or a temporary folder."""
    folder = os.environ.get("CARDTABLE_SCREENS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        return Path(folder)
    return tmp_path_factory.mktemp(request.module.__name__.removeprefix("test_"))
