"""What the code and diff views show: a file's text and a PR's diff, as text.

A file is read from the work tree, or from a commit (what a PR deleted, in its
parent) with git, never from outside the clone. Diffs are git's own, without
colour (the view colours them), external diff programs or textconv filters.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from tui.clone import git
from tui.clone.find import Clone

MAX_FILE_BYTES = 32 * 1024 * 1024
_SHA = re.compile(r"^[0-9a-f]{7,64}$")
_DIFF_OPTIONS = ["-p", "-M", "--root", "--no-commit-id", "--no-color", "--no-ext-diff", "--no-textconv"]


def blobs(clone: Clone, commit: str, paths: Sequence[str]) -> dict[str, str]:
    """The text of `paths` at `commit`, in one `git cat-file --batch`."""
    if not paths:
        return {}
    request = "".join(f"{commit}:{path}\n" for path in paths if "\n" not in path).encode()
    out = git.run(clone.root, ["cat-file", "--batch"], input=request)
    texts: dict[str, str] = {}
    pos = 0
    for path in paths:
        end = out.find(b"\n", pos)
        if end < 0:
            break
        header = out[pos:end].split()
        pos = end + 1
        if len(header) != 3 or header[1] != b"blob":
            continue  # "missing", or not a file
        size = int(header[2])
        texts[path] = git.text(out[pos : pos + size])
        pos += size + 1
    return texts


class RefusedPath(Exception):
    """A path outside the clone, or not a regular file in it."""


def _check_commit(commit: str) -> None:
    if not _SHA.match(commit):
        raise ValueError(f"not a commit id: {commit!r}")


def _relative(path: str) -> str:
    parts = path.split("/")
    if not path or path.startswith("/") or ".." in parts or "\0" in path or "\n" in path:
        raise RefusedPath(f"not a path inside the clone: {path!r}")
    return path


def file_text(clone: Clone, path: str, commit: str | None = None) -> str:
    """The text of `path` (relative to the clone): in the work tree, or at `commit`."""
    path = _relative(path)
    if commit is not None:
        _check_commit(commit)
        texts = blobs(clone, commit, [path])
        if path not in texts:
            raise FileNotFoundError(f"{path} is not in {commit[:12]}")
        return texts[path]
    target = clone.root / path
    if not clone.contains(target):
        raise RefusedPath(f"{path} leads outside the clone")
    if not target.is_file():
        raise RefusedPath(f"{path} is not a file")
    with target.open("rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise RefusedPath(f"{path} is larger than {MAX_FILE_BYTES // 2**20} MB")
    return data.decode("utf-8", "replace")


def absolute_path(clone: Clone, path: str) -> str:
    """The absolute path an editor is given (so a name like `-x` or `+1` is no option to it)."""
    target = clone.root / _relative(path)
    if not clone.contains(target):
        raise RefusedPath(f"{path} leads outside the clone")
    return str(target)


def pr_diff(clone: Clone, commit: str) -> str:
    """The whole diff of `commit` against its first parent."""
    _check_commit(commit)
    return git.text(git.run(clone.root, ["diff-tree", *_DIFF_OPTIONS, commit, "--"]))


class FileDiff(NamedTuple):
    path: str  # after the change (before it, for a deleted file)
    text: str  # from its `diff --git` line on


_DIFF_HEADER = re.compile(r"^diff --git ", re.MULTILINE)
_PLUS_PATH = re.compile(r"^\+\+\+ (?:b/)?(.*)$", re.MULTILINE)
_MINUS_PATH = re.compile(r"^--- (?:a/)?(.*)$", re.MULTILINE)
_RENAME_TO = re.compile(r"^rename to (.*)$", re.MULTILINE)


def split_diff(text: str) -> list[FileDiff]:
    """A diff cut into one part per file."""
    starts = [m.start() for m in _DIFF_HEADER.finditer(text)]
    parts = []
    for start, end in zip(starts, [*starts[1:], len(text)], strict=True):
        chunk = text[start:end]
        path = None
        for pattern in (_PLUS_PATH, _RENAME_TO, _MINUS_PATH):
            match = pattern.search(chunk)
            if match and match.group(1) != "/dev/null":
                path = match.group(1)
                break
        if path is None:  # a mode change or binary file: the header names it
            header = chunk.split("\n", 1)[0]
            path = header.rsplit(" b/", 1)[-1]
        parts.append(FileDiff(path, chunk))
    return parts


def diff_by_file(clone: Clone, commit: str) -> list[FileDiff]:
    return split_diff(pr_diff(clone, commit))


def file_diff(clone: Clone, commit: str, path: str) -> str:
    """What `commit` changed in `path` (a renamed file is found under either name);
    empty when it did not touch it."""
    path = _relative(path)
    for part in diff_by_file(clone, commit):
        if part.path == path or f"\nrename from {path}\n" in part.text:
            return part.text
    return ""
