"""A hub that says what it should not: frames that do not fit the host's wiring, random well-formed frames, and a
host thread that fails or ends. The hub's thread lives on, or its pads say they are at fault; real cards are seen."""
import threading

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from hardware.hub.test_hub_link import UID, WAIT_S, WIRING, Rig, wait_for
from table.events import CardPlaced, CardRemoved
from table.hardware.hub import protocol
from table.hardware.ports import ReaderFault

PADS = [pad for pad, _ in WIRING.pads]
CODES = {"B": st.integers(0, 0xFF), "H": st.integers(0, 0xFFFF), "s": st.binary(max_size=24)}
messages = st.sampled_from(sorted(protocol.FIELDS)).flatmap(
    lambda kind: st.tuples(st.just(kind), st.tuples(*(CODES[code] for code in protocol.FIELDS[kind]))))


@pytest.fixture
def rig():
    rig = Rig()
    assert rig.host.wait_ready(WAIT_S), rig.host.problem
    yield rig
    rig.close()


def send(rig, *messages):
    """Have the hub send `messages` (kind, fields) as its next frames, and wait until they are on the line."""
    rig.pty.messages_out.extend(messages)
    wait_for(lambda: not rig.pty.messages_out, "the frames to go")


def a_card_comes_and_goes(rig, index):
    """Lay a card on pad `index`, then take it away: the table sees both."""
    start = len(rig.events)
    rig.pads.place(index, UID)
    rig.until(lambda: CardPlaced(PADS[index], UID) in rig.events[start:], f"the card on {PADS[index]}")
    rig.pads.remove(index)
    rig.until(lambda: CardRemoved(PADS[index], UID) in rig.events[start:], f"the card to leave {PADS[index]}")


def test_frames_that_do_not_fit_the_wiring_are_counted_and_dropped(rig):
    rig.pads.place(0, UID)
    rig.until(lambda: CardPlaced("seat1", UID) in rig.events, "the card")
    misfits = [
        (protocol.READER, (len(PADS), protocol.OK, bytes.fromhex(UID))),   # a reader the hub does not have
        (protocol.READER, (0, 7, b"")),                                     # an unknown status
        (protocol.READER, (0, protocol.OK, b"\x01\x02\x03")),               # no card has a 3-byte UID
        (protocol.BUTTON, (len(WIRING.buttons), 1)),                        # a button it does not have
        (protocol.LIGHT, (0, protocol.STEADY, 0, 0, 1, 2, 3, 4, 5, 6)),     # messages only the host sends
        (protocol.CONFIG, (protocol.VERSION, 0, 18, 19, 16, 1000, b"\x11", b"", b"", b"")),
        (protocol.STOP, ()),
    ]
    send(rig, *misfits)
    rig.until(lambda: rig.host.misfits == len(misfits), "every frame counted")
    assert rig.host.ready and rig.host.pads[0].poll() == UID
    assert rig.poll() == []
    a_card_comes_and_goes(rig, 1)
    assert rig.host.misfits == len(misfits)


def test_random_well_formed_frames_never_end_the_hubs_thread_and_real_cards_are_still_seen(caplog):
    rig = Rig(timeout_s=0.3)   # a stray HELLO gets the hub refused until the host asks again, after the timeout
    assert rig.host.wait_ready(WAIT_S), rig.host.problem

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(messages, min_size=1, max_size=6), st.integers(0, len(PADS) - 1))
    def hostile(messages, index):
        send(rig, *messages)     # good CRC, next sequence number: the host takes each one as the hub's
        a_card_comes_and_goes(rig, index)
        assert rig.host._thread.is_alive()

    try:
        hostile()
    finally:
        rig.close()
    assert "the host failed" not in caplog.text   # every frame was taken or dropped: none ended a connection


class Broken:
    """Makes the host's handling of the hub's frames raise `error` while `on` is set."""

    def __init__(self, monkeypatch, host, error: BaseException) -> None:
        self.on = threading.Event()
        handle = host._handle

        def broken(kind, fields):
            if self.on.is_set():
                raise error
            handle(kind, fields)

        monkeypatch.setattr(host, "_handle", broken)


def test_a_hub_thread_that_fails_leaves_the_hubs_pads_at_fault_until_the_link_is_back(rig, monkeypatch):
    broken = Broken(monkeypatch, rig.host, RuntimeError("a bug"))
    broken.on.set()
    rig.pads.place(2, UID)     # the hub reports it: the host fails on that frame
    rig.until(lambda: rig.poll() == PADS, "the pads to fault")
    assert "a bug" in rig.host.problem
    broken.on.clear()
    rig.until(lambda: CardPlaced("centre", UID) in rig.events, "the card, once the link is back")
    assert rig.poll() == []


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_hub_thread_that_ends_leaves_the_hubs_pads_at_fault(rig, monkeypatch):
    broken = Broken(monkeypatch, rig.host, SystemExit())   # ends a thread without a word
    broken.on.set()
    rig.pads.place(2, UID)
    wait_for(lambda: not rig.host._thread.is_alive(), "the thread to end")
    assert not rig.host.ready
    with pytest.raises(ReaderFault, match="thread"):
        rig.host.pads[2].poll()
    assert rig.poll() == PADS


def test_a_button_count_one_below_the_last_is_a_reset_not_65535_presses(rig):
    """One sound BUTTON frame whose count went back (a hub restarted with the same boot number): no press."""
    from table.events import ButtonDown
    send(rig, (protocol.BUTTON, (0, 7)), (protocol.BUTTON, (0, 8)))            # 7 sets the count, 8 is one press
    rig.until(lambda: [e for e in rig.events if isinstance(e, ButtonDown)], "the press")
    send(rig, (protocol.BUTTON, (0, 7)), (protocol.BUTTON, (0, 9)))            # back one, then two more
    rig.until(lambda: len([e for e in rig.events if isinstance(e, ButtonDown)]) == 3, "the two presses")
    a_card_comes_and_goes(rig, 0)
    assert len([e for e in rig.events if isinstance(e, ButtonDown)]) == 3


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 0xFFFF), st.integers(-6, 6)), min_size=1, max_size=60))
def test_hub_counters_that_go_back_or_leap_are_a_reset_never_a_burst(steps):
    """Over any sequence of counts (absolute ones, and small steps from the last, going back included): each frame
    brings at most MOST_PRESSES presses, exactly its increase when that is small, and none when the count went
    back or leapt."""
    from table.events import ButtonDown, EventBus
    from table.hardware.hub import host
    bus = EventBus()
    heard = []
    bus.subscribe(ButtonDown, heard.append)
    hub = host.SeatHub(bus, WIRING, serial_number="0")
    hub._presses = [None] * len(WIRING.buttons)
    count = None
    for step in steps:
        last = count
        small = -6 <= step <= 6 and last is not None
        count = (last + step) % 0x10000 if small else max(step, 0)
        heard.clear()
        hub._pressed(0, count)
        bus.dispatch()
        increase = None if last is None else (count - last) % 0x10000
        assert len(heard) == (increase if increase is not None and increase <= host.MOST_PRESSES else 0)
