"""The table session: seats, lobby and the game in play.

It turns physical acts (a known card settling on a pad, a seat button) into
lobby steps and game actions, refuses impossible input before it reaches the
journal, and journals every accepted input before acknowledging it. Its state
is always the replay of its journal.
"""
from __future__ import annotations

import logging
from typing import Any

from table.assets import deck_data
from table.events import (Accepted, ButtonDown, CardPlaced, CardRemoved, EventBus, PadSeenEmpty, ReaderDead, ReaderRecovered,
                          Refused, StaffCommand, ViewChanged)
from table.games import GAMES
from table.games.base import ButtonPress, CardOnPad, Refusal
from table.layout import Layout
from table.storage.journal import Journal
from table.storage.registry import TagRegistry

log = logging.getLogger(__name__)


class TableSession:
    """One table: who sits where, the game being played, and the journal behind it."""

    def __init__(self, layout: Layout, registry: TagRegistry, journal: Journal, bus: EventBus,
                 game: str = "feira-torio") -> None:
        self.layout = layout
        self.registry = registry
        self.journal = journal
        self.bus = bus
        self.rules = GAMES[game]
        self.deck = self.rules.Deck.from_data(deck_data(game))
        self.joined: list[int] = []        # lobby: seat numbers that joined, clockwise
        self.players: tuple[int, ...] = ()  # game: the playing seats, in player order
        self.state: Any = None              # the engine state, None in the lobby
        self.message: dict | None = None    # the latest refusal, for the screen
        self.occupied: dict[str, str] = {}  # pad -> UID of the card on it
        for _, kind, data in journal.entries():
            self._do(kind, data)
        # After a reveal, until every pad is empty. Restored there, last round's cards may still lie on
        # pads that have not reported yet: every pad stays unsure until presence reports on it.
        self.clearing = self._must_clear()
        self.unsure: set[str] = set(layout.pads) if self.clearing else set()
        self.dead: set[str] = set()   # pads whose reader was given up: the gate does not wait for them
        bus.subscribe(CardPlaced, self.on_card)
        bus.subscribe(CardRemoved, self.on_card_removed)
        bus.subscribe(PadSeenEmpty, self.on_pad_seen_empty)
        bus.subscribe(ReaderDead, self.on_reader_dead)
        bus.subscribe(ReaderRecovered, self.on_reader_recovered)
        bus.subscribe(ButtonDown, self.on_button)
        bus.subscribe(StaffCommand, self.on_staff_command)

    # ------------------------------------------------------------ inputs

    def on_card(self, event: CardPlaced) -> None:
        self.occupied[event.pad] = event.uid
        self.unsure.discard(event.pad)
        if self.clearing:
            # Last round's cards are still on the pads: a card read now may be one of them.
            self.message = {"key": "clear_table", "params": {}, "seat": None}
            return None
        seat, slot = self.layout.pad_place(event.pad)
        tag = self.registry.lookup(event.uid)
        if tag is None:
            return self._refuse(seat, "unknown_tag")
        if tag.kind == "staff":
            return self._staff()
        if tag.deck != self.rules.NAME:
            return self._refuse(seat, "other_game_card")
        if self.state is None:
            return self._join(seat)
        if seat is not None and seat not in self.players:
            return self._refuse(seat, "seat_not_joined")
        player = None if seat is None else self.players.index(seat)
        self._play(seat, self.rules.interpret(self.state, CardOnPad(tag.card, player, slot)))

    def on_card_removed(self, event: CardRemoved) -> None:
        self.occupied.pop(event.pad, None)
        self._end_clearing_if_clear()

    def on_pad_seen_empty(self, event: PadSeenEmpty) -> None:
        self.unsure.discard(event.pad)
        self._end_clearing_if_clear()

    def on_reader_dead(self, event: ReaderDead) -> None:
        """A dead reader cannot tell what lies on its pad: the clear-table gate stops waiting for it."""
        self.dead.add(event.pad)
        self._end_clearing_if_clear()

    def on_reader_recovered(self, event: ReaderRecovered) -> None:
        self.dead.discard(event.pad)

    def on_button(self, event: ButtonDown) -> None:
        seat = event.seat
        if self.state is None:
            if event.button != "ok":
                return None
            if seat not in self.joined:
                return self._refuse(seat, "seat_not_joined")
            return self._start(dealer_seat=seat, by=seat)
        if seat not in self.players:
            return self._refuse(seat, "seat_not_joined")
        if self.over and event.button == "ok":
            return self._accept(seat, "lobby", {"seats": list(self.players)})
        self._play(seat, self.rules.interpret(self.state, ButtonPress(self.players.index(seat), event.button)))

    def on_staff_command(self, event: StaffCommand) -> None:
        if event.command == "start":
            self._staff()

    # ------------------------------------------------------------ steps

    def _staff(self) -> None:
        """The staff card (or the staff menu): start the game from the lobby, back to the lobby after one."""
        if self.state is None:
            return self._start(dealer_seat=self.joined[0] if self.joined else None, by=None)
        if self.over:
            return self._accept(None, "lobby", {"seats": list(self.players)})
        self._refuse(None, "game_started")

    def _join(self, seat: int | None) -> None:
        if seat is None:
            return self._refuse(None, "join_at_seat")
        if seat in self.joined:
            return self._refuse(seat, "seat_already_joined")
        if len(self.joined) >= self.rules.MAX_PLAYERS:
            return self._refuse(seat, "table_full")
        self._accept(seat, "join", {"seat": seat})

    def _start(self, dealer_seat: int | None, by: int | None) -> None:
        """Start the game with the joined seats; `by` is the seat that asked (None: staff)."""
        if len(self.joined) < self.rules.MIN_PLAYERS:
            return self._refuse(by, "too_few_players", min_players=self.rules.MIN_PLAYERS)
        seats = sorted(self.joined)
        self._accept(by, "start", {"game": self.rules.NAME, "seats": seats, "dealer": seats.index(dealer_seat)})

    def _play(self, seat: int | None, action: Any) -> None:
        if action is None:
            return None
        refusal = action if isinstance(action, Refusal) else self.rules.check(self.state, action)
        if refusal:
            # A seat's card is never named on screen: it could be a sealed bid.
            params = {k: v for k, v in refusal.args.items() if k not in ("player", "card") or seat is None}
            return self._refuse(seat, refusal.key, **params)
        self._accept(seat, "action", self.rules.to_json(action))

    def _accept(self, seat: int | None, kind: str, data: dict) -> None:
        """Journal, then apply, then acknowledge."""
        self.journal.append(kind, data)
        self._do(kind, data)
        self.clearing = self._must_clear() and bool(self.occupied.keys() - self.dead)
        self.message = None
        log.info("accepted %s from seat %s", kind, seat)   # never the data: it may hold a sealed bid
        self.bus.publish(Accepted(seat, kind))

    def _refuse(self, seat: int | None, key: str, **params: Any) -> None:
        if seat is not None:
            params["seat"] = seat
        self.message = {"key": key, "params": params, "seat": seat}
        log.info("refused %s from seat %s", key, seat)
        self.bus.publish(Refused(seat, key, tuple(sorted(params.items()))))

    def _do(self, kind: str, data: dict) -> None:
        """Apply one journal entry to the session (live and on restore)."""
        if kind == "join":
            self.joined = sorted(self.joined + [data["seat"]])
        elif kind == "start":
            self.players = tuple(data["seats"])
            self.state = self.rules.new_game(self.deck, len(self.players), dealer=data["dealer"])
        elif kind == "action":
            self.state = self.rules.apply(self.state, self.rules.from_json(data))
        elif kind == "lobby":
            self.joined, self.players, self.state = list(data["seats"]), (), None
        else:
            raise ValueError(f"unknown journal entry kind {kind!r}")

    def _end_clearing_if_clear(self) -> None:
        if self.clearing and not (self.occupied.keys() | self.unsure) - self.dead:
            self.clearing = False
            self.message = None
            self.bus.publish(ViewChanged())

    def _must_clear(self) -> bool:
        return self.state is not None and self.rules.clear_table_first(self.state)

    # ------------------------------------------------------------ views

    @property
    def over(self) -> bool:
        return self.state is not None and self.rules.need(self.state).done

    def public(self) -> dict | None:
        """The engine's public view (None in the lobby)."""
        return None if self.state is None else self.rules.observe(self.state, None)

    def table_view(self) -> dict:
        """Everything the screen may draw (see docs/screen.md); nothing secret."""
        return {
            "mode": "lobby" if self.state is None else "game",
            "game": self.rules.NAME,
            "seats": [s.number for s in self.layout.seats],
            "joined": list(self.players) if self.state is not None else list(self.joined),
            "min_players": self.rules.MIN_PLAYERS,
            "max_players": self.rules.MAX_PLAYERS,
            "single_pad": all(len(s.pads) == 1 for s in self.layout.seats),
            "message": self.message,
            "clearing": self.clearing,
            "view": self.public(),
        }
