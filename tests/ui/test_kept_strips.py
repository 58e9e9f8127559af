"""What a key does not change is not worked out or drawn again: a row listed
again after a filter is the same strips, focus moving does not work the panes'
styles out again, a relist that leaves the filter bar as it was does not
repaint it. And what is kept never shows something stale: after marks,
filters, resizes and a theme the screen is what it is with nothing kept."""

from __future__ import annotations

from pathlib import Path

from textual.strip import Strip

from tests.app_helpers import make_app, settled
from tests.redraw import drawn, drawn_as_new
from tui.ui.app import PrDigestApp
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView


def list_lines(app: PrDigestApp) -> list[Strip]:
    reviews = app.query_one(ReviewList)
    return [reviews.render_line(y) for y in range(reviews.scrollable_content_region.height)]


async def test_a_row_listed_again_after_a_filter_is_the_same_strip(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        reviews = app.query_one(ReviewList)
        before = list_lines(app)
        await pilot.press("u", "u")  # unread only (all of them), and off again: relisted twice
        await pilot.pause()
        after = list_lines(app)
        cursor = set(range(*reviews.row_lines(reviews.highlighted or 0)))
        assert len(before) > 6
        for y, (old, new) in enumerate(zip(before, after, strict=True)):
            if y not in cursor:  # the cursor's row is drawn over its kept strips
                assert new is old, y
        # A row whose marks changed is drawn anew, and says so.
        await pilot.press("j", "r")  # the second review read
        await pilot.pause()
        marked = list_lines(app)
        row = reviews.row_lines(1)[0]
        assert marked[row] is not before[row]
        assert marked[row].text != before[row].text
        assert drawn(app) == await drawn_as_new(app, pilot)


async def test_the_screen_draws_as_new_after_marks_filters_a_resize_and_a_theme(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        steps = [
            ("j", "j", "r"),  # a mark
            ("u",),  # a filter
            ("v", "v"),  # the verdict cycle
            ("u",),
            ("enter", "space", "escape"),  # a check in the pane, back to the list
            ("k",),
        ]
        for keys in steps:
            await pilot.press(*keys)
            await pilot.pause()
            assert drawn(app) == await drawn_as_new(app, pilot), keys
        await pilot.resize_terminal(90, 28)
        await pilot.pause()
        assert drawn(app) == await drawn_as_new(app, pilot)
        app.theme = "nord"
        await pilot.pause()
        await pilot.pause()
        assert drawn(app) == await drawn_as_new(app, pilot)
        await pilot.press("u", "u")
        await pilot.pause()
        assert drawn(app) == await drawn_as_new(app, pilot)


async def test_focus_moving_does_not_work_the_kept_styles_out_again(tmp_path: Path) -> None:
    """Enter and escape restyle both panes (their borders); what their kept
    styles follow is unchanged, so none is worked out again to compare. A
    theme does change them: they are dropped and drawn anew."""
    app = make_app(tmp_path)
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        await pilot.press("enter", "escape")  # every style the keys draw with is kept
        await pilot.pause()
        panes = [app.query_one(ReviewList), app.query_one(ReviewView)]
        asked: list[object] = []
        for pane in panes:
            fresh = pane._fresh_style

            def counting(name: object, fresh: object = fresh) -> object:
                asked.append(name)
                return fresh(name)  # type: ignore[operator]

            pane._fresh_style = counting  # type: ignore[method-assign, assignment]
        kept = sum(len(pane._styles) for pane in panes)
        await pilot.press("enter", "escape", "enter", "escape")
        await pilot.pause()
        assert kept > 10
        assert asked == []
        title = panes[0].style_of("title")
        app.theme = "nord"
        await pilot.pause()
        await pilot.pause()
        assert asked  # worked out again under the new theme
        assert panes[0].style_of("title") != title
        assert panes[0].style_of("title") == panes[0].get_component_rich_style("review-list--title")


async def test_the_filter_bar_is_left_alone_when_a_relist_shows_it_as_it_was(tmp_path: Path) -> None:
    from tui.ui.widgets.filter_bar import FilterBar

    app = make_app(tmp_path)
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        await pilot.press("u")  # unread only
        await pilot.pause()
        bar = app.query_one(FilterBar)
        shown = bar.plain
        redraws: list[object] = []
        refresh = bar.refresh

        def counting(*args: object, **kwargs: object) -> object:
            redraws.append(args)
            return refresh(*args, **kwargs)  # type: ignore[arg-type]

        bar.refresh = counting  # type: ignore[method-assign]
        await pilot.press("r")  # read: relisted, the open review kept, the count as it was
        await pilot.pause()
        assert app.reader.state.is_read(app.reader.current_key or "")
        assert redraws == []
        assert bar.plain == shown
        await pilot.press("v")  # a verdict: the bar says so
        await pilot.pause()
        assert redraws
        assert bar.plain != shown


async def test_the_filter_line_draws_a_new_count_from_kept_styles(tmp_path: Path) -> None:
    """Each character typed in the search box changes the filter line's
    count: it is drawn from the styles kept for its look, not worked out
    from the theme's variables again (as a `Static` of `Content` did, ~1 ms
    of the key's frame), and its muted parts are drawn in the theme's muted
    text colour (blended with the line's background), not white."""
    from tui.ui.widgets.filter_bar import FilterBar

    app = make_app(tmp_path)
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        bar = app.query_one(FilterBar)
        await pilot.press("slash", "d")
        await pilot.pause()
        asked: list[tuple[str, ...]] = []
        component_style = bar.get_component_rich_style

        def counting(*names: str, **kwargs: object) -> object:
            asked.append(names)
            return component_style(*names, **kwargs)  # type: ignore[arg-type]

        bar.get_component_rich_style = counting  # type: ignore[method-assign]
        counts = []
        for key in "isp":
            await pilot.press(key)
            await pilot.pause()
            counts.append(bar.plain)
            line = bar.render_line(0)
            assert "".join(segment.text for segment in line).rstrip() == bar.plain
        assert len(set(counts)) > 1, counts  # the count changed
        assert asked == []
        muted = next(
            s.style for s in bar.render_line(0) if s.text.endswith("reviews") or s.text.endswith("review")
        )
        assert muted is not None
        _, background = bar.background_colors
        text_muted = bar.get_component_styles("filter-bar--muted").color  # the theme's: white at 60%
        assert text_muted.a < 1
        assert muted.color == (background + text_muted).rich_color  # blended, not drawn white
