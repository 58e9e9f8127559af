"""The lock that serialises read-merge-write of one state file between
instances (`tui.store.state`, and this machine's file in a shared folder):
an advisory lock on a file next to it, never opened through a link."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]


class _Told(OSError):
    """An error whose message is the whole story (str, not strerror)."""


class UnfitLock(OSError):
    """The lock file is not a regular file: a link planted to make us create or
    open a file elsewhere, or something else in its place."""


_LOCK_FLAGS = (
    os.O_RDWR
    | os.O_CREAT
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def _open_lock(path: Path) -> int:
    """The lock file, created if missing; never through a symbolic link."""
    lock = path.with_name(path.name + ".lock")
    try:
        fd = os.open(lock, _LOCK_FLAGS, 0o600)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO, errno.EISDIR):  # a link, a socket, a folder
            raise UnfitLock(f"the lock file {lock} is not a regular file") from exc
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UnfitLock(f"the lock file {lock} is not a regular file")
    return fd


@contextlib.contextmanager
def locked(path: Path, wait: float | None = None) -> Iterator[None]:
    """Serialise read-merge-write between instances with an advisory lock file,
    waiting at most `wait` seconds for another instance to let go (None: for ever)."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    fd = _open_lock(path)
    try:
        if wait is None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        else:
            _flock_within(fd, wait)
        yield
    finally:
        os.close(fd)


def _flock_within(fd: int, wait: float) -> None:
    deadline = time.monotonic() + wait
    pause = 0.005
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Told(f"the state file is locked by another program (waited {wait:g} s)") from None
            time.sleep(min(pause, left))
            pause = min(pause * 2, 0.1)
