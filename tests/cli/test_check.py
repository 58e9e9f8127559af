"""`prdigest-tui check` as a real subprocess, the way authors run it in CI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def check(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    # os.environ carries the isolated XDG folders and HOME set by conftest.
    return subprocess.run(
        [sys.executable, "-m", "tui", "check", *args],
        cwd=cwd,
        env=os.environ.copy(),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_bundled_entries_pass() -> None:
    result = check("entries/")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""
    assert "8 reviews" in result.stderr and "0 problems" in result.stderr


def test_broken_files_are_listed_with_their_locations(tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "a.yaml").write_text(
        "title: x\nrepo: a/b\ntags: [a, b\nverdict: deep\nsummary: s\n", encoding="utf-8"
    )
    (broken / "b.yaml").write_text(
        "repo: a/b\nentries:\n"
        "  - title: fine\n    tags: [a]\n    verdict: deep\n    summary: s\n"
        "  - title: broken\n    tags: [a]\n    verdict: someday\n    colour: red\n",
        encoding="utf-8",
    )
    (broken / "notes.md").write_text("not an entry file: [", encoding="utf-8")
    result = check("broken", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == [  # by file, then line and column, as a compiler lists them
        "broken/a.yaml:4:8: invalid YAML: while parsing a flow sequence did not find expected ',' or ']'",
        "broken/b.yaml:7:5: missing required field `summary`",
        "broken/b.yaml:9:14: `verdict` must be one of deep, quick, skim, skip, not 'someday'",
        "broken/b.yaml:10:5: unknown key `colour` (expected one of: title, repo, pr, url, date, tags, "
        "verdict, verdict_note, summary, focus, read_order, actions, caveats)",
    ]
    assert "1 reviews in 2 files, 4 problems" in result.stderr


def test_absolute_paths_and_missing_paths(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("title: t\nrepo: a/b\ntags: [a]\nverdict: skim\nsummary: s\n", encoding="utf-8")
    missing = tmp_path / "missing"
    result = check(str(good), str(missing))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [f"{missing}:1:1: no such file or folder"]


def test_check_needs_a_path() -> None:
    result = check()
    assert result.returncode == 2
    assert result.stdout == ""
    assert "PATH" in result.stderr


def test_check_does_not_import_textual() -> None:
    code = (
        "import sys; from tui.cli import main; code = main(['check', 'entries']); "
        "print(code, 'textual' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=os.environ.copy(), capture_output=True, text=True
    )
    assert result.stdout.strip() == "0 False", result.stderr
