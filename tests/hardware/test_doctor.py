"""cardtable doctor on simulated hardware: what works is reported as working, each fault is named."""
from __future__ import annotations

import pytest

from appliance.test_checks import ONE_HUB
from table import cli
from table.cli import main
from table.events import EventBus
from table.hardware import pins
from table.doctor import Doctor, HandMaker, report
from table.hardware.hub import host
from table.hardware.lights import build_lights_and_buttons, press
from table.hardware.pins import simulated_factories
from table.hardware.ports import LightState
from table.hardware.simulated import VirtualReader
from table.layout import LAYOUTS, load_layout


class Bench:
    """A simulated table on the doctor's bench, and a hand that answers only what it can see.

    The hand presses a seat's button only while that seat's light is on (the
    maker sees it), and lays a card where `misplace` says (default: where asked).
    """

    def __init__(self, layout: str = "sim-6-single") -> None:
        self.layout = load_layout(layout)
        self.bus = EventBus()
        self.readers = {pad: VirtualReader(pad) for pad in self.layout.pads}
        self.factories = simulated_factories(self.layout)
        self.lights, self.buttons = build_lights_and_buttons(self.layout, self.bus, self.factories)
        self.dead_buttons: set[tuple[int, str]] = set()
        self.misplace: dict[str, str] = {}
        self.lines: list[str] = []
        self.hand = HandMaker(self.bus, self.press, self.place, self.lift, self.lines.append)

    def press(self, seat: int, button: str) -> None:
        if self.lights[seat].state is LightState.OFF or (seat, button) in self.dead_buttons:
            return
        spec = self.layout.seats[seat - 1]
        press(self.factories[spec.board], dict(spec.buttons)[button])

    def place(self, pad: str) -> None:
        self.readers[self.misplace.get(pad, pad)].place("04A1B2C3D4E5F6")

    def lift(self, pad: str) -> None:
        self.readers[self.misplace.get(pad, pad)].lift()

    def run(self, patience_s: float = 5.0):
        try:
            return Doctor(self.layout, self.readers, self.lights, self.bus, self.hand, patience_s).run()
        finally:
            for light in self.lights.values():
                light.close()
            self.buttons.close()


def by_part(findings):
    return {f.part: f for f in findings}


@pytest.fixture(autouse=True)
def state(tmp_path, monkeypatch):
    """The doctor's state directory by default: a writable one, not systemd's; not started by systemd."""
    monkeypatch.setattr(cli, "DEFAULT_JOURNAL", tmp_path / "journal.sqlite")
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "CARDTABLE_STATE"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def parts_report(capsys) -> str:
    """What the doctor printed before its protections (which it always prints)."""
    parts, protections, _ = capsys.readouterr().out.partition("Protections\n")
    assert protections, "no protections after the report"
    return parts


@pytest.mark.parametrize("layout", ["sim-6-single", "sim-6-slots"])
def test_a_sound_table_is_reported_working_part_by_part(layout):
    bench = Bench(layout)
    findings = bench.run()
    parts = by_part(findings)
    spec = bench.layout
    assert set(parts) == ({f"reader {p}" for p in spec.pads} | {f"pad {p}" for p in spec.pads}
                          | {f"light seat {s.number}" for s in spec.seats}
                          | {f"button seat {s.number} '{b}'" for s in spec.seats for b, _ in s.buttons})
    assert all(f.ok for f in findings), report(findings)
    assert all(light.state is LightState.OFF for light in bench.lights.values())   # each seat lit in turn, then off
    assert report(findings).endswith(f"{len(findings)} of {len(findings)} parts work.")
    assert any("Press its 'ok' button" in line for line in bench.lines)


def test_a_dead_reader_is_named_and_its_pad_is_not_asked_for():
    bench = Bench()
    bench.readers["seat3"].broken = True
    parts = by_part(bench.run())
    assert not parts["reader seat3"].ok and "no answer" in parts["reader seat3"].detail
    assert "pad seat3" not in parts
    assert all(f.ok for name, f in parts.items() if name != "reader seat3")


def test_a_dead_button_fails_alone_and_a_seat_with_no_working_button_leaves_its_light_unconfirmed():
    bench = Bench()
    bench.dead_buttons = {(2, "next"), (5, "next"), (5, "ok")}
    parts = by_part(bench.run(patience_s=0.3))
    bad = sorted(name for name, f in parts.items() if not f.ok)
    assert bad == ["button seat 2 'next'", "button seat 5 'next'", "button seat 5 'ok'", "light seat 5"]
    assert "no press in 0.3 s" in parts["button seat 2 'next'"].detail


def test_a_card_read_by_the_wrong_pad_points_at_the_wiring():
    bench = Bench()
    bench.misplace = {"seat1": "seat4", "seat4": "seat1"}   # two readers' chip selects swapped
    parts = by_part(bench.run(patience_s=0.5))
    for pad, other in (("seat1", "seat4"), ("seat4", "seat1")):
        assert not parts[f"pad {pad}"].ok
        assert f"pads {other} saw a card instead" in parts[f"pad {pad}"].detail
    assert report(list(parts.values())).endswith("; 2 need attention.")


def test_doctor_on_an_emulated_pi_table_runs_the_real_driver_and_passes(capsys):
    assert main(["doctor", "--layout", "pi-4-seat", "--emulated", "--patience", "5"]) == 0
    out = parts_report(capsys)
    assert "OK   reader centre         MFRC522 version 0x92" in out
    assert out.rstrip().endswith("22 of 22 parts work.")   # 5 readers, 4 lights, 8 buttons, 5 pads


def test_a_state_directory_not_made_yet_is_a_problem_only_where_one_is_expected(state, monkeypatch, capsys):
    """A developer's default data folder before any table ran here is no problem; the appliance's
    ($CARDTABLE_STATE) or one named with --state, missing, is."""
    monkeypatch.setattr(cli, "DEFAULT_JOURNAL", state / "not-yet" / "journal.sqlite")
    args = ["doctor", "--layout", "pi-4-seat", "--emulated", "--patience", "5"]
    assert main(args) == 0
    assert "not in use  No data folder yet (" in capsys.readouterr().out
    assert main([*args, "--state", str(state / "gone")]) == 1
    assert f"PROBLEM     The data folder {state / 'gone'} does not exist" in capsys.readouterr().out
    monkeypatch.setenv("CARDTABLE_STATE", str(state / "not-yet"))
    assert main(args) == 1


def test_doctor_names_a_reader_broken_on_purpose_and_fails(capsys):
    assert main(["doctor", "--layout", "pi-4-seat", "--emulated", "--break", "seat3", "--break", "centre",
                 "--patience", "5"]) == 1
    out = parts_report(capsys)
    bad = [line for line in out.splitlines() if line.startswith("BAD")]
    assert [line.split()[1:3] for line in bad] == [["reader", "seat3"], ["reader", "centre"]]
    assert "Lay a card on pad 'seat3'" not in out
    assert out.rstrip().endswith("18 of 20 parts work; 2 need attention.")   # no pad check on a dead reader


def test_doctor_refuses_to_break_a_pad_the_table_does_not_have():
    with pytest.raises(SystemExit, match="no pad 'seat9'"):
        main(["doctor", "--layout", "pi-4-seat", "--emulated", "--break", "seat9"])


def parts_of(name: str) -> int:
    """The parts the doctor checks on a sound table: a reader and a pad per pad, a light and its buttons per seat."""
    layout = load_layout(name)
    return 2 * len(layout.pads) + sum(1 + len(seat.buttons) for seat in layout.seats)


@pytest.mark.parametrize("name", sorted(p.stem for p in LAYOUTS.glob("*.toml")))
def test_doctor_emulated_passes_on_every_shipped_layout(name, capsys):
    """Pi-wired readers on emulated chips, hub-wired ones on emulated hubs (the firmware on an emulated Pico,
    over a pty), simulated tables on their simulated hardware."""
    assert main(["doctor", "--layout", name, "--emulated", "--patience", "10"]) == 0
    out = parts_report(capsys)
    assert out.rstrip().endswith(f"{parts_of(name)} of {parts_of(name)} parts work.")


def test_doctor_on_emulated_hubs_names_a_deaf_reader_and_asks_nothing_of_it(capsys):
    assert main(["doctor", "--layout", "hubs-8-seat", "--emulated", "--break", "seat3-b", "--patience", "10"]) == 1
    out = parts_report(capsys)
    bad = [line for line in out.splitlines() if line.startswith("BAD")]
    assert [line.split()[1:3] for line in bad] == [["reader", "seat3-b"]]
    assert "Lay a card on pad 'seat3-b'" not in out and "Lay a card on pad 'seat3-c'" in out
    total = parts_of("hubs-8-seat") - 1
    assert out.rstrip().endswith(f"{total - 1} of {total} parts work; 1 needs attention.")


@pytest.fixture
def bare_machine(monkeypatch):
    """This machine as a laptop: no Raspberry Pi, no seat hub on USB (whatever machine runs the tests)."""
    monkeypatch.setattr(pins, "pi_model", lambda root=None: None)
    monkeypatch.setattr(host, "find_hubs", lambda *args: [])


def test_doctor_off_a_pi_names_the_missing_pi_in_one_line_and_asks_for_nothing(bare_machine, capsys):
    assert main(["doctor", "--layout", "pi-4-seat", "--patience", "30"]) == 1
    out = parts_report(capsys)
    assert out.splitlines() == [
        "BAD  Raspberry Pi  this is not a Raspberry Pi (no Raspberry Pi model in /proc/device-tree/model)",
        "0 of 1 parts work; 1 needs attention."]


def test_doctor_on_a_pi_it_cannot_drive_says_why_in_one_line(bare_machine, monkeypatch, capsys):
    monkeypatch.setattr(pins, "pi_model", lambda root=None: "Raspberry Pi 5 Model B Rev 1.0")
    def no_gpio(*args):
        raise pins.NoTableHardware("no Raspberry Pi header GPIO controller: add this user to the gpio group")

    monkeypatch.setattr(pins, "find_gpiochip", no_gpio)
    assert main(["doctor", "--layout", "pi-4-seat", "--patience", "30"]) == 1
    assert parts_report(capsys).splitlines() == [
        "BAD  Raspberry Pi  no Raspberry Pi header GPIO controller: add this user to the gpio group",
        "0 of 1 parts work; 1 needs attention."]


def test_doctor_with_no_hub_plugged_in_names_each_hub_and_asks_for_nothing(bare_machine, capsys):
    assert main(["doctor", "--layout", "hubs-8-seat", "--patience", "0.5"]) == 1
    lines = parts_report(capsys).splitlines()
    assert lines[0] == "Waiting for the 4 seat hubs (at most 0.5 s)..."
    assert [line.split("  ")[:2] for line in lines[1:5]] == [["BAD", "hub hub1"], ["BAD", "hub hub2"],
                                                             ["BAD", "hub hub3"], ["BAD", "hub hub4"]]
    assert all("no hub found: check its USB cable" in line for line in lines[1:5])
    assert lines[5:] == ["0 of 4 parts work; 4 need attention."]


def test_doctor_refuses_to_break_a_real_reader(capsys):
    with pytest.raises(SystemExit, match="--break needs --emulated"):
        main(["doctor", "--layout", "pi-4-seat", "--break", "seat1"])


def test_doctor_ends_with_the_protections_in_english_and_a_problem_there_fails_it(state, capsys):
    assert main(["doctor", "--layout", "sim-6-single", "--patience", "5"]) == 0
    report, _, protections = capsys.readouterr().out.partition("Protections\n")
    assert report.rstrip().endswith("32 of 32 parts work.")
    lines = protections.splitlines()
    assert lines[0] == "not in use  Watchdog: not in use here (the table is not running as a service)."
    assert lines[1].startswith(f"OK          Data: the folder {state} can be written to (")
    assert main(["doctor", "--layout", "sim-6-single", "--patience", "5", "--state", str(state / "gone")]) == 1
    report, _, protections = capsys.readouterr().out.partition("Protections\n")
    assert report.rstrip().endswith("32 of 32 parts work.")   # every part works: the protection fails the doctor
    assert protections.splitlines()[1] == (f"PROBLEM     The data folder {state / 'gone'} does not exist: "
                                           "run the installer again (docs/appliance.md).")


def test_doctor_names_a_hub_that_sent_frames_that_do_not_fit_its_wiring(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(host, "UID_SIZES", (0, 4, 10))   # the host takes no 7-byte UID: the hub's card reads misfit
    (tmp_path / "one-hub.toml").write_text(ONE_HUB)
    assert main(["doctor", "--layout", str(tmp_path / "one-hub.toml"), "--emulated", "--patience", "0.5"]) == 1
    bad = [line for line in parts_report(capsys).splitlines() if line.startswith("BAD")]
    assert [line.split()[1:3] for line in bad] == [["pad", "seat1"], ["pad", "seat2"], ["pad", "centre"],
                                                   ["hub", "hub1"]]
    assert "frames that do not fit its wiring were dropped (" in bad[-1]


def test_doctor_says_whether_each_staff_card_is_protected(state, capsys):
    from table.storage.registry import TagRegistry, staff_tag
    registry = TagRegistry(state / "registry.sqlite")
    registry.enrol("04000000000001", staff_tag(1))
    registry.mark_protected("04000000000001")
    registry.close()
    args = ["doctor", "--layout", "pi-4-seat", "--emulated", "--patience", "5"]
    assert main(args) == 0
    assert "OK          staff-1 is protected: it proves itself with its password" in capsys.readouterr().out
    registry = TagRegistry(state / "registry.sqlite")
    registry.enrol("04000000000002", staff_tag(2))                   # enrolled by a table of before
    registry.close()
    assert main(args) == 1
    out = capsys.readouterr().out.partition("Staff cards\n")[2]
    assert out.splitlines() == [
        "OK          staff-1 is protected: it proves itself with its password",
        "PROBLEM     staff-2 is not protected: the table refuses it; lay it on the enrolment station "
        "(cardtable enrol --staff 2)"]
    assert main([*args, "--registry", str(state / "none.sqlite"), "--state", str(state)]) == 1
    assert f"PROBLEM     no tag registry at {state / 'none.sqlite'}" in capsys.readouterr().out
