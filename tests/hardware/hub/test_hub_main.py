"""firmware/hub/main.py, the firmware's entry point, run under CPython on fakes of the Pico's modules.

Its stdin and stdout (the Pico's USB serial port) are the master side of a
pty; the test talks to it from the slave side with pyserial, as the host does.
"""
import importlib.util
import io
import os
import runpy
import sys
import threading
import time
import tty
import types
from pathlib import Path

import serial

from hub_fakes import FIRMWARE_DIR, RealClock, firmware
from hub_fakes.machine import Board
from table.hardware.hub import protocol
from table.hardware.hub.host import HubWiring, stop_firmware

DRIVER = Path(__file__).resolve().parents[3] / "table" / "hardware" / "rfid" / "mfrc522.py"
WIRING = HubWiring(pads=(("seat1", 17),), buttons=((1, "next", 2),), lights=((1, (6, 7, 8)),))


def pico_modules(board, kbd_intr_calls, crashes):
    """The modules main.py imports that CPython lacks or has otherwise, as sys.modules entries."""
    machine = types.ModuleType("machine")
    machine.Pin, machine.SPI, machine.PWM, machine.unique_id = board.Pin, board.SPI, board.PWM, board.unique_id
    machine.reset = lambda: crashes.append(repr(sys.exc_info()[1]))
    micropython = types.ModuleType("micropython")
    micropython.kbd_intr = kbd_intr_calls.append
    pico_time = types.ModuleType("time")
    pico_time.__dict__.update(vars(time))     # whatever else imports time meanwhile still finds it whole
    pico_time.ticks_ms, pico_time.ticks_diff, pico_time.sleep_ms = (
        RealClock.ticks_ms, RealClock.ticks_diff, RealClock.sleep_ms)
    spec = importlib.util.spec_from_file_location("mfrc522", DRIVER)   # the file deploy.sh copies
    driver = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(driver)
    return {"machine": machine, "micropython": micropython, "time": pico_time, "mfrc522": driver, "hub": firmware}


def test_main_serves_on_stdio_keeps_the_wiring_in_flash_and_gives_the_repl_back_on_stop(monkeypatch, tmp_path):
    board = Board()
    kbd_intr_calls, crashes = [], []
    for name, module in pico_modules(board, kbd_intr_calls, crashes).items():
        monkeypatch.setitem(sys.modules, name, module)
    master, slave = os.openpty()
    tty.setraw(slave)
    # unbuffered, as the Pico's: sys.stdin.buffer and sys.stdout.buffer are the pty itself
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.FileIO(master, "r", closefd=False)))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.FileIO(master, "w", closefd=False)))
    monkeypatch.chdir(tmp_path)
    pico = threading.Thread(target=runpy.run_path, args=(str(FIRMWARE_DIR / "main.py"),), daemon=True)
    pico.start()
    try:
        with serial.Serial(os.ttyname(slave), timeout=0.05) as port:
            received = []
            link = protocol.Link(port.write, RealClock)
            link.send(protocol.CONFIG, *WIRING.config_fields())
            link.ask_state()
            deadline = time.monotonic() + 10
            while not any(kind == protocol.HELLO and fields[3] == 1 for kind, fields in received):
                assert time.monotonic() < deadline, f"no HELLO with one reader: {received}; crashes: {crashes}"
                received += link.receive(port.read(port.in_waiting or 1))
        config = (tmp_path / "hub_config.bin").read_bytes()
        assert config == protocol.pack_fields(protocol.CONFIG, WIRING.config_fields())
        assert set(board.pwms) == {6, 7, 8}
        stop_firmware(os.ttyname(slave))
        pico.join(10)
        assert not pico.is_alive() and not crashes
        assert kbd_intr_calls == [-1, 3]   # Ctrl-C is data while serving, and the REPL's again after
    finally:
        os.close(slave)
        if not pico.is_alive():
            os.close(master)
