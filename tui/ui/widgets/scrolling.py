"""Our line-API panes' scroll views: changing a content height without laying
out the screen, scrollbars styled as they are made and redrawn only when they
change, and component classes styled once per stylesheet.

`Widget.virtual_size` is a reactive with `layout=True`: every change lays out
the whole screen and repaints all of it. For our line-API panes it changes on
nearly every key (each review has its own height, each tag its own list), yet
the pane's own size does not move. What a layout would do for a `ScrollView`
is refresh its scrollbars (`ScrollView._size_updated` calls `_scroll_update`),
so this does just that, and the pane repaints alone. When a scrollbar appears
or disappears, `_refresh_scrollbars` changes its `display`, and that still
asks for the layout it needs. (Private Textual API: textual is pinned exactly.)
"""

from __future__ import annotations

from typing import Self

from rich.console import RenderableType
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar


def set_virtual_size(view: ScrollView, size: Size) -> None:
    if size == view.virtual_size:
        return
    view.set_reactive(ScrollView.virtual_size, size)
    if view.is_attached and view.container_size:
        view._scroll_update(size)
    else:
        view.refresh(layout=True)  # not laid out yet: let the first layout size it
    view.refresh()


class PaneScrollBar(ScrollBar):
    """A scrollbar that skips a redraw which would draw it as it is.

    Textual redraws a widget's scrollbars each time it restyles the widget,
    whether or not their colours changed (`ScrollbarColorProperty` refreshes
    them on every set): each focus move (enter, escape, tab) redrew both
    panes' bars, ~60 lines, ~2 ms and ~500 objects of cyclic garbage. A whole
    refresh is skipped when everything `ScrollBar.render` reads is as it was
    when the bar was last drawn. (tests/test_redraw.py checks that focus moves
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


class Pane(ScrollView):
    """A scroll view whose scrollbars are styled when Textual makes them, and
    whose component classes are styled again only when the stylesheet changes.

    Textual makes a scrollbar when it first shows (in a layout) but styles it
    only when its widget is next restyled: the first focus change then changed
    the bar's rules, laid the whole screen out and drew a second frame 17-33 ms
    after the first (shift+tab to the tag list did, every time at start-up).
    Styled here, the restyle finds nothing changed. The layout that makes the
    bar is asked for one more layout (its rules set), right after it."""

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

    def _made_bar(self, *, vertical: bool) -> PaneScrollBar:
        """A bar made as Textual makes it (`Widget.vertical_scrollbar`), but a
        `PaneScrollBar`, and styled at once."""
        bar = PaneScrollBar(
            vertical=vertical,
            name="vertical" if vertical else "horizontal",
            thickness=self.scrollbar_size_vertical if vertical else self.scrollbar_size_horizontal,
        )
        bar.display = False
        self.app._start_widget(self, bar)
        self.app.stylesheet.apply(bar)
        return bar

    _components_styled_by: object = None
    """The stylesheet's rules map the component classes were last styled with."""

    def _get_component_classes(self) -> frozenset[str]:  # type: ignore[override]  # Textual's returns set[str]; callers iterate
        """Textual styles a widget's component classes anew (a throwaway DOM
        node for each) every time it styles the widget: on each focus change,
        so each enter and escape did it for two panes' 39 classes: ~3 ms, and
        ~1,500 objects of cyclic garbage, 60% of what such a key leaves for
        the collector. Our component rules (app.tcss, `Pane > .class`) hang on
        the stylesheet alone, never on the pane's classes or state, so they are
        styled again only when the stylesheet's rules change (a theme switch
        parses them anew) or the pane lost them (unmounted). (Overrides a
        private Textual method; textual is pinned exactly, and
        tests/test_styles_once.py fails if this stops working.)"""
        rules = self.app.stylesheet.rules_map
        if rules is self._components_styled_by and self._component_styles:
            return frozenset()
        self._components_styled_by = rules
        return super()._get_component_classes()
