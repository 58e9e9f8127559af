"""`a`: every open action and caveat across reviews, grouped by review, each checkable."""

from __future__ import annotations

import json
from pathlib import Path

from tests.app_helpers import all_saved, make_app, screen_text
from tui.ui.screens.todo import TodoDetail, TodoScreen
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.todo_list import TodoList


def notes(app) -> list[tuple[str, str]]:
    """(review title, item text) of every action and caveat, in reading order."""
    return [
        (review.title, item.text)
        for review in app.reader.library.reviews
        for section in ("actions", "caveats")
        for item in review.items(section)
    ]


async def open_todo(pilot) -> TodoList:
    await pilot.press("a")
    await pilot.pause()
    return pilot.app.screen.query_one(TodoList)


async def test_a_lists_open_actions_and_caveats_grouped_by_review(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        todo = await open_todo(pilot)
        assert isinstance(app.screen, TodoScreen)
        items = [(row.review.title, row.item.text) for row in todo.rows if row.item is not None]
        assert items == notes(app)
        headings = [row.review.title for row in todo.rows if row.item is None]
        assert headings == list(dict.fromkeys(title for title, _ in items))  # each review once
        assert todo.rows[0].item is None and todo.rows[todo.cursor].item is not None  # cursor on an item
        text = screen_text(app)
        assert "What to do and open items" in text and f"{len(items)} open of {len(items)}" in text
        # the highlighted item is shown whole under the list
        detail = app.screen.query_one(TodoDetail)
        assert detail.item is todo.rows[todo.cursor].item


async def test_space_checks_an_item_and_it_is_saved(tmp_path: Path) -> None:
    state_file = tmp_path / "state.json"
    app = make_app(tmp_path, state=state_file)
    async with app.run_test(size=(120, 40)) as pilot:
        todo = await open_todo(pilot)
        total = sum(1 for row in todo.rows if row.item is not None)
        await pilot.press("j", "space")
        await pilot.pause()
        row = todo.current
        assert row.item.key in app.reader.state.checked(row.review.key)
        assert f"{total - 1} open of {total}" in screen_text(app)
        assert "[✓]" in screen_text(app)
        await all_saved(app, pilot)
        saved = json.loads(state_file.read_text())["reviews"][row.review.key]["items"]
        assert saved[row.item.key]["v"] is True
        await pilot.press("space")  # and unchecked again
        assert row.item.key not in app.reader.state.checked(row.review.key)
        await pilot.press("space", "escape")
        await pilot.pause()
        # checked items are gone next time, and back with d
        todo = await open_todo(pilot)
        assert row.item.key not in {r.item.key for r in todo.rows if r.item is not None}
        await pilot.press("d")
        await pilot.pause()
        assert row.item.key in {r.item.key for r in todo.rows if r.item is not None}


async def test_a_checked_action_shows_as_done_in_the_review(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_todo(pilot)
        await pilot.press("space", "escape")
        await pilot.pause()
        view = app.query_one(ReviewView)
        assert view.review.title == app.reader.library.reviews[0].title
        lines = ["".join(s.text for s in line.segments) for line in view._lines]
        assert any(line.startswith("  ✓ 若你在 ROCm 上") for line in lines)
        assert any(line.startswith("  • 若你的代码直接") for line in lines)


async def test_enter_goes_to_the_items_review(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        todo = await open_todo(pilot)
        for _ in range(3):
            await pilot.press("j")
        target = todo.current.review
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, TodoScreen)
        assert app.reader.current_key == target.key
        assert app.focused is app.query_one(ReviewView)


async def test_the_view_follows_the_filters_and_closes_with_escape(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("v", "v")  # quick reads only
        todo = await open_todo(pilot)
        assert {row.review.verdict for row in todo.rows} == {"quick"}
        assert "Quick read" in screen_text(app)  # the scope, in the title
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, TodoScreen)
        await pilot.press("v", "v")  # skim, then skip: it has no actions or caveats
        todo = await open_todo(pilot)
        assert todo.rows == []
        assert "No actions or open items here." in screen_text(app)
        await pilot.press("space", "enter", "a")
        await pilot.pause()
        assert not isinstance(app.screen, TodoScreen)


async def test_d_says_what_it_does_next(tmp_path: Path) -> None:
    """The key bar's `d` reads "Show done" while done items are hidden and
    "Hide done" while they are shown, in either language."""
    from tui import i18n

    for language, show, hide in (("en", "Show done", "Hide done"), ("zh", "显示已完成", "隐藏已完成")):
        i18n.choose(language)
        app = make_app(tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await open_todo(pilot)
            bar = screen_text(app).splitlines()[-1]
            assert show in bar and hide not in bar, bar
            await pilot.press("d")
            await pilot.pause()
            bar = screen_text(app).splitlines()[-1]
            assert hide in bar and show not in bar, bar
            await pilot.press("d")
            await pilot.pause()
            assert show in screen_text(app).splitlines()[-1]
