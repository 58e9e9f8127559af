"""The saved table checked in another process while the reader imports Textual.

Before a start trusts the saved table (`tui.load.table_file`) it checks the
file (its CRC, every column's values: ~15-25 ms at 100,000 reviews) and the
entry files (a walk of the folders and a `stat` of every file: ~40-60 ms).
Done after the first frame, that was most of what a start from the table
spent before everything was on screen (bench/README.md). So the command line
opens the table file before Textual is imported and starts a Python of its
own (`python -m tui.load.table_check`, spawned: a fork made the reader copy
the pages it wrote while importing Textual, ~40 ms more to its first frame)
that checks that very file (the descriptor, as fd 3) and the entry files on
the other core; after the first frame the reader takes its answer (a byte)
and maps the file without checking it again.

The files are checked as they were when the checker ran, before the first
frame: one changed since is what the watcher's catch-up finds at its start
(`tui.load.reload.missed_changes`), as for any change made before it starts.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tui.load.cache_format import open_regular
from tui.load.pool import WORKER_PYTHON

if TYPE_CHECKING:
    from tui.load.table_file import SavedTable

CHECK_TIMEOUT_S = 10.0
"""How long the reader waits for the checker's answer after its first frame
(it has had Textual's import and the first frame: ~0.3 s for ~0.15 s of
work, its own start included) before it loads without the table."""
TABLE_FD = 3
"""The table file, in the checker."""


class TableCheck:
    """The table file, open, and the process checking it."""

    def __init__(self, fd: int, cache_path: Path, version_key: str, pid: int, read_end: int) -> None:
        self.fd, self.cache_path, self.version_key = fd, cache_path, version_key
        self._child: tuple[int, int] | None = (pid, read_end)

    def saved(self, timeout: float = CHECK_TIMEOUT_S) -> SavedTable | None:
        """The table, if the checker found it sound and every file as saved; else None."""
        from tui.load.table_file import map_fd, saved_from

        sound = self._answer(timeout)
        mapped = map_fd(self.fd)  # closes it
        if not sound or mapped is None:
            return None
        return saved_from(mapped, self.cache_path, self.version_key, checked=True)

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
        """Not wanted after all (a quit before the first frame): the checker ends now."""
        child, self._child = self._child, None
        if child is not None:
            pid, read_end = child
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            os.close(read_end)
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, 0)
        with contextlib.suppress(OSError):
            os.close(self.fd)


def start_check(cache_path: Path, version_key: str, roots: Sequence[Path]) -> TableCheck | None:
    """Open the table saved next to `cache_path` and start its checker; None if
    there is no table or no process could be started."""
    if not hasattr(os, "posix_spawn"):
        return None
    opened = open_regular(cache_path.with_name(cache_path.name + "-table"))  # `table_file.table_path`
    if opened is None:
        return None
    fd = opened[0]
    try:
        read_end, write_end = os.pipe()
    except OSError:
        os.close(fd)
        return None
    argv = [*WORKER_PYTHON, "-m", "tui.load.table_check", str(cache_path), version_key, *map(str, roots)]
    try:
        pid = os.posix_spawn(
            argv[0],
            argv,
            os.environ,
            file_actions=[
                (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                (os.POSIX_SPAWN_DUP2, write_end, 1),
                (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
                (os.POSIX_SPAWN_DUP2, fd, TABLE_FD),
            ],
        )
    except OSError:
        pid = None
    os.close(write_end)
    if pid is None:
        os.close(read_end)
        os.close(fd)
        return None
    return TableCheck(fd, cache_path, version_key, pid, read_end)


def main(argv: Sequence[str]) -> int:
    """The checker: 1 on standard output if the table (fd 3) is sound and
    still the library of the roots, else 0."""
    from tui.core.table_library import readable
    from tui.load.table_file import map_fd, saved_from

    cache_path, version_key, *roots = argv
    mapped = map_fd(TABLE_FD)
    saved = saved_from(mapped, Path(cache_path), version_key) if mapped is not None else None
    sound = saved is not None and readable(saved.table()) and saved.still_valid([Path(r) for r in roots])
    os.write(1, b"1" if sound else b"0")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
