"""The reader's marks (reviews read, items checked), kept on disk.

Every mark carries the time it was made, so two instances writing the same file
merge instead of overwriting each other: on save, the file on disk is read under
a lock, the newer mark wins field by field, and the result is written atomically
(temp file, fsync, rename, fsync of the folder). A file that cannot be read is
moved aside, never overwritten, and the caller is told so it can warn the user.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
from collections.abc import Iterator
from pathlib import Path

from tui.core.marks import Mark, Marks, ReviewMarks, Seen
from tui.store.atomic import write_atomic as _write_atomic
from tui.store.safe_read import UnfitFile, read_regular

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]  # no locking where there is no fcntl

FORMAT = "prdigest-tui/state"
VERSION = 1


class StateError(Exception):
    """The state file exists but is not a state file we can read."""


class ReadState(Marks):
    """Marks in memory (`tui.core.marks`), and the one place that reads and
    writes the state file.

    `path=None` keeps marks in memory only (used when the state folder cannot
    be written).
    """

    def __init__(self, path: Path | None) -> None:
        super().__init__()
        self.path = path
        self.saving = path is not None
        self.warnings: list[str] = []

    # -- disk ----------------------------------------------------------------

    def load(self) -> None:
        """Read the state file; a broken one is moved aside with a warning."""
        if self.path is None:
            return
        try:
            self.reviews = _read(self.path)
        except (FileNotFoundError, NotADirectoryError):
            self.reviews = {}  # nothing there yet (or its folder cannot exist): `save` tells
        except (OSError, StateError) as exc:
            self.reviews = {}
            self._set_aside(exc)

    def save(self) -> bool:
        """Merge with the file on disk and write atomically.

        Returns True when marks from another instance were merged in, so the
        caller knows to redraw. Failures become warnings; marks stay in memory.
        """
        if self.path is None or not self.saving:
            return False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with _locked(self.path):
                try:
                    theirs = _read(self.path)
                except FileNotFoundError:
                    theirs = {}
                except StateError as exc:
                    self._set_aside(exc)
                    theirs = {}
                changed = _merge_into(self.reviews, theirs)
                _remove_leftovers(self.path)
                _write_atomic(self.path, _dump(self.reviews))
            return changed
        except OSError as exc:
            self.saving = False
            self.warnings.append(
                f"Cannot save marks to {self.path}: {exc.strerror or exc}. Marks are kept until you quit."
            )
            return False

    def _set_aside(self, exc: Exception) -> None:
        assert self.path is not None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{os.getpid()}")
        n = 1
        while os.path.lexists(aside):  # never replace an earlier one, even within the same second
            aside = aside.with_name(f"{self.path.name}.corrupt-{stamp}-{os.getpid()}-{n}")
            n += 1
        try:
            os.replace(self.path, aside)
        except OSError as move_error:
            self.saving = False
            self.warnings.append(
                f"State file {self.path} is unreadable ({exc}) and could not be moved aside "
                f"({move_error.strerror or move_error}); marks will not be saved."
            )
            return
        self.warnings.append(f"State file was unreadable ({exc}); moved to {aside}. Starting with no marks.")


MAX_STATE_BYTES = 64 * 1024 * 1024
"""A state file larger than this is not read (it is moved aside like a corrupt one)."""


def _read(path: Path) -> dict[str, ReviewMarks]:
    try:
        data = read_regular(path, MAX_STATE_BYTES)
    except UnfitFile as exc:
        raise StateError(str(exc)) from exc
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:  # JSONDecodeError, and ints past the digit limit
        raise StateError(f"not valid JSON: {exc}") from exc
    except RecursionError as exc:
        raise StateError("not valid JSON: nested too deeply") from exc
    return _parse(doc)


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
        and isinstance(raw.get("h", ""), str)
    ):
        return Mark(raw["v"], float(raw["t"]), raw.get("h"))
    raise StateError(f"bad mark {_short(raw)}")


def _seen(raw: object) -> Seen:
    if isinstance(raw, dict) and _is_fingerprint(raw.get("v")) and _is_time(raw.get("t")):
        return Seen(raw["v"], float(raw["t"]))
    raise StateError("bad `seen` record")


def _is_fingerprint(value: object) -> bool:
    """The shape `Review.fingerprint` writes: field digests, and [key, digest] pairs per section."""
    if not isinstance(value, dict):
        return False
    fields, items = value.get("fields", {}), value.get("items", {})
    return (
        isinstance(fields, dict)
        and all(isinstance(v, str) for v in fields.values())
        and isinstance(items, dict)
        and all(
            isinstance(pairs, list)
            and all(
                isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
                for pair in pairs
            )
            for pairs in items.values()
        )
    )


def _is_time(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:  # an integer too large for a float
        return False


def _short(raw: object) -> str:
    text = repr(raw)
    return text if len(text) <= 80 else text[:77] + "..."


def _dump(reviews: dict[str, ReviewMarks]) -> bytes:
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "reviews": {
            key: {
                **({"read": marks.read.to_json()} if marks.read else {}),
                **({"seen": marks.seen.to_json()} if marks.seen else {}),
                "items": {item: mark.to_json() for item, mark in sorted(marks.items.items())},
            }
            for key, marks in sorted(reviews.items())
        },
    }
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def _newer(ours: Mark | None, theirs: Mark | None) -> Mark | None:
    if theirs is None:
        return ours
    if ours is None or theirs.at > ours.at:
        return theirs
    return ours


def _merge_into(ours: dict[str, ReviewMarks], theirs: dict[str, ReviewMarks]) -> bool:
    """Fold `theirs` into `ours`, newer mark winning; True if `ours` changed in value."""
    changed = False
    for key, their_marks in theirs.items():
        mine = ours.setdefault(key, ReviewMarks())
        read = _newer(mine.read, their_marks.read)
        if read is not mine.read:
            changed |= (mine.read.value if mine.read else False) != read.value  # type: ignore[union-attr]  # `read` is theirs: not None
            mine.read = read
        if their_marks.seen and (mine.seen is None or their_marks.seen.at > mine.seen.at):
            mine.seen = their_marks.seen
            changed = True
        for item, their_mark in their_marks.items.items():
            my_mark = mine.items.get(item)
            best = _newer(my_mark, their_mark)
            if best is not my_mark:
                changed |= (my_mark.value if my_mark else False) != best.value  # type: ignore[union-attr]  # `best` is theirs
                mine.items[item] = best  # type: ignore[assignment]  # as above
    return changed


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Serialise read-merge-write between instances with an advisory lock file."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


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
