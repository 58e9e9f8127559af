"""Screens whose key bar and key panel speak the UI's language.

The key bar (`tui.ui.widgets.key_bar`) and Textual's key panel draw `screen.active_bindings`: the bindings
with the descriptions written in the code. Here each is swapped for the words
of the chosen language, looked up by binding id (`words.binding_text`), when
they are asked for; key dispatch is untouched, and remapped keys (the keymap)
show as remapped.
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from textual import events
from textual.binding import ActiveBinding
from textual.geometry import Size
from textual.reactive import Reactive
from textual.screen import ModalScreen, Screen
from textual.widget import Widget

from tui import runtime
from tui.i18n import words


def css_file(name: str) -> str:
    """A screen's styles, from a .tcss file beside this one, for its DEFAULT_CSS.

    The to-do and problems views are opened now and then; their rules in the
    app's stylesheet were parsed at every start (~1 ms). As DEFAULT_CSS they are
    parsed when the view is first opened, and only they are: a screen's
    CSS_PATH would have Textual parse the whole stylesheet again and restyle
    every widget then (~15 ms). (Default CSS is scoped to the screen and ranks
    below the app's stylesheet, which does not style these views.)"""
    return (Path(__file__).parent / name).read_text(encoding="utf-8")


def translated(bindings: dict[str, ActiveBinding]) -> dict[str, ActiveBinding]:
    out = {}
    for key, active in bindings.items():
        binding = active.binding
        description, tooltip = words().binding_text(binding.id, binding.description, binding.tooltip)
        if description != binding.description or tooltip != binding.tooltip:
            binding = dataclasses.replace(binding, description=description, tooltip=tooltip)
            active = active._replace(binding=binding, tooltip=tooltip)
        out[key] = active
    return out


class TranslatedBindings:
    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return translated(super().active_bindings)  # type: ignore[misc]  # a mixin: super() is the Screen


class MainScreen(TranslatedBindings, Screen[None]):
    """The reader's screen: the app composes into it."""

    # The review list has focus at start: focusing the first focusable widget
    # (the tag list) and then the list restyled both, ~3 ms of the first paint.
    AUTO_FOCUS = "#reviews"

    # Textual repaints the whole screen when focus moves (`focused` repaints by
    # default), though the widgets whose :focus style changed refresh themselves.
    # On this screen focus moves with every enter and escape.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Do not style the whole screen a second time as it first shows.
        Textual styles each widget as it mounts, then all of them again (with
        every component class: 48 here) when a newly installed screen resumes,
        ~6 ms of the first paint; a change made in between (a class, focus, the
        theme) restyles what it touches itself. Resuming after a screen above
        it closes does not restyle in Textual either, and this app never
        switches screens or modes.

        Textual calls this handler before Screen's own, which reads the flag.
        tests/test_start_up.py fails if this stops working. (The panes' scrollbars,
        which Textual's mount step does not style either, style themselves:
        tui/widgets/scrolling.Pane.)"""
        event.refresh_styles = False

    def _refresh_layout(self, size: Size | None = None, scroll: bool = False) -> None:
        """Lay the screen out once, and draw it once. While Textual lays the
        screen out it gives each widget its new size through reactives that ask
        for another layout and a repaint; so every layout that changed a size
        (the filter bar showing or hiding, a pane resized) was followed by a
        second one and two more frames, 17-33 ms apart, for the same picture:
        50-70 ms from a tag switch to its last frame.

        What a widget asked for while this layout ran is dropped when the
        layout already did it: the widget was laid out before (it was only
        resized), or it is new but fixed in size and has no children (the
        filter bar). A new widget that sizes itself or holds others (the key
        panel) keeps its requests: its size may depend on a first layout of its
        content. Requests made before this layout are left alone. (Overrides a
        private Textual method; textual is pinned exactly, and
        tests/test_frames.py and the key panel tests fail if this stops working.
        In tmux, the screen after bursts of such keys matched a full redraw.)"""
        laid_out = set(self._compositor.widgets)
        asked = {widget for widget in laid_out if widget._layout_required or widget._repaint_required}
        super()._refresh_layout(size, scroll)
        for widget, _ in self._compositor.layers:  # what it sized, scrollbars included
            if widget in asked:
                continue
            if widget in laid_out or (not widget._nodes and not widget.styles.auto_dimensions):
                widget._layout_required = widget._repaint_required = False

    async def _on_idle(self, event: events.Idle) -> None:
        """Draw a key's whole effect in one frame. Each widget the App refreshed
        while answering a key (the list, the review, the key bar, the scrollbars
        whose colours a focus change re-sets) tells this screen from its own
        task, and the first of them to arrive makes the screen idle: Textual
        then draws at once, and whatever arrives after waits for a frame that
        its timer puts 17-33 ms later. Two turns of the event loop let them all
        arrive before the frame (one was not enough for the scrollbars).

        A full garbage collection that is due runs after that frame, once
        input has paused or right away if it is overdue (see tui/runtime.py),
        not before it.
        (Overrides a private Textual method; textual is pinned exactly, and
        tests/test_frames.py and test_runtime.py fail if this stops working.)"""
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


class TranslatedModal(TranslatedBindings, ModalScreen[None]):
    pass
