"""Start-up does each piece of work once.

Timings are measured in bench/, not here; these tests count work instead, so
they fail when a change (ours or a Textual upgrade) makes start-up do a piece
of it twice.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from textual.app import App
from textual.css.stylesheet import Stylesheet
from textual.widget import Widget

from tests.app_helpers import make_app, screen_text
from tui import runtime
from tui.store.locations import bundled_entries
from tui.ui.app import PrDigestApp
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView


async def test_each_widget_is_styled_once_before_the_first_keys(tmp_path: Path, monkeypatch) -> None:
    """Textual styles a widget as it mounts and, by default, the whole screen
    again when it resumes; MainScreen skips the second pass on its first resume."""
    styled: Counter[str] = Counter()
    apply = Stylesheet.apply

    def counting(self: Stylesheet, node: object, **kwargs: object) -> None:
        if isinstance(node, Widget) and node.id in ("review", "reviews", "tags"):
            styled[node.id] += 1
        apply(self, node, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Stylesheet, "apply", counting)
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        # The review list has focus from the start (MainScreen.AUTO_FOCUS),
        # which restyles it: its :focus border.
        assert styled == {"review": 1, "tags": 1, "reviews": 2}
        assert "Deep read" in screen_text(app)
        assert app.focused is app.query_one(ReviewList)
        # The focused list's border and the review's styles are the ones a
        # full restyle computes.
        view = app.query_one(ReviewView)
        before = view.get_component_rich_style("review-view--title")
        border = app.query_one(ReviewList).styles.border_top
        app.update_styles(app.screen)
        assert view.get_component_rich_style("review-view--title") == before
        assert app.query_one(ReviewList).styles.border_top == border


async def test_the_switch_interval_is_short_while_the_reader_runs(tmp_path: Path) -> None:
    """Textual writes frames from a thread of its own; with CPython's 5 ms
    switch interval a frame drawn while the main thread keeps working (loading,
    right after the first frame) waits that long, up to three times, before it
    reaches the terminal (tui/runtime.py). `tui.cli.run` shortens it around the
    reader and puts it back on exit; the App alone leaves it alone."""
    before = sys.getswitchinterval()
    assert before != runtime.SWITCH_S
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert sys.getswitchinterval() == before
    with runtime.installed():
        app = make_app(tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert sys.getswitchinterval() == runtime.SWITCH_S
    assert sys.getswitchinterval() == before


async def test_a_remembered_theme_is_in_use_from_the_start(tmp_path: Path, monkeypatch) -> None:
    """The theme chosen last time is the App's theme before Textual parses the
    stylesheet: setting it on mount had Textual parse it again and restyle every
    widget before the first frame (~15 ms)."""
    ui = tmp_path / "ui.json"
    ui.write_text('{"format": "prdigest-tui/ui", "theme": "textual-light"}', encoding="utf-8")
    refreshes = []
    refresh_css = App.refresh_css

    def counting(self: App, *args: object, **kwargs: object) -> None:
        refreshes.append(self.theme)
        refresh_css(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(App, "refresh_css", counting)
    app = PrDigestApp([bundled_entries()], tmp_path / "state.json", ui_path=ui)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.theme == "textual-light" and refreshes == []
        assert "-light-mode" in app.classes and "-dark-mode" not in app.classes
        status, listing = app.query_one("#status"), app.query_one(ReviewList)
        drawn = (status.styles.background, listing.styles.border_top, screen_segments_colours(app))
        app.refresh_css(animate=False)  # what setting the theme would have done
        await pilot.pause()
        assert (status.styles.background, listing.styles.border_top, screen_segments_colours(app)) == drawn


def screen_segments_colours(app: App) -> set[str]:
    """Every colour on screen."""
    return {
        str(colour)
        for strip in app.screen._compositor.render_strips()
        for segment in strip
        if segment.style is not None
        for colour in (segment.style.color, segment.style.bgcolor)
        if colour is not None
    }
