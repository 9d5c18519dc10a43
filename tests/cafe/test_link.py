"""The café link on Debian's real Mosquitto: finished games reach the hall once each and leave the outbox, through
a link down, a broker killed, a link killed; the ACL keeps each table to its own topics."""
from __future__ import annotations

import hashlib
import json
import random
import socket
import sqlite3
import threading
import time
from dataclasses import replace

import pytest

from table.cafe.hall import Hall
from table.cafe.link import Link
from table.cafe.mqtt import HALL_USER, PLAYERS, Broker, client, digest, start, topic
from table.layout import load_layout
from table.registry import GAMES
from table.sim.simulated_table import SimulatedTable
from table.storage import connect
from table.storage.files import TableFiles
from table.storage.hall_cards import hall_cards, hall_cards_file, write_hall_cards
from table.storage.history import History
from table.storage.outbox import LIVE, acked, link_file
from table.storage.registry import Tag, TagRegistry, player_tag
from tests.cafe.broker import HOST, TABLES, Proxy, until
from tests.storage.test_outbox import played
from tests.test_cli_errors import assert_refused, cardtable

@pytest.fixture
def proxy(broker):
    """A TCP proxy to the broker that cuts connections when asked."""
    cutter = Proxy(broker.port)
    yield cutter
    cutter.close()


@pytest.fixture
def the_hall(broker, tmp_path):
    broker.hall(tmp_path / "hall").start()
    return tmp_path / "hall" / "hall.sqlite"


def read_hall(path, query: str, *args) -> list[tuple]:
    """The rows of `query` in the hall's file, read-only (none while the hall has not made it yet)."""
    if not path.exists():
        return []
    db = connect(path, read_only=True)
    try:
        return db.execute(query, args).fetchall()
    except sqlite3.OperationalError:   # made, its tables not yet
        return []
    finally:
        db.close()


def at_hall(path) -> list[tuple[str, int, dict]]:
    """Every game the hall stored: (table, seq, body)."""
    return [(t, seq, json.loads(body)) for t, seq, body in read_hall(path, "SELECT tbl, seq, body FROM games")]


def hall_table(path, table: str) -> dict:
    rows = read_hall(path, "SELECT status, live FROM tables WHERE tbl = ?", table)
    return dict(zip(("status", "live"), rows[0])) if rows else {}


def acked_at(state) -> int:
    """The hall's acknowledgement of the table's outbox, as its link recorded it."""
    if not (state / "history.sqlite").exists():
        return 0
    history = History(state / "history.sqlite", read_only=True)
    try:
        return acked(link_file(state), history.outbox_id)
    finally:
        history.close()


def table_state(tmp_path, table: str = "t1"):
    state = tmp_path / table / "cardtable"
    state.mkdir(parents=True)
    return state


def finish(state, numbers) -> list[dict]:
    """Record made-up finished games in the table's history (as the table does); their outbox bodies."""
    history = History(state / "history.sqlite")
    history.record([played(n) for n in numbers])
    bodies = [body for _, _, body in history.outbox()]
    history.close()
    return bodies


def assert_all_once(hall_path, table: str, count: int) -> None:
    """The hall holds games 1..count of `table`, each once, each equal to the table's outbox body."""
    games = [(seq, body) for t, seq, body in at_hall(hall_path) if t == table]
    assert [seq for seq, _ in games] == list(range(1, count + 1))
    assert [body["scores"]["1"] for _, body in games] == [seq for seq, _ in games], "each its own game"


def test_a_game_finished_at_a_simulated_table_reaches_the_hall_and_leaves_the_outbox(tmp_path, broker, the_hall):
    state = table_state(tmp_path)
    the_link = broker.link("t1", state).start()
    files = TableFiles(state / "journal.sqlite")
    sim = SimulatedTable(load_layout("sim-6-single"), files.journal, game="feira-torio", seed=3)
    bots = GAMES["feira-torio"].bots.Players(sim, [1, 2, 3], random.Random(3))
    bots.join_and_start()
    bots.play()
    sim.press(2, "ok")
    [row] = files.journal.history.games()
    [(_, seq, body)] = until(lambda: at_hall(the_hall), 15, "the game at the hall")
    assert seq == 1 and body["sha256"] == row["sha256"] and body["scores"] == row["scores"]
    until(lambda: acked_at(state) == 1, 10, "the acknowledgement in link.sqlite")
    sim.close()
    files.close()
    live = json.loads((state / LIVE).read_text())
    until(lambda: hall_table(the_hall, "t1").get("live") and json.loads(hall_table(the_hall, "t1")["live"]) == live,
          10, "the live state at the hall")
    assert hall_table(the_hall, "t1")["status"] == "online"
    History(state / "history.sqlite").close()   # the table starting again
    assert History(state / "history.sqlite", read_only=True).outbox() == []
    the_link.kill(15)
    until(lambda: hall_table(the_hall, "t1")["status"] == "offline", 10, "offline said on a clean stop")


def test_games_finished_while_the_link_was_down_catch_up_by_themselves(tmp_path, broker, the_hall):
    state = table_state(tmp_path)
    finish(state, range(1, 61))
    broker.link("t1", state).start()
    until(lambda: acked_at(state) == 60, 20, "60 games acknowledged")
    assert_all_once(the_hall, "t1", 60)


def test_the_broker_killed_and_started_again_mid_stream_loses_nothing(tmp_path, broker, the_hall):
    """Two tables, 100 games queued each and 50 more each while the broker is down; SIGKILL loses what the broker
    had not saved: the links publish again what the hall has not acknowledged."""
    states = {table: table_state(tmp_path, table) for table in TABLES[:2]}
    for table, state in states.items():
        broker.link(table, state).start()
    for state in states.values():
        finish(state, range(1, 101))
    stored = len(until(lambda: at_hall(the_hall), 10, "the first games at the hall"))
    broker.kill()
    assert stored < 200, "killed mid-stream"
    for state in states.values():
        finish(state, range(101, 151))   # the tables play on
    broker.start()
    for table, state in states.items():
        until(lambda: acked_at(state) == 150, 30, f"{table}'s 150 games acknowledged")
        assert_all_once(the_hall, table, 150)
    broker.stop()   # a clean stop saves: the retained acknowledgement survives it
    broker.start()
    assert json.loads(retained(broker.broker("t1"), topic("t1", "ack")))["seq"] == 150


def test_the_link_killed_and_started_again_loses_nothing(tmp_path, broker, the_hall):
    state = table_state(tmp_path)
    finish(state, range(1, 101))
    the_link = broker.link("t1", state).start()
    until(lambda: acked_at(state) > 0, 15, "the first acknowledgement")
    the_link.kill()
    finish(state, range(101, 121))
    the_link.start()
    until(lambda: acked_at(state) == 120, 20, "120 games acknowledged")
    assert_all_once(the_hall, "t1", 120)


def test_the_games_of_a_history_made_afresh_reach_the_hall_as_new_ones(tmp_path, broker, the_hall):
    state = table_state(tmp_path)
    finish(state, range(1, 4))
    broker.link("t1", state).start()
    until(lambda: acked_at(state) == 3, 15, "3 games acknowledged")
    (state / "history.sqlite").rename(state / "history.sqlite.refused")   # as the table sets a damaged one aside
    finish(state, [4, 5])
    until(lambda: acked_at(state) == 2, 15, "the new outbox's 2 games acknowledged")
    assert sorted(body["scores"]["1"] for _, _, body in at_hall(the_hall)) == [1, 2, 3, 4, 5]


def test_the_acl_keeps_a_table_to_its_own_topics(tmp_path, broker, the_hall):
    state = table_state(tmp_path, "t2")
    finish(state, [1])
    broker.link("t2", state).start()
    until(lambda: acked_at(state) == 1, 15, "t2's game acknowledged")
    t1 = broker.broker("t1")
    assert retained(t1, topic("t2", "ack")) is None, "t1 reads no acknowledgement of t2"
    body = json.dumps({"game": "forged"})
    forged = {"outbox": "0" * 32, "seq": 2, "kind": "game", "at": "2026-11-28T10:00:00", "digest": digest(body), "body": json.loads(body)}
    forged_ack = json.dumps({"outbox": "0" * 32, "seq": 999})
    published(t1, [(topic("t2", "game/2"), json.dumps(forged)), (topic("t1", "ack"), forged_ack),
                   (topic("t2", "ack"), forged_ack)])
    assert retained(t1, topic("t1", "ack")) is None, "t1 writes no acknowledgement"
    assert json.loads(retained(broker.broker("t2"), topic("t2", "ack")))["seq"] == 1
    assert [(t, seq) for t, seq, _ in at_hall(the_hall)] == [("t2", 1)], "t1 publishes nothing as t2"
    assert connection(t1) == 0
    for wrong in (replace(t1, password="not its password"), replace(t1, user="", password=""), replace(t1, ca=None)):
        assert connection(wrong) != 0, "a wrong password, anonymous access and a plain connection are refused"


def test_a_player_card_enrolled_at_one_table_seats_its_player_at_another(tmp_path, broker, the_hall):
    """Alice's card, enrolled at t1, names seat 2 in a game there; the hall learns the card from that game and
    publishes it retained; t2's link writes it for t2, whose lobby then seats Alice by the same card. A table may
    not publish player cards itself."""
    alice, uid = "p-0000000000a1", "04A11CE0000001"
    one, two = table_state(tmp_path, "t1"), table_state(tmp_path, "t2")
    broker.link("t1", one).start()
    broker.link("t2", two).start()
    files = TableFiles(one / "journal.sqlite", one / "registry.sqlite")
    files.registry.enrol(uid, player_tag(alice), "Alice")
    sim = SimulatedTable(load_layout("sim-6-single"), files.journal, files.registry, game="feira-torio", seed=3)
    bots = GAMES["feira-torio"].bots.Players(sim, [1, 2, 3], random.Random(3))
    for seat in (1, 2, 3):
        bots.world.join(seat)
    sim.tap("seat2", alice)
    bots.world.press(1, "ok")
    bots.play()
    sim.press(2, "ok")
    sim.close()
    files.close()
    until(lambda: [body["players"] for _, _, body in at_hall(the_hall)] == [
        {"2": {"id": alice, "name": "Alice", "card": uid}}], 15, "the game and its player at the hall")
    cards = hall_cards_file(two)
    until(lambda: cards.exists() and alice in cards.read_text(), 15, "Alice's card written for t2")
    assert card_tapped(two, alice) == ({"4": "Alice"}, [4])
    published(broker.broker("t1"), [(PLAYERS, hall_cards({"04E0000000000E": {"id": alice, "name": "Eve"}}))])
    assert json.loads(retained(broker.broker("t2"), PLAYERS))["cards"] == {uid: {"id": alice, "name": "Alice"}}


class Sent:
    """Stands in for the link's MQTT client: what it was asked to publish."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def publish(self, name: str, payload: str, qos: int, retain: bool) -> None:
        assert qos == 1 and retain
        self.sent.append((name, payload))


def test_the_link_tells_the_hall_which_of_its_cards_the_table_keeps_once_per_change_and_survives_a_bad_registry(
        tmp_path, caplog):
    state = table_state(tmp_path)
    link = Link("t1", state, Broker(HOST, 1, "t1", "unused"))
    link.client = Sent()
    write_hall_cards(link.cards, hall_cards({"04000000000001": {"id": "p-0000000000a1", "name": "Alice"}}).encode())
    link._publish_shadowed()
    link._publish_shadowed()
    assert link.client.sent == [(topic("t1", "shadowed"), '{"cards": {}}')], "no registry yet: none kept, said once"
    registry = TagRegistry(state / "registry.sqlite")
    registry.enrol("04000000000001", Tag("card", "feira-torio", "TA01"))
    registry.close()
    link._publish_shadowed()
    assert link.client.sent[-1] == (topic("t1", "shadowed"), '{"cards": {"04000000000001": "card"}}')
    (state / "registry.sqlite").write_bytes(b"not a database" * 100)
    for _ in range(3):
        link._publish_shadowed()
    assert len(link.client.sent) == 2 and caplog.text.count("could not be read") == 1
    link.acks.close()


def card_tapped(state, pid: str) -> tuple[dict, list]:
    """Player `pid`'s card tapped at seat 4 in the lobby of a simulated table whose state directory is `state`:
    the seats' names and the seats joined then."""
    files = TableFiles(state / "journal.sqlite", state / "registry.sqlite")
    sim = SimulatedTable(load_layout("sim-6-single"), files.journal, files.registry, game="feira-torio", seed=4)
    try:
        sim.tap("seat4", pid)
        return sim.session.table_view()["names"], sim.session.joined
    finally:
        sim.close()
        files.close()


def test_the_hall_stores_each_game_once_checks_its_digest_and_never_acknowledges_a_gap(tmp_path):
    store = Hall(tmp_path / "hall.sqlite", Broker("localhost", 1, HALL_USER, "unused"))
    bodies = [json.dumps({"n": n}, sort_keys=True) for n in range(4)]
    outbox, other = "a" * 32, "b" * 32

    def message(seq: int, body: str, sent_digest: str | None = None, box: str = outbox) -> dict:
        return {"outbox": box, "seq": seq, "kind": "game", "at": "2026-11-28T10:00:00",
                "digest": sent_digest or digest(body), "body": json.loads(body)}

    assert store.store("t1", 1, message(1, bodies[1])) == (outbox, 1)
    assert store.store("t1", 3, message(3, bodies[3])) == (outbox, 1), "2 is missing"
    assert store.store("t1", 2, message(2, bodies[2], digest(bodies[1]))) is None, "a digest that differs"
    assert store.store("t1", 2, message(3, bodies[2])) is None, "a seq that is not its topic's"
    assert store.store("t1", 2, {**message(2, bodies[2]), "outbox": "../x"}) is None, "no outbox id"
    assert store.store("t1", 2, message(2, bodies[2])) == (outbox, 3)
    assert store.store("t1", 2, message(2, bodies[2])) == (outbox, 3)
    assert store.store("t1", 1, message(1, bodies[1], box=other)) == (other, 1), "a history made afresh"
    assert [(t, box, s) for t, box, s, _ in store.games()] == [
        ("t1", outbox, 1), ("t1", outbox, 2), ("t1", outbox, 3), ("t1", other, 1)]


def connection(broker: Broker) -> int:
    """The broker's answer to a connection by `broker`'s user (0: accepted; -1: the connection closed unanswered)."""
    answered, code = threading.Event(), []
    probe = client(f"probe-{random.random()}", broker)
    probe.on_connect = lambda _c, _u, _f, reason, _p: (code.append(reason.value), answered.set())
    probe.on_disconnect = lambda *_: answered.set()
    start(probe, broker)
    answered.wait(5)
    probe.disconnect()
    probe.loop_stop()
    return code[0] if code else -1


def retained(broker: Broker, name: str) -> bytes | None:
    """The message retained on topic `name`, as `broker`'s user reads it (None: none it may read, within 1 s)."""
    got, seen = threading.Event(), []
    probe = client(f"probe-{random.random()}", broker)
    probe.on_connect = lambda c, _u, _f, _r, _p: c.subscribe(name, qos=1)
    probe.on_message = lambda _c, _u, message: (seen.append(message.payload), got.set())
    start(probe, broker)
    got.wait(1.5)
    probe.disconnect()
    probe.loop_stop()
    return seen[0] if seen else None


def published(broker: Broker, messages: list[tuple[str, str]]) -> None:
    """Publish `messages` (topic, payload) as `broker`'s user, QoS 1, retained, and wait until each is out."""
    probe = client(f"probe-{random.random()}", broker)
    start(probe, broker)
    until(probe.is_connected, 5, "the probe connected")
    for name, payload in messages:
        probe.publish(name, payload, qos=1, retain=True).wait_for_publish(5)
    probe.disconnect()
    probe.loop_stop()


@pytest.mark.parametrize("count, games", [(2, 6), pytest.param(4, 50, marks=pytest.mark.long)])
def test_tables_links_and_the_broker_killed_at_random_lose_and_duplicate_nothing(tmp_path, broker, the_hall, proxy,
                                                                                 count, games):
    """`count` tables of bots, each a process of its own, play `games` games each (4 x 50 = 200 as a step of its
    own in .ci/run, marked long; 2 x 6 in the suite) while the tables, their links and the broker are SIGKILLed
    at random and started again, and a TCP proxy between the links and the broker cuts their connections: at
    the hall every game once, its body the table's history row, its SHA-256 its archive's."""
    rng = random.Random(20)
    states = {table: table_state(tmp_path, table) for table in TABLES[:count]}
    tables = {table: broker.service(["tests.cafe.table_process", str(state), str(n), str(games)],
                                    state.parent / "table.log").start() for n, (table, state) in enumerate(states.items())}
    links = {table: broker.link(table, state, proxy.port).start() for table, state in states.items()}
    kills = {"table": 0, "link": 0, "broker": 0, "cut": 0}
    first = rng.sample(list(kills), len(kills))   # every kind of fault once first, however fast the games go
    while any(process.ended() != 0 for process in tables.values()):
        assert all(process.ended() in (None, 0) for process in tables.values()), "a table failed: see table.log"
        time.sleep(rng.uniform(0.3, 0.8))
        victim = first.pop() if first else rng.choice([*kills, None])
        table = rng.choice([t for t in states if tables[t].ended() is None] or list(states))
        if victim == "table" and tables[table].ended() is None:
            tables[table].kill()
            tables[table].start()
        elif victim == "link":
            links[table].kill()
            links[table].start()
        elif victim == "broker":
            broker.kill()
            broker.start()
        elif victim == "cut":
            proxy.cut()
        else:
            continue
        kills[victim] += 1
    print(f"café faults over {count} x {games} games: {kills}")
    assert min(kills.values()) > 0, kills
    for table, state in states.items():
        history = History(state / "history.sqlite", read_only=True)
        rows = history.games()
        history.close()
        until(lambda: acked_at(state) == len(rows), 30, f"{table}'s {len(rows)} games acknowledged")
        stored = [(seq, body) for t, seq, body in at_hall(the_hall) if t == table]
        assert [seq for seq, _ in stored] == list(range(1, len(rows) + 1)) and len(rows) >= games
        for (_, body), row in zip(stored, rows):
            assert body == {k: row[k] for k in body} and body["id"] == row["id"]
            assert body["sha256"] == hashlib.sha256((state / "games" / row["journal"]).read_bytes()).hexdigest()


def test_bad_settings_of_the_link_and_the_hall_are_one_line(tmp_path):
    password = tmp_path / "password"
    password.write_text("secret\n")
    not_a_ca, state = password, ["--state", str(tmp_path / "state")]
    assert_refused(cardtable(tmp_path, "link", "--table", "T1", "--broker", "hall", "--password-file", str(password),
                             "--ca", str(not_a_ca), *state),
                   "cardtable link: 'T1' cannot name a table: lower-case letters, digits and dashes (32 at most)")
    assert_refused(cardtable(tmp_path, "link", "--table", "t1", "--broker", "hall", "--password-file",
                             str(tmp_path / "none"), "--ca", str(not_a_ca), *state),
                   f"cardtable link: --password-file {tmp_path / 'none'}: no such file")
    assert_refused(cardtable(tmp_path, "hall", "--password-file", str(password), "--ca", str(not_a_ca), *state),
                   f"cardtable hall: --ca {not_a_ca}: no CA certificate can be read there (NO_CERTIFICATE_OR_CRL_FOUND)")
    assert_refused(cardtable(tmp_path, "hall", "--setup", str(tmp_path / "broker"), "--table", "hall"),
                   "cardtable hall: 'hall' is the hall's own name: name the table otherwise")
    with socket.create_server((HOST, 0)) as taken:
        web = f"{HOST}:{taken.getsockname()[1]}"
        assert_refused(cardtable(tmp_path, "hall", "--password-file", str(password), "--ca", str(not_a_ca), *state,
                                 "--web", web),
                       f"cardtable hall: the pages cannot be served at {web}: Address already in use")
