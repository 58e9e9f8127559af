"""Waiting in a test until something the app (or the event loop) does on its
own has happened: a file reloaded, a save landed, a program run."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


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
