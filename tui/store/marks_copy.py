"""What `status` needs of the state file, kept in the cache folder while the
file is unchanged: which reviews are read, and for each read (or checked)
review the digest of the fingerprint the reader saw
(`tui.core.changes.fingerprint_digest`). Reading the state file is parsing
all its JSON and building every mark; the copy is a few sets.

Keyed, kept and missed as `tui.store.kept_copy` says; not kept for a file
with warnings either, or for a shared state folder (which is read as usual). When a read review's digest differs from the one kept,
`status` compares the two as the reader does (`tui.core.marks.changes`);
the answer is kept too, with the review's digest it was made for.
A copy damaged or of another version is a miss, never an error.
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tui.store.kept_copy import file_key, read_copy, settled, write_copy

if TYPE_CHECKING:
    from tui.store.state import ReadState

FORMAT = "prdigest-tui/status-marks"
VERSION = 1
"""Bump when what is kept, or how the state file is read for it, changes."""
MAX_BYTES = 64 * 1024 * 1024


class StatusMarks:
    """The marks as `status` counts them."""

    __slots__ = (
        "_copy",
        "_key",
        "_make",
        "_state",
        "dirty",
        "known",
        "news",
        "read",
        "title_marks",
        "verdicts",
    )

    def __init__(
        self,
        read: frozenset[str],
        news: dict[str, bytes],
        known: frozenset[str],
        title_marks: bool,
        verdicts: dict[str, tuple[bytes, bool]],
    ) -> None:
        self.read, self.news, self.known, self.title_marks = read, news, known, title_marks
        self.verdicts = verdicts
        """review key -> (the review's digest, updated since read?): answers made by comparing."""
        self.dirty = False
        self._state: ReadState | None = None
        self._copy: Path | None = None
        self._key: tuple | None = None
        self._make: Callable[[], ReadState] | None = None  # makes `_state`, when it is None

    def dumps(self) -> bytes:
        return marshal.dumps((self._key, self.read, self.news, self.known, self.title_marks, self.verdicts))


def from_state(state: ReadState) -> StatusMarks:
    """The counts' view of marks already loaded."""
    from tui.core.changes import fingerprint_digest

    news = {}
    for key in state.reviews:
        if state.touched(key) and (seen := state.seen(key)) is not None:
            news[key] = fingerprint_digest(seen)
    title_marks = any(":" in key for key in state.reviews)
    known = frozenset(state.reviews) if title_marks else frozenset()
    marks = StatusMarks(state.read_keys(), news, known, title_marks, {})
    marks._state = state
    return marks


def _stamp(
    path: Path, missing: tuple[type[OSError], ...] = (FileNotFoundError, NotADirectoryError)
) -> tuple | None:
    """The copy's key for the state file as it is now; None if it cannot be
    stat'ed (read as usual then), but a missing file is `missing` raised."""
    try:
        info = os.stat(path)
    except missing:
        raise
    except (OSError, ValueError):
        return None
    return file_key(FORMAT, VERSION, path, info)


def open_status_marks(path: Path | None, copy: Path | None, make: Callable[[], ReadState]) -> StatusMarks:
    """The marks `make()` reads (not loaded yet), from the copy at `copy` when it
    is one of the state file `path` as it is now (None: not a plain state file,
    a shared folder, read as usual); else they are read (their warnings are
    `warnings`) and, when they can be, the copy written. `make` is called only
    when the marks are read: the state's modules are not imported for a copy."""
    key = None
    if copy is not None and path is not None:
        try:
            key = _stamp(path)
        except (FileNotFoundError, NotADirectoryError):
            # No state file: no marks, and nothing to warn about (as `ReadState.load`).
            empty = StatusMarks(frozenset(), {}, frozenset(), False, {})
            empty._make = make
            return empty
        if key is not None and (kept := _kept(copy, key)) is not None:
            kept._make, kept._copy, kept._key = make, copy, key
            return kept
    state = make()
    state.load(move_aside=False)  # status only reads
    marks = from_state(state)
    if (
        key is not None
        and not state.warnings
        and state.path is not None
        and _stamp(state.path, ()) == key
        and settled(key)
    ):
        marks._copy, marks._key = copy, key
        marks.dirty = True
    return marks


def loaded(marks: StatusMarks) -> ReadState:
    """The marks in full, for a comparison (read now when they came from the
    copy; the copy is then not written again unless the state file is still
    the one it was made of)."""
    state = marks._state
    if state is None:
        assert marks._make is not None
        state = marks._state = marks._make()
        state.load(move_aside=False)
        if state.warnings or state.path is None or _stamp(state.path, ()) != marks._key:
            marks._copy = None  # changed since: its answers are not this copy's
    return state


def warnings(marks: StatusMarks) -> list[str]:
    """What reading the state file warned about (nothing when it was not read)."""
    return marks._state.warnings if marks._state is not None else []


def keep(marks: StatusMarks) -> None:
    """Write the copy if it changed and may be kept; never an error."""
    copy = marks._copy
    if copy is None or not marks.dirty:
        return
    write_copy(copy, marks.dumps())
    marks.dirty = False


def _kept(copy: Path, key: tuple) -> StatusMarks | None:
    doc = read_copy(copy, key, 6, MAX_BYTES)
    if doc is None:
        return None
    _, read, news, known, title_marks, verdicts = doc
    try:
        if not (
            isinstance(read, frozenset)
            and isinstance(known, frozenset)
            and isinstance(news, dict)
            and isinstance(verdicts, dict)
            and type(title_marks) is bool
            and all(type(k) is str for k in read)
            and all(type(k) is str for k in known)
            and all(type(k) is str and type(v) is bytes for k, v in news.items())
            and all(
                type(k) is str
                and type(v) is tuple
                and len(v) == 2
                and type(v[0]) is bytes
                and type(v[1]) is bool
                for k, v in verdicts.items()
            )
        ):
            return None
    except TypeError:
        return None
    return StatusMarks(read, news, known, title_marks, verdicts)
