"""High Card's engine: pure functions on an immutable state (table/games/contract.py).

Every round each player seals one card no one has seen yet; when the last
one is in, the cards are shown and the highest rank takes a point (a tie at
the top scores nothing). After `ROUNDS` rounds the most points win.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from table.games.contract import GameInfo, Need, Refusal

NAME = "high-card"
ROUNDS = 5
INFO = GameInfo(NAME, deck="pairs", players=range(2, 5))


@dataclass(frozen=True, slots=True)
class Bid:
    """`player` seals `card` for this round."""

    player: int
    card: str


ACTIONS = (Bid,)


@dataclass(frozen=True, slots=True)
class State:
    rank: tuple[tuple[str, int], ...]      # the deck: card -> rank, in the deck file's order
    players: int
    round: int = 1
    bids: tuple[str | None, ...] = ()      # this round's sealed cards, by player
    seen: tuple[str, ...] = ()             # every card shown so far, in order
    totals: tuple[int, ...] = ()
    last: tuple[str, ...] | None = None    # the cards the last round showed, by player
    fresh: bool = False                    # the last round's cards may still lie on the pads (until a bid)

    @property
    def phase(self) -> str:
        return "over" if self.round > ROUNDS else "bidding"


def make_deck(data: dict) -> tuple[tuple[str, int], ...]:
    return tuple((card["id"], card["rank"]) for card in data["cards"])


def new_game(deck, players: int, first: int, options: dict | None = None) -> State:
    return State(deck, players, bids=(None,) * players, totals=(0,) * players)


def need(state: State) -> Need:
    if state.phase == "over":
        return Need()
    return Need(tuple(p for p, bid in enumerate(state.bids) if bid is None), simultaneous=True)


def check(state: State, action) -> Refusal | None:
    if not isinstance(action, Bid) or not 0 <= action.player < state.players:
        return Refusal.of("unknown_action")
    if state.phase == "over":
        return Refusal.of("game_over")
    if state.bids[action.player] is not None:
        return Refusal.of("already_bid")
    if action.card not in dict(state.rank) or action.card in state.seen or action.card in state.bids:
        return Refusal.of("card_seen")
    return None


def legal_actions(state: State) -> list:
    unseen = [card for card, _ in state.rank if card not in state.seen and card not in state.bids]
    return [Bid(p, card) for p in need(state).players for card in unseen]


def apply(state: State, action: Bid) -> State:
    bids = state.bids[:action.player] + (action.card,) + state.bids[action.player + 1:]
    if None in bids:
        return replace(state, bids=bids, fresh=False)
    rank = dict(state.rank)
    best = max(rank[card] for card in bids)
    takers = [p for p, card in enumerate(bids) if rank[card] == best]
    totals = tuple(t + (len(takers) == 1 and p == takers[0]) for p, t in enumerate(state.totals))
    return replace(state, round=state.round + 1, bids=(None,) * state.players, seen=state.seen + bids,
                   totals=totals, last=bids, fresh=True)


def winners(state: State) -> list[int]:
    if state.phase != "over":
        return []
    return [p for p, total in enumerate(state.totals) if total == max(state.totals)]


NAMED_PLAYERS = ()   # where the public view names a player besides its winners: nowhere


def observe(state: State, player: int | None) -> dict:
    """The public view: the round, who has sealed a card, the last round's cards; a seat also sees its own."""
    view = {"phase": state.phase, "players": state.players, "totals": list(state.totals),
            "winners": winners(state), "round": min(state.round, ROUNDS), "rounds": ROUNDS,
            "committed": [bid is not None for bid in state.bids],
            "last": None if state.last is None else list(state.last)}
    if player is not None:
        view |= {"seat": player, "my_bid": state.bids[player]}
    return view
