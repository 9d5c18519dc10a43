"""SpiReader on the fake spidev: CE lines on SPI0 and SPI1, GPIO chip selects, the reset pin."""
from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from table.hardware.ports import Reader, ReaderFault
from table.hardware.rfid.emulator import EmulatedCard, EmulatedChip, SpiBoard
from table.hardware.rfid.spi import ResetLine, SpiReader


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()


def test_readers_on_every_chip_enable_and_on_gpio_chip_selects_read_only_their_own_card(factory):
    board = SpiBoard()
    wiring = {"ce0.0": (0, 0, None), "ce0.1": (0, 1, None), "ce1.0": (1, 0, None), "ce1.1": (1, 1, None),
              "ce1.2": (1, 2, None), "gpio5": (0, 0, 5), "gpio6": (0, 0, 6), "spi1-gpio16": (1, 0, 16)}
    cards = {}
    chips, links, readers = [], [], []
    for n, (pad, (bus, device, cs)) in enumerate(wiring.items()):
        uid = "04%06X" % (n * 0x111111) if n % 2 else "04%012X" % (n * 0x10203040506)
        chip = EmulatedChip(EmulatedCard(uid))
        chips.append(chip)
        if cs is None:
            board.wire(chip, bus, device)
        else:
            board.wire_gpio(chip, bus, factory.pin(cs))
        cards[pad] = uid
        links.append(board.spidev.SpiDev())
        readers.append(SpiReader(pad, bus, device, cs_pin=cs, spi=links[-1], pin_factory=factory))
    assert {reader.pad: reader.poll() for reader in readers} == cards
    assert sum(spi.transfers for spi in links) == sum(chip.transfers for chip in chips)   # each reached only its chip
    for reader in readers:
        assert isinstance(reader, Reader) and reader.version == 0x92
        reader.close()


def test_a_gpio_chip_select_is_low_only_during_transfers(factory):
    board = SpiBoard()
    chip = board.wire_gpio(EmulatedChip(), 0, factory.pin(5))
    reader = SpiReader("p", 0, cs_pin=5, spi=board.spidev.SpiDev(), pin_factory=factory)
    factory.pin(5).clear_states()
    before = chip.transfers
    reader.poll()
    states = [state.state for state in factory.pin(5).states]
    assert states == [True] + [False, True] * (chip.transfers - before)


def test_a_missing_spi_device_is_a_fault_of_its_reader_not_of_the_table():
    reader = SpiReader("p", 0, 2, spi=SpiBoard().spidev.SpiDev())   # SPI0 has no CE2: no /dev/spidev0.2
    with pytest.raises(ReaderFault, match="/dev/spidev0.2"):
        reader.poll()
    assert not reader.reset()
    reader.close()


def test_a_reader_with_no_chip_raises_at_its_polls_not_at_start():
    reader = SpiReader("p", 0, 0, spi=SpiBoard().spidev.SpiDev())
    assert reader.version is None
    with pytest.raises(ReaderFault):
        reader.poll()


def test_a_deaf_chip_comes_back_through_its_reset_pin(factory):
    board = SpiBoard()
    chip = board.wire(EmulatedChip(EmulatedCard("04A1B2C3")), 0, 0)
    chip.wire_reset_pin(factory.pin(25))
    reader = SpiReader("p", 0, 0, reset=ResetLine(25, factory), spi=board.spidev.SpiDev(), pin_factory=factory)
    assert reader.poll() == "04A1B2C3"
    chip.go_deaf(0xFF, until="hard")
    with pytest.raises(ReaderFault):
        reader.poll()
    factory.pin(25).clear_states()
    assert reader.reset()
    assert [state.state for state in factory.pin(25).states] == [True, False, True]
    assert reader.poll() == "04A1B2C3"
    reader.close()


def test_closing_switches_the_antenna_off_and_releases_the_pins(factory):
    board = SpiBoard()
    chip = board.wire_gpio(EmulatedChip(), 1, factory.pin(16))
    reader = SpiReader("p", 1, cs_pin=16, spi=board.spidev.SpiDev(), pin_factory=factory)
    chip.transfer(bytes([0x14 << 1, 0x83]))   # antenna on, as a crash mid-poll would leave it
    reader.close()
    assert not chip.field
    SpiReader("again", 1, cs_pin=16, spi=board.spidev.SpiDev(), pin_factory=factory).close()


def test_an_spi_device_error_is_a_reader_fault_and_the_reader_comes_back_after_it(factory):
    board = SpiBoard()
    board.wire(EmulatedChip(EmulatedCard("04A1B2C3")), 0, 1)
    spi = board.spidev.SpiDev()
    reader = SpiReader("p", 0, 1, spi=spi)
    spi.close()                                   # the device went away under the reader
    with pytest.raises(ReaderFault, match="/dev/spidev0.1"):
        reader.poll()
    assert reader.reset() and reader.poll() == "04A1B2C3"   # opened again


def test_a_hard_reset_on_a_shared_line_sets_the_other_readers_up_again(factory):
    board = SpiBoard()
    line = ResetLine(25, factory)
    chips = [board.wire(EmulatedChip(EmulatedCard(uid)), 0, ce) for ce, uid in ((0, "04A1B2C3"), (1, "08D1E2F3"))]
    for chip in chips:
        chip.wire_reset_pin(factory.pin(25))
    deaf, healthy = (SpiReader("p", 0, ce, reset=line, spi=board.spidev.SpiDev(), pin_factory=factory)
                     for ce in (0, 1))
    chips[0].go_deaf(0xFF, until="hard")
    with pytest.raises(ReaderFault):
        deaf.poll()
    assert deaf.reset()                                # the pulse also reset the healthy reader's chip...
    assert healthy.poll() == "08D1E2F3"                # ...which was set up again at once: no fault
    assert chips[1].regs[0x2A] == chips[0].regs[0x2A]  # (TModeReg as the driver sets it up, on both)


def test_the_field_settles_when_it_comes_on_and_stays_on_between_polls():
    board = SpiBoard()
    chip = board.wire(EmulatedChip(EmulatedCard("04A1B2C3")), 0, 0)
    settled = []
    reader = SpiReader("p", 0, 0, spi=board.spidev.SpiDev(), settle=lambda: settled.append(chip.field))
    assert [reader.poll() for _ in range(3)] == ["04A1B2C3"] * 3
    assert settled == [True]              # once, with the field already on
    assert chip.field
    reader.close()
