"""The reader's marks (reviews read, items checked), kept on disk.

Every mark carries when it was made (a hybrid logical clock's stamp,
`tui.core.clock`: wall-clock time, but always later than every mark read), so two
instances writing the same file merge instead of overwriting each other: on save,
the file on disk is read under a lock (unless it is the file this state read or
wrote last), the newer mark wins field by field, and the result is written atomically
(temp file, fsync, rename, fsync of the folder). A file that cannot be read is
moved aside, never overwritten, and the caller is told so it can warn the user.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import stat
import time
import zlib
from pathlib import Path
from typing import NamedTuple

from tui.core.clock import HybridClock, Stamp
from tui.core.marks import Mark, Marks, ReviewMarks, Seen, is_fingerprint
from tui.store import state_copy
from tui.store.atomic import write_atomic as _write_atomic
from tui.store.marks_merge import merge_into
from tui.store.marks_merge import newest as _newest
from tui.store.safe_read import NotRegular, UnfitFile, read_regular
from tui.store.state_encode import FORMAT, VERSION, Encoder
from tui.store.state_lock import UnfitLock, _Told, locked

__all__ = ["NotOurs", "ReadState", "StateError", "TooLarge", "UnfitLock", "locked", "move_aside"]


class StateError(Exception):
    """The state file is a regular file but not a state file we can read: it is
    moved aside."""


class NotOurs(OSError):
    """Something other than a regular file is at the state path (a device such
    as /dev/null, a named pipe, a socket, a folder): never read, renamed or
    replaced."""

    def __init__(self, kind: str) -> None:
        super().__init__(errno.EINVAL, f"{kind}, not a regular file")
        self.kind = kind


class TooLarge(NotOurs):
    """A state file over `MAX_STATE_BYTES`: not read, and, like something that
    is not ours, never renamed or replaced. It is not broken: the marks of a
    reader of a very big library are in it, and a fresh file in its place
    would lose them all."""

    def __init__(self, size: str) -> None:
        OSError.__init__(self, errno.EFBIG, f"{size}, too large to read")
        self.kind = size


class ReadState(Marks):
    """Marks in memory (`tui.core.marks`), and the one place that reads and
    writes the state file.

    `path=None` keeps marks in memory only (used when the state folder cannot
    be written). Marks are stamped by `clock`, which sees every mark read from
    the file: a new mark wins over every mark the reader has seen, whatever the
    wall clock says.
    """

    def __init__(self, path: Path | None, clock: HybridClock | None = None, copy: Path | None = None) -> None:
        """`copy`: where a copy of the file's marks is kept, read in place of the
        file while the file is the one it was made of (`tui.store.state_copy`)."""
        super().__init__(clock)
        self.path = path
        self.copy = copy
        self.saving = path is not None
        self.warnings: list[str] = []
        self.failure: str | None = None
        """Why the last save failed (None once one succeeds): warned about once,
        and every later save tries again."""
        self._saved = 0  # of the marks made, how many the file holds
        # The writer's own (one write at a time): the file as the last write left
        # it, and each review's JSON as it was last written (`tui.store.state_encode`).
        self._written: tuple[int, ...] | None = None
        self._encoder = Encoder()
        # What that file holds, and its bytes' CRC-32: what a copy is made of (`keep_copy`).
        self._written_marks: tuple[dict[str, ReviewMarks], int] | None = None
        self._copy_of: tuple[int, ...] | None = None  # the file the copy on disk is of

    @property
    def unsaved(self) -> bool:
        """Marks made that the file does not hold yet."""
        return self.saving and self._changes > self._saved

    # -- disk ----------------------------------------------------------------

    def load(self, move_aside: bool = True) -> None:
        """Read the state file. A regular file that is broken is moved aside with
        a warning (only warned about when not `move_aside`: a command that only
        reads never writes); anything else is left as it is, with a warning."""
        if self.path is None:
            return
        self.reviews = {}
        try:
            before = _file_key(self.path)
            if self.copy is not None and (kept := state_copy.read(self.copy, self.path)) is not None:
                # Every review's marks are made when first needed (after the first frame).
                self.adopt(kept.marked, kept.read, kept.keys, kept.rest, kept.seen_texts)
                if kept.newest is not None:
                    self.clock.observe(kept.newest)
                if before is not None and _file_key(self.path) == before:
                    self._written = self._copy_of = before
            else:
                reviews, crc = _read_with_crc(self.path)
                self._observe(reviews)
                self.reviews = reviews
                if before is not None and _file_key(self.path) == before:
                    self._written = before  # what the marks hold: the first save need not read it again
                    self._written_marks = (dict(reviews), crc)
        except (FileNotFoundError, NotADirectoryError):
            pass  # nothing there yet (or its folder cannot exist): `save` tells
        except StateError as exc:
            if move_aside:
                self._set_aside(exc)
            else:
                self.warnings.append(f"State file {self.path} is unreadable ({exc}); it is left as it is.")
        except NotOurs as exc:
            self.failure = f"State file {self.path} is {exc.strerror}: it is left as it is."
            self.warnings.append(f"{self.failure} Marks are not saved; they are kept until you quit.")
        except OSError as exc:
            self.warnings.append(f"Cannot read marks from {self.path}: {exc.strerror or exc}.")

    def save(self, lock_wait: float | None = None) -> bool:
        """Merge with the file on disk and write atomically, here and now.

        Returns True when marks from another instance were merged in, so the
        caller knows to redraw. Failures become warnings; marks stay in memory.
        `lock_wait`: how long to wait for another instance's lock (None: as long
        as it takes). `tui.store.saver` does the same off the caller's thread.
        """
        return self.absorb(self.write(self.snapshot(), lock_wait))

    # Saving in three steps, so that only the middle one, which waits for the
    # lock and the disk, need run off the event loop: `snapshot` and `absorb`
    # touch the marks in memory and run where the marks are changed.

    def snapshot(self) -> Snapshot:
        """The marks now: what `write` saves while they change. A shallow copy:
        a review's marks are never changed in place (`ReviewMarks`), a change
        puts a new object in the state's mapping, not in this one."""
        return Snapshot(dict(self.reviews), self._changes)

    def write(self, snapshot: Snapshot, lock_wait: float | None = None) -> Outcome:
        """Merge the file's marks into `snapshot` and write it, under the lock.
        Touches nothing in `self` but its path: safe in another thread."""
        if self.path is None or not self.saving:
            return Outcome(snapshot.changes, {})
        notes: list[str] = []
        try:
            _ours_or_missing(self.path)  # before the lock file is made next to a device
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with locked(self.path, lock_wait):
                theirs: dict[str, ReviewMarks] = {}
                # The file as this state's last write left it holds nothing the
                # state has not taken in: it need not be read (and parsed) again.
                if self._written is None or _file_key(self.path) != self._written:
                    self._written = None
                    try:
                        theirs = _read(self.path)
                    except FileNotFoundError:
                        pass
                    except StateError as exc:
                        notes.append(move_aside(self.path, exc))
                replaced: list[str] = []
                merge_into(snapshot.reviews, theirs, replaced)  # never changes the state's own marks
                _remove_leftovers(self.path)
                self._written = self._written_marks = None
                parts = self._encoder.dump(snapshot.reviews)
                crc = state_copy.crc_of(parts) if self.copy is not None else 0
                _write_atomic(self.path, *parts)
                self._written = _file_key(self.path)
                self._written_marks = (snapshot.reviews, crc)
            # Of the file's marks, only those newer than the snapshot's can be
            # news to the state (its own are as new as the snapshot's, or newer).
            newer = {key: snapshot.reviews[key] for key in replaced}
            return Outcome(snapshot.changes, newer, tuple(notes), newest=_newest(theirs))
        except OSError as exc:
            self._written = self._written_marks = None
            return Outcome(snapshot.changes, None, tuple(notes), exc)

    def keep_copy(self) -> bool:
        """Write the copy of the file's marks (`copy`) when the file is still the
        one this state last read or wrote, and the copy is not of it already.
        Not while a `write` may run (the writer's own fields). True if written."""
        if self.copy is None or self.path is None or self._written_marks is None:
            return False
        try:
            info = os.stat(self.path)
        except OSError:
            return False
        now = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        if now != self._written or now == self._copy_of:
            return False
        reviews, crc = self._written_marks
        data = state_copy.dumps(state_copy.key_of(self.path, info), crc, reviews, _newest(reviews))
        if not state_copy.write(self.copy, data):
            return False
        self._copy_of = now
        return True

    def absorb(self, outcome: Outcome) -> bool:
        """Take in what a `write` learned: the marks other instances saved, and
        whether it failed. True if marks changed in value."""
        self.warnings.extend(outcome.notes)
        if outcome.error is not None:
            exc = outcome.error
            reason = str(exc) if isinstance(exc, _Told) else f"{exc.strerror or exc}"
            if self.failure is None:  # once, not at every mark while it lasts
                self.warnings.append(
                    f"Cannot save marks to {self.path}: {reason}. Marks are kept, and saving is "
                    "tried again at each change and when you quit."
                )
            self.failure = reason
            return False
        if outcome.theirs is None:
            return False
        self.failure = None
        self._saved = max(self._saved, outcome.changes)
        if outcome.newest is not None:
            self.clock.observe(outcome.newest)
        return self.merge(outcome.theirs)

    def merge(self, theirs: dict[str, ReviewMarks]) -> bool:
        """Fold `theirs` into the state, newer mark winning (its counts kept:
        `Marks.noted`); True if marks changed in value. Marks not seen by the
        clock yet are to be shown to it too (`_observe`)."""
        replaced: list[str] = []
        changed = merge_into(self.reviews, theirs, replaced)
        self.noted(replaced)
        return changed

    def unsaved_report(self) -> str | None:
        """What to tell the reader at quit, if some marks never reached the file."""
        if not self.unsaved:
            return None
        return f"marks made in this session could not be saved to {self.path}: {self.failure or 'not saved'}"

    def _set_aside(self, exc: Exception) -> None:
        assert self.path is not None
        try:
            self.warnings.append(move_aside(self.path, exc))
        except OSError as move_error:
            self.failure = str(move_error)
            self.warnings.append(f"{move_error} Marks are not saved; they are kept until you quit.")

    def _observe(self, reviews: dict[str, ReviewMarks]) -> None:
        if (newest := _newest(reviews)) is not None:
            self.clock.observe(newest)


def _file_key(path: Path) -> tuple[int, ...] | None:
    """What tells one write of the file from another (an atomic write is a new
    inode, a new change time); None if it cannot be stat'ed."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


class Snapshot(NamedTuple):
    reviews: dict[str, ReviewMarks]
    changes: int  # how many marks had been made when it was taken
    whole: bool = False  # a shared folder's: every mark of this machine, to write its file anew


class Outcome(NamedTuple):
    changes: int  # the snapshot's
    theirs: dict[str, ReviewMarks] | None  # the file's marks newer than the snapshot's; None if it failed
    notes: tuple[str, ...] = ()  # warnings to show (a broken file moved aside)
    error: OSError | None = None
    redo: bool = False  # a shared folder's: the machine's file must be written anew, whole
    whole: bool = False  # a shared folder's: the snapshot's, written whole
    newest: Stamp | None = None  # the file's latest mark, for the clock


def move_aside(path: Path, exc: Exception) -> str:
    """Rename the broken regular file at `path` to a new `.corrupt-` name; the
    warning to show. OSError if it cannot be moved (then it must not be written)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.corrupt-{stamp}-{os.getpid()}")
    n = 1
    while os.path.lexists(aside):  # never replace an earlier one, even within the same second
        aside = aside.with_name(f"{path.name}.corrupt-{stamp}-{os.getpid()}-{n}")
        n += 1
    try:
        os.replace(path, aside)
    except OSError as move_error:
        raise _Told(
            f"State file {path} is unreadable ({exc}) and could not be moved aside "
            f"({move_error.strerror or move_error})."
        ) from move_error
    return f"State file was unreadable ({exc}); moved to {aside}. Starting with no marks."


MAX_STATE_BYTES = 256 * 1024 * 1024
"""A state file larger than this is not read, and left as it is (`TooLarge`).
A read review takes ~800 bytes (its fingerprint, its items' checks): room for
~300,000 of them."""


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
)


def _not_ours(mode: int) -> NotOurs | None:
    if stat.S_ISREG(mode):
        return None
    return NotOurs(next((name for test, name in _KINDS if test(mode)), "something else"))


def _ours_or_missing(path: Path) -> None:
    """Raise NotOurs unless `path` (followed if a link) is a regular file or missing."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return
    if (error := _not_ours(mode)) is not None:
        raise error


def _read(path: Path) -> dict[str, ReviewMarks]:
    return _read_with_crc(path)[0]


def _read_with_crc(path: Path) -> tuple[dict[str, ReviewMarks], int]:
    """The file's marks, and its bytes' CRC-32."""
    info = os.stat(path)  # FileNotFoundError: nothing there yet
    if (error := _not_ours(info.st_mode)) is not None:
        raise error
    try:
        data = read_regular(path, MAX_STATE_BYTES)
    except NotRegular as exc:  # replaced since the stat
        raise NotOurs("something else") from exc
    except UnfitFile as exc:
        if exc.too_large:
            raise TooLarge(str(exc)) from exc
        raise StateError(str(exc)) from exc
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:  # JSONDecodeError, and ints past the digit limit
        raise StateError(f"not valid JSON: {exc}") from exc
    except RecursionError as exc:
        raise StateError("not valid JSON: nested too deeply") from exc
    return _parse(doc), zlib.crc32(data)


def _parse(doc: object) -> dict[str, ReviewMarks]:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise StateError("not a prdigest-tui state file")
    if doc.get("version") != VERSION:
        raise StateError(f"unknown state version {_short(doc.get('version'))}")
    reviews = doc.get("reviews")
    if not isinstance(reviews, dict):
        raise StateError("`reviews` is not a mapping")
    out: dict[str, ReviewMarks] = {}
    for key, entry in reviews.items():
        if not isinstance(entry, dict):
            raise StateError(f"review {_short(key)} is not a mapping")
        marks = ReviewMarks()
        if entry.get("read") is not None:
            marks.read = _mark(entry["read"])
        items = entry.get("items", {})
        if not isinstance(items, dict):
            raise StateError(f"items of {_short(key)} are not a mapping")
        marks.items = {item: _mark(value) for item, value in items.items()}
        if entry.get("seen") is not None:
            marks.seen = _seen(entry["seen"])
        out[key] = marks
    return out


def _mark(raw: object) -> Mark:
    if (
        isinstance(raw, dict)
        and isinstance(raw.get("v"), bool)
        and _is_time(raw.get("t"))
        and _is_count(raw.get("c", 0))
        and isinstance(raw.get("h", ""), str)
    ):
        return Mark(raw["v"], Stamp(float(raw["t"]), raw.get("c", 0)), raw.get("h"))
    raise StateError(f"bad mark {_short(raw)}")


def _seen(raw: object) -> Seen:
    if (
        isinstance(raw, dict)
        and is_fingerprint(raw.get("v"))
        and _is_time(raw.get("t"))
        and _is_count(raw.get("c", 0))
    ):
        return Seen(raw["v"], Stamp(float(raw["t"]), raw.get("c", 0)))
    raise StateError("bad `seen` record")


def _is_time(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:  # an integer too large for a float
        return False


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**63


def _short(raw: object) -> str:
    text = repr(raw)
    return text if len(text) <= 80 else text[:77] + "..."


def _remove_leftovers(path: Path) -> None:
    """Delete temp files of writes that never finished (a writer killed mid-save).

    Called under the lock: every writer holds it while its temp file exists, so
    any temp file seen now belongs to a writer that is gone.
    """
    prefix = f".{path.name}."
    with contextlib.suppress(OSError):
        for name in os.listdir(path.parent):
            if name.startswith(prefix) and name.endswith(".tmp"):
                with contextlib.suppress(OSError):
                    os.unlink(path.parent / name)
