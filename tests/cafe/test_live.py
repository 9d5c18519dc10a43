"""live.json, the table's public state for the café link: rewritten after each input, never a card not yet public."""
from __future__ import annotations

import json
import re

import pytest

from table.events import Accepted
from table.registry import GAMES
from table.session.replay import public_state
from table.sim.simulated_table import SimulatedTable
from table.storage.journal import Journal
from table.storage.outbox import LIVE
from tests.sim.test_bots import bots_at, layout_for


def quoted(ids: set[str], text: str, quote: str) -> set[str]:
    """The card ids of `ids` that `text` names between `quote`s."""
    return {card for card in re.findall(f"{quote}([^{quote}]+){quote}", text) if card in ids}


@pytest.mark.parametrize("name", list(GAMES))
def test_live_json_never_holds_a_card_before_it_is_public(tmp_path, name):
    """Bots play a whole game; after every accepted input live.json equals replay's public state (whose views hide
    sealed commits: tests/games/test_contract.py), and names no card the engine holds that its public view does not
    name (a sealed bid, a hand, a pile's hidden cards; a game listing its unseen cards names them all)."""
    players = GAMES[name].info.players[0]
    sim = SimulatedTable(layout_for(players), Journal(tmp_path / "journal.sqlite"), game=name, seed=5)
    rules, ids = GAMES[name].rules, set(sim.cards(GAMES[name].info.deck))
    seen, wrong = {"inputs": 0, "hidden": 0}, []   # the bus logs and skips a subscriber that raises: collected

    def check(_event: Accepted) -> None:
        text = (tmp_path / LIVE).read_text()
        if json.loads(text) != json.loads(json.dumps(public_state(sim.session))):
            wrong.append(("not the public state", seen["inputs"]))
        seen["inputs"] += 1
        if sim.session.state is not None:
            hidden = quoted(ids, repr(sim.session.state), "'") - quoted(ids, json.dumps(rules.observe(
                sim.session.state, None)), '"')
            wrong.extend(("hidden", card) for card in quoted(ids, text, '"') & hidden)
            seen["hidden"] += bool(hidden)

    sim.table.bus.subscribe(Accepted, check)
    bots = bots_at(sim, name, players, 5)
    bots.join_and_start()
    bots.play()
    sim.close()
    assert wrong == [] and seen["inputs"] > 10
    assert seen["hidden"] > 0 or name == "venture", "the check saw hidden cards"
