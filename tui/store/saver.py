"""Saving the reader's marks without ever making the event loop wait.

A save waits for the lock another instance may hold (a stopped one holds it
for ever) and for the disk. `StateSaver` does that part (`ReadState.write`) in
one thread of its own; the caller takes a snapshot of the marks
(`request_save`) and later takes in what the save learned (`collect`), both on
its own thread, where the marks change. Requests made while a save runs are
folded into one more save.

Nothing here knows Textual: the App gives a `wake` callable, called from the
saving thread when a save has finished, that schedules `collect` on its loop.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

from tui.store.state import Outcome, ReadState, Snapshot

LOCK_WAIT_S = 2.0
"""How long a save waits for another instance's lock before it gives up (and warns)."""


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
        with self._work:
            if self._closed:
                return
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
        if running and self.report is None and self.state.unsaved:
            self.report = f"marks could not be saved to {self.state.path}: a save did not finish"
        return self.report

    def _run(self) -> None:
        while True:
            with self._work:
                while self._pending is None and not self._closed:
                    self._work.wait()
                if self._pending is None:  # closed
                    return
                snapshot, self._pending = self._pending, None
                self._busy = True
            outcome = self.state.write(snapshot, self.lock_wait)
            with self._work:
                self._done.append(outcome)
                self._busy = False
            if self.wake is not None:
                with contextlib.suppress(RuntimeError):  # the loop has closed: `close` collects
                    self.wake()
