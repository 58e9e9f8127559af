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
readable: its word, or its end), the stand-in ends after the file it is
parsing: it answers the files of its task parsed so far and hands the others
back to the first worker (`HandBack`), which parses them at the reader's
priority with the tasks, it and the fork it makes then. At the lowest
priority on a busy machine, the rest of a task (48 files) took the stand-in
0.3-3.4 s after the reader's word (bench/README.md); one file is a few
milliseconds of CPU.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import select
from collections.abc import Callable, Iterable

from tui.load.pool_wait import GO_FD

NICE = 19
"""How much lower the stand-in's priority is: with the lowest, the scheduler
gives it a core only when nothing at the reader's priority wants it."""


def start_stand_in(
    fd: int, nice: int, others: Iterable[int], parse: Callable[[], bool], forked: Callable[[], None]
) -> int | None:
    """Fork the stand-in, its answers on the pipe `fd` (closed here), the
    descriptors `others` (the workers' forks' `FORK_FD`s to come, the first
    worker's end of the `HandBack`) closed in it; it runs `forked` (its
    journal, its pid to the reader), then `parse` (one task, False at the end
    of the tasks, or once it has handed files back) until the reader has
    drawn. In this process, its pid, or None if it could not be forked; it
    never returns in the fork."""
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
    return readable(GO_FD, timeout)


LENGTH = 8
"""The bytes of a hand-back's length, before its names."""


def hand_back(fd: int, names: list[str]) -> None:
    """In the stand-in: the files of its task it did not parse, to the first
    worker, on the pipe `fd` (whose end follows with the stand-in's)."""
    data = marshal.dumps(names)
    view = memoryview(len(data).to_bytes(LENGTH, "little") + data)
    with contextlib.suppress(OSError):  # the first worker is gone: so is the load
        while view:
            view = view[os.write(fd, view) :]


class HandBack:
    """In the first worker: the files its stand-in handed back (`hand_back`),
    read from the pipe `fd` once they are there."""

    def __init__(self, fd: int) -> None:
        self.fd: int | None = fd

    def take(self, wait: bool) -> list[str] | None:
        """The files handed back ([] if none will be: the stand-in ended
        without, or wrote nonsense), once; None if they are not there yet and
        not `wait` (or were taken). With `wait`, until the stand-in hands them
        back or ends: it stops after the file it is parsing."""
        fd = self.fd
        if fd is None or not (wait or readable(fd)):
            return None
        try:
            head = _read(fd, LENGTH)
            names = marshal.loads(_read(fd, int.from_bytes(head, "little"))) if len(head) == LENGTH else []
        except (OSError, EOFError, ValueError, TypeError):
            names = []
        finally:
            self.close()
        if not (isinstance(names, list) and all(isinstance(name, str) for name in names)):
            return []
        return names

    def close(self) -> None:
        """Close the pipe (once taken; in a fork of the first worker: not its to read)."""
        fd, self.fd = self.fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


def _read(fd: int, size: int) -> bytes:
    """`size` bytes, or fewer at the pipe's end."""
    data = b""
    while len(data) < size:
        got = os.read(fd, size - len(data))
        if not got:
            break
        data += got
    return data


def readable(fd: int, timeout: float = 0.0) -> bool:
    """Is `fd` readable (data, or its end; or gone: read as the end of the pipe)?"""
    try:
        return bool(select.select([fd], [], [], timeout)[0])
    except (OSError, ValueError):
        return True
