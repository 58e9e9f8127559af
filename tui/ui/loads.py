"""Reading the entry files for the reader: the first part (what the first frame
shows), the rest in the background, then the watcher and the reloads it
brings, and saving the parse cache. The reading itself is `tui.load`'s; here it
is run in the App's workers and what is read is handed to the reader's screen.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from tui import runtime
from tui.core.model import Library
from tui.i18n import words
from tui.load.cache import ParseCache
from tui.load.discover import split_roots
from tui.load.first_frame import (
    FirstPart,
    collector_off,
    first_library,
    from_cache,
    parse_in_background,
    plan_first_part,
)
from tui.ui import async_work

if TYPE_CHECKING:
    from textual.app import App
    from textual.timer import Timer

    from tui.core.table_library import TableLibrary
    from tui.ui.reader import ReaderScreen

CACHE_SAVE_QUIET_S = 5.0
"""After a reload, the parse cache is written once files have not changed for
this long: a save writes the whole cache, and files edited one after another
(an editor's saves, a checkout) would write it again and again. Quitting
before then costs the next start a parse of those files."""
INDEX_SLICE_S = 0.004
"""Making a saved table's `Review` index after the loaded frame: the longest
stretch before the loop is let go (a key pressed meanwhile waits this at most)."""
INDEX_PAUSE_S = 0.001
"""...and how long it is let go: a key's messages pass, and the frame after them."""


class Loads:
    """The App's file reading, from the first part to the last reload."""

    def __init__(
        self,
        app: App[None],
        reader: ReaderScreen,
        paths: list[Path],
        cache: ParseCache,
        first: FirstPart | None,
        *,
        watch: bool,
    ) -> None:
        """`first`: the first frame's files, planned (and maybe being parsed) by
        the command line before Textual was imported (`plan_first_part`)."""
        self.app = app
        self.reader = reader
        self.paths = paths
        self.cache = cache
        self.watching = watch
        self.folders, self.files = split_roots(paths)
        self.reloads = 0  # applied reloads, for tests and benchmarks
        self.cache_save_quiet_s = CACHE_SAVE_QUIET_S
        self._first = first  # until `load_rest` takes what the first frame did not show
        self._stop_watch = asyncio.Event()
        self._pending: set[Path] = set()
        self._applying = False
        self._cache_save: Timer | None = None  # the save after reloads, waiting for quiet
        self._table_due = False  # the next save writes the library's table too

    def first_library(self) -> Library:
        """The files the first frame shows, read now (or finished, if the command
        line started them); the others are left for `load_rest`."""
        if self._first is None:
            self._first = plan_first_part(self.paths, self.cache)
        return first_library(*self._first.shown())

    def load_rest(self) -> None:
        """The files the first frame did not show: those the cache has at once,
        the others parsed in the background; then start watching for changes.

        The plan stays here until the worker takes it: a quit already queued
        cancels the worker before it starts (`tui.ui.async_work`), and `stop`
        then ends the parse workers of a load that never started."""
        async_work.start(self.app, self._load_rest, "load", exclusive=True)

    async def _load_rest(self) -> None:
        first, self._first = self._first, None
        reader = self.reader
        pool = first.pool if first is not None else None  # parsing since the command line
        table = self._saved_table(first) if first is not None and pool is None else None
        try:
            if table is not None:  # every file as it was saved: no `Review` made for the loaded frame
                reader.from_table(table)
                return
            self._table_due = self.cache.path is not None  # a warm load's table, for the next start
            # The folders' other files, with the rest of the cache's index.
            rest, problems = first.rest() if first is not None else ([], [])
            cached, misses = from_cache(rest, self.cache)
            if cached or problems:
                reader.deliver(cached, problems)
            if misses:
                reader.load_progress = (0, len(misses))
                reader.refresh_status()

                def progress(done: int, total: int) -> None:
                    reader.load_progress = (done, total)
                    reader.refresh_status()

                await parse_in_background(misses, self.cache, reader.deliver, progress, pool=pool)
                reader.load_progress = None
                reader.refresh_status()
        finally:
            if pool is not None:
                pool.stop()  # nothing left for it (or cancelled): its workers end now
            if table is None:
                runtime.loaded()  # `tui.cli.run` starts with the collector off
        self._after_load()

    def _after_load(self) -> None:
        reader = self.reader
        # After the frame that shows the load: the save's thread (~0.7 s of CPU at
        # 10,000 files) would share the GIL with that frame's rendering.
        self.app.call_after_refresh(self.save_cache)
        reader.loaded()  # views naming unknown tags, and news for `notify:`
        # The search box, ready for a `/` (SearchBar.prepare); after the frame
        # that shows what was just loaded, as the watcher, whose first start
        # imports watchfiles and anyio, which would delay it.
        self.app.call_after_refresh(self._prepare_search_box)
        self.app.call_after_refresh(reader.prepare_search)  # every text, in idle slices
        self.app.call_after_refresh(reader.rank_library)  # the reading order, for the filters
        if self.watching:
            self.app.call_after_refresh(self.watch_entries)

    def _prepare_search_box(self) -> None:
        reader = self.reader
        reader.search_bar.prepare()
        # Its Input's rules, added to the stylesheet as it mounts, would have the
        # filter line's component classes styled again by the first filter key.
        reader.filter_bar.style_components_ahead()

    def _saved_table(self, first: FirstPart) -> TableLibrary | None:
        """The library as the parse cache's saved table has it, if every file
        is still as it was then (`SavedTable.still_valid`); else None."""
        from tui.core.table_library import TableLibrary, readable
        from tui.load.table_file import read_saved

        cache = self.cache
        check, first.table_check = first.table_check, None
        if cache.path is None or first.parse:
            if check is not None:
                check.close()
            return None  # a file of the first frame's was not in the cache: something changed
        if check is not None:  # checked in a child while Textual was imported (the command line's)
            saved = check.saved()
        else:
            saved = read_saved(cache.path, cache.version_key)
            if saved is not None and not saved.still_valid(self.paths):
                saved = None
        table = saved.table() if saved is not None else None
        if saved is None or table is None or not readable(table):
            return None
        stamps = saved.stamps
        cache.hold({name: (stamps[2 * f], stamps[2 * f + 1]) for f, name in enumerate(table.columns.files)})
        library = TableLibrary(table)
        self.app.call_after_refresh(self._index_table, library)  # after the loaded frame
        return library

    def _index_table(self, library: TableLibrary) -> None:
        async_work.start(self.app, partial(self._make_index, library), "index", exclusive=True)

    async def _make_index(self, library: TableLibrary) -> None:
        """The table's `Review` index, a slice at a time (a key pressed meanwhile
        waits one slice at most), then what a load does once it is in."""
        steps = library.steps()
        while library.pending is not None and self.reader.library is library:
            started = time.perf_counter()
            with collector_off():
                for _ in steps:
                    if time.perf_counter() - started > INDEX_SLICE_S:
                        break
            await runtime.input_first(INDEX_PAUSE_S)
        runtime.loaded()
        if self.reader.library is library:
            self.reader.indexed()
        self._after_load()

    def save_cache(self) -> None:
        """The parse cache, in a thread; after a warm load (not the saved
        table's), the library's table too, for the next start."""
        library, due, self._table_due = self.reader.library, self._table_due, False
        due = due and not library.stale and not library.duplicates  # what a start reads from a table
        snapshot = (dict(library.files), dict(library.problems)) if due else None
        roots = list(self.paths)

        def save() -> None:
            placed = self.cache.save()  # if it wrote the main file, the table points where it put the bodies
            if snapshot is not None:
                from tui.load.table_file import save_library_table

                save_library_table(*snapshot, self.cache, roots, placed)

        self.app.run_worker(save, thread=True, group="cache", exclusive=True, exit_on_error=False)

    def stop(self) -> None:
        self._stop_watch.set()
        first, self._first = self._first, None
        if first is not None and first.pool is not None:
            first.pool.stop()  # the load never started: its parse workers end with the reader
        if first is not None and first.table_check is not None:
            first.table_check.close()

    # -- hot reload --------------------------------------------------------------

    def watch_entries(self) -> None:
        async_work.start(self.app, self._watch_entries, "watch", exclusive=True)

    async def _watch_entries(self) -> None:
        from tui.load.reload import missed_changes
        from tui.load.watch import watch, watch_roots

        def notice(text: str) -> None:
            self.app.notify(text, title=words().watching, severity="warning", timeout=8, markup=False)

        def catch_up() -> Awaitable[
            set[Path]
        ]:  # what changed while nothing watched: since the scan, or a restart
            return missed_changes(self.paths, self.reader.library.files, self.cache)

        roots = watch_roots(self.folders, self.files)
        async for changed in watch(roots, self._stop_watch, notice, catch_up=catch_up):
            self._pending |= changed
            if not self._applying:
                async_work.start(self.app, self._apply_pending, "reload")

    async def _apply_pending(self) -> None:
        """Apply changes until none are pending; changes that arrive meanwhile
        are folded into the next round, so a burst becomes one or two refreshes."""
        from tui.load.reload import read_changes  # the parser: not needed until a file changes

        self._applying = True
        try:
            while self._pending:
                changed, self._pending = self._pending, set()
                library = self.reader.library
                updates = await read_changes(changed, self.folders, self.files, library.files, self.cache)
                if updates:
                    self.reader.apply_updates(updates)
                    self.reloads += 1
            self._save_cache_when_quiet()
        finally:
            self._applying = False

    def _save_cache_when_quiet(self) -> None:
        if self._cache_save is not None:
            self._cache_save.stop()
        self._cache_save = self.app.set_timer(
            self.cache_save_quiet_s, self.save_cache, name="save parse cache"
        )
