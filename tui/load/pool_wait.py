"""A first worker that leaves the disk to the reader while it starts, on a cold start.

With the folders not in the page cache (the first start after a boot, or
after a while), the first parse worker reading its tasks' files competes for
the disk with the reader, which is reading its own modules (Textual's, ~400
files) before its first frame: the first paint comes far later than a bare
app's (bench/README.md). So the first worker parses the first frame's files
(the reader waits for them), and then, if reading them took the disk
(`getrusage`'s `ru_inblock`: blocks read from a device, not from the page
cache), waits until the reader has drawn, or is gone, before it reads more:
the reader writes a word to a pipe (`GO_FD` in the worker) once it has
drawn, and closes it (`tui.load.pool.Pool.go`). With the files in the page cache, nothing
was read from the disk and the worker goes on at once: its parse then runs
on the other core while the reader starts.
"""

from __future__ import annotations

import contextlib
import os
import select

GO_FD = 4
"""The pipe the reader closes once it has drawn, in the first worker."""
GO_WAIT_S = 5.0
"""At most this long, whatever the reader does."""


def pipe_above(floor: int, write_end: bool = False) -> tuple[int, int] | None:
    """A pipe (read end, write end) whose read end (or write end) is above
    `floor`, so that a spawn's `dup2` onto `floor` (or below) neither
    overwrites it nor is a `dup2` onto itself, which would leave it closed at
    the exec; None if none can be made."""
    try:
        ends = list(os.pipe())
    except OSError:
        return None
    side = 1 if write_end else 0
    if ends[side] <= floor:
        import fcntl

        try:
            moved = fcntl.fcntl(ends[side], fcntl.F_DUPFD_CLOEXEC, floor + 1)
        except OSError:
            os.close(ends[1 - side])
            return None
        finally:
            os.close(ends[side])
        ends[side] = moved
    return ends[0], ends[1]


def go_pipe() -> tuple[int, int] | None:
    """A pipe for the first worker's `GO_FD`: its read end, and its write end."""
    return pipe_above(GO_FD)


def disk_reads() -> int:
    """Blocks this process has read from a device so far (0 if not known)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_inblock


def read_from_disk(names: list[str]) -> bool:
    """Did reading these files take the disk? They are read here, before they
    are parsed (which then finds them in the page cache), so that only their
    own reads count: not the worker's imports, its journal's writes, or what
    else a busy machine has dropped from the page cache meanwhile. Read as the
    parse reads them (a regular file, within the size limit): a file that
    cannot be read is the parse's to report."""
    from tui.load.limits import MAX_FILE_BYTES
    from tui.store.safe_read import read_regular

    before = disk_reads()
    for name in names:
        try:
            read_regular(name, MAX_FILE_BYTES)
        except (OSError, ValueError):  # `UnfitFile` is an OSError
            continue
    return disk_reads() > before


def wait_if_cold(cold: bool, wait_s: float = GO_WAIT_S, go_fd: int = GO_FD, close: bool = True) -> bool:
    """If `cold` (`read_from_disk`), wait for `go_fd`'s word or end, at most
    `wait_s` seconds; close it either way (unless not `close`: the worker
    that forks the others reads the word, `tui.load.pool_worker`). Whether it waited."""
    try:
        if not cold or wait_s <= 0:
            return False
        select.select([go_fd], [], [], wait_s)  # readable at its end: the reader has drawn, or is gone
        return True
    except (OSError, ValueError):
        return False
    finally:
        if close:
            with contextlib.suppress(OSError):
                os.close(go_fd)
