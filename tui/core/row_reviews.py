"""A list of a table's rows seen as `Review`s: what the review list draws from.

`tui.ui.widgets.review_list.ReviewList.show_reviews` takes a
`Sequence[Review]` and reads only the rows it draws, their keys to find one,
and the length. `RowReviews` is that sequence over `tui.core.rows.Rows`: a
`Review` is made (`ReviewTable.review`, the last few kept) only for the rows
asked for, a key is found by the table's key -> row lookup and a bisection,
and the keys are read from the keys column without making a `Review`.
No Textual here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from tui.core.model import Review
from tui.core.rows import Rows
from tui.core.table import ReviewTable


class RowReviews(Sequence[Review]):
    """`rows` of `table`, each as its `Review`, in order. Immutable."""

    __slots__ = ("rows", "table")

    def __init__(self, table: ReviewTable, rows: Rows) -> None:
        self.table, self.rows = table, rows

    def __len__(self) -> int:
        return len(self.rows)

    @overload
    def __getitem__(self, index: int) -> Review: ...
    @overload
    def __getitem__(self, index: slice) -> RowReviews: ...
    def __getitem__(self, index: int | slice) -> Review | RowReviews:
        if isinstance(index, slice):
            return RowReviews(self.table, self.rows[index])
        return self.table.review(self.rows[index])

    def __iter__(self) -> Iterator[Review]:
        review = self.table.review
        return map(review, self.rows)

    def find(self, key: str) -> int | None:
        """Where the review `key` is in this list, or None: no pass over the rows."""
        row = self.table.position(key)
        return None if row is None else self.rows.index_of(row)

    def __contains__(self, review: object) -> bool:
        if not isinstance(review, Review):
            return False
        at = self.find(review.key)
        return at is not None and self[at] == review

    def keys(self) -> list[str]:
        """Every listed review's key, in order, none of them made a `Review`."""
        key = self.table.key
        return list(map(key, self.rows))
