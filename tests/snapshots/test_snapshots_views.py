"""Snapshots of the sidebar with saved views, a muted tag and a Repos section
(a digest of two repos), at the sizes people use.

Regenerate after an intended change with
`pytest tests/snapshots/test_snapshots_views.py --snapshot-update` and look at the report.
"""

from __future__ import annotations

from pathlib import Path

from tests.ui.test_views import digest

CONFIG = """views:
  rocm-deep: {tags: [rocm, kernels], verdict: [deep], unread: true}
  docs: {tags: [docs]}
  beta: {repos: [o/beta]}
mute: [ci]
"""


def test_sidebar_with_views_and_repos_120x40(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(digest(tmp_path, config=CONFIG), terminal_size=(120, 40), press=["r"])


def test_sidebar_with_a_view_chosen_80x24(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(digest(tmp_path, config=CONFIG), terminal_size=(80, 24), press=["1"])
