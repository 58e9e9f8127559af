"""ReadState on real files: persistence, atomic writes, corrupt files, failures, concurrency."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tui.store.state import FORMAT, VERSION, ReadState

REVIEW = "vllm-project/vllm#1"


def fresh(path: Path) -> ReadState:
    state = ReadState(path)
    state.load()
    return state


def on_disk(path: Path) -> dict:
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == FORMAT and doc["version"] == VERSION
    return doc


def test_marks_survive_a_new_instance(tmp_path: Path) -> None:
    path = tmp_path / "state" / "state.json"
    state = fresh(path)
    assert state.warnings == []
    state.set_read(REVIEW, True)
    state.set_checked(REVIEW, "focus:a", True)
    state.set_checked(REVIEW, "focus:b", True)
    state.set_checked(REVIEW, "focus:b", False)
    state.set_checked("o/r:Other", "read_order:x", True)
    assert state.save() is False
    again = fresh(path)
    assert again.warnings == []
    assert again.is_read(REVIEW)
    assert not again.is_read("o/r:Other")
    assert again.checked(REVIEW) == {"focus:a"}
    assert again.checked("o/r:Other") == {"read_order:x"}
    assert again.checked("unknown") == frozenset()


def test_default_location_honours_xdg_state_home(isolated_dirs: dict[str, Path]) -> None:
    from tui.store.locations import state_file

    assert state_file() == isolated_dirs["XDG_STATE_HOME"] / "prdigest-tui" / "state.json"


def test_every_save_leaves_valid_json_and_no_temp_files(tmp_path: Path) -> None:
    folder = tmp_path / "state"  # created by the first save
    path = folder / "state.json"
    state = fresh(path)
    for i in range(20):
        state.set_checked(REVIEW, f"focus:{i}", i % 3 != 0)
        state.set_read(REVIEW, i % 2 == 0)
        state.save()
        doc = on_disk(path)
        assert len(doc["reviews"][REVIEW]["items"]) == i + 1
        assert doc["reviews"][REVIEW]["read"]["v"] is (i % 2 == 0)
        assert sorted(os.listdir(folder)) == ["state.json", "state.json.lock"]


def truncated() -> bytes:
    doc = {"format": FORMAT, "version": VERSION, "reviews": {REVIEW: {"items": {}}}}
    data = json.dumps(doc).encode()
    return data[: len(data) // 2]


CORRUPT = {
    "garbage": b"\x00\xffnot json at all",
    "truncated": truncated(),
    "empty": b"",
    "list": b"[]",
    "other-json": b'{"hello": "world"}',
    "wrong-version": json.dumps({"format": FORMAT, "version": 99, "reviews": {}}).encode(),
    "bad-mark": json.dumps(
        {"format": FORMAT, "version": VERSION, "reviews": {REVIEW: {"items": {"focus:a": {"v": "yes"}}}}}
    ).encode(),
}


@pytest.mark.parametrize("kind", sorted(CORRUPT))
def test_corrupt_file_is_moved_aside_on_load(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "state.json"
    path.write_bytes(CORRUPT[kind])
    state = fresh(path)
    assert state.reviews == {}
    [aside] = tmp_path.glob("state.json.corrupt-*")
    assert aside.read_bytes() == CORRUPT[kind]
    assert not path.exists()
    [warning] = state.warnings
    assert "unreadable" in warning and str(aside) in warning
    state.set_read(REVIEW, True)
    state.save()
    assert on_disk(path)["reviews"][REVIEW]["read"]["v"] is True
    assert aside.read_bytes() == CORRUPT[kind]
    assert fresh(path).is_read(REVIEW)


def test_file_corrupted_after_load_is_moved_aside_on_save(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    state = fresh(path)
    state.set_checked(REVIEW, "focus:a", True)
    state.save()
    path.write_bytes(b'{"format": "prdigest')  # another program broke it meanwhile
    state.set_checked(REVIEW, "focus:b", True)
    state.save()
    [aside] = tmp_path.glob("state.json.corrupt-*")
    assert aside.read_bytes() == b'{"format": "prdigest'
    assert len(state.warnings) == 1
    assert fresh(path).checked(REVIEW) == {"focus:a", "focus:b"}


def test_state_folder_blocked_by_a_file(tmp_path: Path) -> None:
    # Tests run as root, so chmod cannot make a folder unwritable: make the parent a file.
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    state = fresh(blocker / "prdigest-tui" / "state.json")
    state.set_read(REVIEW, True)
    state.set_checked(REVIEW, "focus:a", True)
    assert state.save() is False
    assert state.warnings
    assert state.is_read(REVIEW)
    assert state.checked(REVIEW) == {"focus:a"}
    assert blocker.read_text() == "not a folder"


def test_state_folder_cannot_be_created(tmp_path: Path) -> None:
    state = fresh(Path("/proc/prdigest-tui-test") / "state.json")
    assert state.warnings == []  # nothing there yet is not a problem
    state.set_read(REVIEW, True)
    assert state.save() is False
    [warning] = state.warnings
    assert warning.startswith("Cannot save marks to /proc/prdigest-tui-test/state.json")
    state.set_read(REVIEW, False)
    state.save()  # stops trying: one warning, not one per mark
    assert len(state.warnings) == 1
    assert not state.is_read(REVIEW)


def test_two_instances_merge(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    first, second = fresh(path), fresh(path)
    first.set_checked(REVIEW, "focus:a", True)
    first.set_read("o/r#2", True)
    second.set_checked(REVIEW, "focus:b", True)
    second.set_read("o/r#3", True)
    assert first.save() is False
    assert second.save() is True  # it merged marks it did not have
    assert second.checked(REVIEW) == {"focus:a", "focus:b"}
    assert first.save() is True
    assert first.checked(REVIEW) == {"focus:a", "focus:b"}
    for state in (first, second, fresh(path)):
        assert state.checked(REVIEW) == {"focus:a", "focus:b"}
        assert state.is_read("o/r#2") and state.is_read("o/r#3")


@pytest.mark.parametrize("newer_saves_first", [True, False])
def test_newer_unmark_wins_over_older_mark(tmp_path: Path, newer_saves_first: bool) -> None:
    path = tmp_path / "state.json"
    older, newer = fresh(path), fresh(path)
    older.set_checked(REVIEW, "focus:a", True)
    older.set_read(REVIEW, True)
    time.sleep(0.002)
    newer.set_checked(REVIEW, "focus:a", False)
    newer.set_read(REVIEW, False)
    order = (newer, older) if newer_saves_first else (older, newer)
    for state in order:
        state.save()
    older.save()
    for state in (older, newer, fresh(path)):
        assert state.checked(REVIEW) == frozenset()
        assert not state.is_read(REVIEW)


def test_memory_only_state() -> None:
    state = ReadState(None)
    state.load()
    state.set_read(REVIEW, True)
    assert state.save() is False
    assert state.is_read(REVIEW)
    assert state.warnings == []


WORKER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from tui.store.state import ReadState

    path, prefix, go = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    state = ReadState(path)
    state.load()
    while not go.exists():
        time.sleep(0.001)
    for i in range(200):
        state.set_checked("o/r#1", f"focus:{prefix}{i}", True)
        state.save()
    assert not state.warnings, state.warnings
    """
)


def test_two_processes_lose_no_marks(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    go = tmp_path / "go"
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(path), prefix, str(go)],
            stderr=subprocess.PIPE,
            text=True,
        )
        for prefix in ("a", "b")
    ]
    time.sleep(0.2)  # let both reach the start line
    go.touch()
    for worker in workers:
        _, err = worker.communicate(timeout=60)
        assert worker.returncode == 0, err
    checked = fresh(path).checked("o/r#1")
    expected = {f"focus:{prefix}{i}" for prefix in ("a", "b") for i in range(200)}
    assert len(checked) == 400
    assert checked == expected
    assert not list(tmp_path.glob("*.tmp"))
    assert not list(tmp_path.glob("*.corrupt-*"))


def test_a_review_that_gains_a_pr_keeps_its_marks(tmp_path: Path) -> None:
    from tui.core.model import Item, Location, Review

    def review(pr: int | None) -> Review:
        return Review(
            title="Move the indexer",
            repo="vllm-project/vllm",
            verdict="deep",
            summary="s",
            tags=(),
            location=Location(tmp_path / "e.yaml", 1, 1),
            pr=pr,
            focus=(Item("focus", "one"),),
        )

    before, after = review(None), review(55358)
    item = before.focus[0]
    path = tmp_path / "state.json"
    state = ReadState(path)
    state.set_read(before.key, True)
    state.set_checked(before.key, item.key, True, item.digest)
    state.save()

    later = ReadState(path)
    later.load()
    assert not later.is_read(after.key)
    assert later.adopt_title_marks([after]) == 1
    assert later.is_read(after.key) and later.checked(after.key) == {item.key}
    assert later.is_read(before.key)  # the old key's marks stay for an older entry file
    later.save()
    again = ReadState(path)
    again.load()
    assert again.is_read("vllm-project/vllm#55358")
    # marks made under the new key are never replaced by the old ones
    again.set_read(after.key, False)
    assert again.adopt_title_marks([after]) == 0 and not again.is_read(after.key)


def test_a_state_too_large_to_read_is_left_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader of a very big library has a big state file: over the limit it is
    not read, but neither moved aside nor replaced (that would lose every
    mark); marks made meanwhile are kept in memory and reported unsaved."""
    from tui.store import state as state_module

    path = tmp_path / "marks" / "state.json"
    big = fresh(path)
    for n in range(200):
        big.set_read(f"o/r#{n}", True)
    big.save()
    written = path.read_bytes()
    inode = path.stat().st_ino
    monkeypatch.setattr(state_module, "MAX_STATE_BYTES", len(written) - 1)
    state = fresh(path)
    assert state.reviews == {}
    [warning] = state.warnings
    assert "too large to read" in warning and "left as it is" in warning and str(path) in warning
    state.set_read(REVIEW, True)
    assert state.save() is False
    assert path.read_bytes() == written and path.stat().st_ino == inode
    assert sorted(p.name for p in path.parent.iterdir()) == ["state.json", "state.json.lock"]  # nothing aside
    assert "too large to read" in (state.unsaved_report() or "")
    monkeypatch.setattr(state_module, "MAX_STATE_BYTES", len(written))
    again = fresh(path)
    assert again.warnings == [] and all(again.is_read(f"o/r#{n}") for n in range(200))
