"""A fake MicroPython `machine` module: one Board is one Pico, with the world's side of each pin.

The firmware is given a Board where the Pico gives it `machine`: it has
Pin, SPI, PWM and unique_id. Tests drive input levels, read output levels
and PWM duties, and put SPI devices behind chip-select pins.
"""

GPIOS = range(30)   # GP0-GP29 on an RP2040


class _Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    board = None

    def __init__(self, id, mode=-1, pull=-1, value=None):
        if id not in GPIOS:
            raise ValueError("invalid pin %r" % (id,))
        self.id = id
        if pull == self.PULL_UP:
            self.board.levels.setdefault(id, 1)
        if value is not None:
            self.value(value)

    def value(self, level=None):
        if level is None:
            return self.board.levels.get(self.id, 0)
        self.board.levels[self.id] = 1 if level else 0
        self.board.written.setdefault(self.id, []).append(self.board.levels[self.id])


class _SPI:
    board = None

    def __init__(self, id, baudrate=1_000_000, polarity=0, phase=0, sck=None, mosi=None, miso=None):
        if id not in (0, 1):
            raise ValueError("invalid SPI bus %r" % (id,))
        self.board.spi = {"bus": id, "baudrate": baudrate, "mode": (polarity, phase),
                          "sck": sck.id, "mosi": mosi.id, "miso": miso.id}

    def write_readinto(self, write, read):
        """The device whose chip select is low answers; none or several (contention) read as 0xFF."""
        selected = [cs for cs in self.board.devices if self.board.levels.get(cs, 0) == 0]
        answer = self.board.devices[selected[0]].transfer(bytes(write)) if len(selected) == 1 else None
        read[:] = answer if answer is not None else b"\xff" * len(write)


class _PWM:
    board = None

    def __init__(self, pin):
        self.pin = pin.id
        self._freq = 0
        self._duty = 0
        self.board.pwms[pin.id] = self

    def freq(self, hz=None):
        if hz is None:
            return self._freq
        self._freq = hz

    def duty_u16(self, duty=None):
        if duty is None:
            return self._duty
        if not 0 <= duty <= 0xFFFF:
            raise ValueError("duty out of range")
        self._duty = duty

    def deinit(self):
        self._duty = 0
        del self.board.pwms[self.pin]


class Board:
    """One fake Pico."""

    def __init__(self, uid=b"\xe6\x61\x41\x04\x03\x2b\x6f\x2c"):
        self.uid = uid
        self.levels = {}    # GPIO -> level (outputs driven by the firmware, inputs by the test)
        self.written = {}   # GPIO -> every level the firmware wrote to it, in order
        self.pwms = {}      # GPIO -> PWM
        self.devices = {}   # chip-select GPIO -> SPI device with transfer(bytes) -> bytes
        self.spi = None     # the settings of the last SPI built
        self.Pin = type("Pin", (_Pin,), {"board": self})
        self.SPI = type("SPI", (_SPI,), {"board": self})
        self.PWM = type("PWM", (_PWM,), {"board": self})

    def unique_id(self):
        return self.uid

    def colour(self, pins):
        """The (r, g, b) duties, 0-255, of the LED on `pins`."""
        return tuple(self.pwms[pin].duty_u16() // 257 for pin in pins)
