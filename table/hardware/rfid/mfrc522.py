"""MFRC522 reader driver: one poll cycle finds the card on the pad (ISO 14443-3 type A).

The same file runs under CPython on the Pi and under MicroPython on a seat
hub's Pico, so it uses builtins only and needs no clock: every wait is a
bounded number of register reads, but for the wait for a card to power up
after the field comes on, which the caller gives as `settle`.

The field stays on from one poll to the next (it is switched on, and the
cards given `settle` to power up, only at the first poll after a reset or a
proof). The card the previous poll read is checked cheaply. An NTAG (a
7-byte UID and SAK 00, the tags of the decks) is left selected (ACTIVE) and
asked to READ its first pages at the next poll, which begin with its UID: a
card laid in the field powers up IDLE and does not answer, and a card slid
in from a neighbouring pad still selected there answers with its own UID.
Any other card was halted, and is woken (WUPA) and selected at once with
its known UID, cascade level by cascade level, without anticollision. Only
a card that does not answer to either (a new card, or none) costs a full
identification: WUPA, the anticollision loop over the cascade levels (4-,
7- and 10-byte UIDs) and SELECT (CRC_A checked on the SAK). A card with an
NTAG's SAK that does not answer the READ so is halted like the others from
then on.

SPI framing (MFRC522 datasheet 8.1.2): a write sends the register address and
then any number of bytes for that one register (so the FIFO is filled in one
transfer); a read sends one address per byte and gets each value back one
byte later (so several registers are read in one transfer).
"""

try:
    from table.hardware.ports import ReaderFault
except ImportError:   # MicroPython on a seat hub
    class ReaderFault(Exception):
        """A reader did not answer as its chip should; it may recover after a reset."""

# Registers (datasheet 9.2)
COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
TX_CONTROL = 0x14
TX_ASK = 0x15
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# Commands (datasheet 10.3)
IDLE = 0x00
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F

# Register bits
POWER_DOWN = 0x10        # CommandReg: still in (soft) power-down
TX_IRQ = 0x40            # ComIrqReg: the frame was sent
RX_IRQ = 0x20            # ComIrqReg: a frame was received
TIMER_IRQ = 0x01         # ComIrqReg: the timer ran out (no card answered)
CLEAR_IRQS = 0x7F        # ComIrqReg write with Set1 = 0: clear every request
FLUSH = 0x80             # FIFOLevelReg
START_SEND = 0x80        # BitFramingReg
GARBLED = 0x13           # ErrorReg: BufferOvfl, ParityErr, ProtocolErr
COLL_ERR = 0x08          # ErrorReg: bit collision
COLL_POS_NOT_VALID = 0x20
ANTENNA_ON = 0x83        # TxControlReg: Tx1RFEn and Tx2RFEn
ANTENNA_OFF = 0x80

# Set at probe and read back: the timer starts when a frame is sent (TAuto)
# and times out after (9 + 1) ticks of 25 us = 250 us, almost three times the
# frame delay time of an ISO 14443-A card (1236/fc = 91 us; the timer stops
# at the first bit received, so a long answer is not cut); 100 % ASK. Then
# bitwise anticollision. CRC_A is computed here, not by the chip.
TIMER = 9
WRITE_TIMER = 240             # ticks: 6 ms, for a card that programs its memory before it answers
SETTINGS = (
    (T_MODE, 0x80),
    (T_PRESCALER, 0xA9),
    (T_RELOAD_H, 0x00),
    (T_RELOAD_L, TIMER),
    (TX_ASK, 0x40),
)
BITWISE_ANTICOLLISION = 0x00   # CollReg.ValuesAfterColl cleared: bits after a collision read 0

# Version register values of real chips and of the clones sold on modules
VERSIONS = (0x12, 0x88, 0x90, 0x91, 0x92, 0xB2)

# ISO 14443-3 type A
WUPA = 0x52
SELECT = (0x93, 0x95, 0x97)   # SEL codes of cascade levels 1, 2, 3
CASCADE_TAG = 0x88
SAK_INCOMPLETE = 0x04
HLTA = b"\x50\x00"
LONGEST_ANSWER = 5            # bytes: a UID part and its BCC
COLLIDED = b"\x00\x00"        # stands for the ATQA of cards whose ATQAs differ (no card's is 00 00: one of b1-b5 is set)

# NTAG21x (NXP NTAG213/215/216 datasheet, section 10): commands to a selected card, and its password protection
GET_VERSION = 0x60
VERSION_LENGTH = 10           # bytes in GET_VERSION's answer, CRC_A included
NTAG_SAK = 0x00               # the SAK of an NTAG (and of a MIFARE Ultralight)
PAGES_LENGTH = 18             # bytes in READ's answer (four pages), CRC_A included
READ = 0x30
WRITE = 0xA2
PWD_AUTH = 0x1B
ACK = 0x0A                    # the 4-bit answer to a WRITE that was done
NTAG_CFG0 = {0x0F: 0x29, 0x11: 0x83, 0x13: 0xE3}   # GET_VERSION's storage size -> the page of CFG0 (AUTH0: byte 3)
FACTORY_PASSWORD = b"\xff\xff\xff\xff"
PROTECT_FROM = 0x04           # AUTH0 of a protected card: writes to its user memory need the password

# Bounds on waits, in register reads: each read takes tens of microseconds,
# so these outlast the 525 us timer (or the reset) many times over.
RESET_READS = 1000
TRANSCEIVE_READS = 200
WRITE_READS = 2000            # the same for a WRITE's 6 ms

# Read in one transfer after every frame sent: completion, errors, answer size, chip identity
STATUS = (COM_IRQ, ERROR, FIFO_LEVEL, CONTROL, COLL, VERSION)


# Timings for whoever drives the chip's reset pin and field (the driver itself has no clock):
RESET_LOW_MS = 1    # a hard reset holds NRSTPD low this long (the datasheet asks for 100 ns)
STARTUP_MS = 50     # then waits this long for the oscillator to start before anything speaks to the chip
                    # (a wide margin over the datasheet's crystal start-up)
# A card in the field needs time to power up before it can answer: ISO 14443-3
# allows it up to 5 ms after the field comes on. Real cards (MIFARE Classic
# and Ultralight, NTAG) are ready well within 1 ms, so 2 ms is a margin for
# them. The field stays on between polls, so the wait is paid only when the
# field comes on (after a reset or a proof); a card laid in a field already on
# that is not ready yet reads as no card at this poll and is read at the next.
FIELD_SETTLE_MS = 2


def cascade_parts(uid):
    """The UID part of each cascade level of `uid` (4, 7 or 10 bytes) with its BCC, the cascade tag first on levels
    that are not the last."""
    parts = []
    while len(uid) > 4:
        parts.append(bytes((CASCADE_TAG,)) + uid[:3])
        uid = uid[3:]
    parts.append(uid)
    return [part + bytes((part[0] ^ part[1] ^ part[2] ^ part[3],)) for part in parts]


def crc_a(data, preset=0x6363):
    """The ISO 14443-3 CRC_A of `data`, as the two bytes sent after it (low byte first); `preset` for other CRCs of the chip."""
    crc = preset
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return bytes((crc & 0xFF, crc >> 8))


class Mfrc522:
    """One MFRC522 chip, reached through `transfer` (one SPI transaction, chip select held).

    `hard_reset`, if given, pulses the chip's reset pin low then high and
    returns once the chip can be spoken to again. `settle`, if given, is
    called right after the antenna is switched on and returns once a card in
    the field has had time to power up (ISO 14443-3 gives a card up to 5 ms).
    The field stays on between polls, so that is at the first poll after a
    reset or a proof. The driver has no clock of its own: the caller's settle
    sleeps.
    """

    def __init__(self, transfer, hard_reset=None, settle=None):
        self._transfer = transfer
        self._hard_reset = hard_reset
        self._settle = settle
        self.version = None
        self._field = False    # the antenna is on and the cards in it had time to power up
        self._known = None     # (UID, ATQA, left selected) of the card the last poll read, checked first at the next

    def probe(self) -> int:
        """Soft-reset and set up the chip; its VersionReg value. Raises ReaderFault if it does not answer as an MFRC522."""
        self.version = None
        self._forget()                          # a soft reset switches the field off
        self._write(COMMAND, (SOFT_RESET,))
        for _ in range(RESET_READS):
            if not self._read((COMMAND,))[0] & POWER_DOWN:
                break
        else:
            raise ReaderFault("the chip stays in power-down after a soft reset")
        for register, value in SETTINGS:
            self._write(register, (value,))
        self._write(COLL, (BITWISE_ANTICOLLISION,))   # not read back: status bits
        values = self._read([register for register, _ in SETTINGS] + [VERSION])
        version = values[-1]
        if values[:-1] != bytes([value for _, value in SETTINGS]):
            raise ReaderFault("registers do not read back what was written")
        if version not in VERSIONS:
            raise ReaderFault("unknown chip version 0x%02X" % version)
        self.version = version
        return version

    def poll(self):
        """The UID of the card on the pad (bytes), or None when there is none or it could not be read cleanly.

        Raises ReaderFault when the chip stops answering.
        """
        known, self._known = self._known, None
        self._known = self._in_field(lambda: self._find(known), keep=True)
        return None if self._known is None else self._known[0]

    def authenticate(self, password, uid=None):
        """The PACK (2 bytes) the card on the pad answers to PWD_AUTH with `password` (4 bytes): an NTAG21x proves
        it holds that password; None when no card answers it (no card, another password, a same-UID clone that has
        no password) or when the card selected is not `uid` (bytes), if given. Raises ReaderFault when the chip
        stops answering."""
        return self._with_card(lambda: self._pwd_auth(password), uid)

    def protect(self, password, pack, current=FACTORY_PASSWORD, uid=None):
        """Give the NTAG21x on the pad (card `uid`, if given) `password` and `pack` and protect writes to its memory
        with them; the card must take `current` (its factory password, or `password` when protected already).
        True when done."""
        return bool(self._with_card(lambda: self._protect(password, pack, current), uid))

    def reset(self, hard: bool = True) -> bool:
        """Soft reset, then (if `hard`) a hard reset if that did not bring the chip back; True when it answers its
        probe again."""
        if self._probes():
            return True
        if self._hard_reset is None or not hard:
            return False
        self._hard_reset()
        return self._probes()

    def antenna_off(self):
        """Switch the RF field off (cards in it lose power)."""
        self._forget()
        self._write(TX_CONTROL, (ANTENNA_OFF,))

    def _forget(self):
        """The field is (going) off: the next poll powers the cards up again and knows no card."""
        self._field, self._known = False, None

    def _probes(self):
        try:
            self.probe()
        except ReaderFault:
            return False
        return True

    def _in_field(self, step, keep=False):
        """`step()` with the antenna on and the cards in the field powered up; then the field stays on if `keep`,
        else goes off (a card loses power, and with it its selection and its authentication). On a fault the
        field goes off."""
        if self.version is None:
            self.probe()
        kept = False
        self._write(TX_CONTROL, (ANTENNA_ON,))   # written at every poll: a chip that lost it has it again
        try:
            if not self._field:
                if self._settle is not None:
                    self._settle()   # the cards power up in the field before they are spoken to
                self._field = True
            self._write(COMMAND, (TRANSCEIVE,))
            result = step()
            kept = keep
            return result
        finally:
            self._write(COMMAND, (IDLE,))
            if not kept:
                self.antenna_off()

    def _with_card(self, step, uid=None):
        """With one card selected (and left selected), `step()`; None when no card is there, or another than `uid`."""
        def selected():
            if self._known is not None and self._known[2]:
                self._halt()   # the card the last poll left selected would not answer the WUPA
            found = self._wake() and self._cascade()
            return None if found is None or uid is not None and found[0] != uid else step()
        return self._in_field(selected)

    def _pwd_auth(self, password):
        frame = bytes((PWD_AUTH,)) + bytes(password)
        answer = self._transceive(frame + crc_a(frame), longest=4)
        if answer is None or answer[1] != 32 or answer[2] is not None or crc_a(answer[0][:2]) != answer[0][2:]:
            return None
        return answer[0][:2]

    def _protect(self, password, pack, current):
        """PWD_AUTH, then PWD, PACK and AUTH0 written (CFG0 last: the new password is in place before it counts)."""
        version = self._command(bytes((GET_VERSION,)), VERSION_LENGTH)
        cfg = version and NTAG_CFG0.get(version[6])
        if cfg is None or self._pwd_auth(current) is None:
            return False
        config = self._command(bytes((READ, cfg)), 18)
        return bool(config) and all(self._write_page(page, data) for page, data in (
            (cfg + 2, bytes(password)), (cfg + 3, bytes(pack) + b"\x00\x00"),
            (cfg, config[:3] + bytes((PROTECT_FROM,)))))

    def _command(self, frame, length):
        """A command to the selected card whose answer is `length` bytes with its CRC_A; the answer or None."""
        answer = self._transceive(frame + crc_a(frame), longest=length)
        if answer is None or answer[1] != 8 * length or answer[2] is not None:
            return None
        data = answer[0]
        return data[:-2] if crc_a(data[:-2]) == data[-2:] else None

    def _write_page(self, page, data):
        """WRITE four bytes to `page`; True when the card ACKs. The card programs its memory before it answers
        (up to 5 ms): the chip's timer is stretched for it."""
        frame = bytes((WRITE, page)) + data
        self._write(T_RELOAD_L, (WRITE_TIMER,))
        try:
            answer = self._transceive(frame + crc_a(frame), longest=1, reads=WRITE_READS)
        finally:
            self._write(T_RELOAD_L, (TIMER,))
        return answer is not None and answer[1] == 4 and answer[0][0] & 0x0F == ACK

    def _find(self, known):
        """The card on the pad: (its UID, the ATQA heard, whether it was left selected), or None.

        `known` (what the last poll read) is checked first: a card left
        selected that reads as that UID is still there; else the cards in the
        field are woken, and when the ATQA is that card's, it is selected at
        once with its known UID. A card that does not answer is no longer
        there, and the cards in the field (back in IDLE or HALT after a
        SELECT not theirs) are identified. When a card answered but was not
        read (an answer lost or garbled), the field goes off: no card is left
        halfway through an exchange.
        """
        selected = known is not None and known[2]
        if selected:
            if self._reads_as(known[0]):
                return known
            self._halt()     # a card still selected whose answer was lost: halted, so that the WUPA wakes it
        atqa = self._wake()
        if atqa is None:
            if selected:     # the card may not have heard the HLTA: it powers up IDLE at the next poll
                self.antenna_off()
            return None
        if known is not None and atqa == known[1]:
            if self._select_known(known[0]):
                return known[0], atqa, False
            atqa = self._wake()
        found = atqa and self._cascade()
        if found:
            uid, sak = found
            left_selected = sak == NTAG_SAK and len(uid) == 7
            if not left_selected:
                self._halt()
            return uid, atqa, left_selected
        self.antenna_off()   # a card answered but was not read: it powers up IDLE at the next poll, whatever its state
        return None

    def _reads_as(self, uid):
        """Whether the selected card's first pages hold `uid` (7 bytes: SN0-SN2 on page 0 before BCC0, SN3-SN6 on
        page 1), as an NTAG's or an Ultralight's do."""
        pages = self._command(bytes((READ, 0)), PAGES_LENGTH)
        return pages is not None and pages[:3] + pages[4:8] == uid

    def _wake(self):
        """WUPA: the ATQA the cards in the field answer (COLLIDED when their answers differ); None when none does."""
        answer = self._transceive(bytes((WUPA,)), tx_bits=7, longest=2)
        if answer is None:
            return None
        return answer[0] if answer[2] is None and answer[1] == 16 else COLLIDED

    def _cascade(self):
        """Anticollision and SELECT over the cascade levels, the cards just woken: the UID and SAK of the card selected
        (left ACTIVE), or None."""
        uid = b""
        for sel in SELECT:
            part = self._anticollision(sel)
            sak = part and self._select(sel, part)
            if sak is None:
                return None
            if not sak & SAK_INCOMPLETE:
                return uid + part[:4], sak
            if part[0] != CASCADE_TAG:
                return None
            uid += part[1:4]
        return None

    def _select_known(self, uid):
        """Select card `uid` (just woken) at every cascade level straight away, without anticollision, and halt it;
        True when it answered every level as a card of that UID does."""
        parts = cascade_parts(uid)
        for sel, part in zip(SELECT, parts):
            sak = self._select(sel, part)
            if sak is None or bool(sak & SAK_INCOMPLETE) != (part is not parts[-1]):
                return False
        self._halt()
        return True

    def _halt(self):
        """HLTA: the selected card goes to HALT (a card does not answer it: wait until it is sent)."""
        self._send(HLTA + crc_a(HLTA))

    def _anticollision(self, sel):
        """The 5 bytes (UID part and BCC) of the card that cascade level `sel` singles out, or None.

        When cards answer at once, the first bit where they differ is set to 1
        and the loop goes on with the cards that have that bit.
        """
        known = bytearray(5)   # UID bits learnt so far, least significant bit first
        bits = 0
        while bits < 32:
            whole, extra = divmod(bits, 8)
            frame = bytes((sel, (2 + whole) << 4 | extra)) + known[:whole + (extra > 0)]
            answer = self._transceive(frame, tx_bits=extra, rx_align=extra)
            if answer is None:
                return None
            data, count, collision = answer
            if whole + len(data) > 5:
                return None
            for i, byte in enumerate(data):
                keep = (1 << extra) - 1 if i == 0 else 0   # bits of the first byte that were sent, not received
                known[whole + i] = (known[whole + i] & keep) | (byte & ~keep & 0xFF)
            if collision is None:
                if bits + count - extra != 40 or known[0] ^ known[1] ^ known[2] ^ known[3] != known[4]:
                    return None
                return bytes(known)
            chosen = whole * 8 + collision
            if chosen < bits or chosen >= 32:
                return None
            known[chosen // 8] = (known[chosen // 8] | 1 << chosen % 8) & ((2 << chosen % 8) - 1)
            bits = chosen + 1
        return None

    def _select(self, sel, part):
        """Select the card whose UID part (with BCC) is `part`; its SAK, or None."""
        frame = bytes((sel, 0x70)) + part
        answer = self._transceive(frame + crc_a(frame))
        if answer is None or answer[1] != 24 or answer[2] is not None:
            return None
        sak = answer[0]
        if crc_a(sak[:1]) != sak[1:]:
            return None
        return sak[0]

    def _transceive(self, frame, tx_bits=0, rx_align=0, longest=LONGEST_ANSWER, reads=None):
        """Send `frame` (its last byte holding `tx_bits` bits, 0 for 8) and wait for the answer.

        Returns (data, bits received counting the `rx_align` unused bits of
        the first byte, collision) or None when no card answered, the answer
        was garbled or longer than `longest` bytes; `collision` is the index of
        the first collided bit in `data`, or None.
        """
        irq, error, level, control, coll, _ = self._send(frame, tx_bits, rx_align, RX_IRQ | TIMER_IRQ, reads)
        if not irq & RX_IRQ or error & GARBLED or not 0 < level <= longest:
            return None
        collision = None
        if error & COLL_ERR:
            if coll & COLL_POS_NOT_VALID:
                return None
            collision = ((coll & 0x1F) or 32) - 1
        last_bits = control & 0x07
        count = (level - 1) * 8 + last_bits if last_bits else level * 8
        return self._read((FIFO_DATA,) * level), count, collision

    def _send(self, frame, tx_bits=0, rx_align=0, until=TX_IRQ, reads=None):
        """Send `frame` and read the status registers (at most `reads` times) until an interrupt in `until` is
        raised; the last status read."""
        self._write(COM_IRQ, (CLEAR_IRQS,))
        self._write(FIFO_LEVEL, (FLUSH,))
        self._write(FIFO_DATA, frame)
        self._write(BIT_FRAMING, (START_SEND | rx_align << 4 | tx_bits,))
        for _ in range(reads or TRANSCEIVE_READS):
            status = self._read(STATUS)
            if status[-1] != self.version:
                raise ReaderFault("the chip stopped answering (version reads 0x%02X)" % status[-1])
            if status[0] & until:
                return status
        raise ReaderFault("a frame exchange did not complete")

    def _write(self, register, data):
        self._transfer(bytes((register << 1,)) + bytes(data))

    def _read(self, registers):
        return bytes(self._transfer(bytes([0x80 | register << 1 for register in registers]) + b"\x00")[1:])
