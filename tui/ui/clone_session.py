"""The reader's clones: which clone holds each repo, one `Resolver` per clone,
the refs of the reviews resolved so far, and the files they lead to.

Everything here that runs git or reads a file runs in one thread worker, off
the event loop: `want(review)` asks for a review's refs and returns at once;
the worker resolves the latest review asked for (a list scrolled fast is
not resolved row by row), reads the files its refs lead to, and hands the
result to `deliver` on the loop. So `enter` on a ref that has been resolved
opens its file without waiting on git or the disk.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tui.core.model import Review

if TYPE_CHECKING:
    from textual.app import App

    from tui.clone.find import Clone, Found
    from tui.clone.resolve import Candidate, Resolver, ReviewRefs
    from tui.ui.widgets.code_view import CodeFile

STALE_AFTER_S = 10.0
"""A review's refs resolved longer ago than this are resolved again when it is
selected (the work tree may have moved on); meanwhile the old ones are shown."""
PREFETCH_FILES = 32
PREFETCH_BYTES = 8 * 1024 * 1024


class CloneSession:
    """One per reader. `repo_dir` is `--repo-dir`; the config's `repos:` is read
    (in the worker) from `config_path`; else the current folder is looked at."""

    def __init__(self, deliver: Callable[[ReviewRefs], None]) -> None:
        self.deliver = deliver
        self.repo_dir: Path | None = None
        self.config_path: Path | None = None
        self.cwd: Path | None = None
        self._configured: dict[str, Path] | None = None
        self._found: dict[str, Found] = {}
        self._resolvers: dict[Path, Resolver] = {}
        self.results: dict[str, tuple[Review, ReviewRefs, float]] = {}  # review key -> what, when
        # (clone, path, commit) -> (text, absolute path or None): the files refs lead to
        self._files: dict[tuple[str, str, str | None], tuple[str, str | None]] = {}
        self._lock = threading.Lock()
        self._wanted: Review | None = None
        self._running = False
        self.noted: set[str] = set()  # repos whose "no clone" note was shown
        self.resolved = 0  # reviews resolved, for tests and benchmarks

    # -- on the loop ----------------------------------------------------------

    def refs_of(self, review: Review) -> ReviewRefs | None:
        """The review's refs, if resolved for this version of it."""
        entry = self.results.get(review.key)
        return entry[1] if entry is not None and entry[0] is review else None

    def want(self, app: App[None], review: Review) -> None:
        """Resolve `review`'s refs in the background, unless that was done lately."""
        entry = self.results.get(review.key)
        if entry is not None and entry[0] is review and time.monotonic() - entry[2] < STALE_AFTER_S:
            return
        if self.config_path is None:
            self.config_path = getattr(app, "config_path", None)
        with self._lock:
            self._wanted = review
            if self._running:
                return
            self._running = True
        app.run_worker(
            lambda: self._run(app), thread=True, group="refs", exit_on_error=False, name="resolve refs"
        )

    def cached_file(self, clone: Clone, target: Candidate) -> CodeFile | None:
        """A ref's file, if it was read with the refs."""
        entry = self._files.get((str(clone.root), target.path, target.commit))
        return None if entry is None else _code_file(target, entry)

    def last_of(self, key: str) -> ReviewRefs | None:
        """The refs last resolved for the review `key`, of whichever version of it
        (a reloaded review keeps its marks until its refs are resolved again)."""
        entry = self.results.get(key)
        return entry[1] if entry is not None else None

    # -- in the worker --------------------------------------------------------

    def _run(self, app: App[None]) -> None:
        try:
            while True:
                with self._lock:
                    review, self._wanted = self._wanted, None
                    if review is None:
                        self._running = False
                        return
                refs = self.resolve(review)
                app.call_from_thread(self._delivered, review, refs)
        except BaseException:
            with self._lock:
                self._running = False
            raise

    def _delivered(self, review: Review, refs: ReviewRefs) -> None:
        self.results[review.key] = (review, refs, time.monotonic())
        self.resolved += 1
        self.deliver(refs)

    def find(self, repo: str) -> Found:
        """The clone of `repo` (remembered for the session)."""
        found = self._found.get(repo)
        if found is None:
            from tui.clone.find import find_clone

            found = find_clone(
                repo,
                repo_dir=self.repo_dir,
                configured=self.configured(),
                cwd=self.cwd or Path.cwd(),
                config_path=self.config_path,
            )
            self._found[repo] = found
        return found

    def use_repos(self, repos: dict[str, Path]) -> None:
        """The config's `repos:` as the App read it: the worker need not read the file again."""
        self._configured = dict(repos)

    def configured(self) -> dict[str, Path]:
        """The config's `repos:` (its warnings were shown when the App read it)."""
        if self._configured is None:
            self._configured = {}
            if self.config_path is not None:
                from tui.store import config

                self._configured = config.load(self.config_path, keys=False).repos
        return self._configured

    def resolve(self, review: Review) -> ReviewRefs:
        """Blocking: the refs of `review`, and the files they lead to read."""
        from tui.clone.resolve import unresolved

        found = self.find(review.repo)
        if found.clone is None:
            return unresolved(review, found.note)
        refs = self.resolver(found.clone).resolve(review)
        self._prefetch(found.clone, refs)
        return refs

    def resolver(self, clone: Clone) -> Resolver:
        resolver = self._resolvers.get(clone.root)
        if resolver is None:
            from tui.clone.prs import PrCommits
            from tui.clone.resolve import Resolver
            from tui.store import locations

            resolver = self._resolvers[clone.root] = Resolver(
                clone, PrCommits(clone, locations.clone_cache_dir())
            )
        return resolver

    def open_file(self, clone: Clone, target: Candidate) -> CodeFile:
        """Blocking: a ref's file, read (and kept for the next time)."""
        from tui.clone import content

        key = (str(clone.root), target.path, target.commit)
        entry = self._files.get(key)
        if entry is None:
            text = content.file_text(clone, target.path, target.commit)
            absolute = None if target.commit else content.absolute_path(clone, target.path)
            if len(self._files) > 4 * PREFETCH_FILES:
                self._files.clear()
            entry = self._files[key] = (text, absolute)
        return _code_file(target, entry)

    def _prefetch(self, clone: Clone, refs: ReviewRefs) -> None:
        """The files the review's refs resolved to, read now: opening one then
        costs no disk or git. Bounded: a review naming hundreds of files reads
        the first ones."""
        from tui.clone.content import RefusedPath
        from tui.clone.git import GitError
        from tui.clone.resolve import FOUND
        from tui.ui.widgets.code_view import prepare

        seen: set[tuple[str, str | None]] = set()
        total = 0
        for resolution in refs.resolutions:
            target = resolution.target
            if resolution.status != FOUND or target is None or (target.path, target.commit) in seen:
                continue
            seen.add((target.path, target.commit))
            if len(seen) > PREFETCH_FILES or total > PREFETCH_BYTES:
                return
            try:
                total += len(self.open_file(clone, target).text)
            except (OSError, RefusedPath, GitError, ValueError, LookupError):
                continue  # a folder, or gone since: said when it is opened
            prepare(target.path)


def _code_file(target: Candidate, entry: tuple[str, str | None]) -> CodeFile:
    from tui.ui.widgets.code_view import CodeFile

    text, absolute = entry
    return CodeFile(target.path, text, target.line, absolute, target.commit)
