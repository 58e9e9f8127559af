"""`prdigest-tui refs` and `check --repo-dir` as real subprocesses."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.cli_helpers import ROOT, run_tui
from tests.clone_repo import REPO, build

ENTRY = f"""\
repo: {REPO}
entries:
  - title: Second scheduler
    pr: 10
    tags: [a]
    verdict: deep
    summary: |-
      Read `scheduler.py`, then `Engine.start`.
    focus:
      - text: |-
          Then `tune()` and `len + 1`.
        refs: ["pkg/engine.py", "nothing_here"]
      - text: call `start` maybe
  - title: Deleted
    pr: 20
    tags: [a]
    verdict: skim
    summary: Gone `OldBatch.size`, `scheduler.py`, and `--output=/tmp/prdigest-x`.
  - title: Not here
    pr: 55358
    tags: [a]
    verdict: skim
    summary: "`helper()`"
"""


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return run_tui(*args, cwd=cwd, PYTHONPATH=str(ROOT))


def setup(tmp_path: Path) -> tuple[Path, Path]:
    clone = tmp_path / "widgets"
    build(clone)
    entry = tmp_path / "entries" / "e.yaml"
    entry.parent.mkdir()
    entry.write_text(ENTRY, encoding="utf-8")
    return clone, entry


def test_refs_json(tmp_path: Path) -> None:
    clone, entry = setup(tmp_path)
    result = run("refs", str(entry), "--repo-dir", str(clone), "--format", "json")
    assert result.returncode == 0, result.stderr
    objects = json.loads(result.stdout)
    assert objects[:4] == [
        {
            "review": f"{REPO}#10",
            "pr": 10,
            "ref": "scheduler.py",
            "kind": "file",
            "status": "found",
            "path": "pkg/sched/scheduler.py",
            "line": None,
            "candidates": [],
        },
        {
            "review": f"{REPO}#10",
            "pr": 10,
            "ref": "Engine.start",
            "kind": "symbol",
            "status": "found",
            "path": "pkg/engine.py",
            "line": 12,
            "candidates": [],
        },
        {
            "review": f"{REPO}#10",
            "pr": 10,
            "ref": "pkg/engine.py",
            "kind": "path",
            "status": "found",
            "path": "pkg/engine.py",
            "line": None,
            "candidates": [],
        },
        {
            "review": f"{REPO}#10",
            "pr": 10,
            "ref": "nothing_here",
            "kind": "symbol",
            "status": "missing",
            "path": None,
            "line": None,
            "candidates": [],
        },
    ]
    rows = {(o["review"], o["ref"]): (o["status"], o["path"], o["line"], o["candidates"]) for o in objects}
    assert rows[(f"{REPO}#10", "tune()")] == ("found", "pkg/engine.py", 23, [])
    assert rows[(f"{REPO}#10", "len + 1")] == ("not-a-ref", None, None, [])
    # settled by the review's other refs (`Engine.start` is in pkg/engine.py)
    assert rows[(f"{REPO}#10", "start")] == ("found", "pkg/engine.py", 12, [])
    # PR #20 did not touch either scheduler.py
    assert rows[(f"{REPO}#20", "scheduler.py")] == (
        "ambiguous",
        None,
        None,
        ["pkg/core/scheduler.py", "pkg/sched/scheduler.py"],
    )
    assert rows[(f"{REPO}#20", "OldBatch.size")] == ("found", "pkg/legacy.py", 2, [])
    assert rows[(f"{REPO}#20", "--output=/tmp/prdigest-x")][0] == "not-a-ref"
    assert rows[(f"{REPO}#55358", "helper()")] == ("found", "pkg/engine.py", 19, [])
    assert "PR #55358 is not in your clone: git fetch?" in result.stderr
    assert not Path("/tmp/prdigest-x").exists()
    assert all(
        set(o) == {"review", "pr", "ref", "kind", "status", "path", "line", "candidates"} for o in objects
    )


def test_refs_tsv_and_clone_from_the_current_folder(tmp_path: Path) -> None:
    clone, entry = setup(tmp_path)
    result = run("refs", str(entry), cwd=clone / "pkg")  # the remote names acme/widgets
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0].split("\t")
    assert first == [f"{REPO}#10", "10", "scheduler.py", "file", "found", "pkg/sched/scheduler.py", "", ""]
    elsewhere = run("refs", str(entry), "--format", "json", cwd=tmp_path)
    assert {o["status"] for o in json.loads(elsewhere.stdout) if o["kind"] != "text"} == {"no-clone"}
    assert f"No clone of {REPO}: map it under `repos:`" in elsewhere.stderr


def test_check_warns_at_each_ref(tmp_path: Path) -> None:
    clone, entry = setup(tmp_path)
    result = run("check", "e.yaml", "--repo-dir", str(clone), cwd=entry.parent)
    assert result.returncode == 0, result.stderr  # warnings do not fail a check
    assert result.stdout.splitlines() == [
        "e.yaml:12:34: warning: ref `nothing_here` is not in the clone",
        "e.yaml:18:37: warning: ref `scheduler.py` is ambiguous: pkg/core/scheduler.py, pkg/sched/scheduler.py",
        "e.yaml:19:5: warning: PR #55358 is not in your clone: git fetch?",
    ]
    assert "3 reviews in 1 files, 0 problems, 3 warnings" in result.stderr
    plain = run("check", "e.yaml", cwd=entry.parent)
    assert plain.returncode == 0 and plain.stdout == ""


def test_marks_made_before_the_bundled_reviews_had_prs_carry_over(tmp_path: Path) -> None:
    from tui.store.state import ReadState

    state_file = tmp_path / "state.json"
    state = ReadState(state_file)
    state.set_read(
        "vllm-project/vllm:kpool 索引器迁入 glm5next 并拆分后端", True
    )  # the key before `pr: 55358`
    state.save()
    result = run("export", "--unread", "--format", "json", "--state", str(state_file))
    assert result.returncode == 0, result.stderr
    unread = [entry["pr"] for entry in json.loads(result.stdout)]
    assert len(unread) == 7 and 55358 not in unread
