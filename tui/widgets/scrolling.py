"""Changing a scroll view's content height without laying out the screen.

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

from textual.geometry import Size
from textual.scroll_view import ScrollView


def set_virtual_size(view: ScrollView, size: Size) -> None:
    if size == view.virtual_size:
        return
    view.set_reactive(ScrollView.virtual_size, size)
    if view.is_attached and view.container_size:
        view._scroll_update(size)
    else:
        view.refresh(layout=True)  # not laid out yet: let the first layout size it
    view.refresh()
