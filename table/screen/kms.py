"""A KMS screen driven by the table itself: the page copied into a dumb buffer the card scans out, no GL.

SDL's kmsdrm driver draws every frame through GLES (Mesa's GL driver in the
process: 139 MiB resident in QEMU, docs/benchmarks.md) and opens a udev
netlink socket. A screen that takes no input (the table, its fallback) needs
neither: the page is drawn into memory and copied, each frame, into one of
two dumb buffers (plain memory the display engine reads), which is then
flipped onto the screen at the next vertical blank, so a page never shows
half copied. Only the kernel's DRM ioctls (drm_mode.h): the connected
connector at the mode forced on the kernel's command line (docs/appliance.md,
section 2) or else its preferred one, on a CRTC its encoder can drive.
"""
from __future__ import annotations

import ctypes
import errno
import fcntl
import mmap
import os
import struct
from collections.abc import Callable
from dataclasses import dataclass

import pygame


def iowr(number: int, layout: str) -> int:
    """DRM_IOWR(number, struct): the request of a DRM ioctl that reads and writes that struct."""
    return 3 << 30 | struct.calcsize(layout) << 16 | ord("d") << 8 | number


MODE = "I10H3I32s"      # struct drm_mode_modeinfo
RESOURCES = "4Q8I"      # struct drm_mode_card_res
CONNECTOR = "4Q12I"     # struct drm_mode_get_connector
ENCODER = "5I"          # struct drm_mode_get_encoder
CRTC = f"Q7I{struct.calcsize(MODE)}s"   # struct drm_mode_crtc
CREATE_DUMB = "6IQ"     # struct drm_mode_create_dumb
MAP_DUMB = "IIQ"        # struct drm_mode_map_dumb
FB = "7I"               # struct drm_mode_fb_cmd
FLIP = "4IQ"            # struct drm_mode_crtc_page_flip
ONE = "I"               # a handle or a framebuffer id
REQUESTS = {
    "resources": iowr(0xA0, RESOURCES), "set_crtc": iowr(0xA2, CRTC), "encoder": iowr(0xA6, ENCODER),
    "connector": iowr(0xA7, CONNECTOR), "add_fb": iowr(0xAE, FB), "remove_fb": iowr(0xAF, ONE),
    "flip": iowr(0xB0, FLIP), "create_dumb": iowr(0xB2, CREATE_DUMB), "map_dumb": iowr(0xB3, MAP_DUMB),
    "destroy_dumb": iowr(0xB4, ONE),
}
CONNECTED = 1            # drm_mode_connection
PREFERRED = 1 << 3       # DRM_MODE_TYPE_PREFERRED: the screen's own choice
USERDEF = 1 << 5         # DRM_MODE_TYPE_USERDEF: the mode forced on the kernel's command line (video=...)


class KmsError(OSError):
    """The card would not show a screen (no connected connector, no CRTC, a refused ioctl)."""


@dataclass(frozen=True)
class Mode:
    """A connector's mode: its size and the kernel's drm_mode_modeinfo, as bytes."""

    width: int
    height: int
    info: bytes


class Card:
    """The kernel's DRM interface of an open card: each ioctl (one of `requests`, by name) a struct in, the struct
    the kernel filled out."""

    requests = REQUESTS

    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)

    def ask(self, name: str, layout: str, *values) -> tuple:
        buffer = bytearray(struct.pack(layout, *values))
        fcntl.ioctl(self.fd, self.requests[name], buffer)
        return struct.unpack(layout, buffer)

    def resources(self, count_at: int, pointer_at: int) -> list[int]:
        """One of the card's arrays of ids (CRTCs, connectors...): its count asked, then the array filled."""
        count = self.ask("resources", RESOURCES, *[0] * 12)[count_at]
        array = (ctypes.c_uint32 * max(count, 1))()
        values = [0] * 12
        values[count_at], values[pointer_at] = count, ctypes.addressof(array)
        return list(array[:self.ask("resources", RESOURCES, *values)[count_at]])

    def map(self, offset: int, size: int) -> mmap.mmap:
        return mmap.mmap(self.fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE, offset=offset)

    def close(self) -> None:
        os.close(self.fd)


class Buffer:
    """A dumb buffer of `size` pixels (XRGB8888) on `card`, mapped, and its framebuffer id."""

    def __init__(self, card: Card, size: tuple[int, int]) -> None:
        width, height = size
        self.card = card
        *_, self.handle, self.pitch, length = card.ask("create_dumb", CREATE_DUMB, height, width, 32, 0, 0, 0, 0)
        self.fb = card.ask("add_fb", FB, 0, width, height, self.pitch, 32, 24, self.handle)[0]
        self.pixels = card.map(card.ask("map_dumb", MAP_DUMB, self.handle, 0, 0)[2], length)
        self.size = size

    def copy(self, surface: pygame.Surface) -> None:
        """`surface` (32 bits, its size) into the buffer, row by row where the buffer's rows are longer."""
        width, height = self.size
        pixels = memoryview(surface.get_buffer()).cast("B")
        if self.pitch == 4 * width:
            self.pixels[:len(pixels)] = pixels
            return
        for y in range(height):
            self.pixels[y * self.pitch:y * self.pitch + 4 * width] = pixels[4 * width * y:4 * width * (y + 1)]

    def close(self) -> None:
        self.pixels.close()
        self.card.ask("remove_fb", ONE, self.fb)
        self.card.ask("destroy_dumb", ONE, self.handle)


class KmsScreen:
    """The screen of the first connected connector of the card at `path`, at its forced or preferred mode:
    `surface` is the page to draw into, `show()` puts it on the screen. KmsError when the card shows nothing
    (nothing connected, no free CRTC, another program holding the display). `open_card` opens the card (tests
    give an emulated one)."""

    def __init__(self, path: str, open_card: Callable[[str], Card] = Card) -> None:
        self.card = open_card(path)
        try:
            self.connector, self.crtc, self.mode = self._choose()
            self.surface = pygame.Surface((self.mode.width, self.mode.height), 0, 32)
            self.buffers = [Buffer(self.card, self.size) for _ in range(2)]
            connectors = (ctypes.c_uint32 * 1)(self.connector)
            self.card.ask("set_crtc", CRTC, ctypes.addressof(connectors), 1, self.crtc, self.buffers[0].fb, 0, 0, 0,
                          1, self.mode.info)
        except OSError as error:
            self.card.close()
            raise KmsError(error.errno, f"the KMS card {path} shows no screen: {error.strerror}") from None
        self.shown = 0   # the buffer on the screen

    @property
    def size(self) -> tuple[int, int]:
        return self.mode.width, self.mode.height

    def show(self) -> bool:
        """The surface onto the screen: copied into the buffer not shown, flipped onto it at the next vertical
        blank; False when a flip is still pending (a frame 16 ms ago): this one is skipped, the next shows."""
        back = 1 - self.shown
        self.buffers[back].copy(self.surface)
        try:
            self.card.ask("flip", FLIP, self.crtc, self.buffers[back].fb, 0, 0, 0)
        except OSError as error:
            if error.errno != errno.EBUSY:
                raise
            return False
        self.shown = back
        return True

    def close(self) -> None:
        """Free the buffers and the card (the kernel's console comes back)."""
        try:
            for buffer in self.buffers:
                buffer.close()
        finally:
            self.card.close()

    def _choose(self) -> tuple[int, int, Mode]:
        """The first connected connector, a CRTC its encoder drives (the one it is on, else the first it can),
        and the connector's mode (`_preferred`)."""
        crtcs = self.card.resources(5, 1)
        for connector in self.card.resources(6, 2):
            found = self.card.ask("connector", CONNECTOR, *[0] * 8, connector, *[0] * 7)
            if found[11] != CONNECTED or not found[4]:
                continue
            return connector, self._crtc(found[7], crtcs), self._preferred(connector, found[4])
        raise KmsError(errno.ENODEV, "no screen is connected")

    def _crtc(self, encoder: int, crtcs: list[int]) -> int:
        """The CRTC `encoder` is on, else the first it can drive (the first of all without an encoder)."""
        if not encoder:
            return crtcs[0]
        _, _, crtc, possible, _ = self.card.ask("encoder", ENCODER, encoder, 0, 0, 0, 0)
        return crtc or next(c for n, c in enumerate(crtcs) if possible >> n & 1)

    def _preferred(self, connector: int, count: int) -> Mode:
        """The mode forced on the kernel's command line, else the connector's preferred mode, else its first."""
        size = struct.calcsize(MODE)
        modes = ctypes.create_string_buffer(size * count)
        self.card.ask("connector", CONNECTOR, 0, ctypes.addressof(modes), 0, 0, count, *[0] * 3, connector, *[0] * 7)
        infos = [modes.raw[n * size:(n + 1) * size] for n in range(count)]
        info = next((i for flag in (USERDEF, PREFERRED) for i in infos if struct.unpack(MODE, i)[13] & flag),
                    infos[0])
        mode = struct.unpack(MODE, info)
        return Mode(mode[1], mode[6], info)
