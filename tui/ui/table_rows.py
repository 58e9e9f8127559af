"""The reader's counts and list from a library's table, while its `Review`
index is still being made (`tui.core.table_library.TableLibrary.pending`).

A start from the saved table draws its loaded frame with no `Review` made
but for the rows drawn: the sidebar's counts from `TableCounts`, the list
from `select_rows` over the table's rows, shown through `RowReviews`. These
are the answers `tui.ui.sidebar.SidebarCounts` and `tui.core.filters.select`
give (tests/ui/test_table_counts.py, tests/core/test_row_filters.py). What
reads review bodies (a search, a view's search) is None here: the caller
makes the index and asks the library instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import compress

from tui.core.filters import VIEW_PREFIX, Filters, has_unchecked, is_real_tag
from tui.core.marks import Marks, checked_items
from tui.core.readmask import TableCounts
from tui.core.row_filters import select_rows, view_members
from tui.core.row_reviews import RowReviews
from tui.core.rows import Rows
from tui.core.table import ReviewTable
from tui.core.views import View
from tui.i18n import words
from tui.ui.presenting import TagCount


class TableRows:
    """The counts and the list of one table, one set of mutes and views."""

    def __init__(self) -> None:
        self._counts: TableCounts | None = None
        self._for: tuple[object, ...] | None = None
        self._unmuted: Rows | None = None

    def counts(
        self, table: ReviewTable, state: Marks, views: Mapping[str, View], mute: frozenset[str]
    ) -> TableCounts | None:
        """The counts now (followed from the last, or counted anew); None when a view searches."""
        if any(view.terms for view in views.values()):
            return None
        wanted = (table, mute, tuple(views.items()))
        counts = self._counts
        if counts is None or self._for != wanted:
            muted = _muted(table, mute)
            members = {name: view_members(table, view, muted) for name, view in views.items()}
            unchecked = [name for name, view in views.items() if view.unchecked]
            counts = self._counts = TableCounts(table, state, mute, members, unchecked)
            self._for, self._unmuted = wanted, None
        else:
            counts.follow(state)
        return counts

    def sidebar(
        self, table: ReviewTable, state: Marks, views: Mapping[str, View], mute: frozenset[str]
    ) -> list[TagCount] | None:
        """The sidebar's rows, as `SidebarCounts.rows` gives them; None when a view searches."""
        counts = self.counts(table, state, views, mute)
        if counts is None:
            return None
        out = []
        heading = words().repos_heading
        for count in counts.rows():
            row = TagCount(count.key, count.unread, count.total, count.dim)
            if heading and count.key.startswith("\x00repo:"):
                row, heading = row._replace(heading=heading), ""
            out.append(row)
        return out

    def listed(
        self,
        table: ReviewTable,
        state: Marks,
        filters: Filters,
        views: Mapping[str, View],
        mute: frozenset[str],
        keep: str | None,
    ) -> RowReviews | None:
        """The reviews listed under `filters`, as `ReaderPanes._visible` lists
        them; None for a search (it reads bodies)."""
        if filters.terms:
            return None
        counts = self.counts(table, state, views, mute)
        if counts is None:
            return None
        source, rest = self._source(table, counts, filters, views)
        done: set[int] = set()
        if rest.unchecked and state.marked_set:
            for row in table.rows_of(state.marked_set):
                review = table.review(row)
                if review.checks and not has_unchecked(review, checked_items(state, review)):
                    done.add(row)
        rows = select_rows(
            table,
            source,
            rest,
            read=counts.mask.mask,
            done=done,
            keep=table.position(keep) if keep is not None else None,
        )
        return RowReviews(table, rows)

    def _source(
        self, table: ReviewTable, counts: TableCounts, filters: Filters, views: Mapping[str, View]
    ) -> tuple[Rows, Filters]:
        """What the filters start from and what they have left to do: a real
        tag's rows (muted ones too), a view's members when the filters are
        still the view's, else every row less the muted."""
        tag = filters.tag
        if is_real_tag(tag):
            return table.under(tag), filters
        if tag.startswith(VIEW_PREFIX):
            name = tag.removeprefix(VIEW_PREFIX)
            view = views.get(name)
            if view is not None and (view.tags, view.verdicts, view.repos) == (
                filters.tags,
                filters.verdicts,
                filters.repos,
            ):
                rest = filters._replace(tags=frozenset(), verdicts=frozenset(), repos=frozenset())
                return counts.views[name], rest
        if self._unmuted is None:
            muted = counts.muted
            self._unmuted = (
                Rows(list(compress(range(table.n), (not m for m in muted))))
                if counts.mute
                else Rows.every(table.n)
            )
        return self._unmuted, filters


def _muted(table: ReviewTable, mute: frozenset[str]) -> bytearray:
    """1 for each row with a muted tag (`TableCounts.muted`)."""
    muted = bytearray(table.n)
    for tag in mute:
        for row in table.tag_rows(tag):
            muted[row] = 1
    return muted
