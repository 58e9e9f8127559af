"""One machine's file in a shared state folder: a log of its marks.

```
{"format":"prdigest-tui/marks","version":1,"machine":"laptop","token":"9f0c..."}
["r","vllm-project/vllm#1",true,1712345678.25,0]
["i","vllm-project/vllm#1","focus:3f2a",true,1712345679.5,0,"d41d8cd9"]
["s","vllm-project/vllm#1","{\\"fields\\":{...},\\"items\\":{...}}",1712345679.5,0]
```

The first line names the machine (every mark below it is that machine's: its
stamp is `(t, c, machine)`); each line after it is one mark, a review read
(`r`), an item checked (`i`, with the digest of the item's text, or null) or
the version of the review seen (`s`, its fingerprint as JSON text, read only
when it is compared: most never are). A save appends the marks it made, so it
writes what changed, not everything; the newest line of a mark is the one
that counts, and once the log is past 1 MB and twice its size when last
compacted (or read at start), it is compacted: rewritten atomically with one
line per mark.

Every line is whole or is the last: a copy stopped half-way (a sync tool's,
or a crash during an append) is a log with fewer marks and a torn last line,
which is left for later. So any prefix of the file can be read, and merging
what it holds can never undo a newer mark.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from typing import NamedTuple

from tui.core.clock import Stamp
from tui.core.marks import Mark, ReviewMarks, Seen

FORMAT = "prdigest-tui/marks"
VERSION = 1
SUFFIX = ".marks"


class Header(NamedTuple):
    machine: str
    token: str


class Parsed(NamedTuple):
    header: Header | None
    reviews: dict[str, ReviewMarks]
    """The newest of each mark read."""
    end: int
    """Where reading stopped: after the last whole line read, past `start`."""
    newest: Stamp | None
    broken: str | None = None
    """Why a line that is not the last could not be read (marks before it were)."""


def header_line(header: Header) -> bytes:
    doc = {"format": FORMAT, "version": VERSION, "machine": header.machine, "token": header.token}
    return json.dumps(doc, separators=(",", ":")).encode("utf-8") + b"\n"


def _stamp(at: Stamp) -> list[object]:
    return [at.wall, at.count]


def mark_lines(reviews: dict[str, ReviewMarks]) -> bytes:
    """A line for every mark in `reviews` (in a stable order: a compacted file is
    the same bytes on every run)."""
    out: list[str] = []
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    for key in sorted(reviews):
        marks = reviews[key]
        if marks.read is not None:
            out.append(dumps(["r", key, marks.read.value, *_stamp(marks.read.at)]))
        if marks.seen is not None:
            fingerprint = marks.seen.fingerprint
            text = fingerprint if isinstance(fingerprint, str) else dumps(fingerprint)
            out.append(dumps(["s", key, text, *_stamp(marks.seen.at)]))
        for item in sorted(marks.items):
            mark = marks.items[item]
            out.append(dumps(["i", key, item, mark.value, *_stamp(mark.at), mark.digest]))
    return ("\n".join(out) + "\n").encode("utf-8") if out else b""


def count_marks(reviews: dict[str, ReviewMarks]) -> int:
    return sum((m.read is not None) + (m.seen is not None) + len(m.items) for m in reviews.values())


# -- reading ---------------------------------------------------------------------------------


class _Bad(ValueError):
    pass


def parse_header(line: bytes) -> Header:
    try:
        doc = json.loads(line)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise _Bad("the first line is not a marks header") from exc
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _Bad("not a prdigest-tui marks file")
    if doc.get("version") != VERSION:
        raise _Bad(f"unknown marks version {str(doc.get('version'))[:20]}")
    machine, token = doc.get("machine"), doc.get("token")
    if not isinstance(machine, str) or not machine or not isinstance(token, str):
        raise _Bad("the header names no machine")
    return Header(machine, token)


def parse(
    data: bytes,
    start: int = 0,
    header: Header | None = None,
    *,
    into: dict[str, ReviewMarks] | None = None,
    lines_before: Callable[[], int] | None = None,
) -> Parsed:
    """Read a marks file's bytes from `start` (0, or where an earlier read of
    the same file stopped, with the `header` it read), into `into` (a new
    mapping if None). A torn last line is not read (`end` stays before it); a
    bad line elsewhere stops the reading there, and is named by its number in
    the file: when `data` is only the file's end, `lines_before` tells how many
    lines come before it (asked only then)."""
    reviews: dict[str, ReviewMarks] = {} if into is None else into
    end = data.rfind(b"\n", start) + 1
    if end <= start:
        return Parsed(header, reviews, start, None)
    pos = start
    if header is None:
        first = data.index(b"\n", start) + 1
        try:
            header = parse_header(data[start:first])
        except _Bad as exc:
            return Parsed(None, reviews, start, None, str(exc))
        pos = first
    body = data[pos:end]
    if not body:
        return Parsed(header, reviews, end, None)
    try:
        records = json.loads(b"[" + body[:-1].replace(b"\n", b",") + b"]")
        if not isinstance(records, list) or len(records) != body.count(b"\n"):
            raise _Bad("a line holds more or less than one record")
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _parse_lines(data, pos, end, header, reviews, lines_before)
    try:
        # A bad record stops the fold with the records before it folded in:
        # what a prefix of the file says, which is never wrong to merge.
        newest = _fold(records, header.machine, reviews)
    except _Bad:
        return _parse_lines(data, pos, end, header, reviews, lines_before)  # folding again changes nothing
    return Parsed(header, reviews, end, newest)


def _parse_lines(
    data: bytes,
    pos: int,
    end: int,
    header: Header,
    reviews: dict[str, ReviewMarks],
    lines_before: Callable[[], int] | None,
) -> Parsed:
    """The slow way, line by line, to read what comes before a bad line."""
    newest: Stamp | None = None
    number = data.count(b"\n", 0, pos)  # lines before `pos` in `data`
    while pos < end:
        cut = data.index(b"\n", pos) + 1
        number += 1
        try:  # a record is checked whole before it is folded in
            stamp = _fold([json.loads(data[pos:cut])], header.machine, reviews)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            if lines_before is not None:
                number += lines_before()
            return Parsed(header, reviews, pos, newest, f"line {number}: {str(exc)[:80]}")
        if stamp is not None and (newest is None or stamp > newest):
            newest = stamp
        pos = cut
    return Parsed(header, reviews, end, newest)


def _fold(records: Iterable[object], machine: str, into: dict[str, ReviewMarks]) -> Stamp | None:
    """Each record into `into`, the later of two for one mark kept; the newest stamp.

    The hot loop of reading a folder (100,000 marks at start): checks are
    inlined, and a record costs a few lookups and two tuples."""
    newest: Stamp | None = None
    str_, bool_, float_, int_, none = str, bool, float, int, None
    isfinite = math.isfinite
    new = tuple.__new__  # a NamedTuple without its __new__, which is Python code
    for record in records:
        if record.__class__ is not list or not record:
            raise _Bad(f"not a mark: {str(record)[:60]}")
        kind = record[0]
        size = len(record)
        if kind == "i" and size == 7:
            key, item, value, wall, count, digest = record[1:]
        elif kind == "r" and size == 5:
            key, value, wall, count = record[1:]
            item = digest = none
        elif kind == "s" and size == 5:
            key, value, wall, count = record[1:]
            item = digest = none
            if value.__class__ is not str_:  # read when first asked for: `Marks.seen`
                raise _Bad(f"bad seen record for {str(key)[:60]}")
        else:
            raise _Bad(f"not a mark: {str(record)[:60]}")
        if not (
            key.__class__ is str_
            and (kind != "i" or (item.__class__ is str_ and (digest is none or digest.__class__ is str_)))
            and (kind == "s" or value.__class__ is bool_)
            and (wall.__class__ is float_ or (wall.__class__ is int_ and -(2**53) < wall < 2**53))
            and isfinite(wall)
            and count.__class__ is int_
            and 0 <= count < 2**63
        ):
            raise _Bad(f"bad mark {str(record)[:60]}")
        at = new(Stamp, (float_(wall), count, machine))
        marks = into.get(key)
        if marks is None:
            marks = into[key] = ReviewMarks()
        # The later stamp wins; at one stamp (two machines given one id) the
        # greater mark, as `state.merge_into` orders them: so what a folder
        # reads to is the same in any order of files or lines, and a file
        # read in two parts (`tui.store.shared_scan`) folds as if read whole.
        if kind == "i":
            old = marks.items.get(item)
            if (
                old is None
                or at > old.at
                or (at == old.at and (value, digest or "") > (old.value, old.digest or ""))
            ):
                marks.items[item] = new(Mark, (value, at, digest))
        elif kind == "r":
            old = marks.read
            if old is None or at > old.at or (at == old.at and value > old.value):
                marks.read = new(Mark, (value, at, None))
        else:
            seen = marks.seen
            if (
                seen is None
                or at > seen.at
                or (at == seen.at and seen.fingerprint.__class__ is str_ and value > seen.fingerprint)
            ):
                marks.seen = new(Seen, (value, at))
        if newest is None or at > newest:
            newest = at
    return newest
