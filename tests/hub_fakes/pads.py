"""The hub's readers in the tests: emulated MFRC522s (branch rfid's emulator) driven by the real driver file."""
from types import SimpleNamespace

from table.hardware.rfid.emulator import EmulatedCard, EmulatedChip
from table.hardware.rfid.mfrc522 import Mfrc522


class Pads:
    """The emulated chips behind a board's chip selects, and the cards a test puts in their fields."""

    driver = Mfrc522

    def __init__(self, board, chip_selects):
        self.chips = [EmulatedChip() for _ in chip_selects]
        board.devices.update(zip(chip_selects, self.chips))

    def place(self, index, uid):
        """Put the card `uid` (hex) on pad `index`, in place of any other."""
        self.remove(index)
        self.chips[index].place(EmulatedCard(bytes.fromhex(uid)))

    def remove(self, index):
        chip = self.chips[index]
        chip.lift(*chip.cards)

    def deafen(self, index, cured_by="soft"):
        """Make a chip answer nothing but zeros until a `cured_by` ("soft" or "hard") reset."""
        self.chips[index].go_deaf(until=cured_by)


class ResetLine:
    """A board's GPIO as the emulator reads a reset pin wired to a chip: the levels so far, and the level now."""

    def __init__(self, board, gpio):
        self.board = board
        self.gpio = gpio

    @property
    def states(self):
        return [SimpleNamespace(state=level) for level in self.board.written.get(self.gpio, ())]

    @property
    def state(self):
        return self.board.levels.get(self.gpio, 1)
