"""The first parse worker's stand-in until the reader has drawn, on a first start.

With no parse cache, the first worker (`tui.load.pool_worker`) starts with the
command line and parses while the reader imports Textual and draws its first
frame. The machine has two cores, or fewer free ones: a worker parsing at the
reader's priority takes CPU time from the reader exactly when it is the one
the user waits for (at 100,000 reviews on a busy machine the first paint came
2.55 times the bare app's, against 1.64 with the stand-in; bench/README.md).

So once the first worker has answered the first frame's files (the reader
waits for those, at its own priority), it forks a stand-in that lowers its own
priority (`os.nice`) and takes the tasks while the reader draws: on an idle
core it parses as fast as the worker would, and the reader wins any core they
both want. The first worker itself waits, keeping the reader's priority: a
process cannot raise its priority again without privileges, so the one at the
lower priority is the one that ends. Once the reader has drawn (`GO_FD`
readable: its word, or its end), the stand-in ends after the task it is
parsing, and the first worker (and the fork it makes then) take the tasks, at
the reader's priority.
"""

from __future__ import annotations

import contextlib
import os
import select
from collections.abc import Callable

from tui.load.pool_wait import GO_FD

NICE = 19
"""How much lower the stand-in's priority is: with the lowest, the scheduler
gives it a core only when nothing at the reader's priority wants it."""


def start_stand_in(
    fd: int, nice: int, others: range, parse: Callable[[], bool], forked: Callable[[], None]
) -> int | None:
    """Fork the stand-in, its answers on the pipe `fd` (closed here), the
    other `FORK_FD`s (`others`, the workers' forks to come) closed in it; it
    runs `forked` (its journal, its pid to the reader), then `parse` (one task,
    False at the end of the tasks) until the reader has drawn. In this process,
    its pid, or None if it could not be forked; it never returns in the fork."""
    try:
        pid = os.fork()
    except OSError:
        pid = None
    if pid != 0:
        with contextlib.suppress(OSError):
            os.close(fd)
        return pid
    code = 1
    try:
        os.dup2(fd, 1)
        for n in (fd, *others):
            with contextlib.suppress(OSError):
                os.close(n)
        forked()
        with contextlib.suppress(OSError):
            os.nice(nice)
        while not drawn() and parse():
            pass
        code = 0
    finally:
        os._exit(code)  # nothing of the first worker's runs here: not its loop, not its end


def drawn(timeout: float = 0.0) -> bool:
    """Has the reader drawn (or gone, or stopped the load)? `GO_FD` is then
    readable: its word, or its end. Not read here: the word is the first
    worker's to read (`tui.load.pool_worker`)."""
    try:
        return bool(select.select([GO_FD], [], [], timeout)[0])
    except (OSError, ValueError):
        return True
