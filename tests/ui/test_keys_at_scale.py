"""Keys that stay fast at 100,000 reviews, as a user meets them: a search run off
the key (the box shows the character at once, the list follows, and a newer
character, enter or escape overtakes it), the review pane left alone by a filter
key that keeps it, the tag's list kept for the search's memory, and the counts
of an unchecked view after checks. Every list is checked against a plain scan."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app_helpers import by_plain_select, listed, screen_text, settled
from tests.search_scan import plain_search
from tests.waiting import workers_done
from tui.core.model import ALL_TAG
from tui.store.locations import bundled_entries
from tui.ui import search_keys
from tui.ui.app import PrDigestApp
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.search_bar import SearchBar
from tui.ui.widgets.tag_list import TagList


def app_with(tmp_path: Path, config: str = "") -> PrDigestApp:
    path = tmp_path / "config.yaml"
    if config:
        path.write_text(config, encoding="utf-8")
    return PrDigestApp([bundled_entries()], tmp_path / "state.json", config_path=path, watch=False)


def plain(app: PrDigestApp, query: str) -> list[str]:
    return [r.key for r in plain_search(app.reader.library.reviews, query)]


@pytest.fixture
def off_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every search runs off the key, in the smallest slices: as at 100,000 reviews."""
    monkeypatch.setattr(search_keys, "SEARCH_AT_ONCE", -1)
    monkeypatch.setattr(search_keys, "SLICE_S", 0.0)


async def test_typing_off_the_key_ends_with_the_plain_scans_answer(tmp_path: Path, off_the_key) -> None:
    app = app_with(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("slash", *"h2")
        await workers_done(pilot, app.reader, "search")
        assert app.reader.filters.query == "h2"
        assert listed(app) == plain(app, "h2")
        await pilot.press("d", "backspace", "backspace", "a")
        await workers_done(pilot, app.reader, "search")
        assert app.reader.filters.query == "ha"
        assert listed(app) == plain(app, "ha")
        assert "/ha" in screen_text(app)


async def test_the_box_shows_the_character_first_and_the_list_follows(tmp_path: Path, off_the_key) -> None:
    app = app_with(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        everything = listed(app)
        reader = app.reader
        reader.on_search_bar_changed(SearchBar.Changed("kpool"))
        assert reader.filters.query == "" and listed(app) == everything  # nothing searched on the key
        await workers_done(pilot, app.reader, "search")
        assert reader.filters.query == "kpool"
        assert listed(app) == plain(app, "kpool") != everything


async def test_a_newer_character_escape_or_enter_overtakes_a_search(tmp_path: Path, off_the_key) -> None:
    app = app_with(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        reader = app.reader
        everything = listed(app)
        await pilot.press("slash")
        reader.on_search_bar_changed(SearchBar.Changed("h"))
        reader.on_search_bar_changed(SearchBar.Changed("h2"))
        await workers_done(pilot, app.reader, "search")
        assert reader.filters.query == "h2" and listed(app) == plain(app, "h2")

        reader.on_search_bar_changed(SearchBar.Changed("kpool"))
        reader.on_search_bar_cancelled(SearchBar.Cancelled())  # escape before the search is done
        await workers_done(pilot, app.reader, "search")
        assert reader.filters.query == "" and listed(app) == everything
        assert not reader.search_bar.display

        await pilot.press("slash")
        reader.on_search_bar_changed(SearchBar.Changed("死锁"))
        reader.on_search_bar_submitted(SearchBar.Submitted("kpool"))  # enter: its query wins
        await workers_done(pilot, app.reader, "search")
        assert reader.filters.query == "kpool" and listed(app) == plain(app, "kpool")


async def test_a_filter_key_that_keeps_the_review_leaves_its_pane_alone(tmp_path: Path) -> None:
    app = app_with(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("enter")
        await pilot.pause()
        view = app.query_one(ReviewView)
        lines = view._lines
        await pilot.press("escape", "u", "u", "v")  # the open review is unread and a deep read
        await pilot.pause()
        assert view.review is not None and view.review.key == app.reader.current_key
        assert view._lines is lines  # not laid out again
        await pilot.press("r")  # a mark it shows: laid out again
        await pilot.pause()
        assert view._lines is not lines


async def test_the_list_under_all_is_the_same_object_key_after_key(tmp_path: Path) -> None:
    app = app_with(tmp_path, "mute: [rocm]\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        reader = app.reader
        assert reader.filters.tag == ALL_TAG
        source = reader._source()
        assert reader._source() is source  # so a longer query searches only the answers before it
        assert all("rocm" not in review.tags for review in source)
        reader.mute = frozenset()
        assert reader._source() is reader.library.reviews


TODO = "views:\n  todo: {unchecked: true}\n"


async def test_an_unchecked_views_count_follows_checks(tmp_path: Path) -> None:
    app = app_with(tmp_path, TODO)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        reader = app.reader

        def todo() -> tuple[int, int]:
            count = next(c for c in app.query_one(TagList).counts if c.tag.endswith("todo"))
            return count.unread, count.total

        with_items = sum(1 for r in reader.library.reviews if r.checks)
        assert todo() == (with_items, with_items)
        await pilot.press("enter")
        await pilot.pause()
        for _ in app.query_one(ReviewView).checklist:
            await pilot.press("space", "j")  # every item of the first review checked
        await pilot.pause()
        assert todo() == (with_items - 1, with_items - 1)
        await pilot.press("k", "space")  # one unchecked again
        await pilot.pause()
        assert todo() == (with_items, with_items)
        await pilot.press("r")  # read: one fewer unread among them
        await pilot.pause()
        assert todo() == (with_items - 1, with_items)


VIEWS = """views:
  deep-refactor: {tags: [refactor, rocm], verdict: [deep]}
  quick-unread: {verdict: [quick, skim], unread: true}
  todo: {unchecked: true}
  h2d: {search: h2d}
"""


async def test_a_view_lists_its_members_as_the_plain_filters_do(tmp_path: Path) -> None:
    app = app_with(tmp_path, VIEWS)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("r", "j", "r")  # two reviews read
        for key in ("1", "2", "3", "4"):
            await pilot.press(key)
            await pilot.pause()
            assert listed(app) == by_plain_select(app), key
            source, _ = app.reader._source_and_filters()
            assert source is app.reader._source_and_filters()[0]  # the sidebar's members, kept
            await pilot.press("v")  # a verdict on top of the view's
            await pilot.pause()
            assert listed(app) == by_plain_select(app), key
        await pilot.press("slash", *"kpool")  # another search than the h2d view's
        await pilot.pause()
        assert app.reader.filters.query == "kpool"
        assert listed(app) == by_plain_select(app)
