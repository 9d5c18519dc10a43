"""The player cards the café's hall knows (docs/cafe.md): players.json, written by the link in its own folder from
what the hall publishes, read by the table so that a regular's card enrolled at another table seats them here too.

One writer per file: the link writes it (a whole new file, renamed into place), the table only reads it, again
whenever it changed. A file missing, unreadable or malformed is no card at all, never an error; each card is
checked as the registry checks its own (a UID, a player id, a name the screen can show).
"""
from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from table.storage.outbox import link_file
from table.storage.registry import UID, Tag, player_problem, player_tag

FILE = "players.json"
FORMAT = 1
SHADOWS = ("card", "staff", "player", "retired")   # why a table's registry keeps a hall's card (`shadowed`)
LARGEST = 2 << 20   # bytes: twice the largest message the broker passes; a larger players.json is not read

log = logging.getLogger(__name__)


def hall_cards_file(state: Path) -> Path:
    """players.json of the table whose state directory is `state`: in the link's folder beside it."""
    return link_file(state).with_name(FILE)


def hall_cards(cards: dict) -> str:
    """players.json's text for `cards` (UID -> {"id", "name"}), the sound ones only."""
    return _text(_sound(cards))


def _text(sound: dict[str, dict]) -> str:
    return json.dumps({"format": FORMAT, "cards": sound}, ensure_ascii=False, sort_keys=True)


def write_hall_cards(path: Path, payload: bytes) -> int:
    """Write players.json at `path` from the hall's message `payload` (a whole new file, renamed into place);
    returns the number of cards kept. A payload that is not the hall's cards changes nothing (ValueError)."""
    try:
        read = json.loads(payload)
    except RecursionError:
        raise ValueError("JSON nested too deep") from None
    if not isinstance(read, dict) or read.get("format") != FORMAT or not isinstance(read.get("cards"), dict):
        raise ValueError("not the hall's player cards")
    kept = _sound(read["cards"])
    spare = path.with_name(f".{path.name}.new")
    spare.write_text(_text(kept), encoding="utf-8")
    os.replace(spare, path)
    return len(kept)


class HallCards:
    """The player cards of players.json at `path` (None: none), read again when the file changed."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._stamp: tuple | None = None
        self._cards: dict[str, tuple[str, str]] = {}   # UID -> (player id, name)

    def lookup(self, uid: str) -> Tag | None:
        found = self._read().get(uid)
        return None if found is None else player_tag(found[0])

    def uid_of(self, pid: str) -> str | None:
        """The UID of player `pid`'s card, as the hall knows it."""
        return next((uid for uid, (known, _) in self._read().items() if known == pid), None)

    def players(self) -> dict[str, str]:
        """Player id -> name, of every card the hall knows."""
        return {pid: name for pid, name in self._read().values()}

    def cards(self) -> dict[str, tuple[str, str]]:
        """UID -> (player id, name), of every card the hall knows."""
        return dict(self._read())

    def _read(self) -> dict[str, tuple[str, str]]:
        if self.path is None:
            return self._cards
        try:
            status = self.path.stat()
            stamp = (status.st_mtime_ns, status.st_size, status.st_ino)
            if stamp != self._stamp:
                self._cards, self._stamp = {}, stamp   # until it is read: a bad file is said once, not at each look
                if status.st_size > LARGEST:
                    raise ValueError(f"{status.st_size} bytes, over {LARGEST}")
                read = json.loads(self.path.read_bytes())
                cards = read.get("cards") if isinstance(read, dict) else None
                self._cards = {uid: (p["id"], p["name"]) for uid, p in _sound(cards or {}).items()}
        except FileNotFoundError:
            self._cards, self._stamp = {}, None
        except (OSError, ValueError, RecursionError) as error:   # RecursionError: JSON nested too deep
            log.warning("%s: the hall's player cards were not read (%s)", self.path, error)
        return self._cards


def shadowed(cards: dict[str, tuple[str, str]], tags: dict[str, Tag], retired: set[str]) -> dict[str, str]:
    """The hall's player `cards` (UID -> (player id, name)) that a table's registry keeps from seating their
    players, as its lookup does (its own tags first), by UID: why ("card": a card of one of its decks, "staff": a
    staff card, "player": another player's card enrolled there, "retired": a tag it took out of use)."""
    found = {}
    for uid, (pid, _) in cards.items():
        tag = tags.get(uid)
        if tag is not None and tag != player_tag(pid):
            found[uid] = tag.kind
        elif tag is None and uid in retired:
            found[uid] = "retired"
    return found


def _sound(cards) -> dict[str, dict]:
    """The entries of `cards` that are a player card: a UID, a player id and a name the screen can show."""
    if not isinstance(cards, dict):
        return {}
    return {uid: {"id": p["id"], "name": p["name"]} for uid, p in cards.items()
            if isinstance(uid, str) and UID.fullmatch(uid) and isinstance(p, dict)
            and player_problem(p.get("id"), p.get("name")) is None}
