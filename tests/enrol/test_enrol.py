"""Enrolment: a whole deck tagged through virtual readers, poller and presence; refusals, skips, re-tags, resume."""
from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.enrol import BlankTags, Enrolment, Station
from table.enrol.screen import EnrolScreen
from table.events import CardPlaced, CardRemoved
from table.hardware.simulated import Noise, VirtualReader
from table.storage.registry import Tag, TagRegistry, staff_tag
from storage.test_registry import CARDS, DECK, card, uid


def rows(path) -> tuple[list, list]:
    """Every row of the registry file (live tags, retired tags), read with plain SQL."""
    with closing(sqlite3.connect(path)) as db:
        return (sorted(db.execute("SELECT * FROM tags")),
                sorted(db.execute("SELECT uid, kind, deck, card FROM retired")))


class Hand:
    """Someone at the station: lays a tag on the pad until the station has seen it, and lifts it."""

    def __init__(self, station: Station, reader: VirtualReader) -> None:
        self.station, self.reader = station, reader
        self.seen: str | None = None     # the tag the station sees on its pad
        station.bus.subscribe(CardPlaced, lambda event: setattr(self, "seen", event.uid))
        station.bus.subscribe(CardRemoved, lambda event: setattr(self, "seen", None))

    def tap(self, tag_uid: str):
        """Place a tag, wait for the station's outcome, lift it and wait until the pad is seen empty."""
        before = self.station.enrolment.last
        self.reader.place(tag_uid)
        self._until(lambda: self.station.enrolment.last is not before)
        outcome = self.station.enrolment.last
        self.reader.lift()
        self._until(lambda: self.seen is None)
        return outcome

    def _until(self, done) -> None:
        for _ in range(100):
            if done():
                return
            self.station.step()
        raise TimeoutError("the station never saw it")


@pytest.fixture
def path(tmp_path):
    return tmp_path / "registry.sqlite"


def station(registry: TagRegistry, noise: Noise = Noise(), **options) -> tuple[Enrolment, Hand]:
    enrolment = Enrolment(registry, DECK, **options)
    reader = VirtualReader("station", noise)
    st = Station(enrolment, [reader])
    return enrolment, Hand(st, reader)


def test_a_whole_deck_is_tagged_in_deck_order_through_noisy_readers(path):
    registry = TagRegistry(path)
    enrolment, hand = station(registry, Noise(miss=0.1, flap=0.02, repeat=0.1), staff=2)
    assert [t.card for t in enrolment.targets] == [*CARDS, "staff-1", "staff-2"]
    for i, target in enumerate(enrolment.targets):
        assert enrolment.target == target and enrolment.done == i and not enrolment.complete
        outcome = hand.tap(uid(i + 1))
        assert (outcome.accepted, outcome.key, outcome.uid, outcome.tag) == (True, "enrol_accepted", uid(i + 1), target)
    assert enrolment.complete and enrolment.done == 42
    assert registry.cards(DECK) == {c: uid(i + 1) for i, c in enumerate(CARDS)}
    assert registry.lookup(uid(41)) == staff_tag(1)
    registry.close()
    assert len(rows(path)[0]) == 42


def test_progress_comes_from_the_registry_so_an_interrupted_enrolment_resumes(path):
    registry = TagRegistry(path)
    enrolment, hand = station(registry)
    for i in range(15):
        hand.tap(uid(i + 1))
    enrolment.back()                                     # the cursor is not progress
    registry.close()                                     # the power goes off
    registry = TagRegistry(path)
    resumed, hand = station(registry)
    assert resumed.done == 15 and resumed.target == card(CARDS[15]) and resumed.last is None
    assert hand.tap(uid(16)).tag == card(CARDS[15])
    other = Enrolment(registry, DECK)                    # a second station on the same registry agrees
    assert other.done == 16 and other.target == card(CARDS[16])


def refused(enrolment: Enrolment, hand: Hand, path, tag_uid: str, key: str, tag: Tag | None):
    before = rows(path)
    cursor, retagging = enrolment.cursor, enrolment.retagging
    outcome = hand.tap(tag_uid)
    assert (outcome.accepted, outcome.key, outcome.tag) == (False, key, tag)
    assert rows(path) == before
    assert (enrolment.cursor, enrolment.retagging) == (cursor, retagging)


def test_refused_tags_change_nothing(path):
    registry = TagRegistry(path)
    registry.enrol("0A0B0C0D", Tag("card", "other-game", "X01"))
    registry.enrol("0E0E0E0E", staff_tag(1))             # a staff card of before: no NTAG, so never protected
    registry.enrol(uid(60), staff_tag(2))
    registry.mark_protected(uid(60))
    enrolment, hand = station(registry)
    for i in range(3):
        hand.tap(uid(i + 1))
    refused(enrolment, hand, path, uid(2), "enrol_tag_taken", card("TA02"))
    refused(enrolment, hand, path, "0a0b0c0d", "enrol_tag_other_deck", Tag("card", "other-game", "X01"))
    refused(enrolment, hand, path, "0E0E0E0E", "enrol_staff_not_protected", staff_tag(1))
    refused(enrolment, hand, path, uid(60), "enrol_tag_taken", staff_tag(2))
    enrolment.back()                                     # TA03 has a tag: a new one is refused outside re-tag mode
    refused(enrolment, hand, path, uid(50), "enrol_card_has_tag", card("TA03"))
    assert registry.lookup(uid(50)) is None
    registry.retag(card("TA01"), uid(51))
    refused(enrolment, hand, path, uid(1), "enrol_tag_retired", card("TA01"))


def test_skip_and_back_leave_a_card_for_later(path):
    registry = TagRegistry(path)
    enrolment, hand = station(registry)
    enrolment.next()                                     # skip TA01
    assert hand.tap(uid(1)).tag == card("TA02")
    enrolment.back()
    enrolment.back()
    assert enrolment.target == card("TA01")
    enrolment.back()                                     # before the first: the last
    assert enrolment.target == card("FO10")
    enrolment.next()
    enrolment.next()
    assert enrolment.target == card("TA02")
    enrolment.pick(5)
    assert hand.tap(uid(2)).tag == card("TA06")
    assert enrolment.target == card("TA07")              # the next card without a tag after the one tagged
    for i in range(3, 41):                               # TA07 to FO10, then the skipped TA01, TA03, TA04, TA05
        hand.tap(uid(i))
    assert [registry.uid_of(card(c)) for c in ("TA07", "FO10", "TA01", "TA03", "TA05")] == [
        uid(3), uid(36), uid(37), uid(38), uid(40)]
    assert enrolment.complete
    refused(enrolment, hand, path, uid(99), "enrol_deck_complete", enrolment.target)
    with pytest.raises(IndexError):
        enrolment.pick(40)


def test_retag_one_lost_card_from_the_command_line(path):
    registry = TagRegistry(path)
    enrolment, hand = station(registry)
    for i in range(10):
        hand.tap(uid(i + 1))
    enrolment.retag("TA04")
    assert enrolment.target == card("TA04") and enrolment.retagging
    refused(enrolment, hand, path, uid(4), "enrol_tag_taken", card("TA04"))   # its own tag: not lost after all
    outcome = hand.tap(uid(70))
    assert (outcome.accepted, outcome.key, outcome.tag) == (True, "enrol_retagged", card("TA04"))
    assert registry.uid_of(card("TA04")) == uid(70) and registry.lookup(uid(4)) is None
    assert (uid(4), "card", DECK, "TA04") in rows(path)[1]
    assert not enrolment.retagging and enrolment.target == card(CARDS[10])   # one card only, then back to tagging
    refused(enrolment, hand, path, uid(4), "enrol_tag_retired", card("TA04"))  # the lost tag, found again
    assert enrolment.done == 10
    with pytest.raises(ValueError, match="no tag yet"):
        enrolment.retag("FO10")
    with pytest.raises(ValueError, match="not a card"):
        enrolment.retag("ZZ99")


def test_retag_by_buttons_and_cancel(path):
    registry = TagRegistry(path)
    enrolment, hand = station(registry)
    for i in range(40):
        hand.tap(uid(i + 1))
    enrolment.toggle_retag()
    enrolment.toggle_retag()                             # cancelled: still refused
    refused(enrolment, hand, path, uid(80), "enrol_deck_complete", enrolment.target)
    enrolment.pick(CARDS.index("VA07"))
    enrolment.toggle_retag()
    assert hand.tap(uid(80)).key == "enrol_retagged"
    assert registry.uid_of(card("VA07")) == uid(80) and registry.retired(uid(17)) == card("VA07")
    assert enrolment.complete and not enrolment.retagging


def test_staff_cards_alone(path):
    registry = TagRegistry(path)
    enrolment = Enrolment(registry, staff=2)
    assert enrolment.targets == (staff_tag(1), staff_tag(2))
    reader = VirtualReader("station")
    hand = Hand(Station(enrolment, [reader]), reader)
    hand.tap(uid(1))
    enrolment.retag("staff-1")
    hand.tap(uid(2))
    assert registry.uid_of(staff_tag(1)) == uid(2) and registry.retired(uid(1)) == staff_tag(1)
    assert enrolment.target == staff_tag(2)


def test_a_players_card_is_tagged_for_a_new_player_then_retagged_by_name_to_the_same_player(path):
    registry = TagRegistry(path)
    enrolment = Enrolment(registry, player="Alice")
    (target,) = enrolment.targets
    assert target.kind == "player" and enrolment.player_name(target.card) == "Alice"
    reader = VirtualReader("station")
    hand = Hand(Station(enrolment, [reader]), reader)
    assert hand.tap(uid(1)).key == "enrol_accepted"
    assert registry.players() == {target.card: "Alice"} and enrolment.complete
    again = Enrolment(registry, player="Alice")           # the same player: the card is there, and can be replaced
    assert again.targets == (target,) and again.complete
    again.retag("Alice")
    hand = Hand(Station(again, [reader]), reader)
    assert hand.tap(uid(1)).key == "enrol_tag_taken"
    assert hand.tap(uid(2)).key == "enrol_retagged"
    assert registry.lookup(uid(2)) == target and registry.retired(uid(1)) == target
    assert registry.players() == {target.card: "Alice"}
    screen = EnrolScreen("en")
    screen.render(again)
    assert screen.outcome_text(again) == "Tag replaced: Alice's card. The old tag is retired."


@pytest.mark.parametrize("name", ["", " Alice", "A" * 25, "Bob \U0001F600", "\u4e2d\u6587", "\u0645\u0631\u062d\u0628\u0627"])
def test_a_player_card_for_a_name_that_cannot_be_shown_is_refused(name):
    """Empty, spaced, too long, or letters the screen's font has no glyph for or cannot lay out left to right."""
    with pytest.raises(ValueError, match="player's name"):
        Enrolment(TagRegistry(), player=name)


def test_a_players_name_typed_with_a_combining_accent_is_kept_composed():
    assert Enrolment(TagRegistry(), player="Che\u0301rie").player[1] == "Ch\u00e9rie"


@pytest.mark.parametrize("deck, staff, error", [("no-such-deck", 0, "no deck"), (None, 0, "nothing to enrol"),
                                                (DECK, -1, "negative")])
def test_bad_options_are_refused(deck, staff, error):
    with pytest.raises(ValueError, match=error):
        Enrolment(TagRegistry(), deck, staff)


def test_a_deaf_reader_is_shown_and_changes_nothing(path):
    registry = TagRegistry(path)
    enrolment = Enrolment(registry, DECK)
    deaf = VirtualReader("station")
    deaf.broken = True
    Station(enrolment, [deaf]).step()
    assert (enrolment.last.accepted, enrolment.last.key) == (False, "enrol_reader_fault")
    assert rows(path) == ([], [])


def test_blank_tags_are_new_to_the_registry_and_can_come_back(path):
    registry = TagRegistry(path)
    registry.enrol(uid(1), card("TA01"))
    registry.retag(card("TA01"), uid(2))
    blanks = BlankTags(registry)
    enrolment = Enrolment(registry, DECK)
    st = Station(enrolment, [blanks.reader])
    st.bus.subscribe(CardRemoved, blanks.removed)
    first = blanks.new()
    assert first == uid(3) and blanks.reader.card == first
    for _ in range(3):
        st.step()
    assert enrolment.last.key == "enrol_accepted" and registry.lookup(first) == card("TA02")
    blanks.again()                                       # still on the pad: lifted, then put back once seen gone
    assert blanks.reader.card is None
    for _ in range(10):
        st.step()
    assert blanks.reader.card == first and enrolment.last.key == "enrol_tag_taken"
    blanks.lift()
    assert blanks.reader.card is None and blanks.new() == uid(4)


ACTS = st.one_of(st.tuples(st.just("place"), st.integers(1, 50)), st.tuples(st.just("retag_mode"), st.none()),
                 st.tuples(st.just("next"), st.none()), st.tuples(st.just("back"), st.none()),
                 st.tuples(st.just("pick"), st.integers(0, 41)))


@settings(max_examples=60, deadline=None)
@given(st.lists(ACTS, max_size=120))
def test_any_sequence_keeps_one_tag_per_card_and_refusals_change_nothing(acts):
    registry = TagRegistry()
    enrolment = Enrolment(registry, DECK, staff=2)
    retired: set[str] = set()
    for act, arg in acts:
        if act == "place":
            before = (dict(registry.cards(DECK)), enrolment.done, enrolment.cursor, enrolment.retagging)
            target, old = enrolment.target, enrolment.uid_of(enrolment.target)
            outcome = enrolment.place(uid(arg))
            if outcome.accepted:
                assert outcome.tag == target and registry.uid_of(target) == uid(arg)
                assert uid(arg) not in retired and (old is None) == (outcome.key == "enrol_accepted")
                if old:
                    retired.add(old)
                    assert registry.retired(old) == target and registry.lookup(old) is None
            else:
                assert before == (registry.cards(DECK), enrolment.done, enrolment.cursor, enrolment.retagging)
        elif act == "retag_mode":
            enrolment.toggle_retag()
        elif act == "pick":
            enrolment.pick(arg)
        else:
            getattr(enrolment, act)()
    live = [registry.uid_of(t) for t in enrolment.targets if registry.uid_of(t)]
    assert len(live) == len(set(live)) == enrolment.done
    assert not retired & set(live)
    assert all(registry.lookup(u) is None for u in retired)


def test_the_station_on_table_hardware_enrols_a_tag_laid_on_a_centre_pad_and_a_seat_button_skips(path):
    from argparse import Namespace

    from table.enrol.command import run_enrol
    from table.hardware import build
    from table.hardware.lights import press
    from table.layout import load_layout

    layout = load_layout("pi-4-seat")

    def hardware(bus):
        built = build.emulated(layout)(bus)
        press(built.factories["pi"], dict(layout.seats[0].buttons)["next"])   # TA01 skipped: TA02 is next
        build.ChipPad(built.chips["centre"]).place(uid(7))
        return built

    args = Namespace(registry=path, deck=DECK, staff=0, player=None, retag=None, lang="fr", frames=20,
                     fullscreen=False, export=None, import_=None)
    assert run_enrol(args, hardware, layout.centre) == 0
    registry = TagRegistry(path)
    assert registry.lookup(uid(7)) == card("TA02") and registry.uid_of(card("TA01")) is None


class SpiStation:
    """An enrolment station whose pad is our driver on an emulated MFRC522 (an SpiReader on an emulated board)."""

    def __init__(self, enrolment: Enrolment) -> None:
        from gpiozero.pins.mock import MockFactory

        from table.hardware.rfid.emulator import EmulatedChip, SpiBoard
        from table.hardware.rfid.spi import SpiReader
        self.factory = MockFactory()
        self.chip = EmulatedChip()
        board = SpiBoard()
        board.wire(self.chip, 0, 0)
        self.reader = SpiReader("station", 0, 0, spi=board.spidev.SpiDev(), pin_factory=self.factory,
                                settle=lambda: None)
        self.station = Station(enrolment, [self.reader])

    def tap(self, tag):
        """Lay an emulated tag on the pad until the enrolment has an outcome, then lift it."""
        before = self.station.enrolment.last
        self.chip.place(tag)
        for _ in range(100):
            if self.station.enrolment.last is not before:
                break
            self.station.step()
        self.chip.lift(tag)
        for _ in range(10):
            self.station.step()
        return self.station.enrolment.last

    def close(self) -> None:
        self.reader.close()
        self.factory.reset()


def test_a_staff_card_is_protected_as_it_is_enrolled_and_then_opens_the_staff_menu_of_its_table_only(path):
    """Through our driver: a blank NTAG213 becomes staff-2, holding the password only this registry derives; laid
    on an emulated table of that registry it opens the staff menu; a plain tag for staff-1 is refused."""
    from table.hardware.rfid.emulator import EmulatedCard, EmulatedNtag
    from table.layout import load_layout
    from table.sim.simulated_table import SimulatedTable

    registry = TagRegistry(path)
    enrolment = Enrolment(registry, staff=2)
    pad = SpiStation(enrolment)
    try:
        outcome = pad.tap(EmulatedCard("0C0FFEE0"))                           # a MIFARE Classic takes no password
        assert (outcome.accepted, outcome.key) == (False, "enrol_staff_not_protected")
        assert registry.uid_of(staff_tag(1)) is None
        enrolment.next()
        card = EmulatedNtag("04DDEEFF001122", "215")
        outcome = pad.tap(card)
        assert (outcome.accepted, outcome.key, outcome.tag) == (True, "enrol_accepted", staff_tag(2))
        assert registry.protected("04DDEEFF001122")
        assert (card.password, card.pack) == registry.staff_key("04DDEEFF001122") and card.pages[card.cfg][3] == 4
    finally:
        pad.close()
    sim = SimulatedTable(load_layout("pi-4-seat"), registry=registry, emulate=True)
    try:
        centre = sim.table.layout.centre[0]
        sim.pads[centre].tags["04DDEEFF001122"] = card
        sim.tap(centre, "staff-2")
        assert sim.session.table_view()["staff"]["page"] == "menu"
    finally:
        sim.close()


def test_a_staff_card_enrolled_before_protection_is_protected_when_placed_again(path):
    from table.hardware.rfid.emulator import EmulatedNtag
    registry = TagRegistry(path)
    registry.enrol("04AB0000000001", staff_tag(1))                            # enrolled by an older table
    card = EmulatedNtag("04AB0000000001")
    pad = SpiStation(Enrolment(registry, staff=1))
    try:
        outcome = pad.tap(card)
        assert (outcome.accepted, outcome.key, outcome.tag) == (True, "enrol_staff_protected", staff_tag(1))
        assert registry.protected("04AB0000000001") and card.password == registry.staff_key("04AB0000000001")[0]
    finally:
        pad.close()


def test_an_enrolment_cut_between_the_card_and_the_registry_protects_it_again_with_its_own_password(path):
    """The card took the password but the registry never recorded it: placed again, the station opens it with the
    table's password (the factory's no longer works) and records it."""
    from table.hardware.rfid.emulator import EmulatedNtag
    registry = TagRegistry(path)
    registry.enrol("04AB0000000002", staff_tag(1))
    card = EmulatedNtag("04AB0000000002").given(*registry.staff_key("04AB0000000002"))
    pad = SpiStation(Enrolment(registry, staff=1))
    try:
        assert pad.tap(card).key == "enrol_staff_protected" and registry.protected("04AB0000000002")
    finally:
        pad.close()


def test_without_a_reader_that_writes_passwords_no_staff_card_is_bound(path):
    registry = TagRegistry(path)
    enrolment = Enrolment(registry, staff=1)
    outcome = enrolment.place(uid(7))
    assert (outcome.accepted, outcome.key) == (False, "enrol_staff_not_protected")
    assert registry.uid_of(staff_tag(1)) is None and rows(path) == ([], [])
