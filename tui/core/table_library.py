"""A library read from its table (`tui.core.table`): answers at once, its
`Review` index made later, a slice at a time.

A warm start of 100,000 reviews spent ~0.35 s after its first frame making a
`Review` per review and indexing them (bench/README.md). `TableLibrary`
starts with no `Review` made: the screen draws the loaded frame from the table
(`pending`: counts, the list, the filters on rows), `by_key`, `tags` and
`files` answer lookups from it, and the index (`reviews`, `by_key`, `tags`,
`files` as `Library` has them) is made by `steps`, a slice a turn of the
loop, or at once by anything that asks for `reviews` or a tag's or a file's
list before it is done. Once made, it is a `Library` like any other.

Only a table with no review skipped as a duplicate is read so (`readable`): a
library's `files` hold the skipped reviews too, and the table does not.
No Textual, no disk here.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Mapping
from itertools import pairwise
from operator import attrgetter
from pathlib import Path
from typing import TypeVar

from tui.core.model import FileUpdate, Library, LibraryChanges, Location, Problem, Review
from tui.core.table import ENCODING, NO_PR, ReviewTable

ROWS_A_STEP = 500
"""Rows made into `Review`s between two `yield`s of `steps` (~1-2 ms)."""

_location = attrgetter("location")
_K = TypeVar("_K")


def readable(table: ReviewTable) -> bool:
    """Can a `TableLibrary` be made from `table`? Not with duplicates skipped
    (their reviews are not in it) or stale files (no last good version)."""
    return not table.columns.duplicates and not table.columns.stale


class _Keys(Mapping[str, Review]):
    """`by_key` while the index is not made: each answer from the table."""

    def __init__(self, library: TableLibrary, table: ReviewTable) -> None:
        self.library, self.table = library, table

    def __getitem__(self, key: str) -> Review:
        row = self.table.position(key) if isinstance(key, str) else None
        if row is None:
            raise KeyError(key)
        return self.library.row(row)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.table.position(key) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.table.keys())

    def __len__(self) -> int:
        return self.table.n


class _Names(Mapping[_K, list[Review]]):
    """`tags` or `files` while the index is not made: the names from the
    table, a list of reviews by making the index first (`made`)."""

    def __init__(self, names: tuple[_K, ...], made: Callable[[], Mapping[_K, list[Review]]]) -> None:
        self.names, self._set, self.made = names, frozenset(names), made

    def __getitem__(self, name: _K) -> list[Review]:
        return self.made()[name]

    def __contains__(self, name: object) -> bool:
        return name in self._set

    def __iter__(self) -> Iterator[_K]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)


class TableLibrary(Library):
    """A `Library` of one table; `pending` is the table until the index is made."""

    def __init__(self, table: ReviewTable) -> None:
        problems: dict[Path, list[Problem]] = {}
        for problem in table.columns.problems:
            problems.setdefault(problem.location.path, []).append(problem)
        super().__init__(problems=problems)
        self.pending: ReviewTable | None = table
        self._table = table
        self._made: list[Review] = []
        self._steps: Iterator[None] | None = None
        self._reviews: list[Review] = []
        self._by_key: Mapping[str, Review] = _Keys(self, table)
        self._tags: Mapping[str, list[Review]] = _Names(table.tags, lambda: self._index_now().tags)
        self._files: Mapping[Path, list[Review]] = _Names(table.files, lambda: self._index_now().files)
        self.repos = list(table.repos)
        self.duplicates = list(table.duplicates)

    # While pending, `reviews` is made whole when asked for; `by_key`, `tags`
    # and `files` answer from the table. `Library` sets them all (`_index`).
    @property
    def reviews(self) -> list[Review]:
        return self._index_now()._reviews

    @reviews.setter
    def reviews(self, reviews: list[Review]) -> None:
        self._reviews = reviews

    @property  # type: ignore[override]
    def by_key(self) -> Mapping[str, Review]:
        return self._by_key

    @by_key.setter
    def by_key(self, by_key: Mapping[str, Review]) -> None:
        self._by_key = by_key

    @property  # type: ignore[override]
    def tags(self) -> Mapping[str, list[Review]]:
        return self._tags

    @tags.setter
    def tags(self, tags: Mapping[str, list[Review]]) -> None:
        self._tags = tags

    @property  # type: ignore[override]
    def files(self) -> Mapping[Path, list[Review]]:
        return self._files

    @files.setter
    def files(self, files: Mapping[Path, list[Review]]) -> None:
        self._files = files

    def row(self, row: int) -> Review:
        """Row `row`'s review: the index's once made, else the table's."""
        made = self._made
        if row < len(made):
            return made[row]
        assert self.pending is not None
        return self.pending.review(row)

    def apply(self, updates: Mapping[Path, FileUpdate | None], *, compare: bool = True) -> LibraryChanges:
        self._index_now()
        return super().apply(updates, compare=compare)

    def _index_now(self) -> TableLibrary:
        """The index, finished now if it is not yet."""
        if self.pending is not None:
            collecting = gc.isenabled()
            gc.disable()  # ~1,000,000 long-lived objects made: collections meanwhile only cost time
            try:
                for _ in self.steps():
                    pass
            finally:
                if collecting:
                    gc.enable()
        return self

    def steps(self) -> Iterator[None]:
        """Make the index, yielding after each slice of work (a few ms); the
        same iterator whoever asks, so a slice is never made twice."""
        if self._steps is None:
            self._steps = self._make()
        return self._steps

    def _make(self) -> Iterator[None]:
        table = self.pending
        assert table is not None
        c = table.columns
        n = table.n
        paths = [table.path(f) for f in range(len(c.files))]
        seen: dict[tuple[int, ...], tuple[str, ...]] = {}
        made = self._made
        for start in range(0, n, ROWS_A_STEP):
            made += _rows(table, start, min(n, start + ROWS_A_STEP), paths, seen)
            yield
        by_key = dict(zip(table.keys(), made, strict=True))
        yield
        get = made.__getitem__
        tags: dict[str, list[Review]] = {}
        for tag in c.tags:
            tags[tag] = list(map(get, table.tag_rows(tag)))
            yield
        files: dict[Path, list[Review]] = {path: [] for path in paths}
        per_file = list(files.values())
        file_of = c.file_of
        for start in range(0, n, 10 * ROWS_A_STEP):
            for row in range(start, min(n, start + 10 * ROWS_A_STEP)):
                per_file[file_of[row]].append(made[row])
            yield
        for start in range(0, len(per_file), ROWS_A_STEP):
            for reviews in per_file[start : start + ROWS_A_STEP]:
                reviews.sort(key=_location)  # the file's order: a file's rows are by verdict first
            yield
        self._reviews, self._by_key, self._tags, self._files = made, by_key, tags, files
        self.stale = set()
        self.pending = None


def _rows(
    table: ReviewTable, start: int, stop: int, paths: list[Path], seen: dict[tuple[int, ...], tuple[str, ...]]
) -> list[Review]:
    """Rows `start` to `stop` as `Review`s, equal to `table.review`'s, each
    column read as a slice (a tag tuple made once per distinct tag set)."""
    c = table.columns
    titles = _texts(c.titles, c.title_at, start, stop, 0)
    keys = _texts(c.keys, c.key_at, start, stop, 1)
    repos = list(map(c.repos.__getitem__, c.repo_of[start:stop]))
    verdicts = list(map(c.verdicts.__getitem__, c.verdict_of[start:stop]))
    names, flat, flat_at = c.tags, list(c.tag_flat[c.tag_flat_at[start] : c.tag_flat_at[stop]]), c.tag_flat_at
    base = flat_at[start]
    tags = []
    for a, b in pairwise(flat_at[start : stop + 1]):
        ids = tuple(flat[a - base : b - base])
        found = seen.get(ids)
        if found is None:
            found = seen[ids] = tuple([names[t] for t in ids])
        tags.append(found)
    new = tuple.__new__
    bodies = table.bodies
    of_row = Review.of_row
    out = []
    for row, title, repo, verdict, tag, f, line, column, pr, checks, key in zip(
        range(start, stop), titles, repos, verdicts, tags,
        c.file_of[start:stop], c.line[start:stop], c.column[start:stop],
        c.pr[start:stop], c.checks[start:stop], keys, strict=True,
    ):  # fmt: skip
        location = new(Location, (paths[f], line, column))
        fields = (title, repo, verdict, tag, location, None if pr == NO_PR else pr, checks, key)
        out.append(of_row(fields, bodies[row]))
    return out


def _texts(joined: bytes | memoryview, at: object, start: int, stop: int, end: int) -> list[str]:
    """Texts `start` to `stop` of a joined UTF-8 column, each `end` bytes shorter (a newline)."""
    offsets = list(at[start : stop + 1])  # type: ignore[index]
    base = offsets[0]
    raw = bytes(joined[base : offsets[-1]])
    text = raw.decode(*ENCODING)
    if len(text) == len(raw):  # ASCII: the offsets are the text's
        return [text[a - base : b - base - end] for a, b in pairwise(offsets)]
    return [str(raw[a - base : b - base - end], *ENCODING) for a, b in pairwise(offsets)]
