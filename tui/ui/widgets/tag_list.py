"""The sidebar's tags: All, Unread, then every tag with unread/total counts.

Drawn with the line API, like the review list. A tag's row is its label wrapped
by `tui.core.wrap` (Textual's word wrap pushes a whole run of Chinese to the next
line) with the count set flush right on its last line, so rows are laid out for
a width: the first layout measures the list at the width it is about to get
(its height is `auto`), a resize lays the rows out again, a key never does.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from tui.core.filters import tag_label
from tui.core.wrap import Line, line_width, truncate, wrap
from tui.ui.presenting import TagCount
from tui.ui.widgets.cursor_list import CursorList
from tui.ui.widgets.scrolling import set_virtual_size
from tui.ui.widgets.to_screen import post_to_screen


def wrapped(
    runs: Sequence[tuple[str, Hashable]],
    width: int,
    indent: int = 0,
    right: Sequence[tuple[str, Hashable]] = (),
) -> list[Line]:
    """Wrap runs with a hanging indent; `right` is set flush right on the last line."""
    lines = wrap(runs, max(1, width - indent))
    out: list[Line] = [lines[0]] + [[(" " * indent, None), *line] for line in lines[1:]]
    if right:
        tail_width = line_width(list(right))
        if tail_width > width:  # a figure wider than the row: cut it rather than overflow
            text = truncate("".join(text for text, _ in right), width)
            right, tail_width = [(text, right[0][1])], line_width([(text, None)])
        last = out[-1]
        used = line_width(last)
        if used + tail_width + 1 <= width:
            out[-1] = [*last, (" " * (width - used - tail_width), None), *right]
        else:
            out.append([(" " * max(0, width - tail_width), None), *right])
    return out


HEADING = "heading"
"""The style of a section's heading line, which the cursor never covers."""


class TagList(CursorList):
    """Tags in a virtualised list; highlighting one selects it, enter opens it."""

    COMPONENT_PREFIX = "tag-list"

    COMPONENT_CLASSES = {
        "tag-list--label",
        "tag-list--label-unread",
        "tag-list--label-dim",
        "tag-list--heading",
        "tag-list--count",
        "tag-list--count-unread",
        "tag-list--cursor",
        "tag-list--cursor-blurred",
    }

    BINDINGS = [
        Binding("j,down", "move(1)", "Down", id="tags.down", tooltip="Next tag", show=False),
        Binding("k,up", "move(-1)", "Up", id="tags.up", tooltip="Previous tag", show=False),
        Binding(
            "pagedown", "page(1)", "Page down", id="tags.page-down", tooltip="A page of tags down", show=False
        ),
        Binding("pageup", "page(-1)", "Page up", id="tags.page-up", tooltip="A page of tags up", show=False),
        Binding("home,g", "edge(-1)", "First", id="tags.first", tooltip="Go to the first tag", show=False),
        Binding("end,G", "edge(1)", "Last", id="tags.last", tooltip="Go to the last tag", show=False),
        Binding("enter", "open", "Open", id="tags.open", tooltip="Go to the tag's reviews", show=False),
    ]

    class Chosen(Message):
        """The highlighted tag changed."""

        def __init__(self, tag: str) -> None:
            super().__init__()
            self.tag = tag

    class Opened(Message):
        """Enter (or a click on the highlighted tag): go to its reviews."""

        def __init__(self, tag: str) -> None:
            super().__init__()
            self.tag = tag

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.counts: list[TagCount] = []
        self._width = -1  # the row width the lines are laid out for
        self._lines: list[tuple[int, Line]] = []  # (tag index, runs) for each line
        self._starts: list[int] = []  # each tag's first line
        self._rows: dict[tuple[TagCount, int], list[Line]] = {}  # a tag's lines, by count and width
        self._kept_on_cursor: dict[Hashable, Style] = {}  # `_on_cursor`'s, until the styles change

    # -- data in -----------------------------------------------------------------

    @property
    def tags(self) -> list[str]:
        return [count.tag for count in self.counts]

    @property
    def tag(self) -> str | None:
        """The highlighted tag."""
        if self.highlighted is None or not self.counts:
            return None
        return self.counts[self.highlighted].tag

    def show_counts(self, counts: list[TagCount], selected: str) -> None:
        """New counts, keeping `selected` highlighted (else the first tag). The
        App chose `selected`: no Chosen message comes back for it."""
        self.counts = counts
        tags = self.tags
        index = tags.index(selected) if selected in tags else (0 if counts else None)
        self.set_reactive(TagList.highlighted, index)
        if self._width > 0:
            self._lay_out(self._width)
        self.reveal()
        self.refresh()

    # -- layout ------------------------------------------------------------------

    def _row_width(self, width: int | None = None) -> int:
        """Rows end a cell short of the scrollbar's room."""
        return max(1, (self.scrollable_content_region.width if width is None else width) - 1)

    def _lay_out(self, width: int, *, measuring: bool = False) -> None:
        """A tag's rows are kept while its count and the width are the same: a
        mark changes a few counts, and wrapping every label again showed at 45 tags.
        `measuring`: called by the layout under way, which reads the new size."""
        rows: dict[tuple[TagCount, int], list[Line]] = {}
        lines: list[tuple[int, Line]] = []
        starts: list[int] = []
        for index, count in enumerate(self.counts):
            tag_rows = self._rows.get((count, width))
            if tag_rows is None:
                style = "label-dim" if count.dim else "label-unread" if count.unread else "label"
                label = [(tag_label(count.tag), style)]
                figure = [
                    (
                        f"{count.unread:,}/{count.total:,}",
                        "count-unread" if count.unread and not count.dim else "count",
                    )
                ]
                tag_rows = wrapped(label, width, 2, figure)
                if count.heading:  # a section starts: its heading is drawn above its first row
                    tag_rows = [[(truncate(count.heading, width), HEADING)], *tag_rows]
            rows[(count, width)] = tag_rows
            starts.append(len(lines))
            lines.extend((index, line) for line in tag_rows)
        grew = len(lines) != len(self._lines)
        self._rows, self._lines, self._starts, self._width = rows, lines, starts, width
        size = Size(width, len(lines))
        if measuring:
            self.set_reactive(TagList.virtual_size, size)
        elif grew:
            self.virtual_size = size  # the height is `auto`: this lays the screen out
        else:
            set_virtual_size(self, size)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        styles = self.styles
        gutter = styles.scrollbar_size_vertical if styles.scrollbar_gutter == "stable" else 0
        row_width = self._row_width(width - gutter)
        if row_width != self._width:
            # Measured before any Resize (the first layout) or for a new width: lay
            # the rows out at the width they are about to get, or the first frame
            # shows them one character a line.
            self._lay_out(row_width, measuring=True)
        return max(1, len(self._lines))

    def on_resize(self, event: events.Resize) -> None:
        if self._row_width() != self._width:
            self._lay_out(self._row_width())

    # -- drawing -----------------------------------------------------------------

    def _on_cursor(self, name: Hashable) -> Style:
        """What a run keeps on the cursor's row: what its component class sets
        (the count's colour, an unread label's bold); the rest is the cursor's."""
        style = self._kept_on_cursor.get(name)
        if style is None:
            style = Style()
            if name is not None:
                own = self.get_component_rich_style(f"tag-list--{name}", partial=True)
                full = self.style_of(name)
                style = Style(color=full.color if own.color else None, bold=own.bold, italic=own.italic)
            self._kept_on_cursor[name] = style
        return style

    def render_line(self, y: int) -> Strip:
        width, _, top = self.placed()
        base = self.style_of(None)
        row = top + y
        if row >= len(self._lines):
            return Strip.blank(width, base)
        index, runs = self._lines[row]
        if index == self.highlighted and runs[0][1] != HEADING:
            cursor = self.cursor_style("cursor" if self.has_focus else "cursor-blurred")
            segments = [Segment(text, cursor + self._on_cursor(style)) for text, style in runs]
            return Strip(segments).adjust_cell_length(width, cursor)
        segments = [Segment(text, self.style_of(style)) for text, style in runs]
        return Strip(segments).adjust_cell_length(width, base)

    def restyled(self) -> None:
        self._kept_on_cursor.clear()

    # -- rows, for CursorList ----------------------------------------------------

    def row_count(self) -> int:
        return len(self.counts)

    def line_count(self) -> int:
        return len(self._lines)

    def row_lines(self, index: int) -> tuple[int, int]:
        end = self._starts[index + 1] if index + 1 < len(self._starts) else len(self._lines)
        return self._starts[index], end

    def row_at(self, line: int) -> int:
        return self._lines[line][0]

    def chosen(self) -> None:
        if self.highlighted is not None:
            post_to_screen(self, self.Chosen(self.counts[self.highlighted].tag))

    def action_open(self) -> None:
        tag = self.tag
        if tag is not None:
            post_to_screen(self, self.Opened(tag))
