"""Keys redraw the panes they change, not the whole screen.

A screen layout repaints every widget; moving through reviews must not need
one (see tui/widgets/scrolling.py), while the scrollbar still follows each
review's height.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual._compositor import Compositor
from textual.screen import Screen
from textual.widget import Widget

from tests.app_helpers import make_app, on_each_frame, screen_text, settled
from tui.core.model import ALL_TAG
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.scrolling import Pane
from tui.ui.widgets.tag_list import TagList


class LayoutCounter:
    def __init__(self) -> None:
        self.count = 0
        self._original = Screen._refresh_layout

    def __enter__(self) -> LayoutCounter:
        original = self._original

        def counting(screen: Screen, *args: object, **kwargs: object) -> None:
            self.count += 1
            return original(screen, *args, **kwargs)

        Screen._refresh_layout = counting  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        Screen._refresh_layout = self._original  # type: ignore[method-assign]


async def test_moving_through_reviews_lays_out_nothing_but_scrollbars_follow(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        view = app.query_one(ReviewView)
        heights = []
        with LayoutCounter() as layouts:
            for _ in range(7):
                await pilot.press("j")
                await pilot.pause()
                heights.append(view.virtual_size.height)
                bar = view.vertical_scrollbar
                # The pane's scrollbar is always shown (overflow-y: scroll): one coming
                # and going with each review's length would lay the screen out.
                assert view.show_vertical_scrollbar
                assert bar.window_virtual_size == view.virtual_size.height
                if view.virtual_size.height > view.container_size.height:
                    view.scroll_end(animate=False)
                    await pilot.pause()
                    assert view.scroll_y == view.virtual_size.height - view.container_size.height
                    view.scroll_home(animate=False)
        rows = view.container_size.height
        assert len(set(heights)) > 2  # reviews of different heights were shown
        assert any(h > rows for h in heights) and any(h <= rows for h in heights)
        assert layouts.count == 0


async def test_status_and_filter_bars_redraw_without_a_layout(tmp_path: Path) -> None:
    """The filter line is always there: a filter coming or going (a tag switch
    from All) changes it in place, with the counts in both bars."""
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        with LayoutCounter() as layouts:
            await pilot.press("u")  # a filter comes
            await pilot.pause()
            await pilot.press("r", "r", "r")  # counts change in the status bar and the filter bar
            await pilot.pause()
            await pilot.press("x")  # and goes
            await pilot.pause()
        assert layouts.count == 0


async def test_keys_never_repaint_the_whole_screen(tmp_path: Path) -> None:
    """Reactives on the App and focus moves used to repaint every cell on each key."""
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        full = 0
        original = Compositor.render_full_update

        def counting(compositor: Compositor, *args: object, **kwargs: object) -> object:
            nonlocal full
            full += 1
            return original(compositor, *args, **kwargs)

        Compositor.render_full_update = counting  # type: ignore[method-assign]
        try:
            for key in ("j", "k", "enter", "space", "escape", "shift+tab", "j", "tab"):
                await pilot.press(key)
                await pilot.pause()
        finally:
            Compositor.render_full_update = original  # type: ignore[method-assign]
        assert app.reader.filters.tag != ALL_TAG  # the keys did what they do: j in the tag list chose a tag
        assert full == 0


async def test_moving_the_highlight_redraws_the_two_rows_it_touches(tmp_path: Path) -> None:
    """j/k and a tag switch redraw the row the highlight left and the one it
    reached, not every visible line; the screen still matches a full redraw."""
    from tui.ui.widgets.review_list import ReviewList
    from tui.ui.widgets.tag_list import TagList

    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        listing, tags = app.query_one(ReviewList), app.query_one(TagList)
        drawn: dict[str, list[int]] = {"reviews": [], "tags": []}
        for name, pane in (("reviews", listing), ("tags", tags)):
            original = pane.render_line

            def recording(y: int, original=original, lines=drawn[name]) -> object:  # type: ignore[no-untyped-def]
                lines.append(y)
                return original(y)

            pane.render_line = recording  # type: ignore[method-assign]
        await pilot.press("j")
        await pilot.pause()
        assert sorted(drawn["reviews"]) == [0, 1, 2, 3], drawn  # rows 0 and 1, two lines each
        # Focus moves change the highlight's colour, and the first tag past All
        # brings the filter bar (a layout): all lines redrawn.
        await pilot.press("shift+tab", "j")
        await pilot.pause()
        drawn["tags"].clear()
        await pilot.press("j")
        await pilot.pause()
        assert sorted(drawn["tags"]) == [*range(*tags.row_lines(1)), *range(*tags.row_lines(2))], drawn

        def picture() -> list[list[tuple[str, object]]]:  # text and style, cell run by cell run
            return [[(s.text, s.style) for s in strip] for strip in app.screen._compositor.render_strips()]

        shown = picture()
        for pane in (listing, tags):
            pane.refresh()
        await pilot.pause()
        assert picture() == shown


def picture(app) -> list[list[tuple[str, object]]]:  # type: ignore[no-untyped-def]
    """The screen as drawn, text and style, run by run."""
    return [[(s.text, s.style) for s in strip] for strip in app.screen._compositor.render_strips()]


async def redrawn_in_full(app, pilot) -> list[list[tuple[str, object]]]:  # type: ignore[no-untyped-def]
    """The screen after every widget is drawn again, scrollbars included."""
    from tui.ui.widgets.scrolling import PaneScrollBar

    for widget in app.screen.walk_children(with_self=True):
        widget.refresh()
    for pane in app.screen.query("ReviewList, ReviewView, TagList"):
        bar = pane._vertical_scrollbar
        if isinstance(bar, PaneScrollBar):
            bar._drawn_as = None  # no skipping: a real redraw
            bar.refresh()
    await pilot.pause()
    return picture(app)


async def test_focus_moves_leave_the_scrollbars_alone_but_changes_redraw_them(tmp_path: Path) -> None:
    """Textual redraws a pane's scrollbars on every restyle (each focus move);
    `PaneScrollBar` skips a redraw that would draw the same. A scroll, a hover,
    a theme and a resize must still reach them."""
    from tui.ui.widgets.review_list import ReviewList

    app = make_app(tmp_path)
    async with app.run_test(size=(100, 24)) as pilot:
        await settled(app, pilot)
        view = app.query_one(ReviewView)
        bars = [pane.vertical_scrollbar for pane in (app.query_one(ReviewList), view)]
        assert all(bar.display for bar in bars)
        drawn = []
        for bar in bars:
            original = bar.render

            def counting(original=original, bar=bar) -> object:  # type: ignore[no-untyped-def]
                drawn.append(bar)
                return original()

            bar.render = counting  # type: ignore[method-assign]
        await pilot.press("enter", "escape", "enter")
        await pilot.pause()
        assert drawn == []
        assert picture(app) == await redrawn_in_full(app, pilot)

        await pilot.press("pagedown")  # the review scrolls: its bar moves
        await pilot.pause()
        assert bars[1] in drawn
        assert picture(app) == await redrawn_in_full(app, pilot)

        drawn.clear()
        await pilot.hover(ReviewView, offset=(view.size.width - 1, 3))  # over the review's bar
        await pilot.pause()
        assert bars[1] in drawn
        assert picture(app) == await redrawn_in_full(app, pilot)

        for change in ("colour", "theme", "resize"):
            drawn.clear()
            if change == "colour":  # only the bar's own colour
                for pane in (app.query_one(ReviewList), view):
                    pane.styles.scrollbar_color = "red"
                    pane.styles.scrollbar_background = "blue"
            elif change == "theme":
                app.theme = "nord"
            else:
                await pilot.resize_terminal(90, 20)
            await pilot.pause()
            assert set(drawn) == set(bars), change
            assert picture(app) == await redrawn_in_full(app, pilot), change


async def test_the_first_frame_is_laid_out_at_the_real_width(tmp_path: Path) -> None:
    """The first frame used to show the tag list and review pane wrapped at width 1
    (one character a line) or empty, until their Resize events came a frame later."""
    app = make_app(tmp_path)
    frames: list[str] = []

    def recording() -> None:
        if not frames:
            frames.append(screen_text(app))

    on_each_frame(app, recording)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
    first = frames[0].splitlines()
    title = app.reader.library.reviews[0].title
    assert any(line.startswith("│All") and "8/8" in line for line in first), first[:4]
    assert sum(title[:10] in line for line in first) == 2, first  # in the list and the pane


async def test_a_theme_change_recolours_the_cached_rows_and_lines(tmp_path: Path) -> None:
    """The list and the pane keep their styles between frames (focus moves do not
    re-wrap the review); a new theme must still reach every row and line."""
    from tui.ui.widgets.review_list import ReviewList

    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        listing, view = app.query_one(ReviewList), app.query_one(ReviewView)

        def title_style() -> object:
            strip = listing.render_line(2)  # the second review's title line (not the cursor's)
            return next(s.style for s in strip if app.reader.library.reviews[1].title[:4] in s.text)

        def pane_title_style() -> object:
            return next(s.style for s in view.render_line(0) if s.text.strip())

        before = (title_style(), pane_title_style())
        relayouts = 0
        relayout = view._relayout

        def counting() -> None:
            nonlocal relayouts
            relayouts += 1
            relayout()

        view._relayout = counting  # type: ignore[method-assign]
        await pilot.press("enter", "escape")  # focus moves into the pane and back
        await pilot.pause()
        assert relayouts == 0
        app.theme = "nord"
        await pilot.pause()
        after = (title_style(), pane_title_style())
        assert after[0] != before[0] and after[1] != before[1]
        assert after[0] == listing.get_component_rich_style("review-list--title")
        assert relayouts >= 1


async def test_a_pane_reads_where_it_is_once_a_drawing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each line-API pane draws all its lines from one read of its width and
    scroll (`Pane.placed`): each read walks the pane's styles and scrollbars,
    and per line it was most of what a kept line cost."""
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        reads = 0
        region = Widget.scrollable_content_region

        def counted(widget: Widget) -> object:
            nonlocal reads
            reads += 1
            return region.fget(widget)  # type: ignore[attr-defined]

        panes: list[Pane] = [app.query_one(ReviewList), app.query_one(ReviewView), app.query_one(TagList)]
        for pane in panes:
            lines = pane.size.height
            assert lines > 8
            monkeypatch.setattr(Widget, "scrollable_content_region", property(counted))
            reads = 0
            pane._styles_cache.clear()  # every line drawn again
            drawn = pane.render_lines(pane.size.region)
            monkeypatch.undo()
            assert len(drawn) == lines
            assert reads <= 2, (type(pane).__name__, reads, lines)
            assert pane.placed() == (pane.scrollable_content_region.width, *pane.scroll_offset)
