"""The physical side of a simulated table, common to every game: hands, pile, cards laid, and the acts on them.

A game's bots module subclasses `World` with its own physical rules (how it
deals, what a card accepted by the table does, what players pick up after a
resolution) and gives `Players`, seeded bots acting through that world
(table/bots/players.py for games whose bots `choose` from their seat's view).
The simulated window and the demo use only what is here: `join`, `press`,
`staff`, `show` (the top of the pile, where the game takes it), `lay` (a card
the seat can reach onto its pad), `reach`, `pick_up`, `hands`, `pile`,
`note`, `round_over`, `moment`.
"""
from __future__ import annotations

import random
from functools import cached_property
from typing import Any, Callable, Protocol

from table.events import Accepted, Refused
from table.games.contract import CardOnPad

STAFF_CARD = "staff-1"


class SimTable(Protocol):
    """What a world acts on: a simulated table (table/sim/simulated_table.py's `SimulatedTable`)."""

    table: Any                  # the wired table: its `bus`, `layout` and `table_view()`
    pads: dict[str, Any]        # pad -> what a hand lays tags on

    @property
    def session(self) -> Any: ...   # the table's session: state, game, players, joined...
    @property
    def deck(self) -> str: ...      # the deck of the game in play (or chosen in the lobby)
    def cards(self, deck: str) -> list[str]: ...
    def put(self, pad: str, card: str) -> None: ...
    def lift(self, pad: str) -> None: ...
    def tap(self, pad: str, card: str) -> None: ...
    def clear(self) -> None: ...
    def settle(self) -> None: ...
    def press(self, seat: int, button: str) -> None: ...


class CannotDo(Exception):
    """A physical act that cannot be done now; the argument is an i18n key saying why (for the operator)."""


class World:
    """The cards of a simulated table and the physical acts on them.

    Acts return whether the table accepted them, and raise `CannotDo` when they
    cannot be done at all. When a game starts the world deals (`_deal`); when
    the table goes back to the lobby everyone hands the cards back.

    A game's world overrides the hooks: `_deal`, `_resume` (required: a world
    opened on a game under way must rebuild its cards), `_landed`, `_picked_up`,
    and the two flags below.
    """

    LEAVE_ON_SLOTS = True   # a card laid on a pad of a multi-pad seat stays there (a bid); False: tapped too
    LAID_IN_VIEW = False    # whether a seat still looks at the cards it laid, face up by it, until picked up

    def __init__(self, sim: SimTable, rng: random.Random) -> None:
        self.sim = sim
        self.rng = rng
        self.layout = sim.table.layout
        self.hands: dict[int, list[str]] = {}   # seat -> cards in hand
        self.pile: list[str] = []               # face down; the top is the end
        self.table: list[str] = []              # cards lying on the table
        self.laid: dict[str, int] = {}          # card -> the seat that last laid it (those still on the table count)
        self.note: str | None = None            # an i18n key for the operator, after a resume
        self.deal: int | None = None            # the deal the world's cards were dealt for
        self._answer: Accepted | Refused | None = None
        sim.table.bus.subscribe(Accepted, self._heard)
        sim.table.bus.subscribe(Refused, self._heard)
        sim.settle()
        if self.session.state is not None:
            self.deal = self._deal_number()
            self.note = "sim_resumed_redealt" if self._resume() else "sim_resumed"

    @property
    def session(self):
        return self.sim.session

    @property
    def rules(self):
        return self.session.game.rules

    @property
    def acts(self):
        return self.session.game.acts

    def pads(self, seat: int) -> tuple[str, ...]:
        return self.layout.seats[seat - 1].pads

    @property
    def round_over(self) -> bool:
        """Cards of a finished resolution (or of the game's last one) still lie on the table, and the game no
        longer names them: the next step is to pick them up."""
        state = self.session.state
        return bool(self.table) and state is not None and (self.session.over or self.acts.must_clear(state)) and \
            not set(self.table) <= self._named()

    def moment(self) -> object:
        """What a demo shows a frame for besides each resolution, when it changes (None: resolutions only); a
        game whose play is seen between resolutions (a grid growing) says what marks it."""
        return None

    # ------------------------------------------------------------ acts

    def join(self, seat: int, card: str | None = None) -> bool:
        """The seat taps a card on its pad: to join, in the lobby (any card of the deck will do)."""
        if self.session.state is not None:
            raise CannotDo("sim_join_in_lobby")
        card = card or self.sim.cards(self.sim.deck)[0]
        return self._act(lambda: self.sim.tap(self.pads(seat)[0], card))

    def press(self, seat: int, button: str) -> bool:
        """The seat presses one of its buttons."""
        return self._act(lambda: self.sim.press(seat, button))

    def staff(self) -> bool:
        """Staff tap the staff card on a free pad, the centre first: it opens the staff menu, or closes it."""
        pad = next(p for p in self.layout.centre + self.layout.pads if self.sim.pads[p].card is None)
        return self._act(lambda: self.sim.tap(pad, STAFF_CARD))

    def show(self) -> bool:
        """Turn up the top card of the pile where the game takes it: a centre pad, or the pad of the seat
        that must show it. Refused, it goes back on the pile."""
        self._can_show()
        card = self.pile[-1]
        state = self.session.state
        action = next((a for a in self.rules.legal_actions(state) if getattr(a, "card", None) == card), None) \
            if state is not None else None
        acts = self.acts.acts_for(state, action, self.session.shape) if action is not None else ()
        act = acts[0] if acts else CardOnPad(card)
        return self._put(act, self.pile)

    def _can_show(self) -> None:
        """Raise `CannotDo` unless the game waits for a card of the pile now (nobody turns one up otherwise)."""
        if self.round_over:
            raise CannotDo("sim_pick_up_first")
        state = self.session.state
        if state is not None and not self.rules.need(state).chance:
            raise CannotDo("sim_no_show_now")
        if not self.pile:
            raise CannotDo("sim_pile_empty")

    def lay(self, seat: int, card: str, slot: int | None = None) -> bool:
        """The seat lays `card` (from its hand, or one it designates on the table) on its pad: at a seat with
        several pads, pad `slot` (the first by default). Before the round's cards are picked up, only a card
        on the table the seat designates (a target it takes) may be laid."""
        reach = self.reach(seat)
        if self.round_over and not (card in reach and card in self.table):
            raise CannotDo("sim_pick_up_first")
        if card not in reach:
            raise CannotDo("sim_no_card")
        slot = None if len(self.pads(seat)) == 1 else slot or 0
        return self._put(CardOnPad(card, self.session.players.index(seat), slot), self.hands.get(seat, []))

    @cached_property
    def _order(self) -> dict[str, int]:
        """Card -> its place in the deck file (a world serves one game, so one deck)."""
        return {c: i for i, c in enumerate(self.sim.cards(self.sim.deck))}

    def in_order(self, cards) -> list[str]:
        """`cards` in the deck file's order (1, 2, ... 10, where text would put 10 before 2); accessories last."""
        order = self._order
        return sorted(cards, key=lambda c: (order.get(c, len(order)), c))

    def reach(self, seat: int) -> list[str]:
        """The cards `seat` may lay now: its hand, and the cards on the table its legal actions name."""
        hand = self.hands.get(seat, [])
        state = self.session.state
        if state is None or seat not in self.session.players:
            return hand
        return hand + [card for card in self.table if card in self._named(self.session.players.index(seat))]

    def _named(self, player: int | None = None) -> set[str]:
        """The cards the players' legal actions now name (of `player` only, when given); none while the game
        waits for chance (a chance card comes off the pile, never off the table)."""
        state = self.session.state
        if self.rules.need(state).chance:
            return set()
        return {getattr(a, "card", None) for a in self.rules.legal_actions(state)
                if player is None or getattr(a, "player", None) == player}

    def pick_up(self) -> bool:
        """After a resolution everyone takes up what the rules say (`_picked_up`); when it ended a deal,
        everything is gathered and the next deal dealt."""
        if not self.round_over:
            raise CannotDo("sim_nothing_to_pick_up")
        if self._deal_number() != self.deal and self.session.state.phase != "over":
            self._gather(deal=True)
        else:
            self.sim.clear()
            self._picked_up()
        return True

    def _deal_number(self) -> int | None:
        """The deal under way (the public view's "deal"; None for a game without deals)."""
        return self.rules.observe(self.session.state, None).get("deal")

    def _picked_up(self) -> None:
        """Hook: what everyone does with a resolution's cards, the pads cleared: they leave the table (by default)."""
        self.table = []

    # ------------------------------------------------------------ inner workings

    def _deal(self) -> None:
        """Hook: the game's deal, when it starts (and at each new deal): `hands`, `pile`, `table`."""

    def _resume(self) -> bool:
        """Hook: rebuild `hands`, `pile` and `table` from a session resumed from its journal, knowing only what
        the table knows; whether cards nobody saw had to be dealt again at random (the operator is told)."""
        return False

    def _gather(self, deal: bool) -> None:
        """Everyone hands every card back (off the pads too); then the game deals if asked."""
        if any(reader.card for reader in self.sim.pads.values()):
            self.sim.clear()
        self.hands, self.pile, self.table = {}, [], []
        if deal:
            self.deal = self._deal_number()
            self._deal()

    def _lay(self, card: str, pad: str, back: list[str], at: int | None = None) -> bool:
        """Lay `card` on `pad` (tapped on a single pad, else left there unless `LEAVE_ON_SLOTS` is false); on the
        table if accepted, else back into `back`, where it was (`at`; the end by default)."""
        seat, slot = self.layout.pad_place(pad)
        tapped = slot is None or not self.LEAVE_ON_SLOTS
        accepted = self._act(lambda: self.sim.tap(pad, card) if tapped else self.sim.put(pad, card))
        if accepted:
            self.table.append(card)
            if seat is not None:
                self.laid[card] = seat
        else:
            if not tapped:
                self.sim.lift(pad)
            back.insert(len(back) if at is None else at, card)
        return accepted

    def _put(self, act: CardOnPad, source: list[str]) -> bool:
        """Take `act.card` from where it lies (`source`, or the table when the seat designates it) to the pad
        the act names (or a free pad of the same seat or centre); then the game says where the accepted card
        goes (`_landed`)."""
        seat = None if act.player is None else self.session.players[act.player]
        pads = self.layout.centre if seat is None else self.pads(seat)
        free = [pad for pad in pads if self.sim.pads[pad].card is None]
        if not free:
            raise CannotDo("sim_no_free_pad")
        pad = pads[act.slot or 0] if pads[act.slot or 0] in free else free[0]
        act = CardOnPad(act.card, act.player, self.layout.pad_place(pad)[1])
        state = self.session.state
        action = self.acts.interpret(state, act) if state is not None else None
        if act.card not in source and act.card in self.table:
            source = self.table
        at = source.index(act.card) if act.card in source else None
        if at is not None:
            source.pop(at)
        if not self._lay(act.card, pad, source, at):
            return False
        self._landed(seat, act.card, action)
        return True

    def _landed(self, seat: int | None, card: str, action) -> None:
        """Hook: where a card the table accepted goes (it lies on the table by default): the game's physical rule."""

    def _act(self, act: Callable[[], None]) -> bool:
        """Do a physical act; whether the table accepted it. A game that starts is dealt, one that ends handed back."""
        self._answer = None
        act()
        answer = self._answer
        if isinstance(answer, Accepted) and answer.what in ("start", "lobby"):
            self._gather(deal=answer.what == "start")
        return isinstance(answer, Accepted)

    def _heard(self, event: Accepted | Refused) -> None:
        """The table's first answer to the act under way."""
        if self._answer is None:
            self._answer = event
