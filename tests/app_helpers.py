"""Shared helpers for app tests: build the app on real files, read the screen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from textual.app import App
from textual.content import Content
from textual.geometry import Region

from tests.waiting import wait_until
from tui.core.filters import select
from tui.core.search import SearchIndex
from tui.store.locations import bundled_entries
from tui.ui.app import PrDigestApp
from tui.ui.widgets.review_list import ReviewList

ROOT = Path(__file__).resolve().parents[1]


def make_app(tmp_path: Path, paths: list[Path] | None = None, state: Path | None = None) -> PrDigestApp:
    return PrDigestApp(paths or [bundled_entries()], state or tmp_path / "state" / "state.json")


def on_each_frame(app: App, call: Callable[[], object]) -> None:
    """`call()` as the app hands each frame that draws something to its driver
    (`App._display` with a renderable), right after it."""
    display = app._display

    def recording(screen, renderable) -> None:  # type: ignore[no-untyped-def]
        display(screen, renderable)
        if renderable is not None:
            call()

    app._display = recording  # type: ignore[method-assign]


def screen_text(app: App) -> str:
    """What the terminal shows, as plain text, one line per row."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)


def keys_panel_rows(app: App) -> list[str]:
    """Every row of the keys panel's table (`?`) as drawn at the width it is
    given, the rows scrolled out of the panel's window too."""
    table = app.screen.query_one("BindingsTable")
    assert table.size.width <= app.screen.query_one("HelpPanel").content_size.width
    return [strip.text.rstrip() for strip in table.render_lines(Region(0, 0, *table.size))]


def screen_segments(app: App) -> list[str]:
    """Every text segment on screen, for checks on control characters."""
    return [segment.text for strip in app.screen._compositor.render_strips() for segment in strip]


class Toast(NamedTuple):
    text: str  # as shown: the title, if any, on the line above the message
    severity: str  # "information", "warning" or "error": the toast's colour


def toasts(app: App) -> list[Toast]:
    """The notifications the user sees now: the toasts on the current screen
    (`run_test(notifications=True)` shows them), oldest first."""
    shown = []
    for toast in app.screen.query("Toast"):
        content = toast.render()
        assert isinstance(content, Content)
        severity = next(s for s in ("information", "warning", "error") if toast.has_class(f"-{s}"))
        shown.append(Toast(content.plain, severity))
    return shown


def write_review(
    path: Path, title: str, *, tags: str = "[a]", verdict: str = "deep", extra: str = ""
) -> Path:
    path.write_text(
        f"title: {title}\nrepo: o/r\ntags: {tags}\nverdict: {verdict}\nsummary: s\n{extra}",
        encoding="utf-8",
    )
    return path


async def settled(app: PrDigestApp, pilot: object) -> None:
    """Every file loaded and the search box mounted (it is mounted once loading
    ends): what the app does on its own after start is done."""
    from tui.ui.widgets.search_bar import SearchBar

    def done() -> bool:
        box = app.query_one(SearchBar)._input
        return app.reader.load_progress is None and box is not None and box.is_mounted

    await pilot.pause(0.02)  # type: ignore[attr-defined]
    await wait_until(pilot, done, "the app to settle: the load's end and the search box")
    await pilot.pause()  # type: ignore[attr-defined]


async def all_saved(app: PrDigestApp, pilot: object) -> None:
    """Every mark made so far saved (saves run off the loop) and taken in."""
    await wait_until(pilot, lambda: app.reader.saver.idle, "the saves to finish")
    app.reader.saved()  # take in what the last save learned now, not when the loop gets to it
    await pilot.pause()  # type: ignore[attr-defined]


def listed(app: PrDigestApp) -> list[str]:
    """The keys of the reviews the list shows, in order."""
    return [review.key for review in app.query_one(ReviewList).reviews]


def by_plain_select(app: PrDigestApp) -> list[str]:
    """The list as the plain path makes it: every filter of the screen applied
    to the tag's reviews, with a fresh search index (nothing remembered)."""
    reader = app.reader
    return [
        review.key
        for review in select(
            reader._source(),
            reader.filters,
            is_read=reader.state.is_read,
            checked=reader.checked,
            index=SearchIndex(),
            keep=reader.current_key,
        )
    ]
