"""Hand-offs decided without Textual: which URLs open, the editor command, what is copied."""

from __future__ import annotations

from pathlib import Path

from tui.core.external import editor_command, openable, refs
from tui.core.model import Item

# -- other programs -----------------------------------------------------------


def test_only_http_and_https_urls_are_opened() -> None:
    assert openable("https://github.com/o/r/pull/1")
    assert openable("http://example.com/x")
    for url in (
        None,
        "",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "ftp://x/y",
        "https://",
        "https:///path",
        "https://exa mple.com",
        "https://example.com/\x1b]0;x\x07",
        "vscode://file/x",
        "//example.com",
    ):
        assert not openable(url), url


def test_editor_command_prefers_visual_then_editor_then_vi(tmp_path: Path) -> None:
    path = tmp_path / "e.yaml"
    assert editor_command({}, path, 7) == ["vi", "+7", "--", str(path)]
    assert editor_command({"EDITOR": "nano -w"}, path, 3) == ["nano", "-w", "--", "+3", str(path)]
    assert editor_command({"EDITOR": "nano", "VISUAL": "'my editor' --wait"}, path, 0) == [
        "my editor",
        "--wait",
        "+1",
        str(path),
    ]
    assert editor_command({"EDITOR": "ed 'unbalanced"}, path, 2)[:2] == ["ed", "'unbalanced"]


def test_refs_are_the_items_refs_then_its_code_spans() -> None:
    item = Item("focus", "see `a.b` and `c()` and `a.b`", refs=("x/y.py", "a.b"))
    assert refs(item) == ["x/y.py", "a.b", "c()"]
