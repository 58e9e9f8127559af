"""A warm start's rest in one piece: the whole library from the parse cache's
snapshot (`tui.load.snapshot`), when every file the walk finds is there as the
last save left it.

Which files there are, and their sizes and mtimes, is what decides it: at
100,000 reviews (10,000 files) listing and stating them is ~70 ms of the main
thread's. So the command line, planning before Textual is imported, forks a
child that finishes the walk and stats every file (`fork_walker`) on the other
core while this process imports Textual and draws the first frame; the
first frame's `rest` then reads its answer (`child_walk`). Without the child
(an App made in a test), or if it fails, the walk is done here, as before.
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Iterator
from pathlib import Path

from tui.core.model import Library, Location, Problem
from tui.load.cache import ParseCache
from tui.load.cache_format import Stamp, stamp


def whole_library(
    cache: ParseCache,
    shown: list[Path],
    rest: list[str],
    stamps: list[Stamp | None] | None,
    paths: list[Path] | None = None,
) -> Library | None:
    """The library from the cache's snapshot, if it has exactly these files
    (the first frame's `shown`, answered by the cache, and `rest`), all with
    these stamps (`stamps`, else stated now, from `paths`)."""
    made = cache.snapshot()
    if made is None:
        return None
    names = [*map(str, shown), *rest]
    if len(names) != len(made.names) or set(names) != set(made.names):
        return None  # a file added or removed: no need to stat them all
    current = {str(path): cache.stamp_of(path) for path in shown}
    current.update(zip(rest, stamps if stamps is not None else map(stamp, paths or ()), strict=True))
    return cache.take(made) if made.matches(current) else None


def fork_walker(walk: Iterator[Path], problems: list[Problem]) -> tuple[int, int] | None:
    """A child process that finishes `walk`, stats each file, and writes
    (names, stamps, the problems the walk adds to `problems`) to a pipe,
    marshalled (read with `first_frame._from_child`); None if it cannot be
    started. Safe only before any thread starts (before Textual)."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the child: walk, write, and leave without running anything of the parent's
        code = 1
        try:
            os.close(read_end)
            known = len(problems)
            names = list(map(str, walk))
            found = [
                (str(p.location.path), p.location.line, p.location.column, p.message, p.severity)
                for p in problems[known:]
            ]
            data = marshal.dumps((names, list(map(_stamp_of_name, names)), found))
            with os.fdopen(write_end, "wb") as out:
                out.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


def _stamp_of_name(name: str) -> Stamp | None:
    try:
        info = os.stat(name)
    except (OSError, ValueError):
        return None
    return info.st_size, info.st_mtime_ns


def child_walk(
    answer: object, problems: list[Problem], known: int
) -> tuple[list[str], list[Stamp | None]] | None:
    """The files' names and stamps from `fork_walker`'s answer, its problems
    put in `problems` after the `known` ones it had when the child started;
    None if the answer is not one (then the walk is done here)."""
    if not (isinstance(answer, tuple) and len(answer) == 3):
        return None
    names, stamps, found = answer
    if not (isinstance(names, list) and isinstance(stamps, list) and len(names) == len(stamps)):
        return None
    try:
        more = [
            Problem(Location(Path(path), line, column), message, severity)
            for path, line, column, message, severity in found
        ]
    except (TypeError, ValueError):
        return None
    del problems[known:]
    problems += more
    return names, stamps
