"""A real git repository built in tmp_path for the refs tests: squash-merged PRs
whose subjects end in `(#N)`, Python files with functions, classes and members,
a file a PR deletes, two files with the same name."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = "acme/widgets"

ENGINE = '''\
"""The engine."""

LIMIT = 10


class Engine:
    """Runs things."""

    def __init__(self) -> None:
        self.speed = 1

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass


def helper() -> int:
    return LIMIT
'''

OTHER = """\
class Other:
    def start(self) -> None:
        pass
"""

SCHED_A = "def plan() -> None:\n    pass\n"
SCHED_B = "def schedule() -> None:\n    pass\n"
LEGACY = (
    "class OldBatch:\n    def size(self) -> int:\n        return 0\n\n\ndef old_copy() -> None:\n    pass\n"
)


def git(root: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    return subprocess.run(
        ["git", *args], cwd=root, env=env, check=True, capture_output=True, text=True
    ).stdout


def commit(root: Path, files: dict[str, str | None], subject: str) -> str:
    for path, text in files.items():
        target = root / path
        if text is None:
            git(root, "rm", "-q", "--", path)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        git(root, "add", "--", path)
    git(root, "commit", "-q", "-m", subject)
    return git(root, "rev-parse", "HEAD").strip()


def build(root: Path) -> dict[str, str]:
    """The repository; returns PR number (as text) -> commit."""
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    git(root, "remote", "add", "origin", f"git@github.com:{REPO}.git")
    commits = {}
    commits["first"] = commit(
        root,
        {
            "pkg/__init__.py": "",
            "pkg/engine.py": ENGINE,
            "pkg/other.py": OTHER,
            "pkg/legacy.py": LEGACY,
            "pkg/core/scheduler.py": SCHED_A,
            "tests/test_engine.py": "def test_start():\n    pass\n",
            "docs/engine.md": "class Engine:\n",
        },
        "Start (#1)",
    )
    commits["10"] = commit(
        root,
        {"pkg/sched/scheduler.py": SCHED_B, "pkg/engine.py": ENGINE + "\n\ndef tune() -> None:\n    pass\n"},
        "Add a second scheduler (#10)",
    )
    commits["20"] = commit(root, {"pkg/legacy.py": None}, "Remove legacy batch (#20)")
    commits["30"] = commit(root, {"README.md": "widgets\n"}, 'Revert "Something (#29)" (#30)')
    return commits
