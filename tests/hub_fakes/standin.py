"""Stand-ins for the MFRC522 driver and emulator of branch `rfid` until they land here.

Same interfaces as theirs (Mfrc522(transfer, hard_reset) with probe, poll
and reset; a chip with transfer(bytes) -> bytes), over a toy wire protocol:
one command byte, then the answer.
"""
from table.hardware.ports import ReaderFault

VERSION = 0x92
PRESENT = 0x5A


class StandInChip:
    """An SPI device that tells the stand-in driver the UID in its field; a deaf one answers zeros until reset."""

    def __init__(self):
        self.card = None          # UID bytes of the card in the field
        self.deaf = False
        self.stays_deaf = False   # a reset does not cure it
        self.resets = 0

    def transfer(self, data):
        command = data[:1]
        if command == b"R":
            self.resets += 1
            self.deaf = self.stays_deaf
        if self.deaf:
            return bytes(len(data))
        if command == b"V":
            return bytes((0, VERSION))
        if command == b"P":
            uid = self.card or b""
            return (bytes((PRESENT, len(uid))) + uid).ljust(len(data), b"\x00")
        return bytes(len(data))


class StandInMfrc522:
    """The driver's interface over the stand-in chip."""

    def __init__(self, transfer, hard_reset=None):
        self.transfer = transfer
        self.hard_reset = hard_reset

    def probe(self):
        version = self.transfer(b"V\x00")[1]
        if version != VERSION:
            raise ReaderFault("no MFRC522 answers")
        return version

    def poll(self):
        answer = self.transfer(b"P" + bytes(11))
        if answer[0] != PRESENT:
            raise ReaderFault("garbled answer")
        return answer[2:2 + answer[1]] or None

    def reset(self):
        self.transfer(b"R\x00")
        try:
            self.probe()
        except ReaderFault:
            return False
        return True


class Pads:
    """The cards in the fields of the readers on a board's chip selects."""

    driver = StandInMfrc522

    def __init__(self, board, chip_selects):
        self.chips = [StandInChip() for _ in chip_selects]
        board.devices.update(zip(chip_selects, self.chips))

    def place(self, index, uid):
        self.chips[index].card = bytes.fromhex(uid)

    def remove(self, index):
        self.chips[index].card = None

    def deafen(self, index, until_reset=True):
        self.chips[index].deaf = True
        self.chips[index].stays_deaf = not until_reset
