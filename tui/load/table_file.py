"""A library's table saved next to the parse cache, read back by mapping it.

A warm start of 100,000 reviews spent ~0.3 s of CPU after its first frame
making and indexing `Review`s from the parse cache; the same library saved as
its table's columns (`tui.core.table`) is mapped in well under a millisecond,
and only the rows drawn become `Review`s (bench/README.md). The file is the
parse cache's name with `-table`: a small marshal header (the tables of repos,
verdicts, tags, files, the problems, where each column is), then the columns
raw, 8-aligned, read in place as `memoryview`s; a CRC-32 over all of it.

It holds no body: each row points into the parse cache's main file (its
record, block and slice), so it is tied to that file by inode, size and
mtime_ns, and holds every entry file's name and stamp (size, mtime_ns) as it
was loaded. Before it is trusted, the folders are walked (the same names) and
every file is stat'ed (the same stamps). Anything else (another version,
another cache file, a file added, removed, edited or touched, a damaged or cut
short table) is None: the caller loads as it would without it. Never an error.

The file is replaced atomically and never written in place, so a mapping of
it does not change under the reader.
"""

from __future__ import annotations

import contextlib
import marshal
import mmap
import os
import sys
import zlib
from array import array
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from tui.core.model import VERDICTS, Location, Problem, Review
from tui.core.table import Columns, ReviewTable, small_ints
from tui.load.cache import ParseCache
from tui.load.cache_format import CachedBody, OpenFile, Source, open_regular
from tui.load.discover import walk_names
from tui.store.atomic import write_atomic

FORMAT = "prdigest-tui/table"
VERSION = 1
"""Of this file's layout: a table of another version is not read."""
MAGIC = b"prdtabl1"
HEAD = len(MAGIC) + 16
"""The magic, then the header's length and the CRC-32 of all that follows (8
bytes each, little-endian), then the header and the columns."""

INT_COLUMNS = (
    "title_at", "key_at", "repo_of", "verdict_of", "tag_flat", "tag_flat_at", "tag_rows", "tag_rows_at",
    "file_of", "line", "column", "pr", "checks",
)  # fmt: skip
"""The columns of `Columns` that are ints, saved as they are."""
BODY_COLUMNS = ("source_of", "block_at", "block_length", "body_start", "body_end")
"""Where each row's body is in the parse cache: its record (a `sources` entry), block and slice."""

_new = tuple.__new__


def table_path(cache_path: Path) -> Path:
    return cache_path.with_name(cache_path.name + "-table")


# -- saving --------------------------------------------------------------------


def save_table(table: ReviewTable, cache: ParseCache, roots: Sequence[Path]) -> bool:
    """Write `table`, the library of `roots` loaded through `cache`, next to the
    cache's main file. Only a table whose every body is in that file (a warm
    start's), whose every file's stamp the cache knows, and with no stale
    file can be saved: False otherwise, or when writing fails."""
    if cache.path is None:
        return False
    try:
        built = _columns_to_save(table, cache)
        if built is None:
            return False
        header, parts = built
        header["roots"] = tuple(map(str, roots))
        head = marshal.dumps(header)
        # Padded so the columns are 8-aligned in the file (marshal stops at its object's end).
        head += bytes(-(HEAD + len(head)) % 8)
        crc = zlib.crc32(head)
        for part in parts:
            crc = zlib.crc32(part, crc)
        lengths = len(head).to_bytes(8, "little") + crc.to_bytes(8, "little")
        write_atomic(table_path(cache.path), MAGIC, lengths, head, *parts)
    except (OSError, ValueError, OverflowError):
        return False
    return True


def save_library_table(
    files: Mapping[Path, Sequence[Review]],
    problems: Mapping[Path, Sequence[Problem]],
    cache: ParseCache,
    roots: Sequence[Path],
) -> bool:
    """`save_table` for a library's files, made into a table (~0.5 s at
    100,000 reviews) only when it can be saved: every body in the cache's
    main file as it is now (a warm load's, and no save has replaced that
    file since), with no review skipped as a duplicate (a start does not
    read such a table: `tui.core.table_library.readable`)."""
    if cache.path is None:
        return False
    try:
        main = _identity(os.stat(cache.path))
    except OSError:
        return False
    files_checked: set[int] = set()
    for reviews in files.values():
        for review in reviews:
            body = review.body_source
            if not isinstance(body, CachedBody) or body.source is None:
                return False
            file = body.source.file
            if id(file) not in files_checked:
                if file.fd is None or _identity(os.fstat(file.fd)) != main:
                    return False
                files_checked.add(id(file))
    table = ReviewTable.from_reviews(files, problems)
    return not table.duplicates and save_table(table, cache, roots)


def _columns_to_save(table: ReviewTable, cache: ParseCache) -> tuple[dict, list[bytes]] | None:
    c = table.columns
    assert cache.path is not None
    if c.stale:
        return None  # a start never has a last good version to show: it would not be the library of the files
    main = os.stat(cache.path)
    stamps = array("q")
    for path in table.files:
        known = cache.stamp_of(path)
        if known is None:
            return None  # not loaded through this cache
        stamps.extend(known)
    sources: dict[int, int] = {}  # id(Source) -> its place in `records`
    records: list[tuple[int, bool]] = []
    source_of: list[int] = []
    block_at, block_length, body_start, body_end = (array("Q") for _ in BODY_COLUMNS[1:])
    checked: set[int] = set()  # the cache files checked to be the main one
    for body in table.bodies:
        if not isinstance(body, CachedBody) or body.source is None:
            return None  # a body not in a cache file: parsed since
        source = body.source
        at = sources.get(id(source))
        if at is None:
            file = source.file
            if id(file) not in checked:
                if file.fd is None or _identity(os.fstat(file.fd)) != _identity(main):
                    return None  # a journal's, or an older main file's
                checked.add(id(file))
            at = sources[id(source)] = len(records)
            records.append((source.bodies_at, source.packed))
        source_of.append(at)
        block_at.append(body.offset)
        block_length.append(body.length)
        body_start.append(body.start)
        body_end.append(body.end)
    raw: dict[str, bytes] = {"titles": bytes(c.titles), "keys": bytes(c.keys), "stamps": stamps.tobytes()}
    codes: dict[str, str] = {"titles": "B", "keys": "B", "stamps": "q"}
    for name in INT_COLUMNS:
        column = getattr(c, name)
        if not isinstance(column, array):
            return None  # a list (a pr past 64 bits), or already a saved table's
        raw[name], codes[name] = column.tobytes(), column.typecode
    body_columns = (small_ints(source_of), block_at, block_length, body_start, body_end)
    for name, column in zip(BODY_COLUMNS, body_columns, strict=True):
        raw[name], codes[name] = column.tobytes(), column.typecode
    sections: dict[str, tuple[int, int, str]] = {}
    parts: list[bytes] = []
    at = 0
    for name, data in raw.items():
        sections[name] = (at, len(data), codes[name])
        pad = bytes(-len(data) % 8)
        parts += [data, pad]
        at += len(data) + len(pad)
    header = {
        "format": FORMAT,
        "version": VERSION,
        "version_key": cache.version_key,
        "byteorder": sys.byteorder,
        "cache": (main.st_ino, main.st_size, main.st_mtime_ns),
        "length": at,
        "n": c.n,
        "repos": c.repos,
        "verdicts": c.verdicts,
        "verdict_bounds": c.verdict_bounds,
        "tags": c.tags,
        "files": c.files,
        "stale": tuple(sorted(c.stale)),
        "problems": tuple(map(_problem_fields, c.problems)),
        "duplicates": tuple(map(_problem_fields, c.duplicates)),
        "records": tuple(records),
        "sections": sections,
    }
    return header, parts


def _identity(info: os.stat_result) -> tuple[int, int]:
    return info.st_dev, info.st_ino


def _problem_fields(problem: Problem) -> tuple[str, int, int, str, str]:
    location = problem.location
    return str(location.path), location.line, location.column, problem.message, problem.severity


# -- reading -------------------------------------------------------------------


class SavedTable:
    """A saved table, mapped and checked as a file (its version, the cache file
    it points into, its CRC), not yet against the entry files (`still_valid`)."""

    def __init__(self, header: dict, columns: Columns, stamps: memoryview, bodies: SavedBodies) -> None:
        self.header, self.columns, self.stamps, self.bodies = header, columns, stamps, bodies

    def still_valid(self, roots: Sequence[Path]) -> bool:
        """The same roots walk to the same files (and no problem), each with the stamp saved."""
        if tuple(map(str, roots)) != self.header["roots"]:
            return False
        files = self.columns.files
        problems: list[Problem] = []
        found = list(walk_names(roots, problems))
        if problems or len(found) != len(files) or set(found) != set(files):
            return False
        stamps = self.stamps
        stat = os.stat
        try:
            for f, name in enumerate(files):
                info = stat(name)
                if info.st_size != stamps[2 * f] or info.st_mtime_ns != stamps[2 * f + 1]:
                    return False
        except (OSError, ValueError):
            return False
        return True

    def table(self) -> ReviewTable:
        return ReviewTable(self.columns, self.bodies)


class SavedBodies(Sequence[Callable[[], bytes]]):
    """Each row's body where the parse cache has it (a `CachedBody`, read when first needed)."""

    def __init__(self, columns: Columns, body: dict[str, memoryview], sources: list[Source]) -> None:
        self.columns, self.sources = columns, sources
        self.source_of, self.block_at, self.block_length, self.start, self.end = (
            body[name] for name in BODY_COLUMNS
        )
        self._paths: dict[int, Path] = {}

    def __len__(self) -> int:
        return self.columns.n

    def __getitem__(self, i: int) -> Callable[[], bytes]:  # type: ignore[override]  # rows only, no slices
        c = self.columns
        f = c.file_of[i]
        path = self._paths.get(f)
        if path is None:
            path = self._paths[f] = Path(c.files[f])
        location = _new(Location, (path, c.line[i], c.column[i]))
        fields = (self.block_at[i], self.block_length[i], self.start[i], self.end[i], location)
        return _new(CachedBody, (self.sources[self.source_of[i]], *fields))


def from_saved(cache_path: Path, version_key: str, roots: Sequence[Path]) -> ReviewTable | None:
    """The table saved for `roots` next to `cache_path`, if it is still the library's; else None."""
    saved = read_saved(cache_path, version_key)
    if saved is None or not saved.still_valid(roots):
        return None
    return saved.table()


def read_saved(cache_path: Path, version_key: str) -> SavedTable | None:
    """The table saved next to `cache_path`, mapped and checked as a file; None if
    there is none, or it is another version's, another cache file's, or damaged."""
    mapped = map_saved(cache_path)
    return None if mapped is None else saved_from(mapped, cache_path, version_key)


def map_saved(cache_path: Path) -> mmap.mmap | None:
    """The table file next to `cache_path`, mapped (nothing checked), or None."""
    opened = open_regular(table_path(cache_path))
    return None if opened is None else map_fd(opened[0])


def map_fd(fd: int) -> mmap.mmap | None:
    """The open table file `fd`, mapped, and closed (the mapping stays); None if it cannot be."""
    try:
        return mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)


def saved_from(
    mapped: mmap.mmap, cache_path: Path, version_key: str, *, checked: bool = False
) -> SavedTable | None:
    """`read_saved` of a mapping. `checked`: its CRC and its columns' values were
    checked on this very mapping already (`tui.load.table_check`, in a child
    process): only what ties it to the cache file and its layout are read."""
    cache_fd = None
    try:
        header, base = _header(mapped, version_key, crc=not checked)
        cache = open_regular(cache_path)
        if cache is None:
            return None
        cache_fd = cache[0]
        info = os.fstat(cache_fd)
        if (info.st_ino, info.st_size, info.st_mtime_ns) != header["cache"]:
            return None
        saved = _columns(memoryview(mapped), header, base, cache_fd, values=not checked)
        cache_fd = None  # the bodies' file holds it now
        return saved
    except (ValueError, TypeError, KeyError, IndexError, EOFError, OverflowError, OSError, AttributeError):
        return None
    finally:
        if cache_fd is not None:
            with contextlib.suppress(OSError):
                os.close(cache_fd)


def _header(mapped: mmap.mmap, version_key: str, *, crc: bool = True) -> tuple[dict, int]:
    """The header, checked, and where the columns start; ValueError if it is not one of ours."""
    if mapped[: len(MAGIC)] != MAGIC:
        raise ValueError("not a table")
    length = int.from_bytes(mapped[len(MAGIC) : len(MAGIC) + 8], "little")
    if length > len(mapped) - HEAD:
        raise ValueError("cut short")
    if crc and zlib.crc32(memoryview(mapped)[HEAD:]) != int.from_bytes(
        mapped[len(MAGIC) + 8 : HEAD], "little"
    ):
        raise ValueError("damaged")
    header = marshal.loads(mapped[HEAD : HEAD + length])
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("version") != VERSION:
        raise ValueError("another format or version")
    if header["version_key"] != version_key or header["byteorder"] != sys.byteorder:
        raise ValueError("another program's")
    base = HEAD + length  # the length counts the padding
    if len(mapped) - base != header["length"] or header["length"] % 8:
        raise ValueError("cut short or too long")
    return header, base


def _columns(view: memoryview, header: dict, base: int, cache_fd: int, *, values: bool = True) -> SavedTable:
    """The columns in place, their sizes and values checked where a wrong one would
    make a row's answer fail (an index past its table); ValueError if one is wrong."""
    n, files, tags = header["n"], header["files"], header["tags"]
    repos, verdicts, bounds = header["repos"], header["verdicts"], header["verdict_bounds"]
    _expect(type(n) is int and n >= 0, "n")
    for texts in (files, tags, repos, verdicts):
        _expect(isinstance(texts, tuple) and all(type(text) is str for text in texts), "a table")
    _expect(verdicts[: len(VERDICTS)] == VERDICTS, "verdicts")
    _expect(isinstance(bounds, tuple) and len(bounds) == len(VERDICTS) + 2, "verdict bounds")
    _expect(list(bounds) == sorted(bounds) and bounds[0] == 0 and bounds[-1] == n, "verdict bounds")
    size = header["length"]
    sections: dict[str, memoryview] = {}
    for name, (at, length, code) in header["sections"].items():
        _expect(at >= 0 and length >= 0 and at + length <= size, name)
        sections[name] = view[base + at : base + at + length].cast(code)
    counts = {"title_at": n + 1, "key_at": n + 1, "tag_flat_at": n + 1, "tag_rows_at": len(tags) + 1}
    counts |= dict.fromkeys(("repo_of", "verdict_of", "file_of", "line", "column", "pr", "checks"), n)
    counts |= dict.fromkeys(BODY_COLUMNS, n) | {"stamps": 2 * len(files)}
    for name, count in counts.items():
        _expect(len(sections[name]) == count, name)
    limits = {"repo_of": len(repos), "verdict_of": len(verdicts), "file_of": len(files), "tag_rows": n}
    limits |= {"tag_flat": len(tags), "source_of": len(header["records"])}
    for name, limit in limits.items() if values else ():
        _expect(_below(sections[name], limit), name)
    ends = {"title_at": "titles", "key_at": "keys", "tag_flat_at": "tag_flat", "tag_rows_at": "tag_rows"}
    for name, of in ends.items():
        _expect(sections[name][0] == 0 and sections[name][-1] == len(sections[of]), name)
    stale = frozenset(header["stale"])
    _expect(all(type(f) is int and 0 <= f < len(files) for f in stale), "stale")
    columns = Columns(
        n=n, titles=sections["titles"], keys=sections["keys"], repos=repos, verdicts=verdicts,
        verdict_bounds=bounds, tags=tags, files=files, stale=stale,
        problems=_problems(header["problems"]), duplicates=_problems(header["duplicates"]),
        **{name: sections[name] for name in INT_COLUMNS},
    )  # fmt: skip
    _expect(all(type(at) is int and type(packed) is bool for at, packed in header["records"]), "records")
    file = OpenFile(cache_fd)  # last: it closes the file when dropped, and nothing after this fails
    sources = [Source(file, at, packed) for at, packed in header["records"]]
    bodies = SavedBodies(columns, {name: sections[name] for name in BODY_COLUMNS}, sources)
    return SavedTable(header, columns, sections["stamps"], bodies)


def _below(column: memoryview, limit: int) -> bool:
    """Every value of `column` under `limit`: a byte column in C (~0.2 ms at 300,000
    values, `max` ~5), a wider one by `max`."""
    if column.format == "B":
        return limit >= 256 or not column.tobytes().translate(None, bytes(range(limit)))
    return max(column, default=-1) < limit


def _problems(saved: tuple) -> tuple[Problem, ...]:
    problems = []
    for path, line, column, message, severity in saved:
        _expect(type(path) is str and type(line) is int and type(column) is int, "a problem")
        _expect(type(message) is str and severity in ("error", "warning"), "a problem")
        problems.append(Problem(Location(Path(path), line, column), message, severity))
    return tuple(problems)


def _expect(condition: bool, what: str) -> None:
    if not condition:
        raise ValueError(f"bad {what}")
