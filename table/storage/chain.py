"""The journal's chain: every entry carries a digest of itself and of the entry before it.

Entry 1's digest starts from the journal's own random id; the journal's
head (the last entry's number and digest) is written with each entry. So a
deleted, inserted or altered entry, entries missing at the end, or another
journal's write-ahead log laid over this one break the chain, and restore
and replay name the first entry where it breaks.
"""
from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable


def new_id() -> str:
    """A journal's random id (128 bits, hex)."""
    return secrets.token_hex(16)


def link(previous: str, seq: int, at: str, kind: str, data: str) -> str:
    """The digest of entry `seq` (its time, kind and data as stored) after the entry whose digest is `previous`."""
    return hashlib.sha256("\n".join((previous, str(seq), at, kind, data)).encode()).hexdigest()


def first_break(journal_id: str, rows: Iterable[tuple[int, str, str, str, str | None]],
                head: tuple[int, str] | None) -> tuple[int, str] | None:
    """Where the chain of `rows` (seq, at, kind, data, link, in order) from `journal_id` breaks, with the
    journal's `head`: the number of the first entry that does not follow and why; None when it holds."""
    previous, last = journal_id, 0
    for seq, at, kind, data, stored in rows:
        if not all(isinstance(field, str) for field in (at, kind, data)):
            return seq, "it is not stored as text"
        if stored != link(previous, seq, at, kind, data):
            return seq, (f"its digest does not follow entry {last}: it was altered, or an entry before it deleted "
                         "or inserted, or another journal's -wal was laid over this one")
        previous, last = stored, seq
    if head is None or head == (last, previous):
        return None
    if head[0] > last:
        return last + 1, f"entries {last + 1} to {head[0]} are missing (the journal's head is entry {head[0]})"
    if head[0] < last:
        return head[0] + 1, f"it follows the journal's head (entry {head[0]}): added by no table"
    return last, "it is not the journal's head: altered, or another journal's -wal was laid over this one"
