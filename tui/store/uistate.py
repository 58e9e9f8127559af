"""Choices made in the UI that should outlive it (the theme), without Textual.

Kept in a small JSON file in the state folder, written atomically, so the
user's own config file is only ever read. A file that cannot be read is
treated as empty: losing a theme choice is not worth a warning.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from tui.store.atomic import write_atomic as _write_atomic
from tui.store.safe_read import read_regular

FORMAT = "prdigest-tui/ui"
MAX_BYTES = 64 * 1024


def load(path: Path | None) -> dict[str, str]:
    if path is None:
        return {}
    try:
        doc = json.loads(read_regular(path, MAX_BYTES).decode("utf-8"))
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
