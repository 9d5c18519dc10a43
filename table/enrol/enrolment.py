"""Enrolment: tagging a deck (staff cards, a player's card) the first time, one card after another, at a station
pad.

Pure of hardware: it is told which tag was placed and which button was
pressed. Progress is never kept here: which cards have a tag is read from
the registry, so an interrupted enrolment resumes where it stopped.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from table.hardware.rfid.mfrc522 import FACTORY_PASSWORD
from table.screen.glyphs import undrawable
from table.storage.registry import (Tag, TagRegistry, deck_cards, new_player_id, player_name_problem, player_tag,
                                    staff_tag)

# Writes a password and PACK on the tag placed (uid, password, pack, its current password): the station's reader.
Protect = Callable[[str, bytes, bytes, bytes], bool]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the last tag did: accepted (bound to a card) or refused (nothing changed).

    `key` names its text (assets/i18n), `uid` is the tag placed and `tag` the
    card it concerns (the card bound, or what the tag already is or was).
    """

    accepted: bool
    key: str
    uid: str | None = None
    tag: Tag | None = None


class Enrolment:
    """The cards to tag, in deck order, then the staff cards, then a player's card; the one shown (`cursor`) and
    the last outcome.

    A new tag placed is bound to the card shown, and the cursor moves on to
    the next card without a tag. In re-tag mode the card shown may already
    have a tag (it was lost): the new tag replaces it and the old one is
    retired; the mode ends after one card. Refused, changing nothing: a tag
    already enrolled (any deck, or a staff card), a retired tag, a new tag
    for a card that has one (outside re-tag mode).

    A staff card is bound only once its tag holds its password (an NTAG21x
    protected by the station's reader: `protect`), so that it can prove
    itself at the table; a staff card enrolled before it had one is
    protected when it is placed again.

    A player's card stands for the player of that name: the one the registry
    knows, or a new player (a new id) bound with its first card.
    """

    def __init__(self, registry: TagRegistry, deck: str | None = None, staff: int = 0,
                 player: str | None = None) -> None:
        cards = () if deck is None else deck_cards(deck)
        if cards is None:
            raise ValueError(f"there is no deck {deck!r}")
        if staff < 0:
            raise ValueError("the number of staff cards cannot be negative")
        if player is not None:
            player = unicodedata.normalize("NFC", player)   # an accent typed as a combining mark, composed
            problem = player_name_problem(player)
            if problem is None and (cannot := undrawable(player)):
                problem = f"a player's name cannot hold {cannot!r}: the table's screen cannot draw it"
            if problem:
                raise ValueError(problem)
        self.registry = registry
        self.deck = deck
        self.player = None if player is None else (registry.player_id(player) or new_player_id(), player)
        self.targets = (tuple(Tag("card", deck, card) for card in cards) + tuple(staff_tag(n + 1) for n in range(staff))
                        + ((player_tag(self.player[0]),) if self.player else ()))
        if not self.targets:
            raise ValueError("nothing to enrol: give a deck, a number of staff cards or a player's name")
        self.retagging = False
        self.last: Outcome | None = None
        self.cursor = 0
        self._to_next_missing()

    # ------------------------------------------------------------ what is shown

    @property
    def target(self) -> Tag:
        """The card shown: the next to scan (or, in re-tag mode, the card to re-tag)."""
        return self.targets[self.cursor]

    def uid_of(self, tag: Tag) -> str | None:
        return self.registry.uid_of(tag)

    def player_name(self, pid: str) -> str:
        """The name of player `pid`: the one being given a card, or one the registry knows."""
        return self.player[1] if self.player and self.player[0] == pid else self.registry.players().get(pid, pid)

    @property
    def done(self) -> int:
        """How many of the cards to tag have a tag."""
        return sum(self.uid_of(tag) is not None for tag in self.targets)

    @property
    def complete(self) -> bool:
        return self.done == len(self.targets)

    # ------------------------------------------------------------ buttons

    def next(self) -> None:
        """Show the next card (after the last, the first)."""
        self.pick((self.cursor + 1) % len(self.targets))

    def back(self) -> None:
        """Show the previous card (before the first, the last)."""
        self.pick((self.cursor - 1) % len(self.targets))

    def pick(self, index: int) -> None:
        """Show the card at `index` of `targets`."""
        if not 0 <= index < len(self.targets):
            raise IndexError(f"no card {index} to enrol (0 to {len(self.targets) - 1})")
        self.cursor = index

    def choose(self, card: str) -> None:
        """Show the card with this id (or staff name, or player's name)."""
        found = [i for i, tag in enumerate(self.targets)
                 if card in (tag.card, tag.kind == "player" and self.player_name(tag.card))]
        if not found:
            raise ValueError(f"{card!r} is not a card of {self.deck or 'the staff cards'}")
        self.pick(found[0])

    def retag(self, card: str) -> None:
        """Show a card that has a tag, in re-tag mode: the next tag placed replaces its (lost) one."""
        self.choose(card)
        if self.uid_of(self.target) is None:
            raise ValueError(f"{card} has no tag yet: there is nothing to replace")
        self.retagging = True

    def toggle_retag(self) -> None:
        """Enter or leave re-tag mode (replace the tag of a lost card)."""
        self.retagging = not self.retagging

    # ------------------------------------------------------------ tags

    def place(self, uid: str, protect: Protect | None = None) -> Outcome:
        """A tag was placed on the station pad: bind it to the card shown, or refuse it. `protect` is the
        station reader's, for staff cards (None: it cannot write passwords)."""
        uid = uid.upper()
        tag = self.registry.lookup(uid)
        if tag is not None and tag.kind == "staff" and not self.registry.protected(uid):
            self.last = self._protected(uid, tag, protect)
        else:
            self.last = self._refusal(uid) or self._bind(uid, protect)
        return self.last

    def fault(self) -> None:
        """The station's reader stopped answering (nothing changes)."""
        self.last = Outcome(False, "enrol_reader_fault")

    def _refusal(self, uid: str) -> Outcome | None:
        was = self.registry.retired(uid)
        if was is not None:
            return Outcome(False, "enrol_tag_retired", uid, was)
        tag = self.registry.lookup(uid)
        if tag is not None:
            own = tag.kind != "card" or tag.deck == self.deck
            return Outcome(False, "enrol_tag_taken" if own else "enrol_tag_other_deck", uid, tag)
        if self.uid_of(self.target) is not None and not self.retagging:
            return Outcome(False, "enrol_deck_complete" if self.complete else "enrol_card_has_tag", uid, self.target)
        return None

    def _protected(self, uid: str, tag: Tag, protect: Protect | None) -> Outcome:
        """An enrolled staff card without its password: written now."""
        if not self._protect(uid, protect):
            return Outcome(False, "enrol_staff_not_protected", uid, tag)
        self.registry.mark_protected(uid)
        return Outcome(True, "enrol_staff_protected", uid, tag)

    def _protect(self, uid: str, protect: Protect | None) -> bool:
        """Write the staff card's password on tag `uid`: a blank NTAG21x takes the factory's, one protected by
        this table before (an enrolment cut short) its own."""
        if protect is None:
            return False
        password, pack = self.registry.staff_key(uid)
        return any(protect(uid, password, pack, current) for current in (FACTORY_PASSWORD, password))

    def _bind(self, uid: str, protect: Protect | None) -> Outcome:
        tag = self.target
        if tag.kind == "staff" and not self._protect(uid, protect):
            return Outcome(False, "enrol_staff_not_protected", uid, tag)
        if self.uid_of(tag) is None:
            self.registry.enrol(uid, tag, self.player_name(tag.card) if tag.kind == "player" else None)
            outcome = Outcome(True, "enrol_accepted", uid, tag)
        else:
            self.registry.retag(tag, uid)
            outcome = Outcome(True, "enrol_retagged", uid, tag)
        if tag.kind == "staff":
            self.registry.mark_protected(uid)
        self.retagging = False
        self._to_next_missing()
        return outcome

    def _to_next_missing(self) -> None:
        """Move the cursor to the first card without a tag from the cursor on (wrapping); stay if there is none."""
        n = len(self.targets)
        self.cursor = next((i % n for i in range(self.cursor, self.cursor + n) if self.uid_of(self.targets[i % n]) is None),
                           self.cursor)
