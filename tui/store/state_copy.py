"""A copy of the state file's marks in the cache folder, read in a fraction of
what parsing the file costs (a start with ~100,000 reviews marked would spend
most of its first frame in `json.loads` and in checking every mark).

The state file stays the truth and keeps its format: the copy is of one
version of it, keyed by its path, device, inode, size, mtime and ctime (an
atomic write is a new inode, an edit a new mtime and ctime), and holds the
CRC-32 of its bytes. The copy is used only when the file is still the one it
was made of; when the file changed less than `RACY_NS` before the copy was
made (a next change could come within the same timestamp tick), its bytes'
CRC-32 is checked too. Anything else (no copy, another file's, of another
version, damaged or truncated, not what this module writes) is a miss: the
file is read as JSON, never an error.

The marks are kept in columns (keys; reads; `seen` records with the
fingerprint as JSON text, read only when a review is compared; item marks),
so that reading them back is a few C loops, not a Python call per mark.
"""

from __future__ import annotations

import bisect
import contextlib
import marshal
import math
import os
import time
import zlib
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from itertools import accumulate, compress, repeat
from pathlib import Path
from typing import Any

from tui.core.clock import Stamp
from tui.core.marks import Mark, ReviewMarks, Seen
from tui.store.atomic import _create_temp
from tui.store.kept_copy import RACY_NS, file_key
from tui.store.safe_read import UnfitFile, read_regular
from tui.store.state_encode import VERSION as STATE_VERSION

FORMAT = "prdigest-tui/state-copy"
VERSION = 1
"""Bump when the columns, or what the state file's reader checks, change."""
MAX_BYTES = 512 * 1024 * 1024
FIELDS = 9


class Kept:
    """What a copy gives back: the marks as the state file holds them, made in
    two steps (`tui.core.marks.Marks.adopt`): what the first frame needs now,
    and every review's marks when first asked for (`rest`). (A plain class: a
    NamedTuple's class costs a millisecond to import, before the first frame.)"""

    __slots__ = ("crc", "keys", "marked", "newest", "read", "rest", "seen_texts")

    def __init__(
        self,
        marked: dict[str, ReviewMarks],
        read: set[str],
        keys: tuple[str, ...],
        rest: Callable[[], dict[str, ReviewMarks]],
        seen_texts: Mapping[str, str],
        newest: Stamp | None,
        crc: int,
    ) -> None:
        self.marked = marked
        """The reviews with item marks, whole."""
        self.read, self.keys, self.rest, self.newest, self.crc = read, keys, rest, newest, crc
        self.seen_texts = seen_texts
        """The fingerprint (as JSON text) of every review with a `seen` record but no item marks."""


class Texts(Mapping[str, str]):
    """Fingerprints as JSON text, cut from one string (the copy's) when asked for."""

    def __init__(
        self, where: dict[str, int], blob: str, starts: tuple[int, ...], ends: tuple[int, ...]
    ) -> None:
        self._where, self._blob, self._starts, self._ends = where, blob, starts, ends

    def __getitem__(self, key: str) -> str:
        at = self._where[key]
        return self._blob[self._starts[at] : self._ends[at]]

    def __contains__(self, key: object) -> bool:
        return key in self._where

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)


def key_of(path: Path, info: os.stat_result) -> tuple:
    """The copy's key for the state file `path` as `info` (its stat) says it is."""
    return (*file_key(FORMAT, VERSION, path, info), STATE_VERSION)


def crc_of(parts: Iterator[bytes] | list[bytes]) -> int:
    """CRC-32 of the bytes `parts` make, one after the other (zlib lets go of
    the GIL for each big part)."""
    crc = 0
    for part in parts:
        crc = zlib.crc32(part, crc)
    return crc


def read(copy: Path, path: Path) -> Kept | None:
    """The marks of the copy at `copy` if it is one of `path` as it is now."""
    try:
        info = os.stat(path)
        raw = read_regular(copy, MAX_BYTES)
        if len(raw) < 4 or zlib.crc32(memoryview(raw)[4:]) != int.from_bytes(raw[:4], "big"):
            return None  # damaged or cut short
        doc = marshal.loads(memoryview(raw)[4:])
    except (OSError, UnfitFile, EOFError, ValueError, TypeError):
        return None
    key = key_of(path, info)
    if not isinstance(doc, tuple) or len(doc) != FIELDS or doc[0] != key:
        return None
    _, crc, made, keys, reads, seens, items, newest, _end = doc
    if type(crc) is not int or type(made) is not int or _end != "end":
        return None
    if made - max(info.st_mtime_ns, info.st_ctime_ns) <= RACY_NS and not _same_bytes(path, crc):
        return None
    try:
        return _build(keys, reads, seens, items, newest, crc)
    except (TypeError, ValueError, IndexError):  # not columns this module wrote
        return None


def _same_bytes(path: Path, crc: int) -> bool:
    try:
        return zlib.crc32(read_regular(path, MAX_BYTES)) == crc
    except (OSError, UnfitFile):
        return False


def _all(kind: type, values: Any) -> bool:
    return type(values) is tuple and set(map(type, values)) <= {kind}


def _counts(values: Any) -> bool:
    return _all(int, values) and (not values or (min(values) >= 0 and max(values) < 2**63))


def _floats(values: Any) -> bool:
    return _all(float, values) and all(map(math.isfinite, values))


def _digests(values: Any) -> bool:
    return type(values) is tuple and set(map(type, values)) <= {str, type(None)}


def _build(keys: Any, reads: Any, seens: Any, items: Any, newest: Any, crc: int) -> Kept:
    """The marks of the columns `dumps` wrote, checked as the state file's reader checks them."""
    if (
        not _all(str, keys)
        or type(reads) is not tuple
        or type(seens) is not tuple
        or type(items) is not tuple
    ):
        raise TypeError("not columns")
    n = len(keys)
    ri, rv, rw, rc, rd = reads
    si, blob, ends, sw, sc = seens
    if not (_all(int, ri) and _all(bool, rv) and _floats(rw) and _counts(rc) and _digests(rd)):
        raise TypeError("bad reads")
    if not (_all(int, si) and type(blob) is str and _counts(ends) and _floats(sw) and _counts(sc)):
        raise TypeError("bad seen records")
    if not all(map(int.__le__, ends, ends[1:])) or (ends[-1] if ends else 0) != len(blob):
        raise ValueError("bad fingerprint ends")
    if (
        len({len(ri), len(rv), len(rw), len(rc), len(rd)}) != 1
        or len({len(si), len(ends), len(sw), len(sc)}) != 1
    ):
        raise ValueError("columns of different lengths")
    for column in (ri, si):
        if column and (min(column) < 0 or max(column) >= n):
            raise IndexError("no such review")
    if newest is not None and not (
        type(newest) is tuple and len(newest) == 2 and _floats(newest[:1]) and _counts(newest[1:])
    ):
        raise TypeError("bad newest stamp")
    if not all(map(int.__lt__, ri, ri[1:])) or not all(map(int.__lt__, si, si[1:])):
        raise ValueError("not in order")
    new = tuple.__new__
    marks_of: list[dict[str, Mark]] = []
    for position, (index, marks) in enumerate(items):  # the few reviews with items: a loop of Python
        if index != position or not marks:
            raise ValueError("reviews with items are not first")
        checked: dict[str, Mark] = {}
        for item, value, wall, count, digest in marks:
            if not (
                type(item) is str
                and type(value) is bool
                and type(wall) is float
                and math.isfinite(wall)
                and type(count) is int
                and 0 <= count < 2**63
                and (digest is None or type(digest) is str)
            ):
                raise TypeError("bad item mark")
            checked[item] = new(Mark, (value, new(Stamp, (wall, count, "")), digest))
        marks_of.append(checked)
    if len(set(keys)) != n:
        raise ValueError("a key twice")
    m = len(marks_of)
    cut_r, cut_s = bisect.bisect_left(ri, m), bisect.bisect_left(si, m)
    starts = (0, *ends[:-1])
    first = _made(
        keys[:m],
        (ri[:cut_r], rv[:cut_r], rw[:cut_r], rc[:cut_r], rd[:cut_r]),
        (si[:cut_s], blob, starts[:cut_s], ends[:cut_s], sw[:cut_s], sc[:cut_s]),
        marks_of,
    )
    seen_texts = Texts(
        dict(zip(map(keys.__getitem__, si[cut_s:]), range(cut_s, len(si)), strict=True)), blob, starts, ends
    )
    seens = (si, blob, starts, ends, sw, sc)
    read_set = set(compress(map(keys.__getitem__, ri), rv))
    stamp = Stamp(*newest) if newest is not None else None
    return Kept(first, read_set, keys, partial(_made, keys, reads, seens, marks_of), seen_texts, stamp, crc)


def _made(keys: tuple, reads: tuple, seens: tuple, marks_of: list[dict[str, Mark]]) -> dict[str, ReviewMarks]:
    """Every review's marks from the columns (checked), in C loops but for the
    reviews with items, which come first."""
    ri, rv, rw, rc, rd = reads
    si, blob, starts, ends, sw, sc = seens
    st = map(blob.__getitem__, map(slice, starts, ends))
    n, new = len(keys), tuple.__new__
    reviews = list(map(ReviewMarks.__new__, repeat(ReviewMarks, n)))
    deque(map(setattr, reviews, repeat("read"), repeat(None, n)), 0)
    deque(map(setattr, reviews, repeat("seen"), repeat(None, n)), 0)
    deque(map(setattr, reviews, repeat("items"), map(dict, marks_of)), 0)
    deque(map(setattr, reviews[len(marks_of) :], repeat("items"), map(dict, repeat((), n))), 0)
    stamps = map(new, repeat(Stamp), zip(rw, rc, repeat("")))
    marks = map(new, repeat(Mark), zip(rv, stamps, rd, strict=True))
    deque(map(setattr, map(reviews.__getitem__, ri), repeat("read"), marks), 0)
    stamps = map(new, repeat(Stamp), zip(sw, sc, repeat("")))
    seen = map(new, repeat(Seen), zip(st, stamps, strict=True))
    deque(map(setattr, map(reviews.__getitem__, si), repeat("seen"), seen), 0)
    return dict(zip(keys, reviews, strict=True))


def dumps(key: tuple, crc: int, reviews: dict[str, ReviewMarks], newest: Stamp | None) -> bytes:
    """The copy of the state file `key` names, whose bytes' CRC-32 is `crc` and
    whose marks are `reviews`. The copy starts with the CRC-32 of the rest: a
    copy damaged on disk is a miss too."""
    import json

    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode  # as the state file's
    keys = tuple(sorted(reviews, key=lambda key: not reviews[key].items))  # those with items first
    ri, rv, rw, rc, rd, si, st, sw, sc = [], [], [], [], [], [], [], [], []
    items = []
    for index, marks in enumerate(map(reviews.__getitem__, keys)):
        if (mark := marks.read) is not None:
            ri.append(index)
            rv.append(mark.value)
            rw.append(float(mark.at.wall))
            rc.append(mark.at.count)
            rd.append(mark.digest)
        if (seen := marks.seen) is not None:
            text = seen.fingerprint
            if not isinstance(text, str):  # else as read from a copy: passed on as it is
                text = encode(text)
            si.append(index)
            st.append(text)
            sw.append(float(seen.at.wall))
            sc.append(seen.at.count)
        if marks.items:
            items.append(
                (
                    index,
                    tuple(
                        (item, m.value, float(m.at.wall), m.at.count, m.digest)
                        for item, m in marks.items.items()
                    ),
                )
            )
    columns = (tuple(ri), tuple(rv), tuple(rw), tuple(rc), tuple(rd))
    seens = (tuple(si), "".join(st), tuple(accumulate(map(len, st))), tuple(sw), tuple(sc))
    stamp = (float(newest.wall), newest.count) if newest is not None else None
    body = marshal.dumps((key, crc, time.time_ns(), keys, columns, seens, tuple(items), stamp, "end"))
    return zlib.crc32(body).to_bytes(4, "big") + body


def write(copy: Path, data: bytes) -> bool:
    """Put `data` at `copy` (temp file and rename: a reader sees a whole copy or
    none; not synced to disk, a copy lost or torn in a crash is a miss). False
    if it cannot be written: never an error."""
    try:
        copy.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _create_temp(copy)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, copy)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return False
    return True
