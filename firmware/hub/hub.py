"""A seat hub: the readers, buttons and lights on one Raspberry Pi Pico, served to the host.

Pure logic, in the MicroPython subset of Python: the `machine` module, the
clock, the serial stream, the reader driver class and the config store are
all passed in. main.py passes the real ones; the tests pass fakes.
"""
import random

import protocol
from mfrc522 import FIELD_SETTLE_MS, RESET_LOW_MS, STARTUP_MS

FIRMWARE = "2.0.0"
DEBOUNCE_MS = 20    # a button must hold a new level this long
RETRY_MS = 250      # a faulty reader is soft-reset and tried again this often (so it is back within ~300 ms)
HARD_RESET_MS = 1000   # and hard-reset at most this often: the chips on its line stall the loop while they start
PWM_HZ = 1000
# A reader's new answer (a card, no card, another card) is reported once it
# has been read this many times in a row, so that one glitch read (a
# neighbour's card read across, a card at the edge of the field) never leaves
# the hub: the host's debouncing counts its own polls, which see the hub's
# last report many times over. A fault is reported at once. A reader that
# has just read a card it had not reported is polled again at the next step,
# so a card laid is confirmed within two polls of that reader, not two rounds.
CONFIRM_READS = 2
OFF = (protocol.STEADY, 0, 0, (0, 0, 0), (0, 0, 0))
NO_HOST = (protocol.PULSE, 1000, 0, (0, 0, 64), (0, 0, 0))  # dim blue breathing: no host heard


def colour_at(look, ms):
    """The (r, g, b) that `look` (pattern, half period, flashes, colour, other) shows `ms` after it began."""
    pattern, half, _, colour, other = look
    if pattern == protocol.STEADY or not half:
        return colour
    halves, into = divmod(ms, half)
    if pattern == protocol.PULSE:
        level = into / half if halves % 2 == 0 else 1 - into / half
        return tuple(int(o + (c - o) * level) for c, o in zip(colour, other))
    return colour if halves % 2 == 0 else other


def pwm_channel(gpio):
    """The RP2040 PWM (slice, channel) of a GPIO: pins that share one show the same duty."""
    return (gpio >> 1) & 7, gpio & 1


def _transfer(spi, cs):
    """One full-duplex SPI transaction with `cs` held low: what the driver calls `transfer`."""
    def transfer(data):
        answer = bytearray(len(data))
        cs.value(0)
        try:
            spi.write_readinto(data, answer)
        finally:
            cs.value(1)
        return bytes(answer)
    return transfer


class _ResetLine:
    """A reset pin and the readers wired to it: a pulse resets every chip on it, so the others are set up again."""

    def __init__(self, pin, clock):
        self.pin = pin
        self.clock = clock
        self.readers = []

    def hard_reset(self, reader):
        """The hard reset that `reader`'s driver calls: returns once the chips on the line have started."""
        def pulse():
            self.pin.value(0)
            self.clock.sleep_ms(RESET_LOW_MS)
            self.pin.value(1)
            self.clock.sleep_ms(STARTUP_MS)   # nothing may probe a chip whose oscillator is still starting
            for other in self.readers:
                if other is not reader:
                    other.set_up()
        return pulse


class _Reader:
    """One MFRC522 on the shared bus (its driver probes it at the first poll) and what the hub last reported of it."""

    def __init__(self, driver, transfer, reset_line, settle):
        self.chip = driver(transfer, reset_line.hard_reset(self) if reset_line else None, settle)
        if reset_line:
            reset_line.readers.append(self)
        self.uid = b""        # what the hub reported: the UID (empty: no card)
        self.fault = False    # and whether the reader does not answer
        self.seen = None      # the chip's last answer (None after a fault)
        self.times = 0        # how many polls in a row gave it
        self.deaf = False     # the last attempt failed: reset before the next, at most every RETRY_MS
        self.tried = None     # ticks of the last attempt while deaf
        self.hard = None      # ticks of the last attempt that could hard-reset it

    def set_up(self):
        """Set the chip up again after a reset meant for another reader on its reset line."""
        try:
            self.chip.probe()
        except Exception:   # then its next poll finds the fault
            pass

    def poll(self, now, clock):
        """Poll once (reset first while deaf: soft at most every RETRY_MS, hard at most every HARD_RESET_MS); True if
        what to report changed.

        A fault is reported at once; an answer once CONFIRM_READS polls in a row gave it.
        """
        if self.deaf and self.tried is not None and clock.ticks_diff(now, self.tried) < RETRY_MS:
            return False
        self.tried = now
        try:
            if self.deaf:
                hard = self.hard is None or clock.ticks_diff(now, self.hard) >= HARD_RESET_MS
                if hard:
                    self.hard = now
                if not self.chip.reset(hard):
                    return False
            uid = self.chip.poll() or b""   # the driver keeps the field on and checks a known card cheaply
        except Exception:   # whatever the driver raises, this reader does not answer
            self.deaf, self.seen, self.times = True, None, 0
            return self._report(b"", True)
        self.deaf = False
        if uid == self.seen:
            self.times += 1
        else:
            self.seen, self.times = uid, 1
        return self.times >= CONFIRM_READS and self._report(uid, False)

    def confirming(self):
        """Whether the last poll read a card not reported yet, to be read again at once."""
        return self.times == 1 and bool(self.seen) and self.seen != self.uid

    def prove(self, uid, password, new):
        """PROVE: the PACK card `uid` answers to `password` or, with `new` (password and PACK), the new PACK once
        written on it; empty when not done. The host asks between the hub's polls; a failed exchange is no fault
        here (the next poll finds one)."""
        try:
            if new:
                return new[4:] if self.chip.protect(new[:4], new[4:], password, uid) else b""
            return self.chip.authenticate(password, uid) or b""
        except Exception:
            return b""

    def _report(self, uid, fault):
        changed = (uid, fault) != (self.uid, self.fault)
        self.uid, self.fault = uid, fault
        return changed


class _Button:
    """A push button to ground on a pulled-up pin, debounced, counting its presses."""

    def __init__(self, pin, now):
        self.pin = pin
        self.level = self.stable = pin.value()
        self.since = now
        self.presses = 0

    def update(self, now, clock):
        """Read the pin; True when this read completes a press."""
        level = self.pin.value()
        if level != self.level:
            self.level, self.since = level, now
        elif level != self.stable and clock.ticks_diff(now, self.since) >= DEBOUNCE_MS:
            self.stable = level
            if level == 0:
                self.presses = (self.presses + 1) & 0xFFFF
                return True
        return False


class _Light:
    """An RGB LED on three PWM pins, animating its look locally."""

    def __init__(self, pwms, now):
        self.pwms = pwms
        self.look = self.steady = OFF
        self.since = now
        self.duties = [None, None, None]

    def show(self, look, now):
        """Show `look` from now on; a FLASH goes back to the last other look when it ends."""
        self.look, self.since = look, now
        if look[0] != protocol.FLASH:
            self.steady = look

    def render(self, now, clock, override=None):
        """Set the PWM duties for this moment (of `override` instead of the look, if given)."""
        ms = clock.ticks_diff(now, self.since)
        pattern, half, flashes, _, _ = self.look
        if pattern == protocol.FLASH and ms >= 2 * half * flashes:
            self.show(self.steady, now)
            ms = 0
        colour = colour_at(override, now) if override else colour_at(self.look, ms)
        for i in range(3):
            duty = colour[i] * 257
            if duty != self.duties[i]:
                self.pwms[i].duty_u16(duty)
                self.duties[i] = duty

    def release(self):
        for pwm in self.pwms:
            pwm.deinit()


class Hub:
    """The hub's main loop, one `step` at a time: serial in, one reader, buttons, lights, heartbeat.

    `stream` has read() -> the bytes waiting (maybe none) and write(bytes);
    `driver(transfer, hard_reset, settle)` builds one reader (mfrc522.Mfrc522);
    `store` has load() -> bytes or None and save(bytes), for the last CONFIG.
    """

    def __init__(self, machine, clock, stream, driver, store,
                 heartbeat_ms=protocol.HEARTBEAT_MS, timeout_ms=protocol.TIMEOUT_MS):
        self.machine = machine
        self.clock = clock
        self.stream = stream
        self.driver = driver
        self.store = store
        self.link = protocol.Link(stream.write, clock, heartbeat_ms, timeout_ms)
        self.hub_id = "".join("%02X" % b for b in machine.unique_id()).encode()
        self.boot = random.getrandbits(16)
        self.config = b""
        self.readers = []
        self.buttons = []
        self.lights = []
        self.next_reader = 0
        self.stopped = False
        saved = store.load()
        if saved:
            try:
                self.configure(saved)
            except ValueError:
                self.release()
        self.send_state()

    def step(self):
        """One turn of the main loop."""
        now = self.clock.ticks_ms()
        for kind, fields in self.link.receive(self.stream.read()):
            self.handle(kind, fields, now)
        if self.readers:
            index = self.next_reader
            reader = self.readers[index]
            if reader.poll(now, self.clock):
                self.send_reader(index)
            if not reader.confirming():
                self.next_reader = (index + 1) % len(self.readers)
        for index, button in enumerate(self.buttons):
            if button.update(now, self.clock):
                self.link.send(protocol.BUTTON, index, button.presses)
        override = None if self.link.alive() else NO_HOST
        for light in self.lights:
            light.render(now, self.clock, override)
        self.link.tick()

    def handle(self, kind, fields, now):
        """Act on one message from the host."""
        if kind == protocol.SYNC:
            self.send_state()
        elif kind == protocol.LIGHT and fields[0] < len(self.lights):
            index, pattern, half, flashes, r, g, b, r2, g2, b2 = fields
            self.lights[index].show((pattern, half, flashes, (r, g, b), (r2, g2, b2)), now)
        elif kind == protocol.CONFIG:   # the host asks for our state next, to see what we run
            config = protocol.pack_fields(protocol.CONFIG, fields)
            if config != self.config:
                try:
                    self.configure(config)
                    self.store.save(config)
                except ValueError as error:
                    self.release()
                    self.link.send(protocol.ERROR, str(error).encode())
        elif kind == protocol.PROVE and fields[0] < len(self.readers):
            index, request, uid, password, new = fields
            self.link.send(protocol.PROVEN, index, request, self.readers[index].prove(uid, password, new))
        elif kind == protocol.STOP:
            self.release()
            self.stopped = True

    def configure(self, config):
        """Build the readers, buttons and lights that CONFIG bytes name; ValueError if they cannot be."""
        (version, bus, sck, mosi, miso, khz, chip_selects, reset_pins, button_pins,
         light_pins) = protocol.unpack_fields(protocol.CONFIG, config)
        if version != protocol.VERSION:
            raise ValueError("hub speaks protocol %d, not %d" % (protocol.VERSION, version))
        if len(reset_pins) not in (0, 1, len(chip_selects)):
            raise ValueError("give no reset pin, one shared, or one per reader")
        if len(light_pins) % 3:
            raise ValueError("each light needs three pins")
        if len(set(pwm_channel(pin) for pin in light_pins)) < len(light_pins):
            raise ValueError("two light pins share a PWM channel (GPn and GPn+16 do)")
        self.release()
        m, now = self.machine, self.clock.ticks_ms()
        spi = m.SPI(bus, baudrate=khz * 1000, polarity=0, phase=0,
                    sck=m.Pin(sck), mosi=m.Pin(mosi), miso=m.Pin(miso))
        lines = [_ResetLine(m.Pin(pin, m.Pin.OUT, value=1), self.clock) for pin in reset_pins]
        selects = [m.Pin(cs, m.Pin.OUT, value=1) for cs in chip_selects]  # all high before any talks
        self.readers = [_Reader(self.driver, _transfer(spi, cs), lines[i % len(lines)] if lines else None,
                                self.settle) for i, cs in enumerate(selects)]
        self.buttons = [_Button(m.Pin(pin, m.Pin.IN, m.Pin.PULL_UP), now) for pin in button_pins]
        for i in range(0, len(light_pins), 3):
            pwms = [m.PWM(m.Pin(pin)) for pin in light_pins[i:i + 3]]
            for pwm in pwms:
                pwm.freq(PWM_HZ)
            self.lights.append(_Light(pwms, now))
        self.config = config

    def settle(self):
        """Wait for a card to power up in a field just switched on (the readers' drivers call it)."""
        self.clock.sleep_ms(FIELD_SETTLE_MS)

    def release(self):
        """Forget the configuration and turn the lights off."""
        for light in self.lights:
            light.release()
        self.readers, self.buttons, self.lights = [], [], []
        self.next_reader = 0
        self.config = b""

    def send_state(self):
        """Send the hub's whole state: HELLO, every reader, every button, SYNCED."""
        hello = (protocol.VERSION, self.boot, protocol.crc16(self.config),
                 len(self.readers), len(self.buttons), len(self.lights), self.hub_id, FIRMWARE.encode())
        self.link.send_state([(protocol.HELLO, hello)]
                             + [(protocol.READER, self.reader_fields(i)) for i in range(len(self.readers))]
                             + [(protocol.BUTTON, (i, b.presses)) for i, b in enumerate(self.buttons)])

    def send_reader(self, index):
        self.link.send(protocol.READER, *self.reader_fields(index))

    def reader_fields(self, index):
        reader = self.readers[index]
        return index, protocol.FAULT if reader.fault else protocol.OK, reader.uid
