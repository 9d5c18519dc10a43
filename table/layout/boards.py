"""Pin facts of the boards a table is wired to: the Raspberry Pi's 40-pin header and the Pico.

Used to check layouts and to write wiring tables; no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass

# Raspberry Pi 40-pin header (every model since the B+, Pi 5 included): BCM GPIO -> header pin.
PI_HEADER = {0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32,
             13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16,
             24: 18, 25: 22, 26: 37, 27: 13}

# The Pi's SPI buses: MISO, MOSI, SCLK and chip-enable lines CE0, CE1 (, CE2).
PI_SPI = {
    0: {"miso": 9, "mosi": 10, "sclk": 11, "ce": (8, 7)},
    1: {"miso": 19, "mosi": 20, "sclk": 21, "ce": (18, 17, 16)},
}

# Pins with a second job that a maker should know about when using them as plain GPIO.
PI_CAVEATS = {
    0: "ID_SD, read at boot to find a HAT's EEPROM: fine with no HAT fitted, but keep it free if you can",
    1: "ID_SC, read at boot to find a HAT's EEPROM: fine with no HAT fitted, but keep it free if you can",
    14: "UART TXD: turn the serial console off (raspi-config, Interface Options, Serial Port)",
    15: "UART RXD: turn the serial console off (raspi-config, Interface Options, Serial Port)",
}
PI_I2C_PULLUPS = (2, 3)   # I2C1 SDA and SCL, 1.8 kOhm pull-ups to 3.3 V on the board

# Raspberry Pi Pico: GP number -> header pin. GP23-25 and GP29 are used on the board itself.
PICO_HEADER = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
               13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29,
               26: 31, 27: 32, 28: 34}
PICO_ONBOARD = {23: "the power supply's mode pin", 24: "VBUS sense", 25: "the on-board LED",
                29: "VSYS sense"}
PICO_SPI_ROLES = ("miso", "cs", "sck", "mosi")   # RP2040: GPn has SPI role n % 4 on block (n // 8) % 2


def pico_spi(gp: int) -> tuple[int, str]:
    """(SPI block, role) that GPn can take: role is miso (RX), cs, sck or mosi (TX)."""
    return (gp // 8) % 2, PICO_SPI_ROLES[gp % 4]


def pico_pwm(gp: int) -> str:
    """The PWM output of GPn, e.g. '0A': pins with the same output always show the same duty."""
    return f"{(gp >> 1) & 7}{'AB'[gp & 1]}"


@dataclass(frozen=True)
class Board:
    """What a kind of board offers: its usable pins, how to name them, where they are."""

    kind: str             # "pi", "pico" or "simulated"
    pins: frozenset[int]
    header: dict[int, int]

    def name(self, pin: int) -> str:
        """A pin as a maker finds it: 'GPIO17 (pin 11)', 'GP5 (pin 7)', 'pin 5'."""
        if self.kind == "simulated":
            return f"pin {pin}"
        label = f"GPIO{pin}" if self.kind == "pi" else f"GP{pin}"
        return f"{label} (pin {self.header[pin]})" if pin in self.header else label

    def usable(self) -> str:
        """The usable pins in words."""
        low, high = min(self.pins), max(self.pins)
        if self.kind == "pico":
            return "GP0-22 and GP26-28"
        return f"GPIO {low}-{high}" if self.kind == "pi" else f"pins {low}-{high}"


PI_BOARD = Board("pi", frozenset(PI_HEADER), PI_HEADER)
PICO_BOARD = Board("pico", frozenset(PICO_HEADER), PICO_HEADER)
SIMULATED_BOARD = Board("simulated", frozenset(range(28)), {})   # gpiozero's MockFactory: GPIO 0-27
