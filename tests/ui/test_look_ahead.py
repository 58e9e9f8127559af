"""The reviews the next key would show laid out ahead in idle time
(tui/ui/look_ahead.py): the key that shows one draws what it would draw
laid out on the key (text and styles), after marks, checks, a search, tag
switches, `v`, `enter` and focus moves; a page key's, a tag switch's and
`v`'s review is styled before the key (none of its lines anew), and `enter`
borders the review's lines anew without styling them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.app import App

from tests.app_helpers import make_app, on_each_frame, screen_text, settled, write_review
from tui.ui import look_ahead
from tui.ui.app import PrDigestApp
from tui.ui.patches.lines import KeptLines
from tui.ui.widgets.review_view import ReviewView

KEYS = [
    "j", "j", "pagedown", "r", "j", "k", "pagedown", "pageup", "tab", "space", "shift+tab",
    "j", "k", "slash", "k", "v", "enter", "shift+tab", "pagedown", "j", "escape", "pagedown", "pageup",
    "escape", "escape", "j", "j", "k", "enter", "j", "v", "v", "v", "j", "enter", "escape", "escape",
    "k", "k", "j", "j", "j", "tab", "v", "enter", "space", "escape", "r", "v", "v",
]  # fmt: skip


def drawn(app: App) -> list[tuple[str, object]]:
    """Every segment on screen with its style."""
    return [(s.text, s.style) for strip in app.screen._compositor.render_strips() for s in strip]


def record_frames(app: App, sample: Callable[[], tuple]) -> list[tuple]:
    """`sample()` taken at each frame the app draws, in order."""
    frames: list[tuple] = []
    on_each_frame(app, lambda: frames.append(sample()))
    return frames


async def screens(tmp_path: Path) -> list[tuple[str, list[tuple[str, object]]]]:
    app = make_app(tmp_path)
    seen = []
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        for key in KEYS:
            await pilot.press(key)
            await pilot.pause()
            await pilot.pause()  # the idle turns after its frame
            seen.append((screen_text(app), drawn(app)))
    return seen


async def test_a_review_laid_out_ahead_is_shown_as_one_laid_out_on_its_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(look_ahead, "REST_AFTER_S", 0.0)  # every step at once: the pauses see them all
    ahead = await screens(tmp_path / "ahead")
    monkeypatch.setattr(look_ahead, "LOOK_AHEAD", False)
    on_the_key = await screens(tmp_path / "on-key")
    for key, (got, want) in enumerate(zip(ahead, on_the_key, strict=True)):
        assert got[0] == want[0], (key, KEYS[key])
        assert got[1] == want[1], (key, KEYS[key])


async def test_a_page_keys_review_is_styled_before_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(look_ahead, "REST_AFTER_S", 0.0)  # every neighbour at once: the pauses see them all
    app = make_app(tmp_path)
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        view = app.query_one(ReviewView)
        cache = view._styles_cache
        assert isinstance(cache, KeptLines)
        # each frame: the review shown, lines the view styled by then
        frames = record_frames(app, lambda: (view.review, cache.styled))
        await pilot.press("j")  # a review away from the first: its neighbours are laid out after
        for key in ("pagedown", "pageup", "pagedown", "k"):
            await pilot.pause()
            await pilot.pause()
            before, shown = cache.styled, view.review
            frames.clear()
            await pilot.press(key)
            await pilot.pause()
            review, styled = next(frame for frame in frames if frame[0] is not shown)  # the key's frame
            assert review is view.review
            assert styled == before, key  # every line it drew was styled ahead


async def test_a_review_laid_out_ahead_and_checked_since_shows_its_check(tmp_path: Path) -> None:
    """An item of the next review checked after it was laid out ahead (as
    the to-do view checks one): shown with its check, not as laid out."""
    app = make_app(tmp_path)
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        await pilot.press("j")
        await pilot.pause()
        await pilot.pause()
        listing, view = app.reader.review_list, app.query_one(ReviewView)
        following = listing.reviews[(listing.highlighted or 0) + 1]
        assert following.checklist
        laid = view._layout_width
        assert any(review is following for review, _shown, width, _laid in view._ahead if width == laid)
        app.reader.set_checked(following.key, following.checklist[0].key, True)
        await pilot.press("j")
        await pilot.pause()
        assert view.review is following
        assert f"1/{len(following.checklist)} checked" in screen_text(app)


Counts = Callable[[], tuple[int, int]]


async def counted_on_keys(
    tmp_path: Path,
    paths: list[Path] | None,
    setup: list[str],
    keys: list[str],
    watch: Callable[[App], tuple[Callable[[], object], Counts]],
) -> list[tuple[int, int, bool]]:
    """For each of `keys` after `setup` and the idle turns: how much the two
    counts went up by the key's first frame that shows something else (`shown`
    no longer equal), and whether such a frame came. `watch(app)` gives
    `shown` and the counts, once the app runs."""
    app = make_app(tmp_path, paths)
    out = []
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        shown, counts = watch(app)
        frames = record_frames(app, lambda: (shown(), *counts()))
        for key in setup:
            await pilot.press(key)
            await pilot.pause()
        for key in keys:
            await pilot.pause()
            await pilot.pause()
            before, (first, second) = shown(), counts()
            frames.clear()
            await pilot.press(key)
            await pilot.pause()
            changed = [f for f in frames if f[0] != before]
            if changed:
                out.append((changed[0][1] - first, changed[0][2] - second, True))
            else:
                out.append((0, 0, False))
    return out


async def styled_on_keys(tmp_path: Path, setup: list[str], keys: list[str]) -> list[tuple[int, int, bool]]:
    """For each of `keys` after `setup` and the idle turns: the lines the review
    pane styled and bordered anew by the key's first frame that shows another
    review or the pane focused, and whether such a frame came."""

    def watch(app: App) -> tuple[Callable[[], object], Counts]:
        view = app.query_one(ReviewView)
        cache = view._styles_cache
        assert isinstance(cache, KeptLines)
        return lambda: (id(view.review), view.has_focus), lambda: (cache.styled, cache.bordered)

    return await counted_on_keys(tmp_path, None, setup, keys, watch)


async def test_a_tag_switchs_review_is_styled_before_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(look_ahead, "REST_AFTER_S", 0.0)
    seen = await styled_on_keys(tmp_path, ["shift+tab", "j", "j", "j"], ["j", "j", "k", "k", "j"])
    assert all(came for _, _, came in seen), seen  # from api-change on, each tag shows another review
    assert all(styled == 0 for styled, _, _ in seen), seen


async def test_the_next_verdicts_review_is_styled_before_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(look_ahead, "REST_AFTER_S", 0.0)
    seen = await styled_on_keys(tmp_path, ["j"], ["v", "v", "v", "v", "v"])
    assert any(came for _, _, came in seen)
    assert all(styled == 0 for styled, _, _ in seen), seen


async def test_enter_borders_the_reviews_lines_anew_without_styling_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`enter` after j: the review with its cursor is styled but for the
    first line of its frame (which Textual styles, for the new borders)."""
    monkeypatch.setattr(look_ahead, "REST_AFTER_S", 0.0)
    app_keys = ["enter", "escape", "j", "enter", "escape", "j", "enter"]
    seen = await styled_on_keys(tmp_path, ["j"], app_keys)
    for key, (styled, bordered, came) in zip(app_keys, seen, strict=True):
        if key == "enter":
            assert came
            assert styled <= 1 and bordered > 0, seen


def four_verdicts(tmp_path: Path) -> Path:
    """60 reviews, 15 of each verdict, one a file: each verdict's list fills the
    review list, and each tag (three) lists other reviews than the next."""
    entries = tmp_path / "entries"
    entries.mkdir()
    for n in range(60):
        verdict = ("deep", "quick", "skim", "skip")[n % 4]
        write_review(entries / f"r{n:02}.yaml", f"review {n:02}", tags=f"[t{n % 3}]", verdict=verdict)
    return entries


async def rows_styled_on_keys(
    tmp_path: Path, setup: list[str], keys: list[str]
) -> list[tuple[int, int, bool]]:
    """For each of `keys` after `setup` and the idle turns: the content lines
    the review list and the review pane styled anew by the key's frame (the
    first that lists other reviews), and whether such a frame came."""

    def watch(app: App) -> tuple[Callable[[], object], Counts]:
        assert isinstance(app, PrDigestApp)
        listing, view = app.reader.review_list, app.query_one(ReviewView)
        rows, lines = listing._styles_cache, view._styles_cache
        assert isinstance(rows, KeptLines) and isinstance(lines, KeptLines)
        return lambda: id(listing.reviews), lambda: (rows.styled, lines.styled)

    return await counted_on_keys(tmp_path, [four_verdicts(tmp_path)], setup, keys, watch)


async def test_the_next_verdicts_rows_are_drawn_right_after_a_v(tmp_path: Path) -> None:
    """`v` pressed again and again, faster than the look-ahead's rest: each
    press finds the next verdict's rows and review done but for the cursor's
    row (its two lines, in the cursor's look)."""
    seen = await rows_styled_on_keys(tmp_path, ["v"], ["v", "v", "v", "v", "v", "v"])
    assert all(came for _, _, came in seen), seen
    assert all(rows <= 2 and lines == 0 for rows, lines, _ in seen), seen


async def test_a_tag_switchs_rows_are_drawn_before_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(look_ahead, "REST_AFTER_S", 0.0)
    seen = await rows_styled_on_keys(tmp_path, ["shift+tab", "j", "j"], ["j", "j", "k", "k"])
    assert all(came for _, _, came in seen), seen
    assert all(rows <= 2 for rows, _, _ in seen), seen  # the cursor's row, in its look


async def test_without_the_look_ahead_a_v_styles_its_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The measure of the two tests above: a `v` styles its new rows when
    nothing is looked ahead."""
    monkeypatch.setattr(look_ahead, "LOOK_AHEAD", False)
    seen = await rows_styled_on_keys(tmp_path, ["v"], ["v", "v", "v"])
    assert all(rows > 2 for rows, _, _ in seen), seen
