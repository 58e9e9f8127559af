"""What a shared state folder's files merged to at the last start, kept locally.

A start with the cache reads only the machines' files that changed since
(`tui.store.shared_scan`): the merged marks come from here in one `marshal`
call. The cache is this machine's, in its cache folder (never in the shared
folder, where every file is one machine's own); it is derived from the
folder's files, so losing it costs one slower start, and one that cannot be
read whole (another version, a torn or flipped byte: a CRC covers it) is
ignored. Written atomically.

Layout: `MAGIC`, the CRC-32 of the rest (4 bytes, big-endian), then one
marshal of `(folder, journal version, newest stamp, files, reviews)`:
- files: `(name, signature, end, prefix, machine, token, tail, broken)` per
  machine's file, as `Entry`;
- reviews: lists of keys, read and seen marks (a mark as `(value, wall,
  count, machine, digest)`) and item counts, one entry per review; then the
  items of every review in a row, one list per field.
"""

from __future__ import annotations

import contextlib
import json
import marshal
import os
import zlib
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from tui.core.clock import Stamp
from tui.core.marks import Mark, ReviewMarks, Seen
from tui.store import journal
from tui.store.atomic import remove_stale_temps, write_atomic
from tui.store.journal import Header
from tui.store.safe_read import read_regular

MAGIC = b"prdigest-tui/shared-marks-cache 1\n"
"""The format and its version: bump the number when the layout or the meaning changes."""
MAX_BYTES = 1024 * 1024 * 1024


class Entry(NamedTuple):
    """How far one machine's file was read, and how to tell it is the same file."""

    signature: tuple[int, int, int, int] | None
    """inode, size, mtime and ctime (ns); None if the file changed too near the
    read for its times to tell a later change (it is read and checked next time)."""
    end: int
    """Where reading stopped: after the last whole line."""
    prefix: bytes
    """A digest of the bytes before `end`: the file grown, or replaced by a sync
    tool with what it held and more, still has them."""
    header: Header | None
    tail: bytes
    """The last bytes before `end` (for `shared.Cursor`)."""
    broken: bool
    """A bad line before the end: the file is read again at every start."""


class Cached(NamedTuple):
    reviews: dict[str, ReviewMarks]
    files: dict[str, Entry]
    newest: Stamp | None


def load(path: Path, folder: Path) -> Cached | None:
    """What the cache at `path` holds for `folder`; None if nothing usable."""
    try:
        data = read_regular(path, MAX_BYTES)
    except OSError:
        return None
    head = len(MAGIC) + 4
    if not data.startswith(MAGIC) or len(data) < head:
        return None
    body = memoryview(data)[head:]
    if zlib.crc32(body) != int.from_bytes(data[len(MAGIC) : head], "big"):
        return None
    try:
        where, version, newest, files, reviews = marshal.loads(body)
        if where != os.fsencode(os.path.abspath(folder)) or version != journal.VERSION:
            return None
        return Cached(_reviews(reviews), _files(files), None if newest is None else Stamp(*newest))
    except Exception:  # a cache that does not decode is no cache, whatever it holds
        return None


def save(
    path: Path, folder: Path, reviews: dict[str, ReviewMarks], files: dict[str, Entry], newest: Stamp | None
) -> bool:
    """Record what `folder` merged to; False (quietly) if it cannot be written."""
    body = marshal.dumps(
        (
            os.fsencode(os.path.abspath(folder)),
            journal.VERSION,
            None if newest is None else tuple(newest),
            tuple(
                (name, e.signature, e.end, e.prefix, *(e.header or (None, None)), e.tail, e.broken)
                for name, e in files.items()
            ),
            _encoded(reviews),
        )
    )
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temps(path)  # a writer killed mid-write
        write_atomic(path, MAGIC, zlib.crc32(body).to_bytes(4, "big"), body)
        return True
    return False


def _encoded(reviews: dict[str, ReviewMarks]) -> tuple[list[Any], ...]:
    """Per review its key, read and seen marks and how many items; the items in
    columns, one list per field (decoded in C loops: `_reviews`)."""
    keys, reads, seens, counts = [], [], [], []
    names: list[str] = []
    values: list[bool] = []
    walls: list[float] = []
    ticks: list[int] = []
    machines: list[str] = []
    digests: list[str | None] = []
    for key, marks in reviews.items():
        read, seen = marks.read, marks.seen
        keys.append(key)
        reads.append(None if read is None else (read.value, *read.at, read.digest))
        seens.append(None if seen is None else (_text(seen.fingerprint), *seen.at))
        counts.append(len(marks.items))
        for item, mark in marks.items.items():
            at = mark.at
            names.append(item)
            values.append(mark.value)
            walls.append(at.wall)
            ticks.append(at.count)
            machines.append(at.machine)
            digests.append(mark.digest)
    return (keys, reads, seens, counts, names, values, walls, ticks, machines, digests)


def _text(fingerprint: dict[str, object] | str) -> str:
    """A fingerprint as a machine's file holds it (read, it is that text until first compared)."""
    if isinstance(fingerprint, str):
        return fingerprint
    return json.dumps(fingerprint, ensure_ascii=False, separators=(",", ":"))


def _reviews(raw: tuple[Any, ...]) -> dict[str, ReviewMarks]:
    """The marks back: each a `Mark` (or `Seen`) of a `Stamp`, made as the journal's fold makes them."""
    keys, reads, seens, counts, names, values, walls, ticks, machines, digests = raw
    new = tuple.__new__
    stamps = map(partial(new, Stamp), zip(walls, ticks, machines, strict=True))
    items = list(map(partial(new, Mark), zip(values, stamps, digests, strict=True)))
    if len(items) != len(names) or sum(counts) != len(names):
        raise ValueError("items and their counts do not match")
    out: dict[str, ReviewMarks] = {}
    at = 0
    for key, read, seen, count in zip(keys, reads, seens, counts, strict=True):
        marks = out[key] = ReviewMarks()
        if read is not None:
            value, wall, tick, machine, digest = read
            marks.read = new(Mark, (value, new(Stamp, (wall, tick, machine)), digest))
        if seen is not None:
            text, wall, tick, machine = seen
            marks.seen = new(Seen, (text, new(Stamp, (wall, tick, machine))))
        if count:
            marks.items = dict(zip(names[at : at + count], items[at : at + count], strict=True))
            at += count
    return out


def _files(raw: tuple[Any, ...]) -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    for name, signature, end, prefix, machine, token, tail, broken in raw:
        header = None if machine is None else Header(machine, token)
        out[name] = Entry(signature, end, prefix, header, tail, broken)
    return out
