"""The simulated table's window: whole games played through its keys, clicks and controls, headless."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from table.cli import main
from table.registry import GAMES
from table.games.feira_torio.rules import LOTS
from table.layout import load_layout
from table.screen.display import fit
from table.screen.pager import PAGE_S
from table.sim import window as window_module
from table.sim.window import SIZE, SimWindow
from table.storage.journal import Journal

LIGHT_COLOURS = {"your_turn": (153, 178, 255), "locked": (0, 255, 0), "off": (0, 0, 0)}   # steady looks


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()


@pytest.fixture
def out(tmp_path_factory):
    return tmp_path_factory.getbasetemp() / "window"


class Clock:
    """A clock the test moves by hand (page timing)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def open_window(layout: str = "sim-6-single", lang: str = "fr", journal: Journal | None = None) -> SimWindow:
    window = SimWindow(load_layout(layout), journal or Journal(), lang, seed=3, clock=Clock())
    window.frame()
    return window


def key(window: SimWindow, key: int, scancode: int = 0) -> None:
    window.handle(pygame.event.Event(pygame.KEYDOWN, key=key, scancode=scancode))
    window.frame()


def click(window: SimWindow, name: str) -> None:
    window.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=window.controls[name][0].center))
    window.frame()


def select(window: SimWindow, seat: int) -> None:
    key(window, pygame.K_1 + seat - 1, pygame.KSCAN_1 + seat - 1)


def state(window: SimWindow):
    return window.sim.session.state


def seat_of(window: SimWindow, player: int) -> int:
    return window.sim.session.players[player]


def check_leds(window: SimWindow) -> None:
    """Each seat's LED is drawn in its pins' colour, named after its light's state; steady looks are exact."""
    for seat, (centre, colour, shown) in window.leds.items():
        assert window.canvas.get_at(centre)[:3] == colour
        assert shown == window.sim.table.lights[seat].state.value
        if shown in LIGHT_COLOURS:
            assert colour == LIGHT_COLOURS[shown], (seat, shown)
        if shown == "waiting":   # an amber pulse
            assert colour[2] == 0 and colour[1] <= colour[0]


def show_pages(window: SimWindow) -> list[tuple[str, int | None]]:
    """Every page shown from now on, each after the previous one's time."""
    shown = [window.pager.page]
    for _ in window.pager.pages[1:]:
        window.pager.clock.now += PAGE_S
        window.frame()
        shown.append(window.pager.page)
    return shown


def play_round_by_hand(window: SimWindow, out, name: str) -> None:
    """One round with the manual controls only: lots with D, the First Bid with N and O, bids by key and click."""
    for _ in range(LOTS):
        key(window, pygame.K_d)
    assert state(window).phase == "first"
    holder = seat_of(window, state(window).first_bid)
    select(window, holder)
    assert window.leds[holder][2] == "your_turn"
    check_leds(window)
    key(window, pygame.K_n)
    key(window, pygame.K_n)
    assert state(window).pointer == 2
    key(window, pygame.K_o)
    assert state(window).phase == "bidding" and state(window).first == 2
    players = window.sim.session.players
    for i, seat in enumerate(players):
        select(window, seat)
        hand = list(window.hand)
        assert len(hand) == LOTS
        if i % 2:
            for _ in range(LOTS):
                click(window, "card0")
        else:
            key(window, pygame.K_RIGHT)
            key(window, pygame.K_RETURN)            # the second card first
            for _ in range(LOTS - 1):
                key(window, pygame.K_RETURN)
        assert window.hand == []
        if i == 0:
            assert window.leds[seat][2] == "locked" and window.leds[players[1]][2] == "waiting"
            check_leds(window)
            assert window.pager.page == ("table", None)
            pygame.image.save(window.canvas, out / f"{name}-bidding.png")
    assert window.pager.page == ("reveal", 0)
    after = [] if window.sim.session.clearing else [("table", None)]   # tapped bids: the table is clear at once
    assert show_pages(window)[1:] == [("reveal", 1), ("reveal", 2), ("reveal", 3), ("take", None)] + after
    window.pager.clock.now -= PAGE_S * 2
    window.frame()
    pygame.image.save(window.canvas, out / f"{name}-reveal.png")
    key(window, pygame.K_c)
    holdings = window.sim.session.public()["holdings"]
    assert {seat_of(window, p): h for p, h in enumerate(holdings)} == window.world.hands


@pytest.mark.parametrize("layout, lang", [("sim-6-single", "fr"), ("sim-6-slots", "en")])
def test_a_whole_game_through_the_window(layout, lang, out):
    out.mkdir(parents=True, exist_ok=True)
    name = f"{layout}-{lang}"
    window = open_window(layout, lang)
    assert window.pager.page == ("lobby", None)
    for seat in (2, 4, 5):
        select(window, seat)
        key(window, pygame.K_j)
    assert window.sim.session.joined == [2, 4, 5]
    assert window.leds[4][2] == "locked"
    check_leds(window)
    pygame.image.save(window.canvas, out / f"{name}-lobby.png")
    click(window, "ok4")                                      # seat 4 starts and deals first
    assert window.pager.page == ("table", None)
    assert sorted(len(window.world.hands[s]) for s in (2, 4, 5)) == [4, 4, 4]
    assert len(window.world.pile) == 28 - 12
    dealer = seat_of(window, state(window).dealer)
    assert dealer == 4 and window.leds[4][2] == "your_turn"
    check_leds(window)

    play_round_by_hand(window, out, name)
    assert state(window).round == 2

    key(window, pygame.K_d)                                   # the operator's own steps and the bots' mix
    click(window, "auto")
    assert state(window).phase == "first"
    for _ in range(200):
        if window.sim.session.over:
            break
        click(window, "auto")
        if window.world.round_over:
            assert window.pager.page == ("reveal", 0)
            key(window, pygame.K_d)                           # cards still lie there: pick them up first
            assert window.note == "sim_pick_up_first"
    assert window.sim.session.over
    assert show_pages(window)[-3:] == [("take", None), ("scores", None), ("over", None)]
    winners = {seat_of(window, p) for p in state(window).winners}
    assert {s for s, (_, _, shown) in window.leds.items() if shown == "winner"} == winners
    check_leds(window)
    pygame.image.save(window.canvas, out / f"{name}-winner.png")

    key(window, pygame.K_c)
    click(window, "staff")                                    # the staff card opens the staff menu
    assert window.sim.session.table_view()["staff"]["lines"][0] == "to_lobby"
    pygame.image.save(window.canvas, out / f"{name}-staff-menu.png")
    key(window, pygame.K_o)                                   # OK at any seat: back to the lobby
    assert window.pager.page == ("lobby", None) and window.world.hands == {}
    key(window, pygame.K_s)                                   # the staff menu again: start, same seats
    key(window, pygame.K_o)
    assert window.pager.page == ("table", None) and state(window).hand == 1
    assert not any(r.card for r in window.sim.pads.values())
    window.close()


def test_refusals_and_impossible_acts_are_shown(out):
    window = open_window()
    key(window, pygame.K_d)
    assert window.note == "sim_pile_empty"
    select(window, 1)
    key(window, pygame.K_j)
    key(window, pygame.K_o)
    assert window.sim.session.message["key"] == "too_few_players"
    assert window.leds[1][2] == "refused"
    check_leds(window)
    key(window, pygame.K_a)
    key(window, pygame.K_a)
    key(window, pygame.K_a)                                   # bots join seats 2 and 3, then seat 1 starts
    assert window.sim.session.players == (1, 2, 3)
    key(window, pygame.K_j)
    assert window.note == "sim_join_in_lobby"
    select(window, 2)
    click(window, "card0")                                    # a bid before the lots: refused, back in hand
    assert window.sim.session.message["key"] == "not_now_bid" and len(window.hand) == LOTS
    key(window, pygame.K_c)
    assert window.note == "sim_nothing_to_pick_up"
    select(window, 6)
    key(window, pygame.K_RETURN)
    assert window.note == "sim_no_card"
    out.mkdir(parents=True, exist_ok=True)
    pygame.image.save(window.canvas, out / "refusals-fr.png")
    window.close()


def test_a_resumed_game_deals_again_only_what_nobody_saw(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    window = open_window(journal=journal)
    for _ in range(6):
        window.auto()                                         # 3 seats join, seat 1 starts, lots, First Bid
    window.select(window.sim.session.players[0])
    window.place()
    window.place()
    assert len(window.hand) == 2
    window.close()
    journal.close()

    journal = Journal(path)
    window = open_window(journal=journal)
    assert window.note == "sim_resumed_redealt"
    window.frame()
    assert state(window).phase == "bidding"
    hands = window.world.hands
    assert [len(hands[s]) for s in window.sim.session.players] == [2, 4, 4]
    laid = {c for row in state(window).bids for c in row if c}
    held = [c for h in hands.values() for c in h]
    assert len(set(held) | laid | set(window.world.pile) | set(state(window).lots)) == 28
    window.auto()
    window.pick_up()
    window.auto()
    window.auto()
    window.select(2)
    window.place()
    window.close()
    journal.close()

    journal = Journal(path)
    window = open_window(journal=journal)
    assert window.note == "sim_resumed"                      # round 2: every hand is known
    public = window.sim.session.public()["holdings"]
    assert sorted(window.world.hands[2] + [c for c in state(window).bids[1] if c]) == public[1]
    while not window.sim.session.over:
        window.auto()
    window.close()
    journal.close()


def test_the_game_clock_counts_down_between_acts(tmp_path):
    """`cardtable run` ticks the simulated table each frame (`SimulatedTable.tick`): a Chevaux clock runs while
    players think, not only while a card is being laid."""
    journal = Journal(tmp_path / "journal.sqlite")
    for seat in (1, 2):
        journal.append("join", {"seat": seat})
    journal.append("start", {"game": "chevaux", "options": {"time_limit": 5}, "seats": [1, 2], "first": 0})
    window = SimWindow(load_layout("sim-6-single"), journal, "fr", seed=3, clock=Clock())
    now = [window.sim.table.clock()]
    window.sim.table.clock = lambda: now[0]                 # the table's time, from now on moved by hand
    window.sim.tick()
    now[0] += 120
    window.sim.tick()
    assert 5 * 60 - 121 <= window.sim.session.clock_view()["left_s"] <= 5 * 60 - 120
    window.close()
    journal.close()


def test_cardtable_run_draws_frames_and_exits(tmp_path):
    journal = tmp_path / "state" / "journal.sqlite"
    assert main(["run", "--frames", "3", "--journal", str(journal), "--lang", "en"]) == 0
    assert journal.exists()


def test_cardtable_run_asked_for_another_game_than_the_one_it_resumes_says_so_in_one_line(tmp_path, capsys):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    for seat in (1, 2):
        journal.append("join", {"seat": seat})
    journal.append("start", {"game": "chevaux", "options": {}, "seats": [1, 2], "first": 0})
    journal.close()
    assert main(["run", "--frames", "2", "--journal", str(path), "--game", "venture"]) == 0
    assert capsys.readouterr().out == ("cardtable run: a game of chevaux was in progress and goes on; "
                                       "venture is offered in the lobby after it\n")


def test_cardtable_run_takes_clicks_and_keys(tmp_path):
    pygame.display.init()
    shown = fit(SIZE, pygame.Rect((0, 0), pygame.display.get_desktop_sizes()[0]))
    probe = open_window()
    x, y = probe.controls["auto"][0].center
    probe.close()
    for _ in range(4):                                        # 3 seats join, the first one starts
        pos = (shown.x + x * shown.w // SIZE[0], shown.y + y * shown.h // SIZE[1])
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, scancode=0))
    path = tmp_path / "journal.sqlite"
    assert main(["run", "--fullscreen", "--frames", "100", "--journal", str(path)]) == 0
    journal = Journal(path)
    assert [kind for _, kind, _ in journal.entries()] == ["join", "join", "join", "start"]
    journal.close()


def started_in_the_window(name: str, players: int) -> SimWindow:
    """A window on the 8-seat table whose first `players` seats joined by key and started `name` by OK."""
    window = SimWindow(load_layout("sim-8-single"), Journal(), "fr", seed=5, clock=Clock(), game=name)
    window.frame()
    for seat in range(1, players + 1):
        select(window, seat)
        key(window, pygame.K_j)
    select(window, 1)
    key(window, pygame.K_o)
    assert window.sim.session.game.name == name
    return window


def operator_and_bots_step(window: SimWindow, players: int) -> None:
    """The operator tries a card at every seat (show, lay), then the bots play the next step."""
    for seat in range(1, players + 1):
        select(window, seat)
        if window.hand and not window.world.round_over:
            key(window, pygame.K_RETURN)
    click(window, "auto")


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_plays_in_the_window(name, out):
    """The lobby's game, seats joining by key, a start by OK; the operator's own steps then the bots', to the end
    (at the game's fewest players; test_eight_seats_play_in_the_window takes the most)."""
    out.mkdir(parents=True, exist_ok=True)
    players = GAMES[name].info.players[0]
    window = started_in_the_window(name, players)
    pygame.image.save(window.canvas, out / f"{name}-start.png")
    steps = 0
    while not window.sim.session.over:
        operator_and_bots_step(window, players)
        steps += 1
        assert steps < 2000, window.note
        if steps == 40:
            pygame.image.save(window.canvas, out / f"{name}-playing.png")
    winners = {seat_of(window, p) for p in window.sim.session.public()["winners"]}
    assert winners and {s for s, (_, _, shown) in window.leds.items() if shown == "winner"} == winners
    pygame.image.save(window.canvas, out / f"{name}-over.png")
    window.close()


@pytest.mark.parametrize("name", [name for name, game in GAMES.items() if game.info.players[-1] >= 8])
def test_eight_seats_play_in_the_window(name, out):
    """Eight seats join and start; 60 steps of the operator and the bots (or the whole game, if shorter) play on."""
    out.mkdir(parents=True, exist_ok=True)
    window = started_in_the_window(name, 8)
    session = window.sim.session
    assert len(session.players) == 8
    start = session.state
    for _ in range(60):
        if session.over:
            break
        operator_and_bots_step(window, 8)
    assert session.state != start and session.public()["players"] == 8, window.note
    pygame.image.save(window.canvas, out / f"{name}-8-seats.png")
    window.close()


def window_at(game: str, phase: str, journal: Journal | None = None) -> SimWindow:
    """A window of `game` (seed 3) whose bots played with Auto up to the first `phase` of the game."""
    window = SimWindow(load_layout("sim-6-single"), journal or Journal(), "fr", seed=3, clock=Clock(), game=game)
    window.frame()
    while state(window) is None or state(window).phase != phase:
        click(window, "auto")
    return window


@pytest.mark.parametrize("name, sealed", [("neurotrio", "register"), ("venture", "bidding"), ("kitty", "pass")])
def test_auto_plays_a_sealed_step_whole(name, sealed):
    """One Auto press: every seat's part of a sealed step (a whole registration, every seat's bid), not one card."""
    journal = Journal()
    window = window_at(name, sealed, journal)
    waiting = window.sim.session.game.rules.need(state(window)).players
    before = len(list(journal.entries()))
    click(window, "auto")
    assert window.note is None
    assert state(window).phase != sealed or window.world.round_over      # the step resolved...
    assert len(list(journal.entries())) - before >= len(waiting) >= 3          # ...with every seat's acts, in one press
    if name == "neurotrio":
        assert len(list(journal.entries())) - before == 52                      # every dealt card registered
    window.close()


def test_a_hand_registers_with_one_enter_per_card_and_a_refused_card_keeps_its_place():
    window = window_at("neurotrio", "register")
    select(window, window.sim.session.players[0])
    dealt = state(window).setup.counts[0]
    for _ in range(dealt):                                # Enter, Enter, ...: each card of the hand once
        key(window, pygame.K_RETURN)
    assert window.note is None and len(state(window).hands[0]) == dealt   # the whole hand registered
    click(window, "auto")                                 # the other hands
    assert state(window).phase == "build"
    waiting = next(p for p in range(len(window.sim.session.players)) if p != state(window).active)
    select(window, window.sim.session.players[waiting])
    window.move(2)
    before = list(window.hand)
    key(window, pygame.K_RETURN)                          # not this seat's turn: refused...
    assert window.sim.session.message["key"] == "not_your_turn"
    assert window.hand == before and window.cursor == 2   # ...and the card is back where it was, under the cursor
    window.close()


@pytest.mark.parametrize("name", ["kitty", "sweep", "venture"])
def test_hands_are_in_the_decks_order_not_as_text(name):
    """1, 2, ... 10 (the Pairs deck's ids 1a ... 10j as text would put 10 before 2)."""
    window = SimWindow(load_layout("sim-6-single"), Journal(), "fr", seed=3, clock=Clock(), game=name)
    window.frame()
    while state(window) is None:
        click(window, "auto")
    order = {c: i for i, c in enumerate(window.sim.cards(window.sim.deck))}
    for seat in window.sim.session.players:
        hand = window.world.hands[seat]
        assert hand and [order[c] for c in hand] == sorted(order[c] for c in hand)
    window.close()


def test_the_pile_is_turned_up_only_when_the_game_takes_a_card_from_it():
    window = window_at("kitty", "pass")
    pile = list(window.world.pile)
    key(window, pygame.K_d)
    assert window.note == "sim_no_show_now" and window.world.pile == pile and window.sim.session.message is None
    window.close()


def test_a_kitty_gift_is_taken_from_the_table_before_the_round_is_picked_up():
    """The 1 gives its target away: the receiver taps it from the centre at once (the screen says so), before C."""
    window = SimWindow(load_layout("sim-6-single"), Journal(), "fr", seed=6, clock=Clock(), game="kitty")
    window.frame()
    for _ in range(400):
        need = state(window) and window.sim.session.game.rules.need(state(window))
        if need and need.any_of:
            break
        click(window, "auto")
    assert need.any_of and window.world.round_over
    receiver = window.sim.session.players[need.players[0]]
    select(window, receiver)
    target = next(c for c in window.hand if c in window.world.table)   # the target, designated on the table
    window.place(window.hand.index(target))
    assert window.note is None and window.sim.session.message is None
    assert not window.sim.session.game.rules.need(state(window)).any_of   # given
    window.close()


def test_after_the_last_round_the_cards_played_are_picked_up_into_the_hands_the_scores_count():
    window = SimWindow(load_layout("sim-6-single"), Journal(), "fr", seed=3, clock=Clock(), game="sweep")
    window.frame()
    while not window.sim.session.over:
        click(window, "auto")
    assert window.world.round_over                     # the last capture still lies on the table
    click(window, "pick_up")
    assert window.note is None
    counts = window.sim.session.public()["hand_counts"]
    assert [len(window.world.hands[s]) for s in window.sim.session.players] == counts
    window.close()


def test_a_chevaux_leader_still_sees_the_card_it_revealed_while_it_chooses():
    window = SimWindow(load_layout("sim-6-single"), Journal(), "fr", seed=3, clock=Clock(), game="chevaux")
    window.frame()
    while window.sim.session.prompt is None:
        click(window, "auto")
    leader = window.sim.session.players[window.sim.session.prompt.player]
    select(window, leader)
    revealed = [c for c in window.world.table if window.world.laid[c] == leader]
    drawn = []
    faces = window.faces
    window.screen.faces = lambda game: faces                 # the same faces, watched
    draw_card = faces.draw
    faces.draw = lambda surf, rect, card, *a: drawn.append(card) or draw_card(surf, rect, card, *a)
    window.frame()
    assert revealed and set(revealed) <= set(drawn) and not set(revealed) & set(window.hand)
    window.close()


def test_digits_select_every_seat_of_an_eight_seat_table_and_the_help_says_so(monkeypatch):
    """By key position (scancode) or, when a key comes with none, by its label; the help names 1-8."""
    window = SimWindow(load_layout("sim-8-single"), Journal(), "en", seed=1, clock=Clock())
    window.frame()
    for seat in (7, 8, 2):
        key(window, pygame.K_1 + seat - 1, pygame.KSCAN_1 + seat - 1)
        assert window.seat == seat
    for seat in (8, 7):
        key(window, pygame.K_1 + seat - 1)                 # no scancode (a key sent by a tool)
        assert window.seat == seat
    key(window, pygame.K_KP8)
    assert window.seat == 8
    key(window, pygame.K_9)                                # no ninth seat: nothing changes
    assert window.seat == 8
    shown, tag = [], window_module.draw.tag
    monkeypatch.setattr(window_module.draw, "tag", lambda surf, label, *args, **kw: (
        shown.append(label), tag(surf, label, *args, **kw))[1])
    window.frame()
    assert "1-8" in shown and "1-6" not in shown
    window.close()


def test_at_eight_seats_a_seats_hand_never_runs_under_its_buttons(monkeypatch):
    """Eight seats make the panel's rows short: the Next and OK buttons stand right of the hand's chips."""
    window = SimWindow(load_layout("sim-8-single"), Journal(), "fr", seed=3, clock=Clock(), game="kitty")
    for seat in range(1, 7):
        window.select(seat)
        key(window, pygame.K_j)
    for _ in range(3):
        click(window, "auto")
    chips = []
    monkeypatch.setattr(window, "_chips", lambda cards, x, cy, h, right: chips.append((cards, x, cy, h, right)))
    window.frame()
    assert len(chips) == 6
    for seat, (_, x, cy, h, right) in enumerate(chips, 1):
        band = pygame.Rect(x, cy - h // 2, right - x, h)
        for button in ("next", "ok"):
            assert not band.colliderect(window.controls[f"{button}{seat}"][0]), (seat, button)
