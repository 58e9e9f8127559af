"""The state file's bytes, written in pieces (`tui.store.state`'s format:
the JSON of `{format, version, reviews}`, keys sorted, compact)."""

from __future__ import annotations

import bisect
import json
from itertools import compress
from operator import is_not

from tui.core.marks import ReviewMarks, stamp_json

FORMAT = "prdigest-tui/state"
VERSION = 1

HEAD = b'{"format":"%s","version":%d,"reviews":{' % (FORMAT.encode(), VERSION)


def _entry(marks: ReviewMarks) -> dict[str, object]:
    return {
        **({"read": marks.read.to_json()} if marks.read else {}),
        **({"seen": marks.seen.to_json()} if marks.seen else {}),
        "items": {item: mark.to_json() for item, mark in sorted(marks.items.items())},
    }


def _json(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _part(key: str, marks: ReviewMarks) -> bytes:
    """The review's `"key":{...}`, as `_json` writes `_entry`. A fingerprint
    kept as JSON text (read from the state's copy, `tui.store.state_copy`,
    which wrote it with these settings) is put in as it is, not parsed and
    written again."""
    seen = marks.seen
    if seen is None or not isinstance(seen.fingerprint, str):
        return _json(key) + b":" + _json(_entry(marks))
    fields = [b'"read":' + _json(marks.read.to_json())] if marks.read else []
    fields.append(b'"seen":{"v":' + seen.fingerprint.encode("utf-8") + b"," + _json(stamp_json(seen.at))[1:])
    fields.append(b'"items":' + _json({item: mark.to_json() for item, mark in sorted(marks.items.items())}))
    return _json(key) + b":{" + b",".join(fields) + b"}"


_CHUNK = 1024
"""Reviews joined into one piece of the file: each join holds the GIL only briefly."""


class Encoder:
    """The state file's bytes (the JSON of `{format, version, reviews}`, keys
    sorted, compact), in pieces, with each review's part kept with the marks it
    was made of: marks never change in place (`ReviewMarks`), so a save encodes
    only the reviews whose marks changed since the last, and joins the rest.
    Used by one write at a time (the writer's own)."""

    def __init__(self) -> None:
        self._marks: dict[str, ReviewMarks] = {}  # what each part was made of
        self._parts: dict[str, bytes] = {}
        self._order: list[str] = []  # the keys of `_marks`, sorted

    def dump(self, reviews: dict[str, ReviewMarks]) -> list[bytes]:
        made, parts, order = self._marks, self._parts, self._order
        if made.keys() != reviews.keys():
            new = reviews.keys() - made.keys()
            if made.keys() - reviews.keys() or len(new) > len(order) // 8:
                order = self._order = sorted(reviews)
                made = self._marks = {key: made[key] for key in order if key in made}
                parts = self._parts = {key: parts[key] for key in made}
            else:
                for key in new:
                    bisect.insort(order, key)
        # The keys whose marks are not the ones their part was made of (C loops: few, usually).
        for key in compress(order, map(is_not, map(reviews.__getitem__, order), map(made.get, order))):
            marks = made[key] = reviews[key]
            parts[key] = _part(key, marks)
        out = [HEAD]
        for start in range(0, len(order), _CHUNK):
            if start:
                out.append(b",")
            out.append(b",".join(map(parts.__getitem__, order[start : start + _CHUNK])))
        out.append(b"}}\n")
        return out
