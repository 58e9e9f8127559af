"""A snapshot of the library at the end of the parse cache's main file.

A warm start of 100,000 reviews decoded every review from the cache's index
and then indexed them all again (sorted the files, checked for duplicates,
sorted by verdict, listed each tag's reviews): ~0.3 s of Python after the first
frame, for a library that was the same as at the last save. So a save also
writes the library's index for exactly the files and stamps it saved: each
review's list fields as columns, in the files' order, and the library's order,
tags, duplicates and repos as positions in those columns. A start whose files
are all there, with the same sizes and mtimes (and no journal: nothing parsed
since), builds the library from it (`Snapshot.library`); any other start reads
the cache's index as before. The bodies stay where the records put them.

After the main file's records: 8 zero bytes (`cache_format.records` stops
there, as at any record it cannot read), the snapshot (marshal), and a
trailer: `MAGIC`, where the snapshot starts, and its checksum. A snapshot
that is cut short, damaged (checksum), of another version, or inconsistent is
ignored: the start reads the index instead.
"""

from __future__ import annotations

import marshal
import os
import zlib
from collections.abc import Iterator
from itertools import accumulate, chain, repeat
from operator import attrgetter
from pathlib import Path

from tui.core.model import Library, Location, Problem, Review
from tui.load.cache_format import VERSION, OpenFile, Placed, Source, Stamp, _Body

FORMAT = "prdigest-tui/library-snapshot"
MAGIC = b"PRDSNAP\x01"
TRAILER = len(MAGIC) + 8 + 8
"""The file's last bytes: `MAGIC`, the snapshot's offset, its adler32."""
COLUMNS = 13
"""Per review: title, repo, verdict, tags, line, column, pr, checks, block
offset, block length, start, end (as the index has them), and its key."""


def snapshot_part(entries: dict[str, tuple], placed: Placed, version_key: str) -> Iterator[bytes]:
    """The end of the main file: the library of the files `placed` says were
    saved, each entry (stamp, reviews, problems) as the cache holds it. Made
    once the records are written (a generator: `placed` is filled by then)."""
    saved = [name for name in entries if name in placed.files]
    paths = {Path(name): name for name in saved}
    library = Library.build({path: entries[name][1] for path, name in paths.items()})
    ordered = [paths[path] for path in _in_order(library)]
    rows: list[tuple] = []
    keys: list[str] = []
    where: dict[int, int] = {}  # id(review) -> its row
    for name in ordered:
        reviews = entries[name][1]
        for review in reviews:
            where[id(review)] = len(keys)
            keys.append(review.key)
        rows.extend(placed.files[name][1])
    columns = (
        [list(column) for column in zip(*rows, strict=True)] if rows else [[] for _ in range(COLUMNS - 1)]
    )
    # Tags as positions in a table of the tag tuples: fewer objects to read, and shared.
    table: dict[tuple, int] = {}
    columns[3] = [table.setdefault(tags, len(table)) for tags in columns[3]]
    duplicates = []
    for problem in library.duplicates:
        location = problem.location
        for review in library.files[location.path]:
            if review.location == location:
                duplicates.append((where[id(review)], problem.message))
                break
    doc = (
        FORMAT,
        VERSION,
        version_key,
        ordered,
        [entries[name][0] for name in ordered],
        [len(entries[name][1]) for name in ordered],
        [placed.files[name][0] for name in ordered],
        [entries[name][2] for name in ordered],
        (*columns, keys),
        list(table),
        [where[id(review)] for review in library.reviews],
        [(tag, [where[id(review)] for review in reviews]) for tag, reviews in library.tags.items()],
        duplicates,
        library.repos,
        placed.records,
    )
    data = marshal.dumps(doc)
    at = placed.size + 8
    yield bytes(8)
    yield data
    yield MAGIC + at.to_bytes(8, "little") + zlib.adler32(data).to_bytes(8, "little")


def _in_order(library: Library) -> list[Path]:
    """The library's files in the order its index walks them."""
    return sorted(library.files, key=attrgetter("parts"))


class Snapshot:
    """A snapshot read from a main file, checked for shape; `library` builds from it."""

    def __init__(self, doc: tuple) -> None:
        (
            *_,
            self.names,
            self.stamps,
            self.counts,
            self.records,
            self.problems,
            self.columns,
            self.tag_sets,
            self.order,
            self.tags,
            self.duplicates,
            self.repos,
            self.bodies_at,
        ) = doc

    def matches(self, current: dict[str, Stamp | None]) -> bool:
        """Are these files, with these stamps, the snapshot's files?"""
        if len(current) != len(self.names) or len(self.stamps) != len(self.names):
            return False
        return dict(zip(self.names, self.stamps, strict=True)) == current

    def library(self, file: OpenFile) -> tuple[Library, dict[str, tuple]] | None:
        """The library, and the cache's entries (name -> (stamp, reviews,
        problems)) of its files; None if the snapshot does not hold together."""
        try:
            return self._library(file)
        except (IndexError, KeyError, TypeError, ValueError):
            return None

    def _library(self, file: OpenFile) -> tuple[Library, dict[str, tuple]]:
        # Per review, only the `Review` is made in Python; its location and body
        # (tuples) are made by `map`, ten times quicker.
        counts = self.counts
        if any(
            len(column) != len(counts) for column in (self.names, self.stamps, self.records, self.problems)
        ):
            raise ValueError("files' columns of other lengths")
        (
            titles,
            repos,
            verdicts,
            tag_sets,
            lines,
            columns,
            prs,
            checks,
            offsets,
            lengths,
            starts,
            ends,
            keys,
        ) = self.columns
        if any(len(column) != len(titles) for column in self.columns) or _whole_numbers(counts) != len(
            titles
        ):
            raise ValueError("reviews' columns of other lengths")
        for column in (lines, columns, checks, offsets, lengths, starts, ends):
            _whole_numbers(column)  # as `cache_format._decode_all` checks them, at C speed
        _check_positions(tag_sets, len(self.tag_sets))
        tags = map(self.tag_sets.__getitem__, tag_sets)
        paths = list(map(Path, self.names))
        sources = [Source(file, at, True) for at in self.bodies_at]
        _check_positions(self.records, len(sources))
        each = chain.from_iterable
        locations = list(
            map(_new, repeat(Location), zip(each(map(repeat, paths, counts)), lines, columns, strict=True))
        )
        bodies = map(
            _new,
            repeat(_Body),
            zip(
                each(map(repeat, map(sources.__getitem__, self.records), counts)),
                offsets,
                lengths,
                starts,
                ends,
                locations,
                strict=True,
            ),
        )
        new = object.__new__
        everything: list[Review] = []
        append = everything.append
        for title, repo, verdict, tags_of, location, pr, checks_of, key, body in zip(
            titles, repos, verdicts, tags, locations, prs, checks, keys, bodies, strict=True
        ):
            review = new(Review)
            review.title, review.repo, review.verdict, review.tags = title, repo, verdict, tags_of
            review.location, review.pr, review.checks, review.key = location, pr, checks_of, key
            review._body, review._blob = None, body
            append(review)
        ends_at = list(accumulate(counts))
        per_file = list(map(everything.__getitem__, map(slice, [0, *ends_at[:-1]], ends_at)))
        files = dict(zip(paths, per_file, strict=True))
        entries = dict(zip(self.names, zip(self.stamps, per_file, self.problems, strict=True), strict=True))
        problems = {
            path: [Problem(Location(path, line, column), message) for line, column, message in raw]
            for path, raw in zip(paths, self.problems, strict=True)
            if raw
        }
        at = everything.__getitem__
        _check_positions(self.order, len(everything))
        reviews = list(map(at, self.order))
        by_tag = {}
        for tag, positions in self.tags:
            _check_positions(positions, len(everything))
            by_tag[tag] = list(map(at, positions))
        duplicates = [Problem(everything[n].location, message) for n, message in self.duplicates]
        library = Library.indexed(files, problems, reviews, by_tag, duplicates, list(self.repos))
        if len(library.by_key) != len(reviews):
            raise ValueError("a key listed twice")
        return library, entries


def _whole_numbers(column: list) -> int:
    """Their sum, if they are all whole numbers (`sum` of ints is an int); else TypeError."""
    total = sum(column)
    if type(total) is not int:
        raise TypeError("not whole numbers")
    return total


def _check_positions(positions: list[int], size: int) -> None:
    """Positions in a list of `size`: `map(list.__getitem__, ...)` would take a negative one."""
    if positions and (min(positions) < 0 or max(positions) >= size):
        raise IndexError("a position out of range")


_new = tuple.__new__


def read_snapshot(fd: int, size: int, version_key: str) -> Snapshot | None:
    """The snapshot at the end of an open main file, or None (none, another
    version, damaged)."""
    if size < TRAILER + 8:
        return None
    try:
        trailer = os.pread(fd, TRAILER, size - TRAILER)
        if len(trailer) != TRAILER or trailer[: len(MAGIC)] != MAGIC:
            return None
        at = int.from_bytes(trailer[len(MAGIC) : len(MAGIC) + 8], "little")
        if not 8 <= at <= size - TRAILER:
            return None
        data = os.pread(fd, size - TRAILER - at, at)
    except (OSError, OverflowError, ValueError):
        return None
    if zlib.adler32(data) != int.from_bytes(trailer[len(MAGIC) + 8 :], "little"):
        return None
    try:
        doc = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None
    if not (
        isinstance(doc, tuple)
        and len(doc) == 15
        and doc[:3] == (FORMAT, VERSION, version_key)
        and all(isinstance(part, list) for part in (*doc[3:8], *doc[9:15]))
        and isinstance(doc[8], tuple)
        and len(doc[8]) == COLUMNS
        and all(isinstance(column, list) for column in doc[8])
    ):
        return None
    return Snapshot(doc)
