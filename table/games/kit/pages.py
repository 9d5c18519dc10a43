"""What game pages share that is pure (from the table view alone): the order of pages after a resolution, points
with their sign."""
from __future__ import annotations


def resolution_pages(table: dict, steps: list[tuple[str, int | None]], scores: bool,
                     end: tuple[tuple[str, int | None], ...] = (("over", None),)) -> list[tuple[str, int | None]]:
    """A resolution's pages in order: its `steps` (take page included), the scores when it ended a deal,
    then the `end` pages once the game is over, or else the table page again once the table is clear."""
    shown = [*steps, *([("scores", None)] if scores else [])]
    if table["view"]["phase"] == "over":
        return [*shown, *end]
    return shown if table.get("clearing") else [*shown, ("table", None)]


def signed(n: int) -> str:
    """Points with their sign, a negative one with a true minus: '+14', '−14', '0'."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"
