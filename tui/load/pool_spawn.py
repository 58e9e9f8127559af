"""Starting parse workers (`tui.load.pool`): the pipes they are given, at
which descriptors, their tasks written, and the spawn itself."""

from __future__ import annotations

import contextlib
import os
import select
import sys
from array import array

from tui.load.pool_wait import GO_FD, pipe_above

PIPE_BYTES = 1 << 20
"""The answers' pipes are made this large (if the system allows), about all a
worker's answers at 10,000 files: it need not wait for the reader to start."""
TOKEN = 4
TASKS_FD = 3
"""The tasks' pipe, in a worker."""
FORK_FD = 5
"""Walking workers: the first worker's answers' pipes for the workers it forks,
`FORK_FD` onwards, one a worker. The workers left for later (see `EARLY`) are
forks of the first, made when the reader has drawn (`Pool.go`): a fresh
interpreter's start, imports and walk were ~90 ms of CPU (bench/README.md), and
a fork starts on the tasks at once, with the first worker's walk so far."""


def fork_pipes(count: int) -> list[tuple[int, int]]:
    """The answers' pipes of the first worker's forks, each write end above
    every `FORK_FD` (see `pipe_above`), as large as a spawned worker's
    (`PIPE_BYTES`): the stand-in parses while the reader starts, and the
    reader reads none of its answers until it has drawn. At the default
    size (64 KB: a few tasks' answers) the stand-in would wait on its pipe,
    and its core stand idle, until then. None if not all can be made (the
    workers left for later are then spawned)."""
    pipes: list[tuple[int, int]] = []
    for _ in range(count):
        pipe = pipe_above(FORK_FD + count - 1, write_end=True)
        if pipe is None:
            for ends in pipes:
                close_all(ends)
            return []
        _grow(pipe[1], PIPE_BYTES)
        pipes.append(pipe)
    return pipes


def close_all(fds: tuple[int, ...] | list[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


def write_tokens(fd: int, count: int, exact: bool) -> int:
    """Write task numbers 0 to `count` - 1 to the tasks' pipe, before any
    worker reads it; how many were written (0 if not all and `exact`).
    Blocks of `PIPE_BUF` bytes at most, each written whole or not at all."""
    tokens = array("I", range(count))
    if sys.byteorder != "little":  # pragma: no cover - the workers read little-endian
        tokens.byteswap()
    data = memoryview(tokens.tobytes())
    _grow(fd, len(data))
    step = (select.PIPE_BUF // TOKEN) * TOKEN
    written = 0
    try:
        os.set_blocking(fd, False)
        while written < len(data):
            written += os.write(fd, data[written : written + step])
    except OSError:  # full (a pipe smaller than asked for), or broken
        pass
    if written < len(data) and exact:
        return 0
    return written // TOKEN


def _grow(fd: int, size: int) -> None:
    """Make a pipe hold `size` bytes, if the system lets it (Linux)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return
    setting = getattr(fcntl, "F_SETPIPE_SZ", None)
    if setting is not None and size > 0:
        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, setting, size)


def spawn_worker(
    argv: list[str], tasks: int, listing: bytes, go: int | None = None, forks: list[int] | None = None
) -> tuple[int, int] | None:
    """A worker: the files and chunks on its standard input (then closed), the
    tasks' pipe as fd 3, `go` (if given) as `GO_FD` and `forks` as the
    `FORK_FD`s, its answers on its standard output; nothing else of this
    process (the terminal least of all)."""
    given = [(go, GO_FD)] if go is not None else []
    given += [(fd, FORK_FD + n) for n, fd in enumerate(forks or [])]
    try:
        list_read, list_write = os.pipe()
    except OSError:
        return None
    try:
        answers_read, answers_write = os.pipe()
    except OSError:
        os.close(list_read)
        os.close(list_write)
        return None
    _grow(list_write, len(listing))
    _grow(answers_write, PIPE_BYTES)
    pid = spawn_quiet(argv, list_read, answers_write, [(tasks, TASKS_FD), *given])
    os.close(list_read)
    os.close(answers_write)
    if pid is None:
        os.close(list_write)
        os.close(answers_read)
        return None
    try:
        view = memoryview(listing)
        while view:  # all at once if the pipe holds it, else as the worker reads it
            view = view[os.write(list_write, view) :]
    except OSError:
        pass  # the worker is gone: `collect` finds no answers and leaves its files
    finally:
        os.close(list_write)
    return pid, answers_read


def spawn_quiet(argv: list[str], stdin: int | None, stdout: int, given: list[tuple[int, int]]) -> int | None:
    """Spawn `argv` (a fresh Python of ours: a parse worker, the table's
    checker) with `stdin` (the null device if None) and `stdout` as its
    standard input and output, its standard error on the null device (never
    the reader's terminal), and each (fd, target) of `given` as `target`; its
    pid, or None if it could not be started."""
    if stdin is None:
        into: tuple = (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0)
    else:
        into = (os.POSIX_SPAWN_DUP2, stdin, 0)
    try:
        return os.posix_spawn(
            argv[0],
            argv,
            os.environ,
            file_actions=[
                into,
                (os.POSIX_SPAWN_DUP2, stdout, 1),
                (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
                *[(os.POSIX_SPAWN_DUP2, fd, target) for fd, target in given],
            ],
        )
    except OSError:
        return None
