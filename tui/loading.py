"""Start-up loading: cached files at once, the rest parsed in the background.

The reader paints as soon as the cached part is in; files that are new or
changed since the last run are parsed off the event loop (in two worker
processes when there are many, so both cores work), and handed over in batches.
No Textual here: the app passes callbacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

from .cache import ParseCache, decode_entry, parse_files, stamp
from .loader import discover
from .model import FileUpdate, Problem

PROCESS_THRESHOLD = 48
"""Below this many files to parse, a thread is quicker than starting processes."""
CHUNK = 24
"""Files per task sent to a worker."""
SYNC_FILES = 24
"""Files parsed before the first paint, so a small digest opens complete and a
big one opens with reviews on screen while the rest loads."""
FLUSH_S = 0.15
"""Hand parsed files to the app at most this often, so it re-indexes a few times, not per file."""


def first_load(
    paths: list[Path], cache: ParseCache
) -> tuple[dict[Path, FileUpdate], list[Path], list[Problem]]:
    """What can be shown at once: files the cache answers plus the first
    `SYNC_FILES` others, parsed here; then the files left to parse, and the
    paths that do not exist."""
    files, missing = discover(paths)
    cache.load()
    hits: dict[Path, FileUpdate] = {}
    misses: list[Path] = []
    for path in files:
        update = cache.get(path, stamp(path))
        if update is None:
            misses.append(path)
        else:
            hits[path] = update
    now, later = misses[:SYNC_FILES], misses[SYNC_FILES:]
    for name, before, reviews, problems in parse_files([str(path) for path in now]):
        path = Path(name)
        cache.put_raw(path, before, reviews, problems)
        hits[path] = decode_entry(path, reviews, problems)
    return hits, later, missing


async def parse_in_background(
    misses: list[Path],
    cache: ParseCache,
    deliver: Callable[[dict[Path, FileUpdate]], None],
    progress: Callable[[int, int], None] | None = None,
    workers: int = 2,
) -> None:
    """Parse `misses`, store them in the cache and `deliver` them in batches."""
    loop = asyncio.get_running_loop()
    chunks = [misses[i : i + CHUNK] for i in range(0, len(misses), CHUNK)]
    executor: Executor | None = None
    if len(misses) >= PROCESS_THRESHOLD and workers > 1:
        executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("forkserver"))
    try:
        pending = [
            loop.run_in_executor(executor, parse_files, [str(path) for path in chunk]) for chunk in chunks
        ]
        batch: dict[Path, FileUpdate] = {}
        last = time.monotonic()
        for done, future in enumerate(asyncio.as_completed(pending), 1):
            for name, before, reviews, problems in await future:
                path = Path(name)
                cache.put_raw(path, before, reviews, problems)
                batch[path] = decode_entry(path, reviews, problems)
            if progress is not None:
                progress(min(len(misses), done * CHUNK), len(misses))
            if time.monotonic() - last >= FLUSH_S:
                deliver(batch)
                batch, last = {}, time.monotonic()
        if batch:
            deliver(batch)
    finally:
        if executor is not None:
            with contextlib.suppress(Exception):
                executor.shutdown(wait=False, cancel_futures=True)
