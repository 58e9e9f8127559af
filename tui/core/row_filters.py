"""`tui.core.filters.select` on a table's rows: the same filters, the same
answers, as row numbers (`tui.core.rows.Rows`) instead of `Review` lists.

Rows are in reading order and a verdict's rows are one range of the table, so
a verdict is two bisections; a view's or a repo's sets and the unread and
unchecked filters are a pass in C over a column or the read mask
(`tui.core.readmask.ReadMask`); no `Review` is made but for the reviews with
an item mark, whose checklist says whether they are done. The search is
the caller's (`answer`): it narrows rows to those matching. No Textual here.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Collection, Sequence
from itertools import compress

from tui.core.filters import Filters
from tui.core.model import UNREAD_TAG, VERDICTS, verdict_rank
from tui.core.rows import Rows
from tui.core.table import ReviewTable
from tui.core.views import View

_UNREAD = bytes.maketrans(b"\x00\x01", b"\x01\x00")
"""A read mask's bytes turned into "unread" bytes."""


def select_rows(
    table: ReviewTable,
    rows: Rows,
    filters: Filters,
    *,
    read: bytearray | bytes,
    done: Collection[int] = (),
    keep: int | None = None,
    answer: Callable[[Rows, tuple[str, ...]], Rows] | None = None,
) -> Rows:
    """The rows of `rows` that pass every filter, in order: `select`'s answer.

    `read`: the read mask (`ReadMask.mask`: 1 a row read); `done`: the rows
    with a checklist whose every item is checked (the marked reviews'; the
    others have nothing checked); `keep`: the open review's row, which stays
    listed when it would drop out only because it was read or checked;
    `answer(rows, terms)`: the search's rows among `rows`."""
    unread = filters.unread or filters.tag == UNREAD_TAG
    query_terms = filters.terms
    if not (unread or filters.verdict or query_terms or filters.unchecked or filters.sets):
        return rows
    out = rows
    if query_terms:
        if answer is None:
            raise ValueError("a search without an answer")
        out = answer(out, query_terms)
    if filters.verdict is not None:
        out = _one_verdict(table, out, filters.verdict)
    if filters.sets:
        out = _in_sets(table, out, filters)
    if unread:
        out = _passing(out, _gather(read, out).translate(_UNREAD), keep)
    if filters.unchecked:
        checks = table.columns.checks
        has = bytes(map(bool, map(checks.__getitem__, out)))  # a checklist at all
        if done:  # `keep` among them stays listed all the same (`_passing`)
            gone = set(done)
            has = bytes(flag and row not in gone for flag, row in zip(has, out, strict=True))
        out = _passing(out, has, keep)
    return out


def _gather(column: bytearray | bytes, rows: Rows) -> bytes:
    """`column`'s bytes at `rows`: a slice for a range of rows."""
    span = rows.span
    if span is not None:
        return bytes(column[span.start : span.stop])
    return bytes(map(column.__getitem__, rows))


def _passing(rows: Rows, flags: bytes, keep: int | None) -> Rows:
    """The rows whose flag is set, and `keep` if it is one of them."""
    if keep is not None:
        at = rows.index_of(keep)
        if at is not None and not flags[at]:
            flags = flags[:at] + b"\x01" + flags[at + 1 :]
    if flags.count(0) == 0:
        return rows
    return Rows(list(compress(rows, flags)))


def _one_verdict(table: ReviewTable, rows: Rows, verdict: str) -> Rows:
    """A known verdict's rows are one range of the table: two bisections in `rows`."""
    if verdict_rank(verdict) < len(VERDICTS):
        span = table.verdict_rows(verdict).span
        assert span is not None
        lo = bisect.bisect_left(rows, span.start)
        hi = bisect.bisect_left(rows, span.stop, lo=lo)
        return rows[lo:hi]
    if verdict not in table.columns.verdicts:
        return Rows()
    v = table.columns.verdicts.index(verdict)
    of = table.columns.verdict_of
    return Rows([row for row in rows if of[row] == v])


def _in_sets(table: ReviewTable, rows: Rows, filters: Filters) -> Rows:
    """A view's or a repo's sets: one of its verdicts, one of its repos, any of its tags."""
    c = table.columns
    out: Sequence[int] = rows
    if filters.verdicts:
        wanted = bytes(verdict in filters.verdicts for verdict in c.verdicts)
        out = list(compress(out, map(wanted.__getitem__, map(c.verdict_of.__getitem__, out))))
    if filters.repos:
        wanted = bytes(repo in filters.repos for repo in c.repos)
        out = list(compress(out, map(wanted.__getitem__, map(c.repo_of.__getitem__, out))))
    if filters.tags:
        tagged = bytearray(table.n)
        for tag in filters.tags:
            for row in table.tag_rows(tag):
                tagged[row] = 1
        out = list(compress(out, map(tagged.__getitem__, out)))
    return out if isinstance(out, Rows) else Rows(out)


def view_members(
    table: ReviewTable,
    view: View,
    muted: bytes | bytearray,
    answer: Callable[[Rows, tuple[str, ...]], Rows] | None = None,
) -> Rows:
    """The rows a view holds before its `unread` and `unchecked` (the sidebar's
    `_Groups.views`): what it names, less the muted rows (`muted`: 1 a row
    with a muted tag, `TableCounts.muted`), matching its search (`answer`)."""
    out = Rows.every(table.n)
    if view.tags or view.verdicts or view.repos:
        out = _in_sets(table, out, Filters(tags=view.tags, verdicts=view.verdicts, repos=view.repos))
    if muted.count(1):
        out = _passing(out, _gather(muted, out).translate(_UNREAD), None)
    if view.terms:
        if answer is None:
            raise ValueError("a search without an answer")
        out = answer(out, view.terms)
    return out
