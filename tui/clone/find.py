"""Which local clone holds a reviewed repository.

In order: `--repo-dir DIR` for this run; the config's `repos:` mapping
(`vllm-project/vllm: ~/src/vllm`); else the current folder, or a parent, when it
is a git work tree whose remote URL (origin first, then any) names the repo.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tui.clone import git
from tui.i18n import words


@dataclass(frozen=True)
class Clone:
    """A git work tree on disk: `root` is its top folder, resolved (no symlinks)."""

    root: Path

    def contains(self, path: Path) -> bool:
        """Is `path` (after symlinks) inside the clone? Anything else is refused."""
        try:
            real = Path(os.path.realpath(path))
        except (OSError, ValueError):
            return False
        return real == self.root or self.root in real.parents


@dataclass(frozen=True)
class Found:
    """A clone, or why there is none (a sentence for the user)."""

    clone: Clone | None
    note: str | None = None


def work_tree(path: Path) -> Clone | None:
    """The work tree `path` is in, if any."""
    try:
        if not path.is_dir():
            return None
        out = git.run(path, ["rev-parse", "--show-toplevel"])
    except (git.GitError, OSError):
        return None
    top = git.text(out).strip()
    return Clone(Path(os.path.realpath(top))) if top else None


def remote_urls(clone: Clone) -> list[str]:
    """The clone's remote URLs, origin's first."""
    try:
        out = git.run(clone.root, ["config", "--get-regexp", r"^remote\..*\.url$"], ok=(0, 1))
    except git.GitError:
        return []
    pairs = [line.split(" ", 1) for line in git.text(out).splitlines() if " " in line]
    pairs.sort(key=lambda pair: pair[0] != "remote.origin.url")
    return [url for _, url in pairs]


def url_names(url: str, repo: str) -> bool:
    """Does a remote URL name `owner/name`? https, ssh (`git@host:owner/name.git`)
    and file URLs alike; case-insensitive, `.git` and a trailing slash optional."""
    tail = re.sub(r"(\.git)?/*$", "", url.strip())
    return bool(re.search(r"(^|[/:])" + re.escape(repo) + "$", tail, re.IGNORECASE))


def find_clone(
    repo: str,
    *,
    repo_dir: Path | None = None,
    configured: Mapping[str, Path] | None = None,
    cwd: Path | None = None,
    config_path: Path | None = None,
) -> Found:
    """The clone to read `repo`'s refs in, or a note saying how to set one."""
    if repo_dir is not None:
        clone = work_tree(repo_dir.expanduser())
        return Found(clone, None if clone else words().not_a_clone.format(path=repo_dir))
    mapped = (configured or {}).get(repo)
    if mapped is not None:
        clone = work_tree(mapped.expanduser())
        return Found(clone, None if clone else words().not_a_clone.format(path=mapped))
    here = work_tree(cwd or Path.cwd())
    if here is not None and any(url_names(url, repo) for url in remote_urls(here)):
        return Found(here)
    return Found(None, words().no_clone.format(repo=repo, config=config_path or "config.yaml"))
