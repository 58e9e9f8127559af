"""Every override of private Textual API, in this one package: its index.

Textual is pinned exactly (pyproject.toml): each of these leans on how
Textual 8.2.8 works inside, and the test named beside it fails if an upgrade
changes that. Nothing else in the package overrides or calls a private
Textual method or attribute.

Scroll views and scrollbars (tui/ui/patches/panes.py):
- `set_virtual_size`: a line-API pane's content height changes without laying
  out the screen (`ScrollView._scroll_update`). tests/perf_guards/test_redraw.py.
- `KeptBar`: a scrollbar's last drawings kept by its looks (`_styles_cache`),
  a new one made of lines Textual drew before (`_render_content`,
  `_render_cache`). tests/perf_guards/test_redraw.py, tests/ui/test_kept_bar.py,
  the snapshots.
- `StyledPane`: scrollbars styled as Textual makes them (`_vertical_scrollbar`,
  `App._start_widget`), component classes styled when first drawn and then
  once per stylesheet (`ComponentsStyledOnce`: `_get_component_classes`,
  `_component_styles`, also the filter line's).
  tests/perf_guards/test_frames.py, tests/perf_guards/test_styles_once.py.

The screen's frames (tui/ui/patches/frames.py):
- `OneFrameScreen`: not styled twice as it first shows (`ScreenResume.refresh_styles`),
  laid out and drawn once per key (`_refresh_layout`, `_on_idle`, `_dirty_widgets`,
  `_layout_required`), and says when it drew (`_compositor_refresh`,
  `_compositor._dirty_regions`). tests/perf_guards/test_start_up.py,
  tests/perf_guards/test_frames.py, tests/perf_guards/test_runtime.py,
  tests/perf_guards/test_keys_before_slices.py.
- `FrameTimer`: the screen's update timer (`Screen._update_timer`, `Timer._run`,
  `Timer._tick`, `_timers`) paced by the frames it drew, not by a fixed grid of
  ticks. tests/ui/test_frame_timer.py.

Elsewhere in the package:
- `quick_class_setup` (tui/ui/patches/class_setup.py): a widget class's
  reactives and compute methods found from its bases' own, read once
  (`DOMNode.__init_subclass__`, `_reactives`, `_computes`); installed when
  `tui.ui` is first imported, by this package's first import.
  tests/perf_guards/test_class_setup.py.
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

import functools
from typing import TYPE_CHECKING

from textual.driver import Driver
from textual.geometry import Size

from tui.ui.patches import class_setup  # first: it sets up the widget classes made below
from tui.ui.patches.frames import FrameTimer, OneFrameScreen
from tui.ui.patches.panes import ComponentsStyledOnce, KeptBar, StyledPane, set_virtual_size
from tui.ui.patches.strips import lazy_strip_caches
from tui.ui.signals import TerminalOutput

if TYPE_CHECKING:
    from textual.widgets import Input

lazy_strip_caches()

__all__ = [
    "ComponentsStyledOnce",
    "FrameTimer",
    "KeptBar",
    "OneFrameScreen",
    "StyledPane",
    "class_setup",
    "quiet_input",
    "set_virtual_size",
    "survives_hang_up",
]


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
