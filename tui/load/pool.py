"""Parse workers started before Textual is imported, for a first load.

When the parse cache has never seen many of the files (a first start, a new
folder, an upgrade), the command line knows which files must be parsed before
it imports Textual (`tui.load.first_frame.plan_first_part`), and starts the
workers then (`python -m tui.load.workers --pool`): they parse while the reader
imports Textual and draws its first frame, and the reader takes their answers
once its event loop runs (`collect`). Fresh interpreters, not forks of the
reader: a fork would carry (and count in its memory) all the reader holds by
then, and the reader's terminal, for a start-up saved of a few milliseconds.

Which files: with no parse cache at all, the command line has not walked the
folders (only as far as the first frame's files: a walk of 10,000 files, or of
folders not in the page cache, would come before the first frame), so each
worker walks the same tree itself (`start_walking_pool`): the walk is sorted
and deterministic (`tui.load.discover.walk_names`), and chunk `n` is the
files at `n * WALK_CHUNK` onwards, but the first frame's. The answers hold
their files' names, and the reader takes each file once (`collect`): if the
tree changed while the workers walked it, their chunks may overlap, or miss a
file, which the reader then parses itself (its own walk, after the first
frame, says what is there). The walking workers left for later (`EARLY`) are
forks of the first, made when the reader has drawn (`tui.load.pool_worker`):
they start on the tasks with its interpreter, imports and walk so far.
Otherwise (`start_pool`) the files are given, cut into chunks (ranges of the
list each worker gets on its standard input).

Tasks: every chunk's number is written to one pipe the
workers share, 4 bytes each, before any worker starts. A worker reads the next
number when it has answered the last (a pipe's read of 4 bytes is atomic, and
every write was 4 bytes): a quicker or less interrupted worker takes more.
Answers: each worker writes frames (8-byte length, then `marshal` of the
chunk's number and its `tui.load.journal.parse_files` answer) to its standard
output, a pipe made as large as the system allows so that a worker is not held
up while the reader is still starting. Each task's entries go to the worker's
journal first, so what was parsed survives a reader that quits at once.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import select
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from tui.load.pool_spawn import TASKS_FD, close_all, fork_pipes, spawn_worker, write_tokens
from tui.load.pool_stand_in import NICE as STAND_IN_NICE
from tui.load.pool_wait import GO_WAIT_S, go_pipe, pipe_above

POOL_CHUNK = 48
"""Files per task, at most: few answers for the reader to take in."""
MIN_POOL_CHUNK = 4
"""Tasks get smaller towards the end, down to this many files, so that the
workers finish together (the files' sizes are not known: no `stat` here)."""
EARLY = 1
"""Workers started with the command line; the others when the reader's event
loop runs (`collect`). While the reader imports Textual and draws its first
frame it needs a core of its own: one worker takes the other, and after its
first answer it leaves the tasks to a stand-in at a lower priority, so that
the reader wins that core too when it wants it (`tui.load.pool_stand_in`).
(Niced workers for the whole load would lose their cores to any other
program on a busy machine; a process cannot raise its priority again.)"""
WALK_CHUNK = 48
"""Files per task when the workers walk: the count is not known, so tasks do
not shrink towards the end; a worker finishes at most one task after the other."""
WALK_TOKENS = 16_384
"""Tasks written for walking workers (64 KB, what any pipe holds): 786,432
files. A walk longer than that leaves the rest to the reader's own parsing."""
FIRST = -1
"""The task number of the first frame's files, in the first worker's answer."""
FORKED = -2
"""The task number of a forked worker's first frame: its pid (see `FORK_FD`)."""
HANDED_BACK = -3
"""The task number of the files the stand-in handed back, unparsed, when the
reader had drawn (`tui.load.pool_stand_in`): the rest of a task it answered
in part, parsed by the first worker; its answer names its files."""
WORKER_PYTHON = (sys.executable, "-P")
"""A worker's Python: with `-P`, `-m` does not put the current folder first on
its `sys.path`, where a `yaml.py` or `tui/` of the folder the reader was
started in would be imported in place of ours."""


class Pool:
    """Worker processes parsing `paths`, cut into `chunks`; or, with `roots`,
    the entry files under `roots` (but `skip`), each worker walking them."""

    def __init__(
        self,
        paths: list[Path],
        chunks: list[tuple[int, int]],
        roots: list[Path] | None = None,
        skip: frozenset[str] = frozenset(),
    ) -> None:
        self.paths = paths
        self.chunks = chunks
        self.roots = roots
        self.skip = skip
        self.tokens = len(chunks)
        self.known: dict[str, Path] = {}
        """Walking workers: the reader's own `Path`s by name, to reuse for the
        files answered (`collect`), and the files it expects answered."""
        self.first: list[Path] = []
        """The first frame's files, parsed first by the first worker
        (`start_walking_pool`), its answer taken by `first_answer`."""
        self.workers: list[tuple[int, int]] = []  # (pid, the read end of its answers' pipe)
        self.forks: list[int] = []  # the read ends of the answers' pipes of the first worker's forks
        self._go: int | None = None  # the write end of the first worker's `GO_FD` (see `go`)
        # To start the workers still to come (`start_later`): their command,
        # the tasks' pipe, the listing for their standard input, how many.
        self._later: tuple[list[str], int, bytes, int] | None = None

    def go(self) -> None:
        """The reader has drawn: a first worker waiting for it goes on
        (`tui.load.pool_wait`), and forks the workers left for later
        (`FORK_FD`)."""
        self._close_go(b"g")

    def _close_go(self, word: bytes = b"") -> None:
        """Close `GO_FD`'s write end, after `word` if any (none: the end of
        the pipe alone says "go on, fork nothing")."""
        go, self._go = self._go, None
        if go is not None:
            with contextlib.suppress(OSError):
                if word:
                    os.write(go, word)
            with contextlib.suppress(OSError):
                os.close(go)

    def start_later(self) -> None:
        """Start the workers that were left for later (see `EARLY`); the
        reader has drawn (see `go`)."""
        self.go()
        later, self._later = self._later, None
        if later is None:
            return
        argv, tasks, listing, count = later
        try:
            for _ in range(count):
                started = spawn_worker(argv, tasks, listing)
                if started is not None:
                    self.workers.append(started)
        finally:
            os.close(tasks)

    def files(self, chunk: int) -> list[Path]:
        start, end = self.chunks[chunk]
        return self.paths[start:end]

    def first_answer(self, timeout: float) -> list | tuple | None:
        """The first worker's answer for `first` (once): None if there is none,
        or it is not in by `timeout` seconds, or is nonsense; that worker is
        then ended (the files it took are left to the reader, see `collect`)."""
        if not self.first or not self.workers:
            return None
        files, self.first = self.first, []
        pid, fd = self.workers[0]
        deadline = time.monotonic() + timeout

        def read(size: int) -> bytes:
            data = b""
            while len(data) < size:
                if not select.select([fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
                    raise TimeoutError
                got = os.read(fd, size - len(data))
                if not got:
                    raise EOFError
                data += got
            return data

        try:
            chunk, answer = marshal.loads(read(int.from_bytes(read(8), "little")))
            if chunk == FIRST and _answers(answer, len(files)):
                return answer
        except (OSError, EOFError, ValueError, TypeError):  # TimeoutError is an OSError
            pass
        self.workers.remove((pid, fd))
        with contextlib.suppress(OSError):
            os.close(fd)
        _end(pid)
        return None

    def stop(self) -> None:
        """End the workers that still run (a load that was cancelled) and reap
        them all; close the pipes not handed to `collect` (a fork's end then
        comes with its next answer, if it was forked at all)."""
        self._close_go()
        later, self._later = self._later, None
        if later is not None:
            os.close(later[1])
        forks, self.forks = self.forks, []
        for fd in forks:
            with contextlib.suppress(OSError):
                os.close(fd)
        workers, self.workers = self.workers, []
        for pid, fd in workers:
            with contextlib.suppress(OSError):
                os.close(fd)
            _end(pid)


def chunks_of(count: int, workers: int) -> list[tuple[int, int]]:
    """`count` files as tasks of at most `POOL_CHUNK`, smaller towards the end."""
    chunks = []
    start = 0
    while start < count:
        size = max(MIN_POOL_CHUNK, min(POOL_CHUNK, (count - start) // (4 * workers)))
        chunks.append((start, min(count, start + size)))
        start += size
    return chunks


def start_pool(
    paths: list[Path], cache_path: Path | None, version_key: str, workers: int = 2, early: int = EARLY
) -> Pool | None:
    """Start `early` of `workers` processes parsing `paths` (into journals next
    to `cache_path`, if any), the others at `Pool.start_later`; None if the
    pool cannot be started."""
    if not paths or not hasattr(os, "posix_spawn"):
        return None
    pool = Pool(paths, chunks_of(len(paths), workers))
    listing = marshal.dumps(("files", [str(path) for path in paths], pool.chunks))
    return _start(pool, listing, len(pool.chunks), cache_path, version_key, workers, early)


def start_walking_pool(
    roots: list[Path],
    first: list[Path],
    cache_path: Path | None,
    version_key: str,
    workers: int = 2,
    early: int = EARLY,
    go_wait: float = GO_WAIT_S,
    nice: int = STAND_IN_NICE,
) -> Pool | None:
    """`start_pool` for the entry files under `roots` (as `walk` finds them),
    which each worker walks itself: nothing is walked here. The first frame's
    files (`first`) are left out of the walk: the first worker parses them
    before any task, and the reader takes that answer (`Pool.first_answer`),
    where it would otherwise fork a parser of its own for them. If reading
    them took the disk, that worker then waits for `Pool.go`, at most
    `go_wait` seconds (`tui.load.pool_wait`). The other `workers - early`
    are forked by the first at `Pool.go` (`FORK_FD`), or spawned then if
    their pipes cannot be made. Until then, the first worker's tasks are
    parsed by its stand-in, at a priority `nice` lower (none: 0;
    `tui.load.pool_stand_in`)."""
    if not roots or not hasattr(os, "posix_spawn"):
        return None
    pool = Pool([], [], roots=roots, skip=frozenset(map(str, first)))
    pool.first = list(first)
    walk = ("walk", [str(root) for root in roots], sorted(pool.skip), WALK_CHUNK)
    go = go_pipe()
    # The stand-in's pipe, if any, is the last (`tui.load.pool_stand_in`).
    forks = fork_pipes(max(0, workers - early) + (nice > 0)) if go is not None else []
    nice = nice if forks else 0
    # The first worker, and it alone, is given `GO_FD` (and told how long it may wait on it), and forks.
    wait = float(go_wait) if go is not None else None
    listing = marshal.dumps((*walk, [str(path) for path in first], wait, len(forks), nice))
    later = marshal.dumps((*walk, [], None, 0))
    spawned = workers - (len(forks) - (nice > 0))
    return _start(pool, listing, WALK_TOKENS, cache_path, version_key, spawned, early, later, go, forks)


def _start(
    pool: Pool,
    listing: bytes,
    tasks: int,
    cache_path: Path | None,
    version_key: str,
    workers: int,
    early: int,
    later_listing: bytes | None = None,
    go: tuple[int, int] | None = None,
    forks: list[tuple[int, int]] | None = None,
) -> Pool | None:
    """The workers, `early` of them now, the first given `listing` (and the
    others `later_listing`, if any), and their tasks' pipe. `go`: the first
    worker's `GO_FD` pipe; `forks`: the answers' pipes of the workers it forks
    (`FORK_FD`), not counted in `workers`. The pipes given are the pool's, or
    closed."""
    forks = forks or []
    given = [fd for pipe in ([go] if go is not None else []) + forks for fd in pipe]
    if (tasks_pipe := pipe_above(TASKS_FD)) is None:
        close_all(given)
        return None
    tasks_read, tasks_write = tasks_pipe
    try:
        written = write_tokens(tasks_write, tasks, exact=pool.roots is None)
    finally:
        os.close(tasks_write)  # the workers see the end of the tasks once they are taken
    if written == 0:
        os.close(tasks_read)
        close_all(given)
        return None
    pool.tokens = written
    argv = [*WORKER_PYTHON, "-m", "tui.load.workers", "--pool"]
    if cache_path is not None:
        argv += [str(cache_path), version_key]
    others = listing if later_listing is None else later_listing
    # The first worker's ends of the go and forks' pipes: closed here once it is spawned.
    go_end, fork_ends = (go[0] if go is not None else None), [write for _, write in forks]
    theirs = ([go_end] if go_end is not None else []) + fork_ends
    try:
        for _ in range(min(early, workers)):
            first = not pool.workers
            started = (
                spawn_worker(argv, tasks_read, listing, go_end, fork_ends)
                if first
                else spawn_worker(argv, tasks_read, others)
            )
            if started is not None:
                pool.workers.append(started)
    except BaseException:
        os.close(tasks_read)
        close_all(given)
        raise
    close_all(theirs)
    ours = ([go[1]] if go is not None else []) + [read for read, _ in forks]
    if not pool.workers:
        os.close(tasks_read)
        close_all(ours)
        return None
    if go is not None:
        pool._go = go[1]
    pool.forks = [read for read, _ in forks]
    if workers > early:
        pool._later = (argv, tasks_read, others, workers - early)
    else:
        os.close(tasks_read)
    return pool


async def collect(pool: Pool, receive: Callable[[list | tuple, list[Path]], None]) -> list[Path]:
    """Hand each answer to `receive` (with the files it answers for), until the
    workers are done; the files no worker answered for (one died, or wrote
    nonsense), to be parsed elsewhere. The workers are reaped, or ended if this
    is cancelled."""
    import asyncio  # here: not in the workers, which import this module too

    from tui.load.pool_files import new_files

    pool.start_later()
    loop = asyncio.get_running_loop()
    answered: set[int] = set()
    taken: set[str] = set()  # walking workers: the files answered

    forked: dict[int, int] = {}  # a fork's pipe (its place in `pipes`) -> its pid, until the pipe ends

    async def read(pipe: BinaryIO, n: int) -> None:
        stream = asyncio.StreamReader(limit=1 << 24)
        transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream), pipe)
        try:
            while True:
                try:
                    head = await stream.readexactly(8)
                except asyncio.IncompleteReadError:
                    forked.pop(n, None)
                    return  # the worker is done (or died between two answers)
                chunk, answer = marshal.loads(await stream.readexactly(int.from_bytes(head, "little")))
                if chunk == FORKED and n >= len(workers) and n not in forked and type(answer) is int:
                    forked[n] = answer  # a fork of the first worker, not the reader's child
                    continue
                if chunk == FIRST and pool.first:  # the first frame's, not taken by `first_answer`
                    files, pool.first = pool.first, []
                    if not _answers(answer, len(files)):
                        raise ValueError("not an answer to the task")
                    receive(answer, files)
                    continue
                if chunk == HANDED_BACK and pool.roots is not None:  # named files, as any walking answer
                    answer, files = new_files(answer, pool.known, pool.skip, taken)
                    if files:
                        receive(answer, files)
                    continue
                if not (isinstance(chunk, int) and 0 <= chunk < pool.tokens) or chunk in answered:
                    raise ValueError("not a task of this pool")
                if pool.roots is None:
                    files = pool.files(chunk)
                    if not _answers(answer, len(files)):
                        raise ValueError("not an answer to the task")
                else:
                    answer, files = new_files(answer, pool.known, pool.skip, taken)
                answered.add(chunk)
                if files:
                    receive(answer, files)
        except (asyncio.IncompleteReadError, ConnectionError, EOFError, ValueError, TypeError):
            return  # the worker died mid-answer, or wrote nonsense: `stop` ends it
        finally:
            transport.close()

    workers, pool.workers = pool.workers, []
    forks, pool.forks = pool.forks, []
    pipes = [open(fd, "rb", buffering=0) for fd in [fd for _, fd in workers] + forks]  # noqa: SIM115  # closed below
    try:
        await asyncio.gather(*(read(pipe, n) for n, pipe in enumerate(pipes)))
    finally:
        for pipe in pipes:
            pipe.close()  # if its transport has not: a worker blocked on a full pipe then ends too
        for pid in forked.values():  # still answering (cancelled), or wrote nonsense
            with contextlib.suppress(OSError):
                os.kill(pid, 9)  # the first worker reaps it
        for pid, _ in workers:
            _end(pid)
    if pool.roots is not None:
        return [path for name, path in pool.known.items() if name not in taken]
    return [path for n in range(len(pool.chunks)) if n not in answered for path in pool.files(n)]


def _answers(answer: object, files: int) -> bool:
    """Is `answer` what `parse_files` answers for `files` files (as far as its shape goes)?"""
    from tui.load.pool_files import split_answer

    try:
        return len(split_answer(answer)[1]) == files
    except ValueError:
        return False


def _end(pid: int) -> None:
    """Kill a worker if it still runs, and reap it."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == 0:
            os.kill(pid, 9)  # SIGKILL, without `signal`: the workers import this module
            os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):
        pass
