"""Files in and out of the kernel's page cache, for tests of cold starts:
`evict` drops a file's pages (`posix_fadvise(DONTNEED)` after an fsync, so
they are clean; honoured on local file systems, not on tmpfs), `resident`
reads how much of a file is cached (`mincore` on a mapping of it)."""

from __future__ import annotations

import ctypes
import mmap
import os
from pathlib import Path


def evict(paths: list[Path]) -> None:
    """Drop every file of `paths` from the page cache."""
    for path in paths:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def resident(path: Path) -> float:
    """The share of `path`'s pages in the page cache."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [
        ctypes.c_void_p,
        ctypes.c_size_t,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_long,
    ]
    libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    size = path.stat().st_size
    fd = os.open(path, os.O_RDONLY)
    try:
        address = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
    finally:
        os.close(fd)
    assert address not in (None, ctypes.c_void_p(-1).value)
    try:
        pages = (size + mmap.PAGESIZE - 1) // mmap.PAGESIZE
        vector = ctypes.create_string_buffer(pages)
        assert libc.mincore(ctypes.c_void_p(address), size, vector) == 0
        return sum(byte & 1 for byte in vector.raw) / pages
    finally:
        libc.munmap(ctypes.c_void_p(address), size)
