"""Reading the entry files the watcher saw change, for hot reload.

No Textual here: the app's reload worker awaits `read_changes` and applies
what it returns. Files are parsed on a thread, a chunk per trip, so the event
loop keeps drawing; the parser (PyYAML) is imported with this module, on the
first change, not at start-up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from pathlib import Path

from .cache import ParseCache, stamp
from .files import plan_reload
from .loader import load_updates
from .model import FileUpdate

RELOAD_CHUNK = 64
"""Files parsed per trip to a thread when applying a change; quitting waits for one chunk at most."""


async def read_changes(
    changed: Iterable[Path], folders: list[Path], files: list[Path], known: Iterable[Path]
) -> dict[Path, FileUpdate | None]:
    """Fresh loads of the entry files `changed` touches, and None for each file
    it removed (`known` are the files loaded now), ready for `Library.apply`."""
    load, drop = plan_reload(changed, folders, files, known)
    updates: dict[Path, FileUpdate | None] = load_updates([], drop)
    for start in range(0, len(load), RELOAD_CHUNK):
        chunk = load[start : start + RELOAD_CHUNK]
        updates.update(await asyncio.to_thread(load_updates, chunk))
    return updates


def remember(cache: ParseCache, updates: Mapping[Path, FileUpdate | None]) -> None:
    """Keep what was just parsed in the parse cache, and forget removed files,
    so the next start-up does not parse them again."""
    cache.forget(path for path, update in updates.items() if update is None)
    for path, update in updates.items():
        if update is not None:
            cache.put(path, stamp(path), update)
