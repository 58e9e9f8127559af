"""Parse workers started before Textual is imported, for a first load.

When the parse cache has never seen many of the files (a first start, a new
folder, an upgrade), the command line knows which files must be parsed before
it imports Textual (`tui.load.first_frame.plan_first_part`), and starts the
workers then (`python -m tui.load.workers --pool`): they parse while the reader
imports Textual and draws its first frame, and the reader takes their answers
once its event loop runs (`collect`). Fresh interpreters, not forks of the
reader: a fork would carry (and count in its memory) all the reader holds by
then, and the reader's terminal, for a start-up saved of a few milliseconds.

Tasks: the files are cut into chunks (ranges of the list each worker gets on
its standard input), and every chunk's number is written to one pipe the
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
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

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
_TOKEN = 4
TASKS_FD = 3
"""The tasks' pipe, in a worker."""


class Pool:
    """Worker processes parsing `paths`, cut into `chunks`."""

    def __init__(self, paths: list[Path], chunks: list[tuple[int, int]]) -> None:
        self.paths = paths
        self.chunks = chunks
        self.workers: list[tuple[int, int]] = []  # (pid, the read end of its answers' pipe)
        # To start the workers still to come (`start_later`): their command,
        # the tasks' pipe, the listing for their standard input, how many.
        self._later: tuple[list[str], int, bytes, int] | None = None

    def start_later(self) -> None:
        """Start the workers that were left for later (see `EARLY`)."""
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

    def stop(self) -> None:
        """End the workers that still run (a load that was cancelled) and reap
        them all; close the pipes not handed to `collect`."""
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
    tokens = b"".join(n.to_bytes(_TOKEN, "little") for n in range(len(pool.chunks)))
    try:
        tasks_read, tasks_write = os.pipe()
    except OSError:
        return None
    if tasks_read <= TASKS_FD:  # a dup2 onto itself would leave it closed at the workers' exec
        import fcntl

        try:
            moved = fcntl.fcntl(tasks_read, fcntl.F_DUPFD_CLOEXEC, TASKS_FD + 1)
        except OSError:
            os.close(tasks_write)
            return None
        finally:
            os.close(tasks_read)
        tasks_read = moved
    try:
        _grow(tasks_write, len(tokens))
        os.set_blocking(tasks_write, False)
        written = os.write(tasks_write, tokens)
    except OSError:
        written = -1
    finally:
        os.close(tasks_write)  # the workers see the end of the tasks once they are taken
    if written != len(tokens):
        os.close(tasks_read)
        return None
    listing = marshal.dumps(([str(path) for path in paths], pool.chunks))
    argv = [sys.executable, "-m", "tui.load.workers", "--pool"]
    if cache_path is not None:
        argv += [str(cache_path), version_key]
    try:
        for _ in range(min(early, workers)):
            started = _spawn_worker(argv, tasks_read, listing)
            if started is not None:
                pool.workers.append(started)
    except BaseException:
        os.close(tasks_read)
        raise
    if not pool.workers:
        os.close(tasks_read)
        return None
    if workers > early:
        pool._later = (argv, tasks_read, listing, workers - early)
    else:
        os.close(tasks_read)
    return pool


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


def _spawn_worker(argv: list[str], tasks: int, listing: bytes) -> tuple[int, int] | None:
    """A worker: the files and chunks on its standard input (then closed), the
    tasks' pipe as fd 3, its answers on its standard output; nothing else of
    this process (the terminal least of all)."""
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

    names, chunks = marshal.loads(sys.stdin.buffer.read())
    journal = Journal(cache_path, version_key) if cache_path is not None else None
    out = sys.stdout.fileno()
    while len(token := os.read(tasks, _TOKEN)) == _TOKEN:
        chunk = int.from_bytes(token, "little")
        start, end = chunks[chunk]
        data = marshal.dumps((chunk, parse_files(names[start:end], journal)))
        view = memoryview(len(data).to_bytes(8, "little") + data)
        while view:
            view = view[os.write(out, view) :]


async def collect(pool: Pool, receive: Callable[[list | tuple, list[Path]], None]) -> list[Path]:
    """Hand each answer to `receive` (with the files it answers for), until the
    workers are done; the files no worker answered for (one died, or wrote
    nonsense), to be parsed elsewhere. The workers are reaped, or ended if this
    is cancelled."""
    import asyncio  # here: not in the workers, which import this module too

    pool.start_later()
    loop = asyncio.get_running_loop()
    answered: set[int] = set()

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
                if not (isinstance(chunk, int) and 0 <= chunk < len(pool.chunks)) or chunk in answered:
                    raise ValueError("not a task of this pool")
                files = pool.files(chunk)
                if not _answers(answer, len(files)):
                    raise ValueError("not an answer to the task")
                answered.add(chunk)
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
    return [path for n in range(len(pool.chunks)) if n not in answered for path in pool.files(n)]


def _answers(answer: object, files: int) -> bool:
    """Is `answer` what `parse_files` answers for `files` files (as far as its shape goes)?"""
    if isinstance(answer, tuple) and len(answer) == 3:
        journal, bodies_at, answer = answer
        if not (journal is None or isinstance(journal, str)) or not isinstance(bodies_at, int):
            return False
    return isinstance(answer, list) and len(answer) == files


def _end(pid: int) -> None:
    """Kill a worker if it still runs, and reap it."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == 0:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):
        pass
