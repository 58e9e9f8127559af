"""A list of rows of a `tui.core.table.ReviewTable`: row numbers in reading order.

Every list the reader shows (All, a tag's, a verdict's, what a filter leaves) is
a part of the table's reading order, and a row's number *is* its place in that
order. So a list is a sorted sequence of small ints: a `range` (All, one
verdict), an `array('I')` (a tag's rows), a `memoryview` of a saved column, or
a slice of any of them; finding a row in it is a bisection, and no object is
made per row. No Textual here.
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Iterator, Sequence
from typing import overload

RowNumbers = range | array | memoryview
"""What `Rows` holds: row numbers, ascending."""


class Rows(Sequence[int]):
    """Row numbers in ascending order (the reading order): `len`, `[i]` (a
    row), `[a:b]` (a `Rows` again, no copy for a range or a memoryview),
    `index_of(row)` by bisection. Immutable."""

    __slots__ = ("_rows",)

    def __init__(self, rows: RowNumbers | Sequence[int] = ()) -> None:
        if not isinstance(rows, (range, array, memoryview)):
            rows = array("I", rows)
        self._rows: RowNumbers = rows

    @classmethod
    def every(cls, n: int) -> Rows:
        """Rows 0 to n - 1: the whole table."""
        return cls(range(n))

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Rows: ...
    def __getitem__(self, index: int | slice) -> int | Rows:
        if isinstance(index, slice):
            return Rows(self._rows[index])
        return self._rows[index]

    def __iter__(self) -> Iterator[int]:
        return iter(self._rows)

    def __contains__(self, row: object) -> bool:
        return isinstance(row, int) and self.index_of(row) is not None

    def index_of(self, row: int) -> int | None:
        """Where `row` is in these rows, or None: a bisection, as they are ascending."""
        rows = self._rows
        if isinstance(rows, range):
            return rows.index(row) if row in rows else None
        at = bisect.bisect_left(rows, row)
        return at if at < len(rows) and rows[at] == row else None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Rows):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # compared by content, like a list

    @property
    def span(self) -> range | None:
        """These rows as one run of consecutive rows (All, a verdict's), or None."""
        rows = self._rows
        return rows if isinstance(rows, range) and rows.step == 1 else None

    def tolist(self) -> list[int]:
        return list(self._rows)

    def __repr__(self) -> str:
        if len(self) > 8:
            return f"Rows([{', '.join(map(str, self._rows[:8]))}, ...] of {len(self)})"
        return f"Rows({list(self._rows)!r})"
