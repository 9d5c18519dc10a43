"""An emulated KMS card for table/screen/kms.py: the DRM ioctls it asks, answered as the kernel does for a card
with connectors, encoders and CRTCs, dumb buffers in memory, and page flips done at the next vertical blank."""
from __future__ import annotations

import ctypes
import errno
import mmap
import struct

from table.screen import kms


def mode(width: int, height: int, preferred: bool = False, forced: bool = False) -> bytes:
    """A drm_mode_modeinfo of that size, the screen's preferred one or the one forced on the command line."""
    return struct.pack(kms.MODE, 148500, width, 0, 0, 0, 0, height, 0, 0, 0, 0, 60, 0,
                       (kms.PREFERRED if preferred else 0) | (kms.USERDEF if forced else 0),
                       f"{width}x{height}".encode())


class EmulatedCard(kms.Card):
    """A card (what the kernel answers to the ioctls `kms.Card` asks) whose connectors are `connectors` (id ->
    (connected, modes, encoder id)); every encoder can drive every CRTC and is on none. `pending` flips wait for
    the next `vblank()`; a flip asked while one is pending is refused (EBUSY), as the kernel does."""

    def __init__(self, connectors: dict[int, tuple[bool, list[bytes], int]], crtcs: tuple[int, ...] = (41, 42),
                 pitch_extra: int = 0) -> None:
        self.connectors, self.crtcs, self.pitch_extra = connectors, crtcs, pitch_extra
        self.dumbs: dict[int, tuple[int, int, int, mmap.mmap]] = {}   # handle -> width, height, pitch, memory
        self.fbs: dict[int, int] = {}                                 # fb id -> handle
        self.scanned: dict[int, int] = {}                             # CRTC -> fb id on the screen
        self.pending: tuple[int, int] | None = None                   # (CRTC, fb id) flipped at the next vblank
        self.closed = False

    def ask(self, name: str, layout: str, *values) -> tuple:
        assert not self.closed and struct.calcsize(layout) == struct.calcsize(
            {"resources": kms.RESOURCES, "connector": kms.CONNECTOR, "encoder": kms.ENCODER, "set_crtc": kms.CRTC,
             "create_dumb": kms.CREATE_DUMB, "add_fb": kms.FB, "map_dumb": kms.MAP_DUMB, "flip": kms.FLIP,
             "remove_fb": kms.ONE, "destroy_dumb": kms.ONE}[name])
        return getattr(self, "_" + name)(list(values))

    def map(self, offset: int, size: int) -> mmap.mmap:
        return self.dumbs[offset >> 12][3]

    def close(self) -> None:
        self.closed = True

    def vblank(self) -> None:
        if self.pending is not None:
            crtc, fb = self.pending
            self.scanned[crtc], self.pending = fb, None

    def on_screen(self, crtc: int) -> bytes:
        """What `crtc` scans out: its framebuffer's rows, without the pitch's padding."""
        width, height, pitch, memory = self.dumbs[self.fbs[self.scanned[crtc]]]
        return b"".join(memory[y * pitch:y * pitch + 4 * width] for y in range(height))

    def _resources(self, v: list) -> tuple:
        for count_at, pointer_at, ids in ((5, 1, self.crtcs), (6, 2, list(self.connectors))):
            if v[pointer_at] and v[count_at] >= len(ids):
                (ctypes.c_uint32 * len(ids)).from_address(v[pointer_at])[:] = ids
            v[count_at] = len(ids)
        return tuple(v)

    def _connector(self, v: list) -> tuple:
        connected, modes, encoder = self.connectors[v[8]]
        if v[1] and v[4] >= len(modes):
            ctypes.memmove(v[1], b"".join(modes), len(b"".join(modes)))
        v[4], v[7], v[11] = len(modes), encoder, kms.CONNECTED if connected else 2
        return tuple(v)

    def _encoder(self, v: list) -> tuple:
        return v[0], 2, 0, (1 << len(self.crtcs)) - 1, 0

    def _create_dumb(self, v: list) -> tuple:
        height, width, bpp = v[:3]
        handle, pitch = len(self.dumbs) + 1, width * bpp // 8 + self.pitch_extra
        self.dumbs[handle] = (width, height, pitch, mmap.mmap(-1, pitch * height))
        return height, width, bpp, 0, handle, pitch, pitch * height

    def _add_fb(self, v: list) -> tuple:
        fb = 100 + len(self.fbs)
        self.fbs[fb] = v[6]
        return (fb, *v[1:])

    def _map_dumb(self, v: list) -> tuple:
        return v[0], 0, v[0] << 12

    def _set_crtc(self, v: list) -> tuple:
        assert v[1] == 1 and v[7] == 1 and v[3] in self.fbs
        self.scanned[v[2]] = v[3]
        return tuple(v)

    def _flip(self, v: list) -> tuple:
        if self.pending is not None:
            raise OSError(errno.EBUSY, "Device or resource busy")
        self.pending = (v[0], v[1])
        return tuple(v)

    def _remove_fb(self, v: list) -> tuple:
        del self.fbs[v[0]]
        self.scanned = {crtc: fb for crtc, fb in self.scanned.items() if fb != v[0]}
        return tuple(v)

    def _destroy_dumb(self, v: list) -> tuple:
        self.dumbs.pop(v[0])[3].close()
        return tuple(v)
