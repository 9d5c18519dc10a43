"""The café's players at the hall, by hand-worked cases: places, ratings (ties, guests, partners, games stored
late), records and the monthly league of best evenings."""
from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from table.cafe.league import League, places, read

ALICE, BOB, CAROL, DAN = "p-0000000000a1", "p-0000000000b2", "p-0000000000c3", "p-0000000000d4"
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAN: "Dan"}
START = datetime(2026, 11, 2, 19, 0, tzinfo=timezone.utc)


def body(scores: dict[int, int], players: dict[int, str], game: str = "sweep", days: float = 0,
         winners: list[int] | None = None) -> dict:
    """A finished game's body as a table's outbox sends it: `players` seat -> pid (the other seats are guests)."""
    best = max(scores.values())
    ended = START + timedelta(days=days)
    return {"game": game, "options": {}, "seats": sorted(scores), "scores": {str(s): t for s, t in scores.items()},
            "winners": [s for s, t in scores.items() if t == best] if winners is None else winners,
            "started": (ended - timedelta(minutes=20)).isoformat(), "ended": ended.isoformat(), "duration_s": 1200.0,
            "players": {str(s): {"id": pid, "name": NAMES[pid]} for s, pid in players.items()}}


def rating(league: League, pid: str, game: str = "sweep") -> float:
    return league.records[pid].ratings[game][0]


def test_places_share_equal_totals_and_skip_after_them():
    assert places({1: 10, 2: 10, 3: 5, 4: 12}) == {4: 1, 1: 2, 2: 2, 3: 4}


def test_equal_places_from_equal_ratings_give_equal_changes_and_a_win_rates_above_a_loss():
    league = League([body({1: 9, 2: 9, 3: 4}, {1: ALICE, 2: BOB, 3: CAROL})])
    assert rating(league, ALICE) == rating(league, BOB) > rating(league, CAROL)
    again = League([body({1: 9, 2: 9, 3: 4}, {1: BOB, 2: ALICE, 3: CAROL})])   # seats swapped: the same numbers
    assert rating(again, ALICE) == rating(league, ALICE) and rating(again, CAROL) == rating(league, CAROL)


def test_guests_play_as_newcomers_and_are_not_kept():
    beat_guest = League([body({1: 9, 2: 3}, {1: ALICE})])
    lost_to_guest = League([body({1: 3, 2: 9}, {1: ALICE})])
    assert rating(beat_guest, ALICE) > rating(lost_to_guest, ALICE)
    assert set(beat_guest.records) == {ALICE}
    assert League([body({1: 9, 2: 3}, {})]).records == {}


def test_partners_share_their_team_total_so_their_place_and_their_change():
    """Kitty with partners: seats 1 and 3 against 2 and 4, each seat's total being its team's."""
    league = League([body({1: 30, 2: 12, 3: 30, 4: 12}, {1: ALICE, 2: BOB, 3: CAROL, 4: DAN}, game="kitty")])
    assert rating(league, ALICE, "kitty") == rating(league, CAROL, "kitty") > rating(league, BOB, "kitty")
    assert rating(league, BOB, "kitty") == rating(league, DAN, "kitty")


def test_ratings_do_not_depend_on_the_order_games_were_stored_and_are_per_game():
    bodies = [body({1: 5 + i % 3, 2: 6 - i % 2}, {1: ALICE, 2: BOB}, days=i / 10) for i in range(12)]
    bodies.append(body({1: 1, 2: 9}, {1: ALICE, 2: BOB}, game="venture", days=2))
    shuffled = bodies[:]
    random.Random(4).shuffle(shuffled)
    one, other = League(bodies), League(shuffled)
    assert one.records[ALICE].ratings == other.records[ALICE].ratings
    assert set(one.records[ALICE].ratings) == {"sweep", "venture"} and one.records[ALICE].ratings["sweep"][1] == 12
    assert rating(one, BOB, "venture") > rating(one, ALICE, "venture")


def test_a_game_staff_ended_counts_for_no_one_and_a_malformed_body_is_left_out():
    assert read(body({1: 5, 2: 3}, {1: ALICE}, winners=[])) is None
    assert read({"game": "sweep", "scores": "nonsense", "winners": [1]}) is None
    bad_player = body({1: 5, 2: 3}, {1: ALICE})
    bad_player["players"]["1"]["id"] = "<script>"
    assert read(bad_player).players == {}


def test_a_record_counts_games_wins_and_the_players_met_most():
    bodies = [body({1: 9, 2: 3, 3: 1}, {1: ALICE, 2: BOB, 3: CAROL}, days=0),
              body({1: 2, 2: 8}, {1: ALICE, 2: BOB}, days=1),
              body({1: 7, 2: 4}, {1: ALICE, 2: DAN}, days=2)]
    league = League(bodies)
    alice = league.records[ALICE]
    assert (alice.games, alice.wins) == (3, 2)
    assert league.partners(ALICE) == [("Bob", 2), ("Carol", 1), ("Dan", 1)]
    assert [game.ended.day for game, _ in alice.played] == [4, 3, 2]   # the newest first


def test_the_league_counts_each_players_best_evenings_of_the_month():
    """Three seats: a win is worth 2 + 1 = 3 points, a second place 1, a third 0. Alice plays five evenings
    (3, 3, 1, 3, 0 points): her best four make 10. Bob plays two evenings: 1 + 3 = 4."""
    bodies = [body({1: 9, 2: 5, 3: 1}, {1: ALICE}, days=0), body({1: 9, 2: 5, 3: 1}, {1: ALICE}, days=1),
              body({1: 5, 2: 9, 3: 1}, {1: ALICE}, days=2), body({1: 9, 2: 5, 3: 1}, {1: ALICE, 2: BOB}, days=3),
              body({1: 1, 2: 9, 3: 5}, {1: ALICE, 2: BOB}, days=4),
              body({1: 1, 2: 9, 3: 5}, {1: ALICE}, days=40)]   # December: another month
    league = League(bodies, evenings=4)
    assert league.months() == ["2026-12", "2026-11"]
    november = league.standings("2026-11")
    assert [(s.place, s.name, s.points, s.counted, s.evenings) for s in november] == [
        (1, "Alice", 10, 4, 5), (2, "Bob", 4, 2, 2)]
    assert [(s.name, s.points) for s in league.standings("2026-12")] == [("Alice", 0)]


def test_two_games_of_one_evening_add_up_and_equal_totals_share_a_place():
    bodies = [body({1: 9, 2: 1}, {1: ALICE, 2: BOB}, days=0), body({1: 1, 2: 9}, {1: ALICE, 2: BOB}, days=0.05)]
    standings = League(bodies).standings("2026-11")
    assert [(s.place, s.points, s.evenings) for s in standings] == [(1, 2, 1), (1, 2, 1)]
