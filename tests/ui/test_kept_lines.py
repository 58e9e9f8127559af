"""A pane's content line drawn again as it was is not styled again: its
styled strip (the one Textual keeps for the line, and the filtered strip and
cuts kept on it) is the one drawn before (tui/ui/patches/lines.py). And what
is kept never shows something stale: after marks, checks, focus moves,
filters, a search, resizes and a theme, the screen is what it is drawn with
nothing kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.strip import Strip
from textual.widget import Widget

from tests.app_helpers import make_app, settled
from tests.redraw import drawn, drawn_as_new, kept_caches
from tui.ui import look_ahead
from tui.ui.patches.lines import KeptLines
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.tag_list import TagList


def content_lines(widget: Widget) -> range:
    """The widget's lines inside its borders and padding."""
    gutter = widget.styles.gutter
    return range(gutter.top, widget.size.height - gutter.bottom)


def styled_lines(widget: Widget) -> dict[int, Strip]:
    """The styled strips Textual keeps for the widget's lines, by line."""
    return dict(widget._styles_cache._cache)


async def test_every_pane_styles_its_lines_through_kept_lines(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        widgets = {type(w) for w, _ in kept_caches(app)}
        assert {ReviewList, ReviewView, TagList} <= widgets


async def test_a_mark_restyles_only_the_row_it_changed(tmp_path: Path) -> None:
    """`r` redraws every row of the list (its rows' marks may all have
    changed) and `space` the whole review: the lines that show what they
    showed are the strips styled before; Textual styled them all anew."""
    app = make_app(tmp_path)
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        reviews, view = app.query_one(ReviewList), app.query_one(ReviewView)
        await pilot.press("j", "k")  # both rows drawn without and with the cursor
        await pilot.pause()
        before = styled_lines(reviews)
        cache = reviews._styles_cache
        styled = getattr(cache, "styled", 0)
        await pilot.press("r")  # the first review read: its row loses its dot
        await pilot.pause()
        after = styled_lines(reviews)
        content = content_lines(reviews)
        changed = [y for y in content if after[y] is not before[y]]
        assert len(content) > 10
        # The first of the row's two lines: its dot (the borders are Textual's).
        assert changed == [reviews.row_lines(0)[0] + reviews.styles.gutter.top], changed
        assert isinstance(cache, KeptLines)
        assert cache.styled - styled == 1
        assert after[changed[0]].text != before[changed[0]].text

        await pilot.press("enter")
        await pilot.pause()
        before = styled_lines(view)
        await pilot.press("space")  # the item under the cursor checked
        await pilot.pause()
        after = styled_lines(view)
        content = content_lines(view)
        same = [y for y in content if after[y] is before[y]]
        assert len(content) > 10
        assert len(same) >= len(content) - 3, (len(same), len(content))
        assert any(after[y].text != before[y].text for y in content)


async def test_focus_moving_back_reuses_both_looks(tmp_path: Path) -> None:
    """enter and escape change both panes' border colour and nothing inside:
    once each look was drawn, going back and forth styles no content line
    but the cursor's."""
    app = make_app(tmp_path)
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        await pilot.press("enter", "escape")
        await pilot.pause()
        caches = [cache for _, cache in kept_caches(app)]
        styled = sum(cache.styled for cache in caches)
        listed = styled_lines(app.query_one(ReviewList))
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert sum(cache.styled for cache in caches) - styled <= 6
        again = styled_lines(app.query_one(ReviewList))
        content = content_lines(app.query_one(ReviewList))
        assert sum(again[y] is listed[y] for y in content) >= len(content) - 2


async def test_a_review_focused_first_is_given_new_borders_not_styled_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`enter` on a review shown but never focused: its lines' insides are
    the ones styled for the list's preview, put between the focused borders
    (Textual styles the first line, and the cursor's: with no look-ahead,
    which styles the cursor's ahead, tests/ui/test_look_ahead.py), and the
    screen is as if drawn anew."""
    monkeypatch.setattr(look_ahead, "LOOK_AHEAD", False)
    app = make_app(tmp_path)
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        view = app.query_one(ReviewView)
        cache = view._styles_cache
        assert isinstance(cache, KeptLines)
        styled, bordered = cache.styled, cache.bordered
        await pilot.press("enter")
        await pilot.pause()
        content = content_lines(view)
        assert len(content) > 10
        start, end = view._item_rows[view.cursor]  # the cursor's item: drawn anew
        assert cache.styled - styled == 1 + (end - start)  # and the first line, for the borders
        assert cache.bordered - bordered >= len(content) - (end - start) - 4
        assert drawn(app) == await drawn_as_new(app, pilot)


async def test_the_screen_draws_as_new_after_marks_checks_filters_search_resizes_and_themes(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        steps = [
            ("j", "j", "r"),  # a mark
            ("z",),  # and its undo
            ("u",),  # a filter
            ("v", "v"),  # the verdict cycle
            ("u",),
            ("enter", "space"),  # a check in the focused pane
            ("space", "escape"),  # unchecked, back to the list
            ("enter", "escape", "enter", "escape"),  # both looks, twice
            ("shift+tab", "j"),  # another tag
            ("k", "tab"),
            ("pagedown",),
            ("pageup", "k"),
            ("slash", "t", "o"),  # a search
            ("escape",),
        ]
        for keys in steps:
            await pilot.press(*keys)
            await pilot.pause()
            assert drawn(app) == await drawn_as_new(app, pilot), keys
        for size in ((90, 28), (110, 32)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert drawn(app) == await drawn_as_new(app, pilot), size
        for theme in ("nord", "textual-light", "textual-dark"):
            app.theme = theme
            await pilot.pause()
            await pilot.pause()
            assert drawn(app) == await drawn_as_new(app, pilot), theme
            await pilot.press("enter", "escape")
            await pilot.pause()
            assert drawn(app) == await drawn_as_new(app, pilot), theme


def test_a_line_whose_segments_cannot_be_kept_is_styled_as_textual_styles_it() -> None:
    """A segment's control codes may come in a list (unhashable): that line
    is styled each time, as Textual would."""
    from rich.segment import ControlType, Segment
    from textual._styles_cache import StylesCache
    from textual.color import Color
    from textual.css.styles import Styles
    from textual.geometry import Size, Spacing

    content = Strip([Segment("ab"), Segment("", None, [(ControlType.BELL,)])])  # type: ignore[list-item]
    styles = Styles()
    args = (styles, 0, Size(4, 1), Size(4, 1), Spacing(), Color(0, 0, 0), Color(10, 20, 30))
    rest = (None, None, 1.0, None, False)
    kept = KeptLines()
    first = kept.render_line(*args, lambda _y: content, *rest)  # type: ignore[arg-type]
    again = kept.render_line(*args, lambda _y: content, *rest)  # type: ignore[arg-type]
    plain = StylesCache().render_line(*args, lambda _y: content, *rest)  # type: ignore[arg-type]
    assert first is not again and not kept.kept
    assert list(first) == list(again) == list(plain)
