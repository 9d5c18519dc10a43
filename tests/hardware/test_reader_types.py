"""Adding a reader type is one adapter module and one registry line: a made-up reader on I2C, all of it in this
file, parses, is checked, is described and builds under the simulated and emulated builders."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from table.events import EventBus
from table.hardware import build
from table.hardware.readers import ReaderDriver
from table.hardware.simulated import VirtualReader
from table.layout import READER_TYPES, LayoutError, load_layout
from table.layout.check import check_layout, summary
from table.layout.readers import ReaderType
from table.layout.wiring import markdown_table, wiring_markdown

# The adapter module: the layout half, then the driver half.


@dataclass(frozen=True)
class I2cWiring:
    """A reader on the Pi's I2C1 bus at `address`."""

    pad: str
    board: str
    index: int
    address: int


def read(table, pad: str, board: str, index: int, reset: int | None) -> I2cWiring:
    return I2cWiring(pad, board, index, table.get("address", int))


def check(checker, w: I2cWiring) -> None:
    if w.address not in range(0x08, 0x78):
        checker.error(f"pad {w.pad!r}: I2C address {w.address:#04x} is reserved")


def check_all(checker) -> None:
    addresses = [w.address for w in checker.layout.wiring]
    if len(set(addresses)) < len(addresses):
        checker.error("two readers share an I2C address")


def tables(layout, board_name: str, board) -> list[str]:
    rows = [(w.pad, f"{w.address:#04x}") for w in layout.readers_on(board_name)]
    return ["Readers on I2C1:\n\n" + markdown_table(("Pad", "Address"), rows)] if rows else []


FAKE = ReaderType(name="fake-i2c", keys=("address",), read=read, check=check, check_all=check_all,
                  buses=lambda layout: {"the Pi's I2C1": layout.wiring}, read_s=0.01,
                  summary=lambda layout: [f"  Pi I2C1: {len(layout.wiring)} readers"], tables=tables,
                  driver=f"{__name__}:DRIVER")


class FakeChip:
    """The emulator: a card laid on it by UID, or a deaf chip."""

    def __init__(self) -> None:
        self.uid: str | None = None
        self.deaf = False

    def go_deaf(self) -> None:
        self.deaf = True


class FakeReader:
    """The driver, over an emulated chip."""

    def __init__(self, pad: str, chip: FakeChip) -> None:
        self.pad, self.chip = pad, chip

    def poll(self) -> str | None:
        return None if self.chip.deaf else self.chip.uid

    def reset(self) -> bool:
        return not self.chip.deaf

    def close(self) -> None:
        pass


DRIVER = ReaderDriver(real=lambda wirings, pins, closers: {}, emulator=FakeChip,
                      emulated=lambda wirings, chips, pins, closers: {w.pad: FakeReader(w.pad, chips[w.pad])
                                                                      for w in wirings},
                      missing=lambda layout, root: {})


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(READER_TYPES, FAKE.name, FAKE)   # the registry line


TABLE = """\
name = "I2C readers"
backend = "pi"
reader = "fake-i2c"

[pads.s1]
address = 0x24

[pads.c]
address = 0x25

[[seats]]
pads = ["s1"]
light = [5, 6, 12]
buttons = { next = 13, ok = 16 }

[centre]
pads = ["c"]
"""


def write(tmp_path, text: str):
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


def test_a_layout_naming_it_parses_into_its_wiring(tmp_path):
    layout = load_layout(write(tmp_path, TABLE))
    assert layout.wiring == (I2cWiring("s1", "pi", 0, 0x24), I2cWiring("c", "pi", 1, 0x25))
    with pytest.raises(LayoutError, match=r"pads\.s1\.cs: unknown key \(known here: board, address\)"):
        load_layout(write(tmp_path, TABLE.replace("address = 0x24", "cs = 4")))


def test_its_checks_run_with_the_table_s(tmp_path):
    layout = load_layout(write(tmp_path, TABLE))
    assert [p.message for p in check_layout(layout)] == []
    assert summary(layout).splitlines()[1] == "  Pi I2C1: 2 readers"
    assert "| c | 0x25 |" in wiring_markdown(layout)
    with pytest.raises(LayoutError) as refused:
        load_layout(write(tmp_path, TABLE.replace("0x24", "0x03")))
    assert str(refused.value).splitlines() == [f"{tmp_path / 'table.toml'}: pad 's1': I2C address 0x03 is reserved"]
    with pytest.raises(LayoutError, match="two readers share an I2C address"):
        load_layout(write(tmp_path, TABLE.replace("0x25", "0x24")))


def test_it_builds_simulated_and_emulated(tmp_path):
    layout = load_layout(write(tmp_path, TABLE))
    simulated = build.simulated(layout)(EventBus())
    assert all(isinstance(r, VirtualReader) for r in simulated.readers.values())
    simulated.close()
    emulated = build.emulated(layout, deaf=["c"])(EventBus())
    try:
        emulated.chips["s1"].uid = "04AABBCC"
        assert emulated.readers["s1"].poll() == "04AABBCC"
        assert emulated.readers["c"].reset() is False
        assert set(emulated.lights) == {1}
    finally:
        emulated.close()
