"""The screen drawn once per key: its update timer paced by the frames it
drew (`FrameTimer`), and a screen laid out and drawn once per key
(`OneFrameScreen`). See the package's index (tui/ui/patches/__init__.py) for
the tests beside each."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable

from textual import _time, events
from textual.geometry import Size
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.timer import EventTargetGone, Timer, TimerCallback
from textual.widget import Widget

from tui import runtime


class FrameTimer(Timer):
    """A timer that ticks when resumed, at most once a frame interval
    (`interval`) for ticks that drew (its callback says: `drew()`).

    Textual's screen update timer is an interval timer paused between frames:
    its ticks stay on a grid laid from the moment it first started, and after
    a tick that came late (resumed long after the grid's point: the first
    frame after a pause in the input) it skips to the grid's point after the
    next one. A frame asked for within ~33 ms of such a tick (the search's
    answer after the box's own frame, a key right after a busy frame) waited
    one to two intervals (17-33 ms) for it, even when the frame before had
    begun long enough ago. Here the next tick is due one interval after the
    last tick that drew, or at once if that is past: never more often than
    the frame rate, never more than one interval after the ask. A tick that
    drew nothing does not count: one with only a hidden widget to refresh
    (the search box's, as `/` came) held the frame that showed the box back
    by an interval.

    Its callback must pause it (the screen's `_on_timer_update` does, first
    thing); `reset()` is not supported. `clock` and `sleep` are Textual's
    (`textual._time.get_time`, asyncio's sleep), given for tests. (Overrides
    the private `Timer._run`, textual is pinned exactly;
    tests/ui/test_frame_timer.py fails if this stops working.)"""

    def __init__(
        self,
        event_target: MessagePump,
        interval: float,
        *,
        name: str,
        callback: TimerCallback,
        pause: bool = True,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        super().__init__(event_target, interval, name=name, callback=callback, pause=pause)
        self._clock = clock or (lambda: _time.get_time())
        self._sleep = sleep
        self.last_drawn = -math.inf
        """When the last tick that drew began (the clock's seconds)."""
        self._began: float | None = None
        """When the tick under way began (None: none is)."""

    def wait(self, now: float) -> float:
        """Seconds from `now` until a tick may run (0: at once)."""
        return max(0.0, self.last_drawn + self._interval - now)

    def drew(self) -> None:
        """A frame was drawn: by the tick under way, or (a resize) by none."""
        self.last_drawn = self._clock() if self._began is None else self._began

    async def _run(self) -> None:
        self._active  # made in this task, as Timer._run does  # noqa: B018
        count = 0
        while True:
            await self._active.wait()
            now = self._clock()
            wait = self.wait(now)
            if wait > 0:
                await self._sleep(wait)
                continue  # paused meanwhile, or due now
            count += 1
            self._began = now
            try:
                await self._tick(next_timer=now, count=count)
            except EventTargetGone:
                break
            finally:
                self._began = None
            if self._active.is_set():  # a callback that did not pause it: an interval timer
                await self._sleep(self._interval)


class OneFrameScreen(Screen[None]):
    """A screen styled once as it first shows, that draws a key's whole effect
    in one frame, as soon as one may be drawn."""

    _frame_timer: FrameTimer | None = None

    @property
    def _update_timer(self) -> Timer:
        """The timer that draws the screen: a `FrameTimer` in place of
        Textual's (`Screen._update_timer`, which every private method of the
        screen that draws or asks to draw goes through)."""
        if self._frame_timer is None:
            from textual.screen import UPDATE_PERIOD

            self._frame_timer = FrameTimer(
                self,
                UPDATE_PERIOD,
                name="screen_update",
                callback=self._on_timer_update,
            )
            self._frame_timer._start()
            self._timers.add(self._frame_timer)  # stopped with the screen, as `set_interval`'s are
        return self._frame_timer

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Do not style the whole screen a second time as it first shows.
        Textual styles each widget as it mounts, then all of them again (with
        every component class: 48 here) when a newly installed screen resumes,
        on the way to the first paint; a change made in between (a class, focus, the
        theme) restyles what it touches itself. Resuming after a screen above
        it closes does not restyle in Textual either, and this app never
        switches screens or modes.

        Textual calls this handler before Screen's own, which reads the flag.
        tests/perf_guards/test_start_up.py fails if this stops working. (The panes' scrollbars,
        which Textual's mount step does not style either, style themselves:
        tui/widgets/scrolling.Pane.)"""
        event.refresh_styles = False

    def _refresh_layout(self, size: Size | None = None, scroll: bool = False) -> None:
        """Lay the screen out once, and draw it once. While Textual lays the
        screen out it gives each widget its new size through reactives that ask
        for another layout and a repaint; so every layout that changed a size
        (the filter bar showing or hiding, a pane resized) would be followed by
        a second one and two more frames, a frame timer's tick apart, for the
        same picture.

        What a widget asked for while this layout ran is dropped when the
        layout already did it: the widget was laid out before (it was only
        resized), or it is new but fixed in size and holds nothing (the filter
        bar) or says that all it holds is fixed in size too (`FIXED_SIZE`: the
        search box, the first time `/` shows it). Any other new widget (the key
        panel, the code pane) keeps its requests: its size may depend on a
        first layout of its content. Requests made before this layout are left alone. (Overrides a
        private Textual method; textual is pinned exactly, and
        tests/perf_guards/test_frames.py and the key panel tests fail if this stops working.
        In tmux, the screen after bursts of such keys matched a full redraw.)"""
        laid_out = set(self._compositor.widgets)
        asked = {widget for widget in laid_out if widget._layout_required or widget._repaint_required}
        super()._refresh_layout(size, scroll)
        for widget, _ in self._compositor.layers:  # what it sized, scrollbars included
            if widget in asked:
                continue
            if widget in laid_out or not _sizes_itself(widget):
                widget._layout_required = widget._repaint_required = False

    async def _on_idle(self, event: events.Idle) -> None:
        """Draw a key's whole effect in one frame. Each widget the App refreshed
        while answering a key (the list, the review, the key bar, the scrollbars
        whose colours a focus change re-sets) tells this screen from its own
        task, and the first of them to arrive makes the screen idle: Textual
        then draws at once, and whatever arrives after waits for the frame
        timer's next tick. Two turns of the event loop let them all
        arrive before the frame (one was not enough for the scrollbars).
        (Overrides a private Textual method; textual is pinned exactly, and
        tests/perf_guards/test_frames.py fails if this stops working.)"""
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        await super()._on_idle(event)

    def _compositor_refresh(self) -> None:
        """Draw, and what waits for a frame once something was drawn: the frame
        timer paces frames by the ticks that drew; input holds the collector,
        and work run in slices (`runtime.input_first`), until its frame; a full
        collection that is due runs after it, once input has paused or right
        away if it is overdue (see tui/runtime.py). A refresh with nothing to
        draw does not count: a widget that was hidden and refreshed (the search
        box's, as `/` came) left the screen dirty, its refresh drew nothing,
        and the key's frame came after it. (Overrides a private Textual method,
        see `_on_idle`; tests/perf_guards/test_runtime.py and
        test_keys_before_slices.py fail if this stops working.)"""
        drawn = self is self.app.screen and bool(self._compositor._dirty_regions)
        super()._compositor_refresh()
        if not drawn:
            return
        if self._frame_timer is not None:  # (none before the first tick)
            self._frame_timer.drew()
        runtime.frame_drawn()
        if runtime.overdue():
            self.call_next(runtime.collect_full)
        elif runtime.full_due():
            self.call_next(self._collect_when_quiet)

    def _collect_when_quiet(self) -> None:
        if not runtime.waiting():
            return  # it fell overdue and ran after a frame meanwhile
        wait = runtime.quiet_left()
        if wait > 0:
            self.set_timer(wait, self._collect_when_quiet)  # a key came meanwhile: wait again
        else:
            runtime.collect_full()


def _sizes_itself(widget: Widget) -> bool:
    """May the widget's size depend on a first layout of its content? A
    widget that holds others may (the key panel, the code pane), unless it
    says that it and they are fixed in size (`FIXED_SIZE`: the search box)."""
    if widget.styles.auto_dimensions:
        return True
    if not widget._nodes:
        return False
    return not getattr(widget, "FIXED_SIZE", False) or any(_sizes_itself(child) for child in widget._nodes)
