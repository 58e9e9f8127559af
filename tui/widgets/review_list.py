"""The reviews under the selected tag: read mark, verdict, title, progress."""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from .. import words
from ..model import Review
from .fitted_list import FittedList, to_content, wrapped


@dataclass(frozen=True)
class ReviewRow:
    review: Review
    read: bool
    done: int
    total: int
    updated: bool = False  # changed since the reader read it
    stale: bool = False  # its file is broken; this is the last good version


VERDICT_STYLE = {
    "deep": "bold $success",
    "quick": "bold $primary",
    "skim": "$warning",
    "skip": "$text-muted",
}


class ReviewList(FittedList):
    """Reviews as a virtualised list; highlighting previews, enter opens."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", id="reviews.down", tooltip="Next review", show=False),
        Binding("k", "cursor_up", "Up", id="reviews.up", tooltip="Previous review", show=False),
    ]

    @dataclass
    class Chosen(Message):
        """The highlighted review changed (None when the list is empty)."""

        key: str | None

    @dataclass
    class Opened(Message):
        """Enter on a review: read it."""

        key: str

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[ReviewRow] = []
        self.empty = ""

    @property
    def keys(self) -> list[str]:
        return [row.review.key for row in self.rows]

    def show_rows(
        self, rows: list[ReviewRow], selected: str | None, empty: str, fallback: int = 0
    ) -> str | None:
        """Replace the rows, keeping `selected` highlighted when it is still listed,
        else the row at `fallback`. Returns the key now highlighted."""
        self.rows, self.empty = rows, empty
        self.refit(selected, fallback)
        return self._selected_id() if rows else None

    def build_options(self, width: int) -> list[Option]:
        if not self.rows:
            return [Option(Content(self.empty), disabled=True)]
        return [Option(self._prompt(row, width), id=row.review.key) for row in self.rows]

    @staticmethod
    def _prompt(row: ReviewRow, width: int) -> Content:
        review = row.review
        title = [
            ("  " if row.read else "● ", "$accent"),
            (review.title, "$text-muted" if row.read else "bold"),
        ]
        lines = wrapped(title, width, 2)
        meta = [
            ("  ", ""),
            (words.VERDICT_WORDS.get(review.verdict, review.verdict), VERDICT_STYLE.get(review.verdict, "")),
        ]
        if row.total:
            meta.append((f"  {row.done}/{row.total}", "$success" if row.done == row.total else "$text-muted"))
        if row.updated:
            meta.append((f"  ✱ {words.UPDATED}", "bold $warning"))
        if row.stale:
            meta.append((f"  ⚠ {words.STALE}", "bold $error"))
        lines.append(meta)
        return to_content(lines)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.post_message(self.Chosen(event.option.id))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(self.Opened(event.option.id))
