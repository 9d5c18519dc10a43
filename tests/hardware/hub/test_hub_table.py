"""A whole hub table from its layout: hubs-8-seat, four Picos (firmware on fakes, each on a real pty),
built by the same builder as on the Pi; the layout's wiring is pushed to each hub."""
from __future__ import annotations

import time

import pytest

from hub_fakes import MemoryStore
from hub_fakes.machine import Board
from hub_fakes.pads import Pads
from hub_fakes.pty_hub import PtyHub
from table.assets import deck_data
from table.hardware import build
from table.hardware.looks import LOOKS, rgb255
from table.hardware.ports import LightState
from table.hardware.rfid.emulator import EmulatedCard
from table.layout import layout_path, load_layout
from table.pipeline import Table
from table.storage.journal import Journal
from table.storage.registry import Tag, TagRegistry, enrol_simulated

SERIALS = ("E661410403000001", "E661410403000002", "E661410403000003", "E661410403000004")
WAIT_S = 15.0


@pytest.fixture
def hub_table(tmp_path, request):
    """hubs-8-seat with each hub's serial number filled in, its Picos plugged in (all four, or those of the
    test's `plugged` marker), and the table on them."""
    marker = request.node.get_closest_marker("plugged")
    plugged = marker.args if marker else ("hub1", "hub2", "hub3", "hub4")
    text = layout_path("hubs-8-seat").read_text()
    for n, serial in enumerate(SERIALS, 1):
        text = text.replace(f'name = "hub{n}"\n', f'name = "hub{n}"\nserial = "{serial}"\n')
    (tmp_path / "hubs.toml").write_text(text)
    layout = load_layout(tmp_path / "hubs.toml")
    boards, picos = {}, []
    for hub, serial in zip(layout.hubs, SERIALS):
        board = Board(uid=bytes.fromhex(serial))
        pads = Pads(board, [w.cs for w in layout.readers_on(hub.name)])
        boards[hub.name] = (board, pads)
        if hub.name in plugged:
            picos.append(PtyHub(board, pads, MemoryStore(), serial))
    registry = TagRegistry()
    enrol_simulated(registry, "feira-torio", [c["id"] for c in deck_data("feira-torio")["cards"]])
    table = Table(layout, build.real(layout, list_ports=lambda: [p.port_info for p in picos]), registry, Journal())
    yield layout, table, boards, registry
    table.close()
    for pico in picos:
        pico.unplug()


def until(table: Table, condition, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never saw {what}")
        table.step()
        time.sleep(0.005)


def test_seats_on_four_hubs_join_with_cards_start_with_a_hub_button_and_see_their_lights(hub_table):
    layout, table, boards, registry = hub_table
    reader_index = {w.pad: (w.board, i) for hub in layout.hubs for i, w in enumerate(layout.readers_on(hub.name))}
    for seat, card in ((1, "TA01"), (4, "VA02"), (7, "AB03")):     # on hub1, hub2 and hub4
        board_name, index = reader_index[layout.seats[seat - 1].pads[0]]
        boards[board_name][1].place(index, registry.uid_of(Tag("card", "feira-torio", card)))
    until(table, lambda: table.session.joined == [1, 4, 7], "seats 1, 4 and 7 join")
    seat7 = layout.seats[6]
    board, _ = boards[seat7.board]
    green = rgb255(LOOKS[LightState.LOCKED].colour)
    until(table, lambda: board.colour(seat7.light) == green, "seat 7's LED green on hub4")
    ok = dict(seat7.buttons)["ok"]
    board.levels[ok] = 0                                            # seat 7 presses OK on its hub
    until(table, lambda: table.session.state is not None, "the game starts")
    board.levels[ok] = 1
    assert table.session.players == (1, 4, 7) and table.session.players[table.session.state.dealer] == 7


@pytest.mark.plugged("hub1", "hub2", "hub4")
def test_a_hub_that_is_not_plugged_in_is_named_and_its_pads_fault_alone(hub_table):
    layout, table, boards, registry = hub_table
    until(table, lambda: all(table.hardware.hubs[name].ready for name in ("hub1", "hub2", "hub4")),
          "the three hubs plugged in ready")
    assert table.hardware.wait_for_hubs(0) == {"hub3": "no hub found"}
    hub3 = {w.pad for w in layout.readers_on("hub3")}
    until(table, lambda: set(table.faults.pads) == hub3, "the pads of hub3 alone at fault")   # the others retried
    assert table.faults.seats() == {5, 6}


def test_a_staff_card_proves_itself_through_its_hub_and_a_same_uid_copy_does_not(hub_table):
    """PROVE and PROVEN (protocol 2): the firmware asks the card with the shared driver; the host opens the staff
    menu on the card's PACK only."""
    from table.events import Refused
    from table.hardware.rfid.emulator import EmulatedNtag
    from table.storage.registry import staff_tag

    layout, table, boards, registry = hub_table
    reader_index = {w.pad: (w.board, i) for hub in layout.hubs for i, w in enumerate(layout.readers_on(hub.name))}
    board_name, index = reader_index[layout.centre[0]]
    chip = boards[board_name][1].chips[index]
    uid = registry.uid_of(staff_tag(1))
    refused: list[str] = []
    table.bus.subscribe(Refused, lambda event: refused.append(event.message))
    until(table, lambda: all(hub.ready for hub in table.hardware.hubs.values()), "every hub ready")
    for card, opens in ((EmulatedCard(uid), False), (EmulatedNtag(uid), False),
                        (EmulatedNtag(uid).given(*registry.staff_key(uid)), True)):
        chip.place(card)
        until(table, lambda: table.session.occupied.get(layout.centre[0]) == uid and table.session.proving is None,
              "the card seen and asked")
        chip.lift(card)
        until(table, lambda: layout.centre[0] not in table.session.occupied, "the card gone")
        assert (table.session.table_view()["staff"] is not None) == opens
    assert refused == ["staff_not_proven", "staff_not_proven"]


def test_a_hub_pad_protects_a_fresh_ntag_for_enrolment(hub_table):
    from table.hardware.rfid.emulator import EmulatedNtag
    from table.hardware.rfid.mfrc522 import FACTORY_PASSWORD

    layout, table, boards, registry = hub_table
    until(table, lambda: all(hub.ready for hub in table.hardware.hubs.values()), "every hub ready")
    hub = table.hardware.hubs["hub1"]
    pad = hub.pads[0]
    card = EmulatedNtag("04000000000042")
    boards["hub1"][1].chips[0].place(card)
    password, pack = bytes.fromhex("0A0B0C0D"), bytes.fromhex("BEEF")
    assert not pad.protect("04000000000043", password, pack, FACTORY_PASSWORD)   # another card's UID
    assert pad.protect("04000000000042", password, pack, FACTORY_PASSWORD)
    assert (card.password, card.pack) == (password, pack)
    assert pad.prove("04000000000042", password) == pack and pad.prove("04000000000042", FACTORY_PASSWORD) is None
