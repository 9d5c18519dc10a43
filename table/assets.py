"""Where the table's data lives (decks, translations, fonts) and how it is read."""
from __future__ import annotations

import os
import tomllib
from functools import cache
from pathlib import Path

ASSETS = Path(os.environ.get("CARDTABLE_ASSETS", Path(__file__).resolve().parent.parent / "assets"))


@cache
def deck_data(deck: str) -> dict:
    """The parsed deck file `assets/decks/DECK.toml` (a deck may serve several games)."""
    with open(ASSETS / "decks" / f"{deck}.toml", "rb") as f:
        return tomllib.load(f)
