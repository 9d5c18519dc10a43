"""Screen and message texts in French (the default) and English, by namespace.

assets/i18n/LANG/common.toml holds the texts every screen shares; each game's
own texts are in assets/i18n/LANG/GAME.toml (its namespace). A text is a flat
key with `{name}` parameters. Plurals are two keys, KEY_one and KEY_other,
picked by `Translator.count`. A key is looked up in the game's namespace, then
the common one, in the language, then in French; a missing key shows as the
key itself and a missing parameter stays as `{name}`, so a wrong call shows on
screen instead of crashing the table.
"""
from __future__ import annotations

import tomllib
from functools import cache
from typing import Any, Mapping

from table.assets import ASSETS

LANGS = ("fr", "en")
DEFAULT = "fr"
COMMON = "common"
_SINGULAR = {"fr": (0, 1), "en": (1,)}   # counts that take the singular form


@cache
def texts(lang: str, namespace: str = COMMON) -> dict[str, str]:
    """Every text of a language in a namespace (assets/i18n/LANG/NAMESPACE.toml; none when it has no file)."""
    path = ASSETS / "i18n" / lang / f"{namespace}.toml"
    if not path.exists():
        return {}
    with open(path, "rb") as f:
        return tomllib.load(f)


class _Keep(dict):
    def __missing__(self, name: str) -> str:
        return "{" + name + "}"


class Translator:
    """Texts of one language, seen from one game's namespace (None: the common texts only)."""

    def __init__(self, lang: str = DEFAULT, game: str | None = None):
        self.lang = lang if lang in LANGS else DEFAULT
        self.namespace = game
        spaces = [game, COMMON] if game else [COMMON]
        self._tables = [texts(lang_, space) for lang_ in dict.fromkeys((self.lang, DEFAULT)) for space in spaces]

    def game(self, name: str | None) -> "Translator":
        """The same language, seen from game `name`'s namespace."""
        return Translator(self.lang, name)

    def __call__(self, key: str, **params: Any) -> str:
        template = next((table[key] for table in self._tables if key in table), key)
        return template.format_map(_Keep(params))

    def has(self, key: str) -> bool:
        return any(key in table for table in self._tables)

    def count(self, key: str, n: int, **params: Any) -> str:
        """KEY_one or KEY_other for `n` (parameter {n})."""
        form = "one" if n in _SINGULAR[self.lang] else "other"
        return self(f"{key}_{form}", n=n, **params)

    def seats(self, seats: list[int], joined: list[int] | None = None, key: str = "seats",
              names: Mapping[str, str] | None = None) -> str:
        """'Siège 3' or 'Sièges 1, 2 et 4' (`seats` are players, given the seat each `joined` at; `key` names the
        text listing several, {seats} then {last}). With `names` (a player's name by seat, as the table view's),
        seats a player card named are called by their players' names: 'Ana et Siège 4'."""
        if joined is not None:
            seats = [joined[p] for p in seats]
        if names and any(str(s) in names for s in seats):
            called = [names.get(str(s)) or self("seat", seat=s) for s in seats]
            return called[0] if len(called) == 1 else self("listed", items=", ".join(called[:-1]), last=called[-1])
        if len(seats) == 1:
            return self("seat", seat=seats[0])
        listed = ", ".join(str(s) for s in seats[:-1])
        return self(key, seats=listed, last=seats[-1])

    def plays_with(self, least: int | None, most: int | None) -> str:
        """How many players a game takes: 'à 2' or 'de 3 à 6 joueurs'."""
        return self("plays_with_exact", n=least) if least == most else self("plays_with_range", min=least, max=most)

    def message(self, message: Mapping[str, Any], **context: Any) -> str:
        """A table message ({"key", "params", "seat"}), prefixed with the seat it concerns."""
        params = {**context, **(message.get("params") or {})}
        text = self(message["key"], **params)
        seat = message.get("seat") or params.get("seat")
        return text if seat is None else self("message_seat", seat=seat, text=text)


def translate(lang: str, key: str, **params: Any) -> str:
    """The text `key` in `lang` with its parameters filled in (common texts)."""
    return Translator(lang)(key, **params)


def message_text(lang: str, message: Mapping[str, Any], game: str | None = None, **context: Any) -> str:
    """A table message as shown in the red banner, naming the seat when there is one."""
    return Translator(lang, game).message(message, **context)
