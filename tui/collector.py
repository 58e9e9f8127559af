"""When Python's garbage collector runs.

Off while start-up builds the library: it builds many long-lived objects and
little garbage, so collections then only cost time (~25 ms of the first
paint). Once loading ends, what was loaded is frozen, out of every later
collection's walk, and the collector comes back on.

Its full collections are then run after a frame, not in the middle of a key.
Drawing a frame leaves cyclic garbage behind (Textual's strips cache crops of
themselves): ~800 objects an enter or escape. Left to CPython, a full
collection starts inside whichever allocation tips the count, one key in
fourteen or so, and adds 5-15 ms to that key before its frame is drawn. Here
the App asks `full_due()` each time it goes idle and runs `collect_full()`
once the screen is drawn, as often as CPython would have (every tenth
generation-1 collection). CPython's own full collections still happen, ten
times less often, should the App never go idle.
"""

from __future__ import annotations

import gc

FULL_EVERY = 10
"""Generation-1 collections between two full ones: CPython's default."""

FULL_SAFETY_NET = 100
"""CPython's own full collection, if none ran after a frame meanwhile."""

_scheduled = False


def off_for_start_up() -> None:
    gc.disable()


def on_after_loading() -> None:
    """Loaded reviews live until quit: keep the collector from walking them again and again."""
    global _scheduled
    _scheduled = False  # one an earlier app in this process scheduled and never ran
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_SAFETY_NET)
    gc.enable()


def full_due() -> bool:
    """A full collection is due and none is scheduled yet (the caller schedules it)."""
    global _scheduled
    if _scheduled or not gc.isenabled() or gc.get_count()[2] < FULL_EVERY:
        return False
    _scheduled = True
    return True


def collect_full() -> None:
    global _scheduled
    _scheduled = False
    gc.collect()
