"""A public view that names players by their seats: the paths a game declares where its view names a player.

A path is keys joined by "/": a key of a dict, a digit for an item of a list,
"*" for every item of a list. The value it ends on is a player index (or None),
replaced by that player's seat number. A path that meets None or a missing key
on the way names nobody in this view.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any


def under(prefix: str, paths: Iterable[str]) -> tuple[str, ...]:
    """`paths` of a part of the view found at `prefix` (a part the view holds in several places)."""
    return tuple(f"{prefix}/{path}" for path in paths)


def seated(view: dict, seats: Sequence[int], paths: Iterable[str]) -> dict:
    """A copy of `view` with every player named at `paths` given as its seat (`seats[player]`)."""
    copy = _copied(view)
    for path in paths:
        _seat(copy, path.split("/"), seats)
    return copy


def _copied(node: Any) -> Any:
    """A copy of a view's dicts and lists; a part the view holds in two places is copied for each, so that each
    place is seated once."""
    if isinstance(node, dict):
        return {key: _copied(value) for key, value in node.items()}
    if isinstance(node, (list, tuple)):
        return [_copied(item) for item in node]
    return node


def _seat(node: Any, keys: list[str], seats: Sequence[int]) -> None:
    """Replace the player indices `keys` leads to under `node`, in place."""
    key, rest = keys[0], keys[1:]
    if isinstance(node, list):
        if key == "*":
            spots: Iterable[Any] = range(len(node))
        else:
            spots = [int(key)] if int(key) < len(node) else []
    elif isinstance(node, dict):
        spots = [key] if key in node else []
    else:
        return
    for spot in spots:
        if rest:
            _seat(node[spot], rest, seats)
        elif node[spot] is not None:
            node[spot] = seats[node[spot]]
