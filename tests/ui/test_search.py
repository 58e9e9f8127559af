"""`/` search as the reader uses it: incremental, highlighted, enter, n / N, escape."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from tests.app_helpers import make_app, screen_text, settled, toasts
from tui.ui.widgets.filter_bar import FilterBar
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.search_bar import SearchBar

KPOOL = "kpool 索引器迁入 glm5next 并拆分后端"
H2D = "统一 h2d 异步复制工具，删除 async_copy_to_gpu"


def titles(app) -> list[str]:
    return [review.title for review in app.query_one(ReviewList).reviews]


def match_texts(app) -> list[str]:
    """The text of every highlighted match on screen in the review pane."""
    view = app.query_one(ReviewView)
    return [
        "".join(line.segments[n].text for n in sorted(line.matches)) for line in view._lines if line.matches
    ]


async def type_search(pilot, text: str) -> None:
    await pilot.press("slash")
    await pilot.pause()
    await pilot.press(*text)
    await pilot.pause()


async def test_slash_searches_as_you_type_and_highlights(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash")
        await pilot.pause()
        bar = app.query_one(SearchBar)
        assert bar.display and isinstance(app.focused, Input)
        await pilot.press("H", "2")
        await pilot.pause()
        assert app.reader.filters.query == "H2"
        await pilot.press("d")
        await pilot.pause()
        assert titles(app) == [H2D]  # the list narrows as you type, case-insensitively
        assert app.query_one(ReviewView).review.title == H2D
        assert "Filter: /H2d" in screen_text(app) and "1 review" in screen_text(app)
        # highlighted in the review pane (title and text) and in the list
        assert [t.lower() for t in match_texts(app)] == ["h2d"] * len(match_texts(app))
        assert len(match_texts(app)) >= 1
        listing = app.query_one(ReviewList)
        drawn = listing._row_strips(0, 40)[0]
        assert [drawn.strip._segments[n].text for n in drawn.matches] == ["h2d"]


async def test_chinese_search_and_a_match_outside_the_title(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_search(pilot, "死锁规避")
        assert titles(app) == ["清理 8 文件 1895 行死内核代码，覆盖 AMD 与量化算子路径"]
        assert match_texts(app) == ["死锁规避"]
        # the list shows the match in context on the review's second line
        assert "⌕" in screen_text(app) and "死锁规避" in screen_text(app).split("Reviews")[1]


async def test_refs_are_searched(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_search(pilot, "cpugpubuffer.copy_to_gpu")
        assert titles(app) == [H2D]


async def test_enter_opens_the_first_match_and_n_walks_the_matches(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("j", "j", "j")  # the cursor is not on the first match
        await type_search(pilot, "模型")
        matching = titles(app)
        assert len(matching) >= 2
        await pilot.press("enter")
        await pilot.pause()
        view = app.query_one(ReviewView)
        assert not app.query_one(SearchBar).display
        assert app.focused is view
        assert view.review.title == matching[0]
        assert view.current_match == 0
        first_review_matches = len(view.match_lines)
        assert app.reader.filters.query == "模型"  # the search stays on after enter
        for _ in range(first_review_matches - 1):
            await pilot.press("n")
        assert view.current_match == first_review_matches - 1
        await pilot.press("n")  # past the last match: the next matching review
        assert view.review.title == matching[1]
        assert view.current_match == 0
        assert app.query_one(ReviewList).key == view.review.key
        line = view.match_lines[0]
        top = view.scroll_offset.y
        assert top <= line < top + view.scrollable_content_region.height  # scrolled into view
        await pilot.press("N")  # back again: the previous review's last match
        assert view.review.title == matching[0]
        assert view.current_match == first_review_matches - 1
        # the current match is marked in the margin, without colour
        row = view.match_lines[view.current_match] - view.scroll_offset.y
        assert view.render_line(row).text.startswith("›")


async def test_n_at_the_last_match_goes_round_to_the_first(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_search(pilot, "kpool")
        await pilot.press("enter")
        await pilot.pause()
        view = app.query_one(ReviewView)
        assert titles(app) == [KPOOL]
        count = len(view.match_lines)
        assert count >= 2
        for _ in range(count):
            await pilot.press("n")
        assert view.current_match == 0 and view.review.title == KPOOL


async def test_escape_clears_the_search(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_search(pilot, "kpool")
        assert titles(app) == [KPOOL]
        await pilot.press("escape")
        await pilot.pause()
        assert app.reader.filters.query == ""
        assert not app.query_one(SearchBar).display
        assert len(titles(app)) == 8
        assert not match_texts(app)
        assert not app.query_one(FilterBar).has_class("-filtering")
        assert app.focused is app.query_one(ReviewList)
        # after enter, escape in the list clears it too
        await type_search(pilot, "kpool")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("escape")  # review -> list
        await pilot.pause()
        assert app.reader.filters.query == "kpool"
        await pilot.press("escape")  # list: clear the search
        await pilot.pause()
        assert app.reader.filters.query == "" and len(titles(app)) == 8


async def test_no_match_says_so_and_n_without_a_search_does_nothing(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        key = app.reader.current_key
        await pilot.press("n")
        assert app.reader.current_key == key
        await type_search(pilot, "zzzz-nothing")
        assert titles(app) == []
        assert "Nothing here. x clears the filter." in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert any(n.text == "No matches." for n in toasts(app))
        await pilot.press("x")
        await pilot.pause()
        assert app.reader.filters.query == "" and len(titles(app)) == 8


async def test_search_text_is_never_markup(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "a.yaml").write_text(
        "title: 'x [/] [bold]y[/bold]'\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: '[red]z'\n",
        encoding="utf-8",
    )
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40)) as pilot:
        await type_search(pilot, "[/]")
        assert titles(app) == ["x [/] [bold]y[/bold]"]
        await pilot.press("escape")
        await type_search(pilot, "[bold]y")
        assert "Filter: /[bold]y" in screen_text(app)
        assert match_texts(app) == ["[bold]y"]


async def test_a_reload_refreshes_the_search_text(tmp_path: Path) -> None:
    from tui.core.model import FileUpdate

    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_search(pilot, "brandnewword")
        assert titles(app) == []
        from tui.core.model import Review

        path = app.reader.library.reviews[0].location.path
        reviews = app.reader.library.files[path]
        first = reviews[0]
        fresh = Review(
            first.title, first.repo, first.verdict, "brandnewword", first.tags, first.location, first.pr
        )
        changed = [fresh, *reviews[1:]]
        app.reader.apply_updates({path: FileUpdate(changed, [])})
        await pilot.pause()
        assert titles(app) == [KPOOL]
        assert len(app.reader.search_index) <= len(app.reader.library.reviews)


def burst(app, keys: str) -> None:
    """Keys arriving in one read, as from a paste or `tmux send-keys`: all queued
    before the App handles the first."""
    from textual import events

    for char in keys:
        key = {"/": "slash", " ": "space"}.get(char, char)
        event = events.Key(key, char)
        event.set_sender(app)
        app.post_message(event)


async def test_a_search_typed_in_one_burst_goes_to_the_box(tmp_path: Path) -> None:
    """The keys after `/` were read before the box had focus: `k` moved the list
    and `p` opened the problems view."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        listing = app.query_one(ReviewList)
        highlighted = listing.highlighted
        burst(app, "/kpool")
        await pilot.pause()
        assert app.screen is app.screen_stack[0]  # no problems view
        assert app.query_one(SearchBar).input.value == "kpool"
        assert app.reader.filters.query == "kpool"
        assert titles(app) == [KPOOL]
        assert listing.highlighted == 0 and highlighted == 0


async def test_slash_is_text_in_the_box_and_elsewhere_not_a_search(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        burst(app, "/models/glm5next")
        await pilot.pause()
        assert app.query_one(SearchBar).input.value == "models/glm5next"
        assert titles(app) == [KPOOL]
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("a")  # the to-do view: `/` does not open the main screen's search
        await pilot.pause()
        assert app.screen is not app.screen_stack[0]
        await pilot.press("slash")
        await pilot.pause()
        assert not app.query_one(SearchBar).display
        assert app.reader.filters.query == ""
