"""NTAG21x password protection, the card side in the emulator and the reader side in our driver: a card given a
password answers PWD_AUTH with its PACK; a card with the same UID but without that password (a UID clone, as
phones write them) answers nothing; protection needs the card's current password. Through the SPI reader the
table uses, on an emulated Pi board."""
from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from table.hardware.rfid.emulator import EmulatedCard, EmulatedChip, EmulatedNtag, SpiBoard
from table.hardware.rfid.mfrc522 import Mfrc522
from table.hardware.rfid.spi import SpiReader

UID = "04A1B2C3D4E5F6"
PASSWORD, PACK = bytes.fromhex("5EC12E7A"), bytes.fromhex("C0DE")


def driver(*cards) -> tuple[Mfrc522, EmulatedChip]:
    chip = EmulatedChip(*cards)
    return Mfrc522(chip.transfer), chip


@pytest.mark.parametrize("model, cfg0", [("213", 0x29), ("215", 0x83), ("216", 0xE3)])
def test_protecting_a_card_gives_it_the_password_and_it_proves_it_afterwards(model, cfg0):
    card = EmulatedNtag(UID, model)
    reader, _ = driver(card)
    assert reader.authenticate(PASSWORD) is None                      # not protected yet
    assert reader.protect(PASSWORD, PACK)
    assert (card.password, card.pack, card.pages[cfg0][3], card.cfg) == (PASSWORD, PACK, 0x04, cfg0)
    assert reader.authenticate(PASSWORD) == PACK
    assert reader.poll() == bytes.fromhex(UID)                        # and it still reads as itself


def test_a_card_the_last_poll_left_selected_proves_itself():
    card = EmulatedNtag(UID).given(PASSWORD, PACK)
    reader, _ = driver(card)
    assert reader.poll() == bytes.fromhex(UID) and card.state == "active"
    assert reader.authenticate(PASSWORD, bytes.fromhex(UID)) == PACK
    assert reader.poll() == bytes.fromhex(UID)


def test_a_clone_with_the_same_uid_proves_nothing():
    reader, chip = driver(EmulatedNtag(UID))
    reader.protect(PASSWORD, PACK)
    chip.lift(*chip.cards)
    for clone in (EmulatedCard(UID), EmulatedNtag(UID)):              # a magic tag, a fresh NTAG given the UID
        chip.place(clone)
        assert reader.poll() == bytes.fromhex(UID)                    # the UID alone reads the same...
        assert reader.authenticate(PASSWORD) is None                  # ...but it cannot answer the password
        chip.lift(clone)


def test_a_wrong_password_is_refused_and_the_right_one_still_works():
    reader, _ = driver(EmulatedNtag(UID))
    reader.protect(PASSWORD, PACK)
    assert reader.authenticate(bytes.fromhex("00000000")) is None
    assert reader.authenticate(PASSWORD) == PACK


def test_a_protected_card_takes_a_new_password_only_from_who_knows_the_old_one():
    card = EmulatedNtag(UID)
    reader, _ = driver(card)
    reader.protect(PASSWORD, PACK)
    thief = bytes.fromhex("11111111")
    assert not reader.protect(thief, b"\x00\x01")                     # the factory password no longer opens it
    assert card.password == PASSWORD
    assert reader.protect(thief, b"\x00\x01", current=PASSWORD)       # the table can change it
    assert reader.authenticate(thief) == b"\x00\x01"


def test_no_card_or_a_card_that_is_no_ntag():
    reader, _ = driver()
    assert reader.authenticate(PASSWORD) is None and not reader.protect(PASSWORD, PACK)
    reader, _ = driver(EmulatedCard("04C0FFEE"))                      # a MIFARE Classic: no GET_VERSION answer
    assert not reader.protect(PASSWORD, PACK) and reader.authenticate(PASSWORD) is None


@settings(max_examples=40, deadline=None)
@given(password=st.binary(min_size=4, max_size=4), pack=st.binary(min_size=2, max_size=2),
       tried=st.binary(min_size=4, max_size=4))
def test_only_the_cards_own_password_gets_its_pack(password, pack, tried):
    reader, _ = driver(EmulatedNtag(UID))
    assert reader.protect(password, pack)
    assert reader.authenticate(tried) == (pack if tried == password else None)


def test_through_the_spi_reader_the_table_uses():
    factory = MockFactory()
    try:
        board = SpiBoard()
        board.wire(EmulatedChip(EmulatedNtag(UID)), 0, 0)
        reader = SpiReader("seat1", 0, 0, spi=board.spidev.SpiDev(), pin_factory=factory, settle=lambda: None)
        assert not reader.protect("04000000000001", PASSWORD, PACK)       # not the card on the pad
        assert reader.protect(UID, PASSWORD, PACK) and reader.prove(UID, PASSWORD) == PACK
        assert reader.prove("04000000000001", PASSWORD) is None         # the PACK is of this card, not of another
        assert reader.poll() == UID
        reader.close()
    finally:
        factory.reset()
