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
MAGIC = b"PRDSNAP\x03"
TRAILER = len(MAGIC) + 8 + 8
"""The file's last bytes: `MAGIC`, the snapshot's offset, its adler32."""

FILE_FIELDS = ("names", "stamps", "counts", "records", "problems", "block_offsets", "block_lengths")
"""Per file, in the library's file order: its name, stamp, number of reviews,
record (of the main file: where its bodies are), problems (as the index has
them), and its block of bodies in that record."""
REVIEW_FIELDS = (
    "files", "titles", "repos", "verdicts", "tags", "lines", "columns", "prs", "checks", "starts", "ends", "keys",
)  # fmt: skip
"""Per review, in reading order (the library's reviews, then the duplicates
it skipped): its file (a position in the files' fields), its list fields
(repo, verdict and tags as positions in `TABLES`), its body's place in its
file's block once inflated. Made in this order, the reviews are read in the
order they are in memory when the reading order, the tags and the keys are
indexed: at 100,000 reviews that is memory-bound (the tags' lists alone hold
~300,000)."""
TABLES = ("repo_names", "verdict_names", "tag_sets")
INDEX_FIELDS = ("listed", "file_reviews", "by_tag", "duplicates", "repo_list", "bodies_at")
"""The library's index as positions of reviews: how many it lists (the
first ones), each file's reviews in file order (one file after the other),
each tag's reviews (in the library's tag order), its duplicates (with their
problem's text), its repos; and where each record's bodies start."""
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
    in_files = list(chain.from_iterable(entries[name][1] for name in names))
    listed = set(map(id, library.reviews))
    made = [*library.reviews, *(review for review in in_files if id(review) not in listed)]
    where = dict(zip(map(id, made), range(len(made)), strict=True))  # id(review) -> its row
    at = where.__getitem__
    file_of = dict(
        zip(
            map(id, in_files),
            chain.from_iterable(map(repeat, range(len(names)), (len(entries[name][1]) for name in names))),
            strict=True,
        )
    )
    rows = dict(
        zip(map(id, in_files), chain.from_iterable(placed.files[name][1] for name in names), strict=True)
    )
    made_rows = list(map(rows.__getitem__, map(id, made)))  # the index's tuples
    duplicates = []
    for problem in library.duplicates:
        location = problem.location
        for review in library.files[location.path]:
            if review.location == location:
                duplicates.append((where[id(review)], problem.message))
                break
    tables = {}
    fields = {"titles": list(map(_title, made)), "keys": list(map(_key, made))}
    for field, table, get in (
        ("repos", "repo_names", _repo),
        ("verdicts", "verdict_names", _verdict),
        ("tags", "tag_sets", _tags),
    ):
        values = list(map(get, made))
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
        "files": list(map(file_of.__getitem__, map(id, made))),
        **fields,
        "lines": list(map(_line, made)),
        "columns": list(map(_column, made)),
        "prs": list(map(_pr, made)),
        "checks": list(map(_checks, made)),
        "starts": list(map(_start, made_rows)),
        "ends": list(map(_end, made_rows)),
        **tables,
        "listed": [len(library.reviews)],
        "file_reviews": list(map(at, map(id, in_files))),
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
        counts, titles, keys = doc["counts"], doc["titles"], doc["keys"]
        if any(len(doc[field]) != len(counts) for field in FILE_FIELDS):
            raise ValueError("files' fields of other lengths")
        total = len(titles)
        if any(len(doc[field]) != total for field in REVIEW_FIELDS) or _whole_numbers(counts) != total:
            raise ValueError("reviews' fields of other lengths")
        for field in ("lines", "columns", "checks", "starts", "ends", "block_offsets", "block_lengths"):
            _whole_numbers(doc[field])  # as `cache_format._decode_all` checks them, at C speed
        for field, size in (
            ("repos", len(doc["repo_names"])),
            ("verdicts", len(doc["verdict_names"])),
            ("tags", len(doc["tag_sets"])),
            ("files", len(counts)),
            ("file_reviews", total),
        ):
            _check_positions(doc[field], size)
        if len(doc["file_reviews"]) != total or len(doc["listed"]) != 1:
            raise ValueError("not every review in a file")
        listed = _whole_numbers(doc["listed"])
        if not 0 <= listed <= total:
            raise ValueError("more reviews listed than there are")
        paths = list(map(Path, self.names))
        sources = [Source(file, at, True) for at in doc["bodies_at"]]
        _check_positions(doc["records"], len(sources))
        files_of = doc["files"]

        def of_file(values: list) -> Iterator:
            return map(values.__getitem__, files_of)

        locations = list(
            map(_new, repeat(Location), zip(of_file(paths), doc["lines"], doc["columns"], strict=True))
        )
        bodies = map(
            _new,
            repeat(_Body),
            zip(
                of_file(list(map(sources.__getitem__, doc["records"]))),
                of_file(doc["block_offsets"]),
                of_file(doc["block_lengths"]),
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
            keys,
            bodies,
            strict=True,
        ):
            review = new(Review)
            review.title, review.repo, review.verdict, review.tags = title, repo, verdict, tags
            review.location, review.pr, review.checks, review.key = location, pr, checks, key
            review._body, review._blob = None, body
            append(review)
        at = everything.__getitem__
        in_files = list(map(at, doc["file_reviews"]))
        ends_at = list(accumulate(counts))
        per_file = list(map(in_files.__getitem__, map(slice, [0, *ends_at[:-1]], ends_at)))
        files = dict(zip(paths, per_file, strict=True))
        raw_problems = doc["problems"]
        entries = dict(zip(self.names, zip(doc["stamps"], per_file, raw_problems, strict=True), strict=True))
        problems = {
            path: [Problem(Location(path, line, column), message) for line, column, message in raw]
            for path, raw in zip(paths, raw_problems, strict=True)
            if raw
        }
        by_tag = {}
        for tag, positions in doc["by_tag"]:
            _check_positions(positions, listed)
            by_tag[tag] = list(map(at, positions))
        duplicates = [Problem(everything[n].location, message) for n, message in doc["duplicates"]]
        reviews = everything[:listed]
        library = Library.indexed(
            files, problems, reviews, by_tag, duplicates, list(doc["repo_list"]), keys[:listed]
        )
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
