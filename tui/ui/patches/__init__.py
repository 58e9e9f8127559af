"""Every override of private Textual API, in one place.

Textual is pinned exactly (pyproject.toml): each of these leans on how
Textual 8.2.8 works inside, and the test named beside it fails if an upgrade
changes that. Nothing else in the package overrides or calls a private
Textual method or attribute.

- `set_virtual_size`: a line-API pane's content height changes without laying
  out the screen (`ScrollView._scroll_update`). tests/perf_guards/test_redraw.py.
- `KeptBar`: a scrollbar's last drawings kept by its looks (`_styles_cache`),
  a new one made of lines Textual drew before (`_render_content`,
  `_render_cache`). tests/perf_guards/test_redraw.py, tests/ui/test_kept_bar.py,
  the snapshots.
- `StyledPane`: scrollbars styled as Textual makes them (`_vertical_scrollbar`,
  `App._start_widget`), component classes styled once per stylesheet
  (`ComponentsStyledOnce`, `_get_component_classes`, also the filter line's). tests/perf_guards/test_frames.py, tests/perf_guards/test_styles_once.py.
- `OneFrameScreen`: not styled twice as it first shows (`ScreenResume.refresh_styles`),
  laid out and drawn once per key (`_refresh_layout`, `_on_idle`, `_dirty_widgets`,
  `_layout_required`). tests/perf_guards/test_start_up.py, tests/perf_guards/test_frames.py,
  tests/perf_guards/test_runtime.py.
- `FrameTimer`: the screen's update timer (`Screen._update_timer`, `Timer._run`,
  `Timer._tick`, `_timers`) paced by the frames it drew, not by a fixed grid of
  ticks. tests/ui/test_frame_timer.py.
- `quiet_input`: an `Input` whose text changing width does not lay the screen
  out (`Input._watch_value`, `ScrollView._scroll_update`). tests/perf_guards/test_search_frames.py.
- `KeptLines` (tui/ui/patches/lines.py): a pane's lines styled once per look
  (`StylesCache.render_line`), for every `StyledPane` and `KeptBar`. tests/ui/test_kept_lines.py.
- `lazy_strip_caches` (tui/ui/patches/strips.py): a `Strip`'s seven caches made
  when first used (`Strip.__init__`); installed when this package is first
  imported. tests/ui/test_kept_lines.py.
- `KeptStylesheet` (tui/ui/patches/kept_styles.py): the stylesheet's parsed
  rules taken from the last start's (`Stylesheet._parse_rules`, `_variables`).
  tests/ui/test_kept_styles.py.
- `survives_hang_up`: the Linux driver's output file wrapped (`_file`) and its
  SIGCONT handler (`_sigcont_application`, `_must_signal_resume`) kept to real
  resumes, so a terminal that hung up cannot hold the reader. tests/hostile/test_signals.py.
"""

from __future__ import annotations

import asyncio
import functools
import math
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Self

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual import _time, events
from textual.driver import Driver
from textual.geometry import Region, Size
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip
from textual.timer import EventTargetGone, Timer, TimerCallback
from textual.widget import Widget

from tui import runtime
from tui.ui.patches.lines import KeptLines
from tui.ui.patches.strips import lazy_strip_caches
from tui.ui.signals import TerminalOutput

if TYPE_CHECKING:
    from textual.widgets import Input

lazy_strip_caches()


def set_virtual_size(view: ScrollView, size: Size) -> None:
    """`Widget.virtual_size` is a reactive with `layout=True`: every change lays
    out the whole screen and repaints all of it. For our line-API panes it
    changes on nearly every key (each review has its own height, each tag its
    own list), yet the pane's own size does not move. What a layout would do for
    a `ScrollView` is refresh its scrollbars (`ScrollView._size_updated` calls
    `_scroll_update`), so this does just that, and the pane repaints alone. When
    a scrollbar appears or disappears, `_refresh_scrollbars` changes its
    `display`, and that still asks for the layout it needs."""
    if size == view.virtual_size:
        return
    view.set_reactive(ScrollView.virtual_size, size)
    if view.is_attached and view.container_size:
        view._scroll_update(size)
    else:
        view.refresh(layout=True)  # not laid out yet: let the first layout size it
    view.refresh()


class KeptBar(ScrollBar):
    """A scrollbar that keeps its last few drawings, by what it looks like,
    and draws a new one from the lines it drew before.

    Kept drawings: `/` and escape took a row from the panes and gave it back,
    and each time both panes' bars (~70 lines) were drawn anew for one of the
    same two pictures (~2-3 ms at 120x40). `looks` says what a drawing
    depends on. A drawing is kept only when each of its lines was just drawn
    (`render_line`); one handed out from here drops what Textual's own cache
    of the bar's lines holds (`_styles_cache`, private), which was drawn for
    another look.

    A new drawing (a search's count moves the thumb on most typed
    characters): a vertical bar's line is one segment of
    `ScrollBarRender.render_bar` (a blank above or below the thumb, the
    thumb, or one of its two ends), and Textual draws it the same wherever it
    is. So the bar's segments are worked out (~40 µs) and each line is the
    one Textual drew for that segment before, in the same look
    (`_content_look`); only a segment not seen yet has Textual draw the whole
    bar (`Widget._render_content` and its `_render_cache`, private), through
    Rich (~0.4-0.8 ms a bar).

    (textual is pinned exactly; tests/perf_guards/test_redraw.py, the
    snapshots and tests/ui/test_kept_bar.py, which compares every drawing
    with Textual's own, fail if this stops working.) Its lines are styled by
    `KeptLines`: a thumb that moves leaves most of them as they were."""

    KEPT = 4
    KEPT_CONTENT = 64
    """Content lines kept: a look's ~20 kinds of segment (two blanks, the
    thumb, and each of its ends' seven glyphs), for a few looks."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._styles_cache = KeptLines()
        self._content: dict[tuple[object, ...], Strip] = {}

    def looks(self) -> tuple[object, ...]:
        raise NotImplementedError

    _kept: dict[tuple[object, ...], list[Strip]] | None = None
    _drawing = False
    """Whether `render_lines` is drawing the bar anew."""
    _segments: list[Segment] | None = None
    """The drawing's segments, a line each, once its first line is asked for
    (None: drawn by Textual alone)."""
    _drawn = 0
    """How many lines of the drawing `render_line` made."""
    _textual_drew = False
    """Whether Textual drew the whole bar for the drawing."""
    _look: tuple[object, ...] = ()
    """The drawing's `_content_look`."""

    def render_lines(self, crop: Region) -> list[Strip]:
        looks = self.looks()
        key = (looks, crop, tuple(self.get_line_filters()))
        kept = self._kept if self._kept is not None else {}
        self._kept = kept
        strips = kept.pop(key, None)
        if strips is not None:
            self._styles_cache.clear()
            self.shown(looks)
        else:
            self._drawing, self._segments, self._drawn, self._textual_drew = True, None, 0, False
            try:
                strips = super().render_lines(crop)
            finally:
                self._drawing, self._segments = False, None
            if not (self._drawn == crop.height and crop == self.size.region):
                return strips
        kept[key] = strips  # the newest last
        while len(kept) > self.KEPT:
            del kept[next(iter(kept))]
        return list(strips)

    def render_line(self, y: int) -> Strip:
        if not self._drawing:
            return super().render_line(y)
        self._drawn += 1
        segments = self._segments
        if segments is None:
            segments = self._segments = self._bar_segments()
            self._look = self._content_look()
        if not 0 <= y < len(segments):  # not one segment a line: Textual's drawing
            if not self._textual_drew:
                self._render_content()
                self._textual_drew = True
            return super().render_line(y)
        look = self._look
        content = self._content.get((segments[y], look))
        if content is None:
            self._render_content()  # Textual's drawing of the whole bar
            self._textual_drew = True
            lines = self._render_cache.lines
            if len(lines) != len(segments):
                self._segments = []
                return super().render_line(y)
            for segment, line in zip(segments, lines, strict=True):
                self._content[(segment, look)] = line
            while len(self._content) > self.KEPT_CONTENT:
                del self._content[next(iter(self._content))]
            content = lines[y]
        return content

    def _bar_segments(self) -> list[Segment]:
        """The bar's lines as segments, one a line, as `ScrollBarRender`
        draws them from what `render` gives it; none for a horizontal bar, a
        renderer of another kind or a selection (drawn by Textual alone)."""
        bar = self.render()
        width, height = self.size
        if (
            not self.vertical
            or self.text_selection is not None
            or not isinstance(bar, ScrollBarRender)
            or not isinstance(bar.style, RichStyle)
        ):
            return []
        style = bar.style
        drawn = bar.render_bar(  # as ScrollBarRender.__rich_console__ calls it
            size=height,
            virtual_size=bar.virtual_size,
            window_size=bar.window_size,
            position=bar.position,
            thickness=width,
            vertical=True,
            back_color=style.bgcolor or RichColor.parse("#555555"),
            bar_color=style.color or RichColor.parse("bright_magenta"),
        )
        return list(drawn.segments)

    def _content_look(self) -> tuple[object, ...]:
        """What Textual's drawing of a line reads besides its segment."""
        return (self.size.width, self.visual_style, self.auto_links, self.link_style)

    def shown(self, looks: tuple[object, ...]) -> None:
        """A kept drawing of `looks` is on screen now."""


if TYPE_CHECKING:
    _Mixin = Widget
else:
    _Mixin = object  # a Widget base would hide the widget's own bases' CSS from Textual


class ComponentsStyledOnce(_Mixin):
    """A widget whose component classes are styled again only when the
    stylesheet changes: mixed in before the widget's Textual class (Textual
    takes default CSS from the first base that is a widget)."""

    _components_styled_by: object = None
    """The stylesheet's rules map the component classes were last styled with."""

    def _get_component_classes(self) -> frozenset[str]:  # type: ignore[override]  # Textual's returns set[str]; callers iterate
        """Textual styles a widget's component classes anew (a throwaway DOM
        node for each) every time it styles the widget: on each focus change,
        so each enter and escape would do it for two panes' 39 classes, and
        leave most of that key's cyclic garbage; each filter key, for the
        filter line's 5 (its `-filtering` class). Our component rules
        (app.tcss, `Pane > .class`) hang on the stylesheet alone, never on
        the widget's classes or state, so they are styled again only when the
        stylesheet's rules change (a theme switch parses them anew) or the
        widget lost them (unmounted). The colours they resolve to are worked
        out when asked for (`get_component_rich_style`), over the widget's
        background then. (Overrides a private Textual method; textual is
        pinned exactly, and tests/perf_guards/test_styles_once.py fails if
        this stops working.)"""
        rules = self.app.stylesheet.rules_map
        if rules is self._components_styled_by and self._component_styles:
            return frozenset()
        self._components_styled_by = rules
        return super()._get_component_classes()

    def style_components_ahead(self) -> None:
        """Style the component classes now, between frames, if the stylesheet
        changed since they were styled: the rules it gains after the first
        frame (the search box's `Input`, mounted then) would otherwise be
        worked out by the widget's next restyle, in a key's frame (the
        filter line's first `-filtering`: ~1.5-5 ms of the first filter key or
        character typed). (Calls `Stylesheet._process_component_classes`,
        private; see `_get_component_classes`.)"""
        if self.is_attached and self.app.stylesheet.rules_map is not self._components_styled_by:
            self.app.stylesheet._process_component_classes(self)


class StyledPane(ComponentsStyledOnce, ScrollView):
    """A scroll view whose scrollbars are styled when Textual makes them, and
    whose component classes are styled again only when the stylesheet changes.

    Textual makes a scrollbar when it first shows (in a layout) but styles it
    only when its widget is next restyled: the first focus change then changed
    the bar's rules, laid the whole screen out and drew a second frame a frame
    timer's tick after the first (shift+tab to the tag list, at start-up).
    Styled here, the restyle finds nothing changed. The layout that makes the
    bar is asked for one more layout (its rules set), right after it.

    Its lines are styled by `KeptLines`: a content line drawn again as it was
    is not styled, filtered and cut anew."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._styles_cache = KeptLines()

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        if self._vertical_scrollbar is None:
            self._vertical_scrollbar = self._made_bar(vertical=True)
        return self._vertical_scrollbar

    @property
    def horizontal_scrollbar(self) -> ScrollBar:
        if self._horizontal_scrollbar is None:
            self._horizontal_scrollbar = self._made_bar(vertical=False)
        return self._horizontal_scrollbar

    BAR: type[ScrollBar] = ScrollBar
    """The scrollbars' class."""

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        """Tell the pane of its new size while the screen is laid out, not by
        the Resize event Textual posts after it: the list's content height
        depends on its own height (`ReviewList._virtual_height`), and set from
        the event it was drawn a second time, a frame timer's tick after the
        layout's frame (`/` and escape in the search box, which move the panes'
        bottom edge by a row). And keep the lines a change of height alone
        leaves as they were. (Overrides a private Textual method, called
        from `Screen._refresh_layout` for each widget laid out, and reads and
        fills Textual's private cache of a widget's lines, `_styles_cache`;
        textual is pinned exactly, and tests/perf_guards/test_frames.py and
        tests/ui/test_kept_answers.py fail if this stops working.)"""
        old = self._size
        lines = self._styles_cache
        kept = dict(lines._cache) if old.width == size.width and old.height != size.height else None
        dirty = set(lines._dirty_lines)
        scroll, refreshes = self.scroll_offset, self._refreshes
        resized = super()._size_updated(size, virtual_size, container_size, layout)
        if resized and self.is_attached and container_size:
            self.sized()
        if kept and resized and self.scroll_offset == scroll and self._refreshes == refreshes:
            # Only the height changed, and nothing else since these lines were
            # drawn: above the bottom edge (its border and padding) of the
            # shorter of the two sizes they are as they were. Textual dropped
            # them all; the review pane redrew ~37 lines for `/` and escape.
            above = min(old.height, size.height) - self.styles.gutter.bottom
            for y, strip in kept.items():
                if y < above and y not in dirty:
                    lines._cache[y] = strip
                    lines._dirty_lines.discard(y)
        return resized

    def sized(self) -> None:
        """The pane's new size is set, during the layout that gave it."""

    _refreshes = 0
    """How many times the pane asked to be drawn again (see `_size_updated`)."""

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        if repaint or recompose:
            self._refreshes += 1
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _made_bar(self, *, vertical: bool) -> ScrollBar:
        """A bar made as Textual makes it (`Widget.vertical_scrollbar`), but a
        `BAR`, and styled at once."""
        bar = self.BAR(
            vertical=vertical,
            name="vertical" if vertical else "horizontal",
            thickness=self.scrollbar_size_vertical if vertical else self.scrollbar_size_horizontal,
        )
        bar.display = False
        self.app._start_widget(self, bar)
        self.app.stylesheet.apply(bar)
        return bar


class FrameTimer(Timer):
    """A timer that ticks when resumed, at most once a frame interval
    (`interval`) for ticks that had work (`needed()` as they began).

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
    found nothing to do does not count.

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
        needed: Callable[[], bool],
        pause: bool = True,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        super().__init__(event_target, interval, name=name, callback=callback, pause=pause)
        self._needed = needed
        self._clock = clock or (lambda: _time.get_time())
        self._sleep = sleep
        self.last_drawn = -math.inf
        """When the last tick that had work began (the clock's seconds)."""

    def wait(self, now: float) -> float:
        """Seconds from `now` until a tick may run (0: at once)."""
        return max(0.0, self.last_drawn + self._interval - now)

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
            if self._needed():
                self.last_drawn = now
            count += 1
            try:
                await self._tick(next_timer=now, count=count)
            except EventTargetGone:
                break
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
                needed=self._frame_needed,
            )
            self._frame_timer._start()
            self._timers.add(self._frame_timer)  # stopped with the screen, as `set_interval`'s are
        return self._frame_timer

    def _frame_needed(self) -> bool:
        """Will the update timer's tick draw (`Screen._on_timer_update`'s test)?"""
        return (
            self.is_current
            and not self.app._batch_count
            and bool(
                self._layout_required
                or self._scroll_required
                or self._repaint_required
                or self._recompose_required
                or self._dirty_widgets
            )
        )

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

        A full garbage collection that is due runs after that frame, once
        input has paused or right away if it is overdue (see tui/runtime.py),
        not before it.
        (Overrides a private Textual method; textual is pinned exactly, and
        tests/perf_guards/test_frames.py and test_runtime.py fail if this stops working.)"""
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        frame_coming = self._dirty_widgets or self._layout_required or self._repaint_required
        if frame_coming:
            if runtime.overdue():
                self.call_after_refresh(runtime.collect_full)
            elif runtime.full_due():
                self.call_after_refresh(self._collect_when_quiet)
        await super()._on_idle(event)

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


@functools.cache
def quiet_input() -> type[Input]:
    """`QuietInput`, an `Input` that lays out only itself as its text grows or
    shrinks. Textual's `Input._watch_value` sets `virtual_size` (a reactive
    with `layout=True`) to the text's width on every change: each character
    typed in the search box laid the whole screen out (~8 ms at 100,000
    reviews). Set first as `set_virtual_size` does for the panes, the same
    assignment then changes nothing. Made on first use: `Input` is imported
    after the first frame (tui.ui.widgets.search_bar). (Overrides a private
    Textual method; textual is pinned exactly, and
    tests/perf_guards/test_search_frames.py fails if this stops working.)"""
    from textual.widgets import Input

    class QuietInput(Input):
        def _watch_value(self, value: str) -> None:
            set_virtual_size(self, Size(self.content_width, 1))
            super()._watch_value(value)

    return QuietInput


def survives_hang_up(driver_class: type[Driver]) -> type[Driver]:
    """`driver_class` (the one Textual chose), its output wrapped so that a
    terminal that hung up cannot end it (see the module's docstring); a driver
    that does not write through a file of its own is returned as it is.

    Reaches into Textual's LinuxDriver: a private attribute (`_file`, the
    file its output thread writes to) and a private method (its SIGCONT
    handler); textual is pinned exactly."""
    from textual.drivers.linux_driver import LinuxDriver

    if not issubclass(driver_class, LinuxDriver):
        return driver_class

    class HangUpSafeDriver(driver_class):  # type: ignore[misc, valid-type]  # a class chosen at run time
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)
            self._file = TerminalOutput(self._file)  # type: ignore[has-type, arg-type]  # Textual's private output file

        def _sigcont_application(self, *args: object) -> None:
            """Resume only after a suspend (ctrl+z: `_sigtstp_application`).
            A hang-up sends SIGCONT too, and Textual would start a second
            application mode on the dead terminal: a second input thread,
            which nothing stops, and the process never ends."""
            if self._must_signal_resume:
                super()._sigcont_application(*args)

    return HangUpSafeDriver
