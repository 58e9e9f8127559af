"""Open actions and caveats across reviews, grouped by review, on the line API.

One line a row: a review's title, then its items, each with a checkbox, cut to
the width (the highlighted item is shown whole below the list, by the screen).
Rows are built once, in one pass, when the view opens; drawing asks the app's
`checked` function about the rows on screen only. Space toggles: the widget
posts a message and the app changes state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.segment import Segment
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip

from tui.core.model import Item, Review
from tui.core.search import shown
from tui.core.wrap import truncate
from tui.i18n import words
from tui.ui.widgets.scrolling import Pane, set_virtual_size
from tui.ui.widgets.to_screen import post_to_screen


@dataclass(frozen=True)
class TodoRow:
    review: Review
    item: Item | None = None  # None: the review's heading


class TodoList(Pane, can_focus=True):
    COMPONENT_PREFIX = "todo-list"
    COMPONENT_CLASSES = {
        "todo-list--heading",
        "todo-list--verdict",
        "todo-list--box",
        "todo-list--checked",
        "todo-list--section",
        "todo-list--done",
        "todo-list--cursor",
        "todo-list--empty",
    }

    BINDINGS = [
        Binding("j,down", "move(1)", "Down", id="todo.down", tooltip="Next item", show=False),
        Binding("k,up", "move(-1)", "Up", id="todo.up", tooltip="Previous item", show=False),
        Binding("space", "check_item", "Check", id="todo.toggle", tooltip="Check or uncheck the item"),
        Binding(
            "enter", "go", "Go to review", id="todo.go", tooltip="Close this view and show the item's review"
        ),
    ]

    @dataclass
    class Toggled(Message):
        review_key: str
        item_key: str
        checked: bool

    @dataclass
    class Go(Message):
        review_key: str
        item_key: str

    @dataclass
    class Highlighted(Message):
        row: TodoRow | None

    cursor: reactive[int | None] = reactive(None, init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[TodoRow] = []
        self.checked: Callable[[Review], frozenset[str]] = lambda review: frozenset()

    def show_rows(self, rows: Sequence[TodoRow], checked: Callable[[Review], frozenset[str]]) -> None:
        """Replace the rows, keeping the cursor on the same item when it is still listed."""
        keep = self.current
        self.rows, self.checked = list(rows), checked
        items = [n for n, row in enumerate(self.rows) if row.item is not None]
        index = None
        if keep is not None and keep.item is not None:
            index = next(
                (
                    n
                    for n in items
                    if self.rows[n].review.key == keep.review.key and self.rows[n].item.key == keep.item.key  # type: ignore[union-attr]  # `items` rows have an item
                ),
                None,
            )
        if index is None and items:
            index = items[0]
        set_virtual_size(self, Size(self.size.width, max(1, len(self.rows))))
        self.set_reactive(TodoList.cursor, index)
        self._reveal()
        self.refresh()
        self.post_message(self.Highlighted(self.current))

    @property
    def current(self) -> TodoRow | None:
        if self.cursor is None or not 0 <= self.cursor < len(self.rows):
            return None
        return self.rows[self.cursor]

    # -- drawing -------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width, _, top = self.placed()
        index = top + y
        base = self.style_of(None)
        if not self.rows:
            if index == 0:
                return Strip(
                    [Segment(truncate(words().no_actions, width), self.style_of("empty"))]
                ).adjust_cell_length(width, base)
            return Strip.blank(width, base)
        if index >= len(self.rows):
            return Strip.blank(width, base)
        row = self.rows[index]
        review = row.review
        if row.item is None:
            verdict = f"  {words().verdict_words.get(review.verdict, review.verdict)}"
            title = truncate(review.title, max(0, width - cell_len(verdict) - 2))
            segments = [
                Segment(" ", base),
                Segment(title, self.style_of("heading")),
                Segment(verdict, self.style_of("verdict")),
            ]
        else:
            done = row.item.key in self.checked(review)
            section = words().todo_section_short.get(row.item.section, row.item.section)
            label_width = max(cell_len(label) for label in words().todo_section_short.values())
            lead = [
                Segment("   ", base),
                Segment("[✓] " if done else "[ ] ", self.style_of("checked" if done else "box")),
                Segment(section + " " * (label_width - cell_len(section) + 2), self.style_of("section")),
            ]
            used = sum(segment.cell_length for segment in lead)
            text = truncate(shown(row.item.text), max(0, width - used))
            segments = [*lead, Segment(text, self.style_of("done") if done else base)]
        strip = Strip(segments).adjust_cell_length(width, base)
        if index == self.cursor:
            strip = Strip(Segment.apply_style(strip, post_style=self.cursor_over()), width)
        return strip

    def on_resize(self, event: events.Resize) -> None:
        set_virtual_size(self, Size(event.size.width, max(1, len(self.rows))))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    # -- moving --------------------------------------------------------------

    def watch_cursor(self) -> None:
        self._reveal()
        self.refresh()
        self.post_message(self.Highlighted(self.current))

    def _reveal(self) -> None:
        if self.cursor is None:
            return
        top = self.cursor
        # Show the review's heading too when moving onto its first item.
        if top > 0 and self.rows[top - 1].item is None:
            top -= 1
        self.scroll_to_region(
            Region(0, top, 1, self.cursor - top + 1), animate=False, immediate=True, force=True
        )

    def action_move(self, step: int) -> None:
        if self.cursor is None:
            return
        index = self.cursor + step
        while 0 <= index < len(self.rows) and self.rows[index].item is None:
            index += step
        if 0 <= index < len(self.rows):
            self.cursor = index

    def action_check_item(self) -> None:
        row = self.current
        if row is None or row.item is None:
            self.app.bell()
            return
        done = row.item.key in self.checked(row.review)
        post_to_screen(self, self.Toggled(row.review.key, row.item.key, not done))

    def action_go(self) -> None:
        row = self.current
        if row is not None and row.item is not None:
            post_to_screen(self, self.Go(row.review.key, row.item.key))

    def on_click(self, event: events.Click) -> None:
        index = self.scroll_offset.y + event.y
        if not 0 <= index < len(self.rows) or self.rows[index].item is None:
            return
        self.cursor = index
        if event.x < 7:  # on the checkbox
            self.action_check_item()
