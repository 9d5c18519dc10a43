"""`cardtable layout check|wiring FILE`: a layout's problems, then its summary or its wiring tables."""
from __future__ import annotations

from collections.abc import Callable

from table.layout import Layout, LayoutError, read_layout
from table.layout.check import check_layout, summary
from table.layout.wiring import wiring_markdown


def layout_command(action: str, file: str, games_for: Callable[[Layout], list[str]]) -> int:
    """Check the layout `file` ("check") or print its wiring tables ("wiring"): one line per problem, and none of
    the rest when one is an error; the summary of a sound layout names the games it can play (`games_for`)."""
    try:
        layout = read_layout(file)
    except LayoutError as error:
        print(f"error: {error}")
        return 1
    problems = check_layout(layout)
    errors = sum(p.error for p in problems)
    if action == "check" or errors:
        print(layout.source, *problems, sep="\n")
    if errors:
        print(f"{errors} error{'s' if errors > 1 else ''}: the table cannot be wired like this")
        return 1
    if action == "check":
        print(f"OK: {summary(layout)}")
        print(f"  games: {', '.join(games_for(layout)) or 'none (see each game’s pads and buttons)'}")
    else:
        print(wiring_markdown(layout), end="")
    return 0
