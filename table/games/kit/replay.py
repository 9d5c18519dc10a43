"""Replaying a game's actions from its start, each checked as the table checks it."""
from __future__ import annotations

from types import ModuleType
from typing import Any, Iterable, Mapping


def replay(rules: ModuleType, deck: Any, players: int, first: int, options: Mapping[str, Any] | None,
           actions: Iterable[Any]) -> Any:
    """The state of `rules`' game after these actions; ValueError names the first one the rules refuse."""
    state = rules.new_game(deck, players, first, options)
    for action in actions:
        refusal = rules.check(state, action)
        if refusal:
            raise ValueError(f"journal action {action} refused: {refusal.key}")
        state = rules.apply(state, action)
    return state
