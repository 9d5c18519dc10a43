"""Every test runs without a screen or sound card, on two workers per core."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from pathlib import Path

import pytest


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto` (the README's command): two workers per core, since many tests wait on processes, fsyncs and
    sockets rather than the CPU (on this 2-core machine the suite took 5 min 35 s with 2 workers, 4 min 30 s
    with 4)."""
    return 2 * (os.cpu_count() or 1)


@pytest.fixture(scope="module")
def out(tmp_path_factory, request):
    """Where a module's PNGs go: $CARDTABLE_SCREENS (to look at them) or a temporary folder."""
    folder = os.environ.get("CARDTABLE_SCREENS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        return Path(folder)
    return tmp_path_factory.mktemp(request.module.__name__.removeprefix("test_"))


@pytest.fixture
def drawing(monkeypatch):
    """Records the parts a screen draws side by side (top-level draw calls, not what is inside them).

    `drawing(render, boxes)` runs `render()` with each draw function named in
    `boxes` wrapped, `boxes[name](result, *args)` giving the part's rect, and
    returns (name, text or "", rect) for every part with an area. A name
    "chip" or "card" wraps that method of the card faces (`faces`, a Faces
    class) instead: its box gets (result, self, surf, rect, card).
    """
    import pygame

    from table.screen import draw

    def record(render, boxes, faces=None) -> list[tuple[str, str, pygame.Rect]]:
        parts, depth = [], [0]
        for name, box in boxes.items():
            owner = faces if name in ("chip", "card") else draw

            def wrapped(surf, *args, _name=name, _box=box, _draw=getattr(owner, name), **kwargs):
                depth[0] += 1
                try:
                    result = _draw(surf, *args, **kwargs)
                finally:
                    depth[0] -= 1
                if depth[0] == 0:
                    text = str(args[0]) if _name in ("text", "tag") else ""
                    parts.append((_name, text, pygame.Rect(_box(result, *args))))
                return result
            monkeypatch.setattr(owner, name, wrapped)
        try:
            render()
        finally:
            monkeypatch.undo()
        return [part for part in parts if part[2].w and part[2].h]

    return record


def around(centre, radius):
    """The square around a circle (badges, crowns)."""
    return centre[0] - radius, centre[1] - radius, 2 * radius, 2 * radius
