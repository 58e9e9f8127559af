"""The tag list: keys, the mouse, and rows laid out for the width they get."""

from __future__ import annotations

from pathlib import Path

from tests.app_helpers import make_app, screen_text
from tui.core.model import ALL_TAG
from tui.core.wrap import line_width
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.tag_list import TagList


async def _focus_tags(app, pilot) -> TagList:  # type: ignore[no-untyped-def]
    await pilot.pause()
    await pilot.press("shift+tab")
    await pilot.pause()
    tags = app.query_one(TagList)
    assert app.focused is tags
    return tags


async def test_home_end_and_pages_move_through_the_tags(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 24)) as pilot:  # a short list: the tags scroll
        tags = await _focus_tags(app, pilot)
        last = len(tags.tags) - 1
        await pilot.press("end")
        assert tags.highlighted == last and app.reader.filters.tag == tags.tags[last]
        # The highlighted tag is scrolled into view (the filter bar names it too:
        # the list's own window is what counts).
        await pilot.pause()
        assert tags.scroll_offset.y > 0 and in_view(tags)
        await pilot.press("home")
        assert tags.highlighted == 0 and app.reader.filters.tag == ALL_TAG
        assert tags.scroll_offset.y == 0
        await pilot.press("G")
        assert tags.highlighted == last
        await pilot.press("g")
        assert tags.highlighted == 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert in_view(tags)
        paged = tags.highlighted
        page = tags.scrollable_content_region.height
        assert paged is not None and 0 < paged <= page
        await pilot.press("pagedown", "pagedown", "pagedown")
        assert tags.highlighted == last  # stops at the end
        await pilot.press("pageup")
        assert tags.highlighted is not None and tags.highlighted < last
        await pilot.press("k", "down", "up")
        assert app.reader.filters.tag == tags.tags[tags.highlighted]


async def test_a_click_chooses_a_tag_and_a_second_click_opens_it(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        tags = app.query_one(TagList)
        target = tags.tags.index("rocm")
        assert await pilot.click(TagList, offset=(2, target))
        await pilot.pause()
        assert tags.highlighted == target and app.reader.filters.tag == "rocm"
        assert app.focused is tags
        assert await pilot.click(TagList, offset=(2, target))
        await pilot.pause()
        assert app.reader.filters.tag == "rocm"
        assert app.focused is app.query_one(ReviewList)


async def test_long_tags_wrap_and_their_counts_stay_flush_right(tmp_path: Path) -> None:
    entries = tmp_path / "entries"
    entries.mkdir()
    long_tag = "structured-output-and-reasoning-parsers"
    (entries / "a.yaml").write_text(
        f"title: 标题\nrepo: o/r\ntags: [{long_tag}, 长标签名称长标签名称长标签名称长标签名称]\n"
        "verdict: deep\nsummary: s\n",
        encoding="utf-8",
    )
    app = make_app(tmp_path, [entries])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        tags = app.query_one(TagList)
        width = tags.scrollable_content_region.width - 1
        lines = [runs for _, runs in tags._lines]
        assert len(lines) > len(tags.tags)  # both long tags take two lines
        assert all(line_width(runs) <= width for runs in lines)
        shown = screen_text(app)
        assert "1/1" in shown
        for index in range(len(tags.tags)):
            last = [runs for tag, runs in tags._lines if tag == index][-1]
            assert "".join(text for text, _ in last).endswith("1/1")
            assert line_width(last) == width
        # The pane is as tall as its lines (plus its border), from the first frame on.
        assert tags.size.height == len(lines)


async def test_the_list_grows_when_a_tag_is_added(tmp_path: Path) -> None:
    entries = tmp_path / "entries"
    entries.mkdir()
    review = "title: {title}\nrepo: o/r\ntags: [{tag}]\nverdict: deep\nsummary: s\n"
    (entries / "a.yaml").write_text(review.format(title="a", tag="alpha"), encoding="utf-8")
    app = make_app(tmp_path, [entries])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        tags = app.query_one(TagList)
        before = tags.size.height
        (entries / "b.yaml").write_text(review.format(title="b", tag="beta"), encoding="utf-8")
        for _ in range(100):
            await pilot.pause(0.05)
            if "beta" in tags.tags:
                break
        await pilot.pause()
        assert "beta" in tags.tags
        assert tags.size.height == before + 1
        assert "#beta" in screen_text(app)


def in_view(tags: TagList) -> bool:
    """The highlighted tag's lines are all within the list's scrolled window."""
    assert tags.highlighted is not None
    start = tags._starts[tags.highlighted]
    end = tags._starts[tags.highlighted + 1] if tags.highlighted + 1 < len(tags._starts) else len(tags._lines)
    top = tags.scroll_offset.y
    return top <= start and end <= top + tags.scrollable_content_region.height


async def test_the_highlighted_tag_stays_in_view_when_the_list_shrinks(tmp_path: Path) -> None:
    """The last tag chosen from All: the filter bar appears and takes a row from
    the list; then the terminal gets shorter. (The filter bar names the tag too:
    the screen's text would not tell.)"""
    entries = tmp_path / "entries"
    entries.mkdir()
    review = "title: r{n}\nrepo: o/r\ntags: [tag-{n:02}]\nverdict: deep\nsummary: s\n"
    for n in range(30):
        (entries / f"r{n:02}.yaml").write_text(review.format(n=n), encoding="utf-8")
    app = make_app(tmp_path, [entries])
    async with app.run_test(size=(120, 40)) as pilot:
        tags = await _focus_tags(app, pilot)
        await pilot.press("end")
        await pilot.pause()
        assert tags.highlighted == len(tags.tags) - 1 and tags.scroll_offset.y > 0
        assert in_view(tags)
        await pilot.resize_terminal(120, 24)
        await pilot.pause()
        await pilot.pause()
        assert in_view(tags)
        await pilot.press("home")
        await pilot.pause()
        assert in_view(tags) and tags.scroll_offset.y == 0
