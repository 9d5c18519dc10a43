"""The host side of seat hubs: finds each hub by its USB ids, keeps its link up, and lends its pads and lights.

A HubPad is a Reader port and a HubSeatLight a SeatLight port, so the rest
of the table cannot tell hub hardware from Pi-wired hardware; button presses
arrive on the bus as ButtonDown, like the Pi's own buttons.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import serial
from serial.tools.list_ports import comports

from table.events import ButtonDown, EventBus
from table.hardware.hub import protocol
from table.hardware.looks import BLINK_S, FLASH_S, FLASHES, LOOKS, PULSE_S, Look, Pattern, rgb255
from table.hardware.ports import LightState, ReaderFault
from table.vitals import Heartbeat

log = logging.getLogger(__name__)

PICO_MICROPYTHON = (0x2E8A, 0x0005)   # USB VID:PID of MicroPython on a Raspberry Pi Pico
READ_S = 0.02                         # longest wait for serial bytes before the link's clock ticks
WRITE_S = 0.1                         # longest wait to hand a frame to the port; a hub that takes none is gone
MOST_PRESSES = 4                      # the most presses one BUTTON frame can bring: more, or fewer than none, is
                                      # a count that went back or jumped (a restarted or foreign hub): a reset
PROVE_S = 0.5                         # longest wait for a card's answer to PROVE (a protection writes 3 pages)
CONFIG_PUSHES = 3                     # times a connection pushes the wiring before it gives up on the hub
# The messages a hub sends (its heartbeats stop at the link), and the UID lengths of its READERs: no card, or
# an ISO 14443-3 UID.
HUB_KINDS = (protocol.HELLO, protocol.SYNC, protocol.SYNCED, protocol.READER, protocol.BUTTON, protocol.ERROR,
             protocol.PROVEN)
UID_SIZES = (0, 4, 7, 10)

_PATTERNS = {  # pattern -> (protocol pattern, half period in s, flashes)
    Pattern.STEADY: (protocol.STEADY, 0.0, 0),
    Pattern.PULSE: (protocol.PULSE, PULSE_S, 0),
    Pattern.BLINK: (protocol.BLINK, BLINK_S, 0),
    Pattern.FLASH: (protocol.FLASH, FLASH_S, FLASHES),
}


def light_fields(index: int, look: Look) -> tuple[int, ...]:
    """The LIGHT message fields that make light `index` of a hub show `look`."""
    pattern, half_s, flashes = _PATTERNS[look.pattern]
    return (index, pattern, round(1000 * half_s), flashes, *rgb255(look.colour), *rgb255(look.other))


@dataclass(frozen=True, slots=True)
class HubWiring:
    """What is wired to which GPIO of one hub, pushed to the hub so that the host's layout is the one truth.

    Readers share one SPI bus (the Pico's SPI0 on GP18 SCK, GP19 MOSI, GP16
    MISO by default), each on its own chip select; their reset pins are none,
    one shared by all, or one per reader. Buttons switch their pin to ground;
    lights are RGB LEDs (common cathode) on PWM pins.
    """

    pads: tuple[tuple[str, int], ...]                          # (pad name, chip-select GPIO) per reader
    buttons: tuple[tuple[int, str, int], ...] = ()             # (seat, button name, GPIO) per button
    lights: tuple[tuple[int, tuple[int, int, int]], ...] = ()  # (seat, (red, green, blue) GPIOs) per light
    spi_bus: int = 0
    sck: int = 18
    mosi: int = 19
    miso: int = 16
    spi_khz: int = 1000
    resets: tuple[int, ...] = ()

    def config_fields(self) -> tuple:
        """The fields of the CONFIG message for this wiring."""
        return (protocol.VERSION, self.spi_bus, self.sck, self.mosi, self.miso, self.spi_khz,
                bytes(cs for _, cs in self.pads), bytes(self.resets),
                bytes(pin for _, _, pin in self.buttons),
                bytes(pin for _, rgb in self.lights for pin in rgb))


class MonotonicClock:
    """The host's monotonic clock in the shape protocol.Link expects: MicroPython's tick functions."""

    @staticmethod
    def ticks_ms() -> int:
        return time.monotonic_ns() // 1_000_000

    @staticmethod
    def ticks_diff(a: int, b: int) -> int:
        return a - b


def find_hubs(usb_id: tuple[int, int] = PICO_MICROPYTHON, serial_number: str | None = None,
              list_ports: Callable[[], Iterable] = comports) -> list:
    """The serial ports (as `list_ports` gives them) with USB `usb_id`, and `serial_number` if given.

    Hubs are told apart by USB ids and serial numbers, never by the order of their device names.
    """
    return sorted((port for port in list_ports()
                   if (port.vid, port.pid) == tuple(usb_id)
                   and (serial_number is None or (port.serial_number or "").upper() == serial_number.upper())),
                  key=lambda port: port.device)


def stop_firmware(device: str) -> None:
    """Ask the hub on `device` to leave its firmware for the REPL, so that mpremote can deploy to it."""
    with serial.Serial(device, timeout=READ_S) as port:
        link = protocol.Link(port.write, MonotonicClock)
        link.ask_state()          # SYNC first: the hub takes our sequence numbers from it
        link.send(protocol.STOP)
        port.flush()


class SeatHub:
    """One seat hub on USB serial: keeps its link up, publishes its button presses, lends its pads and lights.

    `start` runs a thread that finds the hub by `usb_id` (and
    `serial_number`, needed when several hubs are plugged in) with
    `list_ports`, opens it, syncs (pushing `wiring` if the hub has another),
    and then reads its frames. When the hub goes (unplugged, or silent past
    `timeout_s`) its pads raise ReaderFault and the thread looks for it
    again, waiting `backoff_s` between tries, doubled each try up to
    `max_backoff_s`. A frame that does not fit the wiring (a reader or
    button the hub does not have, a message only the host sends) is counted
    in `misfits` and dropped; an error of the thread's own ends the
    connection, not the thread, and a thread that ends unasked leaves the
    pads at fault.
    """

    def __init__(self, bus: EventBus, wiring: HubWiring, serial_number: str | None = None,
                 usb_id: tuple[int, int] = PICO_MICROPYTHON, list_ports: Callable[[], Iterable] = comports,
                 heartbeat_s: float = protocol.HEARTBEAT_MS / 1000, timeout_s: float = protocol.TIMEOUT_MS / 1000,
                 backoff_s: float = 0.1, max_backoff_s: float = 2.0) -> None:
        self.bus = bus
        self.wiring = wiring
        self.serial_number = serial_number
        self.usb_id = usb_id
        self.list_ports = list_ports
        self.heartbeat_ms = round(heartbeat_s * 1000)
        self.timeout_ms = round(timeout_s * 1000)
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.name = serial_number or "%04x:%04x" % tuple(usb_id)
        self.pads = tuple(HubPad(self, index, pad) for index, (pad, _) in enumerate(wiring.pads))
        self.lights = {seat: HubSeatLight(self, index) for index, (seat, _) in enumerate(wiring.lights)}
        if len(self.lights) < len(wiring.lights):
            raise ValueError(f"seat hub {self.name}: a seat has two lights")
        self.hub_id: str | None = None        # from the hub's HELLO
        self.firmware: str | None = None
        self.capabilities: tuple[int, int, int] | None = None   # readers, buttons, lights
        self.problem: str | None = "not connected yet"
        self.connections = 0                   # times the link came up ready
        self.misfits = 0                       # frames dropped because they do not fit the wiring
        self._config_crc = protocol.crc16(protocol.pack_fields(protocol.CONFIG, wiring.config_fields()))
        self._changed = threading.Condition()  # guards the state below; never held while the port is used
        self._looks = [LOOKS[LightState.OFF]] * len(wiring.lights)   # last look that is not a flash
        self._pending: dict[int, list[Look]] = {}   # light -> looks to send it next, by the thread: a look, a flash or both
        self._outbox: list[bytes] = []         # frames the link sent, for the thread to write to the port
        self._link: protocol.Link | None = None
        self._ready = False
        self._matched = False                  # the last HELLO had our protocol and wiring
        self._refused: str | None = None       # why the hub cannot serve this connection
        self._config_pushes = 0
        self._boot: int | None = None
        self._reads: list[tuple[int, str | None]] = []
        self._presses: list[int | None] = []
        self._request = 0                      # the number of the latest PROVE
        self._proof: tuple[int, bytes] | None = None   # and its answer: (request, PACK)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"seat hub {self.name}", daemon=True)
        self.heartbeat = Heartbeat(f"seat hub {self.name}", max_backoff_s + WRITE_S)

    def start(self) -> SeatHub:
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread and let go of the port; the hub shows its no-host look."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    @property
    def ready(self) -> bool:
        """Whether the hub is connected and its whole state has arrived."""
        return self._ready

    def wait_ready(self, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: self._ready, timeout)

    def read(self, index: int) -> str | None:
        """What reader `index` last reported: a UID or None; ReaderFault if it, or the hub, is at fault."""
        with self._changed:
            if not self._ready:
                raise ReaderFault(f"seat hub {self.name}: {self.problem}")
            status, uid = self._reads[index]
        if status == protocol.FAULT:
            raise ReaderFault(f"seat hub {self.name}: reader {self.wiring.pads[index][0]} does not answer")
        return uid

    def ask(self, index: int, uid: str, password: bytes, new: bytes = b"") -> bytes | None:
        """The PACK card `uid` on reader `index` answers to `password` or, given `new` (a password and PACK), the
        new PACK once the hub has written it on the card; None when not done or unanswered within PROVE_S. Raises
        ReaderFault while the hub is not ready."""
        with self._changed:
            if not self._ready or self._link is None:
                raise ReaderFault(f"seat hub {self.name}: {self.problem}")
            self._request = request = (self._request + 1) & 0xFFFF
            self._link.send(protocol.PROVE, index, request, bytes.fromhex(uid), bytes(password), bytes(new))
            self._changed.wait_for(lambda: self._proof is not None and self._proof[0] == request, PROVE_S)
            proof, self._proof = self._proof, None
        return proof[1] if proof is not None and proof[0] == request and proof[1] else None

    def show(self, index: int, look: Look) -> None:
        """Make light `index` show `look`: the hub's thread sends it within READ_S if connected, else once the
        hub is back. Never waits for the port, so a hub that takes no bytes cannot hold up the caller."""
        with self._changed:
            if look.pattern is not Pattern.FLASH:
                self._looks[index] = look
                self._pending[index] = [look]
            else:   # after the look it returns to, if that is not sent yet
                self._pending[index] = [*(p for p in self._pending.get(index, ()) if p.pattern is not Pattern.FLASH),
                                        look]

    # --- the thread

    def _run(self) -> None:
        delay = self.backoff_s
        try:
            while not self._stop.is_set():
                self.heartbeat.beat()
                connections = self.connections
                try:
                    self._find_and_talk()
                except Exception as error:   # a fault of the host's own: it ends this connection, not the thread
                    log.exception("seat hub %s: the host failed", self.name)
                    self._gone(f"host error: {error!r}")
                if self.connections > connections:
                    delay = self.backoff_s
                self._stop.wait(delay)
                delay = min(2 * delay, self.max_backoff_s)
        finally:
            if not self._stop.is_set():   # ended unasked, whatever ended it: the pads are at fault from now on
                self._gone("its thread has stopped")
            else:
                self.heartbeat.stop()

    def _find_and_talk(self) -> None:
        """Talk to the hub until it goes, if exactly one matches; else say why not."""
        hubs = find_hubs(self.usb_id, self.serial_number, self.list_ports)
        if len(hubs) == 1:
            self._talk(hubs[0].device)
        else:
            self._gone("no hub found" if not hubs else f"{len(hubs)} hubs match; give a serial number")

    def _talk(self, device: str) -> None:
        """Open `device` and talk to the hub there until it goes or we stop."""
        try:
            with serial.Serial(device, timeout=READ_S, write_timeout=WRITE_S, exclusive=True) as port:
                log.info("seat hub %s: opened %s", self.name, device)
                self._connect(port)
                while not self._stop.is_set():
                    self.heartbeat.beat()
                    data = port.read(port.in_waiting or 1)   # returns within READ_S
                    with self._changed:
                        for kind, fields in self._link.receive(data):
                            self._handle(kind, fields)
                        self._send_pending_lights()
                        self._link.tick()
                        if not self._link.alive():
                            self._gone(f"silent for {self.timeout_ms} ms")
                            return
                    self._flush(port)
                self._gone("closed")
        except (serial.SerialException, OSError) as error:
            self._gone(f"{device}: {error}")

    def _connect(self, port: serial.Serial) -> None:
        """Start a link on `port`, knowing nothing of the hub yet, and ask for its state."""
        with self._changed:
            self._outbox = []
            self._link = protocol.Link(self._outbox.append, MonotonicClock, self.heartbeat_ms, self.timeout_ms)
            self._ready = self._matched = False
            self._pending = {}    # a flash shown while no hub listened is over; the state sends the rest
            self._refused = None
            self._config_pushes = 0
            self._boot = None
            self._reads = [(protocol.OK, None)] * len(self.wiring.pads)
            self._link.ask_state()
        self._flush(port)

    def _flush(self, port: serial.Serial) -> None:
        """Write the frames the link sent to the port, outside the lock: only this thread touches the port."""
        with self._changed:
            frames, self._outbox[:] = self._outbox[:], []
        try:
            for frame in frames:
                port.write(frame)
        except (serial.SerialException, OSError) as error:   # also the write timeout: a hub that takes nothing
            raise serial.SerialException("write failed") from error

    def _gone(self, why: str) -> None:
        with self._changed:
            if self._link is not None:
                log.warning("seat hub %s: %s", self.name, why)
            self._link = None
            self._ready = self._matched = False
            self.problem = why
            self._changed.notify_all()

    def _handle(self, kind: int, fields: tuple) -> None:
        if not self._fits(kind, fields):
            self._drop(kind, fields)
        elif kind == protocol.HELLO:
            self._hello(*fields)
        elif kind == protocol.SYNC:
            self._send_lights()
        elif kind == protocol.SYNCED and self._matched and not self._link.waiting():
            self._ready = True        # the hub's whole state is here
            self.problem = None
            self.connections += 1
            self._changed.notify_all()
        elif kind == protocol.READER and self._matched:
            index, status, uid = fields
            self._reads[index] = (status, uid.hex().upper() or None)
        elif kind == protocol.BUTTON and self._matched:
            self._pressed(*fields)
        elif kind == protocol.PROVEN and fields[1] == self._request:
            self._proof = fields[1:]
            self._changed.notify_all()
        elif kind == protocol.ERROR:
            self._refuse("hub refused its wiring: " + fields[0].decode(errors="replace"))

    def _fits(self, kind: int, fields: tuple) -> bool:
        """Whether a message from the hub fits: a kind hubs send, of a reader or button the wiring has, with a
        status and a UID a reader reports."""
        if kind == protocol.READER:
            index, status, uid = fields
            return index < len(self.wiring.pads) and status in (protocol.OK, protocol.FAULT) and len(uid) in UID_SIZES
        if kind == protocol.BUTTON:
            return fields[0] < len(self.wiring.buttons)
        if kind == protocol.PROVEN:
            return fields[0] < len(self.wiring.pads) and len(fields[2]) in (0, 2)
        return kind in HUB_KINDS

    def _drop(self, kind: int, fields: tuple) -> None:
        self.misfits += 1
        if not self.misfits & (self.misfits - 1):   # the 1st, 2nd, 4th, 8th...: a hub cannot flood the log
            log.warning("seat hub %s: dropped a frame that does not fit its wiring (kind %d, %r); %d so far",
                        self.name, kind, fields, self.misfits)

    def _hello(self, version: int, boot: int, config_crc: int, readers: int, buttons: int, lights: int,
               hub_id: bytes, firmware: bytes) -> None:
        self.hub_id, self.firmware = hub_id.decode(errors="replace"), firmware.decode(errors="replace")
        self.capabilities = (readers, buttons, lights)
        self._matched = version == protocol.VERSION and config_crc == self._config_crc
        if self._matched:
            if boot != self._boot:     # a hub that (re)started: its presses count from zero
                self._boot, self._ready = boot, False
                self._presses = [None] * len(self.wiring.buttons)
            self._send_lights()
            return
        self._ready = False
        if version != protocol.VERSION:
            self._refuse(f"hub speaks protocol {version}, the host {protocol.VERSION}")
        elif self._refused is None and self._config_pushes < CONFIG_PUSHES:
            self._config_pushes += 1
            self._link.send(protocol.CONFIG, *self.wiring.config_fields())
            self._link.ask_state()     # the answer shows the wiring the hub runs now
        else:
            self._refuse(self._refused or "hub does not take its wiring")

    def _refuse(self, why: str) -> None:
        """Say why the hub cannot serve, and ask for its state again after the timeout, so that neither a hub that
        changed nor a stray frame leaves it refused for the rest of the connection."""
        if why != self._refused:
            log.error("seat hub %s: %s", self.name, why)
        self._refused = self.problem = why
        self._link.ask_state_later()
        self._changed.notify_all()

    def _pressed(self, index: int, presses: int) -> None:
        """A button's count of presses (modulo 65536): its increase since the last count is that many presses, at
        most MOST_PRESSES; a count that went back or leapt is a new start to count from, never a burst."""
        last, self._presses[index] = self._presses[index], presses
        more = 0 if last is None else (presses - last) & 0xFFFF
        if more > MOST_PRESSES:
            log.warning("seat hub %s: button %d counts %d after %d: counted afresh from there, no press",
                        self.name, index, presses, last)
            return
        seat, button, _ = self.wiring.buttons[index]
        for _ in range(more):
            self.bus.publish(ButtonDown(seat, button))

    def _send_lights(self) -> None:
        """Send every light's last look that is not a flash, as the host's whole state (a flash still to
        be sent is sent after it)."""
        self._pending = {index: [look for look in looks if look.pattern is Pattern.FLASH]
                         for index, looks in self._pending.items()}
        self._link.send_state([(protocol.LIGHT, light_fields(index, look)) for index, look in enumerate(self._looks)])

    def _send_pending_lights(self) -> None:
        """Send the looks shown since the last turn of the loop, if the hub can take them: per light, the latest
        look that is not a flash, then the latest flash if one was shown after it."""
        pending, self._pending = self._pending, {}
        if self._link is not None and self._matched:
            for index, looks in sorted(pending.items()):
                for look in looks:
                    self._link.send(protocol.LIGHT, *light_fields(index, look))


class HubPad:
    """A reader pad on a seat hub, as a Reader port: polling returns what the hub last reported."""

    def __init__(self, hub: SeatHub, index: int, pad: str) -> None:
        self.hub = hub
        self.index = index
        self.pad = pad

    def poll(self) -> str | None:
        return self.hub.read(self.index)

    def prove(self, uid: str, password: bytes) -> bytes | None:
        """The PACK card `uid` on this pad answers to `password` (the hub asks it), or None."""
        return self.hub.ask(self.index, uid, password)

    def protect(self, uid: str, password: bytes, pack: bytes, current: bytes) -> bool:
        """Have the hub write `password` and `pack` on NTAG21x `uid` on this pad, whose password is `current`."""
        return self.hub.ask(self.index, uid, current, bytes(password) + bytes(pack)) == bytes(pack)

    def reset(self) -> bool:
        """The hub resets its own deaf readers (and the link reconnects by itself): whether this pad answers now."""
        try:
            self.hub.read(self.index)
        except ReaderFault:
            return False
        return True


class HubSeatLight:
    """A seat light on a seat hub, as a SeatLight port: the hub animates each look itself."""

    def __init__(self, hub: SeatHub, index: int) -> None:
        self.hub = hub
        self.index = index
        self.state = LightState.OFF

    def show(self, state: LightState) -> None:
        self.state = state
        self.hub.show(self.index, LOOKS[state])
