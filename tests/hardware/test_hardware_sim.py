"""Behaviour of the simulated hardware: virtual readers, the poller, presence tracking, lights and buttons."""
from __future__ import annotations

import random
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hypothesis import given, strategies as st

from table.events import ButtonDown, CardPlaced, CardRemoved, EventBus, PadSeenEmpty, RawRead
from table.hardware import lights as lights_module
from table.hardware.lights import GpioSeatLight, build_lights_and_buttons, press
from table.hardware.looks import LOOKS, MONO_LOOKS, Pattern
from table.hardware.pins import simulated_factories
from table.hardware.poller import ReaderPoller
from table.hardware.ports import LightState, Reader, SeatLight
from table.hardware.presence import PresenceTracker
from table.hardware.simulated import Noise, VirtualReader
from table.layout import load_layout


class Table:
    """A bus with a poller over `readers` and a presence tracker, recording raw reads and presence events."""

    def __init__(self, *readers: VirtualReader, place_after: int = 2, remove_after: int = 3) -> None:
        self.bus = EventBus()
        self.poller = ReaderPoller(readers, self.bus)
        PresenceTracker(self.bus, place_after, remove_after)
        self.reads: list[RawRead] = []
        self.events: list[CardPlaced | CardRemoved] = []
        self.bus.subscribe(RawRead, self.reads.append)
        self.bus.subscribe(CardPlaced, self.events.append)
        self.bus.subscribe(CardRemoved, self.events.append)

    def poll(self, times: int = 1) -> list[CardPlaced | CardRemoved]:
        """Poll `times` rounds; the presence events they caused."""
        start = len(self.events)
        for _ in range(times):
            self.poller.poll_once()
            self.bus.dispatch()
        return self.events[start:]

    def feed(self, pad: str, *uids: str | None) -> list[CardPlaced | CardRemoved]:
        """Publish raw reads directly; the presence events they caused."""
        start = len(self.events)
        for uid in uids:
            self.bus.publish(RawRead(pad, uid))
            self.bus.dispatch()
        return self.events[start:]


def spec_events(uids: list[str | None], pad: str, place_after: int, remove_after: int):
    """The presence events of one pad by definition, over windows of its reads.

    Placed when the last `place_after` reads are the same UID and no card is
    held; removed when the last `remove_after` reads, all since the placement,
    do not see the held card.
    """
    held, placed_at, events = None, 0, []
    for t in range(len(uids)):
        misses = uids[max(placed_at, t - remove_after + 1):t + 1]
        if held is not None and len(misses) == remove_after and held not in misses:
            events.append(CardRemoved(pad, held))
            held = None
        run = uids[max(0, t - place_after + 1):t + 1]
        if held is None and len(run) == place_after and run[0] is not None and run.count(run[0]) == place_after:
            held, placed_at = run[0], t + 1
            events.append(CardPlaced(pad, held))
    return events


# --- ports

def test_adapters_implement_the_ports():
    assert isinstance(VirtualReader("seat1"), Reader)
    light = GpioSeatLight(2, 3, 4, pin_factory=MockFactory(pin_class=MockPWMPin))
    assert isinstance(light, SeatLight)
    light.close()


def test_every_light_state_has_a_look():
    assert set(LOOKS) == set(LightState) == set(MONO_LOOKS)


# --- virtual reader and poller

def test_virtual_reader_sees_what_is_placed():
    reader = VirtualReader("seat1")
    assert reader.poll() is None
    reader.place("04A1B2C3")
    assert [reader.poll() for _ in range(3)] == ["04A1B2C3"] * 3
    reader.lift()
    assert reader.poll() is None


def test_noisy_reader_is_deterministic_given_its_rng():
    def reads(seed):
        reader = VirtualReader("seat1", Noise(miss=0.3, flap=0.1, repeat=0.2), random.Random(seed))
        reader.place("AA")
        return [reader.poll() for _ in range(200)]

    assert reads(7) == reads(7)
    assert reads(7) != reads(8)


def test_poll_once_publishes_one_raw_read_per_reader_in_order_and_confirms_a_card_first_seen_at_once():
    first, second = VirtualReader("seat1"), VirtualReader("centre")
    second.place("BB")
    table = Table(first, second)
    table.poll()
    assert [(r.pad, r.uid) for r in table.reads] == [("seat1", None), ("centre", "BB"), ("centre", "BB")]
    table.poll()
    assert [(r.pad, r.uid) for r in table.reads[3:]] == [("seat1", None), ("centre", "BB")]


def test_run_polls_until_stopped():
    bus, stop = EventBus(), threading.Event()
    reads: list[RawRead] = []
    bus.subscribe(RawRead, reads.append)
    thread = threading.Thread(target=ReaderPoller([VirtualReader("seat1")], bus).run, args=(stop, 0.001))
    thread.start()
    while not reads:
        bus.dispatch(timeout=1)
    stop.set()
    thread.join(timeout=1)
    assert not thread.is_alive()
    assert {(r.pad, r.uid) for r in reads} == {("seat1", None)}


# --- presence

def test_placed_exactly_after_k_reads_and_removed_exactly_after_m_misses():
    table = Table(place_after=2, remove_after=3)
    assert table.feed("seat1", "AA") == []
    assert table.feed("seat1", "AA") == [CardPlaced("seat1", "AA")]
    assert table.feed("seat1", "AA", "AA", None, None) == []
    assert table.feed("seat1", None) == [CardRemoved("seat1", "AA")]
    assert table.feed("seat1", None, None) == []


def test_a_pad_first_seen_empty_says_so_once_after_m_reads():
    bus = EventBus()
    PresenceTracker(bus, place_after=2, remove_after=3)
    seen = []
    bus.subscribe(PadSeenEmpty, seen.append)
    for uid in (None, None, "AA", None, None, None, None, None):   # a flicker restarts the count
        bus.publish(RawRead("seat1", uid))
        bus.dispatch()
    assert seen == [PadSeenEmpty("seat1")]
    for uid in ("AA", "AA", None, None, None, None):               # later emptiness is CardRemoved's job
        bus.publish(RawRead("seat1", uid))
        bus.dispatch()
    assert seen == [PadSeenEmpty("seat1")]


def test_a_pad_with_a_card_from_the_start_is_never_seen_empty():
    bus = EventBus()
    PresenceTracker(bus, place_after=2, remove_after=3)
    seen = []
    bus.subscribe(PadSeenEmpty, seen.append)
    for uid in ("AA",) * 2 + (None,) * 5:
        bus.publish(RawRead("seat1", uid))
        bus.dispatch()
    assert seen == []


def test_a_miss_restarts_the_count_to_place():
    table = Table(place_after=3)
    assert table.feed("seat1", "AA", "AA", None, "AA", "AA") == []
    assert table.feed("seat1", "AA") == [CardPlaced("seat1", "AA")]


def test_a_read_of_the_card_restarts_the_count_to_remove():
    table = Table(place_after=1, remove_after=3)
    table.feed("seat1", "AA")
    assert table.feed("seat1", None, None, "AA", None, None) == []
    assert table.feed("seat1", None) == [CardRemoved("seat1", "AA")]


def test_pads_are_tracked_separately():
    table = Table(place_after=2)
    assert table.feed("seat1", "AA") == []
    assert table.feed("seat2", "AA") == []
    assert table.feed("seat1", "AA") == [CardPlaced("seat1", "AA")]


def test_swapped_card_is_removed_then_the_new_one_placed():
    table = Table(place_after=2, remove_after=3)
    table.feed("seat1", "AA", "AA")
    assert table.feed("seat1", "BB", "BB") == []
    assert table.feed("seat1", "BB") == [CardRemoved("seat1", "AA"), CardPlaced("seat1", "BB")]


def test_swap_places_the_new_card_only_after_k_reads_of_it():
    table = Table(place_after=4, remove_after=2)
    table.feed("seat1", *["AA"] * 4)
    assert table.feed("seat1", "BB", "BB") == [CardRemoved("seat1", "AA")]
    assert table.feed("seat1", "BB") == []
    assert table.feed("seat1", "BB") == [CardPlaced("seat1", "BB")]


def test_duplicated_raw_reads_do_not_place_twice():
    table = Table(place_after=2)
    assert table.feed("seat1", *["AA"] * 10) == [CardPlaced("seat1", "AA")]


@given(
    uids=st.lists(st.sampled_from([None, "AA", "BB"]), max_size=60),
    place_after=st.integers(1, 4),
    remove_after=st.integers(1, 4),
)
def test_tracker_follows_the_definition_of_placed_and_removed(uids, place_after, remove_after):
    table = Table(place_after=place_after, remove_after=remove_after)
    assert table.feed("seat1", *uids) == spec_events(uids, "seat1", place_after, remove_after)


@pytest.mark.parametrize("seed", range(20))
def test_noise_never_reports_a_card_that_was_not_there(seed):
    reader = VirtualReader("seat1", Noise(miss=0.5, flap=0.5, repeat=0.5), random.Random(seed))
    table = Table(reader, place_after=1, remove_after=1)
    assert table.poll(300) == []
    assert {r.uid for r in table.reads} == {None}


@pytest.mark.parametrize("seed", range(20))
def test_repeated_reads_place_and_remove_a_card_once(seed):
    reader = VirtualReader("seat1", Noise(repeat=0.5), random.Random(seed))
    table = Table(reader)
    reader.place("AA")
    table.poll(100)
    reader.lift()
    table.poll(100)
    assert table.events == [CardPlaced("seat1", "AA"), CardRemoved("seat1", "AA")]


def hold_then_lift(seed: int, noise: Noise, remove_after: int, polls: int = 300) -> Table:
    reader = VirtualReader("seat1", noise, random.Random(seed))
    table = Table(reader, place_after=2, remove_after=remove_after)
    reader.place("AA")
    table.poll(polls)
    reader.lift()
    table.poll(50)
    return table


def test_misses_need_a_long_enough_remove_after():
    """With miss=0.3 a held card misses 3 polls in a row about 6 times in 300 polls,
    so remove_after=3 removes and places it again; remove_after=12 needs 12 misses
    in a row (p = 0.3**12, about 5e-7 per poll) and gives one placement, one removal."""
    storms = [hold_then_lift(seed, Noise(miss=0.3), remove_after=3).events for seed in range(200)]
    assert sum(len(events) > 2 for events in storms) > 150
    for seed in range(200):
        events = hold_then_lift(seed, Noise(miss=0.3), remove_after=12).events
        assert events == [CardPlaced("seat1", "AA"), CardRemoved("seat1", "AA")], seed


@pytest.mark.parametrize("seed", range(50))
def test_noisy_card_at_the_edge_only_flaps_as_far_as_k_and_m_allow(seed):
    """Every event is justified by K equal reads or M misses, events alternate
    placed/removed with the card really there, and the lifted card ends removed."""
    reader = VirtualReader("seat1", Noise(miss=0.2, flap=0.1, repeat=0.1), random.Random(seed))
    table = Table(reader, place_after=2, remove_after=4)
    reader.place("AA")
    table.poll(150)
    reader.place("BB")
    table.poll(150)
    reader.lift()
    table.poll(100)
    uids = [r.uid for r in table.reads]
    assert table.events == spec_events(uids, "seat1", 2, 4)
    assert [type(e) for e in table.events] == [CardPlaced, CardRemoved] * (len(table.events) // 2)
    assert all(placed.uid == removed.uid for placed, removed in zip(table.events[::2], table.events[1::2]))
    assert {e.uid for e in table.events} <= {"AA", "BB"}


# --- lights

@pytest.fixture
def factory():
    return MockFactory(pin_class=MockPWMPin)


@pytest.fixture
def light(factory):
    light = GpioSeatLight(2, 3, 4, pin_factory=factory)
    yield light
    light.close()


def rgb(factory) -> tuple[float, float, float]:
    return tuple(float(factory.pin(n).state) for n in (2, 3, 4))


def wait_until(condition, timeout: float = 2.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.mark.parametrize("state, colour", [
    (LightState.OFF, (0, 0, 0)),
    (LightState.YOUR_TURN, (0.6, 0.7, 1.0)),
    (LightState.LOCKED, (0, 1, 0)),
    (LightState.FAULT, (1, 0, 0)),
])
def test_steady_states_set_the_rgb_pins(light, factory, state, colour):
    light.show(LightState.WINNER)
    light.show(state)
    assert rgb(factory) == pytest.approx(colour)
    assert light.state is state


@pytest.mark.parametrize("state", [LightState.WAITING, LightState.WINNER])
def test_pulsing_and_blinking_states_keep_changing_the_pins(light, factory, state):
    for n in (2, 3, 4):
        factory.pin(n).clear_states()
    light.show(state)
    assert wait_until(lambda: max(len(factory.pin(n).states) for n in (2, 3, 4)) >= 3)


@pytest.mark.parametrize("previous", [LightState.LOCKED, LightState.WAITING])
def test_refused_flashes_red_then_shows_the_previous_state(light, factory, previous):
    light.show(previous)
    factory.pin(2).clear_states()
    light.show(LightState.REFUSED)
    assert light.state is LightState.REFUSED
    assert wait_until(lambda: light.state is previous)
    assert 1.0 in [s.state for s in factory.pin(2).states]
    if previous is LightState.LOCKED:
        assert rgb(factory) == pytest.approx((0, 1, 0))


@pytest.fixture
def mono(factory):
    light = GpioSeatLight(12, pin_factory=factory)
    yield light
    light.close()


@pytest.mark.parametrize("state, level", [(LightState.OFF, 0.0), (LightState.LOCKED, 1.0)])
def test_a_single_colour_light_shows_steady_states_by_level(mono, factory, state, level):
    mono.show(LightState.WINNER)
    mono.show(state)
    assert float(factory.pin(12).state) == level and mono.state is state


@pytest.mark.parametrize("state", [LightState.WAITING, LightState.YOUR_TURN, LightState.WINNER, LightState.FAULT])
def test_a_single_colour_light_shows_the_other_states_by_their_pattern(mono, factory, state):
    factory.pin(12).clear_states()
    mono.show(state)
    assert wait_until(lambda: len({s.state for s in factory.pin(12).states}) >= 3 if MONO_LOOKS[state].pattern
                      is Pattern.PULSE else [s.state for s in factory.pin(12).states][-3:] in ([1, 0, 1], [0, 1, 0]))


def test_a_single_colour_light_flashes_a_refusal_then_comes_back(mono, factory):
    mono.show(LightState.LOCKED)
    factory.pin(12).clear_states()
    mono.show(LightState.REFUSED)
    assert wait_until(lambda: mono.state is LightState.LOCKED)
    assert 0 in [s.state for s in factory.pin(12).states] and float(factory.pin(12).state) == 1.0


def test_a_state_shown_during_refused_is_not_overwritten(light, factory):
    light.show(LightState.LOCKED)
    light.show(LightState.REFUSED)
    light.show(LightState.YOUR_TURN)
    time.sleep(2 * lights_module.FLASH_S * lights_module.FLASHES + 0.1)
    assert light.state is LightState.YOUR_TURN
    assert rgb(factory) == pytest.approx((0.6, 0.7, 1.0))


def test_light_changes_start_no_thread_and_one_thread_plays_every_pattern(factory, monkeypatch):
    lights = [GpioSeatLight(*pins, pin_factory=factory) for pins in ((2, 3, 4), (5, 6, 7), (12,))]
    lights[0].show(LightState.WAITING)      # the light thread starts with the first pattern, once per process
    started = []
    start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda thread: started.append(thread.name) or start(thread))
    try:
        for state in list(LightState) * 5:
            for light in lights:
                light.show(state)
        for pin in (2, 5, 12):
            factory.pin(pin).clear_states()
        for light in lights:
            light.show(LightState.WAITING)
        assert wait_until(lambda: min(len(factory.pin(pin).states) for pin in (2, 5, 12)) >= 3)   # all pulse
    finally:
        for light in lights:
            light.close()
    assert started == []
    assert [thread.name for thread in threading.enumerate() if thread.name == "lights"] == ["lights"]


# --- buttons and the simulated table

@pytest.fixture
def simulated_table():
    layout = load_layout("sim-6-single")
    bus = EventBus()
    factories = simulated_factories(layout)
    lights, buttons = build_lights_and_buttons(layout, bus, factories)
    yield bus, factories, lights
    buttons.close()
    for light in lights.values():
        light.close()


def test_pressing_a_mock_pin_publishes_button_down(simulated_table):
    bus, factories, _ = simulated_table
    downs: list[ButtonDown] = []
    bus.subscribe(ButtonDown, downs.append)
    press(factories["hub2"], 6)
    press(factories["hub1"], 5)
    press(factories["hub1"], 5)
    bus.dispatch()
    assert [(d.seat, d.button) for d in downs] == [(4, "ok"), (1, "next"), (1, "next")]


def test_each_seat_light_is_on_its_own_board(simulated_table):
    _, factories, lights = simulated_table
    assert sorted(lights) == [1, 2, 3, 4, 5, 6]
    lights[4].show(LightState.LOCKED)
    assert float(factories["hub2"].pin(3).state) == 1.0
    assert float(factories["hub1"].pin(3).state) == 0.0

