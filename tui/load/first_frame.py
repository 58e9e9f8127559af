"""Start-up loading: a first part at once, the rest after the first frame.

The reader paints as soon as its first files are in (from the parse cache, or
parsed); the other cached files follow a frame later, and files that are new or
changed since the last run are parsed off the event loop (in two worker
processes when there are many, so both cores work), and handed over in batches.
No Textual here: the app passes callbacks.
"""

from __future__ import annotations

import contextlib
import gc
import marshal
import os
import select
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING

from tui.core.model import FileUpdate, Library, Problem, Review
from tui.load.cache import ParseCache
from tui.load.cache_format import stamp
from tui.load.discover import walk
from tui.load.journal import Journal, journals, parse_files
from tui.load.pool import WORKER_PYTHON, Pool, collect, start_walking_pool

if TYPE_CHECKING:
    from tui.load.table_check import TableCheck

PROCESS_THRESHOLD = 48
"""Below this many files to parse, a thread is quicker than starting processes."""
CHUNK = 24
"""Files per task sent to a worker (or to the thread), at most."""
CHUNK_BYTES = 512 * 1024
"""Bytes of files per task sent to a worker, about (a big file is a task of its own)."""
MIN_CHUNK_BYTES = 64 * 1024
"""Tasks get smaller towards the end, down to about this many bytes."""
WORKER = (*WORKER_PYTHON, "-m", "tui.load.workers")
"""The command of a worker process."""
SYNC_FILES = 24
"""Files shown in the first frame (from the parse cache, or parsed), so a small
digest opens complete and a big one opens with reviews on screen while the
rest loads."""
SYNC_BYTES = 64 * 1024
"""Of those, the files parsed before the first frame when the cache has not got
them: about this many bytes (at least one file), a few milliseconds with the
parser's import (bench/README.md); the rest is parsed in the background."""
CHILD_TIMEOUT_S = 10.0
"""How long the first frame waits for the child parsing its files (see
`plan_first_part`) before parsing them itself."""
FLUSH_S = 0.3
"""Hand parsed files to the app at most this often, so it re-indexes a few times, not per file:
each hand-over re-indexes and relists everything loaded so far (~20 ms at 10,000 reviews)."""
PROGRESS_S = 0.5
"""Show how far parsing is this often, and at each hand-over (whose frame
draws the status bar anyway). Each showing is a frame of its own, and that
frame redraws more than the status bar: ~10-15 ms of the reader's CPU at
10,000 reviews, taken from the workers on two cores; at 0.15 s a load of
10,000 files one a file drew ~7 of them quiet and ~20 on a busy machine
(bench/README.md)."""
FLUSH_SHARE = 4
"""And wait this many times as long as the last hand-over took: the app
re-indexes everything it has each time (~0.1 s at 100,000 reviews), so a big
load is handed over less often and the reader spends at most about a fifth
of it re-indexing."""
FLUSH_GROWTH = 0.5
"""And a hand-over (but the first) brings at least this share of what was
handed over before it: however slow the machine (a busy one makes a load take
longer, hence more hand-overs), a load of N files is handed over a few times
(about log N), and the re-indexing adds up to a few times N, not N per 0.3 s."""


class FirstPart:
    """The first frame's files, planned: those the cache answered, those to
    parse now (maybe already being parsed in a child process), the others
    among the first `SYNC_FILES`; and the walk that finds every other file,
    and the cache's index beyond the first frame's, both left for after the
    first frame (`rest`)."""

    def __init__(
        self,
        cache: ParseCache,
        hits: dict[Path, FileUpdate],
        parse: list[Path],
        later: list[Path],
        problems: list[Problem],
        walk: Iterator[Path] | None = None,
    ) -> None:
        self.cache, self.hits, self.parse, self.later = cache, hits, parse, later
        self.problems = problems  # the walk's, so far: it adds those it finds later
        self.walk = walk if walk is not None else iter(())
        self.child: tuple[int, int] | None = None  # (pid, the read end of its pipe)
        self.pool: Pool | None = None  # workers parsing the other files, on a start with no cache
        self.table_check: TableCheck | None = None  # the saved table, checked in a child meanwhile
        self._shown_problems = 0

    def shown(self) -> tuple[dict[Path, FileUpdate | None], list[Problem]]:
        """The first frame's files (the child's parses, or parsed here; None for
        one gone since the scan), and the problems the walk found so far."""
        with _collector_off():
            hits: dict[Path, FileUpdate | None] = dict(self.hits)
            if self.child is not None:
                entries = _from_child(self.child)
            elif self.pool is not None:
                entries = self.pool.first_answer(CHILD_TIMEOUT_S)
            else:
                entries = None
            self.child = None
            if entries is None:
                hits.update(parse_now(self.parse, self.cache))
            else:
                hits.update(self.cache.store(entries))
        self._shown_problems = len(self.problems)
        return hits, self.problems[: self._shown_problems]

    def rest(self) -> tuple[list[Path], list[Problem]]:
        """Every file the first frame did not show (for `from_cache`, then
        parsing), and the problems `shown` did not return: the rest of the
        walk, with the rest of the cache's index read meanwhile."""
        if self.pool is not None:
            self.pool.start_later()  # the other workers: the reader has drawn, they need not wait for its walk
        with _collector_off():
            rest = [*self.later, *self.walk]
            self.later, self.walk = [], iter(())
            # Journals made since the plan are the pool's (it starts only when
            # there are none): its answers bring those files, each once.
            self.cache.load_rest(journals_too=self.pool is None)
        problems = self.problems[self._shown_problems :]
        self._shown_problems = len(self.problems)
        return rest, problems


def plan_first_part(paths: list[Path], cache: ParseCache, *, fork: bool = False) -> FirstPart:
    """Find the first `SYNC_FILES` files and ask the cache for them; the ones it
    cannot answer (up to about `SYNC_BYTES`) are parsed before the first frame.
    Only as much of the folders is listed, and of the cache's index read, as
    these files need: at 100,000 reviews, listing every folder and reading the
    whole index took ~120 ms; the rest waits for `FirstPart.rest`.

    `fork`: parse them in a child process, started now. The command line plans
    before importing Textual, so the child imports the parser and parses on the
    other core while this process imports Textual and builds the app;
    without a parse cache (a first start, an upgrade) this takes the parser's
    import (PyYAML compiles its regular expressions), the loader's and
    the parsing off the way to the first frame. Forking is safe only before
    any thread starts, hence before Textual.

    And when there is no parse cache at all (a first start, `--no-cache`), every
    file is to be parsed: with `PROCESS_THRESHOLD` files or more beyond those
    parsed for the first frame, the parse workers for the others are started
    now too (`tui.load.pool.start_walking_pool`): they parse while Textual is
    imported and the first frame drawn, instead of after it, and each walks
    the folders itself, so that the walk here still stops at the first
    frame's files. The first worker then parses the first frame's files
    before the others, and no child is forked for them: a fork makes the
    reader pay for copying the pages it writes while importing Textual, and
    the child is one more process on two cores (and in the peak memory).
    """
    with _collector_off():
        problems: list[Problem] = []
        files = walk(paths, problems)
        now = list(islice(files, SYNC_FILES))
        known = cache.load(first=[str(path) for path in now])
        cache.put_first(now)
        hits, misses = _from_cache(now, cache)
        parse, later = _within(misses, SYNC_BYTES)
    first = FirstPart(cache, hits, parse, later, problems, files)
    if fork and not known and not (cache.path is not None and journals(cache.path)):
        with _collector_off():  # enough files for the workers? (the walk goes on after the first frame)
            first.later += islice(files, max(0, PROCESS_THRESHOLD - len(first.later)))
        if len(first.later) >= PROCESS_THRESHOLD:
            first.pool = start_walking_pool(paths, parse, cache.path, cache.version_key)
    if fork and parse and first.pool is None and hasattr(os, "fork"):
        first.child = _fork_parser(parse, cache.journal())
    elif fork and known and cache.path is not None:  # every first file cached: the saved table may hold
        from tui.load.table_check import start_check

        first.table_check = start_check(cache.path, cache.version_key, paths)
    return first


def _fork_parser(paths: list[Path], journal: Journal | None = None) -> tuple[int, int] | None:
    """A child process that parses `paths` (into `journal`, if any) and writes
    the marshalled answer to a pipe; None if it cannot be started."""
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
    if pid == 0:  # the child: parse, write, and leave without running anything of the parent's
        code = 1
        try:
            os.close(read_end)
            data = marshal.dumps(parse_files([str(path) for path in paths], journal))
            with os.fdopen(write_end, "wb") as out:
                out.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


def _from_child(child: tuple[int, int], timeout: float = CHILD_TIMEOUT_S) -> list | tuple | None:
    """The child's answer, or None if it failed or hangs (the caller then parses)."""
    pid, read_end = child
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            ready, _, _ = select.select([read_end], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                chunks = []
                break
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError:
        chunks = []
    finally:
        os.close(read_end)
    data = b"".join(chunks)
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        status = -1
    if status != 0 or not data:
        return None
    try:
        entries = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None
    return entries if isinstance(entries, (list, tuple)) else None


def finish_first_part(
    first: FirstPart,
) -> tuple[dict[Path, FileUpdate | None], list[Path], list[Problem]]:
    """The first frame's files (`FirstPart.shown`), every other file (for
    `from_cache`, then parsing; the walk and the cache's index finished
    now), and every problem the walk found."""
    hits, _ = first.shown()
    rest, _ = first.rest()
    return hits, rest, first.problems


def first_part(
    paths: list[Path], cache: ParseCache
) -> tuple[dict[Path, FileUpdate | None], list[Path], list[Problem]]:
    """What the first frame shows: the first `SYNC_FILES` files, from the cache
    or parsed here; then every other file (for `from_cache`, then parsing), and
    the paths that do not exist.

    A warm start of 10,000 reviews would otherwise stat and decode all of them
    before anything is drawn; the rest follows a frame later.
    """
    return finish_first_part(plan_first_part(paths, cache))


def first_library(hits: dict[Path, FileUpdate | None], missing: list[Problem]) -> Library:
    """The library of the first frame: `first_part`'s files (but those gone
    since the scan), with their problems and those of the paths that do not
    exist (the problems view lists them all)."""
    problems: dict[Path, list[Problem]] = {}
    for problem in missing:
        problems.setdefault(problem.location.path, []).append(problem)
    files: dict[Path, list[Review]] = {}
    for path, update in hits.items():
        if update is None:
            continue
        files[path] = update.reviews
        if update.problems:
            problems[path] = update.problems
    return Library.build(files, problems)


def _within(paths: list[Path], budget: int) -> tuple[list[Path], list[Path]]:
    """The first paths whose sizes add up to `budget` bytes (at least one), and the others."""
    total = 0
    for n, path in enumerate(paths):
        with contextlib.suppress(OSError):
            total += path.stat().st_size
        if n and total > budget:
            return paths[:n], paths[n:]
    return paths, []


def from_cache(paths: list[Path], cache: ParseCache) -> tuple[dict[Path, FileUpdate], list[Path]]:
    """The cache's answers for `paths` (still the same size and mtime), and the
    paths it cannot answer, to be parsed."""
    with _collector_off():
        return _from_cache(paths, cache)


@contextlib.contextmanager
def _collector_off() -> Iterator[None]:
    """Building many long-lived objects: collections meanwhile only cost time."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


collector_off = _collector_off


def _from_cache(paths: list[Path], cache: ParseCache) -> tuple[dict[Path, FileUpdate], list[Path]]:
    hits: dict[Path, FileUpdate] = {}
    misses: list[Path] = []
    has = cache.has
    for path in paths:
        # A file the cache has never seen is a miss without a `stat` (10,000
        # of them on a first start, before the workers get their first task).
        update = cache.get(path, stamp(path)) if has(path) else None
        if update is None:
            misses.append(path)
        else:
            hits[path] = update
    return hits, misses


def parse_now(paths: list[Path], cache: ParseCache) -> dict[Path, FileUpdate | None]:
    if not paths:
        return {}  # and the parser is not even imported
    journal = cache.journal()
    try:
        return cache.store(parse_files([str(path) for path in paths], journal))
    finally:
        if journal is not None:
            journal.close()


async def parse_in_background(
    misses: list[Path],
    cache: ParseCache,
    deliver: Callable[[dict[Path, FileUpdate | None]], None],
    progress: Callable[[int, int], None] | None = None,
    workers: int = 2,
    pool: Pool | None = None,
) -> None:
    """Parse `misses`, store them in the cache and `deliver` them in batches
    (a file gone since the scan as None, see `ParseCache.store`).

    Many files go to `workers` child processes (`tui.load.workers`), so both
    cores parse; a few are parsed in a thread, which starts quicker. What is
    parsed goes to the cache's journals as it is parsed (see `tui.load.journal`).
    `pool`: workers started with the command line (`plan_first_part`), parsing some of
    `misses`; their answers are taken first, then the rest is parsed as above.
    """
    import asyncio  # here: the command line imports this module to start the parse workers

    batch: dict[Path, FileUpdate | None] = {}
    done = 0
    total = len(misses)
    last = time.monotonic()
    wait = FLUSH_S
    shown = 0.0  # when progress was last shown
    journal = cache.journal()  # for what is parsed here, in threads

    def receive(answer: list | tuple, paths: list[Path] | None = None) -> None:
        nonlocal batch, done, last, wait, shown
        decoded = cache.store(answer, paths)
        batch.update(decoded)
        done += len(decoded)
        now = time.monotonic()
        hand_over = now - last >= wait and len(batch) >= FLUSH_GROWTH * (done - len(batch))
        if progress is not None and (hand_over or now - shown >= PROGRESS_S):
            # A redraw of the status bar: twice a second, and in a hand-over's frame; not
            # at the end, whose frame the caller draws (the load then shown as done).
            progress(done, total)
            shown = now
        if hand_over:
            began = time.monotonic()
            deliver(batch)
            last = time.monotonic()
            batch, wait = {}, max(FLUSH_S, FLUSH_SHARE * (last - began))

    if pool is not None:
        try:
            if pool.roots is not None:  # the workers walk: they may answer for any of `misses`
                pool.known = {str(path): path for path in misses}
                misses = await collect(pool, receive)  # the files no worker answered for
            else:
                pooled = set(map(str, pool.paths))
                others = [path for path in misses if str(path) not in pooled]
                misses = others + await collect(pool, receive)  # and the files no worker answered for
        finally:
            pool.stop()
    if misses and (len(misses) < PROCESS_THRESHOLD or workers < 2):
        names = [str(path) for path in misses]
        for start in range(0, len(names), CHUNK):
            receive(await asyncio.to_thread(parse_files, names[start : start + CHUNK], journal))
    elif misses:
        from tui.load.task_workers import run_worker, start_worker

        command = WORKER if cache.path is None else (*WORKER, str(cache.path), cache.version_key)
        processes = [await start_worker(command) for _ in range(workers)]
        # Made while the workers start (~0.1 s: Python and the parser's imports).
        chunks = _chunks([str(path) for path in misses], workers)
        await asyncio.gather(*(run_worker(process, chunks, receive, journal) for process in processes))
    if journal is not None:
        journal.close()
    if batch:
        deliver(batch)


def _chunks(names: list[str], workers: int) -> deque[list[str]]:
    """Tasks for the workers: the largest files first, so that no big one is
    left for the end, in chunks of about `CHUNK_BYTES` (at most `CHUNK`
    files), smaller towards the end, so that the workers finish together."""
    sized = sorted(((_size(name), name) for name in names), reverse=True)
    left = sum(size for size, _ in sized)
    chunks: deque[list[str]] = deque()
    chunk: list[str] = []
    chunk_bytes = 0
    for size, name in sized:
        chunk.append(name)
        chunk_bytes += size
        if len(chunk) == CHUNK or chunk_bytes >= max(
            MIN_CHUNK_BYTES, min(CHUNK_BYTES, left // (4 * workers))
        ):
            chunks.append(chunk)
            left -= chunk_bytes
            chunk, chunk_bytes = [], 0
    if chunk:
        chunks.append(chunk)
    return chunks


def _size(name: str) -> int:
    try:
        return os.stat(name).st_size
    except (OSError, ValueError):
        return 0
