"""Screen and message texts in French (the default) and English, read from assets/i18n/LANG.toml.

A text is a flat key with `{name}` parameters. Plurals are two keys,
KEY_one and KEY_other, picked by `Translator.count`. A missing key falls back
to French, then to the key itself; a missing parameter stays as `{name}`, so
a wrong call shows on screen instead of crashing the table.
"""
from __future__ import annotations

import tomllib
from functools import cache
from typing import Any, Mapping

from table.assets import ASSETS

LANGS = ("fr", "en")
DEFAULT = "fr"
_SINGULAR = {"fr": (0, 1), "en": (1,)}   # counts that take the singular form


@cache
def texts(lang: str) -> dict[str, str]:
    """Every text of a language (assets/i18n/LANG.toml)."""
    with open(ASSETS / "i18n" / f"{lang}.toml", "rb") as f:
        return tomllib.load(f)


class _Keep(dict):
    def __missing__(self, name: str) -> str:
        return "{" + name + "}"


class Translator:
    """Texts of one language."""

    def __init__(self, lang: str = DEFAULT):
        self.lang = lang if lang in LANGS else DEFAULT

    def __call__(self, key: str, **params: Any) -> str:
        template = texts(self.lang).get(key) or texts(DEFAULT).get(key) or key
        return template.format_map(_Keep(params))

    def count(self, key: str, n: int, **params: Any) -> str:
        """KEY_one or KEY_other for `n` (parameter {n})."""
        form = "one" if n in _SINGULAR[self.lang] else "other"
        return self(f"{key}_{form}", n=n, **params)

    def seats(self, seats: list[int]) -> str:
        """'Siège 3' or 'Sièges 1, 2 et 4'."""
        if len(seats) == 1:
            return self("seat", seat=seats[0])
        listed = ", ".join(str(s) for s in seats[:-1])
        return self("seats", seats=listed, last=seats[-1])

    def message(self, message: Mapping[str, Any], **context: Any) -> str:
        """A table message ({"key", "params", "seat"}), prefixed with the seat it concerns."""
        params = {**context, **(message.get("params") or {})}
        text = self(message["key"], **params)
        seat = message.get("seat") or params.get("seat")
        return text if seat is None else self("message_seat", seat=seat, text=text)


def translate(lang: str, key: str, **params: Any) -> str:
    """The text `key` in `lang` with its parameters filled in."""
    return Translator(lang)(key, **params)


def message_text(lang: str, message: Mapping[str, Any], **context: Any) -> str:
    """A table message as shown in the red banner, naming the seat when there is one."""
    return Translator(lang).message(message, **context)
