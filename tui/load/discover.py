"""Which files are entry files: finding them under folders, and deciding what a
change seen by the watcher means. No YAML here: a warm start, which reads the
parse cache, needs this but not the parser (importing PyYAML is slow).
"""

from __future__ import annotations

import heapq
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from operator import attrgetter
from pathlib import Path
from typing import Any, TypeVar

from tui.core.model import Location, Problem
from tui.core.text import one_line, unsafe_name

SUFFIXES = (".yaml", ".yml")
_T = TypeVar("_T")


def is_entry_file(path: Path) -> bool:
    """Entry files by name, leaving out hidden files and editors' temporary files."""
    return _is_entry_name(path.name)


def _is_entry_name(name: str) -> bool:
    if not name.endswith(SUFFIXES) or name.startswith((".", "#", "~")):
        return False
    return not name.endswith("~")


def _is_dir(path: Path) -> bool:
    """Like `Path.is_dir`, but False instead of an exception for any error (EACCES, ELOOP)."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _lexists(path: Path) -> bool:
    try:
        os.lstat(path)
    except (OSError, ValueError):
        return False
    return True


def _inside(path: str | Path, real_folder: str) -> bool:
    real = os.path.realpath(path)
    return real == real_folder or real.startswith(real_folder.rstrip(os.sep) + os.sep)


def _skip_reason(path: str | Path, real_folder: str, is_link: bool) -> str | None:
    """Why an entry file found in a folder is not read, or None to read it.

    A symbolic link is followed only when it stays inside the folder: a shared
    digest must not make the reader (or `check` in someone's CI) read and quote
    `~/.ssh/…` or `/etc/…`.
    """
    if is_link and not _inside(path, real_folder):
        target = os.path.realpath(path)
        return f"symbolic link to {target}, outside the folder {real_folder}; skipped"
    return None


def _bad_name(where: str, name: str, what: str) -> Problem:
    return safe_problem(
        Location(Path(where), 1, 1), f"{what} {name!r} skipped: its name has control characters"
    )


def _walk_sorted(folder: Path, real_folder: str, problems: list[Problem]) -> Iterator[Path]:
    """`_entries` as `Path`s, each made as `base / name` would make it."""
    last, base, prefix = "", folder, ""
    child = _child if _FAST_CHILD else None
    for dirpath, name in _entries(os.fspath(folder), real_folder, problems):
        if dirpath is not last:
            last, base = dirpath, Path(dirpath)
            prefix = _prefix(str(base))
        yield child(base, name, prefix) if child is not None else base / name


_FAST_CHILD = (
    os.sep == "/" and (3, 11) <= sys.version_info[:2] < (3, 12) and hasattr(Path, "_from_parsed_parts")
)
"""`Path`'s own parts set at once (Python 3.11's pathlib, POSIX): `base / name`
parses `name`, joins the parts and, at the first `str()`, formats them again,
~2 µs a file, 20 ms of a 10,000-file walk (the reader walks every start)."""


def _child(base: Path, name: str, prefix: str) -> Path:
    """`base / name` for a name from a folder listing (no `/`, never `.` or
    `..`, so parsing it gives `[name]`), with its `str` already made: the
    parts as `_make_child` joins them, and `str()` as `__str__` would format it."""
    path = base._from_parsed_parts(base._drv, base._root, [*base._parts, name])  # type: ignore[attr-defined]
    path._str = prefix + name
    return path


def _walk_names(folder: Path, real_folder: str, problems: list[Problem]) -> Iterator[str]:
    """`_walk_sorted` with each file as the `str` of its `Path`: `status` takes
    them as they are, and hashing 10,000 `Path`s costs it milliseconds."""
    last, prefix = "", ""
    for dirpath, name in _entries(os.fspath(folder), real_folder, problems):
        if dirpath is not last:
            last, prefix = dirpath, _prefix(dirpath)
        yield prefix + name


def _prefix(dirpath: str) -> str:
    """What `str(Path(dirpath) / name)` puts before `name` (for "." and a trailing "/")."""
    return "" if dirpath == "." else dirpath if dirpath.endswith("/") else dirpath + "/"


def _entries(top: str, real_folder: str, problems: list[Problem]) -> Iterator[tuple[str, str]]:
    """The folder and name of each entry file under `top`, in sorted order (as
    `Path`s compare: a folder's entries by name, a subfolder's files where its
    name sorts), each folder listed only when the walk reaches it, and its
    entries looked at only as the walk passes them: the first files of a big
    tree, or of a folder of 10,000, are found without the rest (the first frame
    needs only those). Skipped files and unreadable folders go to `problems` as
    the walk comes to them.

    Links to folders are not followed (as `os.walk` does not), so a link cannot
    pull in a tree from elsewhere or loop. `os.scandir` tells links and folders
    apart from the directory listing itself: at 10,000 reviews, a `stat` of
    each file (what `os.walk` and `os.path.islink` cost) was ~half of finding
    them.
    """
    listings = [_listing(top, problems)]
    while listings:
        base, entries = listings[-1]
        for entry in entries:
            name = entry.name
            try:
                is_dir = entry.is_dir()  # through a link, as os.walk lists it: such a link is not walked
            except OSError:
                is_dir = False
            if is_dir:
                if name.startswith("."):
                    continue
                if unsafe_name(name):
                    problems.append(_bad_name(base, name, "folder"))
                elif not entry.is_symlink():
                    listings.append(_listing(_prefix(base) + name, problems))  # "a", not "./a"
                    break
                continue
            if not _is_entry_name(name):
                continue
            if unsafe_name(name):
                problems.append(_bad_name(base, name, "file"))
                continue
            if entry.is_symlink():
                reason = _skip_reason(entry.path, real_folder, True)
                if reason is not None:
                    problems.append(safe_problem(Location(Path(entry.path), 1, 1), reason))
                    continue
            yield base, name
        else:
            listings.pop()


def _listing(dirpath: str, problems: list[Problem]) -> tuple[str, Iterator[os.DirEntry[str]]]:
    """A folder, and its entries in name order (none if it cannot be read)."""
    try:
        with os.scandir(dirpath) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError as error:
        where = Path(error.filename) if error.filename else Path(dirpath)
        problems.append(safe_problem(Location(where, 1, 1), f"cannot read folder: {error.strerror or error}"))
        entries = []
    return dirpath, iter(entries)


def walk(paths: Iterable[Path], problems: list[Problem]) -> Iterator[Path]:
    """The entry files `discover` finds, in the same (sorted) order, found as
    they are asked for (see `_entries`); problems go to `problems` as the
    walk comes to them (those of missing paths at once)."""
    yield from _merged(_root_walks(paths, problems, _walk_sorted, lambda root: root), _parts)


def _root_walks(
    paths: Iterable[Path],
    problems: list[Problem],
    walk_folder: Callable[[Path, str, list[Problem]], Iterator[_T]],
    as_file: Callable[[Path], _T],
) -> list[Iterator[_T]]:
    """One sorted walk per path given: a folder's entry files, a file named
    explicitly as it is (read whatever it is; `load_file` says what is wrong);
    a missing path is a problem at once."""
    walks: list[Iterator[_T]] = []
    for root in paths:
        if _is_dir(root):
            walks.append(walk_folder(root, os.path.realpath(root), problems))
        elif _lexists(root):
            walks.append(iter((as_file(root),)))
        else:
            problems.append(safe_problem(Location(root, 1, 1), _missing(root)))
    return walks


def _merged(walks: list[Iterator[_T]], key: Callable[[_T], Any]) -> Iterator[_T]:
    """Sorted walks as one, each file once (a file under two of the paths
    given, or named twice)."""
    if len(walks) == 1:
        yield from walks[0]
        return
    last = None
    for path in heapq.merge(*walks, key=key):
        if path != last:
            yield path
        last = path


_parts = attrgetter("parts")


def path_order(name: str) -> list[str]:
    """`Path(name).parts`, for sorting strings as `Path`s sort (by parts, so
    `a/b` before `a-c`), when `name` is the `str` of a `Path` (POSIX)."""
    if name == "/":
        return ["/"]
    parts = name.split("/")
    if name.startswith("/"):
        if name.startswith("//") and not name.startswith("///"):
            return ["//", *parts[2:]]
        parts[0] = "/"
    return parts


def walk_names(paths: Iterable[Path], problems: list[Problem]) -> Iterator[str]:
    """`walk`, with each file as the `str` of its `Path`, found as asked for:
    what a parse worker walks (`tui.load.pool`), the same files in the same
    order as the reader's own walk of the same tree."""
    walks: list[Iterator[str]] = _root_walks(paths, problems, _walk_names, str)
    if os.sep != "/":  # pragma: no cover - Windows: as `Path`s sort there
        yield from (os.fspath(path) for path in sorted(set(map(Path, _merged(walks, Path)))))
        return
    yield from _merged(walks, path_order)


def discover_names(paths: Iterable[Path]) -> tuple[list[str], list[Problem]]:
    """`discover`, with each file as the `str` of its `Path`."""
    problems: list[Problem] = []
    return list(walk_names(paths, problems)), problems


def discover(paths: Iterable[Path]) -> tuple[list[Path], list[Problem]]:
    """Entry files under the given paths, sorted, each once, plus problems for
    missing paths and for files and folders that are skipped."""
    problems: list[Problem] = []
    return list(walk(paths, problems)), problems


def _missing(path: Path) -> str:
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        pass
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    except ValueError:  # a NUL in the path
        pass
    return "no such file or folder"


def safe_problem(location: Location, message: str) -> Problem:
    """A problem whose message is safe to show on one line: no control or escape
    characters, whatever part of the file it quotes."""
    return Problem(location, one_line(message))


def split_roots(paths: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    """Folders and single files among the paths given on the command line.

    Decided once at start, so a folder that is deleted and re-created is still
    known to be a folder. A missing path counts as a file if it has an entry
    file's name.
    """
    folders, files = [], []
    for path in paths:
        if _is_dir(path) or (not _lexists(path) and not path.name.endswith(SUFFIXES)):
            folders.append(path)
        else:
            files.append(path)
    return folders, files


def plan_reload(
    changed: Iterable[Path], folders: list[Path], files: list[Path], known: Iterable[Path]
) -> tuple[list[Path], list[Path]]:
    """Which files to (re)load and which to drop, after the watcher saw `changed`.

    Only entry files under the watched folders, or the single files given,
    count: editors' temporary files, probes like vim's `4913` and other files
    are ignored. A folder that appeared is searched (its files may arrive
    without events of their own); a path that vanished drops every known file
    at or under it. The rules of `discover` hold here too: nothing under a
    hidden folder or a link to a folder, no file with control characters in its
    name, no link out of the folder (a file that became one is dropped).
    """
    known = set(known)
    single = set(files)
    load: dict[Path, None] = {}
    drop: dict[Path, None] = {}

    def folder_of(path: Path) -> Path | None:
        """The watched folder `path` is in, if the path to it is one `discover` would take."""
        for folder in folders:
            if path == folder:
                return folder
            if path.is_relative_to(folder):
                parts = path.relative_to(folder).parts
                inner = [folder.joinpath(*parts[: n + 1]) for n in range(len(parts) - 1)]
                if any(part.startswith(".") or unsafe_name(part) for part in parts) or any(
                    os.path.islink(p) for p in inner
                ):
                    continue
                return folder
        return None

    for path in changed:
        if path in single and _lexists(path):
            load[path] = None
            continue
        if _is_dir(path):
            folder = folder_of(path)
            if folder is not None and (path == folder or not os.path.islink(path)):
                load.update(dict.fromkeys(_walk_sorted(path, os.path.realpath(folder), [])))
                drop.update(dict.fromkeys(k for k in known if k.is_relative_to(path) and not _lexists(k)))
            continue
        if _lexists(path):
            folder = folder_of(path)
            if folder is not None and is_entry_file(path):
                if _skip_reason(path, os.path.realpath(folder), os.path.islink(path)) is None:
                    load[path] = None
                elif path in known:
                    drop[path] = None
            continue
        drop.update(dict.fromkeys(k for k in known if k == path or k.is_relative_to(path)))
    return sorted(load), sorted(p for p in drop if p not in load)
