"""The panes' component classes are styled once per stylesheet, not on every
focus change (tui/widgets/scrolling.Pane)."""

from __future__ import annotations

from pathlib import Path

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
            assert old.keys() == new.keys()
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
        assert after.keys() == before.keys()
        assert all(after[name] is not before[name] for name in before)
        assert view.get_component_rich_style("review-view--heading") != heading
        colour = view.get_component_rich_style("review-view--heading").color
        assert colour is not None and colour.triplet is not None
        assert colour.triplet.hex == app.current_theme.accent.lower()  # $accent, the new theme's
