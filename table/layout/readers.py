"""Reader types: the kinds of reader a layout can name (`reader = NAME`), each with its layout half.

A reader type is registered by its name in `table.layout.READER_TYPES`, as
gpiozero registers pin factories: its adapter module says which keys a
pad's table (`[pads.NAME]`) holds and reads them into its own wiring record,
checks its readers, writes its lines of the layout's summary and its wiring
tables, and names its driver half in table/hardware/ ("module:attribute", a
`table.hardware.readers.ReaderDriver`), which makes its real and emulated
readers.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from table.layout import Layout
    from table.layout.boards import Board
    from table.layout.check import Checker


class PadWiring(Protocol):
    """What every reader type's wiring record says of the reader under a pad."""

    pad: str
    board: str
    index: int      # the reader's number on its board, in file order


@dataclass(frozen=True)
class ReaderType:
    """The layout half of a kind of reader, registered under the name a layout gives it."""

    name: str
    keys: tuple[str, ...]       # the keys of a pad's table besides `board`
    read: Callable[..., PadWiring]      # (pad's table, pad, board, index, board's reset pin) -> its wiring
    check: Callable[[Checker, Any], None]           # the rules of one pad's reader
    check_all: Callable[[Checker], None]            # the rules of the readers together, after every pad's
    buses: Callable[[Layout], dict[str, Any]]       # where readers are read in turn -> those readers
    read_s: float                                   # time to read one reader with a card on it
    summary: Callable[[Layout], list[str]]          # its lines of the layout's summary
    tables: Callable[[Layout, str, Board], list[str]]   # the wiring tables of its readers on one board
    driver: str                 # "module:attribute" of its driver half (table/hardware/)
