"""What a KMS card shows: the framebuffer on its first lit CRTC, read back through the kernel's DRM interface with
the table's own (table/screen/kms.py), run as root inside the virtual machine by the table's Python:
`kms_screen.py CARD OUT` writes OUT as the line "WIDTH HEIGHT" and the pixels, XRGB8888 row after row (or says "no
framebuffer" and exits 1). Only a process allowed to see other processes' buffers (CAP_SYS_ADMIN) gets the
framebuffer's handle; the buffer is then mapped as a dumb buffer, which virtio-gpu allows for its own objects.
"""
import sys

from table.screen.kms import CRTC, FB, MAP_DUMB, REQUESTS, Card, iowr


class ReadCard(Card):
    """The card with the two ioctls that read what a CRTC scans out."""

    requests = {**REQUESTS, "crtc": iowr(0xA1, CRTC), "framebuffer": iowr(0xAD, FB)}


def screen(path: str) -> tuple[int, int, bytes] | None:
    """(width, height, XRGB8888 pixels) of the framebuffer a CRTC of the card at `path` scans out, or None."""
    card = ReadCard(path)
    try:
        for crtc in card.resources(5, 1):
            fb = card.ask("crtc", CRTC, 0, 0, crtc, 0, 0, 0, 0, 0, b"")[3]
            if not fb:
                continue
            _, width, height, pitch, bpp, _, handle = card.ask("framebuffer", FB, fb, 0, 0, 0, 0, 0, 0)
            if bpp != 32 or not handle:
                continue
            with card.map(card.ask("map_dumb", MAP_DUMB, handle, 0, 0)[2], pitch * height) as pixels:
                return width, height, b"".join(pixels[y * pitch:y * pitch + 4 * width] for y in range(height))
        return None
    finally:
        card.close()


if __name__ == "__main__":
    shown = screen(sys.argv[1])
    if shown is None:
        print("no framebuffer")
        sys.exit(1)
    width, height, pixels = shown
    with open(sys.argv[2], "wb") as out:
        out.write(b"%d %d\n" % (width, height) + pixels)
    print(f"screen read back: {width}x{height}")
