"""The stylesheet's parsed rules, kept in the cache folder from one start to
the next (`tui.ui.patches.kept_styles` makes and reads the bytes).

A copy is keyed by its own format and version and by everything the rules
depend on besides their sources (which are in the rules' own keys): the
theme's variables, Textual's and Python's versions. Kept and read as
`tui.store.kept_copy` keeps and reads the status copies: a copy that is
damaged or of another key is a miss, and one that cannot be written is left
out; never an error.
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping
from pathlib import Path

from tui.store.kept_copy import read_copy, write_copy

FORMAT = "prdigest-tui/stylesheet"
VERSION = 1
MAX_BYTES = 8 * 1024 * 1024
"""Far above what a stylesheet's rules take (~60 KB): a bigger file is not ours."""


def key(variables: Mapping[str, str], versions: tuple) -> tuple:
    """The key of rules parsed with `variables` under `versions` (Textual's, Python's)."""
    return (FORMAT, VERSION, versions, tuple(sorted(variables.items())))


def read(path: Path, copy_key: tuple) -> bytes | None:
    """The rules kept at `path` under `copy_key`; None for anything else there (or nothing)."""
    doc = read_copy(path, copy_key, 2, MAX_BYTES)
    return doc[1] if doc is not None and isinstance(doc[1], bytes) else None


def write(path: Path, copy_key: tuple, rules: bytes) -> None:
    """Keep `rules` under `copy_key`, atomically; nothing if it cannot be written."""
    write_copy(path, marshal.dumps((copy_key, rules)))
