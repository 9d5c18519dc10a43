"""The player cards the café's hall knows, as the table reads them (players.json, written by the link): checked
like the registry's own, read again when the file changes, never over the table's own tags; nothing but a sound
file of cards is ever written."""
from __future__ import annotations

import json
import os

import pytest

from table.storage.hall_cards import FILE, HallCards, hall_cards, shadowed, write_hall_cards
from table.storage.registry import Tag, TagRegistry, own_tags, player_tag, staff_tag

ALICE, BOB = "p-0000000000a1", "p-0000000000b2"
CARDS = {"04A11CE0000001": {"id": ALICE, "name": "Alice"}, "04B0B000000002": {"id": BOB, "name": "Bob"}}


def test_the_table_reads_the_cards_the_link_wrote_and_again_when_they_change(tmp_path):
    path = tmp_path / FILE
    cards = HallCards(path)
    assert cards.lookup("04A11CE0000001") is None and cards.players() == {}   # no file yet: no card
    assert write_hall_cards(path, hall_cards(CARDS).encode()) == 2
    assert cards.lookup("04A11CE0000001") == player_tag(ALICE) and cards.uid_of(BOB) == "04B0B000000002"
    write_hall_cards(path, hall_cards({"04B0B000000002": {"id": BOB, "name": "Bobby"}}).encode())
    os.utime(path, ns=(1, 1))   # a change within the clock's tick is still seen: size and inode count too
    assert cards.lookup("04A11CE0000001") is None and cards.players() == {BOB: "Bobby"}


@pytest.mark.parametrize("payload", [b"nonsense", b"[]", b'{"format": 2, "cards": {}}', b'{"format": 1}',
                                     b"[" * 100_000])
def test_a_message_that_is_not_the_halls_cards_changes_nothing(tmp_path, payload):
    path = tmp_path / FILE
    write_hall_cards(path, hall_cards(CARDS).encode())
    before = path.read_bytes()
    with pytest.raises(ValueError):
        write_hall_cards(path, payload)
    assert path.read_bytes() == before


def test_unsound_cards_are_left_out_and_a_damaged_file_is_no_card(tmp_path):
    path = tmp_path / FILE
    bad = {"nonsense": {"id": ALICE, "name": "Alice"}, "04C0000000000C": {"id": "<script>", "name": "X"},
           "04D0000000000D": {"id": BOB, "name": " spaced "}, "04E0000000000E": "Eve"}
    assert write_hall_cards(path, json.dumps({"format": 1, "cards": {**bad, **CARDS}}).encode()) == 2
    path.write_text("{ damaged")
    assert HallCards(path).players() == {}


def test_the_registry_asks_the_hall_after_its_own_tags_and_never_for_a_uid_it_retired(tmp_path):
    path = tmp_path / FILE
    write_hall_cards(path, hall_cards({**CARDS, "04000000000009": {"id": "p-0000000000c3", "name": "Carol"}}).encode())
    registry = TagRegistry(tmp_path / "registry.sqlite", HallCards(path))
    registry.enrol("04000000000001", Tag("card", "feira-torio", "TA01"))
    registry.enrol("04000000000009", Tag("card", "feira-torio", "TA02"))   # the table's own tag wins
    registry.retire("04000000000009")
    registry.enrol("04000000000005", player_tag("p-0000000000d4"), "Dan")
    assert registry.lookup("04a11ce0000001") == player_tag(ALICE) and registry.uid_of(player_tag(BOB)) == (
        "04B0B000000002")
    assert registry.lookup("04000000000009") is None
    assert registry.players() == {ALICE: "Alice", BOB: "Bob", "p-0000000000c3": "Carol", "p-0000000000d4": "Dan"}
    registry.close()


def test_the_hall_cards_the_registry_keeps_from_seating_their_players_are_found_with_why(tmp_path):
    """What the link tells the hall: the hall's cards whose UID the table's registry (its file read as is) holds
    as a deck's card, a staff card, another player's card or a retired tag; exactly those its lookup does not
    take as their players'."""
    path, eve = tmp_path / FILE, "p-0000000000e5"
    write_hall_cards(path, hall_cards({**CARDS, **{f"0400000000000{n}": {"id": f"p-00000000000{n}", "name": f"P{n}"}
                                                   for n in (1, 2, 3, 9)},
                                       "04000000000004": {"id": eve, "name": "Eve"}}).encode())
    registry = TagRegistry(tmp_path / "registry.sqlite", HallCards(path))
    registry.enrol("04000000000001", Tag("card", "feira-torio", "TA01"))
    registry.enrol("04000000000002", staff_tag(1))
    registry.enrol("04000000000003", player_tag("p-0000000000d4"), "Dan")
    registry.enrol("04000000000004", player_tag(eve), "Eve")   # the same player's card, enrolled here too
    registry.enrol("04000000000009", Tag("card", "feira-torio", "TA02"))
    registry.retire("04000000000009")
    cards = HallCards(path).cards()
    found = shadowed(cards, *own_tags(tmp_path / "registry.sqlite"))
    assert found == {"04000000000001": "card", "04000000000002": "staff", "04000000000003": "player",
                     "04000000000009": "retired"}
    assert {uid for uid, (pid, _) in cards.items() if registry.lookup(uid) != player_tag(pid)} == found.keys()
    registry.close()
    assert own_tags(tmp_path / "nothing.sqlite") == ({}, set())


@pytest.mark.parametrize("text", ["[" * 100_000, '{"format": 1, "cards": ' * 50_000, '{"cards": [1, 2]}',
                                  '{"cards": {"04A11CE0000001": ["p-0000000000a1", "Alice"]}}', "\udcff"])
def test_a_hostile_players_json_is_no_card_and_changes_nothing(tmp_path, text):
    path = tmp_path / FILE
    path.write_text(text, errors="surrogateescape")
    registry = TagRegistry(tmp_path / "registry.sqlite", HallCards(path))
    registry.enrol("04000000000001", Tag("card", "feira-torio", "TA01"))
    assert registry.lookup("04A11CE0000001") is None and registry.players() == {}
    assert registry.lookup("04000000000001") == Tag("card", "feira-torio", "TA01")
    registry.close()


def test_a_players_json_larger_than_the_broker_passes_is_not_read_and_said_once(tmp_path, caplog):
    path = tmp_path / FILE
    cards = {f"04{n:012X}": {"id": f"p-{n:012x}", "name": f"Player {n}"} for n in range(40_000)}
    path.write_text(hall_cards(cards))
    assert path.stat().st_size > 2 << 20
    read = HallCards(path)
    assert read.players() == {} and read.lookup("04000000000001") is None
    assert len(caplog.records) == 1, "a bad file is said once, not at each card laid"
