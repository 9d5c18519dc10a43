"""The table's own KMS screen (table/screen/kms.py) on an emulated card: the connected connector at the mode
forced on the kernel's command line or its preferred one, the page copied into the buffer not shown and flipped
onto the screen at the next vertical blank."""
from __future__ import annotations

import struct

import pytest

from table.screen.kms import MODE, USERDEF, KmsError, KmsScreen
from tests.screen.kms_card import EmulatedCard, mode

HD, PANEL = mode(1920, 1080, preferred=True), mode(1280, 800)


def screen(card: EmulatedCard) -> KmsScreen:
    return KmsScreen("/dev/dri/card1", lambda path: card)


def painted(kms: KmsScreen, colour) -> bytes:
    kms.surface.fill(colour)
    kms.surface.fill((255, 255, 255), (10, 20, 3, 4))
    return bytes(memoryview(kms.surface.get_buffer()).cast("B"))


@pytest.mark.parametrize("pitch_extra", [0, 256])   # a card whose rows are longer than the screen's
def test_the_page_shows_at_the_next_vertical_blank_on_the_connected_connectors_preferred_mode(pitch_extra):
    card = EmulatedCard({31: (False, [HD], 21), 32: (True, [PANEL, HD], 22)}, pitch_extra=pitch_extra)
    kms = screen(card)
    assert kms.size == (1920, 1080) and kms.connector == 32 and kms.crtc == 41
    first = painted(kms, (200, 30, 30))
    kms.show()
    assert card.on_screen(41) != first            # flipped at the next vertical blank, not before
    card.vblank()
    assert card.on_screen(41) == first
    second = painted(kms, (30, 30, 200))
    kms.show()
    card.vblank()
    assert card.on_screen(41) == second and second != first


def test_a_mode_forced_on_the_kernels_command_line_wins_over_the_screens_preferred_one():
    card = EmulatedCard({32: (True, [mode(3840, 2160, preferred=True), HD, mode(1920, 1080, forced=True)], 22)})
    kms = screen(card)
    assert kms.size == (1920, 1080) and struct.unpack(MODE, kms.mode.info)[13] & USERDEF


def test_a_frame_while_a_flip_is_pending_is_skipped_and_the_next_shows():
    card = EmulatedCard({32: (True, [PANEL], 22)})
    kms = screen(card)
    first = painted(kms, (200, 30, 30))
    kms.show()
    painted(kms, (30, 200, 30))
    kms.show()                                     # the kernel says EBUSY: skipped
    card.vblank()
    assert card.on_screen(41) == first
    third = painted(kms, (30, 30, 200))
    kms.show()
    card.vblank()
    assert card.on_screen(41) == third


def test_no_screen_connected_is_an_error_that_closes_the_card():
    card = EmulatedCard({31: (False, [HD], 21)})
    with pytest.raises(KmsError, match="no screen is connected"):
        screen(card)
    assert card.closed


def test_closing_frees_the_buffers_and_the_card():
    card = EmulatedCard({32: (True, [PANEL], 0)})   # no encoder yet: the first CRTC
    kms = screen(card)
    assert kms.crtc == 41 and len(card.dumbs) == 2
    kms.close()
    assert card.dumbs == {} and card.fbs == {} and card.closed


def test_the_surface_is_the_screens_size_in_the_cards_pixel_layout():
    kms = screen(EmulatedCard({32: (True, [PANEL], 22)}))
    assert kms.surface.get_size() == (1280, 800) and kms.surface.get_bitsize() == 32
    kms.surface.fill((1, 2, 3))
    assert bytes(memoryview(kms.surface.get_buffer()).cast("B")[:4])[:3] == bytes((3, 2, 1))   # XRGB8888
