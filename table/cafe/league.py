"""The café's players, from the games the hall stores: who played what, their rating per game and the monthly league.

A pure function of the stored games (the bodies the tables sent, docs/cafe.md): nothing here is kept apart, so a
hall that stores a late game (a table back from a week offline) gives the same ratings as if it had come on time.

- **Places**: by final total, the highest first; equal totals share a place (1, 1, 3). A game staff ended before
  its end (no winners) counts for no one. Kitty's partners share their team's total, so they share its place.
- **Ratings**: openskill's Plackett-Luce model, per game, over the games in the order they ended. Guests (seats no
  player card named) take part as newcomers each time and are not kept. Shown as the ordinal (mu - 3 sigma), which
  rises as a player wins and as the model grows sure of them.
- **League**: per calendar month of the hall's local time; an evening is a calendar day. A game gives each player
  one point per seat placed below theirs, and one more for a win; an evening's points are its games' sum; a
  player's league total is the sum of their best `evenings` evenings of the month.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone

from openskill.models import PlackettLuce

from table.storage.registry import player_problem

EVENINGS = 4   # the best evenings of a month that count in the league


@dataclass(frozen=True, slots=True)
class Game:
    """One finished game as the league reads it: its name, when it ended (local time), each seat's place and
    the player a card named at each seat (pid, name)."""

    game: str
    ended: datetime
    places: dict[int, int]
    players: dict[int, tuple[str, str]]

    @property
    def winners(self) -> set[int]:
        return {seat for seat, place in self.places.items() if place == 1}

    def points(self, seat: int) -> int:
        """League points of `seat`: the seats placed below it, plus one for a win."""
        place = self.places[seat]
        return sum(other > place for other in self.places.values()) + (place == 1)


@dataclass(slots=True)
class Record:
    """One player's record: their name, games, wins, ratings per game (ordinal, games rated), the players they met
    (pid -> games together) and their games, the newest first (game, its seat)."""

    pid: str
    name: str
    games: int = 0
    wins: int = 0
    ratings: dict[str, tuple[float, int]] = field(default_factory=dict)
    met: Counter = field(default_factory=Counter)
    played: list[tuple[Game, int]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line in a month's league: their place, points (best evenings), evenings counted and played."""

    place: int
    pid: str
    name: str
    points: int
    counted: int
    evenings: int


def places(scores: dict[int, int]) -> dict[int, int]:
    """Each seat's place by total, the highest first, equal totals sharing a place (1, 1, 3)."""
    return {seat: 1 + sum(other > total for other in scores.values()) for seat, total in scores.items()}


def read(body: dict) -> Game | None:
    """A stored game's body as the league reads it (None: nothing to count, or not a sound finished game)."""
    if not isinstance(body, dict) or not isinstance(body.get("scores"), dict) or not body.get("winners"):
        return None
    try:
        ended = datetime.fromisoformat(body["ended"])
        scores = {int(seat): total for seat, total in body["scores"].items() if type(total) is int}
    except (KeyError, TypeError, ValueError):
        return None
    named = body.get("players") if isinstance(body.get("players"), dict) else {}
    players = {int(seat): (p["id"], p["name"]) for seat, p in named.items()
               if seat.isdigit() and int(seat) in scores and isinstance(p, dict)
               and player_problem(p.get("id"), p.get("name")) is None}
    if len(scores) < 2 or not isinstance(body.get("game"), str):
        return None
    local = (ended if ended.tzinfo else ended.replace(tzinfo=timezone.utc)).astimezone()
    return Game(body["game"], local, places(scores), players)


class League:
    """The players of the games `bodies` (in any order), their records and ratings, and the monthly league; the
    `enrolled` players (pid -> name) are among them before their first game."""

    def __init__(self, bodies: Iterable[dict], evenings: int = EVENINGS, enrolled: Mapping[str, str] = {}) -> None:
        self.evenings = evenings
        self.games = sorted((g for body in bodies if (g := read(body)) is not None), key=lambda g: g.ended)
        self.records: dict[str, Record] = {}
        model, ratings = PlackettLuce(), defaultdict(dict)
        for game in self.games:
            for seat, (pid, name) in game.players.items():
                record = self.records.setdefault(pid, Record(pid, name))
                record.name, record.games, record.wins = name, record.games + 1, record.wins + (seat in game.winners)
                record.played.insert(0, (game, seat))
                record.met.update(other for other, _ in game.players.values() if other != pid)
            if game.players:
                self._rate(model, ratings[game.game], game)
        for pid, name in enrolled.items():
            self.records.setdefault(pid, Record(pid, name))

    def _rate(self, model: PlackettLuce, known: dict, game: Game) -> None:
        """Rate `game` with the players' ratings at this game so far (`known`: pid -> rating), guests as newcomers."""
        seats = sorted(game.places)
        pids = [game.players.get(seat, (None,))[0] for seat in seats]
        teams = [[known[pid] if pid in known else model.rating()] for pid in pids]
        for pid, (rating,) in zip(pids, model.rate(teams, ranks=[game.places[seat] for seat in seats])):
            if pid is not None:
                known[pid] = rating
                count = self.records[pid].ratings.get(game.game, (0.0, 0))[1]
                self.records[pid].ratings[game.game] = (rating.ordinal(), count + 1)

    def months(self) -> list[str]:
        """The months (YYYY-MM) with a game of a player, the newest first."""
        return sorted({g.ended.strftime("%Y-%m") for g in self.games if g.players}, reverse=True)

    def standings(self, month: str) -> list[Standing]:
        """Month `month`'s league (YYYY-MM): every player who played in it, by points, ties sharing a place."""
        evenings: dict[str, Counter] = defaultdict(Counter)   # pid -> evening (date) -> points
        for game in self.games:
            if game.ended.strftime("%Y-%m") == month:
                for seat, (pid, _) in game.players.items():
                    evenings[pid][game.ended.date()] += game.points(seat)
        lines = []
        for pid, by_evening in evenings.items():
            best = sorted(by_evening.values(), reverse=True)[:self.evenings]
            lines.append((sum(best), len(best), len(by_evening), pid))
        lines.sort(key=lambda line: (-line[0], self.records[line[3]].name))
        return [Standing(1 + sum(other[0] > points for other in lines), pid, self.records[pid].name, points, counted,
                         played) for points, counted, played, pid in lines]

    def partners(self, pid: str, most: int = 5) -> list[tuple[str, int]]:
        """The players `pid` met most (name, games together), the most first."""
        return [(self.records[other].name, count) for other, count in self.records[pid].met.most_common(most)]
