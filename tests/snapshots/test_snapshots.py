"""Snapshots of the main screens with the Chinese digest, at the sizes people use.

Regenerate after an intended change with `pytest tests/snapshots/test_snapshots.py --snapshot-update`
and look at the report before committing.
"""

from __future__ import annotations

from pathlib import Path

from tests.app_helpers import make_app, write_review


def test_main_screen_120x40(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(make_app(tmp_path), terminal_size=(120, 40))


def test_main_screen_80x24(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(make_app(tmp_path), terminal_size=(80, 24))


def test_review_with_checklist_and_marks_80x24(snap_compare, tmp_path: Path) -> None:
    # open the review with a read-in-order checklist, check two items, mark the first review read
    keys = ["r", "j", "j", "enter", "space", "j", "j", "j", "j", "space"]
    assert snap_compare(make_app(tmp_path), terminal_size=(80, 24), press=keys)


def test_review_scrolled_120x40(snap_compare, tmp_path: Path) -> None:
    keys = ["j", "j", "j", "j", "j", "j", "j", "enter", "u", "j"]
    assert snap_compare(make_app(tmp_path), terminal_size=(120, 40), press=keys)


def test_narrow_reading_40x16(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(make_app(tmp_path), terminal_size=(40, 16), press=["enter"])


def test_problems_view_100x24(snap_compare, tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    write_review(folder / "ok.yaml", "一个正常的条目")
    (folder / "broken.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    write_review(folder / "unknown.yaml", "x", extra="colour: red\n")
    monkeypatch.chdir(tmp_path)  # relative paths: the same locations on every machine
    app = make_app(tmp_path, paths=[Path("entries")])
    assert snap_compare(app, terminal_size=(100, 24), press=["p"])


async def _wait_for_palette_hits(pilot) -> None:
    from textual.command import CommandList

    for _ in range(40):
        await pilot.pause(0.05)
        if pilot.app.screen.query(CommandList) and pilot.app.screen.query_one(CommandList).option_count:
            break
    else:
        raise AssertionError("the palette never listed a hit")
    await pilot.pause(0.2)


def test_search_with_matches_highlighted_120x40(snap_compare, tmp_path: Path) -> None:
    # the search box open, the list narrowed, matches highlighted in the list and the review
    keys = ["slash", *"dispatch"]
    assert snap_compare(make_app(tmp_path), terminal_size=(120, 40), press=keys)


def test_search_next_match_marked_100x30(snap_compare, tmp_path: Path) -> None:
    # enter opens the first match, n moves to the next: marked with › in the margin
    keys = ["slash", *"模型", "enter", "n", "n"]
    assert snap_compare(make_app(tmp_path), terminal_size=(100, 30), press=keys)


def test_filter_bar_120x40(snap_compare, tmp_path: Path) -> None:
    # a read review, then deep reads only, unread only and with unchecked items: the bar says so
    keys = ["r", "j", "v", "u", "t"]
    assert snap_compare(make_app(tmp_path), terminal_size=(120, 40), press=keys)


def test_actions_and_caveats_view_100x30(snap_compare, tmp_path: Path) -> None:
    keys = ["a", "space", "j", "j"]
    assert snap_compare(make_app(tmp_path), terminal_size=(100, 30), press=keys)


def test_palette_open_100x30(snap_compare, tmp_path: Path) -> None:
    async def open_palette(pilot) -> None:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"kpool")
        await _wait_for_palette_hits(pilot)

    assert snap_compare(make_app(tmp_path), terminal_size=(100, 30), run_before=open_palette)


def test_chinese_ui_80x24(snap_compare, tmp_path: Path) -> None:
    from tui import i18n

    i18n.choose("zh")  # conftest puts English back after the test
    assert snap_compare(make_app(tmp_path), terminal_size=(80, 24), press=["j", "v"])
