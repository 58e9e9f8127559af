"""Process-wide tweaks for the reader: when the garbage collector runs, and how
soon Textual's writer thread gets the GIL. `tui.cli.run` installs them
(`installed()`) around the command and undoes them on the way out; the App
never switches them on itself, so an App made in a test or an embedding
program leaves the process as it found it.

The garbage collector is off while start-up builds the library: it builds many
long-lived objects and little garbage, so collections then only cost time.
Once loading ends (`loaded()`), what was loaded is frozen, out of every later
collection's walk, and the collector comes back on; so are the search's
texts once they are made after it (`settled()`). Its full collections are
then run in a pause, not in the middle of a key: drawing a frame leaves cyclic
garbage behind (Textual's strips cache crops of themselves), and left to
CPython a full collection starts inside whichever allocation tips the count
and delays that key's frame. The reader's screen asks `full_due()` each time it
draws a frame and, once no key or mouse event has come for `QUIET_S`, runs
`collect_full()`: as often as CPython would have (every tenth
generation-1 collection), but never between the keys of a burst (j held down).
A burst cannot hold a collection off for long, though: garbage piles up while
it waits, and one big pile is a long stall. Once `OVERDUE` generation-1
collections have run since the last full one, the screen collects right after
its next frame, pause or not. CPython's own full collections, at
`FULL_SAFETY_NET`, are left for an App whose screen never draws.

Young collections are CPython's, but not inside a key's frame either: from a
key or mouse event on the reader's screen (`note_input(hold=True)`) until that
screen has drawn the event's frame (`frame_drawn()`) the collector is off, and
it comes back on `WRITE_S` later, once the frame is on its way to the terminal.
Most young collections take well under a millisecond, but while the search's
lists of every review's text are young (the first characters typed after `/`
at 100,000 reviews) each one walks them: up to 15 ms that landed between the key
and its frame. The garbage of one key's work is all that waits. Work the reader runs on the
event loop in slices (the search's texts made, a search counted off the key,
the saved table's index) waits for that frame too (`input_first`).

Textual draws a frame on the main thread and hands its text to a writer thread,
which needs the GIL three times a frame. While the main thread runs Python code
CPython hands the GIL over only every switch interval (5 ms by default), so a
frame drawn while the main thread goes on working (loading, right after the
first frame) reaches the terminal late; `SWITCH_S` shortens the wait. The
interval only matters while another thread waits for the GIL: the writer, or
the thread saving the parse cache. (bench/README.md has the measurements.)
"""

from __future__ import annotations

import contextlib
import gc
import sys
import time
from collections.abc import Iterator

FULL_EVERY = 10
"""Generation-1 collections between two full ones: CPython's default."""

OVERDUE = 2 * FULL_EVERY
"""Generation-1 collections after which a due full one runs even mid-burst."""

FULL_SAFETY_NET = 3 * FULL_EVERY
"""CPython's own full collection, if none ran after a frame meanwhile."""

QUIET_S = 0.25
"""A due full collection waits until input has been quiet this long."""

SWITCH_S = 0.001
"""The switch interval while the reader runs."""

WRITE_S = 0.003
"""After a key's frame, how long the collector stays off: Textual's writer
thread needs the GIL to hand the frame to the terminal, and a collection
holds it throughout (a few switch intervals)."""

HOLD_MAX_S = 0.1
"""The longest input holds the collector off when no frame answers it."""

INPUT_TURNS = 4
"""Turns of the event loop `input_first` lets go before it looks for a key
waiting: a key sent by the driver reaches the App's `note_input` a few turns
later (the driver's callback, the task that posts it, the App's queue), and
work that took a slice at each turn held it back by as many (one turn: 2-3
slices of 4 ms before the App saw a key typed while the search's texts were
made at 100,000 reviews)."""

INPUT_POLL_S = 0.001
"""How often work that waits for input's frame (`input_first`) looks again."""

_installed = False
"""`installed()` is in effect: the collector is ours to schedule."""
_scheduled = False
"""A due full collection waits for a pause."""
_forced = False
"""An overdue one is to run right after the next frame."""
_last_input = 0.0
_held = False
"""The collector is off until the frame of the last input is drawn."""
_hold = 0
"""Holds so far: the bound of an earlier one leaves a later one alone."""
_holds = 0
"""Inputs that held it: a frame drawn for an earlier one leaves a later one's hold alone."""


@contextlib.contextmanager
def installed() -> Iterator[None]:
    """The collector off until `loaded()`, and the short switch interval; on
    exit the collector, its thresholds and the interval are as they were."""
    global _installed, _scheduled, _forced, _held
    enabled, threshold, interval = gc.isenabled(), gc.get_threshold(), sys.getswitchinterval()
    was_installed = _installed
    gc.disable()
    sys.setswitchinterval(SWITCH_S)
    _installed = True
    try:
        yield
    finally:
        _installed, _scheduled, _forced, _held = was_installed, False, False, False
        sys.setswitchinterval(interval)
        gc.unfreeze()  # what `loaded()` froze goes back to the oldest generation
        gc.set_threshold(*threshold)
        (gc.enable if enabled else gc.disable)()


def loaded() -> None:
    """Loading ended: loaded reviews live until quit, so keep the collector from
    walking them again and again, and turn it back on. Nothing unless installed."""
    global _scheduled, _forced, _held
    if not _installed:
        return
    _scheduled = _forced = _held = False  # one an earlier app in this process scheduled and never ran
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_SAFETY_NET)
    gc.enable()


def settled() -> None:
    """Long-lived objects were made after the load (the search's texts and
    their lists, ~100,000 at 100,000 reviews, made in the background): keep
    the collector from walking them again. Without this, each full collection
    walks them; one overdue in a burst of typing runs after a key's frame and
    delays the next key. What is frozen that later becomes garbage without a
    cycle is freed as usual (by its reference count). Nothing unless installed."""
    if _collecting():
        gc.freeze()
        release_free_memory()


def collect_young() -> None:
    """Collect the two young generations now (after a frame, not in the next
    key's): a search's whole answer keeps lists of up to 100,000 reviews and
    texts (`tui.core.search_memory.Found`), young until two collections have
    walked them; each walk took 10-80 ms inside a later key's frame. Once
    old, only full collections walk them, and those run in pauses. Nothing
    unless installed."""
    if _collecting():
        gc.collect(1)


def collect_newest() -> None:
    """Collect the youngest generation now, between two slices of background
    work that swaps old objects for new ones: splitting the search's texts
    replaces each review's pair of texts, and CPython counts a young object
    made against an old one freed, so no collection comes while ~100,000 new
    pairs pile up in the youngest generation; the next one, in whichever key
    came, walked them all (24-36 ms). Collected a slice at a time, each pair is
    looked at once, and untracked (it holds only strings). Not while input
    holds the collector off for its frame. Nothing unless installed."""
    if _installed and gc.isenabled():
        gc.collect(0)


def release_free_memory() -> None:
    """Give the system back the pages the C allocator holds free (glibc's
    `malloc_trim`, which also releases free pages inside its heap). The
    search's texts are made whole and split afterwards: the whole ones, freed,
    leave ~60 MB of holes at 100,000 reviews that the process would keep;
    handing them back costs ~30 ms once. Nothing where the C library has no
    such call. `ctypes` is imported here: not on the way to the first frame."""
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return
    trim(0)


def exiting() -> None:
    """The process is about to end (the console script, once the command has
    returned): freeze what is left, so that the interpreter's shutdown does not
    walk it. Its last collection would visit every object the reader held, and
    more than a second went to it between `q` and the shell's prompt at
    100,000 reviews (bench/README.md). Nothing of ours needs a finalizer then:
    state and cache writes are done, and an open cache file is closed by the
    system as any file is."""
    gc.freeze()


def note_input(hold: bool = False) -> None:
    """A key or mouse event came (the App tells, for every one). `hold`: the
    screen it goes to will call `frame_drawn()` once it has drawn the frame
    that answers it; until then the collector is off, for `HOLD_MAX_S` at
    most (input that draws nothing, or a stream of mouse moves that never
    pauses for a frame). Input to another screen (a modal one, which says
    nothing of its frames) ends a hold."""
    global _last_input, _held, _holds, _hold
    _last_input = time.monotonic()
    if not hold:
        _release(_hold, None)
        return
    if not _installed or not (_held or gc.isenabled()):
        return
    _holds += 1
    if not _held:
        gc.disable()
        _held = True
        _hold += 1
        _later(HOLD_MAX_S, _hold, None)


def holding() -> bool:
    """Input holds the collector off until its frame is drawn (`frame_drawn`)."""
    return _held


async def input_first(pause: float = 0.0) -> None:
    """Let the event loop go for `INPUT_TURNS` turns and `pause`, then for as
    long as input waits for its frame (`holding`). Work run on the loop in
    slices calls this between them: a key's way to its frame takes several
    turns of the loop (to the App, then the screen, the widget, each message
    it posts), and a slice run at each turn delayed the frame by as many
    slices (a backspace 40-50 ms while the search's texts were made at
    100,000 reviews). A key then waits for the slice under way, no more."""
    import asyncio

    for _ in range(INPUT_TURNS):
        await asyncio.sleep(0)
    if pause:
        await asyncio.sleep(pause)
    while _held:
        await asyncio.sleep(INPUT_POLL_S)


def frame_drawn() -> None:
    """The screen drew a frame: unless input came since, what input held
    comes back on `WRITE_S` later."""
    if _held:
        _later(WRITE_S, _hold, _holds)


def _later(delay: float, hold: int, holds: int | None) -> None:
    """`_release(hold, holds)` in `delay` on the running event loop (now if
    there is none). asyncio is imported here, not with this module: the
    console script imports this module first thing, and asyncio (~15 ms) is
    not on the way to the first frame's files."""
    import asyncio

    try:
        asyncio.get_running_loop().call_later(delay, _release, hold, holds)
    except RuntimeError:
        _release(hold, holds)


def _release(hold: int, holds: int | None) -> None:
    """Turn the collector back on if hold `hold` still holds it and, given
    `holds`, no input came since."""
    global _held
    if _held and hold == _hold and holds in (None, _holds):
        _held = False
        gc.enable()


def _collecting() -> bool:
    """The collector is ours to schedule and on (or only held for a frame)."""
    return _installed and (_held or gc.isenabled())


def input_quiet_for() -> float:
    """Seconds since the last key or mouse event."""
    return time.monotonic() - _last_input


def quiet_left() -> float:
    """Seconds until input will have been quiet for `QUIET_S` (0: it has)."""
    return max(0.0, _last_input + QUIET_S - time.monotonic())


def _collections_since_full(at_least: int) -> bool:
    """Ours to schedule, and `at_least` generation-1 collections since the last full one."""
    return _collecting() and gc.get_count()[2] >= at_least


def full_due() -> bool:
    """A full collection is due and none is scheduled yet (the caller schedules it)."""
    global _scheduled
    if _scheduled or not _collections_since_full(FULL_EVERY):
        return False
    _scheduled = True
    return True


def overdue() -> bool:
    """A full collection is overdue and none is forced yet (the caller runs it
    after its frame): waiting longer for a pause would make it a stall."""
    global _forced
    if _forced or not _collections_since_full(OVERDUE):
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
