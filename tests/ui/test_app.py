"""The reader driven as a user drives it: keys, mouse, marks kept across restarts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import OptionList

from tests.app_helpers import all_saved, make_app, screen_segments, screen_text, toasts, write_review
from tui.core.model import ALL_TAG, UNREAD_TAG
from tui.store.state import ReadState
from tui.ui.widgets.review_list import ROW_HEIGHT, ReviewList
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.tag_list import TagList

SEED_TITLES_DEEP_FIRST = [
    "kpool 索引器迁入 glm5next 并拆分后端",
    "统一 h2d 异步复制工具，删除 async_copy_to_gpu",
    "重构结构化输出与投机解码的约束起点契约",
    "reasoning 结束判定统一由语法派生，删除多模型 override",
    "统一多模态 LoRA token 计数钩子，20+ 模型迁移到新接口",
    "删除 TPU 版 InputBatch 死代码与联合类型别名",
    "清理 8 文件 1895 行死内核代码，覆盖 AMD 与量化算子路径",
    "MRV1 弃用前翻转 specdec 检查为黑名单并统一 ngram 分支",
]


def titles(app) -> list[str]:
    return [row.review.title for row in app.query_one(ReviewList).rows]


async def test_opens_on_the_bundled_digest(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert titles(app) == SEED_TITLES_DEEP_FIRST
        counts = {c.tag: (c.unread, c.total) for c in app.query_one(TagList).counts}
        assert counts[ALL_TAG] == (8, 8)
        assert counts[UNREAD_TAG] == (8, 8)
        assert all(total >= 1 for _, total in counts.values())
        text = screen_text(app)
        assert "All" in text and "8/8" in text
        assert "#refactor" in text
        # the first review is shown, with its focus items as a checklist
        view = app.query_one(ReviewView)
        assert view.review is not None and view.review.title == SEED_TITLES_DEEP_FIRST[0]
        assert "Focus on" in text and "[ ]" in text
        assert app.focused is app.query_one(ReviewList)


async def test_j_k_and_arrows_move_through_reviews(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = app.query_one(ReviewView)
        await pilot.press("j")
        assert view.review.title == SEED_TITLES_DEEP_FIRST[1]
        await pilot.press("down", "down")
        assert view.review.title == SEED_TITLES_DEEP_FIRST[3]
        await pilot.press("k")
        assert view.review.title == SEED_TITLES_DEEP_FIRST[2]
        await pilot.press("up")
        assert view.review.title == SEED_TITLES_DEEP_FIRST[1]
        assert app.reader.current_key == view.review.key


async def test_tab_cycles_panes_and_enter_opens(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        tags, reviews, view = app.query_one(TagList), app.query_one(ReviewList), app.query_one(ReviewView)
        assert app.focused is reviews
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is view
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is tags
        await pilot.press("shift+tab")
        await pilot.pause()
        assert app.focused is view
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is reviews
        await pilot.press("j", "enter")
        await pilot.pause()
        assert app.focused is view
        assert view.review.title == SEED_TITLES_DEEP_FIRST[1]


async def test_choosing_a_tag_filters_the_list(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        tags = app.query_one(TagList)
        await pilot.press("shift+tab")
        await pilot.pause()
        assert app.focused is tags
        target = tags.tags.index("rocm")
        await pilot.press(*["j"] * target)
        assert app.reader.filters.tag == "rocm"
        assert titles(app) == [SEED_TITLES_DEEP_FIRST[0], SEED_TITLES_DEEP_FIRST[6]]
        await pilot.press("enter")
        await pilot.pause()
        assert app.focused is app.query_one(ReviewList)
        await pilot.press("j")
        assert app.query_one(ReviewView).review.title == SEED_TITLES_DEEP_FIRST[6]
        await pilot.press("shift+tab", "k")
        await pilot.pause()
        assert app.reader.filters.tag == tags.tags[target - 1]


async def test_space_checks_items_and_progress_shows(tmp_path: Path) -> None:
    state_file = tmp_path / "state.json"
    app = make_app(tmp_path, state=state_file)
    async with app.run_test(size=(120, 40)) as pilot:
        view = app.query_one(ReviewView)
        await pilot.press("enter")
        await pilot.pause()
        assert app.focused is view
        first, second = view.checklist[0], view.checklist[1]
        await pilot.press("space")
        assert first.key in view.checked
        await pilot.press("j", "space")
        assert second.key in view.checked
        assert "[✓]" in screen_text(app)
        row = app.query_one(ReviewList).rows[0]
        assert (row.done, row.total) == (2, 3)
        await pilot.press("space")  # uncheck the second again
        assert second.key not in view.checked
        assert app.query_one(ReviewList).rows[0].done == 1
    saved = json.loads(state_file.read_text())
    items = saved["reviews"][view.review.key]["items"]
    assert items[first.key]["v"] is True
    assert items[second.key]["v"] is False


async def test_r_toggles_read_and_counts_follow(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        counts = {c.tag: c.unread for c in app.query_one(TagList).counts}
        assert counts[ALL_TAG] == 7
        assert counts["rocm"] == 1
        assert app.query_one(ReviewList).rows[0].read
        assert "7 unread" in screen_text(app)
        await pilot.press("r")
        assert {c.tag: c.unread for c in app.query_one(TagList).counts}[ALL_TAG] == 8


async def test_u_shows_unread_only(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r", "j", "r", "j")  # two read, cursor moves on to the third
        await pilot.press("u")
        assert app.reader.filters.unread
        assert titles(app) == SEED_TITLES_DEEP_FIRST[2:]
        assert "Filter: unread" in screen_text(app)  # the filter bar says what is filtered
        await pilot.press("u")
        assert titles(app) == SEED_TITLES_DEEP_FIRST


async def test_unread_pseudo_tag_lists_only_unread(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        app.reader.filters = app.reader.filters._replace(tag=UNREAD_TAG)
        await pilot.pause()
        # the open review stays until the reader moves on
        assert titles(app) == SEED_TITLES_DEEP_FIRST
        await pilot.press("j")
        app.reader.filters = app.reader.filters._replace(tag=ALL_TAG)
        app.reader.filters = app.reader.filters._replace(tag=UNREAD_TAG)
        await pilot.pause()
        assert titles(app) == SEED_TITLES_DEEP_FIRST[1:]


async def test_question_mark_shows_all_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen.query("HelpPanel")
        text = screen_text(app)
        assert "Unread only" in text and "Next pane" in text
        await pilot.press("question_mark")
        await pilot.pause()
        assert not app.screen.query("HelpPanel")


async def test_q_quits(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0
    assert not app.is_running


async def test_marks_survive_a_restart(tmp_path: Path) -> None:
    state_file = tmp_path / "xdg" / "state.json"
    app = make_app(tmp_path, state=state_file)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("j", "r", "enter")
        await pilot.pause()
        await pilot.press("space")
        key = app.reader.current_key
        item = app.query_one(ReviewView).checklist[0].key
        await pilot.press("q")
    again = make_app(tmp_path, state=state_file)
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert again.reader.state.is_read(key)
        assert item in again.reader.state.checked(key)
        row = next(r for r in again.query_one(ReviewList).rows if r.review.key == key)
        assert row.read and row.done == 1
        await pilot.press("j")
        assert item in again.query_one(ReviewView).checked


async def test_default_state_file_honours_xdg_state_home(tmp_path: Path) -> None:
    from tui.store.locations import state_file

    path = state_file()
    assert path.is_relative_to(tmp_path)  # conftest points XDG_STATE_HOME into tmp_path
    app = make_app(tmp_path, state=path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
    assert json.loads(path.read_text())["reviews"]


async def test_two_instances_keep_each_others_marks(tmp_path: Path) -> None:
    state_file = tmp_path / "state.json"
    app = make_app(tmp_path, state=state_file)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")  # instance A marks the first review read
        first = app.reader.current_key
        # instance B, started earlier, marks the last review read and saves
        other = ReadState(state_file)
        last = app.query_one(ReviewList).rows[-1].review.key
        other.set_read(last, True)
        other.save()
        await pilot.press("j", "r")  # A marks the second review read and saves
        await all_saved(app, pilot)
        second = app.reader.current_key
        assert app.reader.state.is_read(last)  # B's mark was merged in and shown
        assert app.query_one(ReviewList).rows[-1].read
    final = ReadState(state_file)
    final.load()
    assert final.is_read(first) and final.is_read(second) and final.is_read(last)


async def test_corrupt_state_is_moved_aside_with_a_warning(tmp_path: Path) -> None:
    state_file = tmp_path / "state.json"
    state_file.write_bytes(b'{"format": "prdigest-tui/state", "version": 1, "revi')
    app = make_app(tmp_path, state=state_file)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        notes = [n.text for n in toasts(app)]
        assert any("moved to" in note for note in notes)
        aside = list(tmp_path.glob("state.json.corrupt-*"))
        assert len(aside) == 1
        assert aside[0].read_bytes().endswith(b'"revi')
        await pilot.press("r")
    assert json.loads(state_file.read_text())["reviews"]


async def test_broken_files_are_listed_with_their_location(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    write_review(folder / "good.yaml", "good one")
    (folder / "bad.yaml").write_text("title: x\ntags: [a\n", encoding="utf-8")
    write_review(folder / "schema.yaml", "schema", extra="colour: red\n")
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert titles(app) == ["good one"]
        assert "2 problems (p)" in screen_text(app)
        await pilot.press("p")
        await pilot.pause()
        assert "Problems (2)" in screen_text(app)
        problems = app.screen.query_one(OptionList)
        shown = "".join(problems.render_line(y).text for y in range(problems.size.height))
        flat = "".join(shown.split())  # wrapped lines joined, spaces ignored
        assert f"{folder / 'bad.yaml'}:3:1:invalidYAML" in flat
        assert f"{folder / 'schema.yaml'}:6:1:unknownkey`colour`" in flat
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.screen_stack[0]


async def test_j_and_k_move_through_the_problems(tmp_path: Path) -> None:
    """The problems view's j/k run the list's cursor actions (they are async:
    called without awaiting them, nothing moved)."""
    folder = tmp_path / "entries"
    folder.mkdir()
    for n in range(3):
        (folder / f"bad{n}.yaml").write_text("title: x\ntags: [a\n", encoding="utf-8")
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        problems = app.screen.query_one(OptionList)
        assert problems.highlighted == 0
        await pilot.press("j", "j")
        assert problems.highlighted == 2
        await pilot.press("k")
        assert problems.highlighted == 1


async def test_entry_text_is_never_markup_or_control_codes(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "hostile.yaml").write_text(
        "title: '[bold]loud[/] [@click=app.quit]x[/] custom_ops=[\"all\"]'\n"
        "repo: o/r\ntags: ['[red]tag']\nverdict: deep\n"
        'summary: "gemma4 <|tool_response> \\e[31mred\\e[0m \\e]0;pwned\\a end [/"\n'
        "focus:\n  - '[link=https://x]click[/link] `[b]code[/b]`'\n",
        encoding="utf-8",
    )
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert not app.reader.library.all_problems()
        text = screen_text(app)
        assert '[bold]loud[/] [@click=app.quit]x[/] custom_ops=["all"]' in text
        assert "gemma4 <|tool_response> red  end [/" in text
        assert "pwned" not in text
        assert "[link=https://x]click[/link] [b]code[/b]" in text
        assert "#[red]tag" in text
        for segment in screen_segments(app):
            assert not any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F for c in segment), repr(segment)
        await pilot.click(ReviewView, offset=(5, 1))  # a click on the text runs nothing
        assert app.is_running


async def test_mouse_selects_reviews_and_checks_items(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        reviews = app.query_one(ReviewList)
        await pilot.click(ReviewList, offset=(4, 3))  # second review's first line
        await pilot.pause()
        assert app.reader.current_key == reviews.rows[1].review.key
        view = app.query_one(ReviewView)
        start, _ = view._item_rows[0]
        await pilot.click(ReviewView, offset=(3, start - view.scroll_offset.y))
        await pilot.pause()
        assert view.cursor == 0
        assert view.checklist[0].key in app.reader.state.checked(app.reader.current_key)
        second, _ = view._item_rows[1]
        await pilot.click(ReviewView, offset=(20, second - view.scroll_offset.y))  # on the text
        await pilot.pause()
        assert view.cursor == 1
        assert view.checklist[1].key not in app.reader.state.checked(app.reader.current_key)


async def test_review_pane_scrolls_to_every_line(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        # the review with a read-in-order checklist and the most text
        await pilot.press("j", "j", "enter")
        await pilot.pause()
        view = app.query_one(ReviewView)
        assert [item.section for item in view.checklist].count("read_order") == 3
        for _ in range(len(view.checklist) + 30):
            await pilot.press("j")
        assert view.cursor == len(view.checklist) - 1
        assert view.scroll_offset.y == view.max_scroll_y > 0
        await pilot.press("g")
        assert view.scroll_offset.y == 0 and view.cursor == 0
        await pilot.press("G")
        assert view.scroll_offset.y == view.max_scroll_y
        await pilot.press("pageup")
        assert view.scroll_offset.y < view.max_scroll_y


async def test_resizing_down_to_30x10_and_back_never_crashes(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    sizes = [(120, 40), (80, 24), (30, 10), (12, 5), (1, 1), (45, 12), (30, 10), (120, 40)]
    async with app.run_test(size=(120, 40)) as pilot:
        for pane_keys in ([], ["enter"], ["tab"], ["question_mark"], ["p"]):
            await pilot.press(*pane_keys)
            for width, height in sizes:
                await pilot.resize_terminal(width, height)
                await pilot.pause()
                assert screen_text(app)
            if app.screen is not app.screen_stack[0]:
                await pilot.press("escape")
                await pilot.pause()
        assert app.is_running


async def test_narrow_terminal_shows_one_pane_at_a_time(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert app.query_one("#sidebar").display
        assert not app.query_one(ReviewView).display
        await pilot.press("enter")
        await pilot.pause()
        assert app.query_one(ReviewView).display
        assert not app.query_one("#sidebar").display
        assert app.focused is app.query_one(ReviewView)
        await pilot.press("escape")
        await pilot.pause()
        assert app.query_one("#sidebar").display
        assert app.focused is app.query_one(ReviewList)


async def test_tag_counts_group_thousands_like_the_status_bar(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    body = "".join(
        f"  - title: r{n}\n    pr: {n + 1}\n    tags: [a]\n    verdict: skim\n    summary: s\n"
        for n in range(1200)
    )
    (folder / "many.yaml").write_text(f"repo: o/r\nentries:\n{body}", encoding="utf-8")
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "1,200 reviews" in text
        assert any(line.startswith("│All") and "1,200/1,200" in line for line in text.splitlines())


async def test_the_highlighted_review_stays_in_view_when_the_list_gets_shorter(tmp_path: Path) -> None:
    """The search box opening, or the terminal shrinking, takes rows from the list."""
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        listing = app.query_one(ReviewList)
        rows = listing.scrollable_content_region.height // ROW_HEIGHT
        await pilot.press(*["j"] * (min(rows, len(listing.reviews)) - 1))
        await pilot.pause()

        def in_view() -> bool:
            top = listing.scroll_offset.y
            start = listing.highlighted * ROW_HEIGHT
            return top <= start and start + ROW_HEIGHT <= top + listing.scrollable_content_region.height

        assert in_view()
        await pilot.resize_terminal(120, 12)
        await pilot.pause()
        await pilot.pause()
        assert in_view()


def forty_reviews(tmp_path: Path):  # type: ignore[no-untyped-def]
    """The app on 40 one-tag reviews: a list longer than the pane."""
    entries = tmp_path / "entries"
    entries.mkdir()
    for n in range(40):
        write_review(entries / f"r{n:02}.yaml", f"review {n:02}")
    return make_app(tmp_path, [entries])


@pytest.mark.parametrize("height", [24, 25])  # an odd and an even number of lines in the list
async def test_moving_down_the_review_list_keeps_whole_rows_at_its_top(tmp_path: Path, height: int) -> None:
    """A review is two lines: scrolled to follow the highlight, the list starts
    at a row, never on a row's second line (a partial row goes at the bottom)."""
    app = forty_reviews(tmp_path)
    async with app.run_test(size=(100, height)) as pilot:
        await pilot.pause()
        listing = app.query_one(ReviewList)
        view_lines = listing.scrollable_content_region.height
        tops = set()
        for _ in range(30):
            await pilot.press("j")
            top = listing.scroll_offset.y
            tops.add(top)
            assert top % ROW_HEIGHT == 0, (top, view_lines)
            start = listing.highlighted * ROW_HEIGHT
            assert top <= start and start + ROW_HEIGHT <= top + view_lines
        assert len(tops) > 1  # it did scroll
        for _ in range(30):
            await pilot.press("k")
            assert listing.scroll_offset.y % ROW_HEIGHT == 0
        await pilot.press("G")  # the end: the last row whole, and the top one
        top = listing.scroll_offset.y
        assert top % ROW_HEIGHT == 0 and top == listing.max_scroll_y, (top, view_lines)
        assert listing.highlighted == listing.row_count() - 1
        assert listing.line_count() <= top + view_lines


@pytest.mark.parametrize("height", [24, 25])  # pages of an odd and of an even number of lines
async def test_review_list_pages_edges_and_clicks(tmp_path: Path, height: int) -> None:
    """The review list's moves (shared with the tag list: tui/widgets/cursor_list.py).
    A page up undoes a page down."""
    app = forty_reviews(tmp_path)
    async with app.run_test(size=(100, height)) as pilot:
        await pilot.pause()
        listing = app.query_one(ReviewList)
        page_rows = (listing.scrollable_content_region.height - 1) // ROW_HEIGHT
        await pilot.press("pagedown")
        assert listing.highlighted == page_rows
        await pilot.press("pagedown")
        assert listing.highlighted == 2 * page_rows
        top = listing.scroll_offset.y
        assert top <= listing.highlighted * ROW_HEIGHT < top + listing.scrollable_content_region.height
        await pilot.press("pageup")
        assert listing.highlighted == page_rows
        await pilot.press("G")
        assert listing.highlighted == 39 and app.reader.current_key == listing.key
        await pilot.press("pagedown")
        assert listing.highlighted == 39  # stops at the end
        await pilot.press("g")
        assert listing.highlighted == 0 and listing.scroll_offset.y == 0
        # A click chooses a review; a click on the chosen one opens it.
        await pilot.click(ReviewList, offset=(4, 2 * ROW_HEIGHT))
        await pilot.pause()
        assert listing.highlighted == 2 and app.focused is listing
        await pilot.click(ReviewList, offset=(4, 2 * ROW_HEIGHT + 1))
        await pilot.pause()
        assert app.focused is app.query_one(ReviewView)
        assert app.query_one(ReviewView).review.key == listing.key
