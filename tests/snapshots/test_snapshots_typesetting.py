"""Snapshots of a review with mixed Chinese, Latin and code, wrapped by our line breaker.

The multimodal LoRA review (the fifth in reading order) mixes Chinese with paths
(`vllm/model_executor/models/interfaces.py`), file names, “quotes” and closing
punctuation; at 80x24 and 60x20 the pane is narrow enough for those to land at
line ends. What to look for: no line starts with ，。、）” and none ends with
（“; paths and code spans stay whole or break after `/`, `.` or `_`; Chinese
lines are full to the last cell or one short.

Regenerate after an intended change with
`pytest tests/snapshots/test_snapshots_typesetting.py --snapshot-update` and look at the report.
"""

from __future__ import annotations

from pathlib import Path

from tests.app_helpers import make_app

OPEN_MULTIMODAL_REVIEW = ["j", "j", "j", "j", "enter"]


def test_mixed_review_80x24(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(make_app(tmp_path), terminal_size=(80, 24), press=OPEN_MULTIMODAL_REVIEW)


def test_mixed_review_60x20(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(make_app(tmp_path), terminal_size=(60, 20), press=OPEN_MULTIMODAL_REVIEW)
