"""Work the reader runs on the event loop in slices (the search's texts made,
a search counted off the key) waits while a key waits for its frame; and what
counts as that frame is one that drew something.

At 100,000 reviews a key typed while the texts were made waited for slices
run at each turn of the loop on its way to its frame: backspace 40-50 ms, up
to 87 ms, against ~10 once the texts were made (bench/README.md)."""

from __future__ import annotations

import asyncio
import gc
import time
from pathlib import Path

import pytest
from textual import events

from tests.app_helpers import make_app, on_each_frame
from tests.bench_corpus import generate
from tests.waiting import busy, wait_until
from tui import runtime
from tui.core.search_scan import Scan
from tui.ui import search_keys
from tui.ui.search_keys import SearchKeys

pytestmark = pytest.mark.usefixtures("installed_runtime")  # tests/conftest.py


class Timeline:
    """What happened, in order: input the App saw ("input"), frames it drew,
    work run off a key ("work": a slice of the texts made, a piece of a
    search's scan run by no key's handler) and the ends of its slices, where
    it lets the loop go ("let go")."""

    def __init__(self, app, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
        self.events: list[str] = []
        on_each_frame(app, lambda: self.events.append("frame"))
        note_input, collect_newest = runtime.note_input, runtime.collect_newest

        def noting(hold: bool = False) -> None:
            self.events.append("input")
            note_input(hold)

        def sliced() -> None:  # `_prepare_search` calls it after each slice
            self.events.append("work")
            collect_newest()

        input_first = runtime.input_first

        async def letting_go(pause: float = 0.0) -> None:
            self.events.append("let go")
            await input_first(pause)

        monkeypatch.setattr(runtime, "note_input", noting)
        monkeypatch.setattr(runtime, "collect_newest", sliced)
        monkeypatch.setattr(runtime, "input_first", letting_go)
        in_handler = [False]
        changed, advance = SearchKeys.on_search_bar_changed, Scan.advance

        def handling(screen: SearchKeys, message: object) -> None:
            in_handler[0] = True
            try:
                changed(screen, message)  # type: ignore[arg-type]
            finally:
                in_handler[0] = False

        def advancing(scan: Scan, piece: int) -> bool:  # type: ignore[type-arg]
            if not in_handler[0]:
                self.events.append("work")
            return advance(scan, piece)

        monkeypatch.setattr(SearchKeys, "on_search_bar_changed", handling)
        monkeypatch.setattr(Scan, "advance", advancing)

    def until_the_frame(self) -> list[str]:
        assert "frame" in self.events, self.events
        return self.events[: self.events.index("frame")]


async def key(app, timeline: Timeline, name: str, char: str | None) -> list[str]:  # type: ignore[no-untyped-def]
    """Send a key as the terminal's driver does (not waiting for the app to be
    idle, as Pilot's press does: the slices keep it busy), until its frame;
    what happened from the key sent to that frame."""
    timeline.events.clear()
    timeline.events.append("sent")
    event = events.Key(name, char)
    event.set_sender(app)
    app._driver.send_message(event)
    await wait_until(None, lambda: "frame" in timeline.events, f"the frame of {name}", 20, step=0.001)
    return timeline.until_the_frame()


async def test_keys_typed_while_the_search_is_made_are_drawn_before_any_slice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The texts made in slices as `/` opens the box (a big library), a query
    scanned off each key as they are: a key waits for the slice under way as
    it comes, and no other slice of either before its frame."""
    monkeypatch.setattr(search_keys, "PREPARE_AHEAD_MAX", 0)  # made as `/` opens the box
    folder = tmp_path / "corpus"
    generate(folder, 8_000, seed=5)
    app = make_app(tmp_path, [folder])
    timeline = Timeline(app, monkeypatch)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, gc.isenabled, "the collector on, once loading ends", 30)
        await pilot.pause()
        await key(app, timeline, "slash", "/")
        typed = 0
        for name, char in [("s", "s"), ("c", "c"), ("h", "h"), ("backspace", None)] * 6:
            if not busy(app.reader, "search-texts"):
                break
            until_drawn = await key(app, timeline, name, char)
            seen = until_drawn.index("input")
            # The slice under way as the key came ends; none runs after it.
            assert until_drawn[:seen].count("let go") <= 1, (name, " ".join(timeline.events))
            assert "work" not in until_drawn[seen:], (name, " ".join(timeline.events))
            typed += 1
            await asyncio.sleep(0.004)  # a fast typist: less than a slice's work apart
        assert typed >= 4, "the texts were made before the keys could come"


async def test_a_refresh_that_draws_nothing_ends_no_keys_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hidden widget refreshed as a key comes (the search box's, as `/`
    came) leaves the screen to draw, and its refresh draws nothing: that is
    not the key's frame. Counted as one, it let the slices in and held the
    key's real frame back by a frame interval (`/` 27-34 ms at 100,000)."""
    monkeypatch.setattr(runtime, "HOLD_MAX_S", 30.0)  # the wait ends with a frame alone
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, gc.isenabled, "the collector on, once loading ends", 30)
        await pilot.pause()
        screen = app.reader
        timer = screen._update_timer
        hidden = screen.search_bar._input
        assert hidden is not None and not screen.search_bar.display
        runtime.note_input(hold=True)  # as the App does for a key
        drawn_before = timer.last_drawn
        hidden.refresh()
        deadline = time.monotonic() + 0.2
        while time.monotonic() < deadline and runtime.holding():
            await asyncio.sleep(0.005)  # several frame intervals
        assert runtime.holding(), "a refresh that drew nothing ended the key's wait"
        assert timer.last_drawn == drawn_before
        screen.review_list.refresh()  # the key's effect, drawn
        await wait_until(None, lambda: not runtime.holding(), "the key's frame", 10, step=0.001)
        assert timer.last_drawn > drawn_before
