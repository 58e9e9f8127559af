"""Saving a big state at the cost of what changed: snapshots share the marks
that did not change (copy on write), a save re-encodes only the reviews whose
marks changed, and the file this state wrote last is not read again. The file
written is the same, byte for byte, and merges with other instances are too."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from tui.core.clock import HybridClock
from tui.core.marks import ReviewMarks
from tui.store import state as state_module
from tui.store.state import FORMAT, VERSION, ReadState


def plain_dump(reviews: dict[str, ReviewMarks]) -> bytes:
    """The state file as one `json.dumps` of the whole document writes it."""
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "reviews": {
            key: {
                **({"read": marks.read.to_json()} if marks.read else {}),
                **({"seen": marks.seen.to_json()} if marks.seen else {}),
                "items": {item: mark.to_json() for item, mark in sorted(marks.items.items())},
            }
            for key, marks in sorted(reviews.items())
        },
    }
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def fingerprint(n: int) -> dict[str, object]:
    return {"fields": {"title": f"{n:016x}"}, "items": {"focus": [[f"focus:{n:x}", f"{n:016x}"]]}}


def some_marks(state: ReadState, rng: random.Random, keys: int, marks: int) -> None:
    for _ in range(marks):
        key = f"o/r{rng.randrange(3)}#{rng.randrange(keys)}"
        kind = rng.random()
        if kind < 0.4:
            state.set_read(key, rng.random() < 0.7)
        elif kind < 0.8:
            state.set_checked(key, f"focus:{rng.randrange(5)}", rng.random() < 0.8, f"{rng.randrange(99):x}")
        else:
            state.set_seen(key, fingerprint(rng.randrange(1000)))


@pytest.mark.parametrize("seed", range(4))
def test_every_save_writes_what_one_dump_of_the_whole_state_writes(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    path = tmp_path / "state.json"
    state = ReadState(path)
    for _ in range(12):
        some_marks(state, rng, 3000 if seed % 2 else 40, rng.randint(0, 60))
        state.save()
        assert path.read_bytes() == plain_dump(state.reviews)
    again = ReadState(path)
    again.load()
    assert plain_dump(again.reviews) == path.read_bytes()


def test_a_snapshot_keeps_its_marks_while_the_state_changes(tmp_path: Path) -> None:
    state = ReadState(tmp_path / "state.json")
    state.set_read("o/r#1", True)
    state.set_checked("o/r#1", "focus:a", True, "d")
    held = state.reviews["o/r#1"]
    snapshot = state.snapshot()
    written = plain_dump(snapshot.reviews)
    state.set_read("o/r#1", False)
    state.set_checked("o/r#1", "focus:a", False, "d")
    state.set_checked("o/r#1", "focus:b", True, "e")
    state.set_read("o/r#2", True)
    assert plain_dump(snapshot.reviews) == written  # what the saving thread writes, unchanged
    assert held.read is not None and held.read.value and set(held.items) == {"focus:a"}
    assert state.reviews["o/r#1"] is not held
    state.absorb(state.write(snapshot))
    assert not state.is_read("o/r#1") and state.is_read("o/r#2")  # later marks not undone
    state.save()
    again = ReadState(state.path)
    again.load()
    assert plain_dump(again.reviews) == plain_dump(state.reviews)


def reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every time a save reads the state file, the path."""
    seen: list[Path] = []
    real = state_module._read

    def counted(path: Path) -> dict[str, ReviewMarks]:
        seen.append(path)
        return real(path)

    monkeypatch.setattr(state_module, "_read", counted)
    return seen


def test_a_save_reads_the_file_only_when_another_instance_wrote_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "state.json"
    mine, theirs = ReadState(path, HybridClock()), ReadState(path, HybridClock())
    mine.set_read("o/r#1", True)
    mine.save()
    read = reads(monkeypatch)
    mine.set_read("o/r#2", True)
    assert mine.save() is False
    assert read == []  # its own last write: not read again
    theirs.set_read("o/r#3", True)
    theirs.set_checked("o/r#1", "focus:a", True)
    theirs.save()
    read.clear()
    mine.set_read("o/r#4", True)
    outcome = mine.write(mine.snapshot())
    assert read == [path]
    assert set(outcome.theirs or {}) == {"o/r#1", "o/r#3"}  # only what is news to it
    assert mine.absorb(outcome) is True
    assert mine.is_read("o/r#3") and mine.checked("o/r#1") == {"focus:a"}
    assert mine.clock.now() > theirs.reviews["o/r#3"].read.at  # type: ignore[union-attr]
    on_disk = ReadState(path)
    on_disk.load()
    assert on_disk.read_keys() == {"o/r#1", "o/r#2", "o/r#3", "o/r#4"}


def test_a_file_put_back_by_something_else_gets_every_mark_again(tmp_path: Path) -> None:
    """A backup restored, a sync tool's older copy: the next save writes every mark held."""
    path = tmp_path / "state.json"
    state = ReadState(path)
    state.set_read("o/r#1", True)
    state.save()
    older = path.read_bytes()
    for n in range(2, 6):
        state.set_read(f"o/r#{n}", True)
    state.save()
    (tmp_path / "older.json").write_bytes(older)
    os.replace(tmp_path / "older.json", path)
    state.set_read("o/r#9", True)
    state.save()
    on_disk = ReadState(path)
    on_disk.load()
    assert on_disk.read_keys() == {f"o/r#{n}" for n in (1, 2, 3, 4, 5, 9)}


def test_a_loaded_state_does_not_read_its_file_again_at_the_first_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "state.json"
    first = ReadState(path)
    first.set_read("o/r#1", True)
    first.save()
    state = ReadState(path)
    state.load()
    read = reads(monkeypatch)
    state.set_read("o/r#2", True)
    state.save()
    assert read == []
    assert path.read_bytes() == plain_dump(state.reviews)
