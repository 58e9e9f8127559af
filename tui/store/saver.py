"""Saving the reader's marks without ever making the event loop wait.

A save waits for the lock another instance may hold (a stopped one holds it
for ever) and for the disk. `StateSaver` does that part (`ReadState.write`) in
one thread of its own; the caller takes a snapshot of the marks
(`request_save`) and later takes in what the save learned (`collect`), both on
its own thread, where the marks change. Requests made while a save runs are
folded into one more save.

A save of a big state (one whose last write took more than `SLOW_WRITE_S` of
the saving thread's CPU, i.e. tens of MB to encode and write) waits for a
quiet moment: `QUIET_S` with no new mark, and never more than `MAX_DELAY_S`
after the first mark it holds. A key pressed meanwhile is not answered while
the thread rewrites the file, holding the GIL in turns with the event loop;
a burst of marks is one write. `close` (at quit, and on SIGTERM and SIGHUP,
which end the reader as `q` does) saves at once. A small state saves at once.

Nothing here knows Textual: the App gives a `wake` callable, called from the
saving thread when a save has finished, that schedules `collect` on its loop.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable

from tui.store.state import Outcome, ReadState, Snapshot

LOCK_WAIT_S = 2.0
"""How long a save waits for another instance's lock before it gives up (and warns)."""
SLOW_WRITE_S = 0.02
"""A write that took more of the saving thread's CPU than this makes the next saves wait
for a quiet moment."""
BIG_STATE = 20_000
"""Reviews marked in a state whose first save waits as a big one does (its first write
encodes every review's marks)."""
QUIET_S = 0.6
"""How long with no new mark a big state's save waits for."""
MAX_DELAY_S = 2.5
"""The longest a mark of a big state waits for its save to start."""


class StateSaver:
    def __init__(self, state: ReadState, *, lock_wait: float = LOCK_WAIT_S) -> None:
        self.state = state
        self.lock_wait = lock_wait
        self.wake: Callable[[], object] | None = None
        self._lock = threading.Lock()
        self._work = threading.Condition(self._lock)
        self._pending: Snapshot | None = None
        self._done: list[Outcome] = []
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None
        # The last write was a big one: wait for a quiet moment (before the first, a guess).
        self._slow: bool | None = None
        self._first = self._last = 0.0  # when the pending save was first and last asked for
        self.report: str | None = None
        """Set by `close`: what could not be saved, to say once the reader has quit."""

    @property
    def idle(self) -> bool:
        """No save waiting or running (finished ones may wait for `collect`)."""
        with self._lock:
            return self._pending is None and not self._busy

    def request_save(self) -> None:
        """Save the marks as they are now, soon, off this thread. Returns at once."""
        if self.state.path is None:
            return
        snapshot = self.state.snapshot()
        if self._slow is None:  # not known before the marks are read
            self._slow = len(snapshot.reviews) >= BIG_STATE
        with self._work:
            if self._closed:
                return
            now = time.monotonic()
            if self._pending is None:
                self._first = now
            self._last = now
            self._pending = snapshot  # a newer snapshot holds every mark an older one did
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="save marks", daemon=True)
                self._thread.start()
            self._work.notify()

    def collect(self) -> bool:
        """Take in the saves that have finished (on the thread that changes the
        marks). True if marks from another instance changed what is shown."""
        with self._lock:
            done, self._done = self._done, []
        changed = False
        for outcome in done:
            changed |= self.state.absorb(outcome)
        return changed

    def close(self, wait: float | None = None) -> str | None:
        """At quit: let a running save finish, then save what is left (with the
        lock waited for at most `wait`, default `lock_wait`); what could not be
        saved, or None. Blocks, boundedly: call it when nothing is left to draw."""
        wait = self.lock_wait if wait is None else wait
        with self._work:
            self._closed = True
            self._pending = None
            self._work.notify()
            thread = self._thread
        if thread is not None:
            thread.join(wait + 5.0)  # a save already under way waits at most its own bound
        running = thread is not None and thread.is_alive()
        self.collect()
        if self.state.unsaved and not running:
            self.state.absorb(self.state.write(self.state.snapshot(), wait))
        self.report = self.state.unsaved_report()
        if not running and self.report is None:
            self.state.keep_copy()  # the next start reads it in place of the file
        if running and self.report is None and self.state.unsaved:
            self.report = f"marks could not be saved to {self.state.path}: a save did not finish"
        return self.report

    def _wait(self) -> float:
        """How long the pending save is still to wait for a quiet moment."""
        now = time.monotonic()
        return min(self._last + QUIET_S, self._first + MAX_DELAY_S) - now

    def _run(self) -> None:
        while True:
            with self._work:
                while self._pending is None and not self._closed:
                    self._work.wait()
                if self._pending is None:  # closed
                    return
                if self._slow and (wait := self._wait()) > 0:
                    self._work.wait(wait)  # a newer mark, or `close`, wakes it
                    continue
                snapshot, self._pending = self._pending, None
                self._busy = True
            started = time.thread_time()
            outcome = self.state.write(snapshot, self.lock_wait)
            slow = time.thread_time() - started > SLOW_WRITE_S
            with self._work:
                self._done.append(outcome)
                self._busy = False
                self._slow = slow
            if self.wake is not None:
                with contextlib.suppress(RuntimeError):  # the loop has closed: `close` collects
                    self.wake()
