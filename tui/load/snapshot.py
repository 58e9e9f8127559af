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
from itertools import islice
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
    columns = [list(column) for column in zip(*rows, strict=True)] if rows else [[] for _ in range(COLUMNS - 1)]
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
            _,
            _,
            _,
            self.names,
            self.stamps,
            self.counts,
            self.records,
            self.problems,
            self.columns,
            self.order,
            self.tags,
            self.duplicates,
            self.repos,
            self.bodies_at,
        ) = doc

    def matches(self, current: dict[str, Stamp | None]) -> bool:
        """Are these files, with these stamps, the snapshot's files?"""
        return len(current) == len(self.names) and dict(zip(self.names, self.stamps)) == current

    def library(self, file: OpenFile) -> tuple[Library, dict[str, tuple]] | None:
        """The library, and the cache's entries (name -> (stamp, reviews,
        problems)) of its files; None if the snapshot does not hold together."""
        try:
            return self._library(file)
        except (IndexError, KeyError, TypeError, ValueError):
            return None

    def _library(self, file: OpenFile) -> tuple[Library, dict[str, tuple]]:
        sources = [Source(file, at, True) for at in self.bodies_at]
        new = object.__new__
        location_of = tuple.__new__
        everything: list[Review] = []
        files: dict[Path, list[Review]] = {}
        problems: dict[Path, list[Problem]] = {}
        entries: dict[str, tuple] = {}
        rows = zip(*self.columns, strict=True)
        for name, stamp, count, record, raw_problems in zip(
            self.names, self.stamps, self.counts, self.records, self.problems, strict=True
        ):
            path = Path(name)
            source = sources[record]
            reviews: list[Review] = []
            append = reviews.append
            for title, repo, verdict, tags, line, column, pr, checks, offset, length, start, end, key in islice(
                rows, count
            ):
                location = location_of(Location, (path, line, column))
                body = new(_Body)
                body.source, body.offset, body.length, body.start, body.end = source, offset, length, start, end
                body.location = location
                review = new(Review)
                review.title, review.repo, review.verdict, review.tags = title, repo, verdict, tags
                review.location, review.pr, review.checks, review.key = location, pr, checks, key
                review._body, review._blob = None, body
                append(review)
            if len(reviews) != count:
                raise ValueError("fewer reviews than counted")
            files[path] = reviews
            everything += reviews
            if raw_problems:
                problems[path] = [Problem(Location(path, line, column), message) for line, column, message in raw_problems]
            entries[name] = (stamp, reviews, raw_problems)
        if next(rows, None) is not None:
            raise ValueError("more reviews than counted")
        at = everything.__getitem__
        if self.order and min(self.order) < 0:
            raise IndexError("a negative position")
        reviews = list(map(at, self.order))
        tags = {}
        for tag, positions in self.tags:
            if positions and min(positions) < 0:
                raise IndexError("a negative position")
            tags[tag] = list(map(at, positions))
        duplicates = [Problem(everything[n].location, message) for n, message in self.duplicates]
        if len({review.key for review in reviews}) != len(reviews):
            raise ValueError("a key listed twice")
        return Library.indexed(files, problems, reviews, tags, duplicates, list(self.repos)), entries


def read(fd: int, size: int, version_key: str) -> Snapshot | None:
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
        and len(doc) == 14
        and doc[:3] == (FORMAT, VERSION, version_key)
        and all(isinstance(part, list) for part in (*doc[3:8], *doc[9:14]))
        and isinstance(doc[8], tuple)
        and len(doc[8]) == COLUMNS
        and all(isinstance(column, list) for column in doc[8])
    ):
        return None
    return Snapshot(doc)
