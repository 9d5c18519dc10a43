"""The driver halves of the reader types: how the readers a layout's reader type names are made.

A layout's reader type (`Layout.reader_type`, table/layout/readers.py) names
its driver half by "module:attribute", as gpiozero's entry points name pin
factories; `reader_driver` loads it.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpiozero.pins import Factory as PinFactory

from table.hardware.ports import Reader

if TYPE_CHECKING:
    from table.layout import Layout


@dataclass(frozen=True)
class ReaderDriver:
    """The hardware half of a reader type: its readers wired to the Pi, real or over its emulator.

    Each maker takes the type's wiring records of the Pi-wired pads, the Pi's
    pin factory and a list it adds what to close to, and gives pad -> Reader.
    """

    real: Callable[[tuple, PinFactory | None, list[Callable[[], None]]], dict[str, Reader]]
    emulator: Callable[[], Any] | None      # one emulated reader chip, which tests and the doctor lay cards on
    emulated: Callable[[tuple, dict[str, Any], PinFactory | None, list[Callable[[], None]]],
                       dict[str, Reader]] | None   # (wirings, pad -> its emulator, pins, closers): readers over them
    missing: Callable[[Layout, Path], dict[str, str]]   # (layout, root): pad -> what to do, for devices not found


def reader_driver(layout: Layout) -> ReaderDriver:
    """The driver half of the layout's reader type."""
    module, name = layout.reader_type.driver.split(":")
    return getattr(importlib.import_module(module), name)
