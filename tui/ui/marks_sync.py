"""Marks that arrive from other machines, shown while the reader is open.

When the marks are kept in a shared state folder (`tui.store.shared`), the
folder is watched (the entry files' watcher, `tui.load.watch`); when a
machine's file changes, what changed is read off the loop (`SharedState.poll`),
merged on it (`SharedState.take`) and the reader's screen redraws its counts,
rows and open review in place, with a quiet notice naming the machines.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from tui.i18n import words
from tui.ui import async_work

if TYPE_CHECKING:
    from tui.store.shared import SharedState
    from tui.ui.reader import ReaderScreen

NOTICE_S = 3


class MarksSync:
    """The reader's watch on its shared state folder (nothing, for a single state file)."""

    def __init__(self, reader: ReaderScreen) -> None:
        self.reader = reader
        self.arrivals = 0  # polls that changed what is shown, for tests
        self.state: SharedState | None = None  # set by `start` when the marks are in a shared folder
        self._stop = asyncio.Event()
        self._busy = False
        self._again = False

    def start(self) -> None:
        from tui.store.shared import SharedState  # not before the first frame: a single file needs none of it

        state = self.reader.state
        if isinstance(state, SharedState) and state.saving:
            self.state = state
            async_work.start(self.reader, self._watch, "marks-sync", exclusive=True)

    def stop(self) -> None:
        self._stop.set()

    async def _watch(self) -> None:
        from tui.load.watch import watch
        from tui.store.shared import is_marks_file

        state = self.state
        assert state is not None and state.path is not None
        folder = state.path
        folder.mkdir(parents=True, exist_ok=True)  # a folder named before any machine wrote to it

        def notice(text: str) -> None:
            self.reader.notify(text, title=words().state, severity="warning", timeout=8, markup=False)

        async def catch_up() -> set:  # what landed between `load` and the watch
            await self.pull()
            return set()

        async for changed in watch([folder], self._stop, notice, catch_up=catch_up):
            if any(is_marks_file(path.name) or path == folder for path in changed):
                await self.pull()

    async def pull(self) -> None:
        """Read what changed in the folder and show it; changes during a read are read next."""
        state = self.state
        if state is None:
            return
        if self._busy:
            self._again = True
            return
        self._busy = True
        try:
            while True:
                self._again = False
                arrivals = await asyncio.to_thread(state.poll)
                machines = state.take(arrivals)
                self.reader.marks_arrived(machines)
                if machines:
                    self.arrivals += 1
                if not self._again:
                    break
        finally:
            self._busy = False
