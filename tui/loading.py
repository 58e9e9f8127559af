"""Start-up loading: cached files at once, the rest parsed in the background.

The reader paints as soon as the cached part is in; files that are new or
changed since the last run are parsed off the event loop (in two worker
processes when there are many, so both cores work), and handed over in batches.
No Textual here: the app passes callbacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import marshal
import sys
import time
from collections.abc import Callable
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
    collecting = gc.isenabled()
    gc.disable()  # building many long-lived objects: collections here only cost time
    try:
        return _first_load(paths, cache)
    finally:
        if collecting:
            gc.enable()


def _first_load(
    paths: list[Path], cache: ParseCache
) -> tuple[dict[Path, FileUpdate], list[Path], list[Problem]]:
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
    """Parse `misses`, store them in the cache and `deliver` them in batches.

    Many files go to `workers` child processes (`tui.parse_worker`), so both
    cores parse; a few are parsed in a thread, which starts quicker.
    """
    batch: dict[Path, FileUpdate] = {}
    done = 0
    last = time.monotonic()

    def receive(entries: list) -> None:
        nonlocal batch, done, last
        for name, before, reviews, problems in entries:
            path = Path(name)
            cache.put_raw(path, before, reviews, problems)
            batch[path] = decode_entry(path, reviews, problems)
        done += len(entries)
        if progress is not None:
            progress(done, len(misses))
        if time.monotonic() - last >= FLUSH_S:
            deliver(batch)
            batch, last = {}, time.monotonic()

    names = [str(path) for path in misses]
    if len(misses) < PROCESS_THRESHOLD or workers < 2:
        for start in range(0, len(names), CHUNK):
            receive(await asyncio.to_thread(parse_files, names[start : start + CHUNK]))
    else:
        shares = [names[n::workers] for n in range(workers)]
        await asyncio.gather(*(_run_worker(share, receive) for share in shares))
    if batch:
        deliver(batch)


async def _run_worker(names: list[str], receive: Callable[[list], None]) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.parse_worker",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(marshal.dumps(names))
        await process.stdin.drain()
        process.stdin.close()
        received = 0
        while received < len(names):
            try:
                size = int.from_bytes(await process.stdout.readexactly(8), "little")
                entries = marshal.loads(await process.stdout.readexactly(size))
            except asyncio.IncompleteReadError:
                break
            received += len(entries)
            receive(entries)
        if received < len(names):
            # The worker died: parse what it did not, here.
            rest = names[received:]
            for start in range(0, len(rest), CHUNK):
                receive(await asyncio.to_thread(parse_files, rest[start : start + CHUNK]))
    finally:
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            with contextlib.suppress(Exception):
                await process.wait()
