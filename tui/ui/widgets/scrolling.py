"""Our line-API panes' scroll views: scrollbars styled as they are made
(`tui.ui.patches.StyledPane`) and redrawn only when they change, component
classes styled once per stylesheet; `set_virtual_size` changes a content
height without laying out the screen (it is in `tui.ui.patches`).
"""

from __future__ import annotations

from typing import Self

from rich.console import RenderableType
from textual.geometry import Region
from textual.scrollbar import ScrollBar

from tui.ui.patches import StyledPane, set_virtual_size


class PaneScrollBar(ScrollBar):
    """A scrollbar that skips a redraw which would draw it as it is.

    Textual redraws a widget's scrollbars each time it restyles the widget,
    whether or not their colours changed (`ScrollbarColorProperty` refreshes
    them on every set): each focus move (enter, escape, tab) redrew both
    panes' bars, ~60 lines, ~2 ms and ~500 objects of cyclic garbage. A whole
    refresh is skipped when everything `ScrollBar.render` reads is as it was
    when the bar was last drawn. (tests/perf_guards/test_redraw.py checks that focus moves
    leave the bars alone, and that a theme, a scroll and a resize redraw them.)"""

    _drawn_as: tuple[object, ...] | None = None

    def _looks(self) -> tuple[object, ...]:
        parent = self.parent
        assert parent is not None
        styles = parent.styles
        return (
            self.size,
            self.window_virtual_size,
            self.window_size,
            self.position,
            self.thickness,
            self.mouse_over,
            self.grabbed is not None,
            styles.scrollbar_background,
            styles.scrollbar_color,
            styles.scrollbar_background_hover,
            styles.scrollbar_color_hover,
            styles.scrollbar_background_active,
            styles.scrollbar_color_active,
            parent.background_colors,
            self.screen.styles.scrollbar_color,
        )

    def render(self) -> RenderableType:
        self._drawn_as = self._looks()
        return super().render()

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        unchanged = (
            repaint
            and not (regions or layout or recompose)
            and self._drawn_as is not None
            and self.is_mounted
            and self.parent is not None
            and self._drawn_as == self._looks()
        )
        if unchanged:
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


class Pane(StyledPane):
    """Our line-API panes: `StyledPane` with scrollbars that skip redraws which
    would draw them as they are."""

    BAR = PaneScrollBar


__all__ = ["Pane", "PaneScrollBar", "set_virtual_size"]
