"""Staff cards prove themselves (issue 18, item 7): the staff menu opens only for a card that answers the table's
password with its PACK, read through the real driver on emulated chips, through virtual readers, and over a seat
hub. A card with the same UID (a phone's copy, a fresh NTAG given the UID) is refused with a message, and so is
a staff card enrolled without protection, or laid on a pad whose reader cannot ask."""
from __future__ import annotations

import pytest

from table.events import ProofAsked, ProofGiven, Refused
from table.hardware.rfid.emulator import EmulatedCard, EmulatedNtag
from table.layout import load_layout
from table.sim.simulated_table import SimulatedTable
from table.storage.registry import Tag, TagRegistry, simulated_uid, staff_tag
from tests.session.staff_cards import genuine_staff_cards
from tests.session.desk import Desk, make_registry

STAFF = simulated_uid("None/staff-1")


def refusals(sim: SimulatedTable) -> list[str]:
    heard: list[str] = []
    sim.table.bus.subscribe(Refused, lambda event: heard.append(event.message))
    return heard


def lay(sim: SimulatedTable, pad: str) -> None:
    """A hand lays the tag of UID STAFF on `pad`, holds it until the table has acted on it, and lifts it."""
    sim.pads[pad].place(STAFF)
    sim._until(lambda: sim.on_pad.get(pad) == STAFF and sim.session.proving is None, "the tag seen")
    sim.lift(pad)


@pytest.mark.parametrize("emulate", [True, False], ids=["driver on emulated chips", "virtual readers"])
def test_the_tables_own_staff_card_opens_the_menu_and_a_same_uid_copy_is_refused(emulate):
    sim = SimulatedTable(load_layout("pi-4-seat"), emulate=emulate)
    heard = refusals(sim)
    centre = sim.table.layout.centre[0]
    sim.tap(centre, "staff-1")
    assert sim.session.table_view()["staff"]["page"] == "menu" and heard == []
    sim.tap(centre, "staff-1")                                        # closing needs no proof
    assert sim.session.table_view()["staff"] is None
    pad = sim.pads[centre]
    copies = [EmulatedCard(STAFF), EmulatedNtag(STAFF)] if emulate else [None]   # a plain tag, a fresh NTAG
    for copy in copies:                                                # given the UID; a virtual tag without keys
        if emulate:
            pad.tags[STAFF] = copy
        else:
            pad.keys.pop(STAFF)
        lay(sim, centre)
        assert sim.session.table_view()["staff"] is None
        assert heard[-1] == "staff_not_proven"
        assert sim.session.table_view()["message"]["key"] == "staff_not_proven"
    assert len(heard) == len(copies)


def test_a_card_protected_by_another_table_proves_nothing_here():
    desk = Desk()
    other = make_registry()                                           # another table: another secret
    password, pack = other.staff_key(STAFF)
    assert (password, pack) != desk.registry.staff_key(STAFF)
    desk.bus._subscribers[ProofAsked].clear()                         # the card holds the other table's password
    desk.bus.subscribe(ProofAsked, lambda asked: desk.bus.publish(
        ProofGiven(asked.pad, asked.uid, pack if asked.password == password else None)))
    assert [e.message for e in desk.staff()] == ["staff_not_proven"]
    assert desk.session.table_view()["staff"] is None


def test_a_staff_card_enrolled_without_protection_is_refused_and_says_how_to_protect_it():
    registry = TagRegistry()
    registry.enrol("04AA0000000001", staff_tag(1))
    desk = Desk(registry=registry)
    out = desk.place_uid(desk.pad(2), "04AA0000000001")
    assert [(e.seat, e.message) for e in out] == [(2, "staff_unprotected")]
    assert desk.session.table_view()["staff"] is None


def test_a_pad_whose_reader_cannot_ask_a_card_says_so():
    desk = Desk()
    desk.bus._subscribers[ProofAsked].clear()
    desk.bus.subscribe(ProofAsked, lambda asked: desk.bus.publish(ProofGiven(asked.pad, asked.uid, None, able=False)))
    assert [e.message for e in desk.staff()] == ["staff_pad_cannot_prove"]


def test_a_late_answer_for_a_card_no_longer_asked_changes_nothing():
    desk = Desk()
    desk.bus._subscribers[ProofAsked].clear()                         # nobody answers: the card was lifted at once
    assert desk.staff() == [] and desk.session.proving is not None
    pack = desk.registry.staff_key(STAFF)[1]
    assert desk._send(ProofGiven("seat1", STAFF, pack)) == []          # an answer from another pad
    assert desk.session.table_view()["staff"] is None
    assert desk._send(ProofGiven(desk.layout.centre[0], STAFF, pack)) == []
    assert desk.session.table_view()["staff"]["page"] == "menu"
    assert desk._send(ProofGiven(desk.layout.centre[0], STAFF, pack)) == []   # the same answer again: no-op
    assert desk.session.table_view()["staff"]["page"] == "menu"


def test_the_password_never_shows_in_an_event_repr():
    asked = ProofAsked("centre", STAFF, b"\x12\x34\x56\x78")
    assert "\\x12" not in repr(asked) and "password" not in repr(asked)
    assert "pack" not in repr(ProofGiven("centre", STAFF, b"\xc0\xde"))


def test_genuine_staff_cards_helper_checks_the_password():
    registry = make_registry()
    heard: list = []
    from table.events import EventBus
    bus = EventBus()
    genuine_staff_cards(bus, registry)
    bus.subscribe(ProofGiven, heard.append)
    bus.publish(ProofAsked("centre", STAFF, b"\x00\x00\x00\x00"))
    bus.publish(ProofAsked("centre", STAFF, registry.staff_key(STAFF)[0]))
    bus.dispatch()
    assert [e.pack for e in heard] == [None, registry.staff_key(STAFF)[1]]
    assert registry.lookup(STAFF) == Tag("staff", None, "staff-1")
