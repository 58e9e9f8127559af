"""A shared state folder read at start: every machine's file, or, with the local
cache of the last start (`tui.store.shared_cache`), only what changed since.

A file whose inode, size, mtime and ctime are those the cache recorded is not
read. One that changed is read whole and, if its first bytes are the ones the
cache read (their digest: a sync tool replaces a file whole, so the inode
alone says nothing), only what follows is folded in; appended lines only add
marks, and the fold keeps the greater of two marks in any order
(`journal._fold`), so that is what reading every file gives. A file gone, or
changed before where the cache read to (shrunk, compacted by its writer,
replaced by another), has marks the cache cannot take back out: then every
file is read again. A file changed within `RACY_NS` of a read is not trusted
by its times at the next start (a file rewritten in the same clock tick keeps
them): it is read and its digest checked.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from pathlib import Path
from typing import NamedTuple

from tui.core.clock import Stamp
from tui.core.marks import ReviewMarks
from tui.store import journal, shared_cache
from tui.store.journal import SUFFIX, Header
from tui.store.safe_read import OPEN_FLAGS
from tui.store.shared_cache import Cached, Entry

MAX_MARKS_BYTES = 256 * 1024 * 1024
"""A machine's file larger than this is not read."""
RACY_NS = 2_000_000_000
TAIL = 64
REWRITE_PARSED = 64 * 1024
REWRITE_READ = 4 * 1024 * 1024
"""The cache is written anew when a start had to fold more than `REWRITE_PARSED`
bytes past where it stopped, or read (and digest) more than `REWRITE_READ`
bytes of changed files: less is redone at the next start more cheaply than the
cache is written (a few ms and an fsync)."""


class Cursor(NamedTuple):
    """How far a file was read: to read only what was appended since."""

    signature: tuple[int, int, int]  # inode, size, mtime (ns): unchanged means not read again
    end: int
    header: Header | None
    tail: bytes  # the bytes before `end`: the same file grown has them at the same place


class Scan(NamedTuple):
    """What a start read: the merged marks and how far each file was read."""

    reviews: dict[str, ReviewMarks]
    cursors: dict[str, Cursor]
    headers: list[tuple[str, Header]]  # every file's, in the folder's order (for the twin check)
    broken: dict[str, str]  # file name -> why a line inside could not be read
    newest: Stamp | None
    notes: list[str]
    read: int  # bytes of changed files read (0: every file as the cache had it)
    parsed: int  # bytes of them folded in, past where the cache stopped


def is_marks_file(name: str) -> bool:
    """A machine's file or a sync tool's conflict copy of one; not a temp file."""
    return name.endswith(SUFFIX) and not name.startswith((".", "~"))


def marks_file_info(entry: os.DirEntry[str]) -> os.stat_result | None:
    """`entry`'s own stat (a link is not followed) when it is a regular file
    small enough to be a machine's marks; None for a link, a device, a folder,
    a file too big or gone."""
    try:
        info = entry.stat(follow_symlinks=False)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_MARKS_BYTES:
        return None
    return info


def read_folder(folder: Path, cache: Path | None) -> Scan:
    """Every machine's file in `folder`, merged; with `cache`, from it where the
    files are as it saw them, and the cache brought up to date."""
    cached = shared_cache.load(cache, folder) if cache is not None else None
    scan, files = _scan(folder, cached, cache is not None)
    whole = scan is None or cached is None
    if scan is None:  # a file gone or rewritten: its marks cannot be taken out of the cache's
        scan, files = _scan(folder, None, cache is not None)
        assert scan is not None
    if (
        cache is not None
        and files is not None
        and (files or cached is not None)
        and (whole or scan.parsed > REWRITE_PARSED or scan.read > REWRITE_READ)
    ):
        shared_cache.save(cache, folder, scan.reviews, files, scan.newest)
    return scan


def _scan(folder: Path, cached: Cached | None, keep: bool) -> tuple[Scan | None, dict[str, Entry] | None]:
    """The folder read (from `cached` where it can be); None if `cached` cannot
    serve. The entries to cache (their digests only if `keep`): None if the
    folder could not be listed."""
    reviews: dict[str, ReviewMarks] = cached.reviews if cached is not None else {}
    newest = cached.newest if cached is not None else None
    scan = Scan(reviews, {}, [], {}, newest, [], 0, 0)
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return (None if cached is not None and cached.files else scan), None  # made by the first save
    except OSError as exc:
        scan.notes.append(f"Cannot read marks from {folder}: {exc.strerror or exc}.")
        return (None if cached is not None else scan), None
    files: dict[str, Entry] = {}
    now = time.time_ns()
    read = parsed_bytes = 0
    for item in entries:
        name = item.name
        if not is_marks_file(name):
            continue
        if (info := marks_file_info(item)) is None:
            continue
        old = cached.files.get(name) if cached is not None else None
        if old is not None and not old.broken and old.signature == _signature(info):
            files[name] = old
            scan.cursors[name] = Cursor(old.signature[:3], old.end, old.header, old.tail)
            if old.header is not None:
                scan.headers.append((name, old.header))
            continue
        try:
            got = _read(Path(item.path))
        except OSError:
            continue  # gone, or being replaced: its next change brings it back
        if got is None:
            continue
        info, data = got
        start, header, digest = 0, None, hashlib.blake2b(digest_size=16)
        if old is not None:
            if len(data) < old.end:
                return None, None
            digest.update(memoryview(data)[: old.end])
            if digest.digest() != old.prefix:
                return None, None
            start, header = old.end, old.header
        parsed = journal.parse(data, start, header, into=reviews)
        read += len(data)
        parsed_bytes += parsed.end - start
        if keep:
            digest.update(memoryview(data)[start : parsed.end])
        if parsed.newest is not None and (newest is None or parsed.newest > newest):
            newest = parsed.newest
        signature = _signature(info) if info.st_ctime_ns < now - RACY_NS else None
        tail = data[max(0, parsed.end - TAIL) : parsed.end]
        files[name] = Entry(
            signature, parsed.end, digest.digest(), parsed.header, tail, parsed.broken is not None
        )
        scan.cursors[name] = Cursor(
            (info.st_ino, info.st_size, info.st_mtime_ns), parsed.end, parsed.header, tail
        )
        if parsed.header is not None:
            scan.headers.append((name, parsed.header))
        if parsed.broken is not None:
            scan.broken[name] = parsed.broken
    if cached is not None and not cached.files.keys() <= files.keys():
        return None, None  # a file gone (or no longer a machine's file)
    return scan._replace(newest=newest, read=read, parsed=parsed_bytes), files


def _signature(info: os.stat_result) -> tuple[int, int, int, int]:
    return (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _read(path: Path) -> tuple[os.stat_result, bytes] | None:
    fd = os.open(path, OPEN_FLAGS | getattr(os, "O_NOFOLLOW", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        return info, read_from(fd, 0, MAX_MARKS_BYTES)
    finally:
        os.close(fd)


def read_from(fd: int, start: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    pos = start
    while pos - start <= limit:
        chunk = os.pread(fd, 1 << 20, pos)
        if not chunk:
            break
        chunks.append(chunk)
        pos += len(chunk)
    return b"".join(chunks)


def lines_in(fd: int, end: int) -> int:
    """The lines in the first `end` bytes of the file at `fd`."""
    count = pos = 0
    while pos < end:
        chunk = os.pread(fd, min(1 << 20, end - pos), pos)
        if not chunk:
            break
        count += chunk.count(b"\n")
        pos += len(chunk)
    return count
