"""Layout files: parsing, the checks a maker sees, and `cardtable layout check`."""
from __future__ import annotations

import pytest

from table.cli import main
from table.layout import LAYOUTS, PICO_MICROPYTHON_USB, LayoutError, load_layout, read_layout
from table.layout.check import check_layout, summary
from table.layout.mfrc522 import pi_spi_config
from table.layout.wiring import wiring_markdown

PI_TABLE = """\
name = "two seats on the Pi"
backend = "pi"

[pi]
reset = 27

[pads.s1]
spi = 0
ce = 0

[pads.s2]
spi = 0
ce = 1

[pads.c]
spi = 1
ce = 0

[[seats]]
pads = ["s1"]
light = [5, 6, 12]
buttons = { next = 13, ok = 16 }

[[seats]]
pads = ["s2"]
light = [22, 23, 24]
buttons = { next = 25, ok = 26 }

[centre]
pads = ["c"]
"""

HUB_TABLE = """\
name = "one seat on a hub"
backend = "hubs"

[[hubs]]
name = "h1"
sck = 2
mosi = 3
miso = 4
reset = 5

[pads.s1]
board = "h1"
cs = 6

[pads.c]
board = "h1"
cs = 7

[[seats]]
pads = ["s1"]
board = "h1"
light = [16, 17, 18]
buttons = { next = 0, ok = 1 }

[centre]
pads = ["c"]
"""

REFERENCE = sorted(LAYOUTS.glob("*.toml"))


def write(tmp_path, text: str, *changes: tuple[str, str]):
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


def errors(path) -> list[str]:
    return [p.message for p in check_layout(read_layout(path)) if p.error]


def warnings(path) -> list[str]:
    return [p.message for p in check_layout(read_layout(path)) if not p.error]


@pytest.mark.parametrize("text", [PI_TABLE, HUB_TABLE], ids=["pi", "hub"])
def test_the_tables_the_rule_tests_break_are_fine(tmp_path, text):
    assert check_layout(read_layout(write(tmp_path, text))) == []


@pytest.mark.parametrize("path", REFERENCE, ids=[p.stem for p in REFERENCE])
def test_every_layout_shipped_in_hardware_has_no_errors(path):
    layout = load_layout(path.stem)
    assert not [p for p in check_layout(layout) if p.error]
    assert layout.pads and all(w.pad in layout.pads for w in layout.wiring)


def test_the_two_reference_builds_wire_every_pad_to_a_reader():
    pi, hubs = load_layout("pi-4-seat"), load_layout("hubs-8-seat")
    assert (pi.backend, len(pi.seats), len(pi.pads)) == ("pi", 4, 5)
    assert (hubs.backend, len(hubs.seats)) == ("hubs", 8)
    for layout in (pi, hubs):
        assert sorted(w.pad for w in layout.wiring) == sorted(layout.pads)
        assert all(len(seat.buttons) == 2 and len(seat.light) == 3 for seat in layout.seats)


# Parsing


def test_a_layout_reads_into_frozen_dataclasses_with_defaults(tmp_path):
    layout = read_layout(write(tmp_path, HUB_TABLE, ('backend = "hubs"', 'backend = "hubs"\n[presence]\nplace_after = 3')))
    hub = layout.hubs[0]
    assert (hub.usb, hub.serial, hub.spi, hub.reset) == (PICO_MICROPYTHON_USB, None, 0, 5)
    assert [(w.pad, w.board, w.bus, w.cs, w.reset, w.index) for w in layout.readers_on("h1")] == [
        ("s1", "h1", None, 6, 5, 0), ("c", "h1", None, 7, 5, 1)]
    assert (layout.presence.place_after, layout.presence.remove_after) == (3, 6)
    assert (layout.reader, layout.common_anode) == ("mfrc522", False)
    with pytest.raises(AttributeError):
        layout.name = "other"   # type: ignore[misc]


def test_a_pad_may_have_its_own_reset_pin_and_otherwise_shares_the_pi_one(tmp_path):
    path = write(tmp_path, PI_TABLE, ("ce = 1\n", "ce = 1\nreset = 4\n"))   # PI_TABLE shares GPIO 27
    assert [w.reset for w in read_layout(path).wiring] == [27, 4, 27]
    assert errors(path) == []


@pytest.mark.parametrize("change, key, problem", [
    (('name = "two seats on the Pi"\n', ""), "name", "missing"),
    (("ce = 1", 'ce = "one"'), "pads.s2.ce", "expected a whole number"),
    (("light = [22, 23, 24]", "light = [22, 23, true]"), "seats[1].light", "expected pin numbers"),
    (("ce = 1", "chip_enable = 1"), "pads.s2.chip_enable", "unknown key"),
    (("buttons = { next = 13, ok = 16 }", "buttons = { nxt = 13, ok = 16 }"), "seats[0].buttons.nxt",
     "unknown key (known here: next, ok, back)"),
    (('backend = "pi"', 'backend = "spi"'), "backend", "'spi' is not one of simulated, pi, hubs"),
    (('backend = "pi"', 'backend = "pi"\nreader = "rc522"'), "reader", "not one of mfrc522, mfrc522-legacy"),
    (('[pads.s1]', '[[hubs]]\nname = "h"\nusb = "pico"\nsck = 2\nmosi = 3\nmiso = 4\n[pads.s1]'),
     "hubs[0].usb", 'expected VID:PID in hexadecimal like "2e8a:0005"'),
])
def test_a_parsing_error_names_the_file_and_the_key(tmp_path, change, key, problem):
    path = write(tmp_path, PI_TABLE, change)
    with pytest.raises(LayoutError) as error:
        read_layout(path)
    assert str(error.value).startswith(f"{path}: {key}: ") and problem in str(error.value)


@pytest.mark.parametrize("text, change, key, known", [
    (PI_TABLE, ('name = "two', 'nmae = "two'), "nmae",
     "name, backend, reader, presence, lights, pi, hubs, pads, seats, centre); did you mean 'name'?"),
    (PI_TABLE, ("[centre]", "[center]"), "center", "pads, seats, centre); did you mean 'centre'?"),
    (PI_TABLE, ('backend = "pi"', 'backend = "pi"\n[presence]\nplace_aftr = 3'), "presence.place_aftr",
     "place_after, remove_after, poll_interval); did you mean 'place_after'?"),
    (PI_TABLE, ('backend = "pi"', 'backend = "pi"\n[lights]\ncommon_anod = true'), "lights.common_anod",
     "common_anode); did you mean 'common_anode'?"),
    (PI_TABLE, ("reset = 27", "rest = 27"), "pi.rest", "reset); did you mean 'reset'?"),
    (PI_TABLE, ("ce = 1", "ce = 1\nchip = 2"), "pads.s2.chip", "board, spi, ce, cs, reset)"),
    (PI_TABLE, ("light = [22, 23, 24]", "lihgt = [22, 23, 24]"), "seats[1].lihgt",
     "pads, board, light, buttons); did you mean 'light'?"),
    (PI_TABLE, ("buttons = { next = 13, ok = 16 }", "buttons = { next = 13, okay = 16 }"), "seats[0].buttons.okay",
     "next, ok, back); did you mean 'ok'?"),
    (PI_TABLE, ('pads = ["c"]', 'pad = ["c"]'), "centre.pad", "pads); did you mean 'pads'?"),
    (HUB_TABLE, ("sck = 2", "sclk = 2"), "hubs[0].sclk",
     "name, usb, serial, spi, sck, mosi, miso, reset); did you mean 'sck'?"),
], ids=["top", "centre-table", "presence", "lights", "pi", "pad", "seat", "button", "centre", "hub"])
def test_a_key_the_schema_does_not_have_is_refused_anywhere_naming_the_keys_allowed(tmp_path, text, change, key,
                                                                                 known):
    path = write(tmp_path, text, change)
    with pytest.raises(LayoutError) as error:
        read_layout(path)
    assert str(error.value).startswith(f"{path}: {key}: unknown key (known here: ")
    assert str(error.value).endswith(known)


def test_layout_check_names_a_misspelt_key_and_exits_1(tmp_path, capsys):
    path = write(tmp_path, PI_TABLE, ("[centre]", "[center]"))
    assert main(["layout", "check", str(path)]) == 1
    assert capsys.readouterr().out.startswith(f"error: {path}: center: unknown key")


def test_a_file_that_is_not_toml_or_not_there_is_refused_by_name(tmp_path):
    with pytest.raises(LayoutError, match=r"table.toml: not valid TOML"):
        read_layout(write(tmp_path, "name = \n"))
    with pytest.raises(LayoutError, match=r"nowhere.toml: cannot read it"):
        read_layout(tmp_path / "nowhere.toml")


def test_load_layout_refuses_a_layout_with_errors_and_lists_them(tmp_path):
    path = write(tmp_path, PI_TABLE, ("ok = 16", "ok = 5"), ("ce = 1", "ce = 2"))
    with pytest.raises(LayoutError) as error:
        load_layout(path)
    lines = str(error.value).splitlines()
    assert len(lines) == 2 and all(line.startswith(f"{path}: ") for line in lines)


# The rules, each broken once


def test_a_pin_used_twice_names_both_uses(tmp_path):
    path = write(tmp_path, PI_TABLE, ("ok = 26", "ok = 5"))
    assert errors(path) == ["GPIO5 (pin 29) is used twice: seat 1 red LED and seat 2 button 'ok'"]


def test_a_pin_the_pi_does_not_have(tmp_path):
    path = write(tmp_path, PI_TABLE, ("light = [5, 6, 12]", "light = [5, 6, 31]"))
    assert errors(path) == ["GPIO 31 does not exist on a Raspberry Pi (usable: GPIO 0-27); used by seat 1 blue LED"]


def test_spi0_has_two_chip_enable_lines(tmp_path):
    path = write(tmp_path, PI_TABLE, ("ce = 1", "ce = 2"))
    [message] = errors(path)
    assert message.startswith("SPI0 has 2 chip-enable lines (CE0, CE1); pad 's2' asks for CE2: ")
    assert "cs = ..." in message


def test_spi1_has_three_chip_enable_lines(tmp_path):
    path = write(tmp_path, PI_TABLE, ("spi = 1\nce = 0", "spi = 1\nce = 3"))
    assert errors(path)[0].startswith("SPI1 has 3 chip-enable lines (CE0, CE1, CE2); pad 'c' asks for CE3")


def test_a_led_on_a_reader_bus_pin_is_moved(tmp_path):
    path = write(tmp_path, PI_TABLE, ("light = [5, 6, 12]", "light = [10, 6, 12]"))
    assert errors(path) == ["GPIO10 (pin 19) is SPI0 MOSI, used by the readers; move seat 1 red LED"]


def test_the_chip_enable_lines_an_overlay_claims_are_taken_even_without_a_reader(tmp_path):
    path = write(tmp_path, PI_TABLE, ("spi = 1\nce = 0", "spi = 1\nce = 2"), ("ok = 16", "ok = 17"))
    assert pi_spi_config(read_layout(path)) == {0: "dtparam=spi=on", 1: "dtoverlay=spi1-3cs"}
    assert errors(path) == ["GPIO17 (pin 11) is SPI1 CE1 (claimed by dtoverlay=spi1-3cs), used by the readers; "
                            "move seat 1 button 'ok'"]


def test_two_readers_on_one_chip_enable_line(tmp_path):
    path = write(tmp_path, PI_TABLE, ("ce = 1", "ce = 0"))
    assert errors(path) == ["GPIO8 (pin 24) is used twice: pad 's1' chip select (SPI0 CE0) and "
                            "pad 's2' chip select (SPI0 CE0)"]


def test_a_bus_uses_chip_enable_lines_or_gpio_chip_selects_not_both(tmp_path):
    path = write(tmp_path, PI_TABLE, ("ce = 1", "cs = 4"))
    assert errors(path) == ["SPI0 mixes chip-enable lines (pad 's1') and GPIO chip selects (pad 's2'): "
                            "use one kind per bus"]


def test_gpio_chip_selects_free_the_chip_enable_pins(tmp_path):
    path = write(tmp_path, PI_TABLE, ("ce = 0", "cs = 2"), ("ce = 1", "cs = 7"), ("next = 13", "next = 8"))
    assert errors(path) == []
    assert pi_spi_config(read_layout(path))[0] == "dtoverlay=spi0-0cs"


def test_a_reader_needs_exactly_one_chip_select(tmp_path):
    both = write(tmp_path, PI_TABLE, ("ce = 1", "ce = 1\ncs = 2"))
    assert "pad 's2' needs one chip select" in errors(both)[0] and errors(both)[0].endswith("not both")
    neither = write(tmp_path, PI_TABLE, ("ce = 1", ""))
    assert errors(neither)[0].endswith("not neither")


def test_readers_go_on_spi0_or_spi1(tmp_path):
    path = write(tmp_path, PI_TABLE, ("spi = 1\nce = 0", "spi = 3\nce = 0"))
    assert errors(path) == ["pad 'c': readers go on SPI0 or SPI1, not SPI3: set spi = 0 or 1"]


def test_a_pad_assigned_to_no_seat(tmp_path):
    path = write(tmp_path, PI_TABLE, ("[[seats]]", "[pads.seat9]\nspi = 1\nce = 1\n\n[[seats]]"))
    assert errors(path) == ["pad 'seat9' is assigned to no seat and is not a centre pad: add it to a seat's pads "
                            "or to the centre's, or remove [pads.seat9]"]


def test_a_pad_without_a_reader_on_a_real_table(tmp_path):
    path = write(tmp_path, PI_TABLE, ('pads = ["s2"]', 'pads = ["s2", "s3", "s4", "s5"]'))
    assert errors(path) == [f"pad '{pad}' (seat 2) has no reader: add [pads.{pad}] with its chip select"
                            for pad in ("s3", "s4", "s5")]


def test_a_board_that_is_not_declared(tmp_path):
    path = write(tmp_path, PI_TABLE, ('pads = ["s2"]', 'pads = ["s2"]\nboard = "hub9"'))
    assert errors(path) == ["seat 2 is on board 'hub9', which is not declared: "
                            'add a [[hubs]] with name = "hub9", or use board = "pi"']
    path = write(tmp_path, HUB_TABLE, ('board = "h1"\ncs = 7', 'board = "h2"\ncs = 7'))
    assert errors(path) == ["pad 'c' is wired to hub 'h2', which is not declared: "
                            'add a [[hubs]] with name = "h2", or use board = "pi"']


def test_the_backend_agrees_with_the_hubs(tmp_path):
    assert errors(write(tmp_path, HUB_TABLE, ('backend = "hubs"', 'backend = "pi"'))) == [
        'backend is "pi" but the layout declares hubs: set backend = "hubs"']
    assert errors(write(tmp_path, PI_TABLE, ('backend = "pi"', 'backend = "hubs"'))) == [
        'backend is "hubs" but no [[hubs]] is declared']


def test_any_pad_count_is_a_layout_and_pad_names_are_unique(tmp_path):
    """Layout check knows no game: 2 pads at a seat is a layout (the lobby offers the games that fit it)."""
    path = write(tmp_path, PI_TABLE, ('backend = "pi"', 'backend = "simulated"'),
                 ('pads = ["s2"]', 'pads = ["s2", "c"]'))
    assert errors(path) == ["pad 'c' is named twice: seat 2 and the centre; give each pad its own name"]


def test_a_light_has_three_pins_or_one(tmp_path):
    assert errors(write(tmp_path, PI_TABLE, ("light = [5, 6, 12]", "light = [5, 6]"))) == [
        "seat 1's light has 2 pins: give 3 (red, green, blue) or 1 (a single-colour LED)"]
    assert errors(write(tmp_path, PI_TABLE, ("light = [5, 6, 12]", "light = [5]"))) == []


def test_presence_tuning_must_make_sense(tmp_path):
    path = write(tmp_path, PI_TABLE, ('backend = "pi"', 'backend = "pi"\n[presence]\nremove_after = 0\npoll_interval = 0'))
    assert errors(path) == ["presence: place_after and remove_after must be at least 1",
                            "presence: poll_interval must be more than 0 seconds"]


def test_too_many_readers_polled_in_turn_for_a_card_held_300_ms(tmp_path):
    fine = write(tmp_path, PI_TABLE, ('backend = "pi"', 'backend = "pi"\n[presence]\nplace_after = 30'))
    assert errors(fine) == []   # one reader per bus on SPI1, two on SPI0: 2 x 5 ms x 30 = 300 ms
    slow = write(tmp_path, PI_TABLE, ('backend = "pi"', 'backend = "pi"\n[presence]\nplace_after = 31'))
    [message] = errors(slow)
    assert message.startswith("too many readers on the Pi's SPI0 (2): ") and "310 ms" in message


def test_the_legacy_driver_only_drives_chip_enable_lines(tmp_path):
    path = write(tmp_path, HUB_TABLE, ('backend = "hubs"', 'backend = "hubs"\nreader = "mfrc522-legacy"'))
    assert errors(path)[0].startswith("pad 's1': the mfrc522-legacy reader driver only drives readers on the Pi's")
    assert errors(write(tmp_path, PI_TABLE, ('backend = "pi"', 'backend = "pi"\nreader = "mfrc522-legacy"'))) == []


def test_pins_with_a_second_job_on_the_pi_are_warnings(tmp_path):
    path = write(tmp_path, PI_TABLE, ("next = 13", "next = 0"), ("light = [22, 23, 24]", "light = [2, 23, 24]"))
    assert errors(path) == []
    [id_sd, i2c] = warnings(path)
    assert id_sd.startswith("GPIO0 (pin 27) is ID_SD") and id_sd.endswith("used by seat 1 button 'next'")
    assert i2c.startswith("GPIO2 (pin 3) has a 1.8 kOhm pull-up") and i2c.endswith("used by seat 2 red LED")
    assert warnings(write(tmp_path, PI_TABLE, ("next = 13", "next = 2"))) == []   # a button on I2C is fine


# Hubs


def test_a_hub_pin_on_the_board_itself(tmp_path):
    path = write(tmp_path, HUB_TABLE, ("cs = 7", "cs = 25"))
    assert errors(path) == ["hub 'h1': GP25 is not on the Pico's pins, it is the on-board LED "
                            "(usable: GP0-22 and GP26-28); used by pad 'c' chip select"]


def test_a_hub_spi_pin_must_carry_that_spi_function(tmp_path):
    path = write(tmp_path, HUB_TABLE, ("sck = 2", "sck = 3"), ("mosi = 3", "mosi = 19"))
    assert errors(path) == ["hub 'h1': GP3 (pin 5) cannot be SPI0 SCK; SPI0 SCK is on GP2, GP6, GP18 and GP22"]


def test_a_hub_pin_its_readers_bus_holds(tmp_path):
    path = write(tmp_path, HUB_TABLE, ("next = 0", "next = 3"))
    assert errors(path) == ["hub 'h1': GP3 (pin 5) is SPI0 MOSI, used by the readers; move seat 1 button 'next'"]


def test_a_simulated_board_has_the_mock_pins_0_to_27(tmp_path):
    path = write(tmp_path, PI_TABLE, ('backend = "pi"', 'backend = "simulated"'),
                 ('pads = ["s2"]', 'pads = ["s2"]\nboard = "b"'), ("next = 25", "next = 30"))
    assert errors(path) == ["board 'b': pin 30 does not exist on a simulated board (usable: pins 0-27); "
                            "used by seat 2 button 'next'"]


def test_two_led_pins_of_a_hub_on_the_same_pwm_output(tmp_path):
    path = write(tmp_path, HUB_TABLE, ("light = [16, 17, 18]", "light = [16, 17, 0]"), ("next = 0", "next = 8"))
    assert errors(path) == ["hub 'h1': GP16 (pin 21) and GP0 (pin 1) are the same PWM output 0A, so seat 1 red LED "
                            "and seat 1 blue LED would always show the same brightness: move one to a pin with its "
                            "own PWM output"]


def test_a_hub_reader_has_a_gpio_chip_select_only(tmp_path):
    path = write(tmp_path, HUB_TABLE, ("cs = 7", "ce = 0\nspi = 1"))
    assert errors(path) == [
        "pad 'c' is on hub 'h1', which has no chip-enable lines: use cs = a GP pin",
        "pad 'c' is on hub 'h1', whose readers share the hub's SPI bus: remove spi",
        "pad 'c' on hub 'h1' needs a chip select: cs = a GP pin"]


def test_too_many_chip_selects_for_a_hub(tmp_path):
    pads = "".join(f'[pads.x{gp}]\nboard = "h1"\ncs = {gp}\n' for gp in range(8, 30))
    seat_pads = ", ".join(f'"x{gp}"' for gp in range(8, 12))
    path = write(tmp_path, HUB_TABLE, ("[[seats]]", pads + f'[[seats]]\npads = [{seat_pads}]\nboard = "h1"\n'
                                       'light = [1]\nbuttons = {}\n[[seats]]'))
    assert "too many chip selects on hub 'h1': 24 readers, but a Pico has 26 usable pins and 4 go to its SPI bus " \
           "and reset, so at most 22; move readers to another hub" in errors(path)


def test_a_hub_table_may_wire_its_centre_pad_to_the_pi(tmp_path):
    path = write(tmp_path, HUB_TABLE, ('board = "h1"\ncs = 7', "spi = 1\nce = 2\nreset = 27"))
    layout = read_layout(path)
    assert check_layout(layout) == []
    assert [(w.pad, w.board) for w in layout.wiring] == [("s1", "h1"), ("c", "pi")]
    assert "Pi SPI1: 1 reader on chip-enable lines" in summary(layout)
    assert "dtoverlay=spi1-3cs" in summary(layout)


def test_identical_picos_without_serial_numbers_are_a_warning(tmp_path):
    second = '\n[[hubs]]\nname = "h2"\nsck = 2\nmosi = 3\nmiso = 4\n\n[pads.s1]'
    path = write(tmp_path, HUB_TABLE, ("\n[pads.s1]", second))
    assert warnings(path) == ["hubs 'h1' and 'h2' have the same USB id 2e8a:0005 and no serial number: set each "
                              "one's serial (see hardware/README.md) so the table knows which Pico is which"]
    named = write(tmp_path, HUB_TABLE, ("\n[pads.s1]", second.replace('"h2"', '"h2"\nserial = "E661"')))
    assert warnings(named) == []


# The command


def test_layout_check_prints_a_summary_and_exits_0_for_a_good_table(capsys):
    assert main(["layout", "check", "pi-4-seat"]) == 0
    out = capsys.readouterr().out
    layout = load_layout("pi-4-seat")
    assert summary(layout) in out and "error" not in out
    assert f"SPI0: {len(layout.readers_on('pi'))} readers" in out


def test_layout_check_prints_one_line_per_problem_and_exits_1(tmp_path, capsys):
    path = write(tmp_path, PI_TABLE, ("ok = 26", "ok = 5"), ("light = [5, 6, 12]", "light = [5, 6, 31]"))
    assert main(["layout", "check", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == str(path)
    assert [line for line in lines if line.startswith("error: ")] == [f"error: {e}" for e in errors(path)]
    assert lines[-1] == "2 errors: the table cannot be wired like this"


def test_layout_check_reports_a_parsing_error_and_exits_1(tmp_path, capsys):
    path = write(tmp_path, PI_TABLE, ("ce = 1", "ce = 1.5"))
    assert main(["layout", "check", str(path)]) == 1
    assert capsys.readouterr().out == f"error: {path}: pads.s2.ce: expected a whole number, got 1.5\n"


def test_layout_wiring_prints_the_wiring_tables_of_a_good_table_only(tmp_path, capsys):
    assert main(["layout", "wiring", "hubs-8-seat"]) == 0
    assert capsys.readouterr().out == wiring_markdown(load_layout("hubs-8-seat"))
    assert main(["layout", "wiring", str(write(tmp_path, PI_TABLE, ("ok = 26", "ok = 5")))]) == 1
    assert "| Seat |" not in capsys.readouterr().out


def test_readers_without_a_reset_pin_are_a_warning(tmp_path):
    path = write(tmp_path, PI_TABLE, ("[pi]\nreset = 27\n", ""))
    assert warnings(path) == ["3 readers ('s1', 's2' and 'c') have no reset pin: a reader that goes deaf can only "
                              "be soft-reset, and one that ignores it stays out of order until the power is cycled; "
                              "wire their RST (NRSTPD) to a free pin (reset = N)"]
