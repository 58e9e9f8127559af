"""Waiting in a test until something the app (or the event loop) does on its
own has happened: a file reloaded, a save landed, a program run."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path


async def wait_until(
    pilot: object | None,
    condition: Callable[[], object],
    what: str,
    seconds: float = 20.0,
    step: float = 0.02,
) -> float:
    """Let the app run (`pilot.pause`; with no pilot, the event loop) until
    `condition()` holds; the seconds that took. Fails naming `what` when it
    does not hold within `seconds`: a bound for a hang, never a timing asserted."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > seconds:
            raise AssertionError(f"timed out after {seconds:g} s waiting for {what}")
        if pilot is None:
            await asyncio.sleep(step)
        else:
            await pilot.pause(step)  # type: ignore[attr-defined]
    return time.monotonic() - start


def busy(screen: object, group: str) -> bool:
    """Does a worker of `group` run on `screen` (a Textual DOM node)?"""
    return any(worker.group == group and not worker.is_finished for worker in screen.workers)  # type: ignore[attr-defined]


async def workers_done(pilot: object, screen: object, group: str) -> None:
    """Let the app run until no worker of `group` runs on `screen`, and then
    draw the frame after them."""
    await wait_until(pilot, lambda: not busy(screen, group), f"the {group!r} workers to end")
    await pilot.pause()  # type: ignore[attr-defined]


async def watched(pilot: object, app: object, folder: Path, probe: str, key: str = "o/r:probe") -> None:
    """Let the reader run until it sees the changes made to `folder` from now
    on: a probe review (`probe`, the text of a file whose review's key is
    `key`) is added and shown, then removed and gone.

    Written once, whole (made as a hidden file, which the reader leaves out,
    and renamed: an in-place write can be seen half done, and read as a
    broken file), and
    never again: a change made before the watcher runs is caught up as it
    starts (`tui.load.watch`), so a second write would only wait for the
    wrong thing. The bounds are for a hang (the watcher's start, a reload,
    on a busy machine), not timings."""
    shown = lambda: key in app.reader.library.by_key  # type: ignore[attr-defined]  # noqa: E731
    written = folder / ".zz-probe.yaml.part"
    written.write_text(probe, encoding="utf-8")
    os.replace(written, folder / "zz-probe.yaml")
    await wait_until(pilot, shown, "the probe review (the watcher running)", WATCHER_S)
    (folder / "zz-probe.yaml").unlink()
    await wait_until(pilot, lambda: not shown(), "the probe's removal", WATCHER_S)


WATCHER_S = 60.0
"""The longest a watcher may take to start and a reload to land (a bound)."""
