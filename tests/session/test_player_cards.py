"""Player cards at the table: in the lobby a regular's card names the seat it is laid at (joining it first),
journaled and restored, and in the public state (replay --json, live.json); the finished game's result, history row and outbox body carry the players; during a
game a player card is refused in words."""
from __future__ import annotations

import random

from table.events import Accepted, CardPlaced, CardRemoved, Refused
from table.layout import load_layout
from table.registry import GAMES
from table.session.replay import public_state
from table.session.table_session import TableSession
from table.sim.simulated_table import SimulatedTable
from table.storage.files import TableFiles
from table.storage.journal import Journal
from table.storage.registry import TagRegistry, player_tag
from tests.session.test_lobby import Lobby

ALICE, BOB = "p-00000000a11c", "p-000000000b0b"


def with_players(journal: Journal | None = None) -> Lobby:
    lobby = Lobby(journal=journal)
    lobby.registry.enrol("04A11CE0000001", player_tag(ALICE), "Alice")
    lobby.registry.enrol("04B0B000000002", player_tag(BOB), "Bob")
    return lobby


def lay(lobby: Lobby, seat: int, uid: str) -> list:
    return lobby.send(CardPlaced(f"seat{seat}", uid), CardRemoved(f"seat{seat}", uid))


def what(events: list) -> list[tuple[str, str]]:
    return [(type(e).__name__, getattr(e, "what", None) or getattr(e, "message", None)) for e in events]


def test_a_player_card_joins_its_seat_names_it_and_moves_with_its_player():
    lobby = with_players()
    assert what(lay(lobby, 2, "04A11CE0000001")) == [("Accepted", "join"), ("Accepted", "player")]
    assert lobby.session.joined == [2] and lobby.session.table_view()["names"] == {"2": "Alice"}
    assert lay(lobby, 2, "04A11CE0000001") == []                       # read again: nothing
    lobby.tap(4, "feira-torio", "TA01")
    assert what(lay(lobby, 4, "04A11CE0000001")) == [("Accepted", "player")]   # Alice moved to seat 4
    assert lobby.session.table_view()["names"] == {"4": "Alice"}
    lay(lobby, 2, "04B0B000000002")
    assert lobby.session.table_view()["names"] == {"2": "Bob", "4": "Alice"} and lobby.session.joined == [2, 4]
    assert public_state(lobby.session)["names"] == {"2": {"id": BOB, "name": "Bob"}, "4": {"id": ALICE, "name": "Alice"}}


def test_player_entries_are_restored_and_checked(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite")
    lobby = with_players(journal)
    lay(lobby, 1, "04A11CE0000001")
    lay(lobby, 3, "04B0B000000002")
    again = TableSession(lobby.layout, lobby.registry, journal, lobby.bus)
    assert again.names == {1: (ALICE, "Alice", "04A11CE0000001"), 3: (BOB, "Bob", "04B0B000000002")}
    entries = [(kind, data) for _, kind, data in journal.entries()]
    assert ("player", {"seat": 3, "player": BOB, "name": "Bob", "card": "04B0B000000002"}) in entries


def test_a_finished_game_carries_its_players_to_the_history_and_the_outbox(tmp_path):
    files = TableFiles(tmp_path / "cardtable" / "journal.sqlite")
    sim = SimulatedTable(load_layout("sim-6-single"), files.journal, game="feira-torio", seed=5)
    sim.registry.enrol("04A11CE0000001", player_tag(ALICE), "Alice")
    bots = GAMES["feira-torio"].bots.Players(sim, [1, 2, 3], random.Random(5))
    for seat in (1, 2, 3):
        bots.world.join(seat)
    sim.tap("seat2", ALICE)                                   # seat 2 is Alice; seats 1 and 3 are guests
    bots.world.press(1, "ok")
    assert public_state(sim.session)["names"] == {"2": {"id": ALICE, "name": "Alice"}}   # live.json's, for the hall
    bots.play()
    sim.press(2, "ok")
    [row] = files.journal.history.games()
    assert row["players"] == {"2": {"id": ALICE, "name": "Alice", "card": "04A11CE0000001"}}
    [(_, _, body)] = files.journal.history.outbox()
    assert body["players"] == row["players"]
    sim.close()


def test_a_player_card_during_a_game_is_refused_in_words_and_changes_nothing():
    lobby = with_players()
    for seat in (1, 2, 3):
        lobby.tap(seat, "feira-torio", "TA01")
    lobby.press(1, "ok")
    assert lobby.session.state is not None
    before = lobby.session.table_view()
    assert what(lay(lobby, 2, "04A11CE0000001")) == [("Refused", "player_card_in_game")]
    assert {k: v for k, v in lobby.session.table_view().items() if k != "message"} == {
        k: v for k, v in before.items() if k != "message"}
    assert isinstance(lobby.heard[-1], Refused) and not any(isinstance(e, Accepted) for e in lobby.heard[-1:])


def test_a_hall_card_gone_between_its_lookup_and_its_name_is_refused_and_changes_nothing():
    """players.json rewritten by the link between the card's lookup and its name: an unknown card, no join."""
    class Vanishing:   # the hall's cards as they are read at each call
        def lookup(self, uid):
            return player_tag(ALICE)

        def players(self):
            return {}

        def uid_of(self, pid):
            return None

    lobby = Lobby()
    lobby.session.registry = TagRegistry(hall=Vanishing())
    assert what(lay(lobby, 2, "04A11CE0000001")) == [("Refused", "unknown_tag")]
    assert lobby.session.joined == [] and lobby.session.names == {}
