"""The seat hub firmware's logic under CPython: a fake Pico, emulated readers, and a test playing the host."""
import pytest

from hub_fakes import FakeClock, MemoryStore, firmware
from hub_fakes.machine import Board
from hub_fakes.pads import Pads, ResetLine
from table.hardware.hub import protocol
from table.hardware.hub.host import HubWiring
from table.hardware.rfid import mfrc522

WIRING = HubWiring(
    pads=(("seat1", 17), ("seat2", 20), ("centre", 21)),
    buttons=((1, "next", 2), (1, "ok", 3)),
    lights=((1, (6, 7, 8)), (2, (10, 11, 12))),
    resets=(22,),
)
CHIP_SELECTS = tuple(cs for _, cs in WIRING.pads)
LED1 = WIRING.lights[0][1]
UID = "04A1B2C3D4E580"


class Loop:
    """The serial stream between the firmware and the test's end of the link."""

    def __init__(self):
        self.to_hub = bytearray()
        self.to_host = bytearray()

    def read(self):
        data = bytes(self.to_hub)
        self.to_hub.clear()
        return data

    def write(self, data):
        self.to_host.extend(data)


class Rig:
    """A hub on a fake board, and the test as its host."""

    def __init__(self, store=None, driver=Pads.driver):
        self.clock = FakeClock()
        self.board = Board()
        self.pads = Pads(self.board, CHIP_SELECTS)
        self.loop = Loop()
        self.store = store or MemoryStore()
        self.hub = firmware.Hub(self.board, self.clock, self.loop, driver, self.store)
        self.host = protocol.Link(self.loop.to_hub.extend, self.clock)

    def run(self, ms, step_ms=1):
        """Step the hub for `ms` ms of its clock, keeping the host's side alive; the messages it sent."""
        messages = []
        end = self.clock.now + ms
        while self.clock.now < end:    # a step may move the clock on by itself (the hub's waits)
            self.clock.now += step_ms
            self.host.tick()
            self.hub.step()
            messages += self.heard()
        return messages

    def heard(self):
        data = bytes(self.loop.to_host)
        self.loop.to_host.clear()
        return self.host.receive(data)

    def configure(self, wiring=WIRING):
        self.heard()
        self.host.send(protocol.CONFIG, *wiring.config_fields())
        self.host.ask_state()
        return self.run(10)


def of_kind(messages, kind):
    return [fields for k, fields in messages if k == kind]


def hello(messages):
    (fields,) = of_kind(messages, protocol.HELLO)[-1:]
    return dict(zip(("version", "boot", "config_crc", "readers", "buttons", "lights", "hub_id", "firmware"), fields))


def test_a_new_hub_says_hello_with_nothing_wired_and_takes_the_hosts_wiring():
    rig = Rig()
    first = hello(rig.heard())
    assert (first["readers"], first["buttons"], first["lights"]) == (0, 0, 0)
    assert first["hub_id"] == rig.board.uid.hex().upper().encode()
    assert first["version"] == protocol.VERSION

    configured = hello(rig.configure())
    assert (configured["readers"], configured["buttons"], configured["lights"]) == (3, 2, 2)
    assert configured["config_crc"] == protocol.crc16(rig.store.data)
    assert configured["boot"] == first["boot"]
    assert rig.board.spi == {"bus": 0, "baudrate": 1_000_000, "mode": (0, 0), "sck": 18, "mosi": 19, "miso": 16}
    assert all(rig.board.levels[cs] == 1 for cs in CHIP_SELECTS)   # deselected between transfers
    assert set(rig.board.pwms) == {6, 7, 8, 10, 11, 12}


def test_a_reader_deaf_until_a_hard_reset_is_brought_back_through_its_own_reset_pin():
    rig = Rig()
    rig.configure(HubWiring(pads=WIRING.pads, resets=(22, 26, 27)))
    assert [rig.board.levels[pin] for pin in (22, 26, 27)] == [1, 1, 1]   # out of reset
    for chip, pin in zip(rig.pads.chips, (22, 26, 27)):
        chip.wire_reset_pin(ResetLine(rig.board, pin))
    rig.pads.place(1, UID)
    rig.run(20)
    rig.pads.deafen(1, cured_by="hard")
    assert of_kind(rig.run(20), protocol.READER) == [(1, protocol.FAULT, b"")]
    assert of_kind(rig.run(firmware.RETRY_MS + 200), protocol.READER) == [(1, protocol.OK, bytes.fromhex(UID))]
    assert rig.board.written[26][-2:] == [0, 1] and rig.board.written[22] == rig.board.written[27] == [1]


def test_a_reset_pin_shared_by_all_readers_brings_back_a_deaf_one():
    rig = Rig()
    rig.configure(HubWiring(pads=WIRING.pads, resets=(22,)))
    for chip in rig.pads.chips:
        chip.wire_reset_pin(ResetLine(rig.board, 22))
    rig.pads.place(2, UID)
    rig.run(20)
    rig.pads.deafen(2, cured_by="hard")
    assert of_kind(rig.run(20), protocol.READER) == [(2, protocol.FAULT, b"")]
    assert of_kind(rig.run(firmware.RETRY_MS + 200), protocol.READER) == [(2, protocol.OK, bytes.fromhex(UID))]
    assert rig.board.written[22][-2:] == [0, 1]


def test_reset_pins_are_none_one_or_one_per_reader():
    rig = Rig()
    (error,) = of_kind(rig.configure(HubWiring(pads=WIRING.pads, resets=(22, 26))), protocol.ERROR)
    assert b"reset" in error[0]


def test_lights_on_pins_that_share_a_pwm_channel_are_refused():
    rig = Rig()
    clash = HubWiring(pads=WIRING.pads, lights=((1, (6, 7, 8)), (2, (22, 9, 10))))   # GP6 and GP22: slice 3 A
    (error,) = of_kind(rig.configure(clash), protocol.ERROR)
    assert b"PWM" in error[0]


def test_the_reference_builds_hub_wiring_is_taken():
    reference = HubWiring(     # hub1 of hardware/layouts/hubs-8-seat.toml, as docs/hubs.md shows it
        pads=tuple((f"pad{cs}", cs) for cs in range(6, 15)),
        buttons=((1, "next", 0), (1, "ok", 1), (2, "next", 15), (2, "ok", 22)),
        lights=((1, (16, 17, 18)), (2, (19, 20, 21))),
        sck=2, mosi=3, miso=4, resets=(5,),
    )
    answer = Rig().configure(reference)
    assert not of_kind(answer, protocol.ERROR)
    assert (hello(answer)["readers"], hello(answer)["buttons"], hello(answer)["lights"]) == (9, 4, 2)


def test_a_hub_keeps_its_wiring_across_a_restart_and_shows_no_host_until_it_hears_one():
    rig = Rig()
    rig.configure()
    again = Rig(store=rig.store)
    restarted = hello(again.heard())
    assert (restarted["readers"], restarted["buttons"], restarted["lights"]) == (3, 2, 2)
    again.clock.now += protocol.TIMEOUT_MS
    stepped = again.clock.now           # the step renders its lights as of when it began
    again.hub.step()
    assert again.board.colour(LED1) == firmware.colour_at(firmware.NO_HOST, stepped)
    assert again.board.colour(LED1) != (0, 0, 0)


def test_a_card_laid_is_read_again_at_the_next_step_and_reported_then():
    rig = Rig()
    rig.configure()
    readers = len(rig.hub.readers)
    while rig.hub.next_reader != 0:        # the next step polls reader 1
        rig.run(1)
    rig.run(1)
    rig.pads.place(1, UID)
    assert not of_kind(rig.run(1), protocol.READER) and rig.hub.next_reader == 1   # read once: again at once
    assert of_kind(rig.run(1), protocol.READER) == [(1, protocol.OK, bytes.fromhex(UID))]
    assert rig.hub.next_reader == 2 % readers


def test_a_card_is_reported_once_when_it_comes_and_once_when_it_goes():
    rig = Rig()
    rig.configure()
    rig.pads.place(1, UID)
    came = of_kind(rig.run(200), protocol.READER)
    assert came == [(1, protocol.OK, bytes.fromhex(UID))]
    rig.pads.remove(1)
    assert of_kind(rig.run(200), protocol.READER) == [(1, protocol.OK, b"")]


class CountingDriver(Pads.driver):
    """The driver, counting the resets the hub asks of it."""

    def __init__(self, transfer, hard_reset=None, settle=None):
        super().__init__(transfer, hard_reset, settle)
        self.resets = 0

    def reset(self, hard=True):
        self.resets += 1
        self.hard_resets = getattr(self, "hard_resets", 0) + hard
        return super().reset(hard)


def test_a_deaf_reader_is_reported_reset_at_a_bounded_rate_and_reported_again_when_it_recovers():
    rig = Rig(driver=CountingDriver)
    rig.configure()
    rig.pads.place(0, UID)
    rig.run(20)
    rig.pads.deafen(0, cured_by="hard")      # its reset pin is not wired: the hub cannot cure it
    assert of_kind(rig.run(20), protocol.READER) == [(0, protocol.FAULT, b"")]
    rig.run(5 * firmware.RETRY_MS)
    assert 4 <= rig.hub.readers[0].chip.resets <= 6
    rig.pads.chips[0].hard_reset()             # someone power-cycles it
    assert of_kind(rig.run(2 * firmware.RETRY_MS), protocol.READER) == [(0, protocol.OK, bytes.fromhex(UID))]


def test_a_reader_that_answers_again_is_back_within_300_ms_and_hard_reset_at_most_once_a_second():
    """Retries are capped in time: a soft reset and a poll every RETRY_MS (the hub's loop is not held up), a
    hard reset (the chips on its line restart, 50 ms) at most every HARD_RESET_MS."""
    rig = Rig(driver=CountingDriver)
    rig.configure()
    rig.pads.place(0, UID)
    rig.run(20)
    rig.pads.deafen(0, cured_by="hard")      # its reset pin is not wired: deaf for as long as we like
    rig.run(5000)
    chip = rig.hub.readers[0].chip
    assert 5000 // firmware.RETRY_MS - 1 <= chip.resets <= 5000 // firmware.RETRY_MS + 1
    assert chip.hard_resets <= 5000 // firmware.HARD_RESET_MS + 1
    rig.pads.chips[0].hard_reset()             # it answers again (replugged)
    reported = of_kind(rig.run(300), protocol.READER)
    assert reported == [(0, protocol.OK, bytes.fromhex(UID))]


def test_a_reader_deaf_from_the_start_is_reported_faulty():
    rig = Rig()
    rig.pads.deafen(2, cured_by="hard")
    state = rig.configure()
    assert (2, protocol.FAULT, b"") in of_kind(state, protocol.READER)


def test_buttons_are_debounced_and_counted():
    rig = Rig()
    rig.configure()
    levels = rig.board.levels
    for bounce in (0, 1, 0, 1, 0):          # contact bounce, then held down
        levels[2] = bounce
        assert not of_kind(rig.run(2), protocol.BUTTON)
    assert of_kind(rig.run(2 * firmware.DEBOUNCE_MS), protocol.BUTTON) == [(0, 1)]
    levels[2] = 1
    rig.run(2 * firmware.DEBOUNCE_MS)
    levels[3] = 0                            # a glitch shorter than the debounce time
    rig.run(firmware.DEBOUNCE_MS // 2)
    levels[3] = 1
    assert not of_kind(rig.run(2 * firmware.DEBOUNCE_MS), protocol.BUTTON)
    levels[2] = 0
    assert of_kind(rig.run(2 * firmware.DEBOUNCE_MS), protocol.BUTTON) == [(0, 2)]


def light(rig, index, pattern, half, flashes, colour, other=(0, 0, 0)):
    rig.host.send(protocol.LIGHT, index, pattern, half, flashes, *colour, *other)
    rig.run(1)


def test_lights_animate_their_looks_locally():
    rig = Rig()
    rig.configure()
    light(rig, 0, protocol.STEADY, 0, 0, (0, 255, 0))
    assert rig.board.colour(LED1) == (0, 255, 0)

    light(rig, 0, protocol.BLINK, 300, 0, (255, 0, 0), (0, 0, 255))
    assert rig.board.colour(LED1) == (255, 0, 0)
    seen = []
    for _ in range(4):
        rig.run(300)
        seen.append(rig.board.colour(LED1))
    assert seen == [(0, 0, 255), (255, 0, 0)] * 2

    light(rig, 0, protocol.PULSE, 1000, 0, (200, 100, 0))
    rig.run(250)
    assert rig.board.colour(LED1) == (50, 25, 0)    # a quarter of the way up

    light(rig, 0, protocol.STEADY, 0, 0, (0, 255, 0))
    light(rig, 0, protocol.FLASH, 100, 3, (255, 0, 0))
    assert rig.board.colour(LED1) == (255, 0, 0)
    rig.run(2 * 100 * 3)
    assert rig.board.colour(LED1) == (0, 255, 0)    # back to the steady look


def test_lights_show_no_host_while_the_host_is_silent_and_their_look_when_it_is_back():
    rig = Rig()
    rig.configure()
    light(rig, 0, protocol.STEADY, 0, 0, (0, 255, 0))
    for _ in range(protocol.TIMEOUT_MS):
        rig.clock.now += 1
        rig.hub.step()
    assert rig.board.colour(LED1) == firmware.colour_at(firmware.NO_HOST, rig.clock.now)
    rig.run(2)
    assert rig.board.colour(LED1) == (0, 255, 0)


def test_a_gap_in_the_hosts_frames_makes_the_hub_ask_for_the_hosts_state():
    rig = Rig()
    rig.configure()
    rig.host.send(protocol.LIGHT, 0, protocol.STEADY, 0, 0, 0, 255, 0, 0, 0, 0)
    rig.loop.to_hub.clear()                # lost on the way
    assert not of_kind(rig.run(5), protocol.SYNC)
    rig.host.send(protocol.HEARTBEAT)
    assert of_kind(rig.run(5), protocol.SYNC) == [()]


def test_wiring_the_pico_does_not_have_is_refused_with_a_reason():
    rig = Rig()
    rig.configure()
    bad = HubWiring(pads=(("seat1", 40),))
    answer = rig.configure(bad)
    (error,) = of_kind(answer, protocol.ERROR)
    assert b"40" in error[0]
    assert hello(answer)["readers"] == 0
    assert rig.board.pwms == {}


def test_stop_leaves_the_firmware():
    rig = Rig()
    rig.configure()
    rig.host.send(protocol.STOP)
    rig.run(1)
    assert rig.hub.stopped
    assert rig.board.pwms == {}


class Timeline:
    """What the hub did on its board and when, by its clock: SPI transfers (chip select, bytes) and reset pin levels."""

    def __init__(self, rig, reset_pins=()):
        self.events = events = []
        clock = rig.clock
        for cs, device in list(rig.board.devices.items()):
            rig.board.devices[cs] = _Recording(device, cs, clock, events)
        board_pin = rig.board.Pin

        class Pin(board_pin):
            def value(pin, level=None):
                if level is not None and pin.id in reset_pins:
                    events.append((clock.now, "reset", pin.id, 1 if level else 0))
                return board_pin.value(pin, level)

        rig.board.Pin = Pin

    def pulse_ends(self):
        """The indexes of the events where a reset pin went back high after being low."""
        ends, levels = [], {}
        for i, (_, what, pin, level) in enumerate(self.events):
            if what == "reset":
                if level == 1 and levels.get(pin) == 0:
                    ends.append(i)
                levels[pin] = level
        return ends

    def next_transfer(self, after, cs=None):
        return next(e for e in self.events[after + 1:] if e[1] == "spi" and cs in (None, e[2]))


class _Recording:
    def __init__(self, device, cs, clock, events):
        self.device, self.cs, self.clock, self.events = device, cs, clock, events

    def transfer(self, data):
        self.events.append((self.clock.now, "spi", self.cs, bytes(data)))
        return self.device.transfer(data)


@pytest.mark.parametrize("resets", [(22,), (22, 26, 27)], ids=["shared", "one-per-reader"])
def test_after_a_hard_reset_the_hub_waits_for_the_chips_to_start_before_speaking_to_any(resets):
    rig = Rig()
    timeline = Timeline(rig, set(resets))
    rig.configure(HubWiring(pads=WIRING.pads, resets=resets))
    for i, chip in enumerate(rig.pads.chips):
        chip.wire_reset_pin(ResetLine(rig.board, resets[i % len(resets)]))
    rig.pads.place(2, UID)
    rig.run(20)
    rig.pads.deafen(2, cured_by="hard")
    assert of_kind(rig.run(20), protocol.READER) == [(2, protocol.FAULT, b"")]
    assert of_kind(rig.run(firmware.RETRY_MS + 200), protocol.READER) == [(2, protocol.OK, bytes.fromhex(UID))]
    ends = timeline.pulse_ends()
    assert ends, "no hard reset"
    for end in ends:
        high_at = timeline.events[end][0]
        assert timeline.next_transfer(end)[0] - high_at >= firmware.STARTUP_MS


def test_the_card_has_time_to_power_up_when_the_field_comes_on_and_the_field_stays_on():
    rig = Rig()
    timeline = Timeline(rig)
    rig.configure()
    rig.pads.place(0, UID)
    rig.run(50)
    antenna_on = bytes((mfrc522.TX_CONTROL << 1, mfrc522.ANTENNA_ON))
    wupa = bytes((mfrc522.FIFO_DATA << 1, mfrc522.WUPA))
    polls = [i for i, event in enumerate(timeline.events) if event[1] == "spi" and event[3] == antenna_on]
    firsts = {timeline.events[i][2]: i for i in reversed(polls)}   # chip select -> its field coming on
    assert len(polls) >= 3 * len(firsts) >= 3
    for cs, i in firsts.items():
        on_at = timeline.events[i][0]
        spoken = next(e for e in timeline.events[i + 1:] if e[1] == "spi" and e[2] == cs and e[3] == wupa)
        assert timeline.next_transfer(i, cs)[0] - on_at >= firmware.FIELD_SETTLE_MS
        assert spoken[0] - on_at >= firmware.FIELD_SETTLE_MS
    assert all(chip.field for chip in rig.pads.chips)


OTHER = "DEADBEEF"


def poll_of(rig, index):
    """Step the hub until it has polled reader `index` once more; the messages it sent meanwhile."""
    messages = []
    while True:
        polled = rig.hub.next_reader
        messages += rig.run(1)
        if polled == index:
            return messages


def test_a_reading_that_lasts_one_poll_never_leaves_the_hub_and_one_read_twice_in_a_row_does():
    rig = Rig()
    rig.configure()
    rig.run(50)
    rig.pads.place(1, UID)              # a card in the field for exactly one poll
    glitch = poll_of(rig, 1)
    rig.pads.remove(1)
    assert not of_kind(glitch + rig.run(200), protocol.READER)

    rig.pads.place(1, UID)              # a card that stays
    first = poll_of(rig, 1)
    assert not of_kind(first, protocol.READER)
    assert of_kind(poll_of(rig, 1), protocol.READER) == [(1, protocol.OK, bytes.fromhex(UID))]
    assert not of_kind(rig.run(200), protocol.READER)

    rig.pads.place(1, OTHER)            # another card read for one poll (a neighbour's, read across)
    glitch = poll_of(rig, 1)
    rig.pads.place(1, UID)
    assert not of_kind(glitch + rig.run(200), protocol.READER)

    rig.pads.remove(1)                  # the card missed for one poll (the edge of the field)
    glitch = poll_of(rig, 1)
    rig.pads.place(1, UID)
    assert not of_kind(glitch + rig.run(200), protocol.READER)

    rig.pads.remove(1)                  # the card gone for good
    assert not of_kind(poll_of(rig, 1), protocol.READER)
    assert of_kind(poll_of(rig, 1), protocol.READER) == [(1, protocol.OK, b"")]

    rig.pads.place(1, UID)              # a card replaced by another that stays
    rig.run(200)
    rig.pads.place(1, OTHER)
    assert not of_kind(poll_of(rig, 1), protocol.READER)
    assert of_kind(poll_of(rig, 1), protocol.READER) == [(1, protocol.OK, bytes.fromhex(OTHER))]


def test_alternating_readings_are_never_reported():
    rig = Rig()
    rig.configure()
    rig.run(50)
    messages = []
    for _ in range(20):
        rig.pads.place(2, UID)
        messages += poll_of(rig, 2)
        rig.pads.place(2, OTHER)
        messages += poll_of(rig, 2)
    assert not of_kind(messages, protocol.READER)


def test_a_fault_is_reported_at_the_first_poll_that_finds_it():
    rig = Rig()
    rig.configure()
    rig.pads.place(0, UID)
    rig.run(50)
    rig.pads.deafen(0)
    assert of_kind(poll_of(rig, 0), protocol.READER) == [(0, protocol.FAULT, b"")]
