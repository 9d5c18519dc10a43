"""Table layouts: which pads, lights and buttons a table has, read from hardware/layouts/*.toml.

A seat has either one pad per bid slot (the pad's index is the slot, i.e. the
lot position 0 top, 1 right, 2 bottom, 3 left) or a single pad where cards
are placed one after another. The centre has one pad per lot or a single pad.
Lights and buttons name a `board` (a pin factory: the Pi itself, or one
simulated board per group of seats) and BCM pin numbers on it.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

LAYOUTS = Path(__file__).resolve().parent.parent / "hardware" / "layouts"


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: its pads, its RGB light pins (red, green, blue) and its buttons."""

    number: int
    pads: tuple[str, ...]
    board: str
    light: tuple[int, int, int]
    buttons: tuple[tuple[str, int], ...]   # (button name, pin)


@dataclass(frozen=True, slots=True)
class Layout:
    """A whole table."""

    name: str
    backend: str
    seats: tuple[Seat, ...]
    centre: tuple[str, ...]

    def pad_place(self, pad: str) -> tuple[int | None, int | None]:
        """(seat number or None for the centre, slot or None for a single pad) of a pad."""
        if pad in self.centre:
            return None, self.centre.index(pad) if len(self.centre) > 1 else None
        for seat in self.seats:
            if pad in seat.pads:
                return seat.number, seat.pads.index(pad) if len(seat.pads) > 1 else None
        raise KeyError(f"pad {pad!r} is not in layout {self.name!r}")

    @property
    def pads(self) -> tuple[str, ...]:
        return tuple(p for s in self.seats for p in s.pads) + self.centre


def load_layout(path: str | Path) -> Layout:
    """Read a layout file; a bare name means hardware/layouts/NAME.toml."""
    path = Path(path)
    if not path.suffix:
        path = LAYOUTS / f"{path}.toml"
    with open(path, "rb") as f:
        data = tomllib.load(f)
    seats = tuple(
        Seat(
            number=i + 1,
            pads=tuple(s["pads"]),
            board=s.get("board", "pi"),
            light=tuple(s["light"]),
            buttons=tuple(s["buttons"].items()),
        )
        for i, s in enumerate(data["seats"])
    )
    layout = Layout(data["name"], data.get("backend", "simulated"), seats, tuple(data["centre"]["pads"]))
    for seat in seats:
        if len(seat.pads) not in (1, 4):
            raise ValueError(f"{path}: seat {seat.number} needs 1 pad or 4 (one per bid slot), has {len(seat.pads)}")
    if len(layout.centre) not in (1, 4):
        raise ValueError(f"{path}: the centre needs 1 pad or 4 (one per lot), has {len(layout.centre)}")
    if len(set(layout.pads)) != len(layout.pads):
        raise ValueError(f"{path}: a pad name is used twice")
    return layout
