"""Crash-safe file replacement, shared by everything that writes the user's files.

Temp file in the same folder, write, flush, fsync, rename over the target,
then fsync the folder: a reader (or a crash) sees the old file or the new one,
never a mix. The temp file is removed if anything fails.

The temp file is created with `O_EXCL | O_NOFOLLOW`, so a name planted in a
folder others can write (a link to a file elsewhere) is never written through.
Its name says whose it is, `.{target}.{pid}.{random}.tmp`: a writer killed
before it could remove it (`kill -9`, SIGTERM's default action) leaves it
behind, and `remove_stale_temps` deletes it once that process is gone.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable
from pathlib import Path

CREATE_FLAGS = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_NOCTTY", 0)
)
"""How a file of ours is created: new (never an existing file, or a link
planted in its place, written through), not a terminal, not inherited."""


def _temp_name(path: Path) -> str:
    return f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"


def _create_temp(path: Path) -> tuple[int, Path]:
    for _ in range(100):
        tmp = path.with_name(_temp_name(path))
        try:
            return os.open(tmp, CREATE_FLAGS, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temp file name next to {path}")


def write_atomic(path: Path, *parts: bytes | bytearray | Iterable[bytes]) -> None:
    """The file is `parts`, in order: written one after the other, so a big file
    need not be joined into one more copy in memory. A part that is not bytes is
    an iterable of bytes, written as it yields them (a cache copying its
    bodies from other files, one at a time)."""
    fd, tmp = _create_temp(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            for part in parts:
                if isinstance(part, (bytes, bytearray)):
                    handle.write(part)
                else:
                    for piece in part:
                        handle.write(piece)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    except (OverflowError, ValueError):  # not a pid at all
        return False
    return True


def remove_stale_temps(path: Path) -> list[Path]:
    """Delete the temp files `write_atomic` left next to `path` in processes that
    are gone; never one of a live process (a save still under way), nor our own.
    Returns what was removed.

    A pid reused by an unrelated process keeps its temp file until that process
    ends: a leak for a while, never a save broken.
    """
    pattern = re.compile(rf"\.{re.escape(path.name)}\.([0-9]+)\.[0-9a-f]+\.tmp")
    removed: list[Path] = []
    try:
        names = os.listdir(path.parent)
    except OSError:
        return removed
    me = os.getpid()
    for name in names:
        match = pattern.fullmatch(name)
        if match is None:
            continue
        pid = int(match.group(1))
        if pid == me or _alive(pid):
            continue
        with contextlib.suppress(OSError):
            os.unlink(path.parent / name)
            removed.append(path.parent / name)
    return removed
