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
    kind = kinds.get(fields.pop("type", None))
    if kind is None or set(fields) != set(kind.__slots__):
        raise ValueError(f"not an action of this game: type {data.get('type')!r} with fields {sorted(fields)}")
    return kind(**fields)


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value
