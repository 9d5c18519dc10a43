"""The pager: which page of a sequence is up at each moment."""
from __future__ import annotations

from table.screen.pager import PAGE_S, Pager


class Pages:
    """A screen whose pages are the view's "pages" list and whose render names the page drawn."""

    def pages(self, view: dict) -> list:
        return view["pages"]

    def render(self, view: dict, page: str, step=None) -> str:
        return page


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_new_sequence_shows_each_page_then_keeps_the_last():
    clock = Clock()
    pager = Pager(Pages(), clock)
    view = {"pages": [("a", None), ("b", None), ("c", None)]}
    shown = []
    for t in (0, PAGE_S * 0.9, PAGE_S * 1.1, PAGE_S * 2.1, PAGE_S * 50):
        clock.now = t
        shown.append(pager.frame(view))
    assert shown == ["a", "a", "b", "c", "c"]


def test_a_sequence_that_grows_goes_on_where_it_was():
    clock = Clock()
    pager = Pager(Pages(), clock)
    assert pager.frame({"pages": [("a", None), ("b", None)]}) == "a"
    clock.now = PAGE_S * 0.5
    assert pager.frame({"pages": [("a", None), ("b", None), ("c", None)]}) == "a"
    clock.now = PAGE_S * 2.2
    assert pager.frame({"pages": [("a", None), ("b", None), ("c", None)]}) == "c"


def test_a_sequence_grown_long_after_its_last_page_shows_each_new_page():
    clock = Clock()
    pager = Pager(Pages(), clock)
    pager.frame({"pages": [("step", 0), ("pick", None)]})
    clock.now = 100.0                                   # a tied seat took its time to pick
    grown = {"pages": [("step", 0), ("pick", None), ("step", 1), ("step", 2), ("take", None)]}
    assert pager.frame(grown) == "step"
    assert pager.page == ("step", 1)
    clock.now += PAGE_S
    pager.frame(grown)
    assert pager.page == ("step", 2)
    clock.now += PAGE_S * 10
    assert pager.frame(grown) == "take"


def test_another_sequence_starts_from_its_first_page():
    clock = Clock()
    pager = Pager(Pages(), clock)
    pager.frame({"pages": [("a", None), ("b", None)]})
    clock.now = 30.0
    assert pager.frame({"pages": [("x", None), ("y", None)]}) == "x"
