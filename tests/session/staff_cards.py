"""Genuine staff cards for tests that feed a session presence events: they answer the table's proofs."""
from __future__ import annotations

from table.events import EventBus, ProofAsked, ProofGiven
from table.storage.registry import TagRegistry


def genuine_staff_cards(bus: EventBus, registry: TagRegistry, clones: frozenset[str] = frozenset()) -> None:
    """Answer every ProofAsked on `bus` as the card would where a poller asks it: a staff card enrolled in
    `registry` gives its PACK for its own password and nothing for another; a UID in `clones` (a copy of the UID
    alone) gives nothing."""
    def answer(asked: ProofAsked) -> None:
        password, pack = registry.staff_key(asked.uid)
        genuine = asked.uid not in clones and asked.password == password
        bus.publish(ProofGiven(asked.pad, asked.uid, pack if genuine else None))
    bus.subscribe(ProofAsked, answer)
