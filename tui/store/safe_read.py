"""Reading the reader's own small files (state, config, UI choices).

Opened without blocking and checked before reading, so a named pipe or a
device put in a file's place cannot hang the reader at start-up, and a huge
file is refused rather than read into memory.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

OPEN_FLAGS = (
    os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
)


class UnfitFile(OSError):
    """Not a regular file, or larger than allowed: the message says which."""

    def __init__(self, message: str, *, too_large: bool = False) -> None:
        super().__init__(message)
        self.too_large = too_large


class NotRegular(UnfitFile):
    """Not a regular file (a device, a named pipe, a folder...)."""


def read_regular(path: Path | str, limit: int, known: os.stat_result | None = None) -> bytes:
    """The bytes of the regular file at `path`, if it holds at most `limit` bytes.

    Anything but a regular file is refused before it is opened (`known`: the
    caller's `os.stat(path)`, just taken), and again after (it may have been
    swapped meanwhile); it is read with a bound, so a file that grows or lies
    about its size (`/proc`) cannot fill memory."""
    _check(known if known is not None else os.stat(path), limit)
    fd = os.open(path, OPEN_FLAGS)
    try:
        info = os.fstat(fd)
        _check(info, limit)
        data = _read_at_most(fd, limit + 1, info.st_size)
    finally:
        os.close(fd)
    if len(data) > limit:  # grew between the check and the read
        raise UnfitFile(f"larger than {_size(limit)}", too_large=True)
    return data


def _check(info: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise NotRegular("not a regular file")
    if info.st_size > limit:
        raise UnfitFile(f"larger than {_size(limit)}", too_large=True)


def _read_at_most(fd: int, limit: int, expected: int = 0) -> bytes:
    """Up to `limit` bytes. `expected`: the size `fstat` gave; a first read of
    more than that which comes back with no more is the whole file (a regular
    file's read is short only at its end), and spares the read that would
    return nothing."""
    if 0 < expected < limit:
        first = os.read(fd, expected + 1)
        if len(first) <= expected:
            return first
        chunks, size = [first], len(first)
    else:
        chunks, size = [], 0
    while size < limit:
        chunk = os.read(fd, min(limit - size, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _size(limit: int) -> str:
    mib = 1024 * 1024
    return f"{limit // mib} MB" if limit >= mib else f"{limit // 1024} KB"
