"""A pane's scrollbar drawn from the lines Textual drew before
(tui.ui.patches.KeptBar) is the bar Textual would draw, for every place and
size of its thumb, in each look; and Textual draws the whole bar only for a
line it has not drawn before."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from rich.segment import Segment
from textual.scrollbar import ScrollBar
from textual.widget import Widget

from tests.app_helpers import make_app
from tui.ui.patches.lines import KeptLines
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.scrolling import PaneScrollBar


def textuals_drawing(bar: PaneScrollBar) -> list[list[Segment]]:
    """The bar as Textual draws it with nothing of ours kept: every line
    dirty, drawn by `Widget.render_lines` from `ScrollBar.render`."""
    lines = bar._styles_cache
    assert isinstance(lines, KeptLines)
    lines.forget()
    ScrollBar.refresh(bar)  # not PaneScrollBar's, which skips a redraw it finds unneeded
    return [list(strip) for strip in Widget.render_lines(bar, bar.size.region)]


def thumbs(height: int) -> Iterator[tuple[int, float]]:
    """(content height, scroll position) pairs: thumbs from most of the bar to
    one cell, at the top, the bottom and every eighth of a cell between."""
    for virtual in (height + 3, height * 2 + 1, height * 5, height * 40):
        room = virtual - height
        for eighth in range(0, room * 8 + 1, max(1, room * 8 // 23)):
            yield virtual, eighth / 8
        yield virtual, room


async def test_every_drawing_is_textuals_and_few_are_drawn_by_textual(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        bar = app.query_one(ReviewView).vertical_scrollbar
        assert isinstance(bar, PaneScrollBar)
        height = bar.size.height
        assert height > 10 and bar.size.width >= 1

        textual_drew = 0
        render_content = bar._render_content

        def counted() -> None:
            nonlocal textual_drew
            textual_drew += 1
            render_content()

        bar._render_content = counted  # type: ignore[method-assign]
        drawings = 0
        for look in ("plain", "hover", "theme"):
            if look == "hover":
                bar.mouse_over = True
            if look == "theme":
                bar.mouse_over = False
                app.theme = "textual-light"
                await pilot.pause()
            for virtual, position in thumbs(height):
                bar.window_virtual_size, bar.window_size, bar.position = virtual, height, position
                bar._kept = None  # no whole drawing kept, and every line dirty: each is drawn
                ScrollBar.refresh(bar)
                ours = [list(strip) for strip in bar.render_lines(bar.size.region)]
                assert bar._drawn == height  # every line made here, not left to Textual
                drawn_before = textual_drew
                theirs = textuals_drawing(bar)
                textual_drew = drawn_before  # the comparison's own drawing is not counted
                assert ours == theirs, (look, virtual, position)
                drawings += 1
        # Each look has ~17 kinds of line (two blanks, the thumb, its ends'
        # glyphs): Textual drew the bar when one first appeared, not each time.
        assert drawings > 150
        assert textual_drew <= 3 * 17, textual_drew
