"""A parse cache file's format: records of an index and the bodies' blocks.

A cache file (the main file or a journal) is a sequence of records, each an
index (marshal: the list fields of every review and, for each body, where its
bytes are) followed by the bodies, one block per entry file. The main file's
blocks are compressed (zlib, `LEVEL`; a body is one slice of its block), the
journals' are not: the parse workers write those, and compressing would be
their work. A start reads the indexes only, and a block is read (and inflated)
when one of its reviews is first opened, searched or compared.

`marshal`: fast to read, version-checked, and unable to construct objects on
load the way pickle can. Nothing is changed in place, so a body is read from
the file its index came from even after a save replaced it. A corrupt,
truncated or old-version record is ignored (with everything after it in its
file), a body that cannot be read is parsed again from its entry file: never
trusted, never an error shown to the reader.

A review in an index is a tuple: its list fields (title, repo, verdict, tags,
line, column, pr), its checklist size and where its body is. No fingerprint
digest: making one per review was a sixth more work for the parse workers;
`status` makes the few it needs, of read reviews only, and keeps them in its
own summary (`tui.load.status_summary`).

Apart from `tui.load.cache.ParseCache`, which decides which entries are kept
and when they are saved: this module says what the bytes on disk are.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
import zlib
from collections.abc import Generator, Iterator
from operator import itemgetter
from pathlib import Path

from tui.core.model import BODY, FileUpdate, Location, Problem, Review, body_default
from tui.load.cache_version import VERSION as VERSION
from tui.store.safe_read import OPEN_FLAGS

FORMAT = "prdigest-tui/parse-cache"

Stamp = tuple[int, int]  # size, mtime_ns

LEVEL = 1
"""zlib level of the main file's blocks: the lowest, as a save compresses every body it
did not read from a compressed block."""
RECORD_BYTES = 4 * 1024 * 1024
"""A save writes records of about this many bytes of blocks: what it holds at once."""


def stamp(path: Path) -> Stamp | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns


HEADER = 8
"""Bytes before a record's index: its length, little-endian."""
EMPTY_BODY = marshal.dumps(tuple("" if name == "summary" else body_default(name) for name in BODY))


class OpenFile:
    """A cache file or journal, open for its bodies; the last block read is kept
    inflated, as the reviews of one page are often read one after the other."""

    __slots__ = ("__weakref__", "_last", "fd")

    def __init__(self, fd: int | None) -> None:
        self.fd = fd
        self._last: tuple[int, bytes] = (-1, b"")

    def read(self, offset: int, length: int) -> bytes | None:
        fd = self.fd
        if fd is None:
            return None
        try:
            data = os.pread(fd, length, offset)
        except (OSError, ValueError, OverflowError):
            return None
        return data if len(data) == length else None

    def block(self, offset: int, length: int) -> bytes | None:
        last = self._last
        if last[0] == offset:
            return last[1]
        data = self.read(offset, length)
        if data is None:
            return None
        try:
            block = zlib.decompress(data)
        except zlib.error:
            return None
        self._last = (offset, block)
        return block

    def close(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = None

    def __del__(self) -> None:
        self.close()  # no review reads from this file any more


class Source:
    """One record of a file: where its bodies start, and whether its blocks are compressed."""

    __slots__ = ("bodies_at", "file", "packed")

    def __init__(self, file: OpenFile, bodies_at: int, packed: bool) -> None:
        self.file, self.bodies_at, self.packed = file, bodies_at, packed

    def body(self, offset: int, length: int, start: int, end: int) -> bytes | None:
        if not self.packed:
            return self.file.read(self.bodies_at + offset + start, end - start)
        block = self.file.block(self.bodies_at + offset, length)
        return None if block is None else block[start:end]

    def raw(self, offset: int, length: int) -> bytes | None:
        """A block as it is in the file."""
        return self.file.read(self.bodies_at + offset, length)


class _Body(tuple):
    """A review's body still in a cache file: read when first needed. `offset`
    and `length` are its page's block, `start` and `end` the body in the block
    once inflated. A tuple (source, offset, length, start, end, location): a
    warm start makes one per review, and `tuple.__new__` makes it without a
    call into Python."""

    __slots__ = ()

    source: Source | None = property(itemgetter(0))  # type: ignore[assignment]
    offset: int = property(itemgetter(1))  # type: ignore[assignment]
    length: int = property(itemgetter(2))  # type: ignore[assignment]
    start: int = property(itemgetter(3))  # type: ignore[assignment]
    end: int = property(itemgetter(4))  # type: ignore[assignment]
    location: Location = property(itemgetter(5))  # type: ignore[assignment]

    def __call__(self) -> bytes:
        source, offset, length, start, end, location = self
        data = source.body(offset, length, start, end) if source is not None else None
        if data is not None and _is_body(data):
            return data
        return _body_from_file(location)


CachedBody = _Body
"""A body in a cache file, by its public name: what a saved table
(`tui.load.table_file`) points at and makes again."""


def _is_body(data: bytes) -> bool:
    try:
        body = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return False
    return isinstance(body, tuple) and len(body) == len(BODY)


def _body_from_file(location: Location) -> bytes:
    """The cache could not give this body (its file was damaged after it was
    read): parse the entry file again. If the review is no longer there, an
    empty body; hot reload brings the file's new reviews."""
    from tui.load.parse import load_file

    for review in load_file(location.path).reviews:
        if (review.location.line, review.location.column) == (location.line, location.column):
            return review.blob
    return EMPTY_BODY


def _decode(path: Path, raw: tuple, source: Source | None) -> Review:
    """A review from its cache tuple: its list fields and checklist size, with
    its body's bytes (9 fields: fresh from a parse) or where they are in a
    cache file (12 fields: block offset and length, and the body's start and
    end in the block)."""
    return _decode_all(path, (raw,), source)[0]


_new = tuple.__new__


def _decode_all(path: Path, raws: tuple | list, source: Source | None) -> list[Review]:
    """`_decode` for each of a file's reviews, in one loop: a warm start decodes
    every review in the cache, and a call per review (`Review.packed`,
    `review_key`, the body's `__init__`) and a `Location(...)` were half of it
    (bench/README.md). So the review is made here, as `Review.packed` makes it."""
    reviews: list[Review] = []
    append = reviews.append
    new = object.__new__
    for raw in raws:
        if len(raw) == 12:
            title, repo, verdict, tags, line, column, pr, checks, offset, length, start, end = raw
            if type(checks) is not int:
                raise TypeError("bad checklist size")
            if (
                type(offset) is not int
                or type(length) is not int
                or type(start) is not int
                or type(end) is not int
            ):
                raise TypeError("bad body reference")
            location = _new(Location, (path, line, column))  # Location(...) without its Python __new__
            review = new(Review)
            review.title, review.repo, review.verdict, review.tags = title, repo, verdict, tags
            review.location, review.pr, review.checks = location, pr, checks
            review.key = f"{repo}#{pr}" if pr is not None else f"{repo}:{title}"  # `review_key`
            review._body, review._blob = None, _new(_Body, (source, offset, length, start, end, location))
            append(review)
            continue
        title, repo, verdict, tags, line, column, pr, checks, blob = raw
        if type(checks) is not int:
            raise TypeError("bad checklist size")
        if not isinstance(blob, bytes):
            raise TypeError("bad body")
        append(Review.packed(title, repo, verdict, tags, Location(path, line, column), pr, blob, checks))
    return reviews


def records(fd: int, size: int, version_key: str) -> Iterator[tuple[int, dict, bool]]:
    """The valid records of an open cache file, as (where their bodies start,
    index, whether its blocks are compressed), up to the first that is not (cut
    short, damaged, another version)."""
    pos = 0
    while pos + HEADER <= size:
        length = int.from_bytes(os.pread(fd, HEADER, pos), "little")
        if length > size - pos - HEADER:
            return
        try:
            doc = marshal.loads(os.pread(fd, length, pos + HEADER))
        except (EOFError, ValueError, TypeError):
            return
        bodies_at = pos + HEADER + length
        if (
            not isinstance(doc, tuple)
            or len(doc) != 6
            or doc[0] != FORMAT
            or doc[1] != VERSION
            or doc[2] != version_key
            or not isinstance(doc[3], dict)
            or not isinstance(doc[4], int)
            or not 0 <= doc[4] <= size - bodies_at  # the bodies, all there
            or not isinstance(doc[5], bool)
        ):
            return
        yield bodies_at, doc[3], doc[5]
        pos = bodies_at + doc[4]


def open_regular(path: Path) -> tuple[int, int] | None:
    """An open file descriptor and size, or None if it is not a readable regular file."""
    try:
        # Without blocking: a named pipe in the cache's place would wait for a writer.
        fd = os.open(path, OPEN_FLAGS)
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
    except OSError:
        os.close(fd)
        return None
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        return None
    return fd, info.st_size


def saved_records(
    entries: list[tuple[str, tuple]],
    version_key: str,
    saved: set[str],
    first: int = 0,
    placed: Placed | None = None,
) -> Iterator[bytes]:
    """The main file, a record at a time, each of about `RECORD_BYTES` of
    compressed blocks, the first `first` entries in a record of their own (the
    first frame's: a start reads its index alone before drawing); the names of
    the files saved are added to `saved`, and where their bodies went to
    `placed` (if given). Each entry is (stamp, reviews, problems)."""
    index: dict[str, tuple] = {}
    blocks: list[bytes] = []
    offset = 0
    written = 0  # the file's bytes yielded so far
    record: list[tuple[str, list[Review], int, int, list[tuple[int, int]]]] = []  # for `placed`
    for n, (name, (current, reviews, problems)) in enumerate(entries, 1):
        made = _one_block(reviews)
        if made is None:
            continue  # a body that cannot be read: left out, parsed next time
        block, starts = made
        length = len(block)
        packed = tuple(
            (
                r.title,
                r.repo,
                r.verdict,
                r.tags,
                r.location.line,
                r.location.column,
                r.pr,
                r.checks,
                offset,
                length,
                s,
                e,
            )
            for r, (s, e) in zip(reviews, starts, strict=True)
        )
        index[name] = (current, packed, problems)
        if placed is not None:
            record.append((name, reviews, offset, length, starts))
        blocks.append(block)
        offset += length
        if offset >= RECORD_BYTES or n >= first > 0:
            first = 0
            written = yield from _yield_record(index, blocks, offset, version_key, written, record, placed)
            saved.update(index)
            index, blocks, offset, record = {}, [], 0, []
    if index or not saved:
        yield from _yield_record(index, blocks, offset, version_key, written, record, placed)
        saved.update(index)


class Placed:
    """Where a save put each file's bodies in the main file it wrote: the
    records' `bodies_at`, and by name (the reviews saved, their record, their
    block's offset and length, each body's slice of it inflated). A table of
    those very reviews can point into that file (`tui.load.table_file`)."""

    def __init__(self) -> None:
        self.file: OpenFile | None = None  # that file, opened once written (`ParseCache.save`)
        self.records: list[int] = []
        self.files: dict[str, tuple[list[Review], int, int, int, list[tuple[int, int]]]] = {}


def _yield_record(
    index: dict,
    blocks: list[bytes],
    length: int,
    version_key: str,
    written: int,
    record: list[tuple[str, list[Review], int, int, list[tuple[int, int]]]],
    placed: Placed | None,
) -> Generator[bytes, None, int]:
    """Yield one record's bytes; return the file's length after it."""
    parts = _record(index, blocks, length, version_key)
    if placed is not None:
        r = len(placed.records)
        placed.records.append(written + len(parts[0]) + len(parts[1]))  # its bodies_at
        for name, reviews, offset, size, starts in record:
            placed.files[name] = (reviews, r, offset, size, starts)
    yield from parts
    return written + sum(map(len, parts))


def _record(index: dict, blocks: list[bytes], length: int, version_key: str) -> list[bytes]:
    doc = marshal.dumps((FORMAT, VERSION, version_key, index, length, True))
    return [len(doc).to_bytes(HEADER, "little"), doc, *blocks]


def _one_block(reviews: list[Review]) -> tuple[bytes, list[tuple[int, int]]] | None:
    """A file's bodies as one compressed block, and each body's place in it
    once inflated: copied as it is when it is one in a compressed cache file
    already, else made now. None if a body cannot be read."""
    bodies = [review._blob for review in reviews]
    first = bodies[0] if bodies else None
    if (
        isinstance(first, _Body)
        and first.source is not None
        and first.source.packed
        and all(
            isinstance(b, _Body) and b.source is first.source and b.offset == first.offset for b in bodies
        )
    ):
        block = first.source.raw(first.offset, first.length)
        if block is None:
            return None
        return block, [(b.start, b.end) for b in bodies]  # type: ignore[union-attr]
    blobs = []
    for review, body in zip(reviews, bodies, strict=True):
        if isinstance(body, bytes):
            blobs.append(body)
        elif callable(body):
            blobs.append(body())  # read without keeping it on the review
        else:
            blobs.append(review.blob)
    starts, start = [], 0
    for blob in blobs:
        starts.append((start, start + len(blob)))
        start += len(blob)
    return (zlib.compress(b"".join(blobs), LEVEL) if blobs else b""), starts


def decode_review(path: Path, raw: tuple, source: Source | None) -> Review:
    """One review of `ParseCache.index_of`'s answer, its body where the cache has it."""
    return _decode(path, raw, source)


def decode_entry(path: Path, reviews: tuple, problems: tuple, source: Source | None = None) -> FileUpdate:
    return FileUpdate(
        _decode_all(path, reviews, source),
        [Problem(Location(path, line, column), message) for line, column, message in problems],
    )
