"""Every open action and caveat across the listed reviews, grouped by review, each checkable."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from tui.core.model import NOTES, Item, Review
from tui.core.search import shown
from tui.core.wrap import Line, wrap
from tui.i18n import words
from tui.ui.screens.base import TranslatedModal, css_file
from tui.ui.widgets.key_bar import KeyBar
from tui.ui.widgets.todo_list import TodoList, TodoRow


def build_rows(
    reviews: Sequence[Review], checked: Callable[[Review], frozenset[str]], show_done: bool
) -> tuple[list[TodoRow], int, int]:
    """Rows for the reviews' actions and caveats (open ones only, unless
    `show_done`), with how many are open and how many there are in all."""
    rows: list[TodoRow] = []
    open_count = total = 0
    for review in reviews:
        items = [item for section in NOTES for item in review.items(section)]
        if not items:
            continue
        done = checked(review)
        total += len(items)
        shown_items = []
        for item in items:
            if item.key not in done:
                open_count += 1
                shown_items.append(item)
            elif show_done:
                shown_items.append(item)
        if shown_items:
            rows.append(TodoRow(review))
            rows.extend(TodoRow(review, item) for item in shown_items)
    return rows, open_count, total


def to_content(lines: list[Line]) -> Content:
    """Lines from `tui.core.wrap`, with their style strings, as one Content."""
    parts: list[tuple[str, str] | str] = []
    for n, line in enumerate(lines):
        if n:
            parts.append("\n")
        parts.extend((text, str(style or "")) for text, style in line)
    return Content.assemble(*parts)


class TodoDetail(Static):
    """The highlighted item in full, wrapped by our line breaker."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.item: Item | None = None
        self.review: Review | None = None

    def show_item(self, review: Review | None, item: Item | None) -> None:
        self.review, self.item = review, item
        self._draw()

    def _draw(self) -> None:
        width = max(1, self.scrollable_content_region.width)
        if self.item is None or self.review is None:
            self.update(Content(""))
            return
        title = wrap([(self.review.title, "bold")], width)
        text = wrap([(shown(self.item.text), "")], width)
        self.update(to_content([*title, *text]))

    def on_resize(self, event: events.Resize) -> None:
        self._draw()


class TodoScreen(TranslatedModal):
    DEFAULT_CSS = css_file("todo.tcss")

    BINDINGS = [
        Binding("escape,q,a", "dismiss", "Close", id="todo.close", tooltip="Close this view"),
        Binding(
            "d", "toggle_done", "Show done", id="todo.done", tooltip="Show or hide the items already checked"
        ),
    ]

    def __init__(
        self,
        reviews: Sequence[Review],
        checked: Callable[[Review], frozenset[str]],
        scope: str,
        set_checked: Callable[[str, str, bool], None],
        go: Callable[[str], None],
    ) -> None:
        """`checked` says what is checked, `set_checked(review, item, value)`
        checks an item and saves, `go(review)` shows a review in the reader."""
        super().__init__()
        self.reviews = reviews
        self.checked = checked
        self.scope = scope
        self.set_checked = set_checked
        self.go = go
        self.show_done = False
        self.open_count = 0
        self.total = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="todo-box"):
            yield Static(id="todo-title", markup=False)
            yield TodoList(id="todo-list")
            yield TodoDetail(id="todo-detail")
        yield KeyBar()

    def on_mount(self) -> None:
        self.rebuild()
        self.query_one(TodoList).focus()

    def rebuild(self) -> None:
        rows, self.open_count, self.total = build_rows(self.reviews, self.checked, self.show_done)
        self.query_one(TodoList).show_rows(rows, self.checked)
        self._title()

    def refresh_marks(self) -> None:
        """Marks changed: redraw, keeping the rows (a checked item stays until rebuilt)."""
        _, self.open_count, self.total = build_rows(self.reviews, self.checked, False)
        todo = self.query_one(TodoList)
        todo.show_rows(todo.rows, self.checked)
        self._title()

    def _title(self) -> None:
        count = words().actions_count.format(open=self.open_count, total=self.total)
        self.query_one("#todo-title", Static).update(
            Content.assemble(
                (words().actions_title, "bold"),
                ("  ·  ", "$text-muted"),
                (self.scope, "$accent"),
                ("  ·  ", "$text-muted"),
                (count, ""),
            )
        )

    def on_todo_list_highlighted(self, message: TodoList.Highlighted) -> None:
        message.stop()
        row = message.row
        self.query_one(TodoDetail).show_item(row.review if row else None, row.item if row else None)

    def on_todo_list_toggled(self, message: TodoList.Toggled) -> None:
        message.stop()
        self.set_checked(message.review_key, message.item_key, message.checked)
        self.refresh_marks()

    def on_todo_list_go(self, message: TodoList.Go) -> None:
        message.stop()
        self.dismiss()
        self.go(message.review_key)

    def action_toggle_done(self) -> None:
        self.show_done = not self.show_done
        self.rebuild()
        self.refresh_bindings()  # its label says what the key does next

    @property
    def worded(self) -> Mapping[str, str]:
        """`d` says "Hide done" while done items are shown (`todo.done.shown`'s words)."""
        return {"todo.done": "todo.done.shown"} if self.show_done else {}
