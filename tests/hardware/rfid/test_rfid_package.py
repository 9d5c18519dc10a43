"""The `mfrc522` package (0.0.7), unchanged, against the emulator: a reference client, and our second backend.

fake-rpi stands in for RPi.GPIO, the emulator's fake spidev for spidev.
"""
from __future__ import annotations

import fake_rpi
import pytest

from table.hardware.ports import ReaderFault
from table.hardware.rfid.emulator import EmulatedCard, EmulatedChip, SpiBoard, installed
from table.hardware.rfid.legacy import PackageReader

UIDS = ["04A1B2C3", "DEADBEEF", "7F000001"]


@pytest.fixture
def board():
    """A board with one chip on SPI0 CE0; `mfrc522` imports its spidev while the test runs."""
    fake_rpi.toggle_print(False)
    board = SpiBoard()
    board.chip = board.wire(EmulatedChip(), 0, 0)
    with installed(board, fake_rpi.RPi):
        yield board


def package_reader(board, uid=None):
    if uid is not None:
        board.chip.place(EmulatedCard(uid))
    return PackageReader("p")


@pytest.mark.parametrize("uid", UIDS)
def test_request_and_anticoll_read_the_uid_the_emulator_holds(board, uid):
    import mfrc522
    board.chip.place(EmulatedCard(uid))
    chip = mfrc522.MFRC522()
    status, bits = chip.MFRC522_Request(chip.PICC_REQIDL)
    assert (status, bits) == (chip.MI_OK, 16)
    status, answer = chip.MFRC522_Anticoll()
    assert status == chip.MI_OK
    assert bytes(answer[:4]) == bytes.fromhex(uid)
    assert chip.MFRC522_SelectTag(answer) == 0x08   # its own CalcCRC, then our SAK


@pytest.mark.parametrize("uid", UIDS)
def test_simple_mfrc522_reads_the_id_as_its_number(board, uid):
    import mfrc522
    board.chip.place(EmulatedCard(uid))
    assert mfrc522.SimpleMFRC522().read_id_no_block() == int(uid + "%02X" % _bcc(uid), 16)


def _bcc(uid: str) -> int:
    data = bytes.fromhex(uid)
    return data[0] ^ data[1] ^ data[2] ^ data[3]


def test_a_card_left_on_the_pad_reads_every_other_poll(board):
    reader = package_reader(board, UIDS[0])
    assert [reader.poll() for _ in range(6)] == [UIDS[0], None] * 3


def test_a_seven_byte_uid_reads_as_its_cascade_tag_and_first_bytes(board):
    reader = package_reader(board, "04112233445566")
    assert reader.poll() == "88041122"


def test_an_empty_poll_costs_about_two_thousand_transfers(board):
    reader = package_reader(board)
    before = board.chip.transfers
    assert reader.poll() is None
    assert 2000 <= board.chip.transfers - before <= 2050


def test_the_package_does_not_resolve_collisions(board):
    reader = package_reader(board)
    board.chip.place(EmulatedCard("11223344"), EmulatedCard("11223345"))
    assert {reader.poll() for _ in range(4)} == {None}


def test_a_deaf_chip_raises_and_the_package_reset_brings_it_back_if_soft(board):
    reader = package_reader(board, UIDS[1])
    board.chip.go_deaf(0x00, until="soft")
    with pytest.raises(ReaderFault):
        reader.poll()
    assert reader.reset()
    assert reader.poll() == UIDS[1]
    reader.close()
