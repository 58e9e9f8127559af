"""A cold start of the reader asks the kernel for its module files all at once
(`tui.cli.main`, once the command line is not a command: `check` on a fresh CI
machine imports no Textual, and its own reads would queue behind 14 MB of it).

After a reboot (or once the page cache has dropped them) every module a start
imports is read from the disk when it is imported, one file after another:
the reader's ~100 modules, Textual's ~150, Rich's ~50 and the standard
library's ~110 before its first frame. Here, when the interpreter's own start
read from the disk (`getrusage`'s `ru_inblock`), a grandchild process walks
the compiled files of the packages the reader imports and asks the kernel to
read each ahead (`posix_fadvise(WILLNEED)`), so the disk has them in flight
together while the reader starts on this core; the imports then find them in
the page cache. A warm start (nothing read from the disk) does nothing but
that one check. The grandchild touches nothing but those files, and ends
when it has asked for them all; its parent ends at once and is waited for,
so no zombie is left. (bench/README.md has the measurements.)
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Iterator

PACKAGES = ("tui", "textual", "rich")
"""Packages whose every compiled module is read ahead (most are imported on
the way to the first frame; the rest cost the disk little when asked together)."""

STANDARD_LIBRARY = ("", "asyncio", "collections", "importlib", "json", "concurrent/futures", "email")
"""Folders of the standard library whose compiled modules are read ahead ("": its top)."""


def cold() -> bool:
    """Did this process read from a device (not the page cache) so far?"""
    from tui.load.pool_wait import disk_reads

    return disk_reads() > 0


def start() -> bool:
    """On a cold start, read ahead in a grandchild process; whether one was started."""
    if not hasattr(os, "posix_fadvise") or not cold():
        return False
    return spawn(module_files())


def spawn(paths: Iterable[str]) -> bool:
    """Ask for `paths` ahead in a grandchild process (`paths` is only consumed
    there); whether it was started."""
    try:
        child = os.fork()
    except OSError:
        return False
    # The forked processes' lines are not seen by coverage; tests/cli/test_read_ahead.py sees their work.
    if child == 0:  # pragma: no cover
        try:
            if os.fork() == 0:
                os.closerange(0, 3)  # a terminal the reader leaves is not held open
                read_ahead(paths)
        finally:
            os._exit(0)
    with contextlib.suppress(ChildProcessError):  # SIGCHLD ignored: reaped already
        os.waitpid(child, 0)
    return True


def read_ahead(paths: Iterable[str]) -> None:
    """Ask the kernel to read each file of `paths` into the page cache."""
    flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
    for path in paths:
        try:
            fd = os.open(path, flags)
        except OSError:
            continue
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_WILLNEED)
        except OSError:
            pass
        finally:
            os.close(fd)


def module_files() -> Iterator[str]:
    """The compiled files of `PACKAGES` and of the standard library's folders
    in `STANDARD_LIBRARY`, for this interpreter (`sys.implementation.cache_tag`)."""
    import importlib.util

    tag = sys.implementation.cache_tag
    if not tag:
        return
    for name in PACKAGES:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        for top in (spec.submodule_search_locations or []) if spec is not None else []:
            yield from compiled_files(top, tag)
    library = os.path.dirname(os.__file__)
    for folder in STANDARD_LIBRARY:
        yield from compiled_files(os.path.join(library, folder), tag, deep=False)


def compiled_files(top: str, tag: str, *, deep: bool = True) -> Iterator[str]:
    """Every `__pycache__/*.<tag>.pyc` under the folder `top` (`.opt-N.pyc`
    under `python -O`), only its own with `deep=False`; folders that cannot be
    read are left out."""
    try:
        entries = list(os.scandir(top))
    except OSError:
        return
    ending = f".{tag}.pyc" if not sys.flags.optimize else f".{tag}.opt-{sys.flags.optimize}.pyc"
    for entry in entries:
        if entry.name == "__pycache__":
            try:
                yield from (found.path for found in os.scandir(entry.path) if found.name.endswith(ending))
            except OSError:
                continue
        elif deep and not entry.name.startswith(".") and entry.is_dir(follow_symlinks=False):
            yield from compiled_files(entry.path, tag)
