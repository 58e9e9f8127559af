"""A key's whole effect is drawn in one frame.

The list's cursor and the review it previews, focus and the key hints that
follow it, a tag and the reviews it lists: each pair used to take two frames,
the second 17-33 ms after the first (see tui/ui/widgets/to_screen.py and
MainScreen._on_idle). Counted here as the screen updates the App hands to its
driver while the key is handled.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import App

from tests.app_helpers import make_app, on_each_frame, screen_text, settled
from tui.core.model import NOTES
from tui.ui.widgets.filter_bar import FilterBar
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.tag_list import TagList


class Frames:
    """Counts the screen updates the App hands to its driver."""

    def __init__(self, app: App) -> None:
        self.count = 0
        on_each_frame(app, self._drawn)

    def _drawn(self) -> None:
        self.count += 1

    def take(self) -> int:
        count, self.count = self.count, 0
        return count


async def press(pilot: object, frames: Frames, key: str) -> int:
    frames.take()
    await pilot.press(key)  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    return frames.take()


async def test_each_key_draws_its_whole_effect_in_one_frame(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    frames = Frames(app)
    async with app.run_test(size=(120, 40)) as pilot:
        # After start-up's own work: mounting the search box once loading ends
        # lays the screen out and draws a frame, whatever key is pressed then.
        await settled(app, pilot)
        listing, view = app.query_one(ReviewList), app.query_one(ReviewView)

        title = view.review.title
        assert await press(pilot, frames, "j") == 1  # the cursor and the review it previews
        assert view.review.title != title and view.review.key == listing.key

        assert await press(pilot, frames, "enter") == 1  # focus, borders, key hints
        assert app.focused is view

        assert await press(pilot, frames, "space") == 1  # a check, its count, the row's count
        assert "1/" in screen_text(app)

        # Onto a note (past the checklist) and checking it: one frame each too.
        await pilot.press(*["j"] * (len(view.checklist) - 1))
        await pilot.pause()
        assert await press(pilot, frames, "j") == 1
        assert view.cursor_item is not None and view.cursor_item.section in NOTES
        assert await press(pilot, frames, "space") == 1
        assert view.cursor_item.key in app.reader.state.checked(view.review.key)
        await pilot.press("g")
        await pilot.pause()

        assert await press(pilot, frames, "escape") == 1
        assert app.focused is listing

        # The tag list's scrollbar was made in the first layout; styled then
        # (tui/widgets/scrolling.Pane), focusing the list does not lay out again.
        assert await press(pilot, frames, "shift+tab") == 1
        tags = app.query_one(TagList)
        assert app.focused is tags
        assert tags.show_vertical_scrollbar  # 14 tags in 13 rows at 120x40

        # The filter line names the tag, and goes back to "none": in place, one frame.
        assert await press(pilot, frames, "j") == 1
        assert app.query_one(FilterBar).has_class("-filtering")
        assert await press(pilot, frames, "k") == 1
        assert not app.query_one(FilterBar).has_class("-filtering")
        await pilot.press("j", "j")
        await pilot.pause()
        shown = len(listing.reviews)
        assert await press(pilot, frames, "j") == 1  # another tag, its reviews, its review
        assert len(listing.reviews) != shown or app.reader.filters.tag == tags.tags[3]
        assert listing.key == view.review.key


async def test_a_prevented_choice_does_not_reach_the_app(tmp_path: Path) -> None:
    """Posted straight to the App, the list's messages still honour `prevent()`,
    which moving the cursor without changing the review relies on."""
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        listing = app.query_one(ReviewList)
        shown = app.reader.current_key
        with listing.prevent(ReviewList.Chosen):
            listing.highlighted = 2
        await pilot.pause()
        assert listing.key != shown
        assert app.reader.current_key == shown
        listing.highlighted = 3
        await pilot.pause()
        assert app.reader.current_key == listing.key
