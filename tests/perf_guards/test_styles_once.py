"""The panes' and the filter line's component classes are styled when first
drawn and then once per stylesheet, not on every focus change or filter key
(tui.ui.patches.ComponentsStyledOnce)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widget import Widget

from tests.app_helpers import make_app
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.tag_list import TagList


def component_styles(widget: Widget) -> dict[str, object]:
    return dict(widget._component_styles)


async def test_focus_moves_keep_the_component_styles(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        # The search box, mounted after the first frame, adds its rules to the
        # stylesheet: each pane's first focus move styles it with the new one.
        rounds = ("shift+tab", "tab", "enter", "escape")
        await pilot.press(*rounds)
        await pilot.pause()
        panes = [app.query_one(kind) for kind in (TagList, ReviewList, ReviewView)]
        before = [component_styles(pane) for pane in panes]
        assert all(styles for styles in before)
        await pilot.press(*rounds, *rounds, "enter")
        await pilot.pause()
        assert app.focused is app.query_one(ReviewView)
        after = [component_styles(pane) for pane in panes]
        for old, new in zip(before, after, strict=True):
            # Classes first drawn meanwhile (the look-ahead lays out the next reviews) are added.
            assert old.keys() <= new.keys()
            assert all(new[name] is old[name] for name in old), "restyled on a focus move"


async def test_a_theme_change_styles_them_anew(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        view = app.query_one(ReviewView)
        heading = view.get_component_rich_style("review-view--heading")
        before = component_styles(view)
        app.theme = "nord"
        await pilot.pause()
        after = component_styles(view)
        assert before.keys() <= after.keys()  # and classes first drawn meanwhile, under either theme
        assert all(after[name] is not before[name] for name in before)
        assert view.get_component_rich_style("review-view--heading") != heading
        colour = view.get_component_rich_style("review-view--heading").color
        assert colour is not None and colour.triplet is not None
        assert colour.triplet.hex == app.current_theme.accent.lower()  # $accent, the new theme's


async def test_a_filter_key_keeps_the_filter_lines_component_styles(tmp_path: Path) -> None:
    """Each filter on or off toggles the filter line's `-filtering` class:
    the line is restyled (its background), its 5 component classes are not,
    and what they draw follows the new background all the same."""
    from tui.ui.widgets.filter_bar import FilterBar

    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("u", "u")  # styled once with the rules the search box adds (see above)
        await pilot.pause()
        bar = app.query_one(FilterBar)
        muted = bar.style_of("muted")
        before = component_styles(bar)
        assert "filter-bar--muted" in before
        await pilot.press("u")
        await pilot.pause()
        assert bar.has_class("-filtering")
        after = component_styles(bar)
        assert all(after[name] is before[name] for name in before), "restyled on a filter key"
        on = bar.style_of("muted")
        assert on.bgcolor != muted.bgcolor and on.color != muted.color  # over the filter's background
        assert on == bar.get_component_rich_style("filter-bar--muted")
        await pilot.press("u")
        await pilot.pause()
        assert not bar.has_class("-filtering")
        assert bar.style_of("muted") == muted


async def test_the_filter_lines_components_are_styled_before_the_first_filter_key(tmp_path: Path) -> None:
    """The search box, mounted after the first frame, changes the stylesheet's
    rules: the filter line's component classes are styled again for them as
    the box mounts, not by the first filter key's restyle, in its frame."""
    from tests.app_helpers import settled
    from tui.ui.widgets.filter_bar import FilterBar

    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)  # the box mounted
        bar = app.query_one(FilterBar)
        before = component_styles(bar)
        await pilot.press("u")
        await pilot.pause()
        assert bar.has_class("-filtering")
        after = component_styles(bar)
        assert all(after[name] is before[name] for name in before), "styled in the filter key's frame"


async def test_a_component_class_is_styled_when_first_drawn(tmp_path: Path) -> None:
    """The first frame styles the classes it draws, not all 81: a search
    match's look is styled when a match is first drawn, as the stylesheet says;
    a class the widget does not declare is still refused."""
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        view = app.query_one(ReviewView)
        styled = component_styles(view)
        assert "review-view--title" in styled  # drawn: the open review's title
        assert "review-view--match" not in styled
        assert len(styled) < len(ReviewView.COMPONENT_CLASSES)
        match = view.get_component_rich_style("review-view--match")
        assert "review-view--match" in component_styles(view)
        assert match.bold and match.underline and match.bgcolor is not None  # app.tcss: $warning 55%
        with pytest.raises(KeyError):
            view.get_component_styles("review-view--nothing")
        app.theme = "nord"
        await pilot.pause()
        restyled = view.get_component_rich_style("review-view--match")
    late = make_app(tmp_path)
    async with late.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        late.theme = "nord"
        await pilot.pause()
        view = late.query_one(ReviewView)
        assert "review-view--match" not in component_styles(view)
        first = view.get_component_rich_style("review-view--match")  # styled under nord alone
    assert first == restyled != match
