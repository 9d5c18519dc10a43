"""The tag registry: which physical tag (UID) is which card, a staff card, or a player's card.

A UID not in the registry is unknown and refused. A retired UID (the tag of
a lost card that was given a new tag) stays recorded as retired, so that the
lost tag, if it turns up again, is refused instead of silently becoming the
card again. The registry is a small SQLite database, read once into memory:
lookups happen on every placed card. Every change is one transaction.

Staff cards prove themselves: the registry keeps the table's secret (made
at the first staff card protected) and which staff tags carry the password
derived from it (`staff_key`), written on the card at enrolment.

A player card names a regular (docs/cafe.md): its tag stands for a player
id made at enrolment (`p-` and 12 hex digits, never the UID, so a lost card
is re-tagged to the same player), and the registry keeps each player's name.
"""
from __future__ import annotations

import csv
import hashlib
import hmac
import re
import secrets
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from table.assets import ASSETS, deck_data
from table.storage import connect, open_store, transaction

if TYPE_CHECKING:
    from table.storage.hall_cards import HallCards

FORMAT = 2   # 2: player cards; format 1 (cards and staff cards only) is read and upgraded
KIND = "registry"
TAGS = """CREATE TABLE IF NOT EXISTS tags (
    uid  TEXT PRIMARY KEY,              -- the tag's UID, upper-case hex (4, 7 or 10 bytes)
    kind TEXT NOT NULL CHECK (kind IN ('card', 'staff', 'player')),
    deck TEXT,                          -- for kind 'card': the deck name (assets/decks)
    card TEXT,                          -- for 'card': the card id in that deck; 'staff': its name; 'player': its id
    UNIQUE (deck, card)
)"""
RETIRED = """CREATE TABLE IF NOT EXISTS retired (
    uid  TEXT PRIMARY KEY,              -- a tag taken out of use for good
    kind TEXT NOT NULL CHECK (kind IN ('card', 'staff', 'player')),
    deck TEXT,                          -- what the tag was
    card TEXT,
    at   TEXT NOT NULL DEFAULT (datetime('now'))
)"""
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
{TAGS};
{RETIRED};
CREATE TABLE IF NOT EXISTS protected (
    uid  TEXT PRIMARY KEY               -- a live staff tag that holds its password (NTAG21x PWD and PACK)
);
CREATE TABLE IF NOT EXISTS players (
    pid  TEXT PRIMARY KEY,              -- a player card's player id
    name TEXT NOT NULL UNIQUE           -- the player's name, as the screen and the hall show it
);
"""
CSV_COLUMNS = ["uid", "kind", "deck", "card", "name"]   # name: a player card's player; an export of format 1 has none
UID = re.compile(r"[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20}")   # 4, 7 or 10 bytes
PLAYER_ID = re.compile(r"p-[0-9a-f]{12}")
NAME_CHARS = 24   # the longest player name (the screen shortens one that does not fit its place: draw.fitted_name)
DECK_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")


@dataclass(frozen=True, slots=True)
class Tag:
    """What a UID stands for: a card of a deck, a staff card (`card` is then its name, e.g. staff-1) or a player's
    card (`card` is the player's id)."""

    kind: str
    deck: str | None = None
    card: str | None = None


def staff_tag(number: int) -> Tag:
    """Staff card number `number` (1, 2, ...)."""
    return Tag("staff", None, f"staff-{number}")


def player_tag(pid: str) -> Tag:
    """The card of player `pid`."""
    return Tag("player", None, pid)


def new_player_id() -> str:
    return f"p-{secrets.token_hex(6)}"


def player_name_problem(name: str) -> str | None:
    """What is wrong with a player's name (None: nothing): it is shown under a seat and on the hall's pages."""
    if not name.strip() or name != name.strip():
        return "a player's name cannot be empty or start or end with spaces"
    if len(name) > NAME_CHARS or not name.isprintable():
        return f"a player's name is at most {NAME_CHARS} printable characters"
    if unicodedata.normalize("NFC", name) != name:
        return "a player's name is written with its accents composed (Unicode NFC)"
    if cannot := unlaid(name):
        return f"a player's name cannot hold {cannot!r}: the table's screen lays names out left to right, unshaped"
    return None


def unlaid(text: str) -> str:
    """The characters of `text` a line laid out left to right, unshaped (as the screen draws), cannot show as
    they are read: combining marks left once it is composed (they would stack above or below a letter) and
    right-to-left letters."""
    return "".join(char for char in text if unicodedata.category(char) in ("Mn", "Me")
                   or unicodedata.bidirectional(char) in ("R", "AL"))


def player_problem(pid, name) -> str | None:
    """What is wrong with a player as a card, a journal entry or a message gives it (None: nothing): an id made
    at enrolment and a name the screen can show."""
    if not isinstance(name, str):
        return "a player card needs its player's name"
    problem = player_name_problem(name)
    if problem is None and not (isinstance(pid, str) and PLAYER_ID.fullmatch(pid)):
        problem = f"{pid!r} is not a player id (p- and 12 hex digits)"
    return problem


def deck_cards(deck: str) -> tuple[str, ...] | None:
    """Every tagged item of a deck in the deck file's order: its cards, then the items of each accessory table
    it names (`accessories = ["bases", "tokens"]`: base cards, tokens...); None when there is no such deck."""
    if not DECK_NAME.fullmatch(deck) or not (ASSETS / "decks" / f"{deck}.toml").is_file():
        return None
    data = deck_data(deck)
    return tuple(item["id"] for table in ("cards", *data.get("accessories", ())) for item in data[table])


@dataclass(slots=True)
class ImportReport:
    """What an import did: nothing at all when there are errors, else `added` new rows."""

    added: int = 0
    unchanged: int = 0
    errors: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        if self.errors:
            return "\n".join([f"nothing imported, {len(self.errors)} error(s):", *self.errors])
        return f"imported: {self.added} added, {self.unchanged} already there"


class TagRegistry:
    """UID -> Tag, and the retired UIDs, stored in SQLite; with `hall`, the player cards the café's hall knows
    (docs/cafe.md) too, after its own tags (a UID it retired stays refused)."""

    def __init__(self, path: str | Path = ":memory:", hall: HallCards | None = None) -> None:
        self._hall = hall
        self._db = open_store(path, KIND, SCHEMA, FORMAT, legacy_tables=frozenset({"tags", "retired"}), older=(1,))
        _upgrade(self._db)
        self._tags = {uid: Tag(kind, deck, card) for uid, kind, deck, card in self._db.execute("SELECT * FROM tags")}
        self._uids = {tag: uid for uid, tag in self._tags.items()}
        self._retired = {uid: Tag(kind, deck, card)
                         for uid, kind, deck, card in self._db.execute("SELECT uid, kind, deck, card FROM retired")}
        self._protected = {uid for uid, in self._db.execute("SELECT uid FROM protected") if uid in self._tags}
        self._players = dict(self._db.execute("SELECT pid, name FROM players"))
        secret = self._db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()
        self._secret = None if secret is None else bytes.fromhex(secret[0])

    def lookup(self, uid: str) -> Tag | None:
        """What a live tag is (None for an unknown or retired UID)."""
        uid = uid.upper()
        tag = self._tags.get(uid)
        if tag is None and self._hall is not None and uid not in self._retired:
            tag = self._hall.lookup(uid)
        return tag

    def retired(self, uid: str) -> Tag | None:
        """What a retired tag used to be (None when the UID was never retired)."""
        return self._retired.get(uid.upper())

    def uid_of(self, tag: Tag) -> str | None:
        uid = self._uids.get(tag)
        if uid is None and tag.kind == "player" and self._hall is not None:
            uid = self._hall.uid_of(tag.card)
        return uid

    def cards(self, deck: str) -> dict[str, str]:
        """Card id -> UID of every enrolled card of a deck."""
        return {tag.card: uid for tag, uid in self._uids.items() if tag.kind == "card" and tag.deck == deck}

    def players(self) -> dict[str, str]:
        """Player id -> name, of every player enrolled here (with a card or once with one), and of the player
        cards the hall knows."""
        return {**(self._hall.players() if self._hall is not None else {}), **self._players}

    def player_id(self, name: str) -> str | None:
        """The id of the player named `name` (None: no such player)."""
        return next((pid for pid, known in self._players.items() if known == name), None)

    def staff_key(self, uid: str) -> tuple[bytes, bytes]:
        """The password (4 bytes) and PACK (2 bytes) of staff tag `uid`: HMAC-SHA256 of its UID under the table's
        secret, which is made (and kept) at the first call. A clone of the UID without them proves nothing."""
        if self._secret is None:
            secret = secrets.token_bytes(32)
            with transaction(self._db):
                self._db.execute("INSERT INTO meta VALUES ('secret', ?)", (secret.hex(),))
            self._secret = secret
        digest = hmac.digest(self._secret, bytes.fromhex(uid), "sha256")
        return digest[:4], digest[4:6]

    def protected(self, uid: str) -> bool:
        """Whether live staff tag `uid` holds its password (so it can prove it is no UID clone)."""
        return uid.upper() in self._protected

    def staff(self) -> dict[str, bool]:
        """Name (staff-1, ...) -> whether its tag is protected, of every live staff tag, by name."""
        tags = sorted((tag.card, uid) for uid, tag in self._tags.items() if tag.kind == "staff")
        return {name: uid in self._protected for name, uid in tags}

    def mark_protected(self, uid: str) -> None:
        """Record that staff tag `uid` now holds its password (enrolment wrote it on the card)."""
        uid = uid.upper()
        tag = self._tags.get(uid)
        if tag is None or tag.kind != "staff":
            raise ValueError(f"tag {uid} is no staff card")
        with transaction(self._db):
            self._db.execute("INSERT OR IGNORE INTO protected VALUES (?)", (uid,))
        self._protected.add(uid)

    def enrol(self, uid: str, tag: Tag, name: str | None = None) -> None:
        """Record a new tag (a player card with its player's `name`); a UID already enrolled or retired, a card
        that has a tag, or a player card without a sound name, or with another player's, raises ValueError."""
        uid = uid.upper()
        self._check_new(uid, tag)
        if tag.kind == "player":
            self._check_name(tag.card, name)
        with transaction(self._db):
            self._insert(uid, tag)
            if tag.kind == "player":
                self._db.execute("INSERT OR REPLACE INTO players VALUES (?, ?)", (tag.card, name))
        if tag.kind == "player":
            self._players[tag.card] = name
        self._bind(uid, tag)

    def retire(self, uid: str) -> Tag:
        """Take a live tag out of use for good; returns what it was."""
        uid = uid.upper()
        tag = self._tags.get(uid)
        if tag is None:
            raise ValueError(f"tag {uid} is not enrolled")
        with transaction(self._db):
            self._retire(uid, tag)
        self._mark_retired(uid)
        return tag

    def retag(self, tag: Tag, uid: str) -> str:
        """Give an enrolled card (or staff card) the new tag `uid` and retire its old one; returns the old UID."""
        uid, old = uid.upper(), self._uids.get(tag)
        if old is None:
            raise ValueError(f"{tag.deck}/{tag.card} has no tag to replace")
        self._check_new(uid, None)
        with transaction(self._db):
            self._retire(old, tag)
            self._insert(uid, tag)
        self._mark_retired(old)
        self._bind(uid, tag)
        return old

    # ------------------------------------------------------------ CSV

    def export_csv(self, path: str | Path) -> int:
        """Write every live tag, then every retired one (kind 'retired'), as CSV (a player card with its player's
        name); returns the row count."""
        order = lambda item: (item[1].kind, item[1].deck or "", item[1].card or "", item[0])
        name = lambda t: self._players.get(t.card, "") if t.kind == "player" else ""
        rows = [[uid, t.kind, t.deck or "", t.card, name(t)] for uid, t in sorted(self._tags.items(), key=order)]
        rows += [[uid, "retired", t.deck or "", t.card, name(t)]
                 for uid, t in sorted(self._retired.items(), key=order)]
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(CSV_COLUMNS)
            writer.writerows(rows)
        return len(rows)

    def import_csv(self, path: str | Path) -> ImportReport:
        """Add the rows of a CSV export that the registry lacks, all or nothing.

        Every row is checked first: the header, UID format, kind, deck and card
        ids, UIDs or cards given twice, and rows that contradict the registry
        (a UID bound differently, a card with another tag, a live tag the file
        says is retired or the other way round). Any error: nothing changes.
        """
        report = ImportReport()
        try:
            with open(path, newline="", encoding="utf-8-sig") as f:
                rows = list(csv.reader(f))
        except (OSError, UnicodeDecodeError, csv.Error) as error:
            report.errors.append(f"cannot read {path}: {error}")
            return report
        header = [c.strip().lower() for c in rows[0]] if rows else []
        if header not in (CSV_COLUMNS, CSV_COLUMNS[:-1]):
            report.errors.append(f"line 1: the header must be {','.join(CSV_COLUMNS)}")
            return report
        new: dict[str, tuple[Tag, bool]] = {}    # uid -> (tag, retired)
        names: dict[str, str] = {}               # player id -> name, of the player cards
        seen_uid: dict[str, int] = {}
        seen_tag: dict[Tag, int] = {}
        for line, row in enumerate(rows[1:], start=2):
            if not any(c.strip() for c in row):
                continue
            parsed = self._parse_row(row, len(header))
            if isinstance(parsed, str):
                report.errors.append(f"line {line}: {parsed}")
                continue
            uid, tag, retired, name = parsed
            if name:
                problem = player_name_problem(name) or self._name_taken(tag.card, name, names)
                if problem:
                    report.errors.append(f"line {line}: {problem}")
                    continue
                names[tag.card] = name
            if uid in seen_uid:
                report.errors.append(f"line {line}: tag {uid} is already on line {seen_uid[uid]}")
                continue
            seen_uid[uid] = line
            if not retired:
                if tag in seen_tag:
                    report.errors.append(f"line {line}: {_name(tag)} already has a tag on line {seen_tag[tag]}")
                    continue
                seen_tag[tag] = line
            conflict = self._conflict(uid, tag, retired)
            if conflict:
                report.errors.append(f"line {line}: {conflict}")
            elif (self._retired if retired else self._tags).get(uid) == tag:
                report.unchanged += 1
            else:
                new[uid] = (tag, retired)
        if report.errors:
            return report
        with transaction(self._db):
            for uid, (tag, retired) in new.items():
                if retired:
                    self._retire(uid, tag)
                else:
                    self._insert(uid, tag)
            self._db.executemany("INSERT OR REPLACE INTO players VALUES (?, ?)", names.items())
        self._players.update(names)
        for uid, (tag, retired) in new.items():
            if retired:
                self._retired[uid] = tag
            else:
                self._bind(uid, tag)
        report.added = len(new)
        return report

    @staticmethod
    def _parse_row(row: list[str], columns: int) -> tuple[str, Tag, bool, str] | str:
        """(uid, tag, retired, player's name) from a CSV row of `columns` columns, or what is wrong with it."""
        if len(row) != columns:
            return f"expected {columns} columns ({','.join(CSV_COLUMNS[:columns])}), found {len(row)}"
        uid, kind, deck, card, name = (*(c.strip() for c in row), "")[:5]
        uid = uid.upper()
        if not UID.fullmatch(uid):
            return f"{uid or 'an empty UID'} is not a UID (8, 14 or 20 hex digits)"
        if kind not in ("card", "staff", "player", "retired"):
            return f"unknown kind {kind!r} (card, staff, player or retired)"
        if not card:
            return "the card column is empty"
        if kind in ("staff", "player") and deck:
            return f"a {kind} card belongs to no deck (found {deck!r})"
        if kind == "card" and not deck:
            return "the deck column is empty"
        if kind == "player" or (kind == "retired" and not deck and PLAYER_ID.fullmatch(card)):
            if not PLAYER_ID.fullmatch(card):
                return f"{card!r} is not a player id (p- and 12 hex digits)"
            if kind == "player" and not name:
                return "a player card needs its player's name"
            return uid, player_tag(card), kind == "retired", name
        if name:
            return "only a player card has a name"
        if deck:
            cards = deck_cards(deck)
            if cards is None:
                return f"unknown deck {deck!r}"
            if card not in cards:
                return f"deck {deck} has no card {card!r}"
        tag = Tag("card", deck, card) if deck else Tag("staff", None, card)
        return uid, tag, kind == "retired", ""

    def _conflict(self, uid: str, tag: Tag, retired: bool) -> str | None:
        """How a row (uid is `tag`, live or retired) contradicts the registry, if it does."""
        live, gone = self._tags.get(uid), self._retired.get(uid)
        if live is not None and (retired or live != tag):
            return f"tag {uid} is {_name(live)} in the registry" + (", not retired" if live == tag else "")
        if gone is not None and (not retired or gone != tag):
            return f"tag {uid} was retired (it was {_name(gone)})"
        bound = self._uids.get(tag)
        if not retired and bound not in (None, uid):
            return f"{_name(tag)} already has tag {bound} in the registry"
        return None

    # ------------------------------------------------------------ storage

    def _check_name(self, pid: str | None, name: str | None) -> None:
        problem = player_problem(pid, name) or self._name_taken(pid, name)
        if problem:
            raise ValueError(problem)

    def _name_taken(self, pid: str, name: str, read: dict[str, str] | None = None) -> str | None:
        """Whether `name` is already another player's, in the registry or among the rows `read` (pid -> name)."""
        taken = {known for other, known in {**self._players, **(read or {})}.items() if other != pid}
        return f"{name!r} is another player's name" if name in taken else None

    def _check_new(self, uid: str, tag: Tag | None) -> None:
        if uid in self._tags:
            raise ValueError(f"tag {uid} is already enrolled as {_name(self._tags[uid])}")
        if uid in self._retired:
            raise ValueError(f"tag {uid} was retired (it was {_name(self._retired[uid])})")
        if tag in self._uids:
            raise ValueError(f"{_name(tag)} already has a tag")

    def _insert(self, uid: str, tag: Tag) -> None:
        self._db.execute("INSERT INTO tags VALUES (?, ?, ?, ?)", (uid, tag.kind, tag.deck, tag.card))

    def _retire(self, uid: str, tag: Tag) -> None:
        self._db.execute("DELETE FROM tags WHERE uid = ?", (uid,))
        self._db.execute("DELETE FROM protected WHERE uid = ?", (uid,))
        self._db.execute("INSERT INTO retired (uid, kind, deck, card) VALUES (?, ?, ?, ?)",
                         (uid, tag.kind, tag.deck, tag.card))

    def _bind(self, uid: str, tag: Tag) -> None:
        self._tags[uid] = tag
        self._uids[tag] = uid

    def _mark_retired(self, uid: str) -> None:
        self._protected.discard(uid)
        tag = self._tags.pop(uid)
        del self._uids[tag]
        self._retired[uid] = tag

    def close(self) -> None:
        self._db.close()


def own_tags(path: Path) -> tuple[dict[str, Tag], set[str]]:
    """The registry at `path` read as is, changing nothing (the café link reads the table's): its live tags by
    UID and its retired UIDs; none while there is no such file."""
    if not path.exists():
        return {}, set()
    db = connect(path, read_only=True)
    try:
        tags = {uid: Tag(kind, deck, card) for uid, kind, deck, card in db.execute("SELECT uid, kind, deck, card "
                                                                                   "FROM tags")}
        return tags, {uid for uid, in db.execute("SELECT uid FROM retired")}
    finally:
        db.close()


def _name(tag: Tag) -> str:
    """A tag as the registry's messages name it: 'pairs/7a', 'staff-1' or 'player p-0123456789ab'."""
    return {"staff": tag.card, "player": f"player {tag.card}"}.get(tag.kind, f"{tag.deck}/{tag.card}")


def _upgrade(db) -> None:
    """Format 1 to 2, in one transaction: its tables' CHECK on `kind` let no player card in, so `tags` and
    `retired` are made again with the rows they hold."""
    version = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    if version is not None and version[0] == str(FORMAT):
        return
    with transaction(db):
        for table, statement in (("tags", TAGS), ("retired", RETIRED)):
            db.execute(f"ALTER TABLE {table} RENAME TO {table}_1")
            db.execute(statement)
            db.execute(f"INSERT INTO {table} SELECT * FROM {table}_1")
            db.execute(f"DROP TABLE {table}_1")
        db.execute("INSERT OR REPLACE INTO meta VALUES ('format', ?)", (str(FORMAT),))


def simulated_uid(name: str) -> str:
    """The 7-byte UID of a simulated tag, derived from its name (stable across runs)."""
    return hashlib.sha1(name.encode()).hexdigest()[:14].upper()


def enrol_simulated(registry: TagRegistry, deck: str, card_ids, staff_cards: int = 1) -> None:
    """Give every card of a deck, and the staff cards, a simulated tag (skipping those already enrolled); the staff
    tags are recorded as protected (the simulated table lays tags holding their keys: SimulatedTable)."""
    tags = [Tag("card", deck, c) for c in card_ids] + [staff_tag(i + 1) for i in range(staff_cards)]
    for tag in tags:
        uid = simulated_uid(f"{tag.deck}/{tag.card}")
        if registry.lookup(uid) is None:
            registry.enrol(uid, tag)
        if tag.kind == "staff":
            registry.mark_protected(uid)
