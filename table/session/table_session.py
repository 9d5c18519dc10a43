"""The table session: seats, the lobby's game menu, and the game in play.

It turns physical acts (a known card settling on a pad, a seat button) into
lobby steps and game actions, refuses impossible input before it reaches the
journal, and journals every accepted input before acknowledging it. Its state
is always the replay of its journal, and restoring checks every entry with
the rules of the game the journal's `start` entry names. It reaches games
only through the registry (table.games).
"""
from __future__ import annotations

import functools
import hmac
import json
import logging
import random
import sqlite3
from typing import Any, Callable

from table.events import (Accepted, ButtonDown, CardPlaced, CardRemoved, EventBus, PadSeenEmpty, PowerAsked,
                          ProofAsked, ProofGiven, ReaderDead, ReaderRecovered, Refused, Tick, log_failure)
from table.registry import GAMES
from table.games.contract import ButtonPress, CardOnPad, Game, PadShape, Prompt, Refusal
from table.games.kit import codec
from table.layout import Layout
from table.session.lobby import RULES, START, Menu, games_for
from table.session.staff import CONFIRMED, StaffMenu
from table.storage import StorageFault
from table.storage.journal import Finished, Journal
from table.storage.registry import UID, TagRegistry, player_problem

log = logging.getLogger(__name__)


REASON_CHARS = 160   # the longest reason a refused entry is given on the screen and in a line
RETRY_S = 1.0   # how often a table draw a failing card did not take is tried again
RULES_S = 90.0   # how long the rules page stays up when nobody closes it


class JournalError(ValueError):
    """A journal entry that cannot be replayed: its number and why (a wrong state is never restored); `refusal`:
    the rules' refusal of an action, as a table message {"key", "params", "seat"} of game `game`'s texts."""

    def __init__(self, seq: int, reason: str, refusal: dict | None = None, game: str | None = None) -> None:
        self.seq = seq
        self.why = reason                  # without the refusal's key
        self.reason = reason if refusal is None else f"{reason}: {refusal['key']}"
        self.refusal = refusal
        self.game = game
        super().__init__(f"journal entry {seq}: {self.reason}")


class _Unfit(ValueError):
    """An entry the session or the rules refuse (its reason), raised while checking it; `refusal` and `game`
    as in JournalError."""

    def __init__(self, reason: str, refusal: dict | None = None, game: str | None = None) -> None:
        super().__init__(reason)
        self.refusal = refusal
        self.game = game


class _Fields(dict):
    """An entry's data whose missing field is a refusal naming the field (never its values: they may be secret)."""

    def __missing__(self, name: str) -> Any:
        raise _Unfit(f"missing field {name!r}")


def _guarded(handler: Callable[["TableSession", Any], None]) -> Callable[["TableSession", Any], None]:
    """An input handler that never raises: a card the journal could not take (full or failing) is refused with
    a message and shown to staff; any other failure is logged with its stack and the input refused with a
    message. The table goes on with the next input, as it was before this one."""
    @functools.wraps(handler)
    def guarded(self: "TableSession", event: Any, *args: Any) -> None:
        try:
            handler(self, event, *args)
        except StorageFault as fault:
            self.storage = fault.what
            log.error("input refused, not journaled: %s", fault)
            self._refuse(self._seat_of(event), f"storage_{fault.what}")
        except Exception as error:
            log_failure(log, f"handling {type(event).__name__} (the input is refused)", error)
            self._refuse(self._seat_of(event), "input_failed")
    return guarded


class TableSession:
    """One table: who sits where, the game chosen and played, and the journal behind it."""

    def __init__(self, layout: Layout, registry: TagRegistry | None, journal: Journal, bus: EventBus,
                 game: str | None = None, rng: random.Random | None = None) -> None:
        self.layout = layout
        self.registry = registry
        self.journal = journal
        self.bus = bus
        self.rng = rng or random.SystemRandom()   # table draws (a first player no card carries)
        self.shape = PadShape(max(len(s.pads) for s in layout.seats), len(layout.centre))
        self.menu = Menu.first(layout)             # the lobby's choice (as the journal has it, until restored)
        self.game: Game | None = None              # the game in play, None in the lobby
        self.joined: list[int] = []        # lobby: seat numbers that joined, clockwise
        self.names: dict[int, tuple[str, str, str]] = {}   # seat -> (player id, name, card UID): player cards laid
        self.players: tuple[int, ...] = ()  # game: the playing seats, in player order
        self.state: Any = None              # the engine state, None in the lobby
        self.cursor: int | None = None      # a seat prompt's cursor (None: at the prompt's start)
        # open seat menus, not journaled: player -> the cursor (0: on "Back") and why the game took no action for
        # the OK that opened it (a refusal's text key and parameters, or None)
        self.menus: dict[int, tuple[int, tuple[str, dict] | None]] = {}
        # the rules page shown, not journaled: the seat that opened it (None: staff) and the Tick time since when
        self.rules_page: tuple[int | None, float | None] | None = None
        self.message: dict | None = None    # the latest refusal, for the screen
        self.staff = StaffMenu()            # the staff menu (opened by a staff card)
        self.proving: tuple[str, str] | None = None   # the staff card (pad, UID) asked to prove itself
        self.checkup: Callable[[], list[dict]] = list   # the health page's findings: readers, hubs, protections
        self.occupied: dict[str, str] = {}  # pad -> UID of the card on it
        self.finished: list[Finished] = []  # games over and back to the lobby, not yet archived
        self._began = 0                     # the journal entry that started the game in play
        self.played_s = 0.0                 # a game clock: the play time when it (re)started, at entry _clocked
        self._clocked = 0
        self._since: float | None = None    # the Tick time it (re)started at (None: at the next Tick)
        self._now: float | None = None      # the latest Tick
        self.paused = False                 # the game clock paused by staff (journaled: a `clock` entry)
        self.storage: str | None = None     # the journal's card failed the last write: "full" or "failing"
        self.notices: list[dict] = []       # for staff: files set aside at start-up (as messages)
        self._retried = float("-inf")       # the Tick time a draw was last tried again on a failing card
        self.seen = 0                       # how many of them staff saw (opening their menu): no banner then
        self._menu_unjournaled = False      # the menu offered differs from the journal's: journaled when acted on
        self.offer_after: str | None = None  # the game to offer when the game in play ends (not journaled)
        self.resumed_note: str | None = None  # for whoever asked for a game while another was resumed in progress
        last = self._restore(journal)
        # The game offered first (`game`): at once in an empty lobby, or after a game resumed in progress.
        if game is not None and self.state is None and not self.joined:
            self._offer(game)
        elif game is not None and self.state is not None:
            later = "" if game == self.game.name else f"; {game} is offered in the lobby after it"
            self.resumed_note = f"a game of {self.game.name} was in progress and goes on{later}"
            self.offer_after = None if game == self.game.name else game
        restored = last > 0
        # The pad gate after a restart: a card found lying on a pad was there before the cut, acted on or
        # refused then. Until its pad is seen empty it is no act (it must not take a new role).
        self.lying: set[str] = set(layout.pads) if restored else set()
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
        bus.subscribe(Tick, self.on_tick)
        bus.subscribe(ProofGiven, self.on_proof)
        clocked = self._time_limit() is not None and last > self._clocked and not self.paused
        if clocked:   # the clock goes on from the play time at the last entry: the time off is not counted
            self.played_s += journal.seconds_between(self._clocked, last)
        if not journal.read_only:
            self._archive()   # games a power cut left in the journal after they ended
            self._resumed(Tick(0.0), clocked)

    def _restore(self, journal: Journal) -> int:
        """Replay the journal, checking every entry as the table checks it live; returns the last entry applied.

        An entry that does not restore (whatever its damage): a journal read-only or in memory raises JournalError;
        a live file is set aside whole, kept as it was, and the table goes on from the entry before it."""
        last, broken = 0, None
        try:
            broken = journal.damage()   # where the chain of entries breaks, if it does
            for seq, kind, text in journal.rows():
                if broken is not None and seq >= broken[0]:
                    break
                try:
                    self._do(kind, json.loads(text), seq)
                except Exception as error:   # every damage is a refusal of that entry, never a crash
                    broken = seq, _reason(error), getattr(error, "refusal", None), getattr(error, "game", None)
                    break
                last = seq
        except sqlite3.DatabaseError as error:   # pages that cannot be read past entry `last`
            broken = last + 1, f"unreadable ({error})", None, None
        if broken is None:
            return last
        refused = JournalError(*broken)
        if journal.read_only or not journal.on_disk:
            raise refused
        kept = journal.set_aside(last)
        where = "(not yet: the card does not let it)" if kept is None else kept.name
        log.error("%s: the journal is kept whole as %s; the table goes on from entry %d", refused, where, last)
        self.notices.append({"key": "journal_entry_refused", "seat": None,
                             "params": {"entry": refused.seq, "why": refused.reason, "kept": where}})
        return last

    @_guarded
    def _resumed(self, _start: Tick, clocked: bool) -> None:
        """After a restore: a running game clock's play time at the last entry journaled (when `clocked`), and a
        draw that is due made."""
        if clocked:
            self._accept(None, "clock", {"played_s": round(self.played_s, 3)})
        self._draw_for_the_table()

    # ------------------------------------------------------------ inputs

    @_guarded
    def on_card(self, event: CardPlaced) -> None:
        if event.pad not in self.layout.pads:
            return log.warning("a card on pad %r, which this layout does not have: dropped", event.pad)
        self.occupied[event.pad] = event.uid
        self.unsure.discard(event.pad)
        if event.pad in self.lying:
            return None   # a card that lay there before the restart: the pad gate
        if self.clearing:
            # Last round's cards are still on the pads: a card read now may be one of them.
            self.message = {"key": "clear_table", "params": {}, "seat": None}
            return None
        seat, slot = self.layout.pad_place(event.pad)
        tag = self.registry.lookup(event.uid)
        if tag is None:
            return self._refuse(seat, "unknown_tag")
        if tag.kind == "staff":
            return self._staff_card(event)
        if tag.kind == "player":
            return self._player_card(seat, tag.card, event.uid.upper())
        if self.state is None:
            return self._join(seat, tag.deck)
        if tag.deck != self.game.info.deck:
            return self._refuse(seat, "other_game_card")
        if seat is not None and seat not in self.players:
            return self._refuse(seat, "seat_not_joined")
        player = None if seat is None else self.players.index(seat)
        self._play(seat, self.game.acts.interpret(self.state, CardOnPad(tag.card, player, slot)))

    @_guarded
    def on_card_removed(self, event: CardRemoved) -> None:
        self.occupied.pop(event.pad, None)
        self.lying.discard(event.pad)
        self._end_clearing_if_clear()

    @_guarded
    def on_pad_seen_empty(self, event: PadSeenEmpty) -> None:
        self.unsure.discard(event.pad)
        self.lying.discard(event.pad)
        self._end_clearing_if_clear()

    def on_reader_dead(self, event: ReaderDead) -> None:
        """A dead reader cannot tell what lies on its pad: the clear-table gate stops waiting for it."""
        self.dead.add(event.pad)
        self._end_clearing_if_clear()

    def on_reader_recovered(self, event: ReaderRecovered) -> None:
        self.dead.discard(event.pad)

    @_guarded
    def on_button(self, event: ButtonDown) -> None:
        seat, button = event.seat, event.button
        if seat not in self._seat_numbers or button not in ("next", "ok", "back"):
            return log.warning("button %r of seat %r, which this layout does not have: dropped", button, seat)
        if self.staff.open:
            return self._staff_button(button)
        if self.rules_page is not None and (self.state is None or self.rules_page[0] == seat):
            self.rules_page = None   # the rules page closes (in a game, with a button of the seat that opened it)
            return None
        if self.state is None:
            if seat not in self.joined:
                return self._refuse(seat, "join_first") if button == "ok" else None
            return self._menu(seat, button)
        if seat not in self.players:
            return self._refuse(seat, "seat_not_joined")
        if self.over:
            return self._accept(seat, "lobby", {"seats": list(self.players)}) if button == "ok" else None
        player = self.players.index(seat)
        prompt = self.prompt
        if prompt is not None and prompt.player == player:
            if button == "ok":
                return self._play(seat, prompt.options[self._cursor_at(prompt)])
            step = {"next": 1, "back": -1}.get(button, 0)
            return self._accept(seat, "cursor", {"at": (self._cursor_at(prompt) + step) % len(prompt.options)})
        if player in self.menus or button == "ok":
            return self._seat_menu_button(seat, player, button)
        self._play(seat, self.game.acts.interpret(self.state, ButtonPress(player, button)))

    def _seat_menu(self, player: int) -> Prompt | None:
        """The seat menu the game offers `player` now, if any."""
        menu = getattr(self.game.acts, "menu", None)
        return None if menu is None else menu(self.state, player)

    def _seat_menu_options(self, player: int) -> tuple[Any, ...]:
        """The actions the game's seat menu offers `player` now (none without one)."""
        menu = self._seat_menu(player)
        return () if menu is None else menu.options

    def _seat_menu_button(self, seat: int, player: int, button: str) -> None:
        """A button of a seat whose menu is open, or OK, which opens it on "Back" unless the game takes that OK
        for an action of its own (played at once; a refusal is said on the menu's bar, without a red light, since
        the seat may only want the rules). The menu: Back, what the game's menu offers the seat now, the rules
        page. Next/Back move, OK takes."""
        options = self._seat_menu_options(player)
        if player not in self.menus:
            wanted = None if options else self.game.acts.interpret(self.state, ButtonPress(player, "ok"))
            if wanted is not None and not isinstance(wanted, Refusal):
                return self._play(seat, wanted)
            why = None if wanted is None else (wanted.key, {k: v for k, v in wanted.args.items()
                                                             if k not in ("card", "player")})
            self.menus[player] = (0, why)
            return None
        lines = len(options) + 2
        cursor, why = self.menus.pop(player)
        if button != "ok":
            self.menus[player] = ((cursor + (-1 if button == "back" else 1)) % lines, why)
            return None
        cursor %= lines
        if cursor == lines - 1:
            self._show_rules(seat)
        elif cursor:
            self._play(seat, options[cursor - 1])
        return None

    def _show_rules(self, seat: int | None) -> None:
        """The rules page of the game in play or chosen, until a button closes it or RULES_S pass."""
        self.rules_page = (seat, self._now)

    @_guarded
    def on_tick(self, event: Tick) -> None:
        """The game clock: once the play time reaches the game's time limit, the table journals the time up; and a
        table draw left due by a write the card did not take is made again."""
        self._now = event.now
        if self.rules_page is not None:
            seat, since = self.rules_page
            if since is None:
                self.rules_page = (seat, event.now)   # opened before any Tick: timed from this one
            elif event.now - since >= RULES_S:
                self.rules_page = None
        if self.storage is not None and event.now - self._retried >= RETRY_S:
            self._retried = event.now
            self._draw_for_the_table()
        limit = self._time_limit()
        if limit is None or self.paused:
            return
        if self._since is None:
            self._since = event.now
        if self._played() >= limit:
            self._play(None, self.game.rules.time_up())

    def tell_staff(self, notice: dict) -> None:
        """Show staff that a file was refused and moved aside ({"file", "kept", "why"}), until they open their menu."""
        self.notices.append({"key": "file_moved_aside", "seat": None,
                             "params": {"file": notice["file"], "kept": notice["kept"], "why": notice["why"]}})

    def _seat_of(self, event: Any) -> int | None:
        """The seat an input came from, if any."""
        if isinstance(event, ButtonDown):
            return event.seat
        pad = getattr(event, "pad", None)
        return self.layout.pad_place(pad)[0] if pad in self.layout.pads else None

    # ------------------------------------------------------------ steps

    def _staff_card(self, event: CardPlaced) -> None:
        """A staff card closes an open staff menu; else the card is asked to prove it holds its password (the menu
        opens on its proof: `on_proof`), so a clone of its UID opens nothing. One enrolled without is refused."""
        if self.staff.open:
            self.staff.close()
            self.message = None
        elif not self.registry.protected(event.uid):
            self._refuse(self._seat_of(event), "staff_unprotected")
        else:
            self.proving = event.pad, event.uid
            self.bus.publish(ProofAsked(event.pad, event.uid, self.registry.staff_key(event.uid)[0]))

    @_guarded
    def on_proof(self, event: ProofGiven) -> None:
        """The staff card asked to prove itself answered: its menu opens if the PACK is its own."""
        if self.proving != (event.pad, event.uid):
            return   # an answer nobody waits for (the card asked again, or the menu was opened meanwhile)
        self.proving = None
        expected = self.registry.staff_key(event.uid)[1]
        if not event.able:
            self._refuse(self._seat_of(event), "staff_pad_cannot_prove")
        elif event.pack is None or not hmac.compare_digest(event.pack, expected):
            self._refuse(self._seat_of(event), "staff_not_proven")
        else:
            self._open_staff_menu()

    def _open_staff_menu(self) -> None:
        """The staff menu, on its first line (start in the lobby, end the game during one, back to the lobby
        after it)."""
        self.staff.show("menu")
        self.seen = len(self.notices)   # staff saw the notices: they stay on the health page
        self.message = None

    def _staff_button(self, button: str) -> None:
        """Any seat's button while the staff menu is open: Next/Back move its cursor, OK takes the line."""
        staff, mode, games = self.staff, self._staff_mode, games_for(self.layout)
        if button != "ok":
            return staff.moved(-1 if button == "back" else 1, mode, games)
        line = staff.chosen(mode, games)
        if staff.page == "games":
            staff.back("choose_game", mode)
            if line != self.menu.game and self.state is None:
                self._accept(None, "menu", _menu_json(Menu(line, GAMES[line].info.defaults(), teach=self.menu.teach)))
        elif staff.page == "health":
            staff.back("health", mode)
        elif staff.page == "confirm":
            asked = staff.asking
            if line == "no":
                staff.back(asked, mode)
            else:
                staff.close()
                self._staff_do(asked)
        elif line in CONFIRMED:
            staff.asking = line
            staff.show("confirm")
        elif line == "choose_game":
            staff.show("games", games.index(self.menu.game) if self.menu.game in games else 0)
        elif line == "health":
            staff.checks = self.checkup()
            staff.show("health")
        else:
            staff.close()
            self._staff_do(line)

    def _staff_do(self, line: str) -> None:
        """Carry out a line of the staff menu (confirmed when it asks)."""
        if line == "start" and self.state is None:
            self._start(self.joined[0] if self.joined else None, by=None)
        elif line == "to_lobby" and self.over:
            self._accept(None, "lobby", {"seats": list(self.players)})
        elif line in ("pause_clock", "resume_clock") and self._time_limit() is not None:
            self._accept(None, "clock", {"played_s": round(self._played(), 3), "paused": line == "pause_clock"})
        elif line == "end_game" and self.state is not None and not self.over:
            self._accept(None, "lobby", {"seats": list(self.players), "ended": "staff"})
        elif line in ("poweroff", "reboot"):
            log.warning("staff asked to %s from the staff menu", line)
            self.bus.publish(PowerAsked(line))

    def _menu(self, seat: int | None, button: str) -> None:
        """A button on the lobby's menu: Next/Back move its cursor; OK changes the line or, on Start, starts."""
        menu = self.menu
        if button == "ok" and menu.line == START:
            first = seat if seat is not None else (self.joined[0] if self.joined else None)
            return self._start(first, by=seat)
        if button == "ok" and menu.line == RULES:
            return self._show_rules(seat)
        menu = menu.changed(self.layout) if button == "ok" else menu.moved(-1 if button == "back" else 1)
        self._accept(seat, "menu", _menu_json(menu))

    def _join(self, seat: int | None, deck: str) -> None:
        if seat is None:
            return self._refuse(None, "join_at_seat")
        if seat in self.joined:
            return self._refuse(seat, "seat_already_joined")
        menu = self.menu.with_deck(deck, self.layout)
        if GAMES[menu.game].info.deck != deck:
            return self._refuse(seat, "other_game_card")
        self._join_with(seat, menu)

    def _join_with(self, seat: int, menu: Menu) -> bool:
        """Seat `seat` joins the lobby, whose menu becomes `menu`; False when the table is full (refused)."""
        if len(self.joined) >= GAMES[menu.game].info.players.stop - 1:
            self._refuse(seat, "table_full")
            return False
        if menu != self.menu or self._menu_unjournaled:
            self._accept(seat, "menu", _menu_json(menu))
        self._accept(seat, "join", {"seat": seat})
        return True

    def _player_card(self, seat: int | None, pid: str, card: str) -> None:
        """A regular's player card: in the lobby, at a seat, it names that seat's player, the seat joining first
        when it had not (a player sits at one seat: named at another before, moved here)."""
        if self.state is not None:
            return self._refuse(seat, "player_card_in_game")
        if seat is None:
            return self._refuse(None, "join_at_seat")
        if self.names.get(seat, ("",))[0] == pid:
            return None   # read again
        name = self.registry.players().get(pid)
        if name is None:   # a hall's card gone from players.json since it was looked up
            return self._refuse(seat, "unknown_tag")
        if seat not in self.joined and not self._join_with(seat, self.menu):
            return None
        self._accept(seat, "player", {"seat": seat, "player": pid, "name": name, "card": card})

    def _start(self, first_seat: int | None, by: int | None) -> None:
        """Start the chosen game with the joined seats; `first_seat` starts (deals, plays first); `by` asked."""
        info = GAMES[self.menu.game].info
        if len(self.joined) < info.players.start:
            return self._refuse(by, "too_few_players", min_players=info.players.start)
        if len(self.joined) not in info.players:
            return self._refuse(by, "players_misfit", players=len(self.joined))
        seats = sorted(self.joined)
        self._accept(by, "start", {"game": info.name, "options": dict(self.menu.options), "seats": seats,
                                   "first": seats.index(first_seat)})
        self._draw_for_the_table()   # a game may begin with a draw no card carries

    def _play(self, seat: int | None, action: Any) -> None:
        if action is None:
            return None
        refusal = action if isinstance(action, Refusal) else self.game.rules.check(self.state, action)
        if refusal:
            # A refused card is never named on screen: a seat's could be a sealed bid, one laid on the centre the
            # hidden top of a pile (no reveal), and the seat's own message names the seat.
            params = {k: v for k, v in refusal.args.items() if k != "card" and (k != "player" or seat is None)}
            return self._refuse(seat, refusal.key, **params)
        self._accept(seat, "action", codec.to_json(action))
        self._draw_for_the_table()

    def _draw_for_the_table(self) -> None:
        """A chance outcome no card carries (a first player): the table draws it and journals it (never into a
        journal opened to be read: replay shows the draw as due)."""
        while not self.journal.read_only and self.state is not None and self.game.rules.need(self.state).table_draw:
            action = self.rng.choice(self.game.rules.legal_actions(self.state))
            self._accept(None, "action", codec.to_json(action))

    def _accept(self, seat: int | None, kind: str, data: dict) -> None:
        """Check, journal, apply, acknowledge. An entry the table would not restore is never journaled (_Unfit);
        one the card does not take changes nothing (StorageFault)."""
        checked = self._checked(kind, data)
        seq = self.journal.append(kind, data)
        self.storage = None
        self._apply(kind, checked, seq)
        self._archive()
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

    def _do(self, kind: str, data: Any, seq: int) -> None:
        """Apply journal entry `seq` as it is restored, refusing with `_Unfit` what the table would refuse live."""
        self._apply(kind, self._checked(kind, data), seq)

    def _checked(self, kind: str, data: Any) -> Any:
        """Entry `kind` with `data`, checked as the table checks it now, live and on restore alike, and parsed for
        `_apply`; `_Unfit` says why the table refuses it. Changes nothing."""
        if not isinstance(data, dict):
            raise _Unfit("its data is not a JSON object")
        data = _Fields(data)
        if kind == "action":
            if self.state is None:
                raise _Unfit("a game action in the lobby")
            try:
                action = codec.from_json(self.game.rules.ACTIONS, data)
            except ValueError as error:   # its type and field names: never a field's value
                raise _Unfit(str(error)) from None
            refusal = self.game.rules.check(self.state, action)
            if refusal is not None:
                player = refusal.args.get("player")
                message = {"key": refusal.key, "params": {k: v for k, v in refusal.args.items()
                                                          if k not in ("card", "player")},   # a card may be sealed
                           "seat": self.players[player] if type(player) is int and 0 <= player < len(self.players)
                           else None}
                raise _Unfit(f"{data['type']} refused by the rules of {self.game.name}", message, self.game.name)
            return action
        if kind == "cursor":
            prompt, at = self.prompt, data["at"]
            if prompt is None or type(at) is not int or not 0 <= at < len(prompt.options):
                raise _Unfit("a prompt cursor with no prompt open")
            return at
        if kind == "join":
            seat, most = data["seat"], GAMES[self.menu.game].info.players.stop - 1
            if type(seat) is not int:
                raise _Unfit(f"seat {seat!r} is no seat number")
            if self.state is not None or seat in self.joined or seat not in self._seat_numbers:
                raise _Unfit(f"seat {seat} cannot join now")
            if len(self.joined) >= most:
                raise _Unfit(f"seat {seat} joins past the {most} players {self.menu.game} takes")
            return seat
        if kind == "player":
            seat, pid, name, card = data["seat"], data["player"], data["name"], data["card"]
            if self.state is not None or seat not in self.joined:
                raise _Unfit(f"a player named at seat {seat!r}, which is not in the lobby")
            if player_problem(pid, name) or type(card) is not str or not UID.fullmatch(card):
                raise _Unfit(f"a player {pid!r} named {name!r} by card {card!r}")
            return seat, pid, name, card
        if kind == "menu":
            if self.state is not None:
                raise _Unfit("a lobby menu during a game")
            return _menu_from_json(data)
        if kind == "start":
            return self._startable(data)
        if kind == "clock":
            if self._time_limit() is None:
                raise _Unfit("a clock entry with no game clock running")
            played, paused = data["played_s"], data.get("paused", False)
            if type(played) not in (int, float) or not 0 <= played < 1e9 or type(paused) is not bool:
                raise _Unfit(f"a clock entry with played_s {played!r}, paused {paused!r}")
            return float(played), paused
        if kind == "lobby":
            ended = data.get("ended") == "staff"   # a game the staff ended before its end: archived as it stood
            if self.mode != ("game" if ended else "over"):
                raise _Unfit("a game ended by staff with no game in play" if ended
                             else "back to the lobby before the game is over")
            if list(data["seats"]) != list(self.players):
                raise _Unfit(f"back to the lobby with seats {data['seats']}, not the game's")
            return ended
        raise _Unfit(f"unknown entry kind {kind!r}")

    def _apply(self, kind: str, checked: Any, seq: int) -> None:
        """Apply entry `seq` of `kind`, as `_checked` parsed it."""
        if kind == "action":
            self.state = self.game.rules.apply(self.state, checked)
            self.cursor = None
            self.menus.clear()   # what a menu offers may have changed: opened again by OK
        elif kind == "cursor":
            self.cursor = checked
        elif kind == "join":
            self.joined = sorted(self.joined + [checked])
        elif kind == "player":
            seat, pid, name, card = checked
            self.names = {s: other for s, other in self.names.items() if other[0] != pid} | {seat: (pid, name, card)}
        elif kind == "menu":
            self.menu, self._menu_unjournaled = checked, False
        elif kind == "start":
            game, seats, options, first = checked
            self.game, self.players = game, seats
            self.menu = Menu(game.name, options, teach=self.menu.teach)
            self.state = game.rules.new_game(game.deck, len(seats), first, options)
            self.cursor = self.rules_page = None
            self.menus.clear()
            self._began = self._clocked = seq
            self.played_s, self._since, self.paused = 0.0, None, False
        elif kind == "clock":
            (self.played_s, self.paused), self._clocked, self._since = checked, seq, None
        elif kind == "lobby":
            result = self._result() if self.over or checked else None
            seats = list(self.players)
            self.joined, self.players, self.state, self.game, self.cursor = seats, (), None, None, None
            self.rules_page = None
            self.menus.clear()
            if result is not None:
                lobby = (("menu", _menu_json(self.menu)), *(("join", {"seat": s}) for s in self.joined),
                         *(("player", {"seat": s, "player": pid, "name": name, "card": card})
                           for s, (pid, name, card) in sorted(self.names.items())))
                self.finished.append(Finished(self._began, seq, result, lobby))
            if self.offer_after is not None:   # live only: a restore applies its entries before it is set
                self._offer(self.offer_after)
                self.offer_after = None

    def _offer(self, game: str) -> None:
        """Offer `game` in the lobby (if this table can play it); journaled with the first act that depends on it."""
        offered = Menu.first(self.layout, game)
        if offered.game == game and offered != self.menu:
            self.menu, self._menu_unjournaled = offered, True

    def _startable(self, data: dict) -> tuple[Game, tuple[int, ...], dict, int]:
        """A `start` entry's game, seats, options and first player, if the lobby can start it now."""
        game = GAMES.get(data["game"])
        if game is None:
            raise _Unfit(f"unknown game {data['game']!r}")
        if self.state is not None:
            raise _Unfit("a start during a game")
        seats, first = tuple(data["seats"]), data["first"]
        if list(seats) != self.joined or len(seats) not in game.info.players:
            raise _Unfit(f"{game.name} cannot start with seats {list(seats)}")
        if type(first) is not int or not 0 <= first < len(seats):
            raise _Unfit(f"no player {first!r} to start")
        return game, seats, _options(game, data["options"]), first

    @property
    def _seat_numbers(self) -> set[int]:
        return {s.number for s in self.layout.seats}

    def _time_limit(self) -> float | None:
        """The play time the game in play allows, in seconds; None without a running clock (no time limit, over,
        or the time is already up)."""
        time_limit = getattr(self.game.rules, "time_limit", None) if self.state is not None else None
        return None if time_limit is None else time_limit(self.state)

    def _played(self) -> float:
        """The game's play time now, in seconds."""
        ran = 0.0 if self._since is None or self._now is None else self._now - self._since
        return self.played_s + ran

    def _result(self) -> dict:
        """The finished game's result for the history: scores and winners by seat (none for a game the staff
        ended before its end), and the players the seats' player cards named."""
        view = self.public()
        return {"game": self.game.name, "options": dict(self.menu.options), "seats": list(self.players),
                "scores": {str(seat): total for seat, total in zip(self.players, view["totals"])},
                "winners": [self.players[p] for p in view["winners"]],
                "players": {str(seat): {"id": pid, "name": name, "card": card}
                            for seat, (pid, name, card) in sorted(self.names.items())
                            if seat in self.players}}

    def _archive(self) -> None:
        """Hand the finished games to the journal to archive (a journal without history keeps them); the entry
        numbers the session keeps follow the journal's renumbering."""
        if not self.finished:
            return
        finished, self.finished = self.finished, []
        moved, last = self.journal.archive(finished), finished[-1].last
        if moved:
            self._began, self._clocked = (n - moved if n > last else n for n in (self._began, self._clocked))

    def _end_clearing_if_clear(self) -> None:
        if self.clearing and not (self.occupied.keys() | self.unsure) - self.dead:
            self.clearing = False
            self.message = None

    def _must_clear(self) -> bool:
        return self.state is not None and self.game.acts.must_clear(self.state)

    def _cursor_at(self, prompt: Prompt) -> int:
        return prompt.start if self.cursor is None else self.cursor

    # ------------------------------------------------------------ views

    @property
    def mode(self) -> str:
        """What the table does: "lobby", "game" (a game in play) or "over" (a game ended, not yet left)."""
        return "lobby" if self.state is None else "over" if self.over else "game"

    @property
    def _staff_mode(self) -> str:
        """The staff menu's lines: the table's mode, with a game's clock running or paused told apart."""
        if self.mode == "game" and self._time_limit() is not None:
            return "paused" if self.paused else "clocked"
        return self.mode

    @property
    def over(self) -> bool:
        return self.state is not None and self.game.rules.need(self.state).done

    @property
    def prompt(self) -> Prompt | None:
        """The seat prompt open now, if any."""
        return None if self.state is None else self.game.acts.prompt(self.state)

    def prompt_view(self) -> dict | None:
        """The open seat prompt as the screen and replay show it: its player, cursor and labels."""
        prompt = self.prompt
        return None if prompt is None else {"player": prompt.player, "cursor": self._cursor_at(prompt),
                                            "labels": [[key, dict(params)] for key, params in prompt.labels]}

    def menus_view(self) -> dict[str, dict]:
        """The open seat menus as the screen and replay show them, by seat: cursor and labels ("Back" first)."""
        shown = {}
        for player, (cursor, why) in sorted(self.menus.items()):
            menu = self._seat_menu(player)
            labels = [] if menu is None else [[key, dict(params)] for key, params in menu.labels]
            shown[str(self.players[player])] = {"cursor": cursor % (len(labels) + 2),
                                                "why": None if why is None else list(why),
                                                "labels": [["menu_back", {}], *labels, ["menu_rules", {}]]}
        return shown

    def clock_view(self) -> dict | None:
        """The game clock as the screen and replay show it (None: no clock runs): the seconds left and allowed."""
        limit = self._time_limit()
        return None if limit is None else {"left_s": max(0, round(limit - self._played())), "limit_s": round(limit),
                                           "paused": self.paused}

    def notice(self) -> dict | None:
        """What staff must know, as a message for the screen's banner: the card failing the journal's writes, or a
        file set aside at start-up that staff have not seen yet (None: nothing)."""
        if self.storage is not None:
            return {"key": f"storage_{self.storage}_staff", "params": {}, "seat": None}
        return self.notices[self.seen] if self.seen < len(self.notices) else None

    @property
    def chosen(self) -> Game:
        """The game in play, or in the lobby the one its menu has chosen."""
        return self.game or GAMES[self.menu.game]

    def public(self) -> dict | None:
        """The engine's public view (None in the lobby)."""
        return None if self.state is None else self.game.rules.observe(self.state, None)

    def table_view(self) -> dict:
        """Everything the screen may draw (see docs/screen.md); nothing secret."""
        info = self.chosen.info
        return {
            "mode": "lobby" if self.state is None else "game",
            "game": info.name,
            "seats": [s.number for s in self.layout.seats],
            "joined": list(self.players) if self.state is not None else list(self.joined),
            "names": {str(seat): name for seat, (_, name, _) in sorted(self.names.items())},
            "min_players": info.players.start,
            "max_players": info.players.stop - 1,
            "options": dict(self.menu.options),
            "menu": {"lines": self.menu.lines, "cursor": self.menu.cursor % len(self.menu.lines)},
            "teach": self.menu.teach,
            "rules_page": None if self.rules_page is None else {"seat": self.rules_page[0]},
            "shape": {"seat": self.shape.seat, "centre": self.shape.centre},
            "prompt": self.prompt_view(),
            "menus": self.menus_view(),
            "clock": self.clock_view(),
            "message": self.message,
            "notice": self.notice(),
            "staff": self.staff.view(self._staff_mode, games_for(self.layout)),
            "clearing": self.clearing,
            "view": self.public(),
        }


def _menu_json(menu: Menu) -> dict:
    return {"game": menu.game, "options": dict(menu.options), "cursor": menu.cursor, "teach": menu.teach}


def _menu_from_json(data: dict) -> Menu:
    game = GAMES.get(data["game"])
    if game is None:
        raise _Unfit(f"unknown game {data['game']!r}")
    cursor, teach = data["cursor"], data.get("teach", False)   # journals before the first-game mode have no teach
    if type(cursor) is not int:
        raise _Unfit(f"a menu cursor of {cursor!r}")
    if type(teach) is not bool:
        raise _Unfit(f"a first-game mode of {teach!r}")
    return Menu(game.name, _options(game, data["options"]), cursor, teach)


def _options(game: Game, given: dict) -> dict:
    """The game's options: its defaults, overridden by `given`, each checked against its choices."""
    options = game.info.defaults()
    if not isinstance(given, dict):
        raise _Unfit(f"{game.name}'s options are not a JSON object")
    for name, value in given.items():
        option = next((o for o in game.info.options if o.name == name), None)
        if option is None or value not in option.choices:
            raise _Unfit(f"{game.name} has no option {name}={value!r}")
        options[name] = value
    return options


def _reason(error: Exception) -> str:
    """Why an entry was refused, in one line (at most REASON_CHARS: an entry's data may be any size)."""
    reason = _why(error)
    return reason if len(reason) <= REASON_CHARS else reason[:REASON_CHARS - 1] + "…"


def _why(error: Exception) -> str:
    """The words of a refusal of the table's own (the entry's fault); of any other error, only its kind: its
    message could quote the entry's data, and a sealed card must reach neither the screen nor a log."""
    if isinstance(error, _Unfit):
        return str(error)
    if isinstance(error, json.JSONDecodeError):
        return f"its data is not JSON ({error.msg})"
    return f"the table failed on it ({type(error).__name__})"
