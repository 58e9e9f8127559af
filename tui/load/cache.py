"""A parse cache: what each entry file loaded to, keyed by path, size and mtime.

Parsing is the expensive part of start-up (libyaml plus validation); a warm
start decodes this file instead. Each review is kept as the few fields a list
row needs plus its body packed as bytes (`Review.blob`). The file is an index
(marshal: the list fields and, for each body, where its bytes are) followed by
the bodies: a start reads the index only, and a body is read from the file
when its review is first opened, searched or compared. So 10,000 cached
reviews load as 10,000 small objects, without reading 18 MB of bodies.

`marshal`: fast to read, version-checked, and unable to construct objects on
load the way pickle can. The file is written atomically (never changed in
place), so a body is read from the file the index came from even after a new
cache replaced it. A corrupt, truncated or old-version cache is ignored and
rebuilt, a body that cannot be read is parsed again from its entry file:
never trusted, never an error shown to the reader.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tui.core.model import BODY, FileUpdate, Location, Problem, Review, body_default
from tui.store.atomic import remove_stale_temps, write_atomic
from tui.store.safe_read import OPEN_FLAGS

FORMAT = "prdigest-tui/parse-cache"
VERSION = 6  # 6: text cleaned of invisible characters (tui.core.text)
"""Bump when the model or the loader's rules change: old caches are then ignored."""

Stamp = tuple[int, int]  # size, mtime_ns


def stamp(path: Path) -> Stamp | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns


_HEADER = 8
"""Bytes before the index: its length, little-endian."""
EMPTY_BODY = marshal.dumps(tuple("" if name == "summary" else body_default(name) for name in BODY))


class _Body:
    """A review's body still in the cache file: read when first needed."""

    __slots__ = ("cache", "length", "location", "offset")

    def __init__(self, cache: ParseCache, offset: int, length: int, location: Location) -> None:
        self.cache, self.offset, self.length, self.location = cache, offset, length, location

    def __call__(self) -> bytes:
        data = self.cache.read_body(self.offset, self.length)
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


def _decode(path: Path, raw: tuple, cache: ParseCache | None = None) -> Review:
    """A review from its cache tuple: with its body's bytes (8 fields: fresh from
    a parse) or where they are in the cache file (9 fields: offset, length)."""
    title, repo, verdict, tags, line, column, pr, *where = raw
    location = Location(path, line, column)
    if len(where) == 2 and cache is not None:
        offset, length = where
        if not (isinstance(offset, int) and isinstance(length, int)):
            raise TypeError("bad body reference")
        return Review.packed(title, repo, verdict, tags, location, pr, _Body(cache, offset, length, location))
    (blob,) = where
    if not isinstance(blob, bytes):
        raise TypeError("bad body")
    return Review.packed(title, repo, verdict, tags, location, pr, blob)


class ParseCache:
    """Cached loads by path. `get` answers only when size and mtime still match."""

    def __init__(self, path: Path | None, version_key: str = "") -> None:
        self.path = path
        self.version_key = version_key
        self._raw: dict[str, tuple] = {}
        self._fresh: dict[str, tuple] = {}
        self._on_disk: set[str] = set()  # the files the cache file holds: what was loaded, then saved
        self.dirty = False
        self._fd: int | None = None  # the file the index came from, for the bodies
        self._bodies_at = 0  # where the bodies start in it
        self._saving = threading.Lock()

    def load(self) -> bool:
        """Read the cache's index; False (and an empty cache) if it is missing or unusable."""
        self._raw, self._on_disk = {}, set()
        self._close()
        if self.path is None:
            return False
        try:
            # Without blocking: a named pipe in the cache's place would wait for a writer.
            fd = os.open(self.path, OPEN_FLAGS)
        except (OSError, ValueError):
            return False
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise ValueError("not a regular file")
            size = info.st_size
            length = int.from_bytes(os.pread(fd, _HEADER, 0), "little")
            if size < _HEADER or length > size - _HEADER:
                raise ValueError("truncated")
            doc = marshal.loads(os.pread(fd, length, _HEADER))
            if (
                not isinstance(doc, tuple)
                or len(doc) != 5
                or doc[0] != FORMAT
                or doc[1] != VERSION
                or doc[2] != self.version_key
                or not isinstance(doc[3], dict)
                or doc[4] != size - _HEADER - length  # the bodies, all there
            ):
                raise ValueError("not this cache")
        except (OSError, EOFError, ValueError, TypeError):
            os.close(fd)
            return False
        self._fd, self._bodies_at = fd, _HEADER + length
        self._raw = doc[3]
        self._on_disk = set(self._raw)
        return True

    def __del__(self) -> None:
        self._close()  # no review reads from this cache any more

    def _close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    def read_body(self, offset: int, length: int) -> bytes | None:
        """A body's bytes from the file the index was read from (still readable
        after a save replaced it: saves rename a new file in), or None."""
        fd = self._fd
        if fd is None:
            return None
        try:
            data = os.pread(fd, length, self._bodies_at + offset)
        except (OSError, ValueError, OverflowError):
            return None
        return data if len(data) == length else None

    def get(self, path: Path, current: Stamp | None) -> FileUpdate | None:
        entry = self._raw.get(str(path))
        if entry is None or current is None or entry[0] != current:
            return None
        try:
            _, reviews, problems = entry
            update = decode_entry(path, reviews, problems, self)
        except (TypeError, ValueError):
            return None  # a damaged entry is a miss, not an error
        self._fresh[str(path)] = entry
        return update

    def store(
        self, entries: Iterable[tuple[str, Stamp | None, tuple, tuple]]
    ) -> dict[Path, FileUpdate | None]:
        """Keep entries made by `parse_files` (here, in a thread or in another
        process), each under the stamp its file had before it was parsed, and
        return them decoded.

        A file that was gone when it was parsed, and still is, is None (gone),
        not a "No such file" problem: a file found by a folder scan and removed
        before the parser reached it was renamed or deleted, as the watcher
        would have told."""
        decoded: dict[Path, FileUpdate | None] = {}
        for name, before, reviews, problems in entries:
            path = Path(name)
            if before is not None:
                self._fresh[name] = (before, reviews, problems)
                self.dirty = True
            elif not os.path.lexists(name):
                decoded[path] = None
                continue
            decoded[path] = decode_entry(path, reviews, problems)
        return decoded

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
        """Write the entries used or added since `load`, atomically. Errors are
        ignored: a cache that cannot be written only costs the next start-up time.

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
        if set(self._fresh) != self._on_disk:
            self.dirty = True
        if not self.dirty:
            return
        bodies = bytearray()
        entries: dict[str, tuple] = {}
        for name, (current, reviews, problems) in list(self._fresh.items()):
            kept = []
            for raw in reviews:
                *fields, blob = raw[:8]
                if len(raw) == 9:  # still in the file we read: copy it over
                    blob = self.read_body(raw[7], raw[8])
                    if blob is None:
                        break  # unreadable: leave the file out, it is parsed next time
                kept.append((*fields, len(bodies), len(blob)))
                bodies += blob
            else:
                entries[name] = (current, tuple(kept), problems)
        index = marshal.dumps((FORMAT, VERSION, self.version_key, entries, len(bodies)))
        # Written in three parts: joining them would copy every body twice more
        # at each save.
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, len(index).to_bytes(_HEADER, "little"), index, bodies)
            self._on_disk = set(entries)
        self.dirty = False


def _packed(fields: dict[str, Any], line: int, column: int) -> tuple:
    """A review as cached, made from the loader's fields with items as tuples:
    what `_review` makes of the `Review` (its blob as `Review.blob` packs it)
    without making the `Review` and its `Item`s first."""
    get = fields.get
    body = tuple([get(name, default) for name, default in _BODY_DEFAULTS])
    return (
        fields["title"], fields["repo"], fields["verdict"], fields["tags"],
        line, column, get("pr"), marshal.dumps(body),
    )  # fmt: skip


_BODY_DEFAULTS = tuple((name, body_default(name)) for name in BODY)


def _item(section: str, text: str, refs: tuple[str, ...], item_id: str | None) -> tuple:
    return (section, text, refs, item_id)


def parse_files(paths: list[str]) -> list[tuple[str, Stamp | None, tuple, tuple]]:
    """Parse files into cache entries (plain tuples), in a worker process or thread.

    Returns what `ParseCache.store` takes, so nothing is encoded twice and the
    data crosses the process boundary as plain tuples and strings.
    """
    from tui.load.parse import load_file

    out = []
    for name in paths:
        path = Path(name)
        before = stamp(path)
        result = load_file(path, build_review=_packed, build_item=_item)
        problems = tuple((p.location.line, p.location.column, p.message) for p in result.problems)
        out.append((name, before, tuple(result.reviews), problems))
    return out


def decode_entry(path: Path, reviews: tuple, problems: tuple, cache: ParseCache | None = None) -> FileUpdate:
    return FileUpdate(
        [_decode(path, raw, cache) for raw in reviews],
        [Problem(Location(path, line, column), message) for line, column, message in problems],
    )
