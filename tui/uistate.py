"""Choices made in the UI that should outlive it (the theme), without Textual.

Kept in a small JSON file in the state folder, written atomically, so the
user's own config file is only ever read. A file that cannot be read is
treated as empty: losing a theme choice is not worth a warning.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from pathlib import Path

from .atomic import write_atomic as _write_atomic

FORMAT = "prdigest-tui/ui"
MAX_BYTES = 64 * 1024


def load(path: Path | None) -> dict[str, str]:
    if path is None:
        return {}
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return {}
            data = handle.read(MAX_BYTES + 1)
        doc = json.loads(data.decode("utf-8")) if len(data) <= MAX_BYTES else None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return {}
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        return {}
    return {key: value for key, value in doc.items() if isinstance(value, str) and key != "format"}


def save(path: Path | None, **choices: str) -> bool:
    """Merge `choices` into the file; False (quietly) if it cannot be written."""
    if path is None:
        return False
    doc = {**load(path), **choices, "format": FORMAT}
    data = json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8") + b"\n"
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_atomic(path, data)
        return True
    return False
