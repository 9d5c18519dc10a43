"""What the hall's pages show of a table, decided from what the hall holds alone: the public state the table
published (live.json: only what `cardtable replay --json` shows) and its finished games. Plain texts and numbers,
in the reader's language, for the templates (which escape them); anything malformed is left out, never raised."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone

from table.registry import GAMES
from table.screen.i18n import DEFAULT, LANGS, Translator
from table.storage.registry import player_problem


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat as the pages show it: its number, its total (None: no game), whether it won or must act, and the
    regular its player card named there (`player`, `name`; empty for a guest)."""

    number: int
    total: int | None = None
    winner: bool = False
    acting: bool = False
    player: str = ""
    name: str = ""


@dataclass(frozen=True, slots=True)
class Result:
    """One finished game: its name, when it ended (the hall's local time), its seats and the minutes it took."""

    game: str
    when: str
    seats: list[Seat]
    minutes: int


@dataclass(frozen=True, slots=True)
class Card:
    """A table as the pages show it: its link's status ("online", "offline" or "": not heard), its state now
    (`line`: what happens; `clock`: the time left) and its last results."""

    name: str
    status: str
    game: str
    line: str
    seats: list[Seat]
    clock: str
    results: list[Result]


def language(asked: str | None, accept: str) -> str:
    """The pages' language: `asked` (?lang=) when the project has it, else the first of the Accept-Language header
    `accept` it has (by preference), else French."""
    if asked in LANGS:
        return asked
    preferred = []
    for position, item in enumerate(accept.split(",")[:20]):
        tag, _, weight = item.strip().partition(";q=")
        try:
            quality = float(weight) if weight else 1.0
        except ValueError:
            continue
        preferred.append((-quality, position, tag.split("-")[0].strip().lower()))
    return next((tag for _, _, tag in sorted(preferred) if tag in LANGS), DEFAULT)


def card(name: str, status: str | None, live: str | None, games: list[dict], lang: str) -> Card:
    """Table `name`'s card: its status, its public state `live` (JSON as it published it) and `games`, its latest
    finished games (their bodies, the newest first)."""
    state = _object(live)
    game = state.get("game") if state.get("game") in GAMES else None
    t = Translator(lang, game)   # the pages' texts are common ones (assets/i18n/LANG/common.toml)
    line, seats = _now(state, t)
    return Card(name=name, status=status if status in ("online", "offline") else "",
                game=t("game_name") if game else "", line=line, seats=seats, clock=_clock(state.get("clock"), t),
                results=[result for body in games if (result := _result(body, lang)) is not None])


def _now(state: dict, t: Translator) -> tuple[str, list[Seat]]:
    """What the table is doing now, in words, and its seats."""
    names = _names(state.get("names"))
    if state.get("phase") == "lobby":
        joined = _numbers(state.get("joined"))
        return t.count("hall_lobby", len(joined)), [Seat(seat, **names.get(seat, {})) for seat in joined]
    seats = _numbers(state.get("seats"))
    if not seats:
        return t("hall_nothing"), []
    totals, winners = _by_seat(state.get("totals")), set(_numbers(state.get("winners")))
    to_act = state.get("to_act") if isinstance(state.get("to_act"), dict) else {}
    how, acting = to_act.get("how"), [seat for seat in _numbers(to_act.get("seats")) if seat in seats]
    called = {str(seat): named["name"] for seat, named in names.items()}   # seats by their players' names
    if state.get("phase") == "over" or how == "done":
        line = (t.count("winner", len(winners), seats=t.seats(sorted(winners), names=called)) if winners
                else t("game_over_title"))
    elif acting and how in ("turn", "sealed", "any_of"):
        line = t("hall_sealed" if how == "sealed" else "hall_turn", seats=t.seats(acting, names=called))
    else:
        line = t("hall_playing")
    return line, [Seat(seat, totals.get(seat), seat in winners, seat in acting, **names.get(seat, {}))
                  for seat in seats]


def _clock(clock, t: Translator) -> str:
    if not isinstance(clock, dict) or type(clock.get("left_s")) is not int:
        return ""
    minutes, seconds = divmod(max(0, clock["left_s"]), 60)
    return t("hall_clock_paused" if clock.get("paused") is True else "hall_clock", time=f"{minutes}:{seconds:02d}")


def _result(body, lang: str) -> Result | None:
    """A finished game as the table's outbox sent it (None: not one the pages can show)."""
    if not isinstance(body, dict) or body.get("game") not in GAMES:
        return None
    scores, winners = _by_seat(body.get("scores")), set(_numbers(body.get("winners")))
    names = _names(body.get("players"))
    duration = body.get("duration_s")
    return Result(game=Translator(lang, body["game"])("game_name"), when=when(body.get("ended")),
                  seats=[Seat(seat, total, seat in winners, **names.get(seat, {}))
                         for seat, total in sorted(scores.items())],
                  minutes=round(duration / 60) if type(duration) in (int, float) else 0)


def when(moment: str | datetime) -> str:
    """A time (ISO 8601 text in UTC, or a datetime) as the hall's local time: its hour today, else its date too."""
    if not isinstance(moment, datetime):
        try:
            moment = datetime.fromisoformat(moment)
        except (TypeError, ValueError):
            return ""
    moment = (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).astimezone()
    return moment.strftime("%H:%M" if moment.date() == datetime.now().astimezone().date() else "%Y-%m-%d %H:%M")


def shown_uid(uid: str) -> str:
    """A card's UID as the staff page shows it, in bytes as a phone's app does: "04A21C5B" as "04:A2:1C:5B"."""
    return ":".join(uid[i:i + 2] for i in range(0, len(uid), 2))


def _object(text: str | None) -> dict:
    try:
        read = json.loads(text or "{}")
    except ValueError:
        return {}
    return read if isinstance(read, dict) else {}


def _numbers(value) -> list[int]:
    return [n for n in value if type(n) is int] if isinstance(value, list) else []


def _names(value) -> dict[int, dict[str, str]]:
    """{seat: {"player", "name"}} from a JSON object of the regulars by seat ({"id", "name"}); unsound ones left out."""
    if not isinstance(value, dict):
        return {}
    return {int(seat): {"player": named["id"], "name": named["name"]} for seat, named in value.items()
            if seat.isdigit() and isinstance(named, dict) and player_problem(named.get("id"), named.get("name")) is None}


def _by_seat(value) -> dict[int, int]:
    """{seat: total} from a JSON object whose keys are seat numbers."""
    if not isinstance(value, dict):
        return {}
    return {int(seat): total for seat, total in value.items() if seat.isdigit() and type(total) is int}
