"""Wiring tables: they say what the layouts say, and the ones in hardware/ are up to date."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from table.layout.boards import PI_HEADER, PI_SPI, PICO_HEADER, pico_pwm, pico_spi
from table.layout import LAYOUTS, load_layout
from table.layout.wiring import wiring_markdown

HARDWARE = LAYOUTS.parent
DOCS = sorted(HARDWARE.glob("wiring-*.md"))
BEGIN = re.compile(r"<!-- wiring tables: `cardtable layout wiring ([\w-]+)` writes them; .*? -->\n\n")
END = "\n<!-- end of wiring tables -->"


def test_both_reference_builds_have_a_wiring_document():
    assert [d.name for d in DOCS] == ["wiring-hubs-8-seat.md", "wiring-pi-4-seat.md"]


@pytest.mark.parametrize("doc", DOCS, ids=[d.stem for d in DOCS])
def test_the_wiring_tables_in_hardware_are_those_of_the_layout(doc: Path):
    text = doc.read_text()
    begin = BEGIN.search(text)
    assert begin and doc.stem == f"wiring-{begin.group(1)}"
    tables = text[begin.end():text.index(END, begin.end())]
    assert tables == wiring_markdown(load_layout(begin.group(1))), \
        f"run: cardtable layout wiring {begin.group(1)}, and paste it into {doc.name}"


def rows(markdown: str, header: str) -> list[list[str]]:
    """The rows of every table whose header row starts with `header`."""
    found, inside = [], False
    for line in markdown.splitlines():
        if line.startswith(f"| {header} |"):
            inside = True
        elif inside and line.startswith("|") and not line.startswith("|---"):
            found.append([cell.strip() for cell in line.strip("|").split("|")])
        elif not line.startswith("|"):
            inside = False
    return found


def pin(cell: str) -> int:
    return int(re.match(r"(?:GPIO|GP|pin )(\d+)", cell).group(1))


@pytest.mark.parametrize("name", [p.stem for p in sorted(LAYOUTS.glob("*.toml"))])
def test_the_wiring_tables_list_every_reader_light_and_button_on_its_pin(name):
    layout = load_layout(name)
    markdown = wiring_markdown(layout)
    selects = {pad: pin(select) for _, pad, _, select in rows(markdown, "Reader")}
    assert selects == {w.pad: w.cs if w.cs is not None else PI_SPI[w.bus]["ce"][w.ce] for w in layout.wiring}
    seats = {int(cells[0]): cells[1:] for cells in rows(markdown, "Seat")}
    assert sorted(seats) == [s.number for s in layout.seats]
    for seat in layout.seats:
        *light, buttons = seats[seat.number]
        assert [pin(cell) for cell in light] == list(seat.light)
        assert [(b.split(": ")[0], pin(b.split(": ")[1])) for b in buttons.split(", ")] == list(seat.buttons)


def test_a_single_colour_light_has_one_led_column(tmp_path):
    path = tmp_path / "mono.toml"
    path.write_text('name = "mono"\n[[seats]]\npads = ["s"]\nboard = "b"\nlight = [5]\nbuttons = { ok = 6 }\n'
                    '[centre]\npads = ["c"]\n')
    assert rows(wiring_markdown(load_layout(path)), "Seat") == [["1", "pin 5", "ok: pin 6"]]


def test_header_pins_are_the_gpio_pins_of_the_40_pin_header():
    power_and_ground = {1, 2, 4, 6, 9, 14, 17, 20, 25, 30, 34, 39}
    assert sorted(PI_HEADER) == list(range(28))
    assert sorted(PI_HEADER.values()) == sorted(set(range(1, 41)) - power_and_ground)


def test_pico_pins_are_the_gp_pins_of_its_40_pins():
    ground, other = {3, 8, 13, 18, 23, 28, 33, 38}, {30, 35, 36, 37, 39, 40}   # RUN, ADC_VREF, 3V3, 3V3_EN, VSYS, VBUS
    assert sorted(PICO_HEADER) == [*range(23), 26, 27, 28]
    assert sorted(PICO_HEADER.values()) == sorted(set(range(1, 41)) - ground - other)


@pytest.mark.parametrize("gp, spi, pwm", [(0, (0, "miso"), "0A"), (13, (1, "cs"), "6B"), (15, (1, "mosi"), "7B"),
                                          (16, (0, "miso"), "0A"), (22, (0, "sck"), "3A"), (28, (1, "miso"), "6A")])
def test_pico_pin_functions_follow_the_rp2040_function_table(gp, spi, pwm):
    assert (pico_spi(gp), pico_pwm(gp)) == (spi, pwm)
