"""The sidebar's counts from a `tui.core.table.ReviewTable`: which rows are read,
as one byte per row, and how many are read under each tag, repo and view.

`tui.ui.sidebar`'s `_Groups`/`_Tally` count from the library's `Review`s and
keys: at 100,000 reviews with a state of 100,000 keys that is ~35-80 ms of
CPU, and it needs every `Review` made. Here the totals are the table's
(`tag_count`, `repo_of`, a view's member rows) and the read counts come from
a `bytearray` over the rows (`ReadMask`), made once from the state's read keys
and then followed mark by mark: a mark costs its row's tags and the views
that hold it, whatever the library's size (bench/README.md).

The counts are the sidebar's (`SidebarCounts.rows`, views aside): muted rows
(a tag in `mute`) count nowhere but under a muted tag's own row; a repo is
listed when an unmuted row has it. No Textual, no disk here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping
from itertools import chain, compress
from typing import NamedTuple

from tui.core.filters import has_unchecked, repo_key, view_key
from tui.core.marks import Marks, checked_items
from tui.core.model import ALL_TAG, UNREAD_TAG
from tui.core.rows import Rows
from tui.core.table import ReviewTable


class Count(NamedTuple):
    """One sidebar row's count: its key (`tui.core.filters`' keys), unread, total."""

    key: str
    unread: int
    total: int
    dim: bool = False  # a muted tag


class ReadMask:
    """The rows read, one byte each (1 read), for one table and one state as of
    `epoch` / `position` of its log of changed keys (`Marks.changed_since`)."""

    __slots__ = ("epoch", "mask", "position", "state", "table")

    def __init__(self, table: ReviewTable, state: Marks) -> None:
        self.table, self.state = table, state
        self.epoch, self.position = state.epoch, state.log_position
        mask = self.mask = bytearray(table.n)
        read = state.read_set
        for row in table.rows_of(read) if read else ():  # no key lookup made for none
            mask[row] = 1

    def changed(self) -> list[tuple[int, bool, bool]] | None:
        """The rows whose marks changed since, each once: (row, read now, whether
        its read mark changed), the mask brought up to date; None if the state's
        log does not go back that far (another state, or too many changes):
        make a new mask."""
        state = self.state
        keys = state.changed_since(self.epoch, self.position)
        if keys is None:
            return None
        self.epoch, self.position = state.epoch, state.log_position
        mask, position = self.mask, self.table.position
        out: list[tuple[int, bool, bool]] = []
        for key in dict.fromkeys(keys):
            row = position(key)
            if row is None:
                continue
            now = state.is_read(key)
            flipped = now != bool(mask[row])
            if flipped:
                mask[row] = now
            out.append((row, now, flipped))
        return out


class TableCounts:
    """All's, Unread's, every tag's, repo's and view's counts for one table,
    one set of mutes and the views' member rows, against one `ReadMask`.

    `views`: each view's member rows before its `unread` and `unchecked`
    (the sidebar's `_Groups.views`: muted rows already left out), in the
    config's order; `unchecked`: the names of those with `unchecked`, which
    count their members with a checklist not all checked (a `Review` is made
    for the marked ones among them, to read their checklist)."""

    def __init__(
        self,
        table: ReviewTable,
        state: Marks,
        mute: frozenset[str] = frozenset(),
        views: Mapping[str, Rows] | None = None,
        unchecked: Collection[str] = (),
    ) -> None:
        self.table, self.mute = table, mute
        self.views = dict(views or {})
        checks = table.columns.checks
        # An unchecked view's members with a checklist, and those of them all checked.
        self.with_checklist = {
            name: frozenset(row for row in rows if checks[row])
            for name, rows in self.views.items()
            if name in unchecked
        }
        self.done: dict[str, set[int]] = {name: set() for name in self.with_checklist}
        c = table.columns
        self._flat, self._flat_at, self._repo_of = c.tag_flat, c.tag_flat_at, c.repo_of
        self._muted_tag = bytes(tag in mute for tag in c.tags)  # by tag index
        # Muted rows: those with a muted tag.
        muted = self.muted = bytearray(table.n)
        muted_rows = sorted(set(chain.from_iterable(map(table.tag_rows, sorted(mute)))))
        for row in muted_rows:
            muted[row] = 1
        self.unmuted = table.n - len(muted_rows)
        if mute:
            get = muted.__getitem__
            self.tag_totals = [
                len(rows) if tag in mute else len(rows) - sum(map(get, rows))
                for tag, rows in zip(c.tags, map(table.tag_rows, c.tags), strict=True)
            ]
            self.repo_totals = Counter(r for row, r in enumerate(c.repo_of) if not muted[row])
        else:
            at = c.tag_rows_at
            self.tag_totals = [at[t + 1] - at[t] for t in range(len(c.tags))]
            self.repo_totals = Counter(
                dict(zip(range(len(c.repos)), table.repo_counts().values(), strict=True))
            )
        self.mask = ReadMask(table, state)
        self._count()
        self._check_all(state)

    def _check_all(self, state: Marks) -> None:
        """Which members with a checklist of each unchecked view are all checked (marked ones only)."""
        for done in self.done.values():
            done.clear()
        if self.with_checklist and state.marked_set:
            for row in self.table.rows_of(state.marked_set):
                self._check(row, state)

    def _check(self, row: int, state: Marks) -> None:
        review = None
        for name, rows in self.with_checklist.items():
            if row in rows:
                review = review or self.table.review(row)
                if has_unchecked(review, checked_items(state, review)):
                    self.done[name].discard(row)
                else:
                    self.done[name].add(row)

    def _count(self) -> None:
        """The read counts, counted whole from the mask."""
        table, mask, muted = self.table, self.mask.mask, self.muted
        read_rows = list(compress(range(table.n), mask))
        unmuted_read = [row for row in read_rows if not muted[row]] if self.mute else read_rows
        flat, at = self._flat, self._flat_at
        per_tag = Counter(chain.from_iterable(flat[at[row] : at[row + 1]] for row in unmuted_read))
        if self.mute:  # a muted row counts under its muted tags only
            muted_tag = self._muted_tag
            for row in read_rows:
                if muted[row]:
                    per_tag.update(t for t in flat[at[row] : at[row + 1]] if muted_tag[t])
        self.read_all = len(unmuted_read)
        self.read_tag = [per_tag[t] for t in range(len(table.columns.tags))]
        self.read_repo = Counter(map(self._repo_of.__getitem__, unmuted_read))
        get = mask.__getitem__
        self.read_view = {name: sum(map(get, rows)) for name, rows in self.views.items()}
        self.read_checklist = {name: sum(map(get, rows)) for name, rows in self.with_checklist.items()}

    def follow(self, state: Marks) -> None:
        """Take in the marks changed since (a mark, an undo, a merge): what they
        touch is counted again; all of it if the state's log does not reach back."""
        changed = self.mask.changed() if state is self.mask.state else None
        if changed is None:
            self.mask = ReadMask(self.table, state)
            self._count()
            self._check_all(state)
            return
        for row, now, flipped in changed:
            if flipped:
                self._step(row, 1 if now else -1)
            if self.with_checklist:
                self._check(row, state)

    def _step(self, row: int, step: int) -> None:
        muted = self.muted[row]
        if not muted:
            self.read_all += step
            self.read_repo[self._repo_of[row]] += step
        muted_tag = self._muted_tag
        for t in self._flat[self._flat_at[row] : self._flat_at[row + 1]]:
            if not muted or muted_tag[t]:
                self.read_tag[t] += step
        for name, rows in self.views.items():
            if rows.index_of(row) is not None:
                self.read_view[name] += step
        for name, with_checklist in self.with_checklist.items():
            if row in with_checklist:
                self.read_checklist[name] += step

    def all(self) -> Count:
        """The All row (and the status bar's counts): muted rows left out."""
        return Count(ALL_TAG, self.unmuted - self.read_all, self.unmuted)

    def rows(self) -> list[Count]:
        """The sidebar's rows: All, Unread, the views, the tags (their order),
        then the repos (sorted) when the table has more than one."""
        everything = self.all()
        out = [everything, everything._replace(key=UNREAD_TAG)]
        mask = self.mask.mask
        for name, members in self.views.items():
            with_checklist = self.with_checklist.get(name)
            if with_checklist is None:
                out.append(Count(view_key(name), len(members) - self.read_view[name], len(members)))
                continue
            done = self.done[name]
            count = len(with_checklist) - len(done)
            read_there = self.read_checklist[name] - sum(map(mask.__getitem__, done))
            out.append(Count(view_key(name), count - read_there, count))
        c = self.table.columns
        for t, tag in enumerate(c.tags):
            total = self.tag_totals[t]
            out.append(Count(tag, total - self.read_tag[t], total, dim=tag in self.mute))
        if len(c.repos) > 1:
            for r, repo in enumerate(c.repos):  # sorted, as the sidebar lists them
                total = self.repo_totals.get(r, 0)
                if total:
                    out.append(Count(repo_key(repo), total - self.read_repo.get(r, 0), total))
        return out
