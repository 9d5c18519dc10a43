"""A table session without hardware, for any registered game: `Desk` and its random legal act.

`Desk` is a TableSession on an EventBus fed the events presence tracking
publishes (CardPlaced / CardRemoved / ButtonDown): fast enough for
hypothesis and for restoring a session at every journal position.
`legal_act` turns a random legal engine action into the physical acts the
game's `acts_for` gives for it (a card on the right pad, seat buttons), so
every game progresses the way it does at a real table.
"""
from __future__ import annotations

import random
from pathlib import Path

from table.assets import deck_data
from table.events import Accepted, ButtonDown, CardPlaced, CardRemoved, EventBus, PadSeenEmpty, Refused
from table.games.contract import ButtonPress, CardOnPad
from table.games.kit.codec import from_json
from table.games.kit.replay import replay
from table.layout import load_layout
from table.registry import GAMES
from table.session.table_session import TableSession
from table.storage.journal import Journal
from table.storage.registry import Tag, TagRegistry, deck_cards, enrol_simulated
from tests.session.staff_cards import genuine_staff_cards

SINGLE, SLOTS = "sim-6-single", "sim-6-slots"


def make_registry() -> TagRegistry:
    """Every registered game's deck (and accessories) and a staff card, tagged as the simulated table tags them."""
    registry = TagRegistry()
    for deck in dict.fromkeys(game.info.deck for game in GAMES.values()):
        enrol_simulated(registry, deck, deck_cards(deck))
    return registry


STAFF_UID = make_registry().uid_of(Tag("staff", None, "staff-1"))


def entry_count(journal: Journal) -> int:
    return journal._db.execute("SELECT count(*) FROM entries").fetchone()[0]


def snapshot(session: TableSession) -> tuple:
    """Everything a refused input must leave as it was."""
    return (session.public(), session.table_view()["joined"], session.players, session.state,
            entry_count(session.journal))


def restored(entries, layout: str | Path = SINGLE, path: Path | None = None) -> TableSession:
    """A session started on a journal (in memory, or at `path`) holding `entries`, as after a restart."""
    journal = Journal(path or ":memory:")
    for _, kind, data in entries:
        journal.append(kind, data)
    return TableSession(load_layout(layout), make_registry(), journal, EventBus())


def engine_replay(entries) -> tuple[object | None, tuple[int, ...]]:
    """The engine state and the seats playing after a journal's entries, replayed by the game's rules alone, not
    the session (None and () in the lobby)."""
    start, actions = None, []
    for _, kind, data in entries:
        if kind == "start":
            start, actions = data, []
        elif kind == "action":
            actions.append(from_json(GAMES[start["game"]].rules.ACTIONS, data))
        elif kind == "lobby":
            start = None
    if start is None:
        return None, ()
    game = GAMES[start["game"]]
    seats = tuple(start["seats"])
    return replay(game.rules, game.deck, len(seats), start["first"], start["options"], actions), seats


def legal_act(session: TableSession, rng: random.Random) -> tuple[tuple, object]:
    """A random legal action physical acts can produce at this table (with the buttons its seats have), and
    those acts: ("card", pad, card) or ("button", seat, name), in order."""
    state, game, layout = session.state, session.game, session.layout

    def has_buttons(acts) -> bool:
        return all(dict(layout.seats[session.players[act.player] - 1].buttons).get(act.button)
                   for act in acts if isinstance(act, ButtonPress))

    physical = [(acts, action) for action in game.rules.legal_actions(state)
                if (acts := game.acts.acts_for(state, action, session.shape)) and has_buttons(acts)]
    acts, action = rng.choice(physical)
    steps = []
    for act in acts:
        if isinstance(act, ButtonPress):
            steps.append(("button", session.players[act.player], act.button))
        elif isinstance(act, CardOnPad):
            pads = layout.centre if act.player is None else layout.seats[session.players[act.player] - 1].pads
            steps.append(("card", pads[act.slot or 0], act.card))
    return tuple(steps), action


class Desk:
    """A TableSession fed presence events directly, as presence tracking would publish them; the lobby offers
    `game` (by default the first the layout can play)."""

    def __init__(self, layout: str | Path = SINGLE, journal: Journal | None = None,
                 registry: TagRegistry | None = None, game: str | None = None) -> None:
        self.layout = load_layout(layout)
        self.registry = registry or make_registry()
        self.journal = journal if journal is not None else Journal()
        self.bus = EventBus()
        self.session = TableSession(self.layout, self.registry, self.journal, self.bus, game)
        genuine_staff_cards(self.bus, self.registry)
        self.events: list[Accepted | Refused] = []
        self.bus.subscribe(Accepted, self.events.append)
        self.bus.subscribe(Refused, self.events.append)
        self.on: dict[str, str] = {}   # pad -> uid held there, as presence knows it
        self._send(*(PadSeenEmpty(pad) for pad in self.layout.pads))   # as presence reports bare pads at start

    @property
    def cards(self) -> list[str]:
        """The playing cards of the deck of the game in play (or chosen in the lobby)."""
        return [c["id"] for c in deck_data(self.session.chosen.info.deck)["cards"]]

    def uid(self, card: str) -> str:
        """The tag of a card (or accessory) of the deck in play."""
        uid = self.registry.uid_of(Tag("card", self.session.chosen.info.deck, card))
        assert uid is not None, f"{card} has no tag"
        return uid

    def _send(self, *events) -> list[Accepted | Refused]:
        start = len(self.events)
        for event in events:
            self.bus.publish(event)
        self.bus.dispatch()
        return self.events[start:]

    def place_uid(self, pad: str, uid: str) -> list:
        """A tag settles on a pad (the card there before, if any, is removed first, as presence does)."""
        out = self.remove(pad) if pad in self.on else []
        self.on[pad] = uid
        return out + self._send(CardPlaced(pad, uid))

    def place(self, pad: str, card: str) -> list:
        return self.place_uid(pad, self.uid(card))

    def remove(self, pad: str) -> list:
        uid = self.on.pop(pad, None)
        return [] if uid is None else self._send(CardRemoved(pad, uid))

    def tap(self, pad: str, card: str) -> list:
        return self.place(pad, card) + self.remove(pad)

    def clear(self) -> list:
        out = []
        for pad in list(self.on):
            out += self.remove(pad)
        return out

    def press(self, seat: int, button: str) -> list:
        return self._send(ButtonDown(seat, button))

    def staff(self) -> list:
        """Staff tap the staff card on the centre pad: the staff menu opens (or closes)."""
        centre = self.layout.centre[0]
        return self.place_uid(centre, STAFF_UID) + self.remove(centre)

    def pad(self, seat: int, index: int = 0) -> str:
        return self.layout.seats[seat - 1].pads[index]

    def join(self, *seats: int) -> None:
        for seat in seats:
            self.tap(self.pad(seat), self.cards[0])

    def start(self, seats=(1, 2, 3), dealer: int | None = None) -> None:
        self.join(*seats)
        self.press(dealer or seats[0], "ok")
        assert self.session.state is not None

    def act(self, rng: random.Random, keep: bool = False):
        """Do one legal step (the pads cleared first when the table waits for it); cards are tapped, or left on
        their pad when `keep`. Returns the action."""
        if self.session.clearing:
            self.clear()
        steps, action = legal_act(self.session, rng)
        for kind, where, what in steps:
            if kind == "button":
                self.press(where, what)
            elif keep:
                self.place(where, what)
            else:
                self.tap(where, what)
        return action

    def play_until(self, rng: random.Random, done, keep: bool = False, limit: int = 5000) -> None:
        for _ in range(limit):
            if done(self.session):
                return
            self.act(rng, keep)
        raise AssertionError("the game never reached the wanted point")
