"""The contract every registered game keeps (and the reference game of tests/games/reference/), checked over
random legal play at every player count.

For each game and player count, with random options: legal actions are
exactly what `check` accepts and come from the players `need` lists; cards
are conserved (each game's tests give `assert_cards_conserved`); each action
comes back from its physical acts (action -> acts -> action, with the
session's prompt cursor); the journal's JSON replays to the live state; the
result of sealed commits does not depend on their order; a hidden commit
changes neither the public view nor a pixel of the screen; a finished game
has winners. Through a live session, an input the table refuses changes
neither its state nor its journal.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import replace
from importlib import import_module
from importlib.util import find_spec
from inspect import signature
from pathlib import Path
from types import SimpleNamespace

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.events import ButtonDown, CardPlaced, EventBus, PadSeenEmpty, Refused
from table.registry import GAMES
from table.bots.players import Bots
from table.bots.world import World
from table.games.contract import ALWAYS_IN_VIEW, VIEW_KEYS, ButtonPress, GameBots, Need, PadShape, Page
from table.games.kit.codec import from_json, to_json
from table.games.kit.seats import seated
from table.layout import load_layout
from table.screen import Screen
from table.screen.i18n import LANGS, message_text
from table.session.replay import public_state
from table.session.table_session import TableSession
from table.storage.journal import Journal
from table.assets import deck_data
from table.storage.registry import Tag, TagRegistry, enrol_simulated

from tests.games.reference import GAME as REFERENCE

from .tables import random_states, table_view

CONTRACT_GAMES = {**GAMES, REFERENCE.name: REFERENCE}
CASES = [(name, n) for name, game in CONTRACT_GAMES.items() for n in game.info.players]
SHAPES = (PadShape(1, 1), PadShape(4, 4))
SAMPLE = 12   # legal actions checked in depth per state


def conserved(game):
    """The game's own card-conservation check (tests/games/<package>/test_<package>_properties.py)."""
    package = game.package.rsplit(".", 1)[1]
    return import_module(f".{package}.test_{package}_properties", __package__).assert_cards_conserved


CONSERVED = {name: conserved(game) for name, game in CONTRACT_GAMES.items()}


@pytest.fixture(scope="module", autouse=True)
def reference_registered():
    """The reference game registered while these tests run, as its one line in table/registry.py would."""
    GAMES[REFERENCE.name] = REFERENCE
    yield
    del GAMES[REFERENCE.name]


def random_options(game, rng: random.Random) -> dict:
    return {o.name: rng.choice(o.choices) for o in game.info.options}


def player_of(action) -> int | None:
    return getattr(action, "player", None)


def through_acts(game, state, acts) -> object:
    """What the session makes of these acts: a prompt's cursor moves and OK; a seat menu opened by OK on "Back",
    its cursor moved, OK; or the acts module's reading."""
    prompt, cursor, result = game.acts.prompt(state), None, None
    menus = {}   # player -> the open menu's cursor (0: "Back")
    for act in acts:
        menu = (getattr(game.acts, "menu", lambda state, player: None)(state, act.player)
                if isinstance(act, ButtonPress) else None)
        if isinstance(act, ButtonPress) and prompt is not None and prompt.player == act.player:
            at = prompt.start if cursor is None else cursor
            if act.button == "ok":
                result = prompt.options[at]
            else:
                cursor = (at + {"next": 1, "back": -1}.get(act.button, 0)) % len(prompt.options)
        elif menu is not None and (act.player in menus or act.button == "ok"):
            if act.player not in menus:
                menus[act.player] = 0
            elif act.button != "ok":
                menus[act.player] = (menus[act.player] + (-1 if act.button == "back" else 1)) % (len(menu.options) + 1)
            elif at := menus.pop(act.player):
                result = menu.options[at - 1]
        else:
            result = game.acts.interpret(state, act)
    return result


def commits(rules, state, need: Need) -> list:
    """One legal commit for each player a sealed need lists, each still legal after the ones before."""
    chosen, now = [], state
    for player in need.players:
        mine = [a for a in rules.legal_actions(now) if player_of(a) == player]
        if mine and rules.need(now).simultaneous:
            chosen.append(mine[0])
            now = rules.apply(now, mine[0])
    return chosen


def applied(rules, state, actions):
    for action in actions:
        assert rules.check(state, action) is None, action
        state = rules.apply(state, action)
    return state


@pytest.fixture(scope="module")
def screen():
    pygame.font.init()
    return Screen(CONTRACT_GAMES, "fr")


@pytest.mark.parametrize("name, players", CASES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31))
def test_random_legal_play_keeps_the_contract(screen, name, players, seed):
    game = GAMES[name]
    rules, deck, rng = game.rules, GAMES[name].deck, random.Random(seed)
    options = random_options(game, rng)
    first = seed % players
    state = rules.new_game(deck, players, first, options)
    assert_conserved = CONSERVED[name]
    sealed_seen = hidden_checked = False
    while not (need := rules.need(state)).done:
        legal = rules.legal_actions(state)
        assert legal, "a game that needs something has legal actions"
        if not need.chance:
            assert {player_of(a) for a in legal} <= {*need.players, *need.interrupt}
        for action in rng.sample(legal, min(SAMPLE, len(legal))):
            assert rules.check(state, action) is None
            assert from_json(rules.ACTIONS, json.loads(json.dumps(to_json(action)))) == action
            for shape in SHAPES:
                acts = game.acts.acts_for(state, action, shape)
                if acts:
                    assert through_acts(game, state, acts) == action
        if not need.table_draw:
            assert any(game.acts.acts_for(state, a, SHAPES[0]) for a in legal), "the table can always go on"
        else:
            assert all(game.acts.acts_for(state, a, SHAPES[0]) == () for a in legal)
        if need.simultaneous and len(need.players) > 1:
            sealed_seen = True
            sealed = commits(rules, state, need)
            assert applied(rules, state, sealed) == applied(rules, state, sealed[::-1])
            if not hidden_checked:
                hidden_checked = hidden_commit_changes_nothing(screen, game, state, need)
        state = rules.apply(state, rng.choice(legal))
        assert_conserved(state)
    assert hidden_checked or not sealed_seen
    view = rules.observe(state, None)
    assert view["winners"] and set(view["winners"]) <= set(range(players))
    assert json.loads(json.dumps(view)) == view


def hidden_commit_changes_nothing(screen, game, state, need: Need) -> bool:
    """Two sealed commits of one player (not the last awaited) that differ only by their card: same public
    view, same pixels."""
    rules = game.rules
    player = need.players[0]
    mine = [a for a in rules.legal_actions(state) if player_of(a) == player and hasattr(a, "card")]
    twins = [b for b in mine[1:] if replace(b, card=None) == replace(mine[0], card=None)] if mine else []
    if not twins:
        return False
    one, other = rules.apply(state, mine[0]), rules.apply(state, twins[-1])
    assert rules.observe(one, None) == rules.observe(other, None)
    a, b = table_view(game, one), table_view(game, other)
    for page, step in screen.pages(a):
        assert pygame.image.tobytes(screen.render(a, page, step), "RGB") == \
            pygame.image.tobytes(screen.render(b, page, step), "RGB")
    return True


@pytest.mark.parametrize("name, players", CASES)
def test_the_journal_replays_to_the_live_state(name, players):
    game = GAMES[name]
    rng = random.Random(players)
    options = random_options(game, rng)
    states = list(random_states(game, players, players, options))
    # random_states plays from new_state(..., seed=players); rebuild the actions from consecutive states
    live = states[-1]
    replayed = game.rules.new_game(GAMES[name].deck, players, players % players, {**game.info.defaults(), **options})
    assert replayed == states[0]
    for before, after in zip(states, states[1:]):
        action = next(a for a in game.rules.legal_actions(before) if game.rules.apply(before, a) == after)
        action = from_json(game.rules.ACTIONS, json.loads(json.dumps(to_json(action))))
        assert game.rules.check(replayed, action) is None
        replayed = game.rules.apply(replayed, action)
    assert replayed == live
    assert game.rules.observe(replayed, None) == game.rules.observe(live, None)


@pytest.mark.parametrize("name", [name for name, game in GAMES.items() if find_spec(f"{game.package}.view")])
def test_what_a_page_shows_is_decided_without_pygame(name):
    """A game's view module (what its pages show) loads, and decides, without the screen's pygame."""
    check = (f"import sys; from table.games.{GAMES[name].package.rsplit('.', 1)[1]} import view; "
             "assert 'pygame' not in sys.modules, 'pygame loaded'")
    subprocess.run([sys.executable, "-c", check], check=True, cwd=Path(__file__).parents[2])   # this checkout


# ---------------------------------------------------------------- through a live session

LAYOUT = load_layout("sim-8-single")


def live_session(game, players: int, seed: int) -> tuple[TableSession, EventBus, TagRegistry]:
    """A session restored from a journal of random legal play up to a random point of a game."""
    rng = random.Random(seed)
    registry = TagRegistry()
    enrol_simulated(registry, game.info.deck, [c["id"] for c in _deck_cards(game)])
    journal = Journal(":memory:")
    seats = list(range(1, players + 1))
    journal.append("menu", {"game": game.name, "options": {}, "cursor": -1})   # the joins depend on the game
    for seat in seats:
        journal.append("join", {"seat": seat})
    options = random_options(game, rng)
    journal.append("start", {"game": game.name, "options": options, "seats": seats, "first": 0})
    state = game.rules.new_game(game.deck, players, 0, {**game.info.defaults(), **options})
    for _ in range(rng.randrange(200)):
        if game.rules.need(state).done:
            break
        action = rng.choice(game.rules.legal_actions(state))
        journal.append("action", to_json(action))
        state = game.rules.apply(state, action)
    bus = EventBus()
    session = TableSession(LAYOUT, registry, journal, bus, rng=random.Random(seed))
    for pad in LAYOUT.pads:            # restored: the pad gate holds every pad until it is seen empty
        bus.publish(PadSeenEmpty(pad))
    bus.dispatch()
    return session, bus, registry


def _deck_cards(game) -> list[dict]:
    return deck_data(game.info.deck)["cards"]


@pytest.mark.parametrize("name", list(CONTRACT_GAMES))
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), inputs=st.lists(st.tuples(st.integers(0, 10**6), st.booleans()), max_size=12))
def test_a_refused_input_changes_nothing(name, seed, inputs):
    game = GAMES[name]
    players = game.info.players.start + seed % len(game.info.players)
    session, bus, registry = live_session(game, players, seed)
    cards = [c["id"] for c in _deck_cards(game)]
    refused: list[Refused] = []
    bus.subscribe(Refused, refused.append)
    for i, (pick, is_card) in enumerate(inputs):
        before = (session.state, session.prompt, len(list(session.journal.entries())))
        refused.clear()
        if is_card:
            pad = LAYOUT.pads[pick % len(LAYOUT.pads)]
            uid = registry.uid_of(_tag(game, cards[pick % len(cards)]))
            bus.publish(CardPlaced(pad, uid))
            bus.dispatch()
            session.occupied.pop(pad, None)   # lifted at once
        else:
            bus.publish(ButtonDown(1 + pick % players, ("next", "ok", "back")[pick % 3]))
            bus.dispatch()
        if refused:
            assert (session.state, session.prompt, len(list(session.journal.entries()))) == before


@pytest.mark.parametrize("name", list(CONTRACT_GAMES))
def test_refusals_are_whole_and_never_name_the_card(name):
    """Cards of the deck tapped on any pad at random points of random games: each refusal's message is whole in
    every language and never names the card (on a seat's pad it may be a sealed bid; on the centre, the hidden
    top of a pile)."""
    game = GAMES[name]
    cards = [c["id"] for c in _deck_cards(game)]
    keys = set()
    for seed in range(12):
        session, bus, registry = live_session(game, game.info.players[seed % len(game.info.players)], seed)
        refused: list[Refused] = []
        bus.subscribe(Refused, refused.append)
        rng = random.Random(seed)
        for _ in range(12):
            pad, card = rng.choice(LAYOUT.pads), rng.choice(cards)
            refused.clear()
            bus.publish(CardPlaced(pad, registry.uid_of(_tag(game, card))))
            bus.dispatch()
            session.occupied.pop(pad, None)
            if refused:
                keys.add(session.message["key"])
                assert "card" not in session.message["params"]
                for lang in LANGS:
                    text = message_text(lang, session.message, name, min_players=game.info.players.start)
                    assert "{" not in text and card not in text
    assert len(keys) >= 2, keys                                     # refusals of several kinds were seen


def _tag(game, card: str) -> Tag:
    return Tag("card", game.info.deck, card)


# ---------------------------------------------------------------- the typed parts and the shared view keys

@pytest.mark.parametrize("name", list(CONTRACT_GAMES))
def test_every_part_keeps_its_typed_protocol(name):
    """The page is a `Page`, the bots `GameBots` whose world rebuilds its cards on a resume, the faces `Faces`;
    each hook takes the parameters the protocol names."""
    game = CONTRACT_GAMES[name]
    assert isinstance(game.page, Page) and isinstance(game.bots, GameBots)
    for hook in ("pages", "draw_page", "subtitle"):
        assert list(signature(getattr(game.page, hook)).parameters) == \
            list(signature(getattr(Page, hook)).parameters)[1:], hook
    assert issubclass(game.bots.World, World) and issubclass(game.bots.Players, Bots)
    assert game.bots.Players.World is game.bots.World
    assert game.bots.World._resume is not World._resume, "a world must rebuild its cards when a game resumes"
    assert issubclass(game.faces, object) and callable(game.faces.name) and callable(game.faces.draw)
    for hook in ("interpret", "acts_for", "must_clear", "prompt"):
        assert callable(getattr(game.acts, hook)), hook


@pytest.mark.parametrize("name, players", CASES)
def test_every_view_has_the_keys_shared_layers_read(name, players):
    """Every public view of a random game has the four keys always there, and the shared keys it has are of
    their declared shape."""
    game = CONTRACT_GAMES[name]
    states = list(random_states(game, players, players))
    for state in states[::max(1, len(states) // 150)] + states[-1:]:   # a view may hold the whole past: sampled
        view = game.rules.observe(state, None)
        assert set(ALWAYS_IN_VIEW) <= set(view)
        assert isinstance(view["phase"], str) and view["players"] == players
        assert len(view["totals"]) == players and all(type(t) is int for t in view["totals"])
        assert set(view["winners"]) <= set(range(players)) and (view["winners"] == []) == (view["phase"] != "over")
        assert all(len(points) == players for points in view.get("history") or ())
        assert sorted(p for team in view.get("teams") or [range(players)] for p in team) == list(range(players))
        assert type(view.get("deal", 0)) is int


class Watched(dict):
    """A public view that notes which module reads each of its keys."""

    def __init__(self, view: dict, reads: set) -> None:
        super().__init__(view)
        self.reads = reads

    def _note(self, key) -> None:
        self.reads.add((key, sys._getframe(2).f_globals["__name__"]))

    def __getitem__(self, key):
        self._note(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self._note(key)
        return super().get(key, default)


@pytest.mark.parametrize("name", list(CONTRACT_GAMES))
def test_shared_layers_read_only_the_declared_view_keys(screen, name):
    """Every page of random states, the game-over page and the replay's public state drawn from a watched view:
    the keys read outside the game's own package are all in `VIEW_KEYS`."""
    game = CONTRACT_GAMES[name]
    reads: set = set()
    players = game.info.players.start
    states = list(random_states(game, players, 7))
    for state in states[::max(1, len(states) // 12)] + states[-1:]:
        table = table_view(game, state)
        table["view"] = Watched(table["view"], reads)
        for page, step in screen.pages(table):
            screen.render(table, page, step)
    session = SimpleNamespace(public=lambda: Watched(game.rules.observe(states[-1], None), reads), game=game,
                              players=tuple(range(1, players + 1)), menu=SimpleNamespace(options={}),
                              prompt_view=lambda: None, clock_view=lambda: None, state=states[-1], names={})
    public_state(session)
    shared = {key for key, module in reads if not module.startswith(game.package)}
    assert shared and shared <= set(VIEW_KEYS)


DIGEST = """
import hashlib, json, random, sys
from table.registry import GAMES
game, out = GAMES[sys.argv[1]], []
for seed in range(3):
    rng = random.Random(seed)
    players = rng.choice(list(game.info.players))
    state, step = game.rules.new_game(game.deck, players, 0, game.info.defaults()), 0
    while not game.rules.need(state).done:
        state, step = game.rules.apply(state, rng.choice(game.rules.legal_actions(state))), step + 1
        if step % 20 == 0:   # a view may hold the game's whole past: dumping every one would cost the square
            out.append([game.rules.observe(state, p) for p in (None, *range(players))])
    out.append([game.rules.observe(state, p) for p in (None, *range(players))])
print(hashlib.sha256(json.dumps(out, sort_keys=True, default=repr).encode()).hexdigest())
"""


@pytest.mark.parametrize("name", list(GAMES))
def test_an_engine_gives_the_same_views_in_every_process(name):
    """Whole random games give the same views whatever the process's string hashing (a set's order): a journal
    replayed after a restart shows what the live table showed."""
    digests = {subprocess.run([sys.executable, "-c", DIGEST, name], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(digests) == 1


SEAT_WORDS = {"player", "players", "winner", "winners", "leader", "chooser", "dealer", "taker", "bidder", "caller",
              "holder", "picker", "giver", "receivers", "starter", "first_seat", "first_player", "first_bid",
              "last_taker", "seat", "to", "by", "playing", "callers", "to_bid", "active"}   # words naming players


def player_ints(view, within: bool = False):
    """Every int of `view` that a key of SEAT_WORDS holds (itself or in its lists); the top-level player count
    is a number, not a player."""
    if isinstance(view, dict):
        for key, value in view.items():
            if key != "players" or isinstance(value, list):
                yield from player_ints(value, key in SEAT_WORDS)
    elif isinstance(view, list):
        for item in view:
            yield from player_ints(item, within and not isinstance(item, dict))
    elif within and type(view) is int:
        yield view


def reaches(node, keys: list[str]) -> bool:
    """Whether the view has the place a path leads to (a list there may be empty)."""
    if not keys:
        return True
    key, rest = keys[0], keys[1:]
    if isinstance(node, list) and key == "*":
        return not node or any(reaches(item, rest) for item in node)
    if isinstance(node, list) and key.isdigit():
        return int(key) < len(node) and reaches(node[int(key)], rest)
    return isinstance(node, dict) and key in node and reaches(node[key], rest)


@pytest.mark.parametrize("name", list(CONTRACT_GAMES))
def test_replay_names_every_player_by_seat(name):
    """Every path where a game's view names a player leads to player indices only (a seat replaces each), and
    its place is in the view at some point of random play (options moved off their defaults too); once seated
    (players at seats 100 and up) no key that names players still holds an index."""
    game = CONTRACT_GAMES[name]
    paths = ("winners/*", *game.rules.NAMED_PLAYERS)
    met = set()
    for players in game.info.players:
        seats = [100 + p for p in range(players)]
        for options in [None, *({o.name: o.choices[-1]} for o in game.info.options)]:
            states = list(random_states(game, players, players, options))
            for state in states[::max(1, len(states) // 40)] + states[-1:]:
                view = game.rules.observe(state, None)
                met |= {path for path in paths if reaches(view, path.split("/"))}
                seated_view = seated(view, seats, paths)
                assert [n for n in player_ints(seated_view) if n < 100] == [], (players, options, state)
    assert met == set(paths), f"never in the view: {set(paths) - met}"
