"""The host <-> seat hub protocol (see firmware/PROTOCOL.md): frames, messages, and one end of a link.

This one file runs on the host under CPython and on the hub under
MicroPython, where firmware/deploy.sh copies it beside the firmware. So it
keeps to what both have: no dataclasses, enum or typing, no struct, and the
clock is passed in (MicroPython's `time` module is one).
"""

VERSION = 2

# Message kinds.
HELLO = 0x01      # hub -> host: first frame of the hub's state
SYNC = 0x02       # both ways: send me your whole state
SYNCED = 0x03     # both ways: last frame of the sender's whole state
CONFIG = 0x04     # host -> hub: the pins to use
READER = 0x05     # hub -> host: what one reader sees now
BUTTON = 0x06     # hub -> host: how often one button has been pressed
LIGHT = 0x07      # host -> hub: the look one light shows
HEARTBEAT = 0x08  # both ways: still here
ERROR = 0x09      # hub -> host: why the hub refused something
STOP = 0x0A       # host -> hub: leave the firmware for the REPL (to deploy)
PROVE = 0x0B      # host -> hub: ask a card on a reader for its password's PACK (a staff card), or protect it
PROVEN = 0x0C     # hub -> host: the card's answer

# The fields of each kind: B one byte, H two bytes big-endian, s bytes after a one-byte length.
FIELDS = {
    HELLO: "BHHBBBss",     # protocol version, boot, config crc, readers, buttons, lights, hub id, firmware
    SYNC: "",
    SYNCED: "BHH",         # whether the sender had received a SYNC, the number of its latest,
                           # and the number of the first frame of this state
    CONFIG: "BBBBBHssss",  # protocol version, SPI bus, SCK, MOSI, MISO, SPI kHz, chip-select pins,
                           # reset pins (none, one shared, or one per reader), button pins,
                           # light pins (red, green, blue per light)
    READER: "BBs",         # reader index, status, UID (empty: no card)
    BUTTON: "BH",          # button index, presses since the hub started (mod 65536)
    LIGHT: "BBHBBBBBBB",   # light index, pattern, half period ms, flashes, colour RGB, other RGB
    HEARTBEAT: "",
    ERROR: "s",            # text
    STOP: "",
    PROVE: "BHsss",        # reader index, request number, the card's UID, its password, and empty or the new
                           # password and PACK (6 bytes) to write on it (the password given being its current one)
    PROVEN: "BHs",         # reader index, the request it answers, the PACK (empty: no such card, no proof)
}

# Reader status.
OK = 0
FAULT = 1

# Light patterns (as table.hardware.lights.Pattern).
STEADY = 0
PULSE = 1   # fades colour <-> other, each way in one half period
BLINK = 2   # colour, other, each for one half period
FLASH = 3   # `flashes` blinks, then the last other look again

HEARTBEAT_MS = 500
TIMEOUT_MS = 2000  # a peer unheard for this long is gone
MAX_FRAME = 600    # longest encoded frame kept; longer ones are cut and fail their CRC


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection; check value 0x29B1)."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        crc &= 0xFFFF
    return crc


def cobs_encode(data):
    """`data` in Consistent Overhead Byte Stuffing: the same bytes with no 0x00 in them."""
    out = bytearray(1)
    code_at = 0
    for byte in data:
        if byte:
            out.append(byte)
            if len(out) - code_at == 0xFF:
                out[code_at] = 0xFF
                code_at = len(out)
                out.append(0)
        else:
            out[code_at] = len(out) - code_at
            code_at = len(out)
            out.append(0)
    out[code_at] = len(out) - code_at
    return bytes(out)


def cobs_decode(data):
    """The bytes that `cobs_encode` turned into `data`; ValueError if no encoding gives `data`."""
    out = bytearray()
    at = 0
    while at < len(data):
        code = data[at]
        end = at + code
        if code == 0 or end > len(data):
            raise ValueError("bad COBS")
        out.extend(data[at + 1:end])
        at = end
        if code < 0xFF and at < len(data):
            out.append(0)
    return bytes(out)


def pack_fields(kind, fields):
    """The bytes of a message's fields, laid out as FIELDS[kind] says."""
    codes = FIELDS[kind]
    if len(fields) != len(codes):
        raise ValueError("kind %d takes %d fields" % (kind, len(codes)))
    out = bytearray()
    for code, value in zip(codes, fields):
        if code == "B":
            out.append(value)
        elif code == "H":
            out.append(value >> 8)
            out.append(value & 0xFF)
        else:
            out.append(len(value))
            out.extend(value)
    return bytes(out)


def unpack_fields(kind, data):
    """The fields in `data` of a message of `kind`; ValueError if they do not fit exactly."""
    fields = []
    at = 0
    try:
        for code in FIELDS[kind]:
            if code == "B":
                fields.append(data[at])
                at += 1
            elif code == "H":
                fields.append(data[at] << 8 | data[at + 1])
                at += 2
            else:
                end = at + 1 + data[at]
                fields.append(bytes(data[at + 1:end]))
                at = end
    except (IndexError, KeyError):
        raise ValueError("bad fields")
    if at != len(data):
        raise ValueError("bad fields")
    return tuple(fields)


def encode(kind, seq, fields):
    """One frame on the wire: COBS(kind, seq, fields, CRC) and the 0x00 delimiter."""
    payload = bytearray((kind, seq >> 8, seq & 0xFF))
    payload.extend(pack_fields(kind, fields))
    crc = crc16(payload)
    payload.append(crc >> 8)
    payload.append(crc & 0xFF)
    return cobs_encode(payload) + b"\x00"


def decode(frame):
    """(kind, seq, fields) of a frame (without its delimiter); ValueError if it is not a sound frame."""
    data = cobs_decode(frame)
    if len(data) < 5 or crc16(data[:-2]) != data[-2] << 8 | data[-1]:
        raise ValueError("bad CRC")
    return data[0], data[1] << 8 | data[2], unpack_fields(data[0], data[3:-2])


class Link:
    """One end of a hub link: numbers the frames it sends, checks those it receives, keeps the heartbeat.

    `write(bytes)` sends; `clock` has ticks_ms() and ticks_diff(a, b). After
    a gap in the peer's sequence numbers, or a frame that fails its check,
    the link asks the peer for its whole state (SYNC), and asks again unless,
    within the timeout, a whole state comes that answers that very SYNC, all
    of it received. Frames older than the last one accepted are dropped, but
    for HELLO and SYNC, with which a peer that restarted begins its new count.
    """

    def __init__(self, write, clock, heartbeat_ms=HEARTBEAT_MS, timeout_ms=TIMEOUT_MS):
        self._write = write
        self._clock = clock
        self.heartbeat_ms = heartbeat_ms
        self.timeout_ms = timeout_ms
        self._frame = bytearray()
        self._seq = 0             # of the next frame sent
        self._expected = None     # seq of the next frame from the peer; None: take any
        self._run = None          # seq of the first frame received since the last loss; None: the next one
        now = clock.ticks_ms()
        self._last_sent = now
        self._last_heard = now
        self._asked = None        # when we asked for the peer's state, until its SYNCED
        self._asked_seq = None    # the number of that SYNC
        self._peer_sync = None    # the number of the latest SYNC from the peer
        self.bad_frames = 0
        self.gaps = 0

    def send(self, kind, *fields):
        """Send one message."""
        frame = encode(kind, self._seq, fields)
        self._seq = (self._seq + 1) & 0xFFFF
        self._last_sent = self._clock.ticks_ms()
        self._write(frame)

    def ask_state(self):
        """Ask the peer for its whole state."""
        self._asked, self._asked_seq = self._clock.ticks_ms(), self._seq
        self.send(SYNC)

    def ask_state_later(self):
        """Ask the peer for its whole state once the timeout has passed, whatever comes meanwhile."""
        self._asked, self._asked_seq = self._clock.ticks_ms(), None

    def send_state(self, messages):
        """Send our whole state, `messages` as (kind, fields), then SYNCED: the SYNC it answers, where it began."""
        first = self._seq
        for kind, fields in messages:
            self.send(kind, *fields)
        self.send(SYNCED, 0 if self._peer_sync is None else 1, self._peer_sync or 0, first)

    def waiting(self):
        """Whether we asked for the peer's whole state and have not received it yet."""
        return self._asked is not None

    def receive(self, data):
        """The new messages, as (kind, fields), in the bytes `data` received; heartbeats are kept here."""
        messages = []
        for byte in data:
            if byte:
                if len(self._frame) < MAX_FRAME:
                    self._frame.append(byte)
            elif self._frame:
                message = self._accept(bytes(self._frame))
                self._frame = bytearray()
                if message is not None:
                    messages.append(message)
        return messages

    def tick(self):
        """Send a heartbeat when one is due; ask again for a state that has not come."""
        now = self._clock.ticks_ms()
        if self._asked is not None and self._clock.ticks_diff(now, self._asked) >= self.timeout_ms:
            self.ask_state()
        if self._clock.ticks_diff(now, self._last_sent) >= self.heartbeat_ms:
            self.send(HEARTBEAT)

    def alive(self):
        """Whether the peer was heard within the timeout."""
        return self._clock.ticks_diff(self._clock.ticks_ms(), self._last_heard) < self.timeout_ms

    def _accept(self, frame):
        try:
            kind, seq, fields = decode(frame)
        except ValueError:
            self.bad_frames += 1
            self._run = None
            self.ask_state()
            return None
        self._last_heard = self._clock.ticks_ms()
        if self._expected is not None and seq != self._expected:
            if (seq - self._expected) & 0x8000 and kind not in (HELLO, SYNC):
                return None       # stale: older than what we have
            self.gaps += 1        # lost frames, or a peer that restarted its count
            self._run = None
            self.ask_state()
        self._expected = (seq + 1) & 0xFFFF
        if self._run is None:
            self._run = seq
        if kind == SYNC:
            self._peer_sync = seq
        elif kind == SYNCED:
            answers, sync, first = fields
            if answers and sync == self._asked_seq and not (first - self._run) & 0x8000:
                self._asked = None    # the state we asked for, all of it
        if kind == HEARTBEAT:
            return None
        return kind, fields
