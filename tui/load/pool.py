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
frame, says what is there). Otherwise (`start_pool`) the files are given, cut
into chunks (ranges of the list each worker gets on its standard input).

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
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from tui.load.pool_wait import GO_FD, GO_WAIT_S, go_pipe, pipe_above

POOL_CHUNK = 48
"""Files per task, at most: few answers for the reader to take in."""
MIN_POOL_CHUNK = 4
"""Tasks get smaller towards the end, down to this many files, so that the
workers finish together (the files' sizes are not known: no `stat` here)."""
EARLY = 1
"""Workers started with the command line; the others when the reader's event
loop runs (`collect`). While the reader imports Textual and draws its first
frame it needs a core of its own: one worker takes the other. (Niced workers
started together would leave it that core on an idle machine, but lose it to
any other program on a busy one.)"""
PIPE_BYTES = 1 << 20
"""The answers' pipes are made this large (if the system allows), about all a
worker's answers at 10,000 files: it need not wait for the reader to start."""
WALK_CHUNK = 48
"""Files per task when the workers walk: the count is not known, so tasks do
not shrink towards the end; a worker finishes at most one task after the other."""
WALK_TOKENS = 16_384
"""Tasks written for walking workers (64 KB, what any pipe holds): 786,432
files. A walk longer than that leaves the rest to the reader's own parsing."""
FIRST = -1
"""The task number of the first frame's files, in the first worker's answer."""
_TOKEN = 4
TASKS_FD = 3
"""The tasks' pipe, in a worker."""
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
        self._go: int | None = None  # the write end of the first worker's `GO_FD` (see `go`)
        # To start the workers still to come (`start_later`): their command,
        # the tasks' pipe, the listing for their standard input, how many.
        self._later: tuple[list[str], int, bytes, int] | None = None

    def go(self) -> None:
        """The reader has drawn: a first worker waiting for it goes on
        (`tui.load.pool_wait`)."""
        go, self._go = self._go, None
        if go is not None:
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
                started = _spawn_worker(argv, tasks, listing)
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
        them all; close the pipes not handed to `collect`."""
        self.go()
        later, self._later = self._later, None
        if later is not None:
            os.close(later[1])
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
) -> Pool | None:
    """`start_pool` for the entry files under `roots` (as `walk` finds them),
    which each worker walks itself: nothing is walked here. The first frame's
    files (`first`) are left out of the walk: the first worker parses them
    before any task, and the reader takes that answer (`Pool.first_answer`),
    where it would otherwise fork a parser of its own for them. If reading
    them took the disk, that worker then waits for `Pool.go`, at most
    `go_wait` seconds (`tui.load.pool_wait`)."""
    if not roots or not hasattr(os, "posix_spawn"):
        return None
    pool = Pool([], [], roots=roots, skip=frozenset(map(str, first)))
    pool.first = list(first)
    walk = ("walk", [str(root) for root in roots], sorted(pool.skip), WALK_CHUNK)
    # The first worker, and it alone, is given `GO_FD` (and told how long it may wait on it).
    listing = marshal.dumps((*walk, [str(path) for path in first], float(go_wait)))
    later = marshal.dumps((*walk, [], None))
    return _start(pool, listing, WALK_TOKENS, cache_path, version_key, workers, early, later)


def _start(
    pool: Pool,
    listing: bytes,
    tasks: int,
    cache_path: Path | None,
    version_key: str,
    workers: int,
    early: int,
    later_listing: bytes | None = None,
) -> Pool | None:
    """The workers, `early` of them now, the first given `listing` (and the
    others `later_listing`, if any), and their tasks' pipe."""
    if (tasks_pipe := pipe_above(TASKS_FD)) is None:
        return None
    tasks_read, tasks_write = tasks_pipe
    try:
        written = _write_tokens(tasks_write, tasks, exact=pool.roots is None)
    finally:
        os.close(tasks_write)  # the workers see the end of the tasks once they are taken
    if written == 0:
        os.close(tasks_read)
        return None
    pool.tokens = written
    argv = [*WORKER_PYTHON, "-m", "tui.load.workers", "--pool"]
    if cache_path is not None:
        argv += [str(cache_path), version_key]
    others = listing if later_listing is None else later_listing
    go = None
    if later_listing is not None and (pipe := go_pipe()) is not None:
        go, pool._go = pipe
    try:
        for _ in range(min(early, workers)):
            first = not pool.workers
            started = _spawn_worker(argv, tasks_read, listing if first else others, go if first else None)
            if started is not None:
                pool.workers.append(started)
    except BaseException:
        os.close(tasks_read)
        pool.go()
        raise
    finally:
        if go is not None:
            os.close(go)
    if not pool.workers:
        os.close(tasks_read)
        pool.go()
        return None
    if workers > early:
        pool._later = (argv, tasks_read, others, workers - early)
    else:
        os.close(tasks_read)
    return pool


def _write_tokens(fd: int, count: int, exact: bool) -> int:
    """Write task numbers 0 to `count` - 1 to the tasks' pipe, before any
    worker reads it; how many were written (0 if not all and `exact`).
    Blocks of `PIPE_BUF` bytes at most, each written whole or not at all."""
    tokens = array("I", range(count))
    if sys.byteorder != "little":  # pragma: no cover - the workers read little-endian
        tokens.byteswap()
    data = memoryview(tokens.tobytes())
    _grow(fd, len(data))
    step = (select.PIPE_BUF // _TOKEN) * _TOKEN
    written = 0
    try:
        os.set_blocking(fd, False)
        while written < len(data):
            written += os.write(fd, data[written : written + step])
    except OSError:  # full (a pipe smaller than asked for), or broken
        pass
    if written < len(data) and exact:
        return 0
    return written // _TOKEN


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


def _spawn_worker(
    argv: list[str], tasks: int, listing: bytes, go: int | None = None
) -> tuple[int, int] | None:
    """A worker: the files and chunks on its standard input (then closed), the
    tasks' pipe as fd 3 (and `go` as `GO_FD`, if given), its answers on its
    standard output; nothing else of this process (the terminal least of all)."""
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
    try:
        pid = os.posix_spawn(
            argv[0],
            argv,
            os.environ,
            file_actions=[
                (os.POSIX_SPAWN_DUP2, list_read, 0),
                (os.POSIX_SPAWN_DUP2, answers_write, 1),
                (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
                (os.POSIX_SPAWN_DUP2, tasks, TASKS_FD),
                *([(os.POSIX_SPAWN_DUP2, go, GO_FD)] if go is not None else []),
            ],
        )
    except OSError:
        pid = None
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


def work(tasks: int, cache_path: Path | None, version_key: str) -> None:
    """A pool worker's life (`python -m tui.load.workers --pool`): its files
    and chunks from standard input, then tasks until there are none, each
    answered on standard output."""
    from tui.load.journal import Journal, parse_files
    from tui.load.pool_files import listed, walked
    from tui.load.pool_wait import read_from_disk, wait_if_cold

    spec = marshal.loads(sys.stdin.buffer.read())
    take = walked(*spec[1:4]) if spec[0] == "walk" else listed(*spec[1:])
    journal = Journal(cache_path, version_key) if cache_path is not None else None
    out = sys.stdout.fileno()

    def answer(chunk: int, names: list[str]) -> None:
        data = marshal.dumps((chunk, parse_files(names, journal)))
        view = memoryview(len(data).to_bytes(8, "little") + data)
        while view:
            view = view[os.write(out, view) :]

    if spec[0] == "walk" and spec[4]:
        go_wait = spec[5]  # None: no `GO_FD` here
        cold = go_wait is not None and read_from_disk(spec[4])  # the parse then reads them from memory
        answer(FIRST, spec[4])  # the first frame's files, before any task
        if go_wait is not None:
            wait_if_cold(cold, go_wait)  # they were on the disk alone: the reader reads its modules
    while len(token := os.read(tasks, _TOKEN)) == _TOKEN:
        chunk = int.from_bytes(token, "little")
        names = take(chunk)
        if not names:
            break  # past the end of the walk: so are the tasks still in the pipe
        answer(chunk, names)


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

    async def read(pipe: BinaryIO) -> None:
        stream = asyncio.StreamReader(limit=1 << 24)
        transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream), pipe)
        try:
            while True:
                try:
                    head = await stream.readexactly(8)
                except asyncio.IncompleteReadError:
                    return  # the worker is done (or died between two answers)
                chunk, answer = marshal.loads(await stream.readexactly(int.from_bytes(head, "little")))
                if chunk == FIRST and pool.first:  # the first frame's, not taken by `first_answer`
                    files, pool.first = pool.first, []
                    if not _answers(answer, len(files)):
                        raise ValueError("not an answer to the task")
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
    pipes = [open(fd, "rb", buffering=0) for _, fd in workers]  # noqa: SIM115  # closed below
    try:
        await asyncio.gather(*(read(pipe) for pipe in pipes))
    finally:
        for pipe in pipes:
            pipe.close()  # if its transport has not: a worker blocked on a full pipe then ends too
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
