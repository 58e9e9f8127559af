"""What `status` needs of the entry files, kept in the cache folder: a status
bar calls `status` every few seconds, and reading the parse cache's index
(titles, places, every field of 10,000 reviews) was most of a call.

The summary lists the entry files a walk found, in order, with the stamp
(size, mtime_ns) each had, and for each review, once per key as the library
keeps it: its key, its kind (repo, verdict, tags: shared by many reviews,
kept once) and, for a review with a `pr:`, its `repo:title` key (marks made
before it had one: `Marks.adopt_title_marks`). It is made from the parse
cache's index, which answers only for files whose stamp it holds, so it is
right exactly when the parse cache is: a file added, removed or whose stamp
changed makes it a miss, and `status` reads the parse cache again.

Fingerprint digests (`tui.core.changes.fingerprint_digest`), which tell a
read review unchanged without its body, are made here, from the body, only
for reviews the marks have read, when first asked for; then kept in the
summary for the next call. The parse workers make none.

A summary of another version, damaged, or not of the files found now is a
miss, never an error; one that cannot be written is not kept.
"""

from __future__ import annotations

import contextlib
import marshal
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.core.model import Review
    from tui.load.cache import ParseCache

FORMAT = "prdigest-tui/status-summary"
VERSION = 1
"""Bump when what is kept, or how it is made, changes (with the parse cache's VERSION,
which is part of the key: the loader's rules make the keys and kinds)."""
MAX_BYTES = 64 * 1024 * 1024
HEADER = 8


class Summary:
    """Rows as columns: review `i` has key `keys[i]`, repo `repos[repo_of[i]]`,
    verdict `verdicts[verdict_of[i]]` and the tags `tags[b]` for each bit `b`
    set in `tags_of[i]`; it is in file `names[file_of[i]]`, the
    `place_of[i]`th review of its cache entry. (Columns of small ints: they
    are read back with no object made per review but the key.)"""

    __slots__ = (
        "_tail",
        "_titles",
        "digests",
        "file_of",
        "keys",
        "names",
        "place_of",
        "repo_of",
        "repos",
        "stamps",
        "tags",
        "tags_of",
        "verdict_of",
        "verdicts",
        "version_key",
        "written",
    )

    def __init__(self, version_key: str, names: list[str], stamps: list[int]) -> None:
        self.version_key = version_key
        self.names, self.stamps = names, stamps
        self.keys: list[str] = []
        self.repos: list[str] = []
        self.verdicts: list[str] = []
        self.tags: list[str] = []
        self.repo_of: list[int] = []
        self.verdict_of: list[int] = []
        self.tags_of: list[int] = []
        self.file_of: list[int] = []
        self.place_of: list[int] = []
        self.digests: dict[int, bytes] = {}
        self._titles: dict[int, str] | None = {}
        self._tail = b""
        self.written = False

    def columns(self) -> tuple:
        return (
            tuple(self.keys),
            tuple(self.repos),
            tuple(self.verdicts),
            tuple(self.tags),
            tuple(self.repo_of),
            tuple(self.verdict_of),
            tuple(self.tags_of),
            tuple(self.file_of),
            tuple(self.place_of),
        )

    def dumps(self) -> bytes:
        """The summary, then its title keys apart (most of its bytes, and read
        only for marks made under a title key): the first part's length, in
        `HEADER` bytes, comes first."""
        head = marshal.dumps(
            (
                FORMAT,
                VERSION,
                self.version_key,
                tuple(self.names),
                tuple(self.stamps),
                self.columns(),
                self.digests,
            )
        )
        return len(head).to_bytes(HEADER, "little") + head + marshal.dumps(self.titles() or {})

    def titles(self) -> dict[int, str] | None:
        """Each row with a `pr:`, its `repo:title` key (read from the file when
        first asked for); None if what the file holds is damaged."""
        if self._titles is None:
            self._titles = _titles(self._tail, len(self.keys))
            self._tail = b""
        return self._titles


def version_key(app_version: str) -> str:
    from tui.load.cache_version import VERSION as PARSE_VERSION

    return f"{app_version}/{PARSE_VERSION}"


def stamps_of(names: Sequence[str]) -> list[int] | None:
    """Size and mtime_ns of each file, flat; None if one cannot be stat'ed."""
    out: list[int] = []
    append = out.append
    stat = os.stat
    try:
        for name in names:
            info = stat(name)
            append(info.st_size)
            append(info.st_mtime_ns)
    except (OSError, ValueError):
        return None
    return out


def kept(path: Path, key: str, names: list[str], stamps: list[int]) -> Summary | None:
    """The summary at `path` when it is one of these files as they are now."""
    from tui.store.safe_read import UnfitFile, read_regular

    try:
        data = read_regular(path, MAX_BYTES)
        length = int.from_bytes(data[:HEADER], "little")
        if len(data) < HEADER + length:
            return None
        doc = marshal.loads(memoryview(data)[HEADER : HEADER + length])
    except (OSError, UnfitFile, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(doc, tuple) and len(doc) == 7 and doc[0] == FORMAT and doc[1] == VERSION):
        return None
    _, _, their_key, their_names, their_stamps, columns, digests = doc
    if their_key != key or their_stamps != tuple(stamps) or their_names != tuple(names):
        return None
    summary = Summary(key, names, stamps)
    try:
        keys, repos, verdicts, tags, repo_of, verdict_of, tags_of, file_of, place_of = columns
        rows = len(keys)
        if not (
            all(type(column) is tuple for column in columns)
            and all(len(column) == rows for column in (repo_of, verdict_of, tags_of, file_of, place_of))
            and all(type(name) is str for vocabulary in (repos, verdicts, tags) for name in vocabulary)
            and type(digests) is dict
            and all(type(row) is int and type(value) is bytes for row, value in digests.items())
        ):
            return None
        # Ranges at C speed (a value not an int is a TypeError): a kept file is
        # ours, written whole; what is checked here is that reading it cannot fail.
        if rows and not (
            min(repo_of) >= 0
            and max(repo_of) < len(repos)
            and min(verdict_of) >= 0
            and max(verdict_of) < len(verdicts)
            and min(tags_of) >= 0
            and max(tags_of) < 1 << len(tags)
            and min(file_of) >= 0
            and max(file_of) < len(names)
            and min(place_of) >= 0
        ):
            return None
    except (TypeError, ValueError):
        return None
    summary.keys, summary.repos, summary.verdicts, summary.tags = (
        list(keys),
        list(repos),
        list(verdicts),
        list(tags),
    )
    summary.repo_of, summary.verdict_of, summary.tags_of = list(repo_of), list(verdict_of), list(tags_of)
    summary.file_of, summary.place_of = list(file_of), list(place_of)
    summary.digests = digests
    summary._titles, summary._tail = None, data[HEADER + length :]
    summary.written = True
    return summary


def _titles(tail: bytes, rows: int) -> dict[int, str] | None:
    try:
        titles = marshal.loads(tail)
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(titles, dict) or not all(
        type(k) is int and 0 <= k < rows and type(v) is str for k, v in titles.items()
    ):
        return None
    return titles


def from_cache(names: list[str], stamps: list[int], cache: ParseCache, key: str) -> Summary | None:
    """The summary of these files from the parse cache's index (loaded here);
    None if it cannot answer for every file, or an entry is not what it writes."""
    cache.load()
    summary = Summary(key, names, stamps)
    keys, titles = summary.keys, summary._titles
    assert titles is not None
    repos: dict[str, int] = {}
    verdicts: dict[str, int] = {}
    bits: dict[str, int] = {}
    seen: set[str] = set()
    try:
        for number, name in enumerate(names):
            found = cache.index_of(name, (stamps[2 * number], stamps[2 * number + 1]))
            if found is None:
                return None
            for place, raw in enumerate(found[0]):
                if len(raw) not in (9, 12):  # what `cache_format.decode_review` reads
                    return None
                title, repo, verdict, tags, _, _, pr = raw[:7]
                if not (type(title) is str and type(repo) is str and type(verdict) is str):
                    return None
                if type(tags) is not tuple or not all(type(tag) is str for tag in tags):
                    return None
                if pr is not None and type(pr) is not int:
                    return None
                title_key = f"{repo}:{title}"  # `review_key`, inlined
                key_here = f"{repo}#{pr}" if pr is not None else title_key
                if key_here in seen:
                    continue  # the first of a duplicated key, in file order, as the library keeps
                seen.add(key_here)
                if pr is not None:
                    titles[len(keys)] = title_key
                keys.append(key_here)
                summary.repo_of.append(repos.setdefault(repo, len(repos)))
                summary.verdict_of.append(verdicts.setdefault(verdict, len(verdicts)))
                mask = 0
                for tag in tags:
                    mask |= 1 << bits.setdefault(tag, len(bits))
                summary.tags_of.append(mask)
                summary.file_of.append(number)
                summary.place_of.append(place)
    except (TypeError, ValueError, IndexError):
        return None
    summary.repos, summary.verdicts, summary.tags = list(repos), list(verdicts), list(bits)
    return summary


def fill_digests(summary: Summary, wanted: Iterable[int], parse_cache: Callable[[], ParseCache]) -> bool:
    """Make the fingerprint digests of the rows `wanted` that have none, from
    their bodies in the parse cache (`parse_cache()`, loaded here, only if one
    is missing). False if the cache cannot give one (it changed since the
    summary was made)."""
    from tui.core.changes import fingerprint, fingerprint_digest

    missing = [row for row in wanted if row not in summary.digests]
    if not missing:
        return True
    cache = parse_cache()
    cache.load()
    for row in missing:
        review = _review_in(summary, row, cache)
        if review is None:
            return False
        summary.digests[row] = fingerprint_digest(fingerprint(review))
        summary.written = False
    return True


def review_at(summary: Summary, row: int, cache: ParseCache) -> Review | None:
    """The whole review of a row, its body from the parse cache; None if it cannot give it."""
    cache.load()
    return _review_in(summary, row, cache)


def _review_in(summary: Summary, row: int, cache: ParseCache) -> Review | None:
    """`review_at` from a cache already loaded."""
    from tui.load.cache_format import decode_review

    number = summary.file_of[row]
    name = summary.names[number]
    found = cache.index_of(name, (summary.stamps[2 * number], summary.stamps[2 * number + 1]))
    if found is None:
        return None
    try:
        return decode_review(Path(name), found[0][summary.place_of[row]], found[1])
    except (TypeError, ValueError, IndexError):
        return None


def keep(path: Path, summary: Summary) -> None:
    """Write the summary (atomically) unless it is on disk as it is; never an error."""
    if summary.written:
        return
    from tui.store.atomic import write_atomic

    with contextlib.suppress(OSError, ValueError):
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, summary.dumps())
        summary.written = True
