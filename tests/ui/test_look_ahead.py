"""The reviews around the list's cursor laid out ahead in idle time
(tui/ui/look_ahead.py): the key that shows one draws what it would draw
laid out on the key, after marks, checks, a search and focus moves, and a
page key's review is styled before the key (none of its lines anew)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app_helpers import make_app, screen_text, settled
from tui.ui import look_ahead
from tui.ui.patches.lines import KeptLines
from tui.ui.widgets.review_view import ReviewView

KEYS = [
    "j", "j", "pagedown", "r", "j", "k", "pagedown", "pageup", "tab", "space", "shift+tab",
    "j", "k", "slash", "k", "v", "enter", "shift+tab", "pagedown", "j", "escape", "pagedown", "pageup",
]  # fmt: skip


async def screens(tmp_path: Path) -> list[str]:
    app = make_app(tmp_path)
    seen = []
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        for key in KEYS:
            await pilot.press(key)
            await pilot.pause()
            await pilot.pause()  # the idle turns after its frame
            seen.append(screen_text(app))
    return seen


async def test_a_review_laid_out_ahead_is_shown_as_one_laid_out_on_its_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ahead = await screens(tmp_path / "ahead")
    monkeypatch.setattr(look_ahead, "LOOK_AHEAD", False)
    on_the_key = await screens(tmp_path / "on-key")
    for key, (got, want) in enumerate(zip(ahead, on_the_key, strict=True)):
        assert got == want, (key, KEYS[key])


async def test_a_page_keys_review_is_styled_before_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(look_ahead, "REST_AFTER_S", 0.001)  # every neighbour at once: the pauses see them all
    app = make_app(tmp_path)
    frames: list[tuple[object, int]] = []  # each frame: the review shown, lines the view styled by then
    display = app._display
    async with app.run_test(size=(110, 32)) as pilot:
        await settled(app, pilot)
        view = app.query_one(ReviewView)
        cache = view._styles_cache
        assert isinstance(cache, KeptLines)

        def recording(screen, renderable) -> None:
            display(screen, renderable)
            if renderable is not None:
                frames.append((view.review, cache.styled))

        app._display = recording  # type: ignore[method-assign]
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
