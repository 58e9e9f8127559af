"""A line-API list with one highlighted row: what the tag list and the review
list share. Keys and clicks move the highlight, which stays in view; enter, or
a click on the highlighted row, opens it. A subclass says where its rows lie
(a review is two lines, a tag as many as its label wraps to) and what choosing
and opening a row tell the App."""

from __future__ import annotations

from textual import events
from textual.reactive import reactive

from tui.ui.widgets.scrolling import Pane


class CursorList(Pane, can_focus=True):
    highlighted: reactive[int | None] = reactive(None, init=False, repaint=False)

    # -- what a subclass says ------------------------------------------------------

    def row_count(self) -> int:
        raise NotImplementedError

    def line_count(self) -> int:
        raise NotImplementedError

    def row_lines(self, index: int) -> tuple[int, int]:
        """The first line of row `index`, and the line after its last."""
        raise NotImplementedError

    def row_at(self, line: int) -> int:
        """The row on `line` (0 <= line < line_count())."""
        raise NotImplementedError

    def chosen(self) -> None:
        """The highlight moved: tell the App."""

    def action_open(self) -> None:
        raise NotImplementedError

    # -- shared --------------------------------------------------------------------

    def watch_highlighted(self, old: int | None, new: int | None) -> None:
        """Only the rows the highlight left and reached change, unless the list
        scrolled: redraw those, not every visible line (j/k in the review list
        would redraw its 20-odd lines, the tag list its 14 on each tag switch).
        Rows and content are replaced with `set_reactive`
        and a full refresh, never through this watcher."""
        scrolled_from = self.scroll_offset
        self.reveal()
        rows = self.row_count()
        if self.scroll_offset != scrolled_from or old is None or new is None or max(old, new) >= rows:
            self.refresh()
        else:
            for index in (old, new):
                start, end = self.row_lines(index)
                self.refresh_lines(start, end - start)
        self.chosen()

    def reveal(self) -> None:
        """Scroll the highlighted row into view (once the rows are laid out),
        the least distance that keeps whole rows at the top: scrolled down to a
        row, the list starts at the row after the one the pane's bottom edge
        would cut, so a partial row, if any, is at the bottom (a review is two
        lines; with an odd height the top row showed only its second line)."""
        height = self.scrollable_content_region.height
        if (
            self.highlighted is None
            or self.highlighted >= self.row_count()
            or not self.line_count()
            or height < 1
        ):
            return
        top = self.scroll_offset.y
        y = self.revealed_top(self.highlighted, top, height)
        if y != top:
            self.scroll_to(y=y, animate=False, immediate=True, force=True)

    def revealed_top(self, index: int, top: int, height: int) -> int:
        """The line a pane `height` lines high scrolled to `top` is scrolled to
        by `reveal` with row `index` highlighted (`top` if it shows already)."""
        start, end = self.row_lines(index)
        if top <= start and end <= top + height:
            return top
        if start < top or end - start >= height:
            return start
        y = end - height
        first, after = self.row_lines(self.row_at(y))
        return after if first < y else y

    def move_to(self, index: int) -> None:
        if self.row_count():
            self.highlighted = max(0, min(index, self.row_count() - 1))

    def action_move(self, step: int) -> None:
        self.move_to(0 if self.highlighted is None else self.highlighted + step)

    def action_page(self, direction: int) -> None:
        """About a screenful of lines on, to the row on that line. Counted from
        the row's far edge (its first line going down, its last going up), so a
        page up undoes a page down whatever the height of the pane."""
        if self.row_count():
            self.move_to(self.paged(direction))

    def paged(self, direction: int) -> int:
        """The row a page key in `direction` moves the highlight to (rows exist)."""
        start, end = self.row_lines(self.highlighted or 0)
        edge = start if direction > 0 else end - 1
        line = edge + direction * max(1, self.scrollable_content_region.height - 1)
        return self.row_at(max(0, min(line, self.line_count() - 1)))

    def action_edge(self, direction: int) -> None:
        self.move_to(0 if direction < 0 else self.row_count() - 1)

    def on_click(self, event: events.Click) -> None:
        line = self.scroll_offset.y + event.y
        if not 0 <= line < self.line_count():
            return
        index = self.row_at(line)
        if index == self.highlighted:
            self.action_open()
        else:
            self.highlighted = index

    def sized(self) -> None:
        """Resized, in the layout's own frame: keep the highlighted row in view now."""
        self.reveal()

    def on_resize(self, event: events.Resize) -> None:
        """Shorter (the filter bar or the search box came, the terminal shrank):
        keep the highlighted row in view. Textual runs a subclass's own
        on_resize first (it lays its rows out for the new size), then this."""
        self.reveal()

    def on_focus(self) -> None:
        self.refresh()  # the highlight's colour follows focus

    def on_blur(self) -> None:
        self.refresh()
