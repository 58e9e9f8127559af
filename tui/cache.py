"""A parse cache: what each entry file loaded to, keyed by path, size and mtime.

Parsing is the expensive part of start-up (libyaml plus validation); a warm
start decodes this file instead. Each review is kept as the few fields a list
row needs plus its body packed as bytes (`Review.blob`), so loading 10,000
reviews creates 10,000 small objects, not half a million strings; a body is
unpacked when its review is first read. It holds plain tuples in `marshal` format:
fast to read, version-checked, and unable to construct objects on load the way
pickle can. It is written atomically; a corrupt, truncated or old-version cache
is ignored and rebuilt, never trusted and never an error shown to the reader.
"""

from __future__ import annotations

import contextlib
import marshal
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .atomic import write_atomic
from .model import FileUpdate, Location, Problem, Review

FORMAT = "prdigest-tui/parse-cache"
VERSION = 3
"""Bump when the model or the loader's rules change: old caches are then ignored."""

Stamp = tuple[int, int]  # size, mtime_ns


def stamp(path: Path) -> Stamp | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns


def _review(review: Review) -> tuple:
    """A review as cached: what the list needs in the clear, the body packed."""
    loc = review.location
    return (
        review.title,
        review.repo,
        review.verdict,
        review.tags,
        loc.line,
        loc.column,
        review.pr,
        review.blob,
    )


def _decode(path: Path, raw: tuple) -> Review:
    title, repo, verdict, tags, line, column, pr, blob = raw
    return Review.packed(title, repo, verdict, tags, Location(path, line, column), pr, blob)


class ParseCache:
    """Cached loads by path. `get` answers only when size and mtime still match."""

    def __init__(self, path: Path | None, version_key: str = "") -> None:
        self.path = path
        self.version_key = version_key
        self._raw: dict[str, tuple] = {}
        self._fresh: dict[str, tuple] = {}
        self.dirty = False

    def load(self) -> bool:
        """Read the cache file; False (and an empty cache) if it is missing or unusable."""
        self._raw = {}
        if self.path is None:
            return False
        try:
            data = self.path.read_bytes()
            doc = marshal.loads(data)
        except (OSError, EOFError, ValueError, TypeError):
            return False
        if (
            not isinstance(doc, tuple)
            or len(doc) != 4
            or doc[0] != FORMAT
            or doc[1] != VERSION
            or doc[2] != self.version_key
            or not isinstance(doc[3], dict)
        ):
            return False
        self._raw = doc[3]
        return True

    def get(self, path: Path, current: Stamp | None) -> FileUpdate | None:
        entry = self._raw.get(str(path))
        if entry is None or current is None or entry[0] != current:
            return None
        try:
            _, reviews, problems = entry
            update = decode_entry(path, reviews, problems)
        except (TypeError, ValueError):
            return None  # a damaged entry is a miss, not an error
        self._fresh[str(path)] = entry
        return update

    def put(self, path: Path, current: Stamp | None, update: FileUpdate) -> None:
        if current is None:
            return
        self._fresh[str(path)] = (
            current,
            tuple(map(_review, update.reviews)),
            tuple((p.location.line, p.location.column, p.message) for p in update.problems),
        )
        self.dirty = True

    def put_raw(self, path: Path, current: Stamp | None, reviews: tuple, problems: tuple) -> None:
        """Store an entry made by `parse_files` in another process."""
        if current is None:
            return
        self._fresh[str(path)] = (current, reviews, problems)
        self.dirty = True

    def forget(self, paths: Iterable[Path]) -> None:
        for path in paths:
            if self._fresh.pop(str(path), None) is not None:
                self.dirty = True

    def save(self) -> None:
        """Write the entries used or added since `load`, atomically. Errors are
        ignored: a cache that cannot be written only costs the next start-up time."""
        if self.path is None:
            return
        if set(self._fresh) != set(self._raw):
            self.dirty = True
        if not self.dirty:
            return
        data = marshal.dumps((FORMAT, VERSION, self.version_key, self._fresh))
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, data)
        self.dirty = False


def _packed(fields: dict[str, Any], line: int, column: int) -> tuple:
    """A review as cached, made from the loader's fields with items as tuples:
    what `_review` makes of the `Review` (its blob as `Review.blob` packs it)
    without making the `Review` and its `Item`s first."""
    get = fields.get
    body = (
        fields["summary"], get("url"), get("date"), get("verdict_note"),
        get("focus", ()), get("read_order", ()), get("actions", ()), get("caveats", ()),
    )  # fmt: skip
    return (
        fields["title"], fields["repo"], fields["verdict"], fields["tags"],
        line, column, get("pr"), marshal.dumps(body),
    )  # fmt: skip


def _item(section: str, text: str, refs: tuple[str, ...], item_id: str | None) -> tuple:
    return (section, text, refs, item_id)


def parse_files(paths: list[str]) -> list[tuple[str, Stamp | None, tuple, tuple]]:
    """Parse files into cache entries (plain tuples), for a worker process.

    Returns what `ParseCache.put_raw` takes, so nothing is encoded twice and the
    data crosses the process boundary as plain tuples and strings.
    """
    from .loader import load_file

    out = []
    for name in paths:
        path = Path(name)
        before = stamp(path)
        result = load_file(path, build_review=_packed, build_item=_item)
        problems = tuple((p.location.line, p.location.column, p.message) for p in result.problems)
        out.append((name, before, tuple(result.reviews), problems))
    return out


def decode_entry(path: Path, reviews: tuple, problems: tuple) -> FileUpdate:
    return FileUpdate(
        [_decode(path, raw) for raw in reviews],
        [Problem(Location(path, line, column), message) for line, column, message in problems],
    )
