"""Undo for read marks (`z`), without Textual."""

from __future__ import annotations

from pathlib import Path

from tui.core.undo import ReadUndo
from tui.store.state import ReadState

# -- undo ---------------------------------------------------------------------


def test_undo_restores_read_marks_and_what_was_seen(tmp_path: Path) -> None:
    state = ReadState(tmp_path / "state.json")
    state.set_read("a", True)
    state.set_seen("a", {"fields": {"title": "old"}, "items": {}})
    undo = ReadUndo()
    undo.record(state, ["a", "b"])
    state.set_read("a", True)
    state.set_seen("a", {"fields": {"title": "new"}, "items": {}})
    state.set_read("b", True)
    assert len(undo) == 1
    assert sorted(undo.undo(state)) == ["a", "b"]
    assert state.is_read("a") and not state.is_read("b")
    assert state.seen("a") == {"fields": {"title": "old"}, "items": {}}
    assert undo.undo(state) == []
    # an undone mark is a new mark: it wins a merge with the file written before
    state.save()
    other = ReadState(tmp_path / "state.json")
    other.load()
    assert not other.is_read("b")


def test_undo_keeps_a_bounded_history(tmp_path: Path) -> None:
    state = ReadState(None)
    undo = ReadUndo(limit=3)
    for n in range(5):
        undo.record(state, [str(n)])
    assert len(undo) == 3
    undo.record(state, [])
    assert len(undo) == 3
