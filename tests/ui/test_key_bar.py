"""The key bar: the hints it draws follow focus and filters, a click presses the key."""

from __future__ import annotations

from pathlib import Path

from textual.widget import Widget

from tests.app_helpers import make_app, screen_text
from tui.ui.widgets.key_bar import KeyBar
from tui.ui.widgets.review_list import ReviewList


def bottom_line(app) -> str:
    return screen_text(app).splitlines()[-1]


def x_of(bar: KeyBar, word: str) -> int:
    line = "".join(segment.text for segment in bar.render_line(0))
    return line.index(word)


async def test_hints_follow_focus_and_filters(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        line = bottom_line(app)
        assert "⏎ Open" in line and "q Quit" in line and "^p palette" in line
        assert "Clear filter" not in line
        await pilot.press("enter")  # the review pane: space checks an item
        await pilot.pause()
        assert "space Check" in bottom_line(app)
        await pilot.press("escape", "u")  # a filter on: x joins the bar
        await pilot.pause()
        assert "x Clear filter" in bottom_line(app)
        await pilot.press("x")
        await pilot.pause()
        assert "Clear filter" not in bottom_line(app)


async def test_a_click_on_a_hint_presses_its_key(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        bar = app.query_one(KeyBar)
        assert not app.reader.filters.unread
        await pilot.click(KeyBar, offset=(x_of(bar, "Unread only"), 0))
        await pilot.pause()
        assert app.reader.filters.unread
        await pilot.click(KeyBar, offset=(x_of(bar, "palette"), 0))
        await pilot.pause()
        assert type(app.screen).__name__ == "CommandPalette"


async def test_hover_shows_the_tooltip_and_a_click_off_the_hints_does_nothing(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        bar = app.query_one(KeyBar)
        await pilot.hover(KeyBar, offset=(x_of(bar, "Read"), 0))
        await pilot.pause()
        assert bar.tooltip == "Mark the selected review read or unread"
        before = (app.reader.filters.unread, app.reader.state.read_keys(), app.screen)
        await pilot.click(KeyBar, offset=(x_of(bar, "▏") - 2, 0))  # blank space between the two sides
        await pilot.pause()
        assert (app.reader.filters.unread, app.reader.state.read_keys(), app.screen) == before


async def test_hints_that_do_not_fit_are_cut_and_the_palette_stays(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(50, 20)) as pilot:
        await pilot.pause()
        line = bottom_line(app)
        assert len(line) == 50
        assert line.rstrip().endswith("^p palette")
        assert "⏎ Open" in line and "Problems" not in line
        assert isinstance(app.focused, ReviewList)


async def test_the_bar_redraws_only_when_its_hints_change(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        bar = app.query_one(KeyBar)
        redraws = 0
        refresh = Widget.refresh

        def counting(self: Widget, *args: object, **kwargs: object) -> Widget:
            nonlocal redraws
            if self is bar:
                redraws += 1
            return refresh(self, *args, **kwargs)

        Widget.refresh = counting  # type: ignore[method-assign]
        try:
            await pilot.press("j", "k", "j")  # moving in the list changes no hint
            await pilot.pause()
            assert redraws == 0
            await pilot.press("enter")
            await pilot.pause()
            assert redraws >= 1
        finally:
            Widget.refresh = refresh  # type: ignore[method-assign]


async def test_the_problems_view_shows_its_own_keys(tmp_path: Path) -> None:
    """Not the reader's under it: there q closes the view and r, u, ? do nothing."""
    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "broken.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        assert app.screen is not app.reader
        assert bottom_line(app).split() == ["esc", "Close"]
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.reader and "q Quit" in bottom_line(app)
