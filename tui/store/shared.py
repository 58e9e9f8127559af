"""The reader's marks in a shared state folder: one file per machine, every file read.

A folder named by `state:` or `--state` is shared through a sync tool or a git
repository. Each machine writes only its own file, `<machine-id>.marks` (the
format is in `tui.store.journal`), so no sync tool ever sees two writers of one
file; it reads every `*.marks` file there (conflict copies such as
`x.sync-conflict-....marks` or `x (... conflicted copy ...).marks` too), and
merges mark by mark: the newest stamp wins, machine ids breaking ties
(`tui.core.clock.Stamp`), so every machine comes to the same marks whatever the
order the files arrive in.

`SharedState` is a `ReadState` with the same `load`, `snapshot`/`write`/`absorb`
and `unsaved`, so the saver, export and status use it unchanged; `poll` and
`take` read what other machines wrote since (for `tui.ui.marks_sync`).

What sync tools do is expected: another machine's file half-copied is a log
with fewer marks (read), or one whose head is not whole yet (skipped, read
again when it changes); neither is ever moved aside. Only this machine's own
file, when broken, is set aside and written anew from the marks in memory.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import NamedTuple

from tui.core.clock import HybridClock
from tui.core.marks import Mark, ReviewMarks, Seen
from tui.core.model import blake2b
from tui.store import journal
from tui.store.atomic import remove_stale_temps, write_atomic
from tui.store.journal import SUFFIX, Header, Parsed
from tui.store.machine import Machine, this_machine
from tui.store.marks_merge import merge_into
from tui.store.safe_read import OPEN_FLAGS
from tui.store.shared_scan import (
    MAX_MARKS_BYTES,
    TAIL,
    Cursor,
    is_marks_file,
    lines_in,
    marks_file_info,
    read_folder,
    read_from,
)
from tui.store.state import (
    Outcome,
    ReadState,
    Snapshot,
    StateError,
    locked,
    move_aside,
)

__all__ = ["Arrivals", "SharedState", "is_marks_file", "open_state"]

COMPACT_AT = 1024 * 1024
"""This machine's file is compacted once it is past this size and twice its
size when last compacted (or read)."""

_APPEND = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)

Key = tuple[str, str, str | None]  # kind ("r", "i", "s"), review key, item key


class Arrivals(NamedTuple):
    """What `poll` read: the marks, by the machine whose file held them."""

    parsed: list[Parsed]
    notes: list[str]


def open_state(path: Path | None, folder: bool = False) -> ReadState:
    """The marks kept at `path`: a shared state folder when `folder` (see
    `locations.state_place`), else a single state file (`path=None`: in memory)."""
    from tui.store import locations

    if path is None or not folder:
        return ReadState(path)
    local = locations.state_file()
    return SharedState(
        path,
        this_machine(locations.machine_file()),
        local=local,
        lock_dir=locations.locks_dir(),
        cache=locations.shared_cache_file(path),
    )


class SharedState(ReadState):
    """Marks in a shared state folder (`path`), this machine's written to its own file."""

    def __init__(
        self,
        folder: Path,
        machine: Machine,
        *,
        clock: HybridClock | None = None,
        local: Path | None = None,
        lock_dir: Path | None = None,
        cache: Path | None = None,
    ) -> None:
        """`local`: the single state file whose marks the folder's first use on
        this machine takes with it. `lock_dir`: where the lock that two readers
        on this machine take is kept (this machine's, never synced). `cache`:
        what the folder's files merged to at the last start, this machine's
        (`tui.store.shared_cache`), so a start reads only what changed."""
        super().__init__(folder, clock)
        self.machine = machine
        self.clock.machine = machine.id
        self.own = folder / f"{machine.id}{SUFFIX}"
        self.header = Header(machine.id, machine.token)
        self.local = local
        self.cache = cache
        digest = blake2b(os.fsencode(os.path.abspath(self.own)), digest_size=8).hexdigest()
        self._lock = (lock_dir or folder) / f".marks-{digest}"
        self._unsaved: dict[Key, tuple[int, Mark | Seen]] = {}
        self._whole = False  # this machine's file is to be written anew, with every mark of its
        self._whole_since = 0  # marks made when that was asked for: a save of a snapshot since answers
        self._cursors: dict[str, Cursor] = {}
        self._twins: set[str] = set()  # files warned about: another machine with this id
        self._compacted = 0  # the own file's size when last compacted or read (write's own)
        if machine.warning:
            self.warnings.append(machine.warning)

    # -- marks made here ---------------------------------------------------------------------

    def set_read(self, review_key: str, value: bool) -> None:
        super().set_read(review_key, value)
        mark = self.reviews[review_key].read
        assert mark is not None
        self._unsaved[("r", review_key, None)] = (self._changes, mark)

    def set_checked(self, review_key: str, item_key: str, value: bool, digest: str | None = None) -> None:
        super().set_checked(review_key, item_key, value, digest)
        self._unsaved[("i", review_key, item_key)] = (self._changes, self.reviews[review_key].items[item_key])

    def set_seen(self, review_key: str, fingerprint: dict[str, object]) -> None:
        super().set_seen(review_key, fingerprint)
        seen = self.reviews[review_key].seen
        assert seen is not None
        self._unsaved[("s", review_key, None)] = (self._changes, seen)

    @property
    def unsaved(self) -> bool:
        return self.saving and (bool(self._unsaved) or self._whole)

    # -- reading -----------------------------------------------------------------------------

    def load(self, move_aside: bool = True) -> None:
        """Read every machine's file (only those changed since the last start,
        with `cache`: `tui.store.shared_scan`). This machine's, if broken, is moved aside
        (only warned about when not `move_aside`) and written anew at the next
        save; if it is missing, the local state file's marks are taken in."""
        assert self.path is not None
        scan = read_folder(self.path, self.cache)
        self.reviews, self._cursors = scan.reviews, scan.cursors
        notes = scan.notes
        for name, header in scan.headers:
            self._check_twin(name, header, notes)
        self.warnings.extend(notes)
        if scan.newest is not None:
            self.clock.observe(scan.newest)
        self._broken_own = scan.broken.get(self.own.name)
        own = self._cursors.get(self.own.name)
        self._compacted = own.end if own is not None else 0
        if own is None and self.local is not None and not os.path.lexists(self.own):
            self._take_local()
        elif self._broken_own:
            self._set_own_aside(move_aside)

    _broken_own: str | None = None

    def _take_local(self) -> None:
        """The first use of the folder here: the single state file's marks become this machine's."""
        assert self.local is not None
        single = ReadState(self.local)
        single.load(move_aside=False)
        if not single.reviews:
            return
        me = self.machine.id
        mine: dict[str, ReviewMarks] = {}
        for key, marks in single.reviews.items():
            copy = mine[key] = ReviewMarks()
            if marks.read is not None:
                copy.read = marks.read._replace(at=marks.read.at._replace(machine=me))
            if marks.seen is not None:
                copy.seen = marks.seen._replace(at=marks.seen.at._replace(machine=me))
            copy.items = {k: m._replace(at=m.at._replace(machine=me)) for k, m in marks.items.items()}
        self.merge(mine)
        self._observe(mine)
        self._whole = True

    def _set_own_aside(self, move: bool) -> None:
        reason = self._broken_own or "not a marks file"
        if not move:
            self.warnings.append(f"Marks file {self.own} is unreadable ({reason}); it is left as it is.")
            return
        try:
            self.warnings.append(move_aside(self.own, StateError(reason)))
            self._whole = True
        except OSError as exc:
            self.failure = str(exc)
            self.warnings.append(f"{exc} Marks are not saved; they are kept until you quit.")
            self.saving = False

    def poll(self) -> Arrivals:
        """Read what changed in the folder since the last poll: whole files that
        are new or replaced, what was appended to the others. Touches only the
        read positions (one poll at a time), so it may run off the loop; `take`
        merges what it read."""
        assert self.path is not None
        parsed: list[Parsed] = []
        notes: list[str] = []
        self._broken_own = None
        try:
            entries = list(os.scandir(self.path))
        except (FileNotFoundError, NotADirectoryError):
            return Arrivals(parsed, notes)  # made by the first save
        except OSError as exc:
            return Arrivals(parsed, [f"Cannot read marks from {self.path}: {exc.strerror or exc}."])
        seen_names = set()
        for entry in entries:
            if not is_marks_file(entry.name):
                continue
            seen_names.add(entry.name)
            if (info := marks_file_info(entry)) is None:
                continue
            signature = (info.st_ino, info.st_size, info.st_mtime_ns)
            cursor = self._cursors.get(entry.name)
            if cursor is not None and cursor.signature == signature:
                continue
            try:
                result = self._read_file(Path(entry.path), signature, cursor)
            except OSError:
                continue  # gone, or being replaced: its next change brings it back
            if result is None:
                continue
            if result.header is not None:
                self._check_twin(entry.name, result.header, notes)
            if entry.name == self.own.name and result.broken:
                self._broken_own = result.broken
            parsed.append(result)
        for gone in set(self._cursors) - seen_names:
            del self._cursors[gone]
        return Arrivals(parsed, notes)

    def _read_file(
        self,
        path: Path,
        signature: tuple[int, int, int],
        cursor: Cursor | None,
    ) -> Parsed | None:
        fd = os.open(path, OPEN_FLAGS | getattr(os, "O_NOFOLLOW", 0))
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                return None
            start = 0
            if (
                cursor is not None
                and cursor.header is not None
                and cursor.signature[0] == info.st_ino
                and info.st_size >= cursor.end
                and os.pread(fd, len(cursor.tail), cursor.end - len(cursor.tail)) == cursor.tail
            ):
                start = cursor.end - len(cursor.tail)  # grown: read only what follows
            data = read_from(fd, start, MAX_MARKS_BYTES)
            if start:
                assert cursor is not None
                # A bad line's number counts from the file's start, as at start-up.
                result = journal.parse(
                    data, len(cursor.tail), cursor.header, lines_before=lambda: lines_in(fd, start)
                )
                end = start + result.end
            else:
                result = journal.parse(data, 0, None)
                end = result.end
        finally:
            os.close(fd)
        tail = data[max(0, result.end - TAIL) : result.end]
        self._cursors[path.name] = Cursor(signature, end, result.header, tail)
        return result

    def _check_twin(self, name: str, header: Header, notes: list[str]) -> None:
        if (
            header.machine == self.machine.id
            and header.token != self.machine.token
            and name not in self._twins
        ):
            self._twins.add(name)
            notes.append(
                f"Another machine uses this machine's id {self.machine.id!r} ({self.own.parent / name}): "
                "its marks and this one's are mixed up. Give each machine its own PRDIGEST_MACHINE."
            )

    def take(self, arrivals: Arrivals) -> set[str]:
        """Merge marks `poll` read (on the thread that changes the marks): the
        machines whose marks changed what is shown."""
        self.warnings.extend(arrivals.notes)
        machines: set[str] = set()
        for parsed in arrivals.parsed:
            if parsed.newest is not None:
                self.clock.observe(parsed.newest)
            if self.merge(parsed.reviews) and parsed.header is not None:
                machines.add(parsed.header.machine)
        if self._broken_own and not self._whole:  # set aside by the next save, under the lock
            self._whole_since, self._whole = self._changes, True
        return machines

    # -- writing -----------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """The marks not yet in this machine's file; or, when it is to be written
        anew, every mark this machine made."""
        if self._whole:
            return Snapshot(_mine(self.reviews, self.machine.id), self._changes, whole=True)
        unsaved: dict[str, ReviewMarks] = {}
        for (kind, key, item), (_, mark) in self._unsaved.items():
            marks = unsaved.setdefault(key, ReviewMarks())
            if kind == "r":
                marks.read = mark  # type: ignore[assignment]
            elif kind == "s":
                marks.seen = mark  # type: ignore[assignment]
            else:
                marks.items[item] = mark  # type: ignore[index,assignment]
        return Snapshot(unsaved, self._changes)

    def write(self, snapshot: Snapshot, lock_wait: float | None = None) -> Outcome:
        """Append the snapshot's marks to this machine's file (or write it anew),
        under this machine's lock. Touches nothing in `self` but what only
        writes use: safe in another thread."""
        if self.path is None or not self.saving:
            return Outcome(snapshot.changes, {})
        notes: list[str] = []
        redo = False
        try:
            _folder_or_missing(self.path)
            self.path.mkdir(parents=True, exist_ok=True)
            self._lock.parent.mkdir(parents=True, exist_ok=True)
            with locked(self._lock, lock_wait):
                state = _own_file_state(self.own, self.machine.id)
                if state == "missing":
                    self._write_whole(snapshot.reviews, keep=False)
                elif state == "ok" and not snapshot.whole:
                    if lines := journal.mark_lines(snapshot.reviews):
                        _append(self.own, lines)
                    if os.stat(self.own).st_size > max(COMPACT_AT, 2 * self._compacted):
                        self._write_whole({}, keep=True)
                elif state in ("ok", "torn"):  # a torn last line is a save that never returned
                    broken = self._write_whole(snapshot.reviews, keep=True)
                    if broken is not None:  # a bad line inside: set aside, and ours written anew
                        notes.append(move_aside(self.own, StateError(broken)))
                        self._write_whole(snapshot.reviews, keep=False)
                        redo = not snapshot.whole
                else:  # not a marks file any more: set aside; every mark of ours is written anew
                    notes.append(move_aside(self.own, StateError(state)))
                    self._write_whole(snapshot.reviews, keep=False)
                    redo = not snapshot.whole
            return Outcome(snapshot.changes, {}, tuple(notes), redo=redo, whole=snapshot.whole)
        except OSError as exc:
            return Outcome(snapshot.changes, None, tuple(notes), exc)

    def _write_whole(self, reviews: dict[str, ReviewMarks], *, keep: bool) -> str | None:
        """This machine's file anew, compacted: one line per mark, the newest of
        what it held (with `keep`) and of `reviews`. If what it held has a bad
        line before its end, nothing is written: why, to set it aside."""
        merged: dict[str, ReviewMarks] = {}
        if keep:
            with open(self.own, "rb") as handle:
                held = journal.parse(handle.read(), 0, None, into=merged)
            if held.broken is not None:
                return held.broken
        merge_into(merged, reviews)
        data = journal.header_line(self.header) + journal.mark_lines(merged)
        remove_stale_temps(self.own)  # a writer killed mid-write: its temp file would be synced
        write_atomic(self.own, data)
        self._compacted = len(data)
        return None

    def absorb(self, outcome: Outcome) -> bool:
        if outcome.error is None and outcome.theirs is not None:
            done = outcome.changes
            self._unsaved = {k: v for k, v in self._unsaved.items() if v[0] > done}
            if outcome.whole and done >= self._whole_since:
                self._whole = False
            if outcome.redo:
                self._whole_since, self._whole = self._changes, True
        return super().absorb(outcome)

    def unsaved_report(self) -> str | None:
        if not self.unsaved:
            return None
        return f"marks made in this session could not be saved to {self.own}: {self.failure or 'not saved'}"


def _mine(reviews: dict[str, ReviewMarks], machine: str) -> dict[str, ReviewMarks]:
    out: dict[str, ReviewMarks] = {}
    for key, marks in reviews.items():
        read = marks.read if marks.read is not None and marks.read.at.machine == machine else None
        seen = marks.seen if marks.seen is not None and marks.seen.at.machine == machine else None
        items = {k: m for k, m in marks.items.items() if m.at.machine == machine}
        if read or seen or items:
            copy = out[key] = ReviewMarks()
            copy.read, copy.seen, copy.items = read, seen, items
    return out


def _folder_or_missing(path: Path) -> None:
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return
    if not stat.S_ISDIR(mode):
        raise OSError(errno.ENOTDIR, "it is not a folder")


def _own_file_state(path: Path, machine: str) -> str:
    """ "ok" to append to, "missing", "torn" (the last line unfinished), or why it is not ours."""
    try:
        fd = os.open(path, OPEN_FLAGS | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        if os.path.islink(path):
            return "a symbolic link"
        raise exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return "not a regular file"
        if info.st_size == 0:
            return "missing"
        first = os.pread(fd, 4096, 0)
        cut = first.find(b"\n")
        try:
            theirs = journal.parse_header(first[: cut + 1]) if cut >= 0 else None
        except ValueError:
            theirs = None
        if theirs is None:
            return "not a marks file"
        if theirs.machine != machine:
            return f"the marks of machine {theirs.machine[:64]!r}"
        if os.pread(fd, 1, info.st_size - 1) != b"\n":
            return "torn"
        return "ok"
    finally:
        os.close(fd)


def _append(path: Path, data: bytes) -> None:
    fd = os.open(path, _APPEND)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)
