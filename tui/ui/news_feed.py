"""The `notify:` program told of news: reviews new since the reader last ran
(or since the last reload) and reviews updated since they were read, at start
once the first load is done and on each hot reload. What is news is
`tui.core.news`'; running the program, `tui.ui.notifier`'s; the keys known at
the last run are kept by `tui.store.known`, written off the loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tui.core.marks import changes
from tui.core.model import Review, digest
from tui.i18n import words

if TYPE_CHECKING:
    from textual.app import App

    from tui.ui.notifier import Notifier
    from tui.ui.reader import ReaderScreen


class NewsFeed:
    """Does nothing until `configure` is given a program."""

    def __init__(self, app: App[None], reader: ReaderScreen, known_path: Path | None = None) -> None:
        self.app = app
        self.reader = reader
        self.known_path = known_path
        self.notifier: Notifier | None = None
        self.known: frozenset[str] | None = None  # digests of the keys known so far
        self.told = 0  # reviews offered, for tests
        self.quiet_s: float | None = None  # the notifier's batching time, if not its own

    def configure(self, command: tuple[str, ...]) -> None:
        if not command:
            return
        from tui.ui.notifier import Notifier

        self.notifier = (
            Notifier(command, self._warn)
            if self.quiet_s is None
            else Notifier(command, self._warn, quiet_s=self.quiet_s)
        )
        self.reader.news_hook = self.arrived

    def _warn(self, text: str) -> None:
        self.app.notify(text, title=words().notify_title, severity="warning", timeout=10, markup=False)

    def arrived(self, keys: Sequence[str] | None) -> None:
        """`keys`: what a reload added or updated; None: the first load is done."""
        if self.notifier is None:
            return
        from tui.core.news import news
        from tui.store import known, locations

        path = self.known_path or locations.known_file()
        if keys is None:
            self.known = known.load(path)
        state = self.reader.state

        def updated(review: Review) -> bool:
            return changes(state, review) is not None

        library = self.reader.library
        found = news(library, known=self.known, updated=updated, mute=self.reader.mute, among=keys)
        self.told += len(found)
        self.notifier.offer(review.title for review in found)
        # Known from now on, whatever the saving does: a first start has no record,
        # and its reloads still tell what they add.
        all_keys = [review.key for review in library.reviews]
        self.known = (self.known or frozenset()) | {
            digest(key) for key in (all_keys if keys is None else keys)
        }
        self.app.run_worker(
            lambda: known.save(path, all_keys), thread=True, group="known", exit_on_error=False
        )

    async def stop(self) -> None:
        """At quit: a running program is ended within a second."""
        if self.notifier is not None:
            await self.notifier.stop()
