"""A `Strip` makes its caches when first used, of Textual's sizes, one set
per strip (tui/ui/patches/strips.py)."""

from __future__ import annotations

import pytest
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

import tui.ui.patches  # noqa: F401  # installs the lazy caches
from tui.ui.patches.strips import CACHES, TEXTUAL_INIT


def slot(strip: Strip, name: str) -> object:
    """The slot's value as set, without `__getattr__` making it."""
    return Strip.__dict__[name].__get__(strip, Strip)


def test_a_new_strip_holds_no_cache_until_one_is_used() -> None:
    strip = Strip([Segment("hello "), Segment("world", Style(bold=True))])
    for name in CACHES:
        with pytest.raises(AttributeError):
            slot(strip, name)
    cut = strip.divide([3, 8])
    assert strip.divide([3, 8]) is cut  # kept, as Textual keeps it
    assert slot(strip, "_divide_cache") is strip._divide_cache
    with pytest.raises(AttributeError):
        slot(strip, "_crop_cache")
    other = Strip([Segment("hello world")])
    assert other.divide([3, 8]) is not cut
    assert [s.text for s in other.divide([3, 8])] == [s.text for s in cut]


def test_the_caches_are_textuals_names_and_sizes() -> None:
    made = Strip.__new__(Strip)
    TEXTUAL_INIT(made, [Segment("x")])
    caches = {name for name in Strip.__slots__ if name.endswith("_cache") and name != "_render_cache"}
    assert caches == set(CACHES)
    for name, size in CACHES.items():
        assert slot(made, name)._maxsize == size  # type: ignore[attr-defined]
    lazy = Strip([Segment("x")], 1)
    for name in set(Strip.__slots__) - caches:
        assert slot(lazy, name) == slot(made, name) or name == "_cell_length", name
    with pytest.raises(AttributeError):
        lazy.no_such_thing  # noqa: B018
