"""Pin factory choice and hardware presence, on fake /dev, /proc and /sys trees."""
from __future__ import annotations

import struct

import pytest
from gpiozero.pins.mock import MockFactory

from table.hardware import pins
from table.hardware.pins import (NoTableHardware, chip_label, find_gpiochip, missing_hardware, pi_factory, pi_model,
                                 pin_factories)
from table.layout import LAYOUTS, load_layout

# gpiodetect on a Pi 5 before and after the kernel gave the RP1 controller gpiochip0, and on a Pi 4.
PI5_EARLY = ["gpio-brcmstb@107d508500", "gpio-brcmstb@107d508520", "gpio-brcmstb@107d517c00",
             "gpio-brcmstb@107d517c20", "pinctrl-rp1"]
PI5_LATER = ["pinctrl-rp1", "gpio-brcmstb@107d508500", "gpio-brcmstb@107d508520", "gpio-brcmstb@107d517c00",
             "gpio-brcmstb@107d517c20"]
PI4 = ["pinctrl-bcm2711", "raspberrypi-exp-gpio"]


def fake_chips(root, labels: list[str]):
    """A /dev with one gpiochipN per label, and a label reader that answers like the kernel would."""
    (root / "dev").mkdir(exist_ok=True)
    for n in range(len(labels)):
        (root / "dev" / f"gpiochip{n}").touch()
    (root / "dev" / "gpiochip-extra").touch()       # not a chip device name: ignored
    return lambda path: labels[int(path.name[8:])]


@pytest.mark.parametrize("labels", [PI5_EARLY, PI5_LATER, PI4], ids=["pi5-early", "pi5-later", "pi4"])
def test_the_header_gpiochip_is_found_by_its_label(tmp_path, labels):
    label_of = fake_chips(tmp_path, labels)
    assert labels[find_gpiochip(tmp_path, label_of)] in ("pinctrl-rp1", "pinctrl-bcm2711")


def test_no_header_gpiochip_is_a_clear_error(tmp_path):
    label_of = fake_chips(tmp_path, ["gpio-mockup-A", "ftdi-cbus"])
    with pytest.raises(NoTableHardware, match=r"found gpiochip0 \(gpio-mockup-A\), gpiochip1 \(ftdi-cbus\)"):
        find_gpiochip(tmp_path, label_of)
    with pytest.raises(NoTableHardware, match="found none. Not a Raspberry Pi"):
        find_gpiochip(tmp_path / "elsewhere")


def test_a_chip_label_comes_from_the_kernel_chip_info(tmp_path, monkeypatch):
    chip = tmp_path / "gpiochip0"
    chip.touch()
    assert chip_label(chip) is None            # a plain file answers no GPIO ioctl
    info = struct.pack("32s32sI", b"gpiochip0", b"pinctrl-rp1", 54)
    asked = []
    monkeypatch.setattr(pins.fcntl, "ioctl", lambda fd, request, buffer: asked.append(request) or info)
    assert chip_label(chip) == "pinctrl-rp1"
    assert asked == [pins.GPIO_GET_CHIPINFO_IOCTL]


def test_the_pi_factory_is_lgpio_on_the_chip_found(tmp_path, monkeypatch):
    from gpiozero.pins import lgpio
    opened = []
    monkeypatch.setattr(lgpio, "LGPIOFactory", lambda chip: opened.append(chip) or f"lgpio on chip {chip}")
    assert pi_factory(tmp_path, fake_chips(tmp_path, PI5_EARLY)) == "lgpio on chip 4"
    assert opened == [4]


def test_simulated_boards_get_one_mock_factory_each():
    layout = load_layout("hubs-8-seat")
    factories = pin_factories(layout, simulated=True)
    assert list(factories) == list(layout.boards)
    assert all(isinstance(f, MockFactory) for f in factories.values())
    assert len({id(f) for f in factories.values()}) == len(factories)


def test_real_pins_where_there_are_none_is_a_clear_error(tmp_path):
    with pytest.raises(NoTableHardware, match="Raspberry Pi header GPIO controller"):
        pin_factories(load_layout("pi-4-seat"), simulated=False, root=tmp_path)


def test_a_table_on_hubs_only_needs_no_pi_pins(tmp_path):
    assert pin_factories(load_layout("hubs-8-seat"), simulated=False, root=tmp_path) == {}


def write(path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())


def test_the_pi_model_comes_from_the_device_tree(tmp_path):
    assert pi_model(tmp_path) is None
    write(tmp_path / "proc/device-tree/model", b"Raspberry Pi 5 Model B Rev 1.0\0")
    assert pi_model(tmp_path) == "Raspberry Pi 5 Model B Rev 1.0"
    write(tmp_path / "proc/device-tree/model", b"Radxa ROCK 5B\0")
    assert pi_model(tmp_path) is None


def test_a_pi_table_needs_a_pi_and_the_spi_device_of_every_reader(tmp_path):
    layout = load_layout("pi-4-seat")
    assert missing_hardware(layout, tmp_path)[0].startswith("this is not a Raspberry Pi")
    write(tmp_path / "proc/device-tree/model", b"Raspberry Pi 4 Model B Rev 1.5\0")
    missing = missing_hardware(layout, tmp_path)
    assert len(missing) == len(layout.readers_on("pi"))
    assert all("spidev0.0" in m and "add dtoverlay=spi0-0cs to /boot/firmware/config.txt" in m for m in missing)
    write(tmp_path / "dev/spidev0.0", "")
    assert missing_hardware(layout, tmp_path) == []


def plug(root, name: str, usb: str, serial: str | None = None) -> None:
    vendor, product = usb.split(":")
    write(root / "sys/bus/usb/devices" / name / "idVendor", vendor + "\n")
    write(root / "sys/bus/usb/devices" / name / "idProduct", product + "\n")
    if serial:
        write(root / "sys/bus/usb/devices" / name / "serial", serial + "\n")


def test_a_hub_table_needs_as_many_picos_on_usb_as_hubs(tmp_path):
    layout = load_layout("hubs-8-seat")
    plug(tmp_path, "1-1", "2e8a:0005")
    plug(tmp_path, "1-2", "046d:c52b")       # a keyboard receiver
    assert missing_hardware(layout, tmp_path) == [
        "only 1 of the 4 hubs with USB id 2e8a:0005 (hub1, hub2, hub3, hub4) are plugged in"]
    for n in range(2, 5):
        plug(tmp_path, f"1-1.{n}", "2e8a:0005")
    assert missing_hardware(layout, tmp_path) == []


def test_a_hub_with_a_serial_number_must_be_that_pico(tmp_path):
    path = tmp_path / "one-hub.toml"
    path.write_text((LAYOUTS / "hubs-8-seat.toml").read_text()
                    .replace('name = "hub1"', 'name = "hub1"\nserial = "E6614C311B7A9F2C"', 1))
    layout = load_layout(path)
    for n in range(4):
        plug(tmp_path, f"1-{n}", "2e8a:0005", serial=f"OTHER{n}")
    assert missing_hardware(layout, tmp_path) == [
        "hub 'hub1' (USB 2e8a:0005, serial E6614C311B7A9F2C) is not plugged in"]
    plug(tmp_path, "1-9", "2e8a:0005", serial="E6614C311B7A9F2C")
    assert missing_hardware(layout, tmp_path) == []


def test_a_simulated_table_needs_nothing(tmp_path):
    assert missing_hardware(load_layout("sim-6-slots"), tmp_path) == []


def test_auto_takes_the_real_table_once_this_machine_is_it_even_with_parts_missing(tmp_path):
    from table.hardware.build import choose

    hubs, pi = load_layout("hubs-8-seat"), load_layout("pi-4-seat")
    assert choose(hubs, "auto", tmp_path)[0] is None                   # a laptop: the simulated table
    plug(tmp_path, "1-1", "2e8a:0005")                                  # one Pico is up, three come later
    builder, missing = choose(hubs, "auto", tmp_path)
    assert builder is not None and missing == [
        "only 1 of the 4 hubs with USB id 2e8a:0005 (hub1, hub2, hub3, hub4) are plugged in"]
    assert choose(pi, "auto", tmp_path)[0] is None                      # not a Pi
    write(tmp_path / "proc/device-tree/model", b"Raspberry Pi 5 Model B Rev 1.0\0")
    builder, missing = choose(pi, "auto", tmp_path)                     # a Pi whose SPI is not set up yet:
    assert builder is not None and len(missing) == 5                    # its readers will show as faulty
    assert choose(pi, "simulated", tmp_path)[0] is None
    assert choose(load_layout("sim-6-single"), "real", tmp_path)[0] is None
    assert choose(hubs, "real", tmp_path / "nothing")[0] is not None
