"""Reading the entry files the watcher saw change, for hot reload.

No Textual here: the app's reload worker awaits `read_changes` and applies
what it returns. Files are parsed on a thread, a chunk per trip, so the event
loop keeps drawing; the parser (PyYAML) is imported with the first change,
not at start-up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path

from tui.core.model import FileUpdate
from tui.load.cache import ParseCache
from tui.load.cache_format import Stamp, stamp
from tui.load.discover import discover, plan_reload
from tui.load.journal import parse_files

RELOAD_CHUNK = 64
"""Files parsed per trip to a thread when applying a change; quitting waits for one chunk at most."""


async def read_changes(
    changed: Iterable[Path], folders: list[Path], files: list[Path], known: Iterable[Path], cache: ParseCache
) -> dict[Path, FileUpdate | None]:
    """Fresh loads of the entry files `changed` touches, and None for each file
    it removed (`known` are the files loaded now), ready for `Library.apply`.

    The parse cache keeps what was parsed (so the next start does not parse it
    again) under the file's stamp taken before parsing, as the start-up's
    background load does (`journal.parse_files`): a file written again while it
    was parsed is not cached as the newer version. Removed files are forgotten.
    """
    load, drop = plan_reload(changed, folders, files, known)
    updates: dict[Path, FileUpdate | None] = dict.fromkeys(drop)
    cache.forget(drop)
    for start in range(0, len(load), RELOAD_CHUNK):
        names = [str(path) for path in load[start : start + RELOAD_CHUNK]]
        updates.update(cache.store(await asyncio.to_thread(parse_files, names)))
    return updates


async def missed_changes(paths: list[Path], known: Iterable[Path], cache: ParseCache) -> set[Path]:
    """The paths that are not on disk as they were loaded: files found now
    that were not loaded, files loaded that are gone, and files whose size or
    mtime differ from when they were read (`ParseCache.stamp_of`).

    What the watcher cannot tell: changes made before it started (the folder
    scan is before the first frame, the watcher starts after the background
    load) or while it was restarted. The scan and a stat per file run on a
    thread, off the event loop.
    """
    loaded = {path: cache.stamp_of(path) for path in known}  # here: the loop owns the cache
    return await asyncio.to_thread(_differences, paths, loaded)


def _differences(paths: list[Path], loaded: dict[Path, Stamp | None]) -> set[Path]:
    found, _ = discover(paths)
    changed = set(found).symmetric_difference(loaded)
    for path in found:
        if path in loaded and (loaded[path] is None or stamp(path) != loaded[path]):
            changed.add(path)
    return changed
