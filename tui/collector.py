"""When Python's garbage collector runs.

Off while start-up builds the library: it builds many long-lived objects and
little garbage, so collections then only cost time (~25 ms of the first
paint). Once loading ends, what was loaded is frozen, out of every later
collection's walk, and the collector comes back on.

Its full collections are then run in a pause, not in the middle of a key.
Drawing a frame leaves cyclic garbage behind (Textual's strips cache crops of
themselves): ~800 objects an enter or escape. Left to CPython, a full
collection starts inside whichever allocation tips the count, one key in
fourteen or so, and adds 5-15 ms to that key before its frame is drawn. Here
the App asks `full_due()` each time it goes idle and, once the screen is
drawn and no key or mouse event has come for `QUIET_S`, runs `collect_full()`:
as often as CPython would have (every tenth generation-1 collection), but
never between the keys of a burst (j held down), where it would delay the
next one.

A burst cannot hold a collection off for long, though: garbage piles up while
it waits, and collecting a long burst's pile (~160,000 objects after ten
seconds of enter and escape at 10,000 reviews) took 225 ms in one go. Once
`OVERDUE` generation-1 collections have run since the last full one, the App
collects right after its next frame, pause or not: ~15-30 ms every two
seconds or so of a held key, between two keys. CPython's own full
collections, at `FULL_SAFETY_NET`, are left for an App that never goes idle.
"""

from __future__ import annotations

import gc
import time

FULL_EVERY = 10
"""Generation-1 collections between two full ones: CPython's default."""

OVERDUE = 2 * FULL_EVERY
"""Generation-1 collections after which a due full one runs even mid-burst."""

FULL_SAFETY_NET = 3 * FULL_EVERY
"""CPython's own full collection, if none ran after a frame meanwhile."""

QUIET_S = 0.25
"""A due full collection waits until input has been quiet this long."""

_scheduled = False
"""A due full collection waits for a pause."""
_forced = False
"""An overdue one is to run right after the next frame."""
_last_input = 0.0


def note_input() -> None:
    """A key or mouse event came (the App tells, for every one)."""
    global _last_input
    _last_input = time.monotonic()


def quiet_left() -> float:
    """Seconds until input will have been quiet for `QUIET_S` (0: it has)."""
    return max(0.0, _last_input + QUIET_S - time.monotonic())


def off_for_start_up() -> None:
    gc.disable()


def on_after_loading() -> None:
    """Loaded reviews live until quit: keep the collector from walking them again and again."""
    global _scheduled, _forced
    _scheduled = _forced = False  # one an earlier app in this process scheduled and never ran
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


def overdue() -> bool:
    """A full collection is overdue and none is forced yet (the caller runs it
    after its frame): waiting longer for a pause would make it a stall."""
    global _forced
    if _forced or not gc.isenabled() or gc.get_count()[2] < OVERDUE:
        return False
    _forced = True
    return True


def waiting() -> bool:
    """A due collection still waits for a pause (none ran since it fell due)."""
    return _scheduled


def collect_full() -> None:
    global _scheduled, _forced
    _scheduled = _forced = False
    gc.collect()
