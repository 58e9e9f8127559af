"""Filters that combine (verdict, unread, unchecked, tag, search), always shown, cleared by one key."""

from __future__ import annotations

from pathlib import Path

from tests.app_helpers import make_app, screen_text
from tui.core.model import ALL_TAG
from tui.ui.widgets.filter_bar import FilterBar
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.tag_list import TagList


def titles(app) -> list[str]:
    return [review.title for review in app.query_one(ReviewList).reviews]


def verdicts(app) -> list[str]:
    return [review.verdict for review in app.query_one(ReviewList).reviews]


def bar(app) -> str:
    """The filters the filter line names ("" when it says there are none)."""
    widget = app.query_one(FilterBar)
    return widget.plain if widget.has_class("-filtering") else ""


async def test_v_cycles_the_verdicts(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        assert not app.query_one(FilterBar).has_class("-filtering")
        seen = []
        for _ in range(5):
            await pilot.press("v")
            seen.append(set(verdicts(app)))
        assert seen == [{"deep"}, {"quick"}, {"skim"}, {"skip"}, {"deep", "quick", "skim", "skip"}]
        await pilot.press("v")
        assert bar(app).startswith("Filter: Deep read")
        assert "Filter: Deep read  5 reviews   x clears" in screen_text(app)


async def test_filters_combine_and_x_clears_them_all(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")  # the first deep review is read
        await pilot.press("j", "enter")
        await pilot.pause()
        for _ in app.query_one("#review").checklist:
            await pilot.press("space", "j")  # every item of the second is checked
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("v", "u", "t")
        deep = [r.title for r in app.reader.library.reviews if r.verdict == "deep"]
        # the second review is open, so it stays listed although it has nothing unchecked
        assert titles(app) == deep[1:]
        await pilot.press("j", "t", "t")  # move on; the list is filtered afresh
        await pilot.pause()
        assert titles(app) == deep[2:]
        assert bar(app).startswith("Filter: Deep read · unread · unchecked")
        # the tag combines too
        app.reader.filters = app.reader.filters._replace(tag="refactor")
        await pilot.pause()
        expected = [t for t in deep[2:] if t in {r.title for r in app.reader.library.tags["refactor"]}]
        assert titles(app) == expected
        assert bar(app).startswith("Filter: #refactor · Deep read · unread · unchecked")
        await pilot.press("x")
        await pilot.pause()
        assert len(titles(app)) == 8
        assert (
            app.reader.filters.tag,
            app.reader.filters.verdict,
            app.reader.filters.unread,
            app.reader.filters.unchecked,
            app.reader.filters.query,
        ) == (
            ALL_TAG,
            None,
            False,
            False,
            "",
        )
        assert not app.query_one(FilterBar).has_class("-filtering")
        assert app.query_one(TagList).tag == ALL_TAG


async def test_x_does_nothing_and_is_not_offered_without_a_filter(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        assert "x Clear filter" not in screen_text(app)
        await pilot.press("x")
        assert len(titles(app)) == 8
        await pilot.press("u")
        await pilot.pause()
        assert "x Clear filter" in screen_text(app)


async def test_the_filter_line_stays_and_says_when_nothing_filters(tmp_path: Path) -> None:
    """Always one line under the status bar, so the panes never move when a
    filter comes or goes; coloured only while a filter is on."""
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        line = screen_text(app).splitlines()[1]
        assert line.strip() == "Filter: none  8 reviews"
        widget = app.query_one(FilterBar)
        plain = widget.styles.background
        await pilot.press("u")
        await pilot.pause()
        assert screen_text(app).splitlines()[1].strip().startswith("Filter: unread  8 reviews")
        assert widget.styles.background != plain
        await pilot.press("x")
        await pilot.pause()
        assert screen_text(app).splitlines()[1].strip() == "Filter: none  8 reviews"
        assert widget.styles.background == plain


async def test_on_a_narrow_terminal_the_filter_line_shows_only_while_filtering(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert app.screen.has_class("-narrow")
        assert "Filter:" not in screen_text(app)
        await pilot.press("u")
        await pilot.pause()
        assert screen_text(app).splitlines()[1].strip().startswith("Filter: unread")
        await pilot.press("x")
        await pilot.pause()
        assert "Filter:" not in screen_text(app)


async def test_a_tag_shows_in_the_filter_bar(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("shift+tab")
        await pilot.pause()
        tags = app.query_one(TagList)
        await pilot.press(*["j"] * tags.tags.index("rocm"))
        await pilot.pause()
        assert bar(app).startswith("Filter: #rocm  2 reviews")


async def test_an_empty_result_says_how_to_clear(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("v", "v", "v", "v")  # skip
        assert len(titles(app)) == 1
        await pilot.press("r", "j", "u")  # read it, then unread only: the open review stays
        app.reader.current_key = None
        app.reader.filters = app.reader.filters._replace(tag="refactor")
        app.reader.filters = app.reader.filters._replace(tag=ALL_TAG)
        await pilot.pause()
        assert titles(app) == []
        assert "Nothing here. x clears the filter." in screen_text(app)


async def test_a_views_tags_and_repos_under_the_list_are_plain_text(tmp_path: Path) -> None:
    # Tag and repo names come from entries: the list's subtitle shows them as
    # written, not as markup ("[wip]" vanished and "[/]" raised MarkupError).
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        app.reader.filters = app.reader.filters._replace(
            tags=frozenset({"[/]", "c++[wip]"}), repos=frozenset({"o/[b]r"})
        )
        await pilot.pause()
        subtitle = app.query_one("#reviews")._border_subtitle
        assert subtitle is not None and subtitle.plain == "#[/] | #c++[wip] · o/[b]r"
        assert "#[/] | #c++[wip] · o/[b]r" in screen_text(app)
