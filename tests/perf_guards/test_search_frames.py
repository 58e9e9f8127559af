"""A character typed in the search box is drawn with the list it selects in
one frame when the search is quick: the box, the list and the review it
previews together (they took two frames, the second 17-33 ms after the first,
when the box's change reached the screen three message hops later)."""

from __future__ import annotations

from pathlib import Path

from tests.app_helpers import make_app, screen_text, settled
from tests.perf_guards.test_frames import Frames, press
from tui.ui.widgets.review_list import ReviewList


async def test_a_typed_character_and_its_results_share_one_frame(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    frames = Frames(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        listing = app.query_one(ReviewList)
        everything = len(listing.reviews)
        await pilot.press("slash")
        await pilot.pause()
        counts = []
        for key in ("h", "2", "d", "backspace", "backspace", "backspace"):
            counts.append(await press(pilot, frames, key))
            if key == "d":
                assert 0 < len(listing.reviews) < everything  # the list followed the box
        assert app.reader.filters.query == "" and len(listing.reviews) == everything
        assert counts == [1] * len(counts)


async def test_typing_in_the_search_box_does_not_lay_the_screen_out(tmp_path: Path) -> None:
    """The box's text width changes with each character: Textual's `Input`
    laid the whole screen out for it (tui.ui.patches.quiet_input)."""
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("slash")
        await pilot.pause()
        screen = app.screen
        layouts = []
        lay_out = screen._refresh_layout

        def counting(*args: object, **kwargs: object) -> None:
            layouts.append(args)
            lay_out(*args, **kwargs)  # type: ignore[arg-type]

        screen._refresh_layout = counting  # type: ignore[method-assign]
        for key in ("k", "p", "o", "o", "l", "backspace", "backspace"):
            await pilot.press(key)
            await pilot.pause()
        assert app.reader.filters.query == "kpo"
        assert app.query_one("#search-input").value == "kpo"
        assert "/kpo" in screen_text(app)  # drawn: the box's text and the filter bar
        assert layouts == []
