"""What `status` reads of config.yaml (views, mute, state), kept in the cache
folder and reused while the file is unchanged: a status bar calls `status`
every few seconds, and reading YAML means importing PyYAML, most of a call.

The copy is keyed by everything its answer depends on: the file as
`tui.store.kept_copy` keys it, and HOME (`state: ~/...`); kept, read and
missed as that module says. Never an error: the file is then read as usual.
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from tui.store.kept_copy import file_key, read_copy, settled, write_copy

if TYPE_CHECKING:  # imported where a config is read: `status` without one needs no view
    from tui.core.views import View

FORMAT = "prdigest-tui/status-config"
VERSION = 1
"""Bump when what is kept, or how config.yaml is read for it, changes."""
MAX_BYTES = 1024 * 1024


class Settings(NamedTuple):
    """What `status` reads of the config."""

    views: Mapping[str, View]
    mute: frozenset[str]
    state: str | None


NONE = Settings({}, frozenset(), None)


def settings(path: Path, copy: Path | None) -> Settings:
    """The settings of the config at `path` (none without a file), from the
    copy at `copy` when it is one of this file as it is now."""
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return NONE
    except (OSError, ValueError):
        return _read(path)  # the reader says what is wrong (status does not warn about the config)
    key = (*file_key(FORMAT, VERSION, path, info), os.environ.get("HOME"))
    if copy is not None and (kept := _kept(copy, key)) is not None:
        return kept
    found = _read(path)
    if copy is not None and settled(key):
        views: tuple = tuple(tuple(view) for view in found.views.values())  # marshal takes plain tuples
        write_copy(copy, marshal.dumps((key, views, found.mute, found.state)))
    return found


def _read(path: Path) -> Settings:
    from tui.store import config

    found = config.load(path, keys=False)
    return Settings(found.views, found.mute, found.state)


def _kept(copy: Path, key: tuple) -> Settings | None:
    from tui.core.views import View

    doc = read_copy(copy, key, 4, MAX_BYTES)
    if doc is None:
        return None
    _, views, mute, state = doc
    if not (
        isinstance(views, tuple)
        and isinstance(mute, frozenset)
        and all(isinstance(tag, str) for tag in mute)
        and (state is None or isinstance(state, str))
    ):
        return None
    out: dict[str, View] = {}
    for fields in views:
        if not (isinstance(fields, tuple) and len(fields) == len(View._fields)):
            return None
        view = View(*fields)
        if not (
            isinstance(view.name, str)
            and all(isinstance(s, frozenset) for s in (view.tags, view.verdicts, view.repos))
            and isinstance(view.unread, bool)
            and isinstance(view.unchecked, bool)
            and isinstance(view.search, str)
        ):
            return None
        out[view.name] = view
    return Settings(out, mute, state)
