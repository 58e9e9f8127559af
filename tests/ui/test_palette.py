"""ctrl+p: Textual's command palette with our providers (reviews, tags, actions)."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandList, CommandPalette

from tests.app_helpers import make_app, screen_text
from tui.core.model import ALL_TAG
from tui.ui.commands import match
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView


async def palette(pilot, query: str) -> list[str]:
    """Open the palette, type `query`, return the prompts of the hits shown."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(pilot.app.screen, CommandPalette)
    await pilot.press(*query)
    for _ in range(20):  # hits arrive from the providers as they are found
        await pilot.pause(0.05)
        hits = pilot.app.screen.query_one(CommandList)
        if hits.option_count:
            break
    return [str(hits.get_option_at_index(n).prompt).split("\n")[0] for n in range(hits.option_count)]


async def choose(pilot, prompt: str) -> None:
    """Highlight the hit whose first line is `prompt` and run it."""
    hits = pilot.app.screen.query_one(CommandList)
    for _ in range(hits.option_count):
        if str(hits.highlighted_option.prompt).split("\n")[0] == prompt:
            break
        await pilot.press("down")
    else:
        raise AssertionError(f"no hit {prompt!r}")
    await pilot.press("enter")
    await pilot.pause()


async def test_jump_to_a_review_by_title(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("v")  # a filter that hides the target: it is cleared on the jump
        shown = await palette(pilot, "死代码")
        assert shown[0].startswith("Review: ")
        assert any("删除 TPU 版 InputBatch 死代码与联合类型别名" in s for s in shown)
        target = next(r for r in app.reader.library.reviews if r.title.startswith("删除 TPU"))
        await choose(pilot, f"Review: {target.title}")
        assert not isinstance(app.screen, CommandPalette)
        assert app.reader.current_key == target.key
        assert app.query_one(ReviewView).review is target
        assert app.query_one(ReviewList).key == target.key
        assert app.focused is app.query_one(ReviewView)


async def test_jump_to_a_tag(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        shown = await palette(pilot, "#spec")
        assert shown[0] == "Tag: #spec-decode"
        await choose(pilot, "Tag: #spec-decode")
        assert app.reader.filters.tag == "spec-decode"
        assert [r.key for r in app.query_one(ReviewList).reviews] == [
            r.key for r in app.reader.library.tags["spec-decode"]
        ]
        assert app.focused is app.query_one(ReviewList)
        shown = await palette(pilot, "all")
        assert "Tag: All" in shown
        await choose(pilot, "Tag: All")
        assert app.reader.filters.tag == ALL_TAG


async def test_run_an_action(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        shown = await palette(pilot, "unread only")
        assert shown[0] == "Unread only"
        await choose(pilot, "Unread only")
        assert app.reader.filters.unread
        await palette(pilot, "verdict")
        await choose(pilot, "Verdict")
        assert app.reader.filters.verdict == "deep"
        await palette(pilot, "search")
        await choose(pilot, "Search")  # the search box opens, focused, once the palette is gone
        await pilot.pause()
        await pilot.press("k", "p", "o", "o", "l")
        assert app.reader.filters.query == "kpool"


async def test_actions_are_listed_when_the_palette_opens(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        shown = await palette(pilot, "")
        for name in ("Search", "Verdict", "Next unread", "To do", "Open PR", "Copy", "Edit", "Undo", "Theme"):
            assert name in shown, name


async def test_titles_are_never_markup_in_the_palette(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "a.yaml").write_text(
        "title: 'x [/] [bold]y[/bold] [@click=app.quit]z'\nrepo: o/r\ntags: ['[/]']\nverdict: deep\nsummary: s\n",
        encoding="utf-8",
    )
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40)) as pilot:
        shown = await palette(pilot, "x [")
        assert "Review: x [/] [bold]y[/bold] [@click=app.quit]z" in shown
        await pilot.press("escape")
        await pilot.pause()
        shown = await palette(pilot, "[/]")
        assert "Tag: #[/]" in shown
        assert "[/]" in screen_text(app)
        assert app.is_running


def test_matching_is_substring_first_then_letters_in_order() -> None:
    substring, offsets = match("H2D", "统一 h2d 异步")
    assert substring > 0 and offsets == [3, 4, 5]
    spread, offsets = match("uh", "统一 h2d 异步")
    assert spread == 0 and offsets == []
    letters, offsets = match("tpu死", "删除 TPU 版 InputBatch 死代码")
    assert letters > 0 and offsets == [3, 4, 5, 20]
    assert match("", "x") == (0.0, [])
