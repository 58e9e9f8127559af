"""The reviews of the entry files as the parse cache's index holds them, for
`status`: a row per review (key, title, repo, verdict, tags, pr) and where its
body is, without building a `Review` or reading a body. A body is decoded only
for what asks for it (`Row.review`: a review read before whose fingerprint's
digest, kept in the index, is not the one of the version the reader saw).

Rows exist only for a warm cache: a file new or changed since the cache was
written makes `cached_rows` answer None, and the caller loads the library
(`tui.load.library`), which parses it and saves the cache for the next time.
Nothing here imports the parser, asyncio or Textual.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from tui.core.changes import fingerprint_digest
from tui.core.marks import Marks, changes
from tui.core.model import Review
from tui.load.cache import ParseCache
from tui.load.cache_format import FINGERPRINT, Source, decode_review
from tui.load.discover import discover_names


class Row(NamedTuple):
    key: str
    title: str
    repo: str
    verdict: str
    tags: tuple[str, ...]
    pr: int | None
    path: str  # the entry file's `Path`, as a string until a review is made
    raw: tuple
    source: Source | None

    def review(self) -> Review:
        """The whole review, its body read from the cache when first asked for."""
        return decode_review(Path(self.path), self.raw, self.source)


def cached_rows(paths: Iterable[Path], cache: ParseCache) -> list[Row] | None:
    """Every review of `paths` once (the first of a duplicated key, in file
    order, as the library keeps it); None if the cache cannot answer for every
    file, or an entry is not what the cache writes."""
    names, _ = discover_names(paths)
    cache.load()
    rows: list[Row] = []
    seen: set[str] = set()
    make = tuple.__new__  # a Row from its fields: half the time of Row(...), 10,000 times
    stat = os.stat
    try:
        for name in names:
            try:
                info = stat(name)
            except OSError:
                return None
            found = cache.index_of(name, (info.st_size, info.st_mtime_ns))  # `cache_format.stamp`
            if found is None:
                return None
            reviews, source = found
            # The index's types are checked as `ParseCache.get` checks them: the
            # file is ours and of this version; what is not a tuple is a miss.
            for raw in reviews:
                title, repo, verdict, tags, _, _, pr = raw[:7]
                if raw[FINGERPRINT].__class__ is not bytes:
                    return None  # not what this version writes
                key = f"{repo}#{pr}" if pr is not None else f"{repo}:{title}"  # review_key, inlined
                if key in seen:
                    continue
                seen.add(key)
                rows.append(make(Row, (key, title, repo, verdict, tags, pr, name, raw, source)))
    except (TypeError, ValueError, IndexError):
        return None
    return rows


def changed_since_seen(marks: Marks, row: Row) -> bool:
    """Was the review updated since the reader read it (`tui.core.marks.changes`)?
    Its fingerprint's digest, kept in the index, equal to the digest of the one
    the marks keep says no without reading its body."""
    if not marks.touched(row.key):
        return False
    seen = marks.seen(row.key)
    if seen is None:
        return False
    if row.raw[FINGERPRINT] == fingerprint_digest(seen):
        return False
    return changes(marks, row.review()) is not None
