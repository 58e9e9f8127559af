"""Snapshots of the code view inside the reader: a Chinese review's ref opened
from a git repository built in tmp_path, at 120x40 and 80x24.

Regenerate after an intended change with
`pytest tests/snapshots/test_snapshots_refs.py --snapshot-update`.
"""

from __future__ import annotations

from pathlib import Path

from tests.clone_repo import REPO, build
from tests.waiting import wait_until
from tui.ui.app import PrDigestApp

ENTRY = f"""\
repo: {REPO}
entries:
  - title: 第二个调度器
    pr: 10
    tags: [调度]
    verdict: deep
    summary: 先读 `pkg/engine.py`，再看新加的 `tune()`。
    focus:
      - text: 看 `Engine.start` 怎样启动，再对照 `helper`
    read_order:
      - text: 从 `pkg/sched/scheduler.py` 开始
"""


def _app(tmp_path: Path) -> PrDigestApp:
    clone = tmp_path / "widgets"
    build(clone)
    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "widgets.yaml").write_text(ENTRY, encoding="utf-8")
    app = PrDigestApp([folder], tmp_path / "state" / "state.json", watch=False)
    app.reader.repo_dir = clone
    return app


async def _open_ref(pilot) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    await wait_until(pilot, lambda: app.reader.clones.resolved, "the refs to resolve against the clone")
    await pilot.press("enter", "enter")
    await wait_until(pilot, lambda: app.reader.code_pane.has_class("-open"), "the code pane to open")
    await pilot.pause(0.1)


def test_code_view_in_the_reader_120x40(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(_app(tmp_path), terminal_size=(120, 40), run_before=_open_ref)


def test_code_view_in_the_reader_80x24(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(_app(tmp_path), terminal_size=(80, 24), run_before=_open_ref)
