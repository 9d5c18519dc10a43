"""A deck of ranked cards (e.g. the Pairs deck: one 1, two 2s ... ten 10s), read from its deck file."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping


@dataclass(frozen=True, slots=True)
class RankedDeck:
    """Every card's rank by id, and the ids of each rank."""

    ranks: Mapping[str, int]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "RankedDeck":
        return cls({row["id"]: int(row["rank"]) for row in data["cards"]})

    def rank(self, card: str) -> int:
        return self.ranks[card]

    def of_rank(self, rank: int) -> tuple[str, ...]:
        return tuple(sorted(c for c, r in self.ranks.items() if r == rank))

    @property
    def rank_values(self) -> tuple[int, ...]:
        return tuple(sorted(set(self.ranks.values())))
