"""A parse cache: what each entry file loaded to, keyed by path, size and mtime.

Parsing is the expensive part of start-up (libyaml plus validation); a warm
start decodes this file instead. Each review is kept as the few fields a list
row needs plus its body packed as bytes (`Review.blob`). A cache file is a
sequence of records, each an index (marshal: the list fields and, for each
body, where its bytes are) followed by the bodies, one block per entry file.
The main file's blocks are compressed (zlib level 1: a page of ten reviews
to about a quarter; a body is one slice of its block), the journals' are not
(compressing ~45 µs a body was a third more work for the parse workers on a
folder of one review per file). A start reads the indexes only, and a block
is read (and inflated) when one of its reviews is first opened, searched or
compared.

The cache is the main file (written atomically by `save`) and
journals next to it (`<main>.<pid>-<token>.journal`): while a first load runs,
each parse worker appends a record to a journal of its own for every task it
parses, before the reader even gets the answer. So what was parsed is on disk
however soon the reader is ended, and the reader never holds the bodies it did
not show. The next save folds the journals into the main file and removes them.

`marshal`: fast to read, version-checked, and unable to construct objects on
load the way pickle can. Nothing is changed in place, so a body is read from
the file its index came from even after a save replaced it. A corrupt,
truncated or old-version record is ignored (with everything after it in its
file), a body that cannot be read is parsed again from its entry file: never
trusted, never an error shown to the reader.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
import sys
import threading
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from tui.core.model import BODY, FileUpdate, Location, Problem, Review, body_default
from tui.store.atomic import remove_stale_temps, write_atomic
from tui.store.safe_read import OPEN_FLAGS

FORMAT = "prdigest-tui/parse-cache"
VERSION = 7  # 7: journals, compressed bodies; 6: text cleaned of invisible characters
"""Bump when the model or the loader's rules change: old caches are then ignored."""

Stamp = tuple[int, int]  # size, mtime_ns

LEVEL = 1
"""zlib level of the main file's blocks: level 6 saves ~4% more for ~3x the time."""
RECORD_BYTES = 4 * 1024 * 1024
"""A save writes records of about this many bytes of blocks: what it holds at once."""
JOURNAL_SUFFIX = ".journal"


def stamp(path: Path) -> Stamp | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns


_HEADER = 8
"""Bytes before a record's index: its length, little-endian."""
EMPTY_BODY = marshal.dumps(tuple("" if name == "summary" else body_default(name) for name in BODY))


class _File:
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


class _Source:
    """One record of a file: where its bodies start, and whether its blocks are compressed."""

    __slots__ = ("bodies_at", "file", "packed")

    def __init__(self, file: _File, bodies_at: int, packed: bool) -> None:
        self.file, self.bodies_at, self.packed = file, bodies_at, packed

    def body(self, offset: int, length: int, start: int, end: int) -> bytes | None:
        if not self.packed:
            return self.file.read(self.bodies_at + offset + start, end - start)
        block = self.file.block(self.bodies_at + offset, length)
        return None if block is None else block[start:end]

    def raw(self, offset: int, length: int) -> bytes | None:
        """A block as it is in the file."""
        return self.file.read(self.bodies_at + offset, length)


class _Body:
    """A review's body still in a cache file: read when first needed. `offset`
    and `length` are its page's block, `start` and `end` the body in the block
    once inflated."""

    __slots__ = ("end", "length", "location", "offset", "source", "start")

    def __init__(
        self, source: _Source | None, offset: int, length: int, start: int, end: int, location: Location
    ) -> None:
        self.source, self.offset, self.length, self.start, self.end = source, offset, length, start, end
        self.location = location

    def __call__(self) -> bytes:
        source = self.source
        data = source.body(self.offset, self.length, self.start, self.end) if source is not None else None
        if data is not None and _is_body(data):
            return data
        return _body_from_file(self.location)


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


def _decode(path: Path, raw: tuple, source: _Source | None) -> Review:
    """A review from its cache tuple: its list fields and checklist size, with
    its body's bytes (9 fields: fresh from a parse) or where they are in a
    cache file (12 fields: block offset and length, and the body's start and
    end in the block)."""
    title, repo, verdict, tags, line, column, pr, checks, *where = raw
    location = Location(path, line, column)
    if not isinstance(checks, int):
        raise TypeError("bad checklist size")
    if len(where) == 4:
        offset, length, start, end = where
        if not all(isinstance(n, int) for n in where):
            raise TypeError("bad body reference")
        body = _Body(source, offset, length, start, end, location)
        return Review.packed(title, repo, verdict, tags, location, pr, body, checks)
    (blob,) = where
    if not isinstance(blob, bytes):
        raise TypeError("bad body")
    return Review.packed(title, repo, verdict, tags, location, pr, blob, checks)


def _records(fd: int, size: int, version_key: str) -> Iterator[tuple[int, dict, bool]]:
    """The valid records of an open cache file, as (where their bodies start,
    index, whether its blocks are compressed), up to the first that is not (cut
    short, damaged, another version)."""
    pos = 0
    while pos + _HEADER <= size:
        length = int.from_bytes(os.pread(fd, _HEADER, pos), "little")
        if length > size - pos - _HEADER:
            return
        try:
            doc = marshal.loads(os.pread(fd, length, pos + _HEADER))
        except (EOFError, ValueError, TypeError):
            return
        bodies_at = pos + _HEADER + length
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


def _open_regular(path: Path) -> tuple[int, int] | None:
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


def journals(path: Path) -> list[Path]:
    """The journals next to the cache file `path`, oldest first."""
    prefix = path.name + "."
    found = []
    with contextlib.suppress(OSError), os.scandir(path.parent) as listing:
        for entry in listing:
            if entry.name.startswith(prefix) and entry.name.endswith(JOURNAL_SUFFIX):
                with contextlib.suppress(OSError):
                    found.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.name))
    return [path.parent / name for _, name in sorted(found)]


class Journal:
    """A journal of this process, created at its first record: each record is
    one task's entries and their bodies, appended with one write."""

    def __init__(self, cache_path: Path, version_key: str) -> None:
        self.cache_path, self.version_key = cache_path, version_key
        self.path: Path | None = None
        self._fd: int | None = None
        self._size = 0
        self._lock = threading.Lock()
        self._failed = False

    def _open(self) -> int | None:
        if self._fd is None and not self._failed:
            name = f"{self.cache_path.name}.{os.getpid()}-{os.urandom(4).hex()}{JOURNAL_SUFFIX}"
            path = self.cache_path.parent / name
            flags = (
                os.O_WRONLY
                | os.O_CREAT
                | os.O_EXCL
                | getattr(os, "O_NOFOLLOW", 0)
                | getattr(os, "O_CLOEXEC", 0)
            )
            try:
                self.cache_path.parent.mkdir(parents=True, exist_ok=True)
                self._fd = os.open(path, flags, 0o600)
                self.path = path
            except OSError:
                self._failed = True
        return self._fd

    def append(self, entries: list[tuple[str, Stamp | None, tuple, tuple]]) -> tuple[str | None, int, list]:
        """Write `entries` (made by `parse_files`, bodies inline) as a record;
        return what the reader decodes: the journal, where the record's bodies
        start, and the entries with their bodies' places instead of their bytes."""
        index, blocks, out = _pack(entries)
        bodies_length = sum(map(len, blocks))
        doc = marshal.dumps((FORMAT, VERSION, self.version_key, index, bodies_length, False))
        with self._lock:
            fd = self._open()
            if fd is None:
                return None, 0, entries  # no journal: the bodies go to the reader
            head = len(doc).to_bytes(_HEADER, "little")
            record = b"".join([head, doc, *blocks])
            try:
                written = os.pwrite(fd, record, self._size)
            except OSError:
                written = -1
            if written != len(record):
                self._failed = True
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, self._size)  # never a record cut short before the next
                return None, 0, entries
            bodies_at = self._size + _HEADER + len(doc)
            self._size += len(record)
        return str(self.path), bodies_at, out

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                with contextlib.suppress(OSError):
                    os.close(self._fd)
                self._fd = None


def _pack(entries: Iterable[tuple[str, Stamp | None, tuple, tuple]]) -> tuple[dict, list[bytes], list]:
    """Entries with inline bodies, as a journal's record: its index, its blocks
    (one per file, not compressed), and the entries as the index has them
    (with the file name first)."""
    index: dict[str, tuple] = {}
    blocks: list[bytes] = []
    out = []
    offset = 0
    for name, before, reviews, problems in entries:
        block = b"".join([raw[8] for raw in reviews])
        length = len(block)
        start = 0
        packed = []
        for raw in reviews:
            end = start + len(raw[8])
            packed.append((*raw[:8], offset, length, start, end))
            start = end
        packed_t = tuple(packed)
        if before is not None:
            index[name] = (before, packed_t, problems)
        out.append((name, before, packed_t, problems))
        blocks.append(block)
        offset += length
    return index, blocks, out


class ParseCache:
    """Cached loads by path. `get` answers only when size and mtime still match."""

    def __init__(self, path: Path | None, version_key: str = "") -> None:
        self.path = path
        self.version_key = version_key
        self._raw: dict[
            str, tuple
        ] = {}  # name -> (stamp, reviews, problems, source): read, not yet asked for
        self._fresh: dict[str, tuple] = {}  # name -> (stamp, reviews, problems): to save
        self._on_disk: set[str] = set()  # the files the main file holds: what was loaded, then saved
        self._journals: dict[str, _File] = {}  # journals read or written to since `load`: folded in at save
        self.dirty = False
        self._main: _File | None = None
        self._saving = threading.Lock()

    def load(self) -> bool:
        """Read the indexes of the cache file and its journals; False (and an
        empty cache) if there is nothing usable."""
        self._raw, self._on_disk, self._journals = {}, set(), {}
        if self._main is not None:
            self._main.close()
            self._main = None
        if self.path is None:
            return False
        main = self._read(self.path)
        if main is not None:
            self._main = main
            self._on_disk = set(self._raw)
        for journal in journals(self.path):
            file = self._read(journal)
            if file is not None:
                self._journals[str(journal)] = file
        return bool(self._raw)

    def _read(self, path: Path) -> _File | None:
        opened = _open_regular(path)
        if opened is None:
            return None
        fd, size = opened
        file = _File(fd)
        raw = self._raw
        found = False
        try:
            for bodies_at, index, packed in _records(fd, size, self.version_key):
                source = _Source(file, bodies_at, packed)
                for name, entry in index.items():
                    if isinstance(entry, tuple) and len(entry) == 3:
                        raw[name] = (*entry, source)
                found = True
        except OSError:
            pass
        if not found:
            file.close()
            return None
        return file

    def has(self, path: Path) -> bool:
        """Is there an entry for `path`, whatever its stamp?"""
        return str(path) in self._raw

    def get(self, path: Path, current: Stamp | None) -> FileUpdate | None:
        name = str(path)
        entry = self._raw.get(name)
        if entry is None or current is None or entry[0] != current:
            return None
        try:
            _, reviews, problems, source = entry
            update = decode_entry(path, reviews, problems, source)
        except (TypeError, ValueError):
            return None  # a damaged entry is a miss, not an error
        del self._raw[name]  # the reviews hold what it held
        self._fresh[name] = (current, update.reviews, problems)
        return update

    def index_of(self, path: Path, current: Stamp | None) -> tuple[tuple, object] | None:
        """`path`'s reviews as the index holds them, undecoded (each a tuple:
        title, repo, verdict, tags, line, column, pr, ...), and where their
        bodies are (for `decode_review`); None unless size and mtime still match.
        For readers that only count (`tui.load.rows`): no `Review` is built."""
        entry = self._raw.get(str(path))
        if entry is None or current is None or entry[0] != current:
            return None
        reviews = entry[1]
        return (reviews, entry[3]) if isinstance(reviews, tuple) else None

    def store(self, answer: list | tuple) -> dict[Path, FileUpdate | None]:
        """Keep entries made by `parse_files` (here, in a thread or in another
        process), each under the stamp its file had before it was parsed, and
        return them decoded. `answer`: the entries, or (journal, where the
        record's bodies start, entries) when they were written to a journal.

        A file that was gone when it was parsed, and still is, is None (gone),
        not a "No such file" problem: a file found by a folder scan and removed
        before the parser reached it was renamed or deleted, as the watcher
        would have told."""
        source = None
        if isinstance(answer, tuple):
            journal, bodies_at, answer = answer
            if journal is not None:
                source = _Source(self._journal(journal), bodies_at, False)
        decoded: dict[Path, FileUpdate | None] = {}
        for name, before, reviews, problems in answer:
            path = Path(name)
            if before is None and not os.path.lexists(name):
                decoded[path] = None
                continue
            update = decoded[path] = decode_entry(path, reviews, problems, source)
            if before is not None:
                self._fresh[name] = (before, update.reviews, problems)
                self.dirty = True
        return decoded

    def _journal(self, name: str) -> _File:
        file = self._journals.get(name)
        if file is None:
            opened = _open_regular(Path(name))
            file = self._journals[name] = _File(opened[0] if opened else None)
        return file

    def journal(self) -> Journal | None:
        """A journal for parsing in this process (None without a cache file)."""
        return Journal(self.path, self.version_key) if self.path is not None else None

    def stamp_of(self, path: Path) -> Stamp | None:
        """The stamp `path` had when it was last loaded (from the cache or
        parsed), or None if it was not."""
        entry = self._fresh.get(str(path))
        return entry[0] if entry is not None else None

    def forget(self, paths: Iterable[Path]) -> None:
        for path in paths:
            if self._fresh.pop(str(path), None) is not None:
                self.dirty = True

    def save(self) -> None:
        """Write the entries used or added since `load` into the main file,
        atomically, then remove the journals it folded in. Errors are ignored:
        a cache that cannot be written only costs the next start-up time.

        One save at a time (the App saves from a thread, and Textual cannot stop
        a thread worker that a newer one replaces): on a slow disk, saves that
        overlapped would each hold the cache's bodies."""
        with self._saving:
            self._save()

    def _save(self) -> None:
        if self.path is None:
            return
        # A save killed half way (SIGTERM, kill -9) leaves a temp file as big as
        # the cache; this one runs after every start's load, dirty or not.
        remove_stale_temps(self.path)
        if set(self._fresh) != self._on_disk or self._journals:
            self.dirty = True
        if not self.dirty:
            return
        entries = list(self._fresh.items())
        saved: set[str] = set()
        folded = list(self._journals)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Record by record: a save holds one record's blocks at a time, not
            # all of them (~50 MB at 100,000 reviews).
            write_atomic(self.path, _saved_records(entries, self.version_key, saved))
        except OSError:
            return
        self._on_disk = saved
        self.dirty = False
        for name in folded:  # in the main file now; reviews still read from the open files
            with contextlib.suppress(OSError):
                os.unlink(name)
        self._journals = {}


def _saved_records(entries: list[tuple[str, tuple]], version_key: str, saved: set[str]) -> Iterator[bytes]:
    """The main file, a record at a time, each of about `RECORD_BYTES` of
    compressed blocks; the names of the files saved are added to `saved`."""
    index: dict[str, tuple] = {}
    blocks: list[bytes] = []
    offset = 0
    for name, (current, reviews, problems) in entries:
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
        blocks.append(block)
        offset += length
        if offset >= RECORD_BYTES:
            yield from _record(index, blocks, offset, version_key)
            saved.update(index)
            index, blocks, offset = {}, [], 0
    if index or not saved:
        yield from _record(index, blocks, offset, version_key)
        saved.update(index)


def _record(index: dict, blocks: list[bytes], length: int, version_key: str) -> list[bytes]:
    doc = marshal.dumps((FORMAT, VERSION, version_key, index, length, True))
    return [len(doc).to_bytes(_HEADER, "little"), doc, *blocks]


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


def _packed(fields: dict[str, Any], line: int, column: int) -> tuple:
    """A review as cached, made from the loader's fields with items as tuples:
    what `_review` makes of the `Review` (its blob as `Review.blob` packs it)
    without making the `Review` and its `Item`s first. Repo, verdict and tags
    are interned: marshal then writes each once a task, and the reader keeps
    one copy of each (~20 MB less at 100,000 reviews)."""
    get = fields.get
    body = tuple([get(name, default) for name, default in _BODY_DEFAULTS])
    intern = sys.intern
    checks = len(get("focus", ())) + len(get("read_order", ()))
    return (
        fields["title"], intern(fields["repo"]), intern(fields["verdict"]),
        tuple([intern(tag) for tag in fields["tags"]]), line, column, get("pr"), checks, marshal.dumps(body),
    )  # fmt: skip


_BODY_DEFAULTS = tuple((name, body_default(name)) for name in BODY)


def _item(section: str, text: str, refs: tuple[str, ...], item_id: str | None) -> tuple:
    return (section, text, refs, item_id)


def parse_files(paths: list[str], journal: Journal | None = None) -> Any:
    """Parse files into cache entries (plain tuples), in a worker process or thread.

    Returns what `ParseCache.store` takes, so nothing is encoded twice and the
    data crosses the process boundary as plain tuples and strings: the entries,
    or, with a `journal`, the entries written to it as one record (see
    `Journal.append`).
    """
    from tui.load.parse import load_file

    out = []
    for name in paths:
        path = Path(name)
        before = stamp(path)
        result = load_file(path, build_review=_packed, build_item=_item)
        problems = tuple((p.location.line, p.location.column, p.message) for p in result.problems)
        out.append((name, before, tuple(result.reviews), problems))
    return out if journal is None else journal.append(out)


def decode_review(path: Path, raw: tuple, source: object) -> Review:
    """One review of `index_of`'s answer, with its body where the cache has it."""
    return _decode(path, raw, source if isinstance(source, _Source) else None)


def decode_entry(path: Path, reviews: tuple, problems: tuple, source: _Source | None = None) -> FileUpdate:
    return FileUpdate(
        [_decode(path, raw, source) for raw in reviews],
        [Problem(Location(path, line, column), message) for line, column, message in problems],
    )
