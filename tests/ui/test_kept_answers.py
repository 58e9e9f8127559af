"""Filter keys answered from what was worked out before, as a user meets them:
the library's order ranked once it is loaded, a filter's answer reused when it
is asked again, the marks applied fresh on every key (a review read, a
checklist done, a reload that changes a file), the cursor kept on its review,
`/` and escape drawn in one frame, and a pane's lines and bars kept through a
resize. Every list is checked against the plain filters
(tui.core.filters.select without ranks or kept answers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app_helpers import by_plain_select, listed, screen_text, settled
from tests.load.test_reload import review_yaml, watching
from tests.perf_guards.test_frames import Frames, press
from tests.waiting import wait_until
from tui.core.filters import view_key
from tui.store.locations import bundled_entries
from tui.ui.app import PrDigestApp
from tui.ui.widgets.key_bar import KeyBar
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.scrolling import PaneScrollBar
from tui.ui.widgets.search_bar import SearchBar


def app_on(tmp_path: Path, paths: list[Path] | None = None, *, watch: bool = False) -> PrDigestApp:
    return PrDigestApp(paths or [bundled_entries()], tmp_path / "state.json", watch=watch)


def drawn_screen(app: PrDigestApp) -> list[tuple[str, object]]:
    """Every segment on screen with its style."""
    return [
        (segment.text, segment.style) for strip in app.screen._compositor.render_strips() for segment in strip
    ]


def no_checklist(title: str) -> str:
    return review_yaml(title).split("focus:")[0]


def forty_reviews(tmp_path: Path) -> Path:
    """An entries folder of 40 reviews, one a file: more rows than the list shows."""
    entries = tmp_path / "entries"
    entries.mkdir()
    for n in range(40):
        (entries / f"r{n:02}.yaml").write_text(review_yaml(f"r{n}"), encoding="utf-8")
    return entries


async def test_a_filters_answer_is_reused_and_marks_still_apply(tmp_path: Path) -> None:
    app = app_on(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        reader = app.reader
        assert reader.ranks.ready(reader.library.reviews) is not None  # ranked once loaded
        await pilot.press("v")  # deep reads only
        await pilot.pause()
        deep = app.query_one(ReviewList).reviews
        assert listed(app) == by_plain_select(app)
        await pilot.press("v", "v", "v", "v", "v")  # round the verdicts, back to deep
        await pilot.pause()
        assert reader.filters.verdict == "deep"
        assert app.query_one(ReviewList).reviews is deep  # the same answer, not worked out again

        await pilot.press("u")  # and unread only: marks are applied on every key
        await pilot.pause()
        assert listed(app) == by_plain_select(app)
        first = listed(app)[0]
        await pilot.press("r")  # read the one under the cursor: kept listed while it is open
        await pilot.pause()
        assert first in listed(app)
        await pilot.press("j", "u", "u")  # moved on and asked again: the read review is gone
        await pilot.pause()
        assert first not in listed(app) and listed(app) == by_plain_select(app)


async def test_the_cursor_stays_on_its_review_through_the_filters(tmp_path: Path) -> None:
    app = app_on(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        listing = app.query_one(ReviewList)
        await pilot.press("j", "j")
        await pilot.pause()
        key = listing.key
        review = app.reader.library.by_key[key]
        for keys in (("t",), ("t",), ("u",), ("u",), ("t", "u"), ("x",)):
            await pilot.press(*keys)
            await pilot.pause()
            assert listing.key == key, keys  # still listed: the cursor is on it
            assert listed(app) == by_plain_select(app), keys
        while app.reader.filters.verdict != review.verdict:
            await pilot.press("v")
            await pilot.pause()
            assert listed(app) == by_plain_select(app)
        assert listing.key == key


async def test_the_open_review_without_a_checklist_stays_in_place_under_t(tmp_path: Path) -> None:
    entries = tmp_path / "entries"
    entries.mkdir()
    for n in range(6):
        (entries / f"r{n}.yaml").write_text(
            no_checklist(f"r{n}") if n == 3 else review_yaml(f"r{n}"), encoding="utf-8"
        )
    app = app_on(tmp_path, [entries])
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        assert app.reader.ranks.ready(app.reader.library.reviews) is not None
        listing = app.query_one(ReviewList)
        await pilot.press("g", "j", "j", "j")
        await pilot.pause()
        assert listing.key == "o/r:r3" and app.reader.library.by_key["o/r:r3"].checks == 0
        await pilot.press("t")
        await pilot.pause()
        assert listed(app) == ["o/r:r0", "o/r:r1", "o/r:r2", "o/r:r3", "o/r:r4", "o/r:r5"]
        assert listing.key == "o/r:r3"
        await pilot.press("j")  # moved on: t asked again drops it
        await pilot.pause()
        await pilot.press("t", "t")
        await pilot.pause()
        assert "o/r:r3" not in listed(app) and listed(app) == by_plain_select(app)


async def test_a_reload_that_changes_a_file_is_listed_and_counted(tmp_path: Path) -> None:
    entries = tmp_path / "entries"
    entries.mkdir()
    for n in range(4):
        (entries / f"r{n}.yaml").write_text(review_yaml(f"r{n}"), encoding="utf-8")
    app = app_on(tmp_path, [entries], watch=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await watching(pilot, app, entries)
        reader = app.reader
        await pilot.press("t")  # unchecked only: every review has a checklist
        await pilot.pause()
        assert listed(app) == ["o/r:r0", "o/r:r1", "o/r:r2", "o/r:r3"]
        (entries / "r2.yaml").write_text(no_checklist("r2"), encoding="utf-8")
        await wait_until(pilot, lambda: reader.library.by_key["o/r:r2"].checks == 0, "the edit")
        await wait_until(pilot, lambda: reader.ranks.ready(reader.library.reviews) is not None, "ranks")
        assert listed(app) == ["o/r:r0", "o/r:r1", "o/r:r3"] == by_plain_select(app)
        await pilot.press("t", "t")  # the kept answers are the new library's
        await pilot.pause()
        assert listed(app) == ["o/r:r0", "o/r:r1", "o/r:r3"]
        all_row = next(count for count in reader.sidebar_rows() if count.tag == reader.filters.tag)
        assert all_row.total == 4


async def test_slash_and_escape_are_drawn_in_one_frame_in_the_key_bars_row(tmp_path: Path) -> None:
    """The box takes the key bar's row while it is open: the panes keep their
    size, so neither the review pane's lines nor the scrollbars are drawn
    again, and each key is one frame. (The first `/` lays the new box out for
    the first time, which asked for a second layout.)"""
    entries = forty_reviews(tmp_path)  # more rows than the list shows
    app = app_on(tmp_path, [entries])
    frames = Frames(app)
    lines: list[int] = []
    bars: list[PaneScrollBar] = []
    render_line, render_bar = ReviewView.render_line, PaneScrollBar.render

    def counting_lines(self: ReviewView, y: int):
        lines.append(y)
        return render_line(self, y)

    def counting_bars(self: PaneScrollBar):
        bars.append(self)
        return render_bar(self)

    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        main, keys, box = app.query_one("#main"), app.query_one(KeyBar), app.query_one(SearchBar)
        region, row = main.region, keys.region
        assert row.y == 39 and row.height == 1
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(ReviewView, "render_line", counting_lines)
            patch.setattr(PaneScrollBar, "render", counting_bars)
            for _ in range(3):
                assert await press(pilot, frames, "slash") == 1
                assert box.region == row and not keys.display
                assert main.region == region
                assert await press(pilot, frames, "escape") == 1
                assert keys.display and not box.display and keys.region == row
                assert main.region == region
        assert lines == [] and bars == []


async def test_the_scrollbars_drawings_are_kept_for_the_next_resize(tmp_path: Path) -> None:
    """A terminal a row shorter and back changes both panes' bars: the second
    time round they look as they did the first, and are not drawn again."""
    entries = forty_reviews(tmp_path)  # more rows than the list shows
    drawn: list[PaneScrollBar] = []
    render = PaneScrollBar.render

    def counting(self: PaneScrollBar):
        drawn.append(self)
        return render(self)

    app = app_on(tmp_path, [entries])
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(PaneScrollBar, "render", counting)
            before = screen_text(app)
            await resize(pilot, 39)
            shorter = screen_text(app)
            assert drawn  # both bars changed length
            await resize(pilot, 40)
            assert screen_text(app) == before
            drawn.clear()
            await resize(pilot, 39)
            assert screen_text(app) == shorter
            await resize(pilot, 40)
            assert screen_text(app) == before
            assert drawn == []  # both pictures of both bars were kept
            await pilot.press("G")  # the list's bar moves: drawn anew
            await pilot.pause()
            assert drawn


async def resize(pilot: object, height: int) -> None:
    await pilot.resize_terminal(120, height)  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


async def test_a_pane_only_shorter_or_taller_keeps_its_lines_and_shows_them_right(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A terminal a row shorter takes a row from the review pane, and a row
    taller gives it back: its lines above the bottom edge stay as they were,
    and are not drawn again; what the screen shows is what a full redraw of
    the pane shows."""
    entries = forty_reviews(tmp_path)  # more rows than the list shows
    drawn: list[int] = []
    render_line = ReviewView.render_line

    def counting(self: ReviewView, y: int):
        drawn.append(y)
        return render_line(self, y)

    monkeypatch.setattr(ReviewView, "render_line", counting)
    app = app_on(tmp_path, [entries])
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        view = app.query_one(ReviewView)
        for height in (39, 40, 39, 40):
            drawn.clear()
            await resize(pilot, height)
            assert len(drawn) <= 2, (height, drawn)  # the row that was or became the bottom edge
            shown = drawn_screen(app)
            view.refresh()  # every line drawn anew
            await pilot.pause()
            assert drawn_screen(app) == shown, height
        await pilot.press("enter", "j", "j")  # the pane's own keys still draw it
        await pilot.pause()
        drawn.clear()
        await resize(pilot, 39)
        shown = drawn_screen(app)
        view.refresh()
        await pilot.pause()
        assert drawn_screen(app) == shown


async def test_an_unchecked_views_list_is_worked_out_before_its_key(tmp_path: Path) -> None:
    """The unchecked filter's pass over every review (the slowest tag switch at
    100,000 was a view of unchecked reviews) is made once the library is ranked,
    for All and for each such view: the key lists that answer, and marks still
    apply to it."""
    entries = tmp_path / "entries"
    entries.mkdir()
    for n in range(6):
        text = no_checklist(f"r{n}") if n in (1, 4) else review_yaml(f"r{n}")
        (entries / f"r{n}.yaml").write_text(text, encoding="utf-8")
    config = tmp_path / "config.yaml"
    config.write_text("views:\n  todo: {unchecked: true}\n  deep-todo: {verdict: [deep], unchecked: true}\n")
    app = PrDigestApp([entries], tmp_path / "state.json", config_path=config, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        reader = app.reader
        await wait_until(pilot, lambda: reader.ranks.ready(reader.library.reviews) is not None, "ranks")
        await wait_until(pilot, lambda: reader.narrowed.prepared == 3, "All's, todo's and deep-todo's")

        def again(of: object) -> list:
            raise AssertionError("worked out again")

        members = reader.sidebar.members(
            "todo", reader.library, reader.views, reader.mute, reader.search_index
        )
        assert members is not None
        kept = reader.narrowed.prepare("checklist", members, None, again)
        assert [review.key for review in kept] == ["o/r:r0", "o/r:r2", "o/r:r3", "o/r:r5"]
        await pilot.press("1")  # the todo view
        await pilot.pause()
        assert reader.filters.tag == view_key("todo")
        assert app.query_one(ReviewList).reviews is kept
        assert listed(app) == by_plain_select(app)

        await pilot.press("x", "g", "enter", "space", "j", "space", "escape")  # r0's checklist done
        await pilot.pause()
        review = reader.library.by_key["o/r:r0"]
        assert reader.checked(review) == frozenset(item.key for item in review.checklist)
        await pilot.press("j", "j", "1")  # moved on to r2, the view again: r0 is not listed
        await pilot.pause()
        assert listed(app) == ["o/r:r2", "o/r:r3", "o/r:r5"] == by_plain_select(app)
        await pilot.press("x", "t")  # `t` under All: the prepared pass too, marks applied
        await pilot.pause()
        assert listed(app) == by_plain_select(app)
        await pilot.press("2")  # a view narrowed before its unchecked pass
        await pilot.pause()
        assert listed(app) == by_plain_select(app)
