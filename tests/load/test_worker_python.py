"""The parse workers import this project and PyYAML, never a `yaml.py` or a
`tui/` of the folder the reader was started in (`tui.load.pool.WORKER_PYTHON`):
real worker processes started from a folder holding both, each of which
would leave a mark and stop the worker if it were imported."""

from __future__ import annotations

import asyncio
import marshal
import os
import subprocess
from pathlib import Path

import pytest

from tests.entry_files import reviews_in
from tui.load.discover import discover
from tui.load.first_frame import WORKER
from tui.load.parse import load_paths
from tui.load.pool import collect, start_walking_pool

pytestmark = pytest.mark.skipif(not hasattr(os, "posix_spawn"), reason="no posix_spawn")


def a_folder_with_impostors(tmp_path: Path) -> tuple[Path, Path]:
    """A folder to start from, whose `yaml.py` and `tui/` write `marks` when imported."""
    here = tmp_path / "started-here"
    marks = tmp_path / "marks"
    (here / "tui").mkdir(parents=True)
    code = f"open({str(marks)!r}, 'a').write(__name__ + '\\n'); raise SystemExit(3)\n"
    (here / "yaml.py").write_text(code)
    (here / "tui" / "__init__.py").write_text(code)
    return here, marks


def titles(root: Path) -> dict[str, list[str]]:
    return {str(path): [r.title for r in reviews] for path, reviews in load_paths([root]).files.items()}


def test_pool_workers_started_in_a_folder_with_a_yaml_py_import_ours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = reviews_in(tmp_path / "entries" / "a", range(60), "r{n:05}", "a {n}").parent
    files, _ = discover([root])
    here, marks = a_folder_with_impostors(tmp_path)
    monkeypatch.chdir(here)
    pool = start_walking_pool([root], files[:2], None, "", workers=2, early=1)
    assert pool is not None
    got: dict[str, list[str]] = {}

    def receive(answer: list | tuple, paths: list[Path]) -> None:
        *_, entries = answer if isinstance(answer, tuple) else (answer,)
        for (_, _, reviews, _), path in zip(entries, paths, strict=True):
            got[str(path)] = [raw[0] for raw in reviews]

    try:
        left = asyncio.run(collect(pool, receive))
    finally:
        pool.stop()
    assert not marks.exists()
    assert left == []  # every file answered by a worker: none died at its imports
    assert got == titles(root)


def test_a_worker_of_a_later_parse_started_there_imports_ours(tmp_path: Path) -> None:
    root = reviews_in(tmp_path / "entries", range(3), "r{n:05}", "t {n}")
    here, marks = a_folder_with_impostors(tmp_path)
    names = sorted(str(path) for path in root.iterdir())
    task = marshal.dumps(names)
    done = subprocess.run(
        WORKER, input=len(task).to_bytes(8, "little") + task, capture_output=True, cwd=here, timeout=120
    )
    assert not marks.exists()
    assert done.returncode == 0
    answer = marshal.loads(done.stdout[8:])
    assert {name: [raw[0] for raw in reviews] for name, _, reviews, _ in answer} == titles(root)
