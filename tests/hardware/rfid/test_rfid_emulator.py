"""The emulator itself: ISO 14443-3 card states and the chip's register semantics, as the datasheets describe them."""
from __future__ import annotations

import pytest

from table.hardware.rfid.emulator import (
    BIT_FRAMING, CALC_CRC, COLL, COM_IRQ, COMMAND, CONTROL, CRC_RESULT_H, CRC_RESULT_L, ERROR, FIFO_DATA, FIFO_LEVEL,
    MODE, TRANSCEIVE, TX_CONTROL,
    EmulatedCard, EmulatedChip, Timing, to_bits, to_bytes,
)
from table.hardware.rfid.mfrc522 import crc_a

REQA, WUPA = to_bits(b"\x26", 7), to_bits(b"\x52", 7)
HLTA = to_bits(b"\x50\x00" + crc_a(b"\x50\x00"))


def select(card: EmulatedCard) -> list[int] | None:
    """Anticollision and SELECT at cascade level 1, as a reader would send them; the SAK frame."""
    part = bytes(to_bytes(card.hear(to_bits(b"\x93\x20")))[0])
    frame = b"\x93\x70" + part
    return card.hear(to_bits(frame + crc_a(frame)))


def test_a_halted_card_answers_wupa_but_not_reqa():
    card = EmulatedCard("04A1B2C3")
    assert card.hear(REQA) == to_bits(b"\x04\x00")
    assert select(card) == to_bits(b"\x08" + crc_a(b"\x08")) and card.state == "active"
    assert card.hear(HLTA) is None and card.state == "halt"
    assert card.hear(REQA) is None and card.state == "halt"
    assert card.hear(WUPA) is not None and card.state == "ready"


def test_a_ready_card_falls_back_on_a_request_so_reqa_alone_reads_every_other_time():
    card = EmulatedCard("04A1B2C3")
    card.hear(REQA)
    assert card.hear(to_bits(b"\x93\x20")) is not None and card.state == "ready"
    assert card.hear(REQA) is None and card.state == "idle"
    assert card.hear(REQA) is not None


def test_an_error_sends_a_card_woken_from_halt_back_to_halt():
    card = EmulatedCard("04A1B2C3")
    card.hear(WUPA)
    select(card)
    card.hear(HLTA)
    card.hear(WUPA)
    assert card.state == "ready" and card.halted
    assert card.hear(to_bits(b"\x95\x20")) is None and card.state == "halt"   # wrong cascade level


def test_cascade_levels_carry_the_cascade_tag_and_bcc():
    card = EmulatedCard("0102030405060708090A")
    assert card.cascade == [bytes.fromhex("8801020388"), bytes.fromhex("880405068F"), bytes.fromhex("0708090A0C")]
    assert card.atqa == b"\x84\x00"


def test_a_card_answers_the_bits_after_the_prefix_it_shares():
    card = EmulatedCard("04A1B2C3")
    card.hear(WUPA)
    own = to_bits(card.cascade[0])
    assert card.hear(to_bits(b"\x93\x23" + b"\x04", 3)) == own[3:]                # NVB 2 bytes + 3 bits
    assert card.hear(to_bits(b"\x93\x23" + b"\x05", 3)) is None and card.state == "ready"   # not its prefix


def test_irq_bits_are_set_or_cleared_by_the_set1_bit():
    chip = EmulatedChip()
    chip.transfer(bytes([COM_IRQ << 1, 0x7F]))
    chip.transfer(bytes([COM_IRQ << 1, 0x80 | 0x21]))
    assert chip.transfer(bytes([0x80 | COM_IRQ << 1, 0]))[1] == 0x21
    chip.transfer(bytes([COM_IRQ << 1, 0x01]))
    assert chip.transfer(bytes([0x80 | COM_IRQ << 1, 0]))[1] == 0x20


def test_calc_crc_computes_crc_a_of_the_fifo_with_the_preset_of_mode_reg():
    chip = EmulatedChip()
    chip.transfer(bytes([MODE << 1, 0x3D]))            # CRCPreset 0x6363 (reset value: 0xFFFF)
    chip.transfer(bytes([FIFO_DATA << 1]) + b"\x50\x00")
    chip.transfer(bytes([COMMAND << 1, CALC_CRC]))
    low, high = chip.transfer(bytes([0x80 | CRC_RESULT_L << 1, 0x80 | CRC_RESULT_H << 1, 0]))[1:]
    assert bytes([low, high]) == bytes.fromhex("57CD")


def transceive(chip: EmulatedChip, frame: bytes, framing: int = 0) -> tuple[int, int, int, int, bytes]:
    """Send `frame` by hand; ComIrqReg, ErrorReg, CollReg, ControlReg and the FIFO content."""
    chip.transfer(bytes([TX_CONTROL << 1, 0x83]))
    chip.transfer(bytes([COMMAND << 1, TRANSCEIVE]))
    chip.transfer(bytes([COM_IRQ << 1, 0x7F]))
    chip.transfer(bytes([FIFO_DATA << 1]) + frame)
    chip.transfer(bytes([BIT_FRAMING << 1, 0x80 | framing]))
    irq, error, coll, control, level = chip.transfer(bytes([0x80 | r << 1 for r in (COM_IRQ, ERROR, COLL, CONTROL, FIFO_LEVEL)] + [0]))[1:]
    return irq, error, coll, control, chip.transfer(bytes([0x80 | FIFO_DATA << 1] * level + [0]))[1:]


def test_two_cards_answering_at_once_are_ored_and_the_first_differing_bit_is_flagged():
    chip = EmulatedChip(EmulatedCard("11223344"), EmulatedCard("11223345"))
    transceive(chip, b"\x52", framing=7)
    irq, error, coll, _, fifo = transceive(chip, b"\x93\x20")
    assert irq & 0x22 == 0x22 and error & 0x08
    assert coll & 0x1F == 25                      # bit 0 of the fourth byte: 0x44 against 0x45
    assert fifo == bytes([0x11, 0x22, 0x33, 0x45, 0x11 ^ 0x22 ^ 0x33 ^ 0x44 | 0x11 ^ 0x22 ^ 0x33 ^ 0x45])


def test_after_a_collision_bits_read_zero_when_values_after_coll_is_cleared():
    chip = EmulatedChip(EmulatedCard("11223344"), EmulatedCard("11223345"))
    chip.transfer(bytes([COLL << 1, 0x00]))
    transceive(chip, b"\x52", framing=7)
    assert transceive(chip, b"\x93\x20")[4] == bytes([0x11, 0x22, 0x33, 0x01, 0x00])


def test_received_bits_land_after_rx_align():
    chip = EmulatedChip(EmulatedCard("FCA1B2C3"))
    transceive(chip, b"\x52", framing=7)
    irq, _, _, control, fifo = transceive(chip, b"\x93\x23\x04", framing=0x33)   # the 3 bits 0, 0, 1 known
    assert irq & 0x20 and control & 0x07 == 0                                     # 3 + 37 bits: whole bytes
    assert fifo == bytes([0xF8, 0xA1, 0xB2, 0xC3, 0xFC ^ 0xA1 ^ 0xB2 ^ 0xC3])


def test_with_the_antenna_off_no_card_answers():
    chip = EmulatedChip(EmulatedCard("04A1B2C3"))
    transceive(chip, b"\x52", framing=7)
    chip.transfer(bytes([TX_CONTROL << 1, 0x80]))
    chip.transfer(bytes([COM_IRQ << 1, 0x7F]))
    chip.transfer(bytes([FIFO_DATA << 1, 0x52]))
    chip.transfer(bytes([BIT_FRAMING << 1, 0x87]))
    assert chip.transfer(bytes([0x80 | COM_IRQ << 1, 0]))[1] & 0x20 == 0


@pytest.mark.parametrize("spi_hz", [1_000_000, 4_000_000])
def test_timing_adds_transfer_time_and_delays_the_answer_by_its_air_time(spi_hz):
    chip = EmulatedChip(EmulatedCard("04A1B2C3"), timing=Timing(spi_hz, overhead_us=10))
    chip.transfer(bytes([TX_CONTROL << 1, 0x83]))
    assert chip.now_us == pytest.approx(2 * 8e6 / spi_hz + 10)
    chip.now_us += chip.timing.power_up_us          # the card powers up in the field
    chip.transfer(bytes([COMMAND << 1, TRANSCEIVE]))
    chip.transfer(bytes([FIFO_DATA << 1, 0x52]))
    chip.transfer(bytes([BIT_FRAMING << 1, 0x87]))
    reads = 0
    while not chip.transfer(bytes([0x80 | COM_IRQ << 1, 0]))[1] & 0x20:
        reads += 1
    assert reads > 1 and chip.now_us > 350      # WUPA, frame delay time and ATQA: about 370 us on the air


def _wupa_sent(chip: EmulatedChip) -> None:
    """Field on, the card powered up, then WUPA sent (its answer under way)."""
    chip.transfer(bytes([TX_CONTROL << 1, 0x83]))
    chip.now_us += chip.timing.power_up_us
    chip.transfer(bytes([COMMAND << 1, TRANSCEIVE]))
    chip.transfer(bytes([FIFO_DATA << 1, 0x52]))
    chip.transfer(bytes([BIT_FRAMING << 1, 0x87]))


def test_with_time_modelled_a_card_lifted_before_its_answer_ends_is_not_heard_and_the_timer_runs_out():
    card = EmulatedCard("04A1B2C3")
    chip = EmulatedChip(card, timing=Timing(1_000_000, 25.0))
    chip.regs[0x2A] = 0x80                              # TAuto, as the drivers set it
    _wupa_sent(chip)
    chip.lift(card)                                     # mid-exchange: the ATQA is on the air
    chip.now_us += 2000
    irq = chip.transfer(bytes([0x80 | COM_IRQ << 1, 0]))[1]
    assert irq & 0x01 and not irq & 0x20                # TimerIRq, no RxIRq


def test_with_time_modelled_a_card_answers_only_once_powered_up_in_the_field():
    card = EmulatedCard("04A1B2C3")
    chip = EmulatedChip(timing=Timing(1_000_000, 25.0, power_up_us=1000))
    chip.regs[0x2A] = 0x80
    chip.transfer(bytes([TX_CONTROL << 1, 0x83]))
    chip.now_us += 5000
    chip.place(card)                                    # laid in a field already on: powers up from now
    chip.transfer(bytes([COMMAND << 1, TRANSCEIVE]))
    chip.transfer(bytes([FIFO_DATA << 1, 0x52]))
    chip.transfer(bytes([BIT_FRAMING << 1, 0x87]))
    chip.now_us += 900
    assert not chip.transfer(bytes([0x80 | COM_IRQ << 1, 0]))[1] & 0x20 and card.state == "off"
    # the same WUPA once it has powered up
    _wupa_sent(chip)
    chip.now_us += 1000
    assert chip.transfer(bytes([0x80 | COM_IRQ << 1, 0]))[1] & 0x20 and card.state == "ready"
