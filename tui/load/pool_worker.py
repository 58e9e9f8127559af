"""A pool worker's life (`python -m tui.load.workers --pool`, see `tui.load.pool`):
its files from standard input, then tasks until there are none, each answered
on standard output; and, for the first of the walking workers, its stand-in
until the reader has drawn (`tui.load.pool_stand_in`) and the workers it forks
once the reader has drawn (`tui.load.pool.FORK_FD`).

A fork, not a fresh interpreter: the second worker is needed only once the
reader has drawn its first frame (until then the reader needs the other core),
and by then the first worker has its interpreter, its imports (~65 ms of CPU
for a fresh one, bench/README.md) and its walk so far: the fork takes tasks at
once. It shares nothing that two writers would spoil: a journal of its own
(named after its pid), its own answers' pipe, the tasks' pipe (each read of a
task number is atomic). Its first frame is its pid (`FORKED`), so the reader
can end it with the load; the first worker reaps it before its own end. The
stand-in is such a fork too, made after the first frame's files are answered.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tui.load.pool import FIRST, FORKED, HANDED_BACK
from tui.load.pool_spawn import FORK_FD, TOKEN


class _Answers:
    """Where a worker's answers go: its standard output, and its journal."""

    def __init__(self, cache_path: Path | None, version_key: str) -> None:
        from tui.load.journal import Journal

        self.cache_path, self.version_key = cache_path, version_key
        self.journal = Journal(cache_path, version_key) if cache_path is not None else None
        self.out = sys.stdout.fileno()

    def answer(self, chunk: int, names: list[str], stop: Callable[[], bool] | None = None) -> int:
        """Parse `names` and answer them as task `chunk`; how many were parsed
        (all, unless `stop` ended the parse: see `parse_files`)."""
        from tui.load.journal import parse_files

        answer = parse_files(names, self.journal, stop)
        self.frame(chunk, answer)
        return len(answer[2] if isinstance(answer, tuple) else answer)

    def frame(self, chunk: int, answer: Any) -> None:
        data = marshal.dumps((chunk, answer))
        view = memoryview(len(data).to_bytes(8, "little") + data)
        while view:
            view = view[os.write(self.out, view) :]

    def forked(self) -> None:
        """In a fork: a journal of its own (the parent's stays the parent's),
        and its pid first on its answers' pipe."""
        if self.journal is not None:
            self.journal.close()  # this process's copy of the parent's descriptor
            self.journal = type(self.journal)(self.journal.cache_path, self.journal.version_key)
        self.frame(FORKED, os.getpid())


def work(tasks: int, cache_path: Path | None, version_key: str) -> None:
    from tui.load.pool_files import listed, walked
    from tui.load.pool_stand_in import HandBack, drawn, hand_back, readable, start_stand_in
    from tui.load.pool_wait import GO_FD, read_from_disk, wait_if_cold

    spec = marshal.loads(sys.stdin.buffer.read())
    walking = spec[0] == "walk"
    take = walked(*spec[1:4]) if walking else listed(*spec[1:])
    forks = spec[6] if walking and len(spec) > 6 else 0  # answers' pipes at `FORK_FD` onwards
    go_wait = spec[5] if walking else None  # None: no `GO_FD` here
    nice = spec[7] if walking and len(spec) > 7 else 0  # the last pipe is then the stand-in's
    forks -= 1 if nice else 0
    out = _Answers(cache_path, version_key)
    kids: list[int] = []
    back: HandBack | None = None  # the stand-in's files handed back, if it runs
    back_fd: int | None = None  # in the stand-in: where it hands them back

    def parse() -> bool:
        """Take the next task and answer it; False at the end of the tasks."""
        if len(token := os.read(tasks, TOKEN)) != TOKEN:
            return False
        chunk = int.from_bytes(token, "little")
        names = take(chunk)
        if not names:
            return False  # past the end of the walk: so are the tasks still in the pipe
        if back_fd is None:
            out.answer(chunk, names)
            return True
        parsed = out.answer(chunk, names, drawn)  # the stand-in: until the reader has drawn
        if parsed < len(names):
            hand_back(back_fd, names[parsed:])
            return False
        return True

    def take_back(wait: bool) -> None:
        """The stand-in's files handed back, parsed here, once they are in."""
        nonlocal back
        names = back.take(wait) if back is not None else None
        if names is not None:
            back = None
            if names:
                out.answer(HANDED_BACK, names)

    def start_with_hand_back(pipe: int, nice: int, others: range) -> tuple[int | None, HandBack | None]:
        """The stand-in (`start_stand_in`), and the pipe on which it hands back
        the files it has not parsed when the reader has drawn (none if the
        pipe cannot be made: it then ends after its task)."""
        try:
            ends: tuple[int, int] | None = os.pipe()
        except OSError:
            ends = None
        if ends is None:
            return start_stand_in(pipe, nice, others, parse, out.forked), None

        def in_stand_in() -> None:
            nonlocal back_fd
            back_fd = ends[1]
            out.forked()

        pid = start_stand_in(pipe, nice, [*others, ends[0]], parse, in_stand_in)
        os.close(ends[1])
        if pid is None:
            os.close(ends[0])
            return None, None
        return pid, HandBack(ends[0])

    cold = False
    if walking and spec[4]:
        cold = go_wait is not None and read_from_disk(spec[4])  # the parse then reads them from memory
        out.answer(FIRST, spec[4])  # the first frame's files, before any task
    if nice:  # the reader has not drawn yet (`tui.load.pool_stand_in`)
        pipe = FORK_FD + forks
        if cold:  # this worker waits for the reader (below), and so would its stand-in
            stand_in = None
            with contextlib.suppress(OSError):
                os.close(pipe)  # the reader then sees its end
        else:
            stand_in, back = start_with_hand_back(pipe, nice, range(FORK_FD, pipe))
        if stand_in is not None:
            kids.append(stand_in)
            drawn(go_wait or 0.0)  # the word is read below, when there are workers to fork
            if not forks:
                with contextlib.suppress(OSError):
                    os.close(GO_FD)
    stood_in = bool(kids)  # the stand-in parsed while the reader drew: no wait here
    if go_wait is not None and not stood_in:  # the files were on the disk alone: the reader reads its modules
        wait_if_cold(cold, go_wait, close=not forks)
    watching = go_wait is not None and forks > 0  # for the reader's word to fork (`Pool.go`)
    try:
        while True:
            if watching and readable(GO_FD):
                watching = False
                if fork_workers(forks, _went(GO_FD), kids):
                    out.forked()  # this is a fork: on with the tasks, as the others
                    if back is not None:
                        back.close()  # the first worker's to take
                        back = None
            take_back(wait=False)
            if not parse():
                break
        take_back(wait=True)
    finally:
        if watching:  # no word came: no forks
            with contextlib.suppress(OSError):
                os.close(GO_FD)
            fork_workers(forks, False, kids)
        for kid in kids:  # reaped here: they are not the reader's children
            with contextlib.suppress(ChildProcessError, InterruptedError):
                os.waitpid(kid, 0)


def _went(fd: int) -> bool:
    """The reader's word on `GO_FD`: True for "go" (it has drawn), False for
    the pipe's end with no word (the load was stopped, or the reader is gone)."""
    try:
        return os.read(fd, 1) == b"g"
    except OSError:
        return False
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)


def fork_workers(count: int, go: bool, kids: list[int]) -> bool:
    """Fork `count` workers if `go` (their pids into `kids`); True in a fork,
    whose standard output is then its answers' pipe. Every `FORK_FD` is closed
    in this process, so that the reader sees the end of a pipe whose fork
    never ran, or has ended."""
    fds = range(FORK_FD, FORK_FD + count)
    for n in fds if go else ():
        try:
            pid = os.fork()
        except OSError:
            continue  # one worker fewer: the others take its tasks
        if pid == 0:
            kids.clear()  # the parent's: not this process's to reap
            try:
                os.dup2(n, 1)
                _close(fds)
            except BaseException:
                os._exit(1)
            return True
        kids.append(pid)
    _close(fds)
    return False


def _close(fds: range) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)
