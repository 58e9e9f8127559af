"""Watch entry folders and files, yielding sets of changed paths.

A thin layer over `watchfiles.awatch` that survives what the bare watcher does
not: a folder that is missing at start or deleted later (awatch raises, or goes
silent), and file systems without inotify (we fall back to polling). What to do
with a change is decided elsewhere (`discover.plan_reload`).

A watch sees only changes made once it runs: what changed before it started
(or between a stop and a restart) is asked of `catch_up` each time a watch is
known to be running, and yielded like any change.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

DEBOUNCE_MS = 400
"""The longest awatch groups a stream of changes into one batch."""
STEP_MS = 50
"""A batch is yielded after this much quiet."""
RECHECK_S = 1.0
"""How often a missing folder is looked for; and the longest a new watch takes
to show it runs (its first answer, changes or not), after which `catch_up` is asked."""


def watch_roots(folders: list[Path], files: list[Path]) -> list[Path]:
    """Folders to watch: the folders given, and the parent of each single file
    (editors replace files on save, which a watch on the file itself would lose)."""
    roots: dict[Path, None] = {}
    for path in [*folders, *(f.parent for f in files)]:
        roots[path] = None
    return list(roots)


async def watch(
    roots: list[Path],
    stop: asyncio.Event,
    notice: Callable[[str], None],
    *,
    force_polling: bool = False,
    catch_up: Callable[[], Awaitable[set[Path]]] | None = None,
) -> AsyncIterator[set[Path]]:
    """Yield changed paths until `stop` is set.

    When a watched folder (re)appears, its path is yielded so the caller loads
    what is in it. `catch_up`: the paths that changed while nothing watched,
    asked once each watch runs (the watcher answers once a `RECHECK_S` at
    least, so its first answer says it is in place) and yielded.
    """
    from watchfiles import awatch

    polling = force_polling
    reported: set[Path] = set()
    while not stop.is_set():
        present = [root for root in roots if root.is_dir()]
        missing = [root for root in roots if root not in present]
        for root in missing:
            if root not in reported:
                notice(f"Not watching {root}: it is missing. Looking for it every {RECHECK_S:g} s.")
                reported.add(root)
        if not present:
            await _wait(stop, RECHECK_S)
            continue
        back = [root for root in reported if root.is_dir()]
        if back:
            reported.difference_update(back)
            notice(f"Watching {', '.join(map(str, back))} again.")
            yield set(back)
        behind = catch_up is not None
        try:
            async for changes in awatch(
                *present,
                debounce=DEBOUNCE_MS,
                step=STEP_MS,
                stop_event=stop,
                force_polling=polling,
                poll_delay_ms=300,
                rust_timeout=int(RECHECK_S * 1000),
                yield_on_timeout=True,
            ):
                if changes:
                    yield {Path(path) for _, path in changes}
                if behind and catch_up is not None:
                    behind = False
                    if missed := await catch_up():
                        yield missed
                gone = [root for root in present if not root.is_dir()]
                came = [root for root in missing if root.is_dir()]
                if gone or came:
                    break  # restart with the roots as they are now
        except FileNotFoundError:
            continue  # a root vanished between the check and the watch
        except (OSError, RuntimeError) as exc:
            if polling:
                notice(f"File watching stopped: {exc}. Retrying in {RECHECK_S:g} s.")
                await _wait(stop, RECHECK_S)
            else:
                notice(f"File watching is not available here ({exc}); polling instead.")
                polling = True


async def _wait(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
