"""A clone's pull requests: the commit each was squash-merged as, and what it changed.

vllm (like most squash-merging projects) ends a merged PR's commit subject with
`(#N)`. One `git log` of HEAD's subjects maps every PR at once, cached per HEAD under the cache folder: a HEAD that moved on
costs only the commits since, a HEAD elsewhere a new scan. A PR's changed files
never change for a commit, so they are cached by commit.
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import NamedTuple

from tui.clone import git
from tui.clone.find import Clone
from tui.core.model import digest
from tui.store.atomic import write_atomic

_SUBJECT_PR = re.compile(r"\(#([0-9]{1,9})\)\s*$")
_SHA = re.compile(r"^[0-9a-f]{40,64}$")
CACHE_FORMAT = "prdigest-tui/pr-commits"
CACHE_VERSION = 1
MAX_CACHE_BYTES = 64 * 1024 * 1024


class Change(NamedTuple):
    """One file of a commit: git's status letter (A, M, D, R...), its path, and
    for a rename or copy the path it had before."""

    status: str
    path: str
    old_path: str | None = None


class PrCommits:
    """PR number -> commit for one clone, as of its HEAD."""

    def __init__(self, clone: Clone, cache_dir: Path | None) -> None:
        self.clone = clone
        self.cache_file = cache_dir / f"{digest(str(clone.root))}.json" if cache_dir else None
        self._head: str | None = None
        self._prs: dict[int, str] = {}
        self._changed: dict[str, list[Change]] = {}
        self._dirty = False

    # -- queries -------------------------------------------------------------

    def head(self) -> str | None:
        try:
            out = git.text(git.run(self.clone.root, ["rev-parse", "--verify", "-q", "HEAD"], ok=(0, 1)))
        except git.GitError:
            return None
        sha = out.strip()
        return sha if _SHA.match(sha) else None

    def commit(self, pr: int) -> str | None:
        """The commit of PR `pr` in HEAD's history, or None when the clone lacks it."""
        self._refresh()
        return self._prs.get(pr)

    def changed(self, commit: str) -> list[Change]:
        """The files `commit` changed (renames found), against its first parent."""
        if not _SHA.match(commit):
            raise ValueError(f"not a commit id: {commit!r}")
        if commit not in self._changed:
            out = git.run(
                self.clone.root,
                ["diff-tree", "-r", "-M", "--root", "--no-commit-id", "--name-status", "-z", commit],
            )
            fields = git.text(out).split("\0")
            changes: list[Change] = []
            i = 0
            while i < len(fields) and fields[i]:
                status = fields[i][:1]
                if status in ("R", "C"):
                    changes.append(Change(status, fields[i + 2], fields[i + 1]))
                    i += 3
                else:
                    changes.append(Change(status, fields[i + 1]))
                    i += 2
            self._changed[commit] = changes
            self._dirty = True
            self.save()
        return self._changed[commit]

    def parent(self, commit: str) -> str | None:
        """`commit`'s first parent, where what the PR deleted is still there."""
        try:
            out = git.run(self.clone.root, ["rev-parse", "--verify", "-q", f"{commit}^"], ok=(0, 1))
        except git.GitError:
            return None
        sha = git.text(out).strip()
        return sha if _SHA.match(sha) else None

    # -- the map, per HEAD -----------------------------------------------------

    def _refresh(self) -> None:
        head = self.head()
        if head is None:
            self._head, self._prs = None, {}
            return
        if head == self._head:
            return
        if self._head is None:
            self._load()
            if head == self._head:
                return
        since = self._head if self._head and self._is_ancestor(self._head, head) else None
        if since is None:
            self._prs = {}
        self._prs.update(self._scan(f"{since}..{head}" if since else head))
        self._head = head
        self._dirty = True
        self.save()

    def _is_ancestor(self, old: str, new: str) -> bool:
        try:
            git.run(self.clone.root, ["merge-base", "--is-ancestor", old, new])
        except git.GitError:
            return False
        return True

    def _scan(self, revisions: str) -> dict[int, str]:
        out = git.run(self.clone.root, ["log", "--no-show-signature", "--format=%H %s", revisions, "--"])
        found: dict[int, str] = {}
        for line in git.text(out).splitlines():
            sha, _, subject = line.partition(" ")
            if match := _SUBJECT_PR.search(subject):
                found[int(match.group(1))] = sha  # newest first: the oldest commit (the merge) wins
        return found

    # -- the cache file --------------------------------------------------------

    def _load(self) -> None:
        if self.cache_file is None:
            return
        try:
            with self.cache_file.open("rb") as handle:
                doc = json.loads(handle.read(MAX_CACHE_BYTES + 1))
        except (OSError, ValueError, RecursionError):
            return  # no cache, or one we cannot read: it is rebuilt
        if not isinstance(doc, dict) or doc.get("format") != CACHE_FORMAT:
            return
        if doc.get("version") != CACHE_VERSION or doc.get("root") != str(self.clone.root):
            return
        head, prs, changed = doc.get("head"), doc.get("prs"), doc.get("changed")
        if not (isinstance(head, str) and _SHA.match(head) and isinstance(prs, dict)):
            return
        try:
            self._prs = {int(pr): sha for pr, sha in prs.items() if isinstance(sha, str) and _SHA.match(sha)}
            if isinstance(changed, dict):
                self._changed = {
                    sha: [Change(str(c[0]), str(c[1]), c[2] if len(c) > 2 else None) for c in rows]
                    for sha, rows in changed.items()
                    if _SHA.match(sha) and isinstance(rows, list)
                }
        except (TypeError, ValueError):
            self._prs, self._changed = {}, {}
            return
        self._head = head

    def save(self) -> None:
        """Write the map when it changed; a cache that cannot be written is only slower."""
        if self.cache_file is None or not self._dirty or self._head is None:
            return
        doc = {
            "format": CACHE_FORMAT,
            "version": CACHE_VERSION,
            "root": str(self.clone.root),
            "head": self._head,
            "prs": {str(pr): sha for pr, sha in sorted(self._prs.items())},
            "changed": {sha: [list(c) for c in rows] for sha, rows in self._changed.items()},
        }
        with contextlib.suppress(OSError):
            self.cache_file.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.cache_file, json.dumps(doc, separators=(",", ":")).encode())
            self._dirty = False
