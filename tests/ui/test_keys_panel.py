"""The keys panel (`?`) lists the keys that work where the focus is: none of
Textual's sideways scroll keys, which our wrapped panes have nothing for."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app_helpers import keys_panel_rows, make_app
from tui import i18n
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.tag_list import TagList
from tui.ui.widgets.todo_list import TodoList

SIDEWAYS_KEYS = {"left", "right", "ctrl+pageup", "ctrl+pagedown"}


def panel_text(app) -> str:
    """What the panel shows (Textual's `BindingsTable`, a rich table), as plain text."""
    table = app.screen.query_one("BindingsTable").render()
    return "\n".join("".join(segment.text for segment in line) for line in app.console.render_lines(table))


async def test_the_keys_panel_lists_no_sideways_scroll_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        for keys, pane in (([], ReviewList), (["enter"], ReviewView), (["shift+tab", "shift+tab"], TagList)):
            await pilot.press(*keys)
            await pilot.pause()
            assert isinstance(app.focused, pane)
            shown = panel_text(app)
            assert "Page down" in shown and "Unread only" in shown, pane
            assert "Scroll Left" not in shown and "Page Right" not in shown, (pane, shown)
            assert not SIDEWAYS_KEYS & set(app.screen.active_bindings), pane
        await pilot.press("tab", "tab")
        view = app.query_one(ReviewView)
        assert app.focused is view
        before = view.scroll_offset, view.cursor, app.reader.current_key
        await pilot.press(*SIDEWAYS_KEYS)  # nothing for them to do, and nothing done
        await pilot.pause()
        assert (view.scroll_offset, view.cursor, app.reader.current_key) == before
        assert app.focused is view and app.is_running


async def test_the_to_do_list_keeps_its_scroll_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await pilot.pause()
        todo = app.screen.query_one(TodoList)
        assert app.focused is todo
        bound = set(app.screen.active_bindings)
        assert {"pagedown", "pageup", "home", "end"} <= bound and not SIDEWAYS_KEYS & bound
        await pilot.press("pagedown")
        await pilot.pause()
        assert todo.scroll_offset.y > 0  # nine items and their headings: more than a page at 80x24


CLOSING = "，。、：；！？）」』》"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_chinese_descriptions_wrap_whole_in_the_keys_panel(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """Rich breaks only at spaces: a Chinese description was one word to it, cut
    with "…" in the panel's 30 columns. Each is now shown whole, broken where
    Chinese may break (never before a closing mark), and Textual's own keys
    (ctrl+q, ctrl+c) speak Chinese too."""
    i18n.choose("zh")
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        rows = keys_panel_rows(app)
        shown = "".join(row.strip() for row in rows).replace(" ", "")
        ours = i18n.words().textual_keys
        wanted = [
            (
                ours.get(binding.description, binding.description)
                + ours.get(binding.tooltip, binding.tooltip)
            ).replace(" ", "")
            for _, binding, _, _ in app.screen.active_bindings.values()
            if not binding.system and binding.description
        ]
        assert any(len(text) > 14 for text in wanted)  # longer than a line of the panel
        for text in wanted:
            assert text in shown, (text, rows)
        assert "…" not in shown
        assert (
            "退出程序，回到命令行。" in shown and "Quit" not in shown and "Copy" not in shown
        )  # Textual's own keys too
        for row in rows:
            assert not row.strip() or row.strip()[0] not in CLOSING, row
        assert max(len(row) for row in rows) > 0
