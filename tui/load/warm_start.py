"""A warm start's walk of the other files, on the other core.

A warm start answers every file from the parse cache once it knows which files
there are and their sizes and mtimes: at 100,000 reviews (10,000 files)
listing and stating them was ~65 ms of the main thread's after the first frame
(bench/README.md). So the command line, planning before Textual is imported,
forks a child that finishes the walk and stats every file (`fork_walker`) on
the other core while this process imports Textual and draws the first frame;
`FirstPart.rest` then reads its answer (`child_walk`), and `from_cache` checks
the cache's entries against the child's stamps. A file changed after the child
stated it is what the watcher's catch-up finds (`reload.missed_changes`), as
for one changed after a `stat` here. Without the child (an App made in a
test), or if it fails, the walk is done here, as before.
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Iterator
from pathlib import Path

from tui.core.model import Location, Problem
from tui.load.cache_format import Stamp


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
