"""The review keys the reader knew when it last ran, so a start can tell what is new.

Kept only as 8-byte digests in the cache folder: it is derived, and losing it
costs at most one start that announces nothing new. Written atomically.
"""

from __future__ import annotations

import contextlib
import marshal
from collections.abc import Iterable
from pathlib import Path

from tui.core.model import digest
from tui.store.atomic import write_atomic
from tui.store.safe_read import read_regular

FORMAT = "prdigest-tui/known"
MAX_BYTES = 64 * 1024 * 1024


def load(path: Path) -> frozenset[str] | None:
    """The digests of the known keys, or None if there is no readable record."""
    try:
        doc = marshal.loads(read_regular(path, MAX_BYTES))
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(doc, tuple) and len(doc) == 2 and doc[0] == FORMAT and isinstance(doc[1], frozenset)):
        return None
    return doc[1]


def digests(keys: Iterable[str]) -> frozenset[str]:
    return frozenset(digest(key) for key in keys)


def save(path: Path, keys: Iterable[str]) -> bool:
    """Record `keys`; False (quietly) if the folder cannot be written."""
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, marshal.dumps((FORMAT, digests(keys))))
        return True
    return False
