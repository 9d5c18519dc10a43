"""A table built entirely from simulated hardware, with the hands that place cards on it."""
from __future__ import annotations

from table.assets import deck_data
from table.events import Tick
from table.registry import GAMES
from table.hardware.build import ChipPad, emulated, simulated
from table.hardware.lights import press
from table.hardware.simulated import Noise
from table.layout import Layout
from table.pipeline import Table
from table.storage.journal import Journal
from table.hardware.rfid.emulator import EmulatedNtag
from table.storage.registry import PLAYER_ID, Tag, TagRegistry, deck_cards, enrol_simulated, player_tag

PATIENCE = 200   # polls a simulated hand waits for the table to see a card come or go


class SimulatedTable:
    """A `Table` on simulated (or emulated) hardware, and the physical acts of placing cards and pressing buttons.

    Simulated: virtual readers. Emulated (`emulate=True`, a layout wired to
    the Pi): the real MFRC522 driver reads emulated chips. Either way
    `pads[pad]` is what a hand lays tags on (place, lift, card) and the
    buttons are gpiozero mock pins.
    """

    def __init__(self, layout: Layout, journal: Journal | None = None, registry: TagRegistry | None = None,
                 game: str | None = None, noise: Noise = Noise(), seed: int = 0, emulate: bool = False) -> None:
        self.registry = registry or TagRegistry()
        for deck in dict.fromkeys(g.info.deck for g in GAMES.values()):   # every game's cards (and accessories)
            enrol_simulated(self.registry, deck, deck_cards(deck))
        keys = self._staff_keys()
        hardware = emulated(layout) if emulate else simulated(layout, noise, seed, keys)
        self.table = Table(layout, hardware, self.registry, journal or Journal(), game)
        chips = self.table.hardware.chips
        tags = {uid: EmulatedNtag(uid).given(*key) for uid, key in keys.items()}
        self.pads = {pad: ChipPad(chips[pad], tags) for pad in chips} if emulate else self.table.hardware.readers
        self.factories = self.table.hardware.factories

    def _staff_keys(self) -> dict[str, tuple[bytes, bytes]]:
        """The password and PACK written on each protected staff tag, as enrolment wrote them on real cards."""
        uids = (self.registry.uid_of(Tag("staff", None, name)) for name, protected in self.registry.staff().items()
                if protected)
        return {uid: self.registry.staff_key(uid) for uid in uids}

    @property
    def session(self):
        return self.table.session

    @property
    def on_pad(self) -> dict[str, str]:
        """Pad -> UID of every card the table has seen settle on a pad."""
        return self.table.session.occupied

    @staticmethod
    def cards(deck: str) -> list[str]:
        """The playing cards of a deck (not its accessories)."""
        return [c["id"] for c in deck_data(deck)["cards"]]

    @property
    def deck(self) -> str:
        """The deck of the game in play, or of the game chosen in the lobby."""
        return self.session.chosen.info.deck

    def uid(self, card: str) -> str:
        """The tag UID of a card of the current game's deck ('staff-1' for the staff card, a player's id for their
        player card)."""
        if PLAYER_ID.fullmatch(card):
            return self.registry.uid_of(player_tag(card))
        tag = Tag("staff", None, card) if card.startswith("staff") else Tag("card", self.deck, card)
        return self.registry.uid_of(tag)

    def put(self, pad: str, card: str) -> None:
        """Lay a card on a pad and hold it there until the table has seen it (and a staff card has proved itself)."""
        uid = self.uid(card)
        self.pads[pad].place(uid)
        self._until(lambda: self.on_pad.get(pad) == uid and self.session.proving is None, f"{card} on {pad}")

    def lift(self, pad: str) -> None:
        """Take the card off a pad and wait until the table has seen it go."""
        self.pads[pad].lift()
        self._until(lambda: pad not in self.on_pad, f"lift from {pad}")

    def clear(self) -> None:
        """Take every card off every pad at once, as players do after a reveal."""
        for pad in self.pads.values():
            pad.lift()
        self._until(lambda: not self.on_pad, "every pad cleared")

    def tap(self, pad: str, card: str) -> None:
        """Lay a card on a pad, then take it away."""
        self.put(pad, card)
        self.lift(pad)

    def settle(self) -> None:
        """Poll until the table has seen every pad empty (a table opened again after a power cut, its pads
        bare): the pad gate and the clear-table gate of a session restored from the journal open."""
        self._until(lambda: not self.session.clearing and not self.session.lying, "every pad seen empty")

    def press(self, seat: int, button: str) -> None:
        """Press a seat button and let the table handle it."""
        spec = self.table.layout.seats[seat - 1]
        press(self.factories[spec.board], dict(spec.buttons)[button])
        self.table.bus.dispatch()

    def tick(self) -> None:
        """The table's time goes on while no hand acts (a game clock counts down): its Tick, as a poll round
        would publish it (the window calls this each frame; it polls only when a hand acts)."""
        self.table.bus.publish(Tick(self.table.clock()))
        self.table.bus.dispatch()

    def _until(self, done, what: str) -> None:
        for _ in range(PATIENCE):
            if done():
                return
            self.table.step()
        raise TimeoutError(f"the table never saw {what} in {PATIENCE} polls")

    def close(self) -> None:
        self.table.close()
