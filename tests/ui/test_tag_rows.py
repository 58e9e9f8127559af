"""Sidebar rows: a label with a figure set flush right, measured in cells."""

from __future__ import annotations

import pytest

from tui.core.wrap import line_width
from tui.ui.widgets.tag_list import wrapped


@pytest.mark.parametrize("width", [8, 12, 20, 31])
@pytest.mark.parametrize("figure", ["3/8", "未读 3", "全部 10/10"])
def test_figure_is_flush_right_and_never_overflows(width: int, figure: str) -> None:
    lines = wrapped([("标签名称", "")], width, 2, [(figure, "")])
    assert all(line_width(line) <= width for line in lines)
    shown = "".join(text for text, _ in lines[-1])
    if line_width([(figure, "")]) <= width:
        assert shown.endswith(figure)
    else:  # wider than the row: cut, never overflowing
        assert shown.endswith("…") and figure.startswith(shown.strip()[:-1])
    if line_width(lines[-1]) > len(figure) + 1:  # shares a line with the label: flush right
        assert line_width(lines[-1]) == width
