"""Crash-safe file replacement, shared by everything that writes the user's files.

Temp file in the same folder, write, flush, fsync, rename over the target,
then fsync the folder: a reader (or a crash) sees the old file or the new one,
never a mix. The temp file is removed if anything fails.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path


def write_atomic(path: Path, *parts: bytes | bytearray | Iterable[bytes]) -> None:
    """The file is `parts`, in order: written one after the other, so a big file
    need not be joined into one more copy in memory. A part that is not bytes is
    an iterable of bytes, written as it yields them (a cache copying its
    bodies from other files, one at a time)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
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
