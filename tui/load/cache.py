"""A parse cache: what each entry file loaded to, keyed by path, size and mtime.

Parsing is the expensive part of start-up (libyaml plus validation); a warm
start decodes the cache instead. Each review is kept as the few fields a list
row needs plus its body packed as bytes (`Review.blob`), read from the cache
file when first needed (the format: `tui.load.cache_format`).

The cache is the main file (written atomically by `save`) and the journals
next to it, which the parse workers append to as they parse
(`tui.load.journal`). The next save folds the journals into the main file and
removes them.
"""

from __future__ import annotations

import contextlib
import os
from _thread import allocate_lock  # threading.Lock itself: `status` imports this, not threading
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path

from tui.core.model import FileUpdate
from tui.load.cache_format import (
    OpenFile,
    Source,
    Stamp,
    decode_entry,
    open_regular,
    records,
    saved_records,
)
from tui.load.journal import Journal, journals
from tui.store.atomic import remove_stale_temps, write_atomic


class ParseCache:
    """Cached loads by path. `get` answers only when size and mtime still match."""

    def __init__(self, path: Path | None, version_key: str = "") -> None:
        self.path = path
        self.version_key = version_key
        self._raw: dict[
            str, tuple
        ] = {}  # name -> (stamp, reviews, problems, source): read, not yet asked for
        self._fresh: dict[str, tuple] = {}  # name -> (stamp, reviews, problems): to save
        self._held: dict[str, Stamp] = {}  # name -> stamp: loaded from a saved table (`hold`)
        self._on_disk: set[str] = set()  # the files the main file holds: what was loaded, then saved
        self._journals: dict[
            str, OpenFile
        ] = {}  # journals read or written to since `load`: folded in at save
        self.dirty = False
        self._main: OpenFile | None = None
        self._unread: Iterator[set[str]] | None = None  # the main file's records `load` left unread
        self._first: list[str] = []  # the names saved first (`put_first`)
        self._misplaced = False  # they were not all in the first record
        self._saving = allocate_lock()

    def load(self, first: Collection[str] | None = None) -> bool:
        """Read the indexes of the cache file and its journals; False (and an
        empty cache) if there is nothing usable.

        `first`: read only the main file's first record, which holds the first
        frame's files (`put_first`), unless it lacks some of these names, then
        read on until it has them all; `load_rest` reads the others and the
        journals. A start draws its first frame after reading ~1 ms of index,
        not the 100 ms of 100,000 reviews'. True if that part holds anything."""
        self._raw, self._on_disk, self._journals = {}, set(), {}
        self._unread, self._misplaced = None, False
        if self._main is not None:
            self._main.close()
            self._main = None
        if self.path is None:
            return False
        self._unread = self._records()
        if first is not None:
            wanted = set(first)
            size = len(wanted)
            for read, names in enumerate(self._unread):
                wanted.difference_update(names)
                if not wanted:
                    # The first record is not the first frame's alone: the next save makes it so.
                    self._misplaced = read > 0 or len(names) != size
                    break
            else:
                self._misplaced = bool(wanted)  # not in the main file: parsed, then saved first
            return bool(self._raw)
        self.load_rest()
        return bool(self._raw)

    def load_rest(self, journals_too: bool = True) -> None:
        """The indexes `load(first=...)` left unread: the main file's other
        records, then the journals (not with `journals_too` False: those of
        parse workers still answering). Nothing to do after a full `load`."""
        unread, self._unread = self._unread, None
        if unread is None or self.path is None:
            return
        for _ in unread:
            pass
        for journal in journals(self.path) if journals_too else ():
            file = self._read(journal)
            if file is not None:
                self._journals[str(journal)] = file

    def _records(self) -> Iterator[set[str]]:
        """Read the main file's records one by one, each yielding the names it held."""
        opened = open_regular(self.path) if self.path is not None else None
        if opened is None:
            return
        fd, size = opened
        file = self._main = OpenFile(fd)
        found = False
        try:
            for bodies_at, index, packed in records(fd, size, self.version_key):
                names = self._add(index, Source(file, bodies_at, packed))
                self._on_disk |= names
                found = True
                yield names
        except OSError:
            pass
        if not found and self._main is file:
            file.close()
            self._main = None

    def _add(self, index: dict, source: Source) -> set[str]:
        raw = self._raw
        names = set()
        for name, entry in index.items():
            if isinstance(entry, tuple) and len(entry) == 3:
                raw[name] = (*entry, source)
                names.add(name)
        return names

    def _read(self, path: Path) -> OpenFile | None:
        opened = open_regular(path)
        if opened is None:
            return None
        fd, size = opened
        file = OpenFile(fd)
        found = False
        try:
            for bodies_at, index, packed in records(fd, size, self.version_key):
                self._add(index, Source(file, bodies_at, packed))
                found = True
        except OSError:
            pass
        if not found:
            file.close()
            return None
        return file

    def put_first(self, paths: Iterable[Path]) -> None:
        """Save these files first, in a record of their own: the first frame's,
        which the next start reads before anything else (`load(first=...)`)."""
        self._first = [str(path) for path in paths]

    def has(self, path: Path) -> bool:
        """Is there an entry for `path`, whatever its stamp?"""
        return str(path) in self._raw

    def get(self, path: Path, current: Stamp | None) -> FileUpdate | None:
        name = str(path)
        entry = self._raw.get(name)
        if entry is None or current is None or entry[0] != current:
            return None
        try:
            _, reviews, problems, source = entry
            update = decode_entry(path, reviews, problems, source)
        except (TypeError, ValueError):
            return None  # a damaged entry is a miss, not an error
        del self._raw[name]  # the reviews hold what it held
        self._held.pop(name, None)
        self._fresh[name] = (current, update.reviews, problems)
        return update

    def index_of(self, path: Path | str, current: Stamp | None) -> tuple[tuple, Source | None] | None:
        """`path`'s reviews as the index holds them, undecoded (each a tuple:
        title, repo, verdict, tags, line, column, pr, ...), and where their
        bodies are (for `cache_format.decode_review`); None unless size and
        mtime still match. For readers that only count (`status`'s summary,
        `tui.load.status_summary`): no `Review` is built."""
        entry = self._raw.get(str(path))
        if entry is None or current is None or entry[0] != current:
            return None
        reviews = entry[1]
        return (reviews, entry[3]) if isinstance(reviews, tuple) else None

    def store(self, answer: list | tuple, paths: list[Path] | None = None) -> dict[Path, FileUpdate | None]:
        """Keep entries made by `parse_files` (here, in a thread or in another
        process), each under the stamp its file had before it was parsed, and
        return them decoded. `answer`: the entries, or (journal, where the
        record's bodies start, entries) when they were written to a journal.

        A file that was gone when it was parsed, and still is, is None (gone),
        not a "No such file" problem: a file found by a folder scan and removed
        before the parser reached it was renamed or deleted, as the watcher
        would have told.

        `paths`: the answer's files, in its order, as the caller has them (no
        path is made again from its name)."""
        source = None
        if isinstance(answer, tuple):
            journal, bodies_at, answer = answer
            if journal is not None:
                source = Source(self._journal(journal), bodies_at, False)
        decoded: dict[Path, FileUpdate | None] = {}
        for n, (name, before, reviews, problems) in enumerate(answer):
            path = paths[n] if paths is not None else Path(name)
            if before is None and not os.path.lexists(name):
                decoded[path] = None
                continue
            update = decoded[path] = decode_entry(path, reviews, problems, source)
            if before is not None:
                self._held.pop(name, None)
                self._fresh[name] = (before, update.reviews, problems)
                self.dirty = True
        return decoded

    def _journal(self, name: str) -> OpenFile:
        file = self._journals.get(name)
        if file is None:
            opened = open_regular(Path(name))
            file = self._journals[name] = OpenFile(opened[0] if opened else None)
        return file

    def journal(self) -> Journal | None:
        """A journal for parsing in this process (None without a cache file)."""
        return Journal(self.path, self.version_key) if self.path is not None else None

    def stamp_of(self, path: Path) -> Stamp | None:
        """The stamp `path` had when it was last loaded (from the cache or
        parsed), or None if it was not."""
        entry = self._fresh.get(str(path))
        return entry[0] if entry is not None else self._held.get(str(path))

    def hold(self, stamps: dict[str, Stamp]) -> None:
        """Files loaded from the saved table (`tui.load.table_file`) with these
        stamps, never asked for here: known as loaded (`stamp_of`), and kept by
        the next save as the main file has them (`_take_held`), unless parsed
        or forgotten since. Without this, a save after a start from the table
        would write only the files the first frame asked for."""
        self._held = dict(stamps)

    def forget(self, paths: Iterable[Path]) -> None:
        for path in paths:
            held = self._held.pop(str(path), None) is not None
            if self._fresh.pop(str(path), None) is not None or held:
                self.dirty = True

    def save(self) -> None:
        """Write the entries used or added since `load` into the main file,
        atomically, then remove the journals it folded in. Errors are ignored:
        a cache that cannot be written only costs the next start-up time.

        One save at a time (the App saves from a thread, and Textual cannot stop
        a thread worker that a newer one replaces): on a slow disk, saves that
        overlapped would each hold the cache's bodies."""
        with self._saving:
            self._save()

    def _take_held(self) -> None:
        """The held files' entries, decoded from the main file's index (read
        whole now), as `get` would have them: in the save's thread, as only a
        save needs them. A file parsed or forgotten meanwhile is left as that
        made it (the loop's `store` and `forget` drop it from `_held` first)."""
        if not self._held:
            return
        self.load_rest()
        taken: dict[str, tuple] = {}
        for name, current in list(self._held.items()):
            entry = self._raw.get(name)
            if entry is None or entry[0] != current:
                continue  # not in the main file as loaded: parsed again next time
            _, reviews, problems, source = entry
            try:
                taken[name] = (current, decode_entry(Path(name), reviews, problems, source).reviews, problems)
            except (TypeError, ValueError):
                continue
        for name, entry in taken.items():
            if self._held.pop(name, None) == entry[0]:
                self._fresh.setdefault(name, entry)
        self._held = {}

    def _save(self) -> None:
        if self.path is None:
            return
        # A save killed half way (SIGTERM, kill -9) leaves a temp file as big as
        # the cache; this one runs after every start's load, dirty or not.
        remove_stale_temps(self.path)
        if self._held and not self.dirty:
            return  # a start from the saved table, nothing parsed since: the main file is the library's
        self._take_held()
        if set(self._fresh) != self._on_disk or self._journals or self._misplaced:
            self.dirty = True
        if not self.dirty:
            return
        fresh = self._fresh
        firsts = dict.fromkeys(self._first)
        first = [(name, fresh[name]) for name in firsts if name in fresh]
        entries = first + [(name, entry) for name, entry in fresh.items() if name not in firsts]
        saved: set[str] = set()
        folded = list(self._journals)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Record by record: a save holds one record's blocks at a time, not
            # all of them.
            write_atomic(self.path, saved_records(entries, self.version_key, saved, first=len(first)))
        except OSError:
            return
        self._on_disk = saved
        self.dirty = self._misplaced = False
        for name in folded:  # in the main file now; reviews still read from the open files
            with contextlib.suppress(OSError):
                os.unlink(name)
        self._journals = {}
