"""The saved table checked in a child process while the reader imports Textual.

Before a start trusts the saved table (`tui.load.table_file`) it checks the
file (its CRC, every column's values: ~15-25 ms at 100,000 reviews) and the
entry files (a walk of the folders and a `stat` of every file: ~40-60 ms).
Done after the first frame, that was most of what a start from the table
spent before everything was on screen (bench/README.md). The command line
maps the table before Textual is imported and forks a child that checks that
very mapping and the files, on the other core, while this process imports
Textual and draws; after the first frame the reader takes the child's answer
(one byte) and reads the mapping without checking it again.

The files are checked as they were when the child ran, before the first
frame: one changed since is what the watcher's catch-up finds at its start
(`tui.load.reload.missed_changes`), as for any change made before it starts.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import select
import signal
from collections.abc import Sequence
from pathlib import Path

from tui.load.table_file import SavedTable, map_saved, saved_from

CHECK_TIMEOUT_S = 10.0
"""How long the reader waits for the child's answer after its first frame
(it has had Textual's import and the first frame to check: ~0.3 s for ~0.1 s
of work) before it loads without the table."""


class TableCheck:
    """The mapped table and the child checking it."""

    def __init__(
        self, mapped: mmap.mmap, cache_path: Path, version_key: str, pid: int, read_end: int
    ) -> None:
        self.mapped, self.cache_path, self.version_key = mapped, cache_path, version_key
        self._child: tuple[int, int] | None = (pid, read_end)

    def saved(self, timeout: float = CHECK_TIMEOUT_S) -> SavedTable | None:
        """The table, if the child found it sound and every file as saved; else None."""
        if not self._answer(timeout):
            return None
        return saved_from(self.mapped, self.cache_path, self.version_key, checked=True)

    def _answer(self, timeout: float) -> bool:
        child, self._child = self._child, None
        if child is None:
            return False
        pid, read_end = child
        answer = b""
        try:
            ready, _, _ = select.select([read_end], [], [], timeout)
            if ready:
                answer = os.read(read_end, 1)
            else:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        except OSError:
            answer = b""
        finally:
            os.close(read_end)
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, 0)
        return answer == b"1"

    def close(self) -> None:
        """Not wanted after all (a quit before the first frame): the child ends now."""
        child, self._child = self._child, None
        if child is not None:
            pid, read_end = child
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            os.close(read_end)
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, 0)


def start_check(cache_path: Path, version_key: str, roots: Sequence[Path]) -> TableCheck | None:
    """Map the table saved next to `cache_path` and start its check; None if
    there is no table or no fork. Only before any thread has started."""
    if not hasattr(os, "fork"):
        return None
    mapped = map_saved(cache_path)
    if mapped is None:
        return None
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the child: check, answer, and leave without running anything of the parent's
        code = 1
        try:
            os.close(read_end)
            os.write(write_end, b"1" if _sound(mapped, cache_path, version_key, roots) else b"0")
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return TableCheck(mapped, cache_path, version_key, pid, read_end)


def _sound(mapped: mmap.mmap, cache_path: Path, version_key: str, roots: Sequence[Path]) -> bool:
    from tui.core.table_library import readable

    saved = saved_from(mapped, cache_path, version_key)
    return saved is not None and readable(saved.table()) and saved.still_valid(roots)
