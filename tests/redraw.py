"""The screen as drawn, and as drawn again with nothing kept: the guard of
every cache of drawn lines (tests/ui/test_kept_strips.py, test_kept_lines.py)."""

from __future__ import annotations

from textual.widget import Widget

from tui.ui.app import PrDigestApp
from tui.ui.patches.lines import KeptLines
from tui.ui.widgets.review_list import ReviewList

Drawn = list[list[tuple[str, object]]]


def drawn(app: PrDigestApp) -> Drawn:
    """Every segment on screen with its style, row by row."""
    return [[(s.text, s.style) for s in strip] for strip in app.screen._compositor.render_strips()]


def kept_caches(app: PrDigestApp) -> list[tuple[Widget, KeptLines]]:
    """Every widget on screen whose lines are styled by `KeptLines`, and its cache."""
    found = [(w, w._styles_cache) for w in app.screen.walk_children(Widget)]
    return [(w, cache) for w, cache in found if isinstance(cache, KeptLines)]


async def drawn_as_new(app: PrDigestApp, pilot: object) -> Drawn:
    """The screen drawn again with nothing kept: no styled lines, no rows, no
    lines in Textual's own caches."""
    reviews = app.query_one(ReviewList)
    reviews._kept.clear()
    reviews._cache.clear()
    for widget, cache in kept_caches(app):
        cache.forget()
        widget.refresh()
    app.screen.refresh()
    await pilot.pause()  # type: ignore[attr-defined]
    return drawn(app)
