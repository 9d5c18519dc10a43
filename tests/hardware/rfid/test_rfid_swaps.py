"""Lay, lift and swap sequences against the emulated chip with time modelled: the known-card check never misses
a swap and never confuses two cards.

The field stays on between polls; the card the last poll read is checked
first: an NTAG left selected is asked to READ the pages that hold its UID,
any other card is woken and selected again with its known UID. The cards keep their ISO 14443-3
states in the emulator: a card left in the field is halted and woken (or
left ACTIVE, an NTAG), a card lifted loses power and state, a card laid in
the field powers up IDLE after `Timing.power_up_us`. Cards here share what
can be shared (ATQA, the first cascade level, all but one byte; 7-byte ones
come as NTAGs and as cards with an NTAG's SAK whose pages do not hold it),
and hands act between polls or in the middle of one (after any SPI transfer
of it, so mid-exchange).
"""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from table.hardware.rfid.emulator import EmulatedCard, EmulatedChip, EmulatedNtag, Timing
from table.hardware.rfid.mfrc522 import FIELD_SETTLE_MS, Mfrc522

UIDS = ["04112233445566", "04112233445567", "04112233995566", "04A1B2C3", "04A1B2C4",
        "0102030405060708090A", "0102030405060708090B"]

CARDS = [(EmulatedCard, uid) for uid in UIDS] + [(EmulatedNtag, uid) for uid in UIDS if len(uid) == 14]

actions = st.lists(st.tuples(st.sampled_from(["lay", "lift", "swap"]), st.sampled_from(CARDS),
                             st.one_of(st.none(), st.integers(0, 60))), min_size=1, max_size=12)


class Pad:
    """An emulated chip with time modelled and our driver; a hand that acts after a given transfer of a poll."""

    def __init__(self) -> None:
        self.chip = EmulatedChip(timing=Timing(1_000_000, 25.0))
        self.card: EmulatedCard | None = None
        self.hand = None          # (transfers left before it acts, what it does)
        self.driver = Mfrc522(self._transfer, settle=self._settle)
        self.driver.probe()

    def act(self, kind: str, card: tuple[type, str]) -> None:
        if self.card is not None and kind in ("lift", "swap"):
            self.chip.lift(self.card)
            self.card = None
        if self.card is None and kind in ("lay", "swap"):
            made, uid = card
            self.card = made(uid)
            self.chip.place(self.card)

    def poll(self, during: tuple[int, str, str] | None = None) -> bytes | None:
        if during is not None:
            after, kind, card = during
            self.hand = [after, lambda: self.act(kind, card)]
        read = self.driver.poll()
        if self.hand is not None:   # the poll ended before the hand's turn: it acts now
            self.hand[1]()
            self.hand = None
        return read

    def wait(self) -> None:
        """Long enough for a card just laid to power up (players are slower than a millisecond)."""
        self.chip.now_us += self.chip.timing.power_up_us

    def _settle(self) -> None:
        self.chip.now_us += FIELD_SETTLE_MS * 1000

    def _transfer(self, data: bytes) -> bytes:
        answer = self.chip.transfer(data)
        if self.hand is not None:
            self.hand[0] -= 1
            if self.hand[0] < 0:
                act, self.hand = self.hand[1], None
                act()
        return answer


@settings(max_examples=300, deadline=None)
@given(actions)
def test_every_poll_after_a_change_reads_the_card_on_the_pad_and_a_poll_during_one_reads_one_of_them(steps):
    pad = Pad()
    for kind, card, at in steps:
        before = pad.card
        if at is None:
            pad.act(kind, card)
        else:                                        # the hand acts after transfer `at` of this poll
            read = pad.poll((at, kind, card))
            assert read in {None} | {card.uid for card in (before, pad.card) if card is not None}
        pad.wait()
        on_pad = None if pad.card is None else pad.card.uid
        assert [pad.poll(), pad.poll()] == [on_pad, on_pad]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(CARDS), st.sampled_from(CARDS))
def test_a_card_swapped_between_two_polls_is_read_at_the_next(old, new):
    pad = Pad()
    pad.act("lay", old)
    pad.wait()
    assert pad.poll() == bytes.fromhex(old[1])
    # left in the field: a 7-byte card with an NTAG's SAK selected (asked to READ its UID next), another halted
    assert pad.card.state == ("active" if pad.card.sak == 0 and len(pad.card.uid) == 7 else "halt")
    pad.act("swap", new)
    pad.wait()
    assert pad.card.state == "off" or pad.card.state == "idle"
    assert pad.poll() == bytes.fromhex(new[1])


def test_a_card_laid_in_the_field_answers_once_powered_up():
    pad = Pad()
    assert pad.poll() is None
    pad.act("lay", CARDS[-1])
    assert pad.poll() is None                        # not powered up yet: no answer
    pad.wait()
    assert pad.poll() == bytes.fromhex(CARDS[-1][1])
