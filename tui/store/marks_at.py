"""Which marks a command reads: `--state`, the config's `state:`, or the default."""

from __future__ import annotations

from pathlib import Path

from tui.store.state import ReadState


def open_marks(where: str | Path | None) -> ReadState:
    """The marks kept where `--state` or the config's `state:` says (a file, or
    a shared folder: `locations.state_place`), else in the default state file.
    Not loaded yet; a shared folder's code is imported only for one."""
    from tui.store import locations

    if where is None:
        path = locations.state_file()
        return ReadState(path, copy=locations.state_copy_file(path))
    path, folder = locations.state_place(where)
    if not folder:
        return ReadState(path, copy=locations.state_copy_file(path))
    from tui.store.shared import open_state

    return open_state(path, folder)
