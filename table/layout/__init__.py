"""Table layouts: a whole table described as data, read from hardware/layouts/*.toml.

One schema for simulated tables, tables wired straight to the Pi and tables on
seat hubs. A seat has either one pad per bid slot (the pad's index is the
slot, i.e. the lot position 0 top, 1 right, 2 bottom, 3 left) or a single pad
where cards are placed one after another. The centre has one pad per lot or a
single pad. Every pin belongs to a `board`: "pi" (BCM numbers), a hub (the
Pico's GP numbers), or on a simulated table any name (one mock board each).

On a real table each pad names the reader under it in `[pads.NAME]`: its
board, and the keys of the layout's reader type (`reader = NAME`, one of
READER_TYPES; table/layout/readers.py): for the MFRC522, on the Pi its SPI
bus and chip-enable line (`ce`) or a GPIO chip select (`cs`), on a hub a
chip select pin (`cs`). `load_layout` reads a file and refuses it with
every problem `table.layout.check` finds.
"""
from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from table.layout.check import check_layout
from table.layout.mfrc522 import MFRC522, MFRC522_LEGACY
from table.layout.readers import PadWiring, ReaderType

LAYOUTS = Path(__file__).resolve().parents[2] / "hardware" / "layouts"

PI = "pi"
BACKENDS = ("simulated", "pi", "hubs")
READER_TYPES: dict[str, ReaderType] = {t.name: t for t in (MFRC522, MFRC522_LEGACY)}   # the first is the default
BUTTONS = ("next", "ok", "back")              # the buttons a seat may have
PICO_MICROPYTHON_USB = (0x2E8A, 0x0005)


class LayoutError(ValueError):
    """A layout file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: its pads, its light pins and its buttons, all on one board."""

    number: int
    pads: tuple[str, ...]
    board: str
    light: tuple[int, ...]                 # (red, green, blue) of an RGB LED, or (pin,) of a single-colour LED
    buttons: tuple[tuple[str, int], ...]   # (button name, pin)


@dataclass(frozen=True, slots=True)
class Hub:
    """A seat hub: a Raspberry Pi Pico running firmware/, found by its USB ids.

    Its pins are GP numbers; the host sends it the pins of its readers
    (`Layout.readers_on`), lights and buttons (`Layout.seats_on`).
    """

    name: str
    usb: tuple[int, int]    # (vendor id, product id)
    serial: str | None      # USB serial number, to tell identical Picos apart
    spi: int                # the Pico's SPI block (0 or 1) its readers share
    sck: int
    mosi: int
    miso: int
    reset: int | None       # reset pin shared by its readers, unless a pad names its own


@dataclass(frozen=True, slots=True)
class Presence:
    """Presence tuning: placed after `place_after` equal reads, removed after `remove_after` misses."""

    place_after: int = 2
    remove_after: int = 6
    poll_interval: float = 0.02   # seconds between two polls of the same reader


@dataclass(frozen=True, slots=True)
class Layout:
    """A whole table."""

    name: str
    backend: str                    # one of BACKENDS
    seats: tuple[Seat, ...]
    centre: tuple[str, ...]
    reader: str = "mfrc522"         # one of READER_TYPES
    wiring: tuple[PadWiring, ...] = ()   # the reader type's wiring records
    hubs: tuple[Hub, ...] = ()
    presence: Presence = Presence()
    common_anode: bool = False      # RGB LEDs share their anode: a pin low lights a colour
    source: str = ""                # the file it was read from

    def pad_place(self, pad: str) -> tuple[int | None, int | None]:
        """(seat number or None for the centre, slot or None for a single pad) of a pad."""
        if pad in self.centre:
            return None, self.centre.index(pad) if len(self.centre) > 1 else None
        for seat in self.seats:
            if pad in seat.pads:
                return seat.number, seat.pads.index(pad) if len(seat.pads) > 1 else None
        raise KeyError(f"pad {pad!r} is not in layout {self.name!r}")

    @property
    def reader_type(self) -> ReaderType:
        """The layout half of the reader type its pads are wired for."""
        return READER_TYPES[self.reader]

    @property
    def pads(self) -> tuple[str, ...]:
        return tuple(p for s in self.seats for p in s.pads) + self.centre

    @property
    def boards(self) -> tuple[str, ...]:
        """Every board named by a seat or a reader, in file order."""
        return tuple(dict.fromkeys([s.board for s in self.seats] + [w.board for w in self.wiring]))

    def readers_on(self, board: str) -> tuple[PadWiring, ...]:
        """The readers wired to a board, by index."""
        return tuple(w for w in self.wiring if w.board == board)

    def seats_on(self, board: str) -> tuple[Seat, ...]:
        """The seats whose lights and buttons are on a board."""
        return tuple(s for s in self.seats if s.board == board)


def load_layout(path: str | Path) -> Layout:
    """Read a layout file (a bare name means hardware/layouts/NAME.toml) and refuse it if it has errors."""
    layout = read_layout(path)
    errors = [p.message for p in check_layout(layout) if p.error]
    if errors:
        raise LayoutError("\n".join(f"{layout.source}: {e}" for e in errors))
    return layout


def layout_path(name: str | Path) -> Path:
    """The file of a layout given by path or by name."""
    path = Path(name)
    return LAYOUTS / f"{path}.toml" if not path.suffix and path.parent == Path(".") else path


def read_layout(path: str | Path) -> Layout:
    """Parse a layout file into a Layout, unchecked; LayoutError names the file and the key."""
    path = layout_path(path)
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as error:
        raise LayoutError(f"{path}: cannot read it ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise LayoutError(f"{path}: not valid TOML: {error}") from None
    return _Table(data, str(path), "").layout()


class _Table:
    """One TOML table being read: typed access that reports the file and key path on error."""

    def __init__(self, data: dict[str, Any], file: str, where: str) -> None:
        self.data, self.file, self.where = data, file, where

    def fail(self, key: str, problem: str) -> LayoutError:
        return LayoutError(f"{self.file}: {self.key(key)}: {problem}")

    def key(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if key not in self.data:
            if default is ...:
                raise self.fail(key, "missing")
            return default
        value = self.data[key]
        if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
            raise self.fail(key, f"expected {_kind_name(kind)}, got {value!r}")
        return value

    def choice(self, key: str, choices: tuple[str, ...], default: str) -> str:
        value = self.get(key, str, default)
        if value not in choices:
            raise self.fail(key, f"{value!r} is not one of {', '.join(choices)}")
        return value

    def pins(self, key: str) -> tuple[int, ...]:
        value = self.get(key, list)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise self.fail(key, f"expected pin numbers, got {value!r}")
        return tuple(value)

    def table(self, key: str, required: bool = False) -> _Table:
        return _Table(self.get(key, dict, ... if required else {}), self.file, self.key(key))

    def tables(self, key: str) -> list[_Table]:
        items = self.get(key, list, [])
        if not all(isinstance(item, dict) for item in items):
            raise self.fail(key, "expected [[" + self.key(key) + "]] tables")
        return [_Table(item, self.file, f"{self.key(key)}[{i}]") for i, item in enumerate(items)]

    def only(self, *keys: str) -> None:
        for key in self.data:
            if key not in keys:
                close = difflib.get_close_matches(key, keys, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise self.fail(key, f"unknown key (known here: {', '.join(keys)}){hint}")

    def layout(self) -> Layout:
        self.only("name", "backend", "reader", "presence", "lights", "pi", "hubs", "pads", "seats", "centre")
        hubs = tuple(t.hub() for t in self.tables("hubs"))
        resets = {PI: self.table("pi").reset()} | {h.name: h.reset for h in hubs}
        reader = self.choice("reader", tuple(READER_TYPES), "mfrc522")
        pads, on_board = self.table("pads"), {}
        wiring = [pads.table(pad, required=True).wiring(READER_TYPES[reader], pad, resets, on_board)
                  for pad in pads.data]
        centre = self.table("centre", required=True)
        centre.only("pads")
        lights = self.table("lights")
        lights.only("common_anode")
        return Layout(
            name=self.get("name", str),
            backend=self.choice("backend", BACKENDS, "simulated"),
            seats=tuple(t.seat(i + 1) for i, t in enumerate(self.tables("seats"))),
            centre=tuple(centre.names("pads")),
            reader=reader,
            wiring=tuple(wiring),
            hubs=hubs,
            presence=self.table("presence").presence(),
            common_anode=lights.get("common_anode", bool, False),
            source=self.file,
        )

    def names(self, key: str) -> list[str]:
        value = self.get(key, list)
        if not all(isinstance(v, str) for v in value):
            raise self.fail(key, f"expected pad names, got {value!r}")
        return value

    def reset(self) -> int | None:
        self.only("reset")
        return self.get("reset", int, None)

    def seat(self, number: int) -> Seat:
        self.only("pads", "board", "light", "buttons")
        buttons = self.table("buttons", required=True)
        buttons.only(*BUTTONS)
        return Seat(
            number=number,
            pads=tuple(self.names("pads")),
            board=self.get("board", str, PI),
            light=self.pins("light"),
            buttons=tuple((name, buttons.get(name, int)) for name in buttons.data),
        )

    def wiring(self, reader: ReaderType, pad: str, resets: dict[str, int | None],
               on_board: dict[str, int]) -> PadWiring:
        self.only("board", *reader.keys)
        board = self.get("board", str, PI)
        index = on_board[board] = on_board.get(board, -1) + 1
        return reader.read(self, pad, board, index, resets.get(board))

    def hub(self) -> Hub:
        self.only("name", "usb", "serial", "spi", "sck", "mosi", "miso", "reset")
        usb = self.get("usb", str, "%04x:%04x" % PICO_MICROPYTHON_USB)
        try:
            vendor, product = (int(part, 16) for part in usb.split(":"))
        except ValueError:
            raise self.fail("usb", f"expected VID:PID in hexadecimal like \"2e8a:0005\", got {usb!r}") from None
        return Hub(
            name=self.get("name", str),
            usb=(vendor, product),
            serial=self.get("serial", str, None),
            spi=self.get("spi", int, 0),
            sck=self.get("sck", int),
            mosi=self.get("mosi", int),
            miso=self.get("miso", int),
            reset=self.get("reset", int, None),
        )

    def presence(self) -> Presence:
        self.only("place_after", "remove_after", "poll_interval")
        default = Presence()
        return Presence(
            place_after=self.get("place_after", int, default.place_after),
            remove_after=self.get("remove_after", int, default.remove_after),
            poll_interval=float(self.get("poll_interval", (int, float), default.poll_interval)),
        )


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {int: "a whole number", str: "a string", list: "a list", dict: "a table", bool: "true or false",
             float: "a number"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names[k] for k in kinds)
