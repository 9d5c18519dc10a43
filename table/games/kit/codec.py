"""Actions as plain JSON data (for the journal), for any game's action dataclasses."""
from __future__ import annotations

from typing import Any, Mapping


def to_json(action: Any) -> dict:
    """{"type": class name, field: value, ...}; tuples become lists."""
    return {"type": type(action).__name__, **{f: _plain(getattr(action, f)) for f in action.__slots__}}


def from_json(actions: tuple[type, ...], data: Mapping[str, Any]) -> Any:
    """The action `data` describes; ValueError when it is not one of `actions` or its fields do not fit."""
    if not isinstance(data, Mapping):
        raise ValueError("an action must be a JSON object")
    kinds = {kind.__name__: kind for kind in actions}
    fields = {k: _tuples(v) for k, v in data.items()}
    named = fields.pop("type", None)
    kind = kinds.get(named) if isinstance(named, str) else None
    if kind is None or set(fields) != set(kind.__slots__):
        raise ValueError(f"not an action of this game: type {_shown(named)} with fields "
                         f"{', '.join(sorted(fields)) or 'none'}")
    return kind(**fields)


def _shown(named: Any) -> str:
    """An action's type as a message shows it: a name (cut at 40 characters), or what JSON value it is."""
    if isinstance(named, str):
        return named if len(named) <= 40 else named[:39] + "…"
    return "missing" if named is None else f"a JSON {_JSON_KINDS.get(type(named), 'value')}"


_JSON_KINDS = {dict: "object", list: "array", int: "number", float: "number", bool: "boolean"}


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value
