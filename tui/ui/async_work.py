"""Async work the reader starts in a Textual worker, given as a coroutine
function, never as a coroutine.

A worker cancelled before its first step (a quit already queued as it is
started: a `q` typed before the first frame, or a newer search overtaking an
older one) never awaits what it was given. A coroutine made for it would then
never be awaited, and Python says so on the user's terminal as the reader
ends; a coroutine function (or a `functools.partial` of one) makes none
until the worker runs it.

Each worker is given its name and description here: Textual's default
description is `repr(work)`, and a partial's repr spells its arguments (the
search's list of 100,000 reviews: ~0.5 s, in the turn of the key that started
it).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.dom import DOMNode


def start(
    node: DOMNode, work: Callable[[], Coroutine[Any, Any, object]], group: str, *, exclusive: bool = False
) -> None:
    """Run `work()` in an async worker of `node`'s, in `group`; `exclusive`:
    cancel the group's running worker first. An error is the worker's, not
    the reader's (`exit_on_error=False`)."""
    named = getattr(work, "func", work)  # (a partial's function)
    label = getattr(named, "__qualname__", None) or group
    node.run_worker(
        work,  # type: ignore[arg-type]  # Textual types a coroutine function as Coroutine[None, None, T]
        name=label,
        description=label,
        group=group,
        exclusive=exclusive,
        exit_on_error=False,
    )
