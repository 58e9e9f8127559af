"""The UI in Chinese, the theme remembered, NO_COLOR respected."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.style import Style
from textual.command import CommandInput, CommandList, CommandPalette

from tests.app_helpers import keys_panel_rows, make_app, screen_segments, screen_text, toasts
from tui import i18n
from tui.cli import _language
from tui.store import locations
from tui.store.locations import bundled_entries
from tui.ui.app import PrDigestApp
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView


def test_language_comes_from_the_flag_then_the_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert _language(None) == "en"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert _language(None) == "zh"
    assert _language("en") == "en"
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    assert _language(None) == "en"
    assert _language("zh") == "zh"


async def test_the_ui_speaks_chinese_and_review_text_is_untouched(tmp_path: Path) -> None:
    i18n.choose("zh")
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        text = screen_text(app)
        for word in ("全部", "未读", "标签", "评审", "值得精读", "重点关注", "8 篇评审 · 8 篇未读"):
            assert word in text, word
        for word in ("打开", "退出", "已读", "仅未读", "问题", "按键", "命令"):  # the footer
            assert word in text, word
        assert "All" not in text and "Deep read" not in text and "Quit" not in text
        assert "kpool 索引器迁入 glm5next 并拆分后端" in text  # entry text as written
        assert "#rocm" in text  # tags are entry text too
        await pilot.press("v")
        assert "筛选: 值得精读" in screen_text(app) or "筛选：" in screen_text(app)
        await pilot.press("question_mark")
        await pilot.pause()
        panel = "".join(row.strip() for row in keys_panel_rows(app))
        assert "清除所有筛选和搜索" in panel and "下一篇未读" in panel
        await pilot.press("question_mark", "x", "z")
        await pilot.pause()
        assert any(n.text == "没有可撤销的操作。" for n in toasts(app))
        await pilot.press("a")
        await pilot.pause()
        assert "待办与未决事项" in screen_text(app)
        await pilot.press("escape", "p")
        await pilot.pause()
        assert "问题 (0)" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert app.screen.query_one(CommandInput).placeholder == "评审标题、标签或操作…"
        await pilot.press("主", "题")
        for _ in range(20):
            await pilot.pause(0.05)
            if app.screen.query_one(CommandList).option_count:
                break
        assert isinstance(app.screen, CommandPalette)
        prompts = [
            str(app.screen.query_one(CommandList).get_option_at_index(n).prompt)
            for n in range(app.screen.query_one(CommandList).option_count)
        ]
        assert any(p.startswith("主题") for p in prompts)


async def test_reload_notices_speak_the_ui_language(tmp_path: Path) -> None:
    from tests.app_helpers import write_review
    from tui.core.model import LibraryChanges
    from tui.ui.presenting import describe_reload

    changes = LibraryChanges(updated=["a"], added=["b", "c"], removed=[], problem_files=[tmp_path])
    assert describe_reload(changes) == "1 review updated, 2 added, 1 file has a problem"
    i18n.choose("zh")
    assert describe_reload(changes) == "1 篇评审有更新，新增 2 条，1 个文件有问题"
    del write_review


def ui_app(tmp_path: Path) -> PrDigestApp:
    return PrDigestApp([bundled_entries()], tmp_path / "state.json", ui_path=locations.ui_file())


async def test_the_chosen_theme_is_remembered(tmp_path: Path) -> None:
    config = locations.config_file()
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("keymap: {}\n", encoding="utf-8")
    app = ui_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.theme == "textual-dark"
        app.theme = "nord"
        await pilot.pause()
    saved = json.loads(locations.ui_file().read_text())
    assert saved["theme"] == "nord"
    assert config.read_text() == "keymap: {}\n"  # the user's config is never written
    again = ui_app(tmp_path)
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert again.theme == "nord"


async def test_an_unknown_or_broken_theme_file_is_harmless(tmp_path: Path) -> None:
    path = locations.ui_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"format": "prdigest-tui/ui", "theme": "no-such-theme"}', encoding="utf-8")
    app = ui_app(tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        assert app.theme == "textual-dark"
        assert any("no-such-theme" in n.text for n in toasts(app))
    path.write_bytes(b"\xff not json")
    app = ui_app(tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        assert app.theme == "textual-dark" and not toasts(app)


async def test_no_color_keeps_marks_and_focus_visible(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.no_color
        await pilot.press("j", "r", "k")
        text = screen_text(app)
        assert "● kpool" in text  # unread, by a mark, not a colour
        assert "  统一 h2d" in text  # read: no mark
        # the list cursor is reverse video, which needs no colour
        listing = app.query_one(ReviewList)
        assert any(segment.style and segment.style.reverse for segment in listing.render_line(0))
        assert not any(segment.style and segment.style.reverse for segment in listing.render_line(2))
        # the focused pane has a heavy border, the others a round one
        assert app.query_one(ReviewList).styles.border_top[0] == "heavy"
        assert app.query_one(ReviewView).styles.border_top[0] == "round"
        await pilot.press("enter")
        await pilot.pause()
        view = app.query_one(ReviewView)
        await pilot.press("space")
        text = screen_text(app)
        assert "▌[✓]" in text and "▌[ ]" in text  # focus items and their checks, as characters
        start, _ = view._item_rows[view.cursor]
        assert any(s.style and s.style.reverse for s in view.render_line(start - view.scroll_offset.y))
        assert view.styles.border_top[0] == "heavy"
        # search matches are bold and underlined, not only coloured
        await pilot.press("slash", "k", "p", "o", "o", "l")
        await pilot.pause()
        matched = [line for line in view._lines if line.matches]
        assert matched
        style = matched[0].segments[min(matched[0].matches)].style or Style()
        assert style.bold and style.underline
        assert app.is_running and screen_segments(app)
        # every screen draws without colour
        await pilot.press("enter")
        await pilot.pause()
        for keys in (["a"], ["ctrl+p"], ["p"], ["question_mark"]):
            await pilot.press(*keys)
            await pilot.pause(0.1)
            assert screen_text(app).strip()
            await pilot.press("question_mark" if keys == ["question_mark"] else "escape")
            await pilot.pause()
        assert app.is_running


async def test_colour_is_used_without_no_color(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert not app.no_color
        listing = app.query_one(ReviewList)
        assert not any(segment.style and segment.style.reverse for segment in listing.render_line(0))
        assert app.query_one(ReviewList).styles.border_top[0] == "round"


async def test_resizing_with_the_new_views_open_never_crashes(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    sizes = [(120, 40), (80, 24), (30, 10), (12, 5), (1, 1), (45, 12), (120, 40)]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("v", "u", "slash", "k", "p")  # filter bar and search box showing
        for width, height in sizes:
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            assert screen_text(app) is not None
        await pilot.press("escape", "x", "a")  # the to-do view
        await pilot.pause()
        for width, height in sizes:
            await pilot.resize_terminal(width, height)
            await pilot.pause()
        await pilot.press("escape", "ctrl+p")
        await pilot.pause()
        for width, height in sizes:
            await pilot.resize_terminal(width, height)
            await pilot.pause()
        assert app.is_running
