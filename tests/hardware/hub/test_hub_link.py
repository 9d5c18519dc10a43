"""Host and hub firmware over a real pty pair: hello, cards, buttons, lights, lost frames, silence, unplugging."""
import threading
import time
from types import SimpleNamespace

import pytest
import serial

from hub_fakes import MemoryStore, firmware
from hub_fakes.machine import Board
from hub_fakes.pty_hub import PtyHub
from hub_fakes.pads import Pads
from table.events import ButtonDown, CardPlaced, CardRemoved, EventBus, RawRead
from table.hardware.hub import protocol
from table.hardware.hub.host import PICO_MICROPYTHON, HubWiring, SeatHub, stop_firmware
from table.hardware.looks import LOOKS, rgb255
from table.hardware.poller import ReaderPoller
from table.hardware.ports import LightState, Reader, ReaderFault, SeatLight
from table.hardware.presence import PresenceTracker

SERIAL = "E6614104032B6F2C"
WIRING = HubWiring(
    pads=(("seat1", 17), ("seat2", 20), ("centre", 21)),
    buttons=((1, "next", 2), (2, "ok", 3)),
    lights=((1, (6, 7, 8)), (2, (10, 11, 12))),
)
CHIP_SELECTS = tuple(cs for _, cs in WIRING.pads)
LED1, LED2 = (pins for _, pins in WIRING.lights)
UID, OTHER = "04A1B2C3D4E580", "DEADBEEF"
WAIT_S = 10.0   # generous: conditions are met in milliseconds unless something is wrong


def rgb(state):
    return rgb255(LOOKS[state].colour)


class Rig:
    """A fake Pico on a pty, and the host's SeatHub with presence tracking, on one bus."""

    def __init__(self, wiring=WIRING, timeout_s=1.0):
        self.store = MemoryStore()
        self.board = Board(uid=bytes.fromhex(SERIAL))
        self.pads = Pads(self.board, CHIP_SELECTS)
        self.plugged = []
        self.plug()
        self.bus = EventBus()
        self.presence = PresenceTracker(self.bus, place_after=2, remove_after=3)
        self.events = []
        for kind in (CardPlaced, CardRemoved, ButtonDown):
            self.bus.subscribe(kind, self.events.append)
        self.host = SeatHub(self.bus, wiring, serial_number=SERIAL,
                            list_ports=lambda: [hub.port_info for hub in self.plugged],
                            heartbeat_s=0.05, timeout_s=timeout_s, backoff_s=0.02, max_backoff_s=0.2).start()

    @property
    def pty(self):
        return self.plugged[0]

    def plug(self):
        """Plug the hub in: a Pico starting afresh, on a new port, with the same readers and flash."""
        board = Board(uid=self.board.uid)
        board.devices = self.board.devices
        self.board = board
        self.plugged.append(PtyHub(board, self.pads, self.store, SERIAL))

    def unplug(self):
        self.plugged.pop().unplug()

    def close(self):
        self.host.close()
        while self.plugged:
            self.unplug()

    def poll(self):
        """One round of the table's poller over the hub's pads; the pads that raised ReaderFault."""
        faults = []
        for pad in self.host.pads:
            try:
                self.bus.publish(RawRead(pad.pad, pad.poll()))
            except ReaderFault:
                faults.append(pad.pad)
        self.bus.dispatch()
        return faults

    def until(self, condition, what):
        """Poll until `condition()` holds; fail after WAIT_S."""
        def polled():
            self.poll()
            return condition()
        wait_for(polled, what, lambda: f"events: {self.events}; hub: {self.host.problem}")

    def new_events(self, condition, what):
        """The events that arrive until `condition(events)` holds for them."""
        start = len(self.events)
        self.until(lambda: condition(self.events[start:]), what)
        return self.events[start:]

    def press(self, gpio):
        """Press and release a button, each long enough for the debounce."""
        button = self.pty.hub.buttons[BUTTON_INDEX[gpio]]
        for level in (0, 1):
            self.board.levels[gpio] = level
            wait_for(lambda: button.stable == level, "the debounce")


BUTTON_INDEX = {pin: index for index, (_, _, pin) in enumerate(WIRING.buttons)}


def wait_for(condition, what, details=lambda: ""):
    """Return once `condition()` holds; fail after WAIT_S."""
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}; {details()}")
        time.sleep(0.005)


@pytest.fixture
def rig():
    rig = Rig()
    assert rig.host.wait_ready(WAIT_S), rig.host.problem
    yield rig
    rig.close()


def test_the_host_finds_the_hub_which_says_hello_with_its_capabilities(rig):
    assert rig.host.hub_id == SERIAL
    assert rig.host.firmware == firmware.FIRMWARE
    assert rig.host.capabilities == (3, 2, 2)
    assert (rig.board.spi["sck"], rig.board.spi["mosi"], rig.board.spi["miso"]) == (18, 19, 16)
    assert rig.poll() == []
    assert [pad.pad for pad in rig.host.pads] == ["seat1", "seat2", "centre"]
    assert sorted(rig.host.lights) == [1, 2]
    assert all(isinstance(pad, Reader) for pad in rig.host.pads)
    assert all(isinstance(light, SeatLight) for light in rig.host.lights.values())


def test_the_tables_poller_reads_hub_pads_like_any_reader(rig):
    rig.pads.place(2, UID)
    poller = ReaderPoller(rig.host.pads, rig.bus)

    def placed():
        poller.poll_once()
        rig.bus.dispatch()
        return rig.events == [CardPlaced("centre", UID)]
    wait_for(placed, "the poller to bring the card")


def test_cards_and_buttons_reach_the_bus_as_events(rig):
    rig.pads.place(1, UID)
    assert rig.new_events(lambda e: e, "a card") == [CardPlaced("seat2", UID)]
    rig.pads.remove(1)
    assert rig.new_events(lambda e: e, "the card to go") == [CardRemoved("seat2", UID)]
    rig.press(3)
    assert rig.new_events(lambda e: e, "a press") == [ButtonDown(2, "ok")]


def test_a_deaf_reader_on_the_hub_faults_its_pad_alone_until_it_recovers(rig):
    rig.pads.place(1, UID)
    rig.new_events(lambda e: e, "a card")
    rig.pads.deafen(1)
    rig.until(lambda: rig.poll() == ["seat2"], "seat2 to fault")
    with pytest.raises(ReaderFault, match="seat2"):
        rig.host.pads[1].poll()
    rig.until(lambda: rig.poll() == [], "seat2 to recover after the hub resets it")
    assert rig.host.pads[1].poll() == UID
    assert [e for e in rig.events if isinstance(e, (CardPlaced, CardRemoved))] == [CardPlaced("seat2", UID)]


def test_a_light_shown_on_the_host_reaches_the_hubs_pwm(rig):
    rig.host.lights[2].show(LightState.LOCKED)
    rig.until(lambda: rig.board.colour(LED2) == rgb(LightState.LOCKED), "seat 2 green")
    assert rig.board.colour(LED1) == (0, 0, 0)
    assert rig.host.lights[2].state is LightState.LOCKED


def test_lost_and_corrupted_frames_are_resynchronised_without_phantom_or_lost_cards(rig):
    rig.pty.drop_out = protocol.READER
    rig.pads.place(0, UID)      # its only report is lost: only a resync can bring it
    assert rig.new_events(lambda e: e, "the card, after a resync") == [CardPlaced("seat1", UID)]
    assert rig.pty.drop_out is None

    rig.pty.corrupt_out = protocol.READER
    rig.pads.remove(0)
    assert rig.new_events(lambda e: e, "the card to go, after a resync") == [CardRemoved("seat1", UID)]
    assert rig.pty.corrupt_out is None

    stale = [f for f in rig.pty.sent if protocol.decode(f[:-1])[2] == (0, protocol.OK, bytes.fromhex(UID))][-1]
    rig.pty.raw_out += [b"\x05\x01\xff\x00\x00", stale, bytes(range(1, 40)) + b"\x00"]
    rig.press(2)                # arrives after the garbage and the replayed frame
    assert rig.new_events(lambda e: e, "the press") == [ButtonDown(1, "next")]
    assert rig.host.pads[0].poll() is None

    rig.host.lights[1].show(LightState.YOUR_TURN)
    rig.until(lambda: rig.board.colour(LED1) == rgb(LightState.YOUR_TURN), "seat 1 blue-white")
    rig.pty.drop_in = protocol.LIGHT
    rig.host.lights[1].show(LightState.LOCKED)   # lost: the hub must notice and ask
    rig.until(lambda: rig.board.colour(LED1) == rgb(LightState.LOCKED), "seat 1 green, after a resync")
    assert rig.pty.drop_in is None
    assert not [e for e in rig.events if isinstance(e, CardPlaced) and e.uid != UID]


def test_a_silent_hub_is_noticed_and_picked_up_again(rig):
    rig.pads.place(2, UID)
    rig.new_events(lambda e: e, "a card")
    rig.pty.paused.set()
    rig.until(lambda: rig.poll() == ["seat1", "seat2", "centre"], "the pads to fault")
    assert "silent" in rig.host.problem
    rig.pty.paused.clear()
    rig.until(lambda: rig.host.ready, "the link to come back")
    assert rig.host.connections == 2
    assert rig.host.pads[2].poll() == UID
    assert [e for e in rig.events if isinstance(e, (CardPlaced, CardRemoved))] == [CardPlaced("centre", UID)]


def test_a_hub_that_takes_no_more_bytes_never_holds_up_the_table(rig):
    rig.pty.paused.set()        # the hub reads nothing: the port's buffers fill up
    started = time.monotonic()
    for _ in range(1000):
        for state in (LightState.LOCKED, LightState.WAITING):
            rig.host.lights[1].show(state)
    assert time.monotonic() - started < WAIT_S
    rig.until(lambda: not rig.host.ready, "the hub to be dropped")
    rig.pty.paused.clear()
    rig.until(lambda: rig.host.ready, "the hub to be back")
    rig.until(lambda: rig.pty.hub.lights[0].steady[3] == rgb(LightState.WAITING), "the last look")


def test_an_unplugged_hub_is_found_again_and_resynchronised(rig):
    rig.pads.place(0, UID)
    rig.host.lights[1].show(LightState.WAITING)
    rig.press(2)
    rig.new_events(lambda e: len(e) == 2, "a card and a press")
    rig.unplug()
    rig.until(lambda: rig.poll() == ["seat1", "seat2", "centre"], "the pads to fault")
    rig.pads.remove(0)          # while unplugged: one card goes, another comes
    rig.pads.place(1, OTHER)
    rig.plug()
    events = rig.new_events(lambda e: len(e) == 2, "the cards after the hub is back")
    assert sorted(events, key=repr) == sorted([CardRemoved("seat1", UID), CardPlaced("seat2", OTHER)], key=repr)
    assert rig.pty.hub.lights[0].steady[3] == rgb(LightState.WAITING)   # the hub pulses what the host showed
    rig.press(2)
    assert rig.new_events(lambda e: e, "a press") == [ButtonDown(1, "next")]


def test_the_host_looks_for_a_missing_hub_ever_less_often_down_to_a_bound():
    looked = []

    def no_hubs():
        looked.append(time.monotonic())
        return []

    host = SeatHub(EventBus(), WIRING, list_ports=no_hubs, backoff_s=0.05, max_backoff_s=0.2).start()
    try:
        wait_for(lambda: len(looked) >= 8, "eight looks")    # 6.35 s if the wait kept doubling
        assert looked[7] - looked[0] < 4.0
    finally:
        host.close()
    waits = [b - a for a, b in zip(looked, looked[1:])]
    assert all(wait >= bound - 0.01 for wait, bound in zip(waits, (0.05, 0.1, 0.2, 0.2, 0.2, 0.2, 0.2)))
    assert host.problem == "no hub found"
    with pytest.raises(ReaderFault, match="no hub found"):
        host.pads[0].poll()


def test_several_matching_hubs_and_no_serial_number_is_a_problem_not_a_guess():
    ports = [SimpleNamespace(device=f"/dev/ttyACM{i}", vid=PICO_MICROPYTHON[0], pid=PICO_MICROPYTHON[1],
                             serial_number=f"E66{i}") for i in range(2)]
    host = SeatHub(EventBus(), WIRING, list_ports=lambda: ports).start()
    try:
        wait_for(lambda: host.problem == "2 hubs match; give a serial number", "the problem")
    finally:
        host.close()


def test_a_hub_that_refuses_its_wiring_leaves_its_pads_at_fault():
    rig = Rig(HubWiring(pads=(("seat1", 17), ("seat2", 40))))
    try:
        rig.until(lambda: "refused" in (rig.host.problem or ""), "the refusal")
        assert "40" in rig.host.problem
        assert rig.poll() == ["seat1", "seat2"]
    finally:
        rig.close()


def test_stop_firmware_hands_the_port_to_the_repl():
    rig = Rig()
    rig.host.close()
    try:
        stop_firmware(rig.pty.path)
        rig.until(lambda: rig.pty.hub.stopped, "the firmware to stop")
    finally:
        rig.close()


class StallingPort:
    """serial.Serial.write patched: while `stall` is set, the seat hub's thread blocks in write until `release`."""

    def __init__(self, monkeypatch, host):
        self.stall, self.stalled, self.release = threading.Event(), threading.Event(), threading.Event()
        self.fail = threading.Event()    # while set, every write times out, as to a hub that takes nothing
        self.writers = set()             # the threads that wrote
        write = serial.Serial.write

        def patched(port, data):
            self.writers.add(threading.current_thread())
            if self.fail.is_set():
                raise serial.SerialTimeoutException("Write timeout")
            if self.stall.is_set() and threading.current_thread() is host._thread:
                self.stalled.set()
                self.release.wait(WAIT_S)
            return write(port, data)

        monkeypatch.setattr(serial.Serial, "write", patched)


def test_only_the_hubs_thread_writes_to_its_port_and_the_table_never_waits_for_a_write(monkeypatch):
    rig = Rig()
    port = StallingPort(monkeypatch, rig.host)
    try:
        assert rig.host.wait_ready(WAIT_S), rig.host.problem
        rig.pads.place(0, UID)
        rig.new_events(lambda e: e, "a card")
        port.stall.set()
        wait_for(port.stalled.is_set, "the hub's thread to be in a write")   # its heartbeat, at the latest
        table = threading.Thread(target=lambda: (rig.host.lights[1].show(LightState.LOCKED),
                                                 rig.host.pads[0].poll(), rig.host.lights[2].show(LightState.WAITING)))
        table.start()
        table.join(WAIT_S)
        assert not table.is_alive(), "the table waited for the hub's write"
        port.stall.clear()
        port.release.set()
        rig.until(lambda: rig.board.colour(LED1) == rgb(LightState.LOCKED), "seat 1 green")
        rig.until(lambda: rig.pty.hub.lights[1].steady[3] == rgb(LightState.WAITING), "seat 2 amber")
        assert port.writers == {rig.host._thread}
    finally:
        port.release.set()
        rig.close()


def test_a_flash_on_a_hub_light_passes_and_the_light_shows_its_last_look_again(rig):
    hub = rig.pty.hub
    received = []      # (pattern, colour) of each LIGHT for seat 1's light the hub takes
    hub.handle = lambda kind, fields, now, handle=hub.handle: (
        received.append((fields[1], tuple(fields[4:7]))) if kind == protocol.LIGHT and fields[0] == 0 else None,
        handle(kind, fields, now))
    rig.host.lights[1].show(LightState.LOCKED)
    rig.host.lights[1].show(LightState.REFUSED)      # a flash, shown before the look it returns to was sent
    rig.until(lambda: any(pattern == protocol.FLASH for pattern, _ in received), "the flash on the hub")
    assert received[-2:] == [(protocol.STEADY, rgb(LightState.LOCKED)), (protocol.FLASH, rgb(LightState.REFUSED))]
    rig.until(lambda: rig.board.colour(LED1) == rgb(LightState.LOCKED), "seat 1 green after the flash")
    before = len(received)
    rig.pty.drop_in = protocol.HEARTBEAT              # a gap: the hub asks for the host's state
    rig.until(lambda: len(received) > before, "the host's state again")
    assert received[before:] == [(protocol.STEADY, rgb(LightState.LOCKED))] * (len(received) - before)
    assert hub.lights[0].steady[3] == rgb(LightState.LOCKED)


def test_a_write_that_times_out_drops_the_hub_at_once_and_it_is_picked_up_again(monkeypatch):
    rig = Rig()
    port = StallingPort(monkeypatch, rig.host)
    try:
        assert rig.host.wait_ready(WAIT_S), rig.host.problem
        port.fail.set()
        rig.host.lights[1].show(LightState.WAITING)
        rig.until(lambda: not rig.host.ready, "the hub to be dropped")
        assert "write failed" in rig.host.problem     # not the heartbeat timeout
        port.fail.clear()
        rig.until(lambda: rig.host.ready, "the hub to be back")
        rig.until(lambda: rig.pty.hub.lights[0].steady[3] == rgb(LightState.WAITING), "the last look")
    finally:
        rig.close()
