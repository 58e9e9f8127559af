"""When the screen draws: at once when asked a frame interval or more after
the last frame began, else one interval after it (tui.ui.patches.FrameTimer).

The timers run here on a clock of the test's own (`FakeTime`): a tick's time
is what the clock read when it ran, so no figure depends on how fast the
machine is. Textual's own update timer is run on the same clock, to pin the
behaviour the patch is for: if an upgrade changes it, the patch may go.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
import textual._time
import textual.timer
from textual._context import active_app
from textual.app import App
from textual.screen import UPDATE_PERIOD
from textual.timer import Timer

from tests.app_helpers import make_app, screen_text, settled
from tui.ui.patches import FrameTimer
from tui.ui.widgets.review_list import ReviewList

INTERVAL = 1 / 60


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


class FakeTime:
    """A clock that moves only when the test moves it (`run_until`), and a
    sleep that ends once the clock reaches the sleeper's wake-up time."""

    def __init__(self) -> None:
        self.now = 100.0
        self._wakes: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        wake = self.now + max(0.0, seconds)
        self._wakes.append(wake)
        try:
            while self.now < wake:
                await asyncio.sleep(0)
        finally:
            self._wakes.remove(wake)

    async def run_until(self, when: float) -> None:
        """Move the clock to `when`, stopping at each sleeper's wake-up on the way."""
        await _settle()
        while due := [wake for wake in self._wakes if self.now < wake <= when]:
            self.now = min(due)
            await _settle()
        self.now = when
        await _settle()


class Ticks:
    """The timer's callback as the screen's: note the time, pause the timer,
    and tell a `FrameTimer` when the tick drew (`drawing()`: every tick, unless told)."""

    def __init__(self, fake: FakeTime, drawing: Callable[[], bool] = lambda: True) -> None:
        self.fake = fake
        self.drawing = drawing
        self.at: list[float] = []
        self.timer: Timer | None = None

    def __call__(self) -> None:
        assert self.timer is not None
        self.timer.pause()
        self.at.append(self.fake.now)
        if isinstance(self.timer, FrameTimer) and self.drawing():
            self.timer.drew()


@pytest.fixture
def fake() -> FakeTime:
    return FakeTime()


@pytest.fixture
def in_app() -> object:
    """A Timer's tick reads the active app (to skip ticks once it exits)."""
    token = active_app.set(App())
    yield
    active_app.reset(token)


async def _started(timer: Timer, ticks: Ticks) -> Timer:
    ticks.timer = timer
    timer._start()
    await _settle()
    return timer


def frame_timer(fake: FakeTime, ticks: Ticks) -> FrameTimer:
    return FrameTimer(
        App(),
        INTERVAL,
        name="screen_update",
        callback=ticks,
        clock=fake.clock,
        sleep=fake.sleep,
    )


async def ask(fake: FakeTime, timer: Timer, at: float) -> None:
    """A refresh asked for at `at`: the screen resumes its timer as it goes idle."""
    await fake.run_until(at)
    timer.resume()
    await _settle()


async def test_textual_update_timer_waits_past_an_interval_after_a_late_tick(
    fake: FakeTime, in_app: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the patch is for, in Textual 8.2.8: after a tick that came late
    (resumed after a pause), a refresh asked for 3 ms later waits for the grid's
    point after the next one: more than one interval after the ask."""
    monkeypatch.setattr(textual._time, "get_time", fake.clock)
    monkeypatch.setattr(textual.timer, "sleep", fake.sleep)
    ticks = Ticks(fake)
    timer = await _started(Timer(App(), INTERVAL, callback=ticks, pause=True), ticks)
    await ask(fake, timer, 100.0)
    await fake.run_until(100.1)
    assert ticks.at == [pytest.approx(100.0 + INTERVAL)]  # its grid starts at the first resume

    await ask(fake, timer, 100.5)  # after a pause: a late tick, at once
    assert ticks.at[-1] == 100.5
    await ask(fake, timer, 100.503)
    await fake.run_until(101.0)
    assert len(ticks.at) == 3
    assert ticks.at[-1] - 100.503 > INTERVAL
    timer.stop()


async def test_after_a_late_tick_a_refresh_is_drawn_one_interval_after_it(
    fake: FakeTime, in_app: object
) -> None:
    ticks = Ticks(fake)
    timer = await _started(frame_timer(fake, ticks), ticks)
    await ask(fake, timer, 100.0)
    assert ticks.at == [100.0]  # the first ask: at once

    await ask(fake, timer, 100.5)  # after a pause: at once
    assert ticks.at[-1] == 100.5
    await ask(fake, timer, 100.503)  # 3 ms after that frame began
    await fake.run_until(101.0)
    assert ticks.at[-1] == pytest.approx(100.5 + INTERVAL)  # one interval after the last frame, no later
    assert ticks.at[-1] - 100.503 <= INTERVAL

    await ask(fake, timer, 101.0 + 0.7 * INTERVAL)  # asked after the interval ran out: at once
    assert ticks.at[-1] == 101.0 + 0.7 * INTERVAL
    timer.stop()


async def test_a_tick_that_drew_nothing_holds_no_frame_back(fake: FakeTime, in_app: object) -> None:
    """A tick that found nothing to draw does not count as a frame: the
    refresh asked for just after it is drawn at once, not an interval later."""
    drawing = [False]
    ticks = Ticks(fake, lambda: drawing[0])
    timer = await _started(frame_timer(fake, ticks), ticks)
    await ask(fake, timer, 100.0)
    assert ticks.at == [100.0]
    drawing[0] = True
    await ask(fake, timer, 100.002)
    assert ticks.at[-1] == 100.002
    await ask(fake, timer, 100.004)  # this time the frame before drew: wait for the interval
    await fake.run_until(100.1)
    assert ticks.at[-1] == pytest.approx(100.002 + INTERVAL)
    timer.stop()


async def test_asked_all_the_time_it_draws_at_the_frame_rate(fake: FakeTime, in_app: object) -> None:
    ticks = Ticks(fake)
    timer = await _started(frame_timer(fake, ticks), ticks)
    at = 100.0
    while at < 101.0:
        await ask(fake, timer, at)
        at += 0.001  # a refresh asked for every millisecond
    gaps = [b - a for a, b in zip(ticks.at, ticks.at[1:], strict=False)]
    assert 59 <= len(ticks.at) <= 61
    assert min(gaps) >= INTERVAL - 1e-9
    assert max(gaps) <= INTERVAL + 0.001 + 1e-9  # the next millisecond's ask after the interval ran out
    timer.stop()


async def test_the_reader_draws_with_the_frame_timer(tmp_path: Path) -> None:
    """The reader's screen is drawn by a `FrameTimer`, and draws each key right:
    the list's cursor and the review it previews, a search typed and cleared."""
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        timer = app.screen._update_timer
        assert isinstance(timer, FrameTimer)
        assert timer._interval == UPDATE_PERIOD
        listing = app.query_one(ReviewList)

        before = timer.last_drawn
        await pilot.press("j")
        await pilot.pause()
        assert timer.last_drawn > before  # the key's frame counted
        assert 0 < timer.wait(timer.last_drawn + 0.003) <= UPDATE_PERIOD
        assert timer.wait(timer.last_drawn + UPDATE_PERIOD) == 0
        title = listing.reviews[listing.highlighted or 0].title
        assert title[:10] in screen_text(app)

        await pilot.press("k", "j", "k")  # faster than the frame rate: each frame waits its turn
        await pilot.pause()
        assert listing.highlighted == 0
        assert listing.reviews[0].title[:10] in screen_text(app)

        word = listing.reviews[1].title.split()[0]
        await pilot.press("slash", *word)
        await pilot.pause()
        assert app.reader.filters.query == word
        shown = screen_text(app)
        assert f"Filter: /{word}  {len(listing.reviews)} reviews" in shown
        assert all(review.title[:10] in shown for review in listing.reviews[:3])
        await pilot.press("escape")
        await pilot.pause()
        assert not app.reader.filters.query
        assert f"Filter: none  {len(listing.reviews)} reviews" in screen_text(app)
