"""What comes between the command line and its parse workers' first file, and
between their last answer and the end of their answers (`tui.load.workers.end`,
`tui.load.first_frame`'s imports): real processes."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.entry_files import reviews_in
from tui.load.first_frame import WORKER
from tui.load.parse import load_paths

pytestmark = pytest.mark.skipif(not hasattr(os, "posix_spawn"), reason="no posix_spawn")


def test_the_command_line_starts_the_workers_before_importing_asyncio(tmp_path: Path) -> None:
    """asyncio (~20 ms, with ssl) is not on the way from the command line to
    the first parse worker: every millisecond before it is one the load ends later."""
    folder = reviews_in(tmp_path / "entries", range(150))
    code = (
        "import sys\nfrom pathlib import Path\nimport tui.cli\n"
        "from tui.load.cache import ParseCache\n"
        "from tui.load.first_frame import plan_first_part\n"
        f"plan = plan_first_part([Path({str(folder)!r})], ParseCache(None), fork=True)\n"
        "assert plan.pool is not None and plan.pool.workers\n"
        "print('asyncio' in sys.modules)\n"
        "plan.pool.stop()"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "False"


def test_a_worker_ends_without_the_interpreters_shutdown(tmp_path: Path) -> None:
    """Its answers complete, its status 0, and none of the shutdown's work:
    an `atexit` function registered before it runs is not called."""
    root = reviews_in(tmp_path / "entries", range(3), "r{n:05}", "t {n}")
    marker = tmp_path / "shut down"
    code = (
        f"import atexit, runpy, sys\natexit.register(lambda: open({str(marker)!r}, 'w').close())\n"
        f"sys.argv = ['workers']\nrunpy.run_module('tui.load.workers', run_name='__main__')\n"
    )
    names = sorted(str(path) for path in root.iterdir())
    task = marshal.dumps(names)
    done = subprocess.run(
        [*WORKER[:-2], "-c", code],
        input=len(task).to_bytes(8, "little") + task,
        capture_output=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    answer = marshal.loads(done.stdout[8:])
    titles = {str(path): [r.title for r in reviews] for path, reviews in load_paths([root]).files.items()}
    assert {name: [raw[0] for raw in reviews] for name, _, reviews, _ in answer} == titles
