"""A register-level emulator of the MFRC522 and of ISO 14443-A cards, behind a fake spidev.

Tests run the real drivers against it: ours and the `mfrc522` package. It
models what the drivers can observe: the SPI byte protocol, the registers and
FIFO, the commands Idle, CalcCRC, Transceive, SoftReset and MFAuthent, the
RF field, and cards that follow the ISO 14443-3 state machine. Frames on the
air are lists of bits, least significant bit of each byte first, as sent.

Time: by default a frame exchange completes at once (by the next register
read), which is how transfer budgets are counted. With a `Timing`, each SPI
transfer takes its bytes at the SPI clock plus a fixed host overhead, and an
exchange completes after its air time at 106 kbit/s (ISO 14443-3: the frame
with its start, parity and end bits; the frame delay time, 1236/fc after a
last bit 0 and 1172/fc after a 1; the answer) or, when no card answers,
after the period the chip's timer registers set; a frame is not sent before
the guard time (1172/fc) after the last answer ends; a card answers only
once it has been in the field `Timing.power_up_us`, and an answer from a
card lifted before it ends is lost. A driver then reads its status as often
as it would on hardware.

Simplifications: parity bits are not modelled; the timer only exists as its
TimerIRq after an unanswered frame (when TModeReg.TAuto is set);
TxCRCEn/RxCRCEn and Crypto1 are not emulated (MFAuthent ends with a
protocol error).

CollReg.CollPos counts received bits from bit 0 of the first FIFO byte, so
with RxAlign = n the first received bit is position n + 1. The datasheet is
not explicit about this; drivers that resolve collisions must agree with it.

Faults: no card (an empty field); several cards (their answers are ORed bit
by bit, CollErr and CollPos mark the first bit where they differ);
`EmulatedCard.drop` (a card at the edge of the field misses frames, drawn
from a seeded RNG; 1.0 is a card that never answers: timeouts);
`EmulatedCard.garble` (answers with two bits of one byte flipped, so parity
holds and only BCC or CRC_A can tell); `EmulatedChip.go_deaf` (the chip
answers every read with one value until it is reset).
"""
from __future__ import annotations

import functools
import random
import sys
import types
from unittest import mock

from table.hardware.rfid.mfrc522 import cascade_parts, crc_a

# --- bits on the air

def to_bits(data: bytes, last_bits: int = 0) -> list[int]:
    """The bits of `data`, least significant first; the last byte holds `last_bits` bits (0 for 8)."""
    bits = [byte >> i & 1 for byte in data for i in range(8)]
    return bits[:len(bits) - 8 + last_bits] if data and last_bits else bits


def to_bytes(bits: list[int], align: int = 0) -> tuple[bytes, int]:
    """Pack `bits` into bytes starting at bit `align` of the first byte; (bytes, valid bits in the last byte, 0 for 8)."""
    padded = [0] * align + bits
    data = bytes(sum(bit << i for i, bit in enumerate(padded[start:start + 8])) for start in range(0, len(padded), 8))
    return data, len(padded) % 8


# --- cards

REQA, WUPA = 0x26, 0x52
SEL_CODES = (0x93, 0x95, 0x97)
HLTA = b"\x50\x00"
READ = 0x30
CASCADE_TAG = 0x88


class EmulatedCard:
    """An ISO 14443-3 type A card (PICC): a UID of 4, 7 or 10 bytes and the state it is in.

    States: "off" (no field), "idle", "ready", "active", "halt". `halted` is
    the star of READY* and ACTIVE*: the card was woken from HALT, and an
    error sends it back to HALT instead of IDLE. `blocks` answer READ.
    """

    def __init__(self, uid: str | bytes, sak: int | None = None, blocks: dict[int, bytes] | None = None,
                 drop: float = 0.0, garble: float = 0.0, rng: random.Random | None = None) -> None:
        self.uid = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        if len(self.uid) not in (4, 7, 10):
            raise ValueError("a UID has 4, 7 or 10 bytes")
        self.sak = sak if sak is not None else (0x08 if len(self.uid) == 4 else 0x00)  # MIFARE Classic 1K, NTAG21x
        self.blocks = blocks or {}
        self.drop = drop
        self.garble = garble
        self.rng = rng if rng is not None else random.Random(self.uid)
        self.state = "off"
        self.halted = False
        self.level = 0
        self.placed_us = 0.0      # when it was laid in its chip's field (modelled time)

    @property
    def cascade(self) -> list[bytes]:
        """The UID part of each cascade level with its BCC (cascade tag first on levels that are not the last)."""
        return cascade_parts(self.uid)

    @property
    def atqa(self) -> bytes:
        """Answer to request: UID size in bits 7-8, bit frame anticollision in bit 3."""
        return bytes([{4: 0x00, 7: 0x40, 10: 0x80}[len(self.uid)] | 0x04, 0x00])

    def power_off(self) -> None:
        """Out of the field: the card forgets its state."""
        self.state, self.halted = "off", False

    def hear(self, frame: list[int]) -> list[int] | None:
        """The card's answer to `frame` (bits), or None when it stays silent."""
        if self.state == "off":
            self.state = "idle"   # powered up by the field
        if self.drop and self.rng.random() < self.drop:
            return None           # at the edge of the field: the frame is lost, the state unchanged
        answer = self._answer(frame)
        if answer is not None and self.garble and self.rng.random() < self.garble:
            byte = self.rng.randrange(max(1, len(answer) // 8))
            first, second = self.rng.sample(range(min(8, len(answer))), 2)
            for i in (first, second):
                answer[byte * 8 + i] ^= 1
        return answer

    def _answer(self, frame: list[int]) -> list[int] | None:
        if len(frame) == 7:
            return self._request(to_bytes(frame)[0][0])
        data, _ = to_bytes(frame)
        if self.state == "ready" and data[0] == SEL_CODES[self.level]:
            return self._anticollision_or_select(frame, data)
        if self.state == "active" and data == HLTA + crc_a(HLTA):
            self.state, self.halted = "halt", True
            return None
        if self.state == "active" and len(data) == 4 and data[0] == READ and data[2:] == crc_a(data[:2]):
            block = self.blocks.get(data[1], bytes(16))
            return to_bits(block + crc_a(block))
        return self._error()

    def _request(self, command: int) -> list[int] | None:
        if command == WUPA and self.state in ("idle", "halt") or command == REQA and self.state == "idle":
            self.state, self.level = "ready", 0
            return to_bits(self.atqa)
        return self._error()

    def _anticollision_or_select(self, frame: list[int], data: bytes) -> list[int] | None:
        own = to_bits(self.cascade[self.level])
        if data[1] == 0x70 and len(data) == 9:   # SELECT
            if data[7:] != crc_a(data[:7]) or data[2:7] != self.cascade[self.level]:
                return self._error()
            self.level += 1
            if self.level < len(self.cascade):
                sak = 0x04                        # UID not complete: next cascade level
            else:
                self.state, sak = "active", self.sak
            return to_bits(bytes([sak]) + crc_a(bytes([sak])))
        known = ((data[1] >> 4) - 2) * 8 + (data[1] & 0x07)
        if not 0 <= known < 40 or len(frame) != 16 + known:
            return self._error()
        if frame[16:] != own[:known]:
            return None                           # another card's prefix: keep listening
        return own[known:]

    def _error(self) -> None:
        """A frame the state does not expect: back to IDLE (HALT for a card woken from HALT)."""
        if self.state in ("ready", "active"):
            self.state = "halt" if self.halted else "idle"
        return None


GET_VERSION, WRITE, PWD_AUTH = 0x60, 0xA2, 0x1B
ACK, NAK = 0x0A, 0x00                     # 4-bit answers to WRITE (and NAK to a PWD_AUTH that fails)
NTAG_SIZES = {"213": (45, 0x0F), "215": (135, 0x11), "216": (231, 0x13)}   # pages, GET_VERSION storage size


class EmulatedNtag(EmulatedCard):
    """An NTAG213, 215 or 216 (a 7-byte UID): its pages (the UID on the first three), GET_VERSION, READ (four
    pages), WRITE and the password protection of NTAG21x.

    The four configuration pages end the memory: CFG0 (its byte 3 is AUTH0, the
    first page a password protects from writes; 0xFF: none), CFG1, PWD (four
    bytes, read as zeros) and PACK (two bytes, read as zeros); reads are not
    protected here (ACCESS.PROT is not emulated). PWD_AUTH with the card's PWD answers PACK and opens the protected
    pages until the card leaves the field; with another password it answers
    NAK and goes back to IDLE (HALT when woken from HALT).
    """

    def __init__(self, uid: str | bytes, model: str = "213", **kwargs) -> None:
        super().__init__(uid, **kwargs)
        if len(self.uid) != 7:
            raise ValueError("an NTAG has a 7-byte UID")
        pages, self.size_code = NTAG_SIZES[model]
        self.pages = [bytes(4)] * pages
        uid = self.uid                        # pages 0-2: the UID and its check bytes, as the datasheet lays them out
        self.pages[0] = uid[:3] + bytes((0x88 ^ uid[0] ^ uid[1] ^ uid[2],))
        self.pages[1] = uid[3:]
        self.pages[2] = bytes((uid[3] ^ uid[4] ^ uid[5] ^ uid[6], 0x48, 0x00, 0x00))
        self.cfg = pages - 4                  # CFG0's page
        self.pages[self.cfg] = bytes((0x04, 0x00, 0x00, 0xFF))     # AUTH0 0xFF: nothing protected
        self.pages[self.cfg + 2] = b"\xff" * 4                     # PWD: FF FF FF FF from the factory
        self.authenticated = False

    @property
    def password(self) -> bytes:
        return self.pages[self.cfg + 2]

    @property
    def pack(self) -> bytes:
        return self.pages[self.cfg + 3][:2]

    def given(self, password: bytes, pack: bytes) -> EmulatedNtag:
        """This tag as an enrolment station leaves it: `password` and `pack` written, user memory protected."""
        self.pages[self.cfg + 2], self.pages[self.cfg + 3] = bytes(password), bytes(pack) + bytes(2)
        self.pages[self.cfg] = self.pages[self.cfg][:3] + b"\x04"   # AUTH0 4: writes from page 4 on need it
        return self

    def power_off(self) -> None:
        super().power_off()
        self.authenticated = False

    def _answer(self, frame: list[int]) -> list[int] | None:
        data, _ = to_bytes(frame)
        if self.state != "active" or len(data) < 3 or data[-2:] != crc_a(data[:-2]) or data[0] == HLTA[0]:
            return super()._answer(frame)
        command, args = data[0], data[1:-2]
        if command == GET_VERSION and not args:
            return self._with_crc(bytes((0x00, 0x04, 0x04, 0x02, 0x01, 0x00, self.size_code, 0x03)))
        if command == READ and len(args) == 1 and args[0] < len(self.pages):
            return self._with_crc(b"".join(self._readable(args[0] + i) for i in range(4)))
        if command == WRITE and len(args) == 5 and args[0] < len(self.pages):
            if args[0] < 3 or not self._open(args[0]):    # UID and lock pages are not written here
                return to_bits(bytes((NAK,)))[:4]
            self.pages[args[0]] = bytes(args[1:])
            return to_bits(bytes((ACK,)))[:4]
        if command == PWD_AUTH and len(args) == 4:
            if bytes(args) != self.password:
                self._error()
                return to_bits(bytes((NAK,)))[:4]
            self.authenticated = True
            return self._with_crc(self.pack)
        return super()._answer(frame)

    def _open(self, page: int) -> bool:
        """Whether `page` may be written now: below AUTH0, or after the password was given."""
        return page < self.pages[self.cfg][3] or self.authenticated

    def _readable(self, page: int) -> bytes:
        page %= len(self.pages)               # READ rolls over at the end of the memory
        return bytes(4) if page in (self.cfg + 2, self.cfg + 3) else self.pages[page]   # PWD, PACK: zeros

    @staticmethod
    def _with_crc(data: bytes) -> list[int]:
        return to_bits(data + crc_a(data))


# --- the chip

COMMAND, COM_IEN, DIV_IEN, COM_IRQ, DIV_IRQ, ERROR, STATUS1, STATUS2 = range(0x01, 0x09)
FIFO_DATA, FIFO_LEVEL, WATER_LEVEL, CONTROL, BIT_FRAMING, COLL = range(0x09, 0x0F)
MODE, TX_MODE, RX_MODE, TX_CONTROL, TX_ASK = range(0x11, 0x16)
CRC_RESULT_H, CRC_RESULT_L = 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = range(0x2A, 0x2E)
VERSION = 0x37

IDLE, CALC_CRC, NO_CMD_CHANGE, TRANSCEIVE, MF_AUTHENT, SOFT_RESET = 0x0, 0x3, 0x7, 0xC, 0xE, 0xF

TX_IRQ, RX_IRQ, IDLE_IRQ, ERR_IRQ, TIMER_IRQ = 0x40, 0x20, 0x10, 0x02, 0x01
CRC_IRQ = 0x04
BUFFER_OVFL, COLL_ERR, PROTOCOL_ERR = 0x10, 0x08, 0x01
FIFO_SIZE = 64

RESET_VALUES = {
    COMMAND: 0x20, COM_IEN: 0x80, COM_IRQ: 0x14, WATER_LEVEL: 0x08, CONTROL: 0x10, COLL: 0xA0,
    MODE: 0x3F, TX_CONTROL: 0x80, CRC_RESULT_H: 0xFF, CRC_RESULT_L: 0xFF,
}
CRC_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)   # ModeReg.CRCPreset


BIT_US = 128 / 13.56      # one bit on the air at 106 kbit/s
FDT_US = (1172 / 13.56, 1236 / 13.56)   # frame delay time, reader's last bit to the card's first, after a last bit 1 / 0
GUARD_US = 1172 / 13.56   # the least time from the end of a card's answer to the reader's next frame


def air_us(bits: int) -> float:
    """Air time of a frame of `bits` data bits: start bit, a parity bit per whole byte, end."""
    return (bits + bits // 8 + 2) * BIT_US


class Timing:
    """A model of time for the emulator: SPI at `spi_hz`, plus `overhead_us` per transfer for the host's call into
    its SPI driver; a card answers once it has been in the field `power_up_us` (ISO 14443-3 allows 5 ms; real
    cards need well under 1)."""

    def __init__(self, spi_hz: int = 1_000_000, overhead_us: float = 25.0, power_up_us: float = 1000.0) -> None:
        self.spi_hz = spi_hz
        self.overhead_us = overhead_us
        self.power_up_us = power_up_us

    def transfer_us(self, length: int) -> float:
        return length * 8e6 / self.spi_hz + self.overhead_us


class EmulatedChip:
    """One MFRC522: registers, FIFO, the running command, its RF field and the cards in that field.

    `transfer(data)` is one SPI transaction with the chip selected.
    `transfers` and `bytes` count them and `now_us` is the modelled time
    (with a `timing`), for benchmarks and transfer budgets.
    """

    def __init__(self, *cards: EmulatedCard, version: int = 0x92, timing: Timing | None = None) -> None:
        self.version = version
        self.cards: list[EmulatedCard] = []
        self.timing = timing
        self.transfers = 0
        self.bytes = 0
        self.now_us = 0.0
        self.field_us = 0.0       # when the field last came on
        self.quiet_us = 0.0       # when the last answer on the air ended
        self.deaf: tuple[int, str] | None = None   # (value read, "soft" or "hard": the reset that cures it)
        self.reset_pin = None
        self._reset_states_seen = 0
        self._power_on()
        self.place(*cards)

    # --- the outside world

    def place(self, *cards: EmulatedCard) -> None:
        """Put cards on the pad (now, in the chip's modelled time)."""
        for card in cards:
            card.placed_us = self.now_us
        self.cards.extend(cards)

    def lift(self, *cards: EmulatedCard) -> None:
        """Take cards off the pad (they lose power)."""
        for card in cards:
            self.cards.remove(card)
            card.power_off()

    def go_deaf(self, value: int = 0x00, until: str = "hard") -> None:
        """Answer every read with `value` and ignore writes, until a soft (`until="soft"`) or hard reset."""
        self.deaf = (value, until)

    def wire_reset_pin(self, pin) -> None:
        """Wire the chip's NRSTPD pin to `pin` (a gpiozero MockPin): low holds the chip in reset."""
        self.reset_pin = pin
        self._reset_states_seen = len(pin.states)

    def hard_reset(self) -> None:
        """The reset pin was pulsed: power-on state."""
        self._power_on()

    @property
    def field(self) -> bool:
        """The RF field is on (TxControlReg: Tx1RFEn or Tx2RFEn)."""
        return bool(self.regs[TX_CONTROL] & 0x03)

    # --- SPI

    def transfer(self, data: bytes) -> bytes:
        """One SPI transaction: a read (address bit 7 set) reads one register per byte; a write fills one register."""
        self.transfers += 1
        self.bytes += len(data)
        if self.timing is not None:
            self.now_us += self.timing.transfer_us(len(data))
        self._settle()
        if self._held_in_reset():
            return bytes(len(data))
        if self.deaf:
            value, until = self.deaf
            if until == "soft" and data[:2] == bytes([COMMAND << 1, SOFT_RESET]):
                self._power_on()
            return bytes([value] * len(data))
        address = data[0] >> 1 & 0x3F
        if data[0] & 0x80:
            return bytes([0] + [self._read(byte >> 1 & 0x3F) for byte in data[:-1]])
        for value in data[1:]:
            self._write(address, value)
        return bytes(len(data))

    def _held_in_reset(self) -> bool:
        """Follow the reset pin, if wired: a low level since the last transfer resets the chip."""
        if self.reset_pin is None:
            return False
        states = self.reset_pin.states
        if any(not state.state for state in states[self._reset_states_seen:]):
            self.hard_reset()
        self._reset_states_seen = len(states)
        return not self.reset_pin.state

    # --- registers

    def _power_on(self) -> None:
        self.regs = bytearray(0x40)
        for register, value in RESET_VALUES.items():
            self.regs[register] = value
        self.regs[VERSION] = self.version
        self.fifo = bytearray()
        self.command = IDLE
        self.deaf = None
        self._crc_input = bytearray()
        self._steps = []          # of the frame exchange under way: (when, what changes in the registers)
        for card in self.cards:
            card.power_off()

    def _read(self, register: int) -> int:
        if register == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if register == FIFO_LEVEL:
            return len(self.fifo)
        if register == COMMAND:
            return self.regs[COMMAND] & 0x30 | self.command
        return self.regs[register]

    def _write(self, register: int, value: int) -> None:
        if register == COMMAND:
            self.regs[COMMAND] = value & 0x30
            self._start(value & 0x0F)
        elif register in (COM_IRQ, DIV_IRQ):   # bit 7 set: set the marked bits; clear: clear them
            marked = value & 0x7F
            self.regs[register] = self.regs[register] | marked if value & 0x80 else self.regs[register] & ~marked
        elif register == FIFO_DATA:
            self._push(value)
        elif register == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
                self.regs[ERROR] &= ~BUFFER_OVFL
        elif register == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value
            if value & 0x80 and self.command == TRANSCEIVE:
                self._transceive()
        elif register == COLL:
            self.regs[COLL] = value & 0x80 | self.regs[COLL] & 0x7F
        elif register == TX_CONTROL:
            was_on = self.field
            self.regs[TX_CONTROL] = value
            if not self.field:
                for card in self.cards:
                    card.power_off()
            elif not was_on:
                self.field_us = self.now_us
        elif register not in (ERROR, STATUS1, FIFO_LEVEL, CONTROL, VERSION):   # read-only or not modelled
            self.regs[register] = value

    def _push(self, value: int) -> None:
        if len(self.fifo) == FIFO_SIZE:
            self.regs[ERROR] |= BUFFER_OVFL
            return
        self.fifo.append(value)
        if self.command == CALC_CRC:
            self._calc_crc()

    # --- commands

    def _start(self, command: int) -> None:
        if command == NO_CMD_CHANGE:          # a write that only changes PowerDown or RcvOff
            return
        self.command = command
        self._steps = []
        if command == SOFT_RESET:
            self._power_on()
            self.regs[COM_IRQ] |= IDLE_IRQ
        elif command == CALC_CRC:
            self._crc_input = bytearray()
            self._calc_crc()
        elif command == MF_AUTHENT:   # Crypto1 is not emulated
            self.command = IDLE
            self.regs[ERROR] = PROTOCOL_ERR
            self.regs[COM_IRQ] |= ERR_IRQ | IDLE_IRQ
        elif command not in (IDLE, TRANSCEIVE):
            raise NotImplementedError("command 0x%X is not emulated" % command)

    def _calc_crc(self) -> None:
        """CalcCRC runs until another command: every byte in the FIFO goes into the CRC."""
        self._crc_input += self.fifo
        self.fifo.clear()
        self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_H] = crc_a(self._crc_input, CRC_PRESETS[self.regs[MODE] & 0x03])
        self.regs[DIV_IRQ] |= CRC_IRQ

    def _transceive(self) -> None:
        """StartSend: send the FIFO to the field; what comes back lands once the exchange is over."""
        framing = self.regs[BIT_FRAMING]
        frame = to_bits(bytes(self.fifo), framing & 0x07)
        self.fifo.clear()
        heard = [(card, card.hear(frame)) for card in list(self.cards) if self._powered(card)]
        heard = [(card, answer) for card, answer in heard if answer is not None]
        timed = self.timing is not None
        start = max(self.now_us, self.quiet_us + GUARD_US) if timed else self.now_us
        sent = start + air_us(len(frame)) * timed
        timeout = (sent + self.timer_us() * timed, lambda: self._irq(TIMER_IRQ))
        self._steps = [(sent, lambda: self._irq(TX_IRQ))]
        if heard:
            end = sent + (FDT_US[frame[-1]] + air_us(max(len(answer) for _, answer in heard))) * timed
            self._steps.append((end, lambda: self._answers(heard, framing >> 4 & 0x07, end, timeout)))
        elif self.regs[T_MODE] & 0x80:        # TAuto: the timer starts after sending and runs out
            self._steps.append(timeout)
        self.regs[ERROR] = 0
        self.regs[COLL] |= 0x20               # CollPosNotValid until a collision is seen
        self._settle()

    def _powered(self, card: EmulatedCard) -> bool:
        """Whether `card` is powered up in the field: with time modelled, `power_up_us` after the field came on or
        the card was laid in it."""
        if not self.field:
            return False
        return self.timing is None or self.now_us >= max(self.field_us, card.placed_us) + self.timing.power_up_us

    def _answers(self, heard: list[tuple[EmulatedCard, list[int]]], align: int, end: float, timeout) -> None:
        """The cards' answers end (at `end`): the chip receives those of the cards still in the field (a card lifted
        before its answer ended is not heard; with none left, the `timeout` step comes)."""
        answers = [answer for card, answer in heard if card in self.cards]
        if not answers:
            if self.regs[T_MODE] & 0x80:
                self._steps.append(timeout)
            return
        self.quiet_us = end
        received, collision = _superpose(answers)
        self._receive(received, collision, align)

    def _settle(self) -> None:
        """Take the steps of the frame exchange under way whose time has come."""
        while self._steps and self._steps[0][0] <= self.now_us:
            self._steps.pop(0)[1]()

    def _irq(self, bits: int) -> None:
        self.regs[COM_IRQ] |= bits

    def _receive(self, received: list[int], collision: int | None, align: int) -> None:
        if collision is not None:
            if not self.regs[COLL] & 0x80:    # ValuesAfterColl cleared: bits after the collision read 0
                received[collision + 1:] = [0] * (len(received) - collision - 1)
            position = align + collision + 1
            self.regs[COLL] = self.regs[COLL] & 0x80 | (position & 0x1F if position <= 32 else 0x20)
            self.regs[ERROR] |= COLL_ERR
            self._irq(ERR_IRQ)
        data, last_bits = to_bytes(received, align)
        self.fifo.extend(data[:FIFO_SIZE])
        self.regs[CONTROL] = self.regs[CONTROL] & 0xF8 | last_bits
        self._irq(RX_IRQ)

    def timer_us(self) -> float:
        """The timer period set in TModeReg, TPrescalerReg and TReloadReg, in microseconds."""
        prescaler = (self.regs[T_MODE] & 0x0F) << 8 | self.regs[T_PRESCALER]
        reload = self.regs[T_RELOAD_H] << 8 | self.regs[T_RELOAD_L]
        return (2 * prescaler + 1) * (reload + 1) / 13.56


def _superpose(answers: list[list[int]]) -> tuple[list[int], int | None]:
    """What the reader hears when cards answer at once: the OR of their bits and the first bit where they differ."""
    length = max(len(answer) for answer in answers)
    padded = [answer + [0] * (length - len(answer)) for answer in answers]
    received = [max(bits) for bits in zip(*padded)]
    differ = [i for i, bits in enumerate(zip(*padded)) if min(bits) != max(bits)]
    return received, (differ[0] if differ else None)


# --- the fake spidev

CHIP_ENABLES = {0: 2, 1: 3}   # a Raspberry Pi's SPI buses and their CE lines


class SpiBoard:
    """The SPI buses of a Pi with emulated chips wired to them, by CE line or by a GPIO chip select.

    `spidev` is a module that stands in for the real one: `board.spidev.SpiDev()`.
    """

    def __init__(self) -> None:
        self._by_ce: dict[tuple[int, int], EmulatedChip] = {}
        self._by_gpio: list[tuple[int, object, EmulatedChip]] = []
        self.spidev = types.ModuleType("spidev", "fake spidev over emulated MFRC522 chips")
        self.spidev.SpiDev = functools.partial(FakeSpiDev, self)

    def wire(self, chip: EmulatedChip, bus: int, device: int) -> EmulatedChip:
        """Wire `chip` to chip-enable line `device` of SPI bus `bus`."""
        if device >= CHIP_ENABLES.get(bus, 0):
            raise ValueError("SPI%d has no CE%d" % (bus, device))
        self._by_ce[bus, device] = chip
        return chip

    def wire_gpio(self, chip: EmulatedChip, bus: int, pin) -> EmulatedChip:
        """Wire `chip` to SPI bus `bus` with its chip select on a GPIO `pin` (a gpiozero MockPin; low selects)."""
        self._by_gpio.append((bus, pin, chip))
        return chip

    def selected(self, bus: int, device: int, no_cs: bool) -> list[EmulatedChip]:
        """The chips that see a transaction on `bus` opened on CE `device`."""
        chips = [chip for on, pin, chip in self._by_gpio if on == bus and not pin.state]
        if not no_cs and (bus, device) in self._by_ce:
            chips.append(self._by_ce[bus, device])
        return chips


class FakeSpiDev:
    """Stands in for `spidev.SpiDev`: the calls both drivers make, answered by the chips of a SpiBoard.

    With several chips selected at once their MISO bytes are ORed; with none, MISO reads 0.
    `transfers` counts the transactions made through this object.
    """

    def __init__(self, board: SpiBoard, bus: int | None = None, device: int | None = None) -> None:
        self.board = board
        self.mode = 0
        self.max_speed_hz = 125_000_000
        self.bits_per_word = 8
        self.no_cs = False
        self.link: tuple[int, int] | None = None
        self.transfers = 0
        if bus is not None:
            self.open(bus, device)

    def open(self, bus: int, device: int) -> None:
        if device >= CHIP_ENABLES.get(bus, 0):
            raise FileNotFoundError(2, "No such file or directory: /dev/spidev%d.%d" % (bus, device))
        self.link = (bus, device)

    def close(self) -> None:
        self.link = None

    def xfer2(self, values: list[int], *settings) -> list[int]:
        if self.link is None:
            raise OSError(9, "Bad file descriptor")
        self.transfers += 1
        answer = [0] * len(values)
        for chip in self.board.selected(*self.link, self.no_cs):
            answer = [a | b for a, b in zip(answer, chip.transfer(bytes(values)))]
        return answer

    xfer = xfer2

    def writebytes(self, values: list[int]) -> None:
        self.xfer2(values)

    def readbytes(self, length: int) -> list[int]:
        return self.xfer2([0] * length)


def installed(board: SpiBoard, rpi: types.ModuleType | None = None):
    """A context manager that puts `board.spidev` (and `rpi` as RPi, e.g. fake_rpi.RPi) in sys.modules.

    Modules imported inside it (such as `mfrc522`) are forgotten on the way
    out, so the next import binds the next board.
    """
    modules = {"spidev": board.spidev}
    if rpi is not None:
        modules.update({"RPi": rpi, "RPi.GPIO": rpi.GPIO})
    return mock.patch.dict(sys.modules, modules)
