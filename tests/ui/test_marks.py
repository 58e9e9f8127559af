"""Marking many read (`R`), undoing (`z`), and the next unread review (`]`)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.app_helpers import all_saved, make_app, screen_text, toasts, write_review
from tui.core.model import ALL_TAG
from tui.store.state import ReadState
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.tag_list import TagList


def unread_counts(app) -> dict[str, int]:
    return {c.tag: c.unread for c in app.query_one(TagList).counts}


async def test_R_marks_every_review_of_the_tag_read_and_z_undoes_it(tmp_path: Path) -> None:
    state_file = tmp_path / "state.json"
    app = make_app(tmp_path, state=state_file)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("j", "r")  # one review read before
        before = app.reader.state.is_read(app.query_one(ReviewList).reviews[1].key)
        assert before
        app.reader.filters = app.reader.filters._replace(tag="refactor")
        await pilot.pause()
        refactor = {r.key for r in app.reader.library.tags["refactor"]}
        await pilot.press("R")
        assert all(app.reader.state.is_read(key) for key in refactor)
        assert unread_counts(app)["refactor"] == 0
        assert unread_counts(app)[ALL_TAG] == 8 - len(refactor | {app.reader.library.reviews[1].key})
        assert any("marked read" in n.text for n in toasts(app))
        await all_saved(app, pilot)
        saved = json.loads(state_file.read_text())["reviews"]
        assert all(saved[key]["read"]["v"] for key in refactor)
        await pilot.press("z")
        # exactly as before: the one read before is still read, the rest unread again
        for key in refactor:
            assert app.reader.state.is_read(key) == (key == app.reader.library.reviews[1].key)
        assert unread_counts(app)[ALL_TAG] == 7
        await all_saved(app, pilot)
        on_disk = ReadState(state_file)
        on_disk.load()
        assert {key for key in refactor if on_disk.is_read(key)} == {
            app.reader.library.reviews[1].key
        } & refactor
        await pilot.press("z")  # and then the `r` before it
        assert unread_counts(app)[ALL_TAG] == 8
        await pilot.press("z")
        assert any(n.text == "Nothing to undo." for n in toasts(app))


async def test_z_undoes_r(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        key = app.reader.current_key
        await pilot.press("r")
        assert app.reader.state.is_read(key)
        await pilot.press("r")
        assert not app.reader.state.is_read(key)
        await pilot.press("z")
        assert app.reader.state.is_read(key)
        await pilot.press("z")
        assert not app.reader.state.is_read(key)


async def test_R_with_nothing_unread_says_so(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("R", "R")
        assert any("read already" in n.text for n in toasts(app))


async def test_right_bracket_goes_to_the_next_unread_deep_reads_first(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    # files in an order that is not reading order
    write_review(folder / "1.yaml", "skip one", verdict="skip", extra="pr: 1\n")
    write_review(folder / "2.yaml", "skim one", verdict="skim", extra="pr: 2\n")
    write_review(folder / "3.yaml", "deep one", verdict="deep", extra="pr: 3\n")
    write_review(folder / "4.yaml", "quick one", verdict="quick", extra="pr: 4\n")
    write_review(folder / "5.yaml", "deep two", verdict="deep", extra="pr: 5\n")
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()

        def title() -> str:
            return app.reader.library.by_key[app.reader.current_key].title

        assert title() == "deep one"
        await pilot.press("r")  # read: ] skips it from now on
        visits = []
        for _ in range(5):
            await pilot.press("right_square_bracket")
            visits.append(title())
        assert visits == ["deep two", "quick one", "skim one", "skip one", "deep two"]
        assert app.query_one(ReviewList).key == app.reader.current_key  # the list cursor follows
        await pilot.press("left_square_bracket")
        assert title() == "skip one"
        await pilot.press("R")
        await pilot.press("right_square_bracket")
        assert any(n.text == "Nothing unread here." for n in toasts(app))


async def test_keys_act_on_the_highlighted_review_even_when_typed_fast(tmp_path: Path) -> None:
    """`j` then `r` typed faster than the list's Chosen message travels: `r` marks
    the review now highlighted, not the one before."""
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        listing = app.query_one(ReviewList)
        listing.highlighted = 2  # posts Chosen, not handled yet
        app.reader.action_toggle_read()
        assert app.reader.state.is_read(listing.reviews[2].key)
        assert not app.reader.state.is_read(listing.reviews[0].key)
        listing.highlighted = 3
        app.reader._go_to(listing.reviews[5].key)  # a jump overtakes the Chosen(3) still on its way
        await pilot.pause()
        assert app.reader.current_key == listing.reviews[5].key == listing.key


async def test_items_written_alike_are_checked_one_at_a_time(tmp_path: Path) -> None:
    """Two focus items with the same words (no `id`): space checks the one under
    the cursor, not both, and the checks are kept across a restart."""
    entries = tmp_path / "entries"
    entries.mkdir()
    write_review(entries / "r.yaml", "twice", extra="focus:\n  - 看这里\n  - 看这里\n  - 别处\n")
    state_file = tmp_path / "state.json"
    app = make_app(tmp_path, [entries], state=state_file)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter", "space")
        review = app.reader.library.reviews[0]
        checked = app.reader.state.checked(review.key)
        assert checked == {review.focus[0].key}
        assert "1/3" in screen_text(app)
        await pilot.press("j", "space")
        assert app.reader.state.checked(review.key) == {review.focus[0].key, review.focus[1].key}
    again = make_app(tmp_path, [entries], state=state_file)
    async with again.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        review = again.reader.library.reviews[0]
        assert again.reader.state.checked(review.key) == {review.focus[0].key, review.focus[1].key}
        assert "2/3" in screen_text(again)
