"""Our line-API panes' scroll views: scrollbars styled as they are made
(`tui.ui.patches.StyledPane`) and redrawn only when they change, component
classes styled once per stylesheet and their rich styles kept until it changes,
one way to draw a cursor with or without colour; `set_virtual_size` changes a
content height without laying out the screen (it is in `tui.ui.patches`).
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple, Self

from rich.console import RenderableType
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.strip import Strip

from tui.ui.patches import KeptBar, StyledPane, set_virtual_size
from tui.ui.widgets.kept_styles import KeptStyles


class PaneScrollBar(KeptBar):
    """A scrollbar that skips a redraw which would draw it as it is.

    Textual redraws a widget's scrollbars each time it restyles the widget,
    whether or not their colours changed (`ScrollbarColorProperty` refreshes
    them on every set): each focus move (enter, escape, tab) would redraw both
    panes' bars, ~60 lines, and leave cyclic garbage. A whole
    refresh is skipped when everything `ScrollBar.render` reads is as it was
    when the bar was last drawn. (tests/perf_guards/test_redraw.py checks that focus moves
    leave the bars alone, and that a theme, a scroll and a resize redraw them.)"""

    _drawn_as: tuple[object, ...] | None = None

    def looks(self) -> tuple[object, ...]:
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
        self._drawn_as = self.looks()
        return super().render()

    def shown(self, looks: tuple[object, ...]) -> None:
        self._drawn_as = looks

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        unchanged = (
            repaint
            and not (regions or layout or recompose)
            and self._drawn_as is not None
            and self.is_mounted
            and self.parent is not None
            and self._drawn_as == self.looks()
        )
        if unchanged:
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


_REVERSED = Style(reverse=True)
_REVERSED_BOLD = Style(reverse=True, bold=True)


SIDEWAYS = frozenset({"scroll_left", "scroll_right", "page_left", "page_right"})
"""Textual's scroll keys that our panes leave out: their lines are wrapped or
cut to the pane's width, so there is nothing to scroll sideways, and the keys
panel (`?`) would list ←, →, ctrl+pageup and ctrl+pagedown as keys that do
nothing."""


class Placed(NamedTuple):
    """Where a pane's content is: its width and the scroll."""

    width: int
    x: int
    y: int


class Pane(KeptStyles, StyledPane, inherit_bindings=False):
    """Our line-API panes: `StyledPane` with scrollbars that skip redraws which
    would draw them as they are, and component styles kept as rich styles
    (`KeptStyles`). Its keys are Textual's scroll keys but the sideways ones
    (`SIDEWAYS`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        binding
        for binding in ScrollableContainer.BINDINGS
        if isinstance(binding, Binding) and binding.action not in SIDEWAYS
    ]

    BAR = PaneScrollBar

    def cursor_over(self, name: str = "cursor") -> Style:
        """What a cursor lays over a row's own styles: the background of
        component `name`; with NO_COLOR reverse video, as a background would not
        show."""
        return _REVERSED if self.app.no_color else Style(bgcolor=self.style_of(name).bgcolor)

    def cursor_style(self, name: str = "cursor") -> Style:
        """A cursor row's whole style: component `name`'s; with NO_COLOR reverse
        video and bold."""
        return _REVERSED_BOLD if self.app.no_color else self.style_of(name)

    _placed: Placed | None = None
    """`placed` while the pane draws its lines (`render_lines`)."""

    def placed(self) -> Placed:
        """The content's width and the scroll, read once for all the lines
        drawn together: each read of `scrollable_content_region` and
        `scroll_offset` walks the pane's styles and scrollbars, ~70% of what
        a kept line cost (~0.3 ms of a 40-line pane's frame). Drawing moves
        neither."""
        placed = self._placed
        if placed is None:
            x, y = self.scroll_offset
            placed = Placed(self.scrollable_content_region.width, x, y)
        return placed

    def render_lines(self, crop: Region) -> list[Strip]:
        self._placed = None
        self._placed = self.placed()
        try:
            return super().render_lines(crop)
        finally:
            self._placed = None


__all__ = ["Pane", "PaneScrollBar", "set_virtual_size"]
