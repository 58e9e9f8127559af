"""What a typed character redraws of the review pane: the review shown
before the key, laid out again for the new terms, redraws only its lines on
screen that changed (most have no match), and a review that the key replaces
is not laid out for the new terms before the next one is. What is on screen
after each key is what a whole redraw draws, in text and styles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App

from tests.app_helpers import make_app, settled
from tui.ui.patches.lines import KeptLines
from tui.ui.widgets.review_view import ReviewView


def drawn(app: App) -> list[tuple[str, object]]:
    """Every segment on screen with its style, as the widgets' kept lines give them."""
    return [(s.text, s.style) for strip in app.screen._compositor.render_strips() for s in strip]


def redrawn(app: App) -> list[tuple[str, object]]:
    """The same, with nothing kept: every line of every widget drawn anew."""
    for widget in app.screen.walk_children(with_self=True):
        cache = widget._styles_cache
        cache.forget() if isinstance(cache, KeptLines) else cache.clear()
    return drawn(app)


def first_arguments(owner: object, method: str) -> list[Any]:
    """The first argument of each call of `owner.method` from now on (the
    line a pane renders, the review laid out)."""
    calls: list[Any] = []
    original = getattr(owner, method)

    def recording(*args: Any) -> Any:
        calls.append(args[0])
        return original(*args)

    setattr(owner, method, recording)
    return calls


async def test_the_screen_after_each_key_is_a_whole_redraw(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    keys = [
        "slash", *"forward_hip", *["backspace"] * 4, *"_n", "enter", "n", "n", "N", "j", "n",
        "slash", "backspace", *"mrv1", "backspace", "escape",
        "slash", *"dispatch", "enter", "n", "n", "n", "N", "N", "n",  # `›` moves within an item
    ]  # fmt: skip
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        for n, key in enumerate(keys):
            await pilot.press(key)
            await pilot.pause()
            assert drawn(app) == redrawn(app), (n, key)


async def test_a_character_that_keeps_the_review_redraws_its_changed_lines_only(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        view = app.query_one(ReviewView)
        shown = view.review
        await pilot.press("slash", *"forw")
        await pilot.pause()
        rendered = first_arguments(view, "render_line")
        matched = set(view.match_lines)
        await pilot.press("a")
        await pilot.pause()
        assert view.review is shown and app.reader.filters.query == "forwa"
        top, height = view.scroll_offset.y, view.scrollable_content_region.height
        changed = {row - top for row in matched | set(view.match_lines) if top <= row < top + height}
        assert rendered and set(rendered) <= changed, (rendered, changed)
        assert len(rendered) < height // 2


async def test_a_character_that_shows_another_review_lays_it_out_once(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        view = app.query_one(ReviewView)
        first = view.review
        laid = first_arguments(view._lay_out, "lay_out")
        await pilot.press("slash")
        await pilot.pause()
        per_key = []
        for key in "mrv1":
            laid.clear()
            await pilot.press(key)
            await pilot.pause()
            per_key.append(list(laid))
        assert view.review is not first  # the term moved the list off the first review
        assert all(len(reviews) <= 1 for reviews in per_key), per_key
        assert first not in [review for reviews in per_key[1:] for review in reviews]
