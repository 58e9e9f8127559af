"""Small copies `status` keeps in the cache folder of what it read from a
user's file (config.yaml, the state file), reused while that file is
unchanged: a status bar calls `status` every few seconds.

A copy is keyed by the file as it is now (path, device, inode, size, mtime and
ctime: an edit, a rename over it or a touch is seen) and by the copy's own
format and version. A file changed less than `RACY_NS` before it was read is
not kept: its next change could come within the same mtime tick. A copy that
is damaged, of another version or of another file is a miss, and one that
cannot be written is left out: never an error.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import time
from pathlib import Path

RACY_NS = 2_000_000_000


def file_key(form: str, version: int, path: Path, info: os.stat_result) -> tuple:
    """The key of a copy of `path` (`info`: its `os.stat`) in the format `form`."""
    return (
        form,
        version,
        str(path),
        info.st_dev,
        info.st_ino,
        info.st_size,
        info.st_mtime_ns,
        info.st_ctime_ns,
    )


def settled(key: tuple) -> bool:
    """Whether the file `key` was made of (`file_key`) may be kept: it last
    changed more than `RACY_NS` ago."""
    return time.time_ns() - max(key[6], key[7]) > RACY_NS


def read_copy(copy: Path, key: tuple, fields: int, limit: int) -> tuple | None:
    """The copy at `copy`: a tuple of `fields` items, the first `key`; None for
    any other file there (or none)."""
    from tui.store.safe_read import UnfitFile, read_regular

    try:
        doc = marshal.loads(read_regular(copy, limit))
    except (OSError, UnfitFile, EOFError, ValueError, TypeError):
        return None
    if not isinstance(doc, tuple) or len(doc) != fields or doc[0] != key:
        return None
    return doc


def write_copy(copy: Path, data: bytes) -> None:
    """Write a copy atomically; nothing if it cannot be written."""
    from tui.store.atomic import write_atomic

    with contextlib.suppress(OSError, ValueError):
        copy.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(copy, data)
