"""What a KMS card shows: the framebuffer on its first lit CRTC, read back through the kernel's DRM interface (run as
root inside the virtual machine, python3 alone): `kms_screen.py CARD OUT` writes OUT as the line "WIDTH HEIGHT"
and the pixels, XRGB8888 row after row (or says "no framebuffer" and exits 1). Only a process allowed to see other processes' buffers (CAP_SYS_ADMIN) gets the
framebuffer's handle; the buffer is then mapped as a dumb buffer, which virtio-gpu allows for its own objects.
"""
import ctypes
import fcntl
import mmap
import os
import struct
import sys


def iowr(number: int, size: int) -> int:
    """DRM_IOWR(number, size): the ioctl request of a DRM command that reads and writes a struct of `size` bytes."""
    return 3 << 30 | size << 16 | ord("d") << 8 | number


RESOURCES = "4Q8I"           # struct drm_mode_card_res
CRTC = "QIIIIIII68s"         # struct drm_mode_crtc (its mode as 68 bytes)
FRAMEBUFFER = "7I"           # struct drm_mode_fb_cmd: fb_id, width, height, pitch, bpp, depth, handle
MAP_DUMB = "IIQ"             # struct drm_mode_map_dumb: handle, pad, offset
GET_RESOURCES, GET_CRTC, GET_FB, MAP = (iowr(0xA0, struct.calcsize(RESOURCES)), iowr(0xA1, struct.calcsize(CRTC)),
                                        iowr(0xAD, struct.calcsize(FRAMEBUFFER)), iowr(0xB3, struct.calcsize(MAP_DUMB)))


def ask(card: int, request: int, layout: str, *values) -> tuple:
    """The struct `layout` of `values` after the ioctl `request` on `card` filled it in."""
    buffer = bytearray(struct.pack(layout, *values))
    fcntl.ioctl(card, request, buffer)
    return struct.unpack(layout, buffer)


def crtcs(card: int) -> list[int]:
    """The card's CRTC ids."""
    count = ask(card, GET_RESOURCES, RESOURCES, *[0] * 12)[5]
    ids = bytearray(4 * count)
    address = ctypes.addressof(ctypes.c_char.from_buffer(ids))
    ask(card, GET_RESOURCES, RESOURCES, 0, address, 0, 0, 0, count, *[0] * 6)
    return list(struct.unpack(f"{count}I", ids))


def screen(path: str) -> tuple[int, int, bytes] | None:
    """(width, height, XRGB8888 pixels) of the framebuffer a CRTC of the card at `path` scans out, or None."""
    card = os.open(path, os.O_RDWR)
    try:
        for crtc in crtcs(card):
            fb = ask(card, GET_CRTC, CRTC, 0, 0, crtc, 0, 0, 0, 0, 0, b"")[3]
            if not fb:
                continue
            _, width, height, pitch, bpp, _, handle = ask(card, GET_FB, FRAMEBUFFER, fb, 0, 0, 0, 0, 0, 0)
            if bpp != 32 or not handle:
                continue
            offset = ask(card, MAP, MAP_DUMB, handle, 0, 0)[2]
            with mmap.mmap(card, pitch * height, mmap.MAP_SHARED, mmap.PROT_READ, offset=offset) as pixels:
                return width, height, b"".join(pixels[y * pitch:y * pitch + 4 * width] for y in range(height))
        return None
    finally:
        os.close(card)


if __name__ == "__main__":
    shown = screen(sys.argv[1])
    if shown is None:
        print("no framebuffer")
        sys.exit(1)
    width, height, pixels = shown
    with open(sys.argv[2], "wb") as out:
        out.write(b"%d %d\n" % (width, height) + pixels)
    print(f"screen read back: {width}x{height}")
