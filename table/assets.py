"""Where the table's data lives (decks, translations, fonts) and how it is read."""
from __future__ import annotations

import os
import tomllib
from functools import cache
from pathlib import Path

ASSETS = Path(os.environ.get("CARDTABLE_ASSETS", Path(__file__).resolve().parent.parent / "assets"))


@cache
def deck_data(game: str) -> dict:
    """The parsed deck file of a game (assets/decks/GAME.toml)."""
    with open(ASSETS / "decks" / f"{game}.toml", "rb") as f:
        return tomllib.load(f)
