"""The tag registry: which physical tag (UID) is which card, or a staff card.

A UID not in the registry is unknown and refused. The registry is a small
SQLite table, read once into memory: lookups happen on every placed card.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from table.storage import connect

SCHEMA = """
CREATE TABLE IF NOT EXISTS tags (
    uid  TEXT PRIMARY KEY,              -- the tag's UID, upper-case hex (4, 7 or 10 bytes)
    kind TEXT NOT NULL CHECK (kind IN ('card', 'staff')),
    deck TEXT,                          -- for kind 'card': the deck (game) name
    card TEXT,                          -- for kind 'card': the card id in that deck
    UNIQUE (deck, card)
);
"""


@dataclass(frozen=True, slots=True)
class Tag:
    """What a UID stands for: a card of a deck, or a staff card."""

    kind: str
    deck: str | None = None
    card: str | None = None


class TagRegistry:
    """UID -> Tag, stored in SQLite."""

    def __init__(self, path: str | Path = ":memory:") -> None:
        self._db = connect(path)
        self._db.executescript(SCHEMA)
        self._tags = {uid: Tag(kind, deck, card) for uid, kind, deck, card in self._db.execute("SELECT * FROM tags")}

    def lookup(self, uid: str) -> Tag | None:
        return self._tags.get(uid.upper())

    def enrol(self, uid: str, tag: Tag) -> None:
        """Record a tag; a UID or a deck card already enrolled raises ValueError."""
        uid = uid.upper()
        if uid in self._tags:
            raise ValueError(f"tag {uid} is already enrolled as {self._tags[uid]}")
        try:
            self._db.execute("INSERT INTO tags VALUES (?, ?, ?, ?)", (uid, tag.kind, tag.deck, tag.card))
        except Exception as error:
            raise ValueError(f"card {tag.deck}/{tag.card} already has a tag") from error
        self._tags[uid] = tag

    def uid_of(self, tag: Tag) -> str | None:
        return next((uid for uid, t in self._tags.items() if t == tag), None)


def simulated_uid(name: str) -> str:
    """The 7-byte UID of a simulated tag, derived from its name (stable across runs)."""
    return hashlib.sha1(name.encode()).hexdigest()[:14].upper()


def enrol_simulated(registry: TagRegistry, deck: str, card_ids, staff_cards: int = 1) -> None:
    """Give every card of a deck, and the staff cards, a simulated tag (skipping those already enrolled)."""
    tags = [Tag("card", deck, c) for c in card_ids] + [Tag("staff", None, f"staff-{i + 1}") for i in range(staff_cards)]
    for tag in tags:
        uid = simulated_uid(f"{tag.deck}/{tag.card}")
        if registry.lookup(uid) is None:
            registry.enrol(uid, tag)
