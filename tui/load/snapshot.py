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
from operator import attrgetter, itemgetter
from pathlib import Path

from tui.core.model import Library, Location, Problem, Review
from tui.load.cache_format import VERSION, OpenFile, Placed, Source, Stamp, _Body

FORMAT = "prdigest-tui/library-snapshot"
MAGIC = b"PRDSNAP\x02"
TRAILER = len(MAGIC) + 8 + 8
"""The file's last bytes: `MAGIC`, the snapshot's offset, its adler32."""

FILE_FIELDS = ("names", "stamps", "counts", "records", "problems", "block_offsets", "block_lengths")
"""Per file, in the library's file order: its name, stamp, number of reviews,
record (of the main file: where its bodies are), problems (as the index has
them), and its block of bodies in that record."""
REVIEW_FIELDS = (
    "titles",
    "repos",
    "verdicts",
    "tags",
    "lines",
    "columns",
    "prs",
    "checks",
    "starts",
    "ends",
    "keys",
)
"""Per review, the files' reviews one file after the other: the list fields
(repo, verdict and tags as positions in `TABLES`), and its body's place in its
file's block once inflated."""
TABLES = ("repo_names", "verdict_names", "tag_sets")
INDEX_FIELDS = ("order", "by_tag", "duplicates", "repo_list", "bodies_at")
"""The library's index as positions of reviews: its reading order, each tag's
reviews (in the library's tag order), its duplicates (with their problem's
text), its repos; and where each record's bodies start."""
FIELDS = FILE_FIELDS + REVIEW_FIELDS + TABLES + INDEX_FIELDS

_title, _repo, _verdict, _tags, _pr, _checks, _key = map(
    attrgetter, ("title", "repo", "verdict", "tags", "pr", "checks", "key")
)
_line, _column = attrgetter("location.line"), attrgetter("location.column")
_start, _end = itemgetter(10), itemgetter(11)


def snapshot_part(entries: dict[str, tuple], placed: Placed, version_key: str) -> Iterator[bytes]:
    """The end of the main file: the library of the files `placed` says were
    saved, each entry (stamp, reviews, problems) as the cache holds it. Made
    once the records are written (a generator: `placed` is filled by then)."""
    saved = [name for name in entries if name in placed.files]
    paths = {Path(name): name for name in saved}
    library = Library.build({path: entries[name][1] for path, name in paths.items()})
    names = [paths[path] for path in sorted(library.files, key=attrgetter("parts"))]
    everything = list(chain.from_iterable(entries[name][1] for name in names))
    rows = list(chain.from_iterable(placed.files[name][1] for name in names))  # the index's tuples
    where = dict(zip(map(id, everything), range(len(everything)), strict=True))  # id(review) -> its row
    at = where.__getitem__
    duplicates = []
    for problem in library.duplicates:
        location = problem.location
        for review in library.files[location.path]:
            if review.location == location:
                duplicates.append((where[id(review)], problem.message))
                break
    tables = {}
    fields = {"titles": list(map(_title, everything)), "keys": list(map(_key, everything))}
    for field, table, get in (
        ("repos", "repo_names", _repo),
        ("verdicts", "verdict_names", _verdict),
        ("tags", "tag_sets", _tags),
    ):
        values = list(map(get, everything))
        unique = list(dict.fromkeys(values))
        tables[table] = unique
        fields[field] = list(map({value: n for n, value in enumerate(unique)}.__getitem__, values))
    blocks = [placed.files[name][1][0][8:10] if placed.files[name][1] else (0, 0) for name in names]
    doc = {
        "names": names,
        "stamps": [entries[name][0] for name in names],
        "counts": [len(entries[name][1]) for name in names],
        "records": [placed.files[name][0] for name in names],
        "problems": [entries[name][2] for name in names],
        "block_offsets": [offset for offset, _ in blocks],
        "block_lengths": [length for _, length in blocks],
        **fields,
        "lines": list(map(_line, everything)),
        "columns": list(map(_column, everything)),
        "prs": list(map(_pr, everything)),
        "checks": list(map(_checks, everything)),
        "starts": list(map(_start, rows)),
        "ends": list(map(_end, rows)),
        **tables,
        "order": list(map(at, map(id, library.reviews))),
        "by_tag": [(tag, list(map(at, map(id, reviews)))) for tag, reviews in library.tags.items()],
        "duplicates": duplicates,
        "repo_list": library.repos,
        "bodies_at": placed.records,
    }
    data = marshal.dumps((FORMAT, VERSION, version_key, doc))
    start = placed.size + 8
    yield bytes(8)
    yield data
    yield MAGIC + start.to_bytes(8, "little") + zlib.adler32(data).to_bytes(8, "little")


class Snapshot:
    """A snapshot read from a main file, checked for shape; `library` builds from it."""

    def __init__(self, doc: dict[str, list]) -> None:
        self.doc = doc
        self.names = doc["names"]

    def matches(self, current: dict[str, Stamp | None]) -> bool:
        """Are these files, with these stamps, the snapshot's files?"""
        if len(current) != len(self.names):
            return False
        return dict(zip(self.names, self.doc["stamps"], strict=True)) == current

    def library(self, file: OpenFile) -> tuple[Library, dict[str, tuple]] | None:
        """The library, and the cache's entries (name -> (stamp, reviews,
        problems)) of its files; None if the snapshot does not hold together."""
        try:
            return self._library(file)
        except (IndexError, KeyError, TypeError, ValueError):
            return None

    def _library(self, file: OpenFile) -> tuple[Library, dict[str, tuple]]:
        # Per review, only the `Review` is made in Python; its fields, location
        # and body reference (tuples) are made by `map`, in C.
        doc = self.doc
        counts, titles = doc["counts"], doc["titles"]
        if any(len(doc[field]) != len(counts) for field in FILE_FIELDS):
            raise ValueError("files' fields of other lengths")
        if any(len(doc[field]) != len(titles) for field in REVIEW_FIELDS) or _whole_numbers(counts) != len(
            titles
        ):
            raise ValueError("reviews' fields of other lengths")
        for field in ("lines", "columns", "checks", "starts", "ends", "block_offsets", "block_lengths"):
            _whole_numbers(doc[field])  # as `cache_format._decode_all` checks them, at C speed
        for field, table in (("repos", "repo_names"), ("verdicts", "verdict_names"), ("tags", "tag_sets")):
            _check_positions(doc[field], len(doc[table]))
        paths = list(map(Path, self.names))
        sources = [Source(file, at, True) for at in doc["bodies_at"]]
        _check_positions(doc["records"], len(sources))
        each = chain.from_iterable

        def per_review(values: list) -> Iterator:
            return each(map(repeat, values, counts))

        locations = list(
            map(_new, repeat(Location), zip(per_review(paths), doc["lines"], doc["columns"], strict=True))
        )
        bodies = map(
            _new,
            repeat(_Body),
            zip(
                per_review(list(map(sources.__getitem__, doc["records"]))),
                per_review(doc["block_offsets"]),
                per_review(doc["block_lengths"]),
                doc["starts"],
                doc["ends"],
                locations,
                strict=True,
            ),
        )
        new = object.__new__
        everything: list[Review] = []
        append = everything.append
        for title, repo, verdict, tags, location, pr, checks, key, body in zip(
            titles,
            map(doc["repo_names"].__getitem__, doc["repos"]),
            map(doc["verdict_names"].__getitem__, doc["verdicts"]),
            map(doc["tag_sets"].__getitem__, doc["tags"]),
            locations,
            doc["prs"],
            doc["checks"],
            doc["keys"],
            bodies,
            strict=True,
        ):
            review = new(Review)
            review.title, review.repo, review.verdict, review.tags = title, repo, verdict, tags
            review.location, review.pr, review.checks, review.key = location, pr, checks, key
            review._body, review._blob = None, body
            append(review)
        ends_at = list(accumulate(counts))
        per_file = list(map(everything.__getitem__, map(slice, [0, *ends_at[:-1]], ends_at)))
        files = dict(zip(paths, per_file, strict=True))
        raw_problems = doc["problems"]
        entries = dict(zip(self.names, zip(doc["stamps"], per_file, raw_problems, strict=True), strict=True))
        problems = {
            path: [Problem(Location(path, line, column), message) for line, column, message in raw]
            for path, raw in zip(paths, raw_problems, strict=True)
            if raw
        }
        at = everything.__getitem__
        _check_positions(doc["order"], len(everything))
        reviews = list(map(at, doc["order"]))
        by_tag = {}
        for tag, positions in doc["by_tag"]:
            _check_positions(positions, len(everything))
            by_tag[tag] = list(map(at, positions))
        duplicates = [Problem(everything[n].location, message) for n, message in doc["duplicates"]]
        library = Library.indexed(files, problems, reviews, by_tag, duplicates, list(doc["repo_list"]))
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
        and len(doc) == 4
        and doc[:3] == (FORMAT, VERSION, version_key)
        and isinstance(doc[3], dict)
        and all(isinstance(doc[3].get(field), list) for field in FIELDS)
    ):
        return None
    return Snapshot(doc[3])
