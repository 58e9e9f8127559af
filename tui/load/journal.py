"""What the parse workers make and write: cache entries, and the journals.

A parse worker (`tui.load.workers`, or a thread) turns entry files into cache
entries, plain tuples that cross the process boundary as they are
(`parse_files`). While a first load runs, each worker appends a record to a
journal of its own (`<main>.<pid>-<token>.journal`, next to the cache's main
file) for every task it parses, before the reader even gets the answer: what
was parsed is on disk however soon the reader is ended, and the reader never
holds the bodies it did not show. `ParseCache.save` folds the journals into the
main file and removes them.

Apart from `tui.load.cache`: this is what runs in the workers, and imports
neither the cache nor its main file's writer.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from _thread import allocate_lock  # threading.Lock itself: `status` imports this, not threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from tui.core.model import BODY, body_default
from tui.load.cache_format import FORMAT, HEADER, VERSION, Stamp
from tui.store.atomic import CREATE_FLAGS

JOURNAL_SUFFIX = ".journal"
BLOB = 8
"""Where a freshly parsed review's body bytes are: after its checklist size."""


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
        self._lock = allocate_lock()
        self._failed = False

    def _open(self) -> int | None:
        if self._fd is None and not self._failed:
            name = f"{self.cache_path.name}.{os.getpid()}-{os.urandom(4).hex()}{JOURNAL_SUFFIX}"
            path = self.cache_path.parent / name
            try:
                self.cache_path.parent.mkdir(parents=True, exist_ok=True)
                self._fd = os.open(path, CREATE_FLAGS, 0o600)
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
            head = len(doc).to_bytes(HEADER, "little")
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
            bodies_at = self._size + HEADER + len(doc)
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
        block = b"".join([raw[BLOB] for raw in reviews])
        length = len(block)
        start = 0
        packed = []
        for raw in reviews:
            end = start + len(raw[BLOB])
            packed.append((*raw[:BLOB], offset, length, start, end))
            start = end
        packed_t = tuple(packed)
        if before is not None:
            index[name] = (before, packed_t, problems)
        out.append((name, before, packed_t, problems))
        blocks.append(block)
        offset += length
    return index, blocks, out


def _packed(fields: dict[str, Any], line: int, column: int) -> tuple:
    """A review as cached, made from the loader's fields with items as tuples:
    what `_review` makes of the `Review` (its blob as `Review.blob` packs it)
    without making the `Review` and its `Item`s first. Repo, verdict and tags
    are interned: marshal then writes each once a task, and the reader keeps
    one copy of each."""
    get = fields.get
    body = tuple([get(name, default) for name, default in _BODY_DEFAULTS])
    intern = sys.intern
    checks = len(get("focus", ())) + len(get("read_order", ()))
    title, verdict, tags = (
        fields["title"],
        intern(fields["verdict"]),
        tuple([intern(tag) for tag in fields["tags"]]),
    )
    return (
        title, intern(fields["repo"]), verdict, tags, line, column, get("pr"), checks,
        marshal.dumps(body),
    )  # fmt: skip


_BODY_DEFAULTS = tuple((name, body_default(name)) for name in BODY)


def _item(section: str, text: str, refs: tuple[str, ...], item_id: str | None) -> tuple:
    return (section, text, refs, item_id)


def parse_files(
    paths: list[str] | list[Path], journal: Journal | None = None, stop: Callable[[], bool] | None = None
) -> Any:
    """Parse files into cache entries (plain tuples), in a worker process or thread.

    Returns what `ParseCache.store` takes, so nothing is encoded twice and the
    data crosses the process boundary as plain tuples and strings: the entries,
    or, with a `journal`, the entries written to it as one record (see
    `Journal.append`). `stop`, asked before each file but the first: True
    ends the parse there, and the answer holds the files parsed so far, the
    first ones of `paths` (`tui.load.pool_stand_in` hands the others back).
    """
    from tui.load.parse import load_file

    out: list[tuple[str, Stamp | None, tuple, tuple]] = []
    for given in paths:
        if out and stop is not None and stop():
            break
        name = given if isinstance(given, str) else str(given)  # read by name: no `Path` made
        try:
            info: os.stat_result | None = os.stat(name)
        except (OSError, ValueError):
            info = None
        before = (info.st_size, info.st_mtime_ns) if info is not None else None  # as `stamp` has it
        result = load_file(name, build_review=_packed, build_item=_item, known=info)
        problems = tuple((p.location.line, p.location.column, p.message) for p in result.problems)
        out.append((name, before, tuple(result.reviews), problems))
    return out if journal is None else journal.append(out)
