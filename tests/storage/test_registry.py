"""The tag registry: enrol, retag and retire in one transaction each, CSV export and all-or-nothing import."""
from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from table.storage.registry import Tag, TagRegistry, deck_cards, new_player_id, player_tag, staff_tag

DECK = "feira-torio"
CARDS = deck_cards(DECK)


def uid(n: int) -> str:
    return f"04{n:012X}"


def card(card_id: str) -> Tag:
    return Tag("card", DECK, card_id)


def contents(path: Path) -> tuple[dict[str, Tag], dict[str, Tag]]:
    """What the registry file holds, read with plain SQL: (uid -> tag, retired uid -> what it was)."""
    with closing(sqlite3.connect(path)) as db:
        return tuple({uid: Tag(kind, deck, card) for uid, kind, deck, card in db.execute(query)}
                     for query in ("SELECT * FROM tags", "SELECT uid, kind, deck, card FROM retired"))


@pytest.fixture
def path(tmp_path) -> Path:
    return tmp_path / "registry.sqlite"


@pytest.fixture
def registry(path):
    registry = TagRegistry(path)
    for i, card_id in enumerate(CARDS[:5]):
        registry.enrol(uid(i + 1), card(card_id))
    registry.enrol(uid(100), staff_tag(1))
    yield registry
    registry.close()


def test_deck_cards_come_in_file_order_and_unknown_decks_are_none():
    assert len(CARDS) == 40 and CARDS[:2] == ("TA01", "TA02") and CARDS[-1] == "FO10"
    for name in ("no-such-deck", "../decks/feira-torio", "Feira-Torio", ""):
        assert deck_cards(name) is None


def test_enrolled_tags_are_kept_in_the_file(registry, path):
    assert registry.cards(DECK) == {c: uid(i + 1) for i, c in enumerate(CARDS[:5])}
    assert registry.lookup(uid(1).lower()) == card("TA01")
    assert registry.uid_of(staff_tag(1)) == uid(100)
    tags, retired = contents(path)
    assert tags[uid(3)] == card(CARDS[2]) and retired == {}


@pytest.mark.parametrize("bad_uid, bad_tag, why", [
    (uid(2), card("VA01"), "already enrolled"),            # the UID is TA02
    (uid(50), card("TA01"), "already has a tag"),          # the card has uid(1)
    (uid(51), staff_tag(1), "already has a tag"),
])
def test_enrol_refuses_a_taken_tag_or_card_and_changes_nothing(registry, path, bad_uid, bad_tag, why):
    before = contents(path)
    with pytest.raises(ValueError, match=why):
        registry.enrol(bad_uid, bad_tag)
    assert contents(path) == before
    assert registry.lookup(bad_uid) == before[0].get(bad_uid)


def test_retag_retires_the_old_tag_for_good(registry, path):
    old = registry.retag(card("TA03"), uid(60).lower())
    assert old == uid(3)
    assert registry.uid_of(card("TA03")) == uid(60)
    assert registry.lookup(uid(3)) is None and registry.retired(uid(3)) == card("TA03")
    tags, retired = contents(path)
    assert tags[uid(60)] == card("TA03") and uid(3) not in tags and retired == {uid(3): card("TA03")}
    with pytest.raises(ValueError, match="retired"):    # the lost tag, found again, is not the card again
        registry.enrol(uid(3), card("AB01"))
    with pytest.raises(ValueError, match="retired"):
        registry.retag(card("TA03"), uid(3))
    with pytest.raises(ValueError, match="no tag to replace"):
        registry.retag(card("FO10"), uid(61))
    assert contents(path) == (tags, retired)


def test_retire_takes_a_tag_out_of_use(registry, path):
    assert registry.retire(uid(100)) == staff_tag(1)
    assert registry.lookup(uid(100)) is None and registry.uid_of(staff_tag(1)) is None
    assert contents(path)[1] == {uid(100): staff_tag(1)}
    with pytest.raises(ValueError, match="not enrolled"):
        registry.retire(uid(100))
    registry.enrol(uid(101), staff_tag(1))                # the staff card can get a new tag
    assert registry.lookup(uid(101)) == staff_tag(1)


def test_a_retag_that_fails_half_way_changes_nothing(registry, path, monkeypatch):
    before = contents(path)

    def broken(uid, tag):
        raise OSError("disk full")

    monkeypatch.setattr(registry, "_insert", broken)      # fails after the old tag was retired, in the transaction
    with pytest.raises(OSError):
        registry.retag(card("TA01"), uid(70))
    assert contents(path) == before
    assert registry.uid_of(card("TA01")) == uid(1) and registry.retired(uid(1)) is None


# ---------------------------------------------------------------- CSV


def test_csv_round_trip(registry, path, tmp_path):
    registry.retag(card("TA02"), uid(80))
    exported = tmp_path / "tags.csv"
    assert registry.export_csv(exported) == 7
    lines = exported.read_text().splitlines()
    assert lines[0] == "uid,kind,deck,card,name"
    assert f"{uid(2)},retired,{DECK},TA02," in lines and f"{uid(100)},staff,,staff-1," in lines
    fresh = TagRegistry(tmp_path / "other.sqlite")
    report = fresh.import_csv(exported)
    assert (report.added, report.unchanged, report.errors) == (7, 0, [])
    fresh.close()
    assert contents(tmp_path / "other.sqlite") == contents(path)
    again = registry.import_csv(exported)                 # importing what is already there changes nothing
    assert (again.added, again.unchanged, again.errors) == (0, 7, [])
    assert "7 already there" in str(again)


def write(tmp_path: Path, *rows: str, header: str = "uid,kind,deck,card") -> Path:
    path = tmp_path / "import.csv"
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


GOOD = f"{uid(90)},card,{DECK},FO01"    # a valid new row: it must not be applied when another row is wrong


@pytest.mark.parametrize("rows, error", [
    ([f"{uid(91)},card,{DECK}"], "line 3: expected 4 columns"),
    ([f"XYZ,card,{DECK},FO02"], "line 3: XYZ is not a UID"),
    ([f"{uid(91)}FF,card,{DECK},FO02"], "is not a UID"),
    ([f"{uid(91)},joker,{DECK},FO02"], "line 3: unknown kind 'joker'"),
    ([f"{uid(91)},card,no-such-deck,FO02"], "line 3: unknown deck 'no-such-deck'"),
    ([f"{uid(91)},card,{DECK},FO99"], f"line 3: deck {DECK} has no card 'FO99'"),
    ([f"{uid(91)},card,,FO02"], "line 3: the deck column is empty"),
    ([f"{uid(91)},staff,{DECK},staff-2"], "line 3: a staff card belongs to no deck"),
    ([f"{uid(91)},card,{DECK},"], "line 3: the card column is empty"),
    ([f"{uid(90)},card,{DECK},FO02"], f"line 3: tag {uid(90)} is already on line 2"),
    ([f"{uid(91)},card,{DECK},FO01"], f"line 3: {DECK}/FO01 already has a tag on line 2"),
    ([f"{uid(1)},card,{DECK},FO02"], f"line 3: tag {uid(1)} is {DECK}/TA01 in the registry"),
    ([f"{uid(91)},card,{DECK},TA02"], f"line 3: {DECK}/TA02 already has tag {uid(2)} in the registry"),
    ([f"{uid(3)},retired,{DECK},TA03"], f"line 3: tag {uid(3)} is {DECK}/TA03 in the registry, not retired"),
    ([f"{uid(4)},retired,{DECK},TA04", f"{uid(4)},card,{DECK},TA04"], "line 4: tag"),
])
def test_import_checks_every_row_first_and_applies_nothing_on_error(registry, path, tmp_path, rows, error):
    before = contents(path)
    report = registry.import_csv(write(tmp_path, GOOD, *rows))
    assert any(e.startswith(error) or error in e for e in report.errors), report.errors
    assert report.added == 0 and str(report).startswith("nothing imported")
    assert contents(path) == before
    assert registry.lookup(uid(90)) is None


def test_import_reports_every_error_at_once_and_rejects_a_bad_header(registry, path, tmp_path):
    before = contents(path)
    report = registry.import_csv(write(tmp_path, "nonsense,card,x,y", f"{uid(92)},card,{DECK},ZZ01", GOOD))
    assert [e.split(":")[0] for e in report.errors] == ["line 2", "line 3"]
    report = registry.import_csv(write(tmp_path, GOOD, header="uid,deck,card,kind"))
    assert report.errors == ["line 1: the header must be uid,kind,deck,card,name"]
    report = registry.import_csv(tmp_path / "missing.csv")
    assert report.errors[0].startswith("cannot read")
    assert contents(path) == before


def test_import_of_a_tag_retired_elsewhere_and_found_again_is_refused(registry, path, tmp_path):
    registry.retag(card("TA05"), uid(95))
    report = registry.import_csv(write(tmp_path, f"{uid(5)},card,{DECK},AB09"))
    assert report.errors == [f"line 2: tag {uid(5)} was retired (it was {DECK}/TA05)"]
    assert registry.lookup(uid(5)) is None


# ---------------------------------------------------------------- player cards


def test_a_player_card_names_its_player_and_a_lost_one_is_retagged_to_the_same_player(registry, path):
    alice = new_player_id()
    registry.enrol(uid(50), player_tag(alice), "Alice")
    assert registry.lookup(uid(50)) == player_tag(alice) and registry.players() == {alice: "Alice"}
    assert registry.player_id("Alice") == alice and registry.player_id("Bob") is None
    assert registry.retag(player_tag(alice), uid(51)) == uid(50)
    registry.close()
    again = TagRegistry(path)
    assert again.lookup(uid(51)) == player_tag(alice) and again.retired(uid(50)) == player_tag(alice)
    assert again.players() == {alice: "Alice"}
    again.close()


@pytest.mark.parametrize("name, pid, why", [
    (None, "p-0000000000aa", "needs its player's name"),
    ("", "p-0000000000aa", "cannot be empty"),
    (" Bob", "p-0000000000aa", "start or end with spaces"),
    ("B" * 25, "p-0000000000aa", "at most 24"),
    ("B\nob", "p-0000000000aa", "printable"),
    ("Bob", "alice", "not a player id"),
    ("Alice", "p-ffffffffffff", "'Alice' is another player's name"),
    ("Che\u0301rie", "p-0000000000aa", "composed"),
    ("\u00c1\u0301", "p-0000000000aa", "left to right, unshaped"),
    ("\u0645\u0631\u062d\u0628\u0627", "p-0000000000aa", "left to right, unshaped"),
])
def test_a_player_card_without_a_sound_name_or_id_is_refused_and_nothing_changes(registry, path, name, pid, why):
    registry.enrol(uid(50), player_tag("p-0123456789ab"), "Alice")
    before = contents(path)
    with pytest.raises(ValueError, match=why):
        registry.enrol(uid(60), player_tag(pid), name)
    assert contents(path) == before and registry.lookup(uid(60)) is None


def test_a_registry_of_format_1_is_upgraded_with_every_row_and_then_takes_player_cards(tmp_path):
    path = tmp_path / "old.sqlite"
    with closing(sqlite3.connect(path)) as db:   # a format 1 registry, as tables made it before player cards
        db.executescript("""
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO meta VALUES ('kind', 'registry'), ('format', '1');
            CREATE TABLE tags (uid TEXT PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('card', 'staff')),
                               deck TEXT, card TEXT, UNIQUE (deck, card));
            CREATE TABLE retired (uid TEXT PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('card', 'staff')),
                                  deck TEXT, card TEXT, at TEXT NOT NULL DEFAULT (datetime('now')));
            CREATE TABLE protected (uid TEXT PRIMARY KEY);
            INSERT INTO tags VALUES ('04000000000001', 'card', 'feira-torio', 'TA01'),
                                    ('04000000000064', 'staff', NULL, 'staff-1');
            INSERT INTO retired (uid, kind, deck, card) VALUES ('04000000000002', 'card', 'feira-torio', 'TA01');
            INSERT INTO protected VALUES ('04000000000064');
        """)
        db.commit()
    before = contents(path)
    registry = TagRegistry(path)
    assert contents(path) == before and registry.protected(uid(100))
    registry.enrol(uid(50), player_tag("p-0123456789ab"), "Alice")
    registry.close()
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone() == ("2",)


def test_player_cards_go_through_csv_with_their_names(registry, path, tmp_path):
    registry.enrol(uid(50), player_tag("p-0123456789ab"), "Alice")
    registry.retag(player_tag("p-0123456789ab"), uid(51))
    exported = tmp_path / "tags.csv"
    registry.export_csv(exported)
    assert f"{uid(51)},player,,p-0123456789ab,Alice" in exported.read_text().splitlines()
    fresh = TagRegistry(tmp_path / "other.sqlite")
    assert fresh.import_csv(exported).errors == []
    assert fresh.lookup(uid(51)) == player_tag("p-0123456789ab") and fresh.players() == {"p-0123456789ab": "Alice"}
    assert fresh.retired(uid(50)) == player_tag("p-0123456789ab")
    clash = write(tmp_path, f"{GOOD},", f"{uid(70)},player,,p-ffffffffffff,Alice", header="uid,kind,deck,card,name")
    assert fresh.import_csv(clash).errors == ["line 3: 'Alice' is another player's name"]
    fresh.close()
