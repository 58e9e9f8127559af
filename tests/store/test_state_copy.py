"""The copy of the state file's marks in the cache folder (`tui.store.state_copy`):
read in place of the file while the file is the one it was made of, and a miss
(the file read as JSON) whenever it is not: the file changed, the copy is damaged,
cut short, of another version or of another file."""

from __future__ import annotations

import marshal
import os
import random
import time
import zlib
from pathlib import Path

import pytest

from tests.store.test_state_saves_big import fingerprint, some_marks
from tui.core.marks import ReviewMarks
from tui.store import state_copy
from tui.store.state import ReadState


def marks_of(state: ReadState) -> dict[str, tuple]:
    """Every review's marks as plain values (a `seen` record's fingerprint decoded)."""
    out = {}
    for key, marks in state.reviews.items():
        seen = (state.seen(key), marks.seen.at) if marks.seen else None
        out[key] = (marks.read, seen, dict(marks.items))
    return out


def saved_state(tmp_path: Path, seed: int = 0, keys: int = 300) -> tuple[Path, Path, ReadState]:
    path, copy = tmp_path / "state.json", tmp_path / "cache" / "copy.marshal"
    state = ReadState(path, copy=copy)
    some_marks(state, random.Random(seed), keys, 400)
    state.set_read("o/r0#title:with", True)  # a `repo:title` key
    state.set_seen("o/r0#ü", fingerprint(7))
    state.save()
    return path, copy, state


def fake_copy(path: Path, copy: Path, reviews: dict[str, ReviewMarks], *, made: int | None = None) -> None:
    """A copy of `path` as it is now holding `reviews`: not what the file holds,
    so a load that gives these marks read the copy."""
    key = state_copy.key_of(path, os.stat(path))
    data = state_copy.dumps(key, zlib.crc32(path.read_bytes()), reviews, None)
    if made is not None:  # the copy made at another time than now
        body = list(marshal.loads(data[4:]))
        body[2] = made
        raw = marshal.dumps(tuple(body))
        data = zlib.crc32(raw).to_bytes(4, "big") + raw
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_bytes(data)


def other_marks() -> dict[str, ReviewMarks]:
    other = ReadState(None)
    other.set_read("only/in#1", True)
    other.set_checked("only/in#2", "focus:1", True, "ab")
    return other.reviews


def loaded(path: Path, copy: Path) -> ReadState:
    state = ReadState(path, copy=copy)
    state.load()
    assert not state.warnings
    return state


def test_a_copy_kept_at_quit_gives_the_marks_the_file_gives(tmp_path: Path) -> None:
    path, copy, state = saved_state(tmp_path)
    assert state.keep_copy() and copy.exists()
    from_copy = loaded(path, copy)
    from_file = loaded(path, tmp_path / "no-copy")
    assert from_copy._copy_of is not None and from_file._copy_of is None
    assert marks_of(from_copy) == marks_of(from_file) == marks_of(state)
    assert from_copy.read_set == from_file.read_set and from_copy.marked_set == from_file.marked_set
    assert from_copy.adopt_title_marks([]) == 0
    # The clock saw the newest mark of the copy: a new mark wins over all of them.
    from_copy.set_read("o/r0#1", True)
    assert all(from_copy.reviews["o/r0#1"].read.at > m.read.at for m in state.reviews.values() if m.read)  # type: ignore[union-attr]


def test_a_copy_of_the_file_as_it_is_is_read_in_its_place(tmp_path: Path) -> None:
    path, copy, _ = saved_state(tmp_path)
    fake_copy(path, copy, other_marks(), made=time.time_ns() + 10**10)
    state = loaded(path, copy)
    assert set(state.reviews) == {"only/in#1", "only/in#2"}
    assert state.is_read("only/in#1") and state.marked_set == {"only/in#2"}


def test_a_copy_is_not_written_again_for_the_file_it_is_of(tmp_path: Path) -> None:
    path, copy, state = saved_state(tmp_path)
    assert state.keep_copy()
    assert not state.keep_copy()
    again = loaded(path, copy)
    assert not again.keep_copy()  # read from it: nothing new to keep


def test_a_state_file_changed_since_is_read_again(tmp_path: Path) -> None:
    path, copy, _ = saved_state(tmp_path)
    fake_copy(path, copy, other_marks(), made=time.time_ns() + 10**10)
    other = ReadState(path)  # another instance (or a sync tool) writes the file
    other.load()
    other.set_read("new/one#1", True)
    other.save()
    state = loaded(path, copy)
    assert "only/in#1" not in state.reviews and state.is_read("new/one#1")


def test_a_file_edited_in_place_is_read_again(tmp_path: Path) -> None:
    path, copy, _ = saved_state(tmp_path)
    fake_copy(path, copy, other_marks(), made=time.time_ns() + 10**10)
    data = path.read_bytes()
    time.sleep(0.05)  # past the timestamp tick the copy's stat was taken in
    with open(path, "r+b") as handle:  # the same inode, the same size
        handle.write(data.replace(b"o/r0#title:with", b"o/r0#title:WITH"))
    state = loaded(path, copy)
    assert "only/in#1" not in state.reviews and state.is_read("o/r0#title:WITH")


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty", "garbage"])
def test_a_damaged_copy_is_a_miss(tmp_path: Path, damage: str) -> None:
    path, copy, state = saved_state(tmp_path)
    fake_copy(path, copy, other_marks(), made=time.time_ns() + 10**10)
    data = bytearray(copy.read_bytes())
    if damage == "flip":
        data[len(data) // 2] ^= 0x40
    elif damage == "truncate":
        data = data[: len(data) - 7]
    elif damage == "empty":
        data = bytearray()
    else:
        data = bytearray(marshal.dumps(("not", "ours")))
    copy.write_bytes(bytes(data))
    assert marks_of(loaded(path, copy)) == marks_of(state)


def test_a_copy_of_another_version_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, copy, state = saved_state(tmp_path)
    monkeypatch.setattr(state_copy, "VERSION", state_copy.VERSION + 1)
    fake_copy(path, copy, other_marks(), made=time.time_ns() + 10**10)
    monkeypatch.undo()
    assert marks_of(loaded(path, copy)) == marks_of(state)


def test_a_copy_of_another_file_is_a_miss(tmp_path: Path) -> None:
    path, copy, state = saved_state(tmp_path)
    twin = tmp_path / "twin.json"
    twin.write_bytes(path.read_bytes())
    fake_copy(twin, copy, other_marks(), made=time.time_ns() + 10**10)
    assert marks_of(loaded(path, copy)) == marks_of(state)


def test_a_copy_made_just_after_the_file_changed_is_checked_against_its_bytes(tmp_path: Path) -> None:
    """Within a timestamp tick of the file's last change, the stat alone may not
    tell one version from the next: the copy's CRC of the bytes must match."""
    path, copy, state = saved_state(tmp_path)
    made = os.stat(path).st_mtime_ns + 1
    fake_copy(path, copy, other_marks(), made=made)
    assert "only/in#1" in loaded(path, copy).reviews  # the bytes are the copy's
    key = state_copy.key_of(path, os.stat(path))
    data = state_copy.dumps(key, 12345, other_marks(), None)  # the CRC of other bytes
    body = list(marshal.loads(data[4:]))
    body[2] = made
    raw = marshal.dumps(tuple(body))
    copy.write_bytes(zlib.crc32(raw).to_bytes(4, "big") + raw)
    assert marks_of(loaded(path, copy)) == marks_of(state)


def test_marks_made_after_a_load_from_the_copy_merge_with_another_instance(tmp_path: Path) -> None:
    path, copy, state = saved_state(tmp_path)
    state.keep_copy()
    ours = loaded(path, copy)
    assert ours._copy_of is not None
    theirs = loaded(path, tmp_path / "their-copy")
    theirs.set_read("theirs#1", True)
    theirs.save()
    ours.set_checked("ours#1", "focus:1", True, "d1")
    assert ours.save()  # theirs merged in
    assert ours.is_read("theirs#1")
    ours.keep_copy()
    again = loaded(path, copy)
    assert again._copy_of is not None
    assert again.is_read("theirs#1") and again.checked("ours#1") == {"focus:1"}
    assert marks_of(again) == marks_of(loaded(path, tmp_path / "none"))


def test_an_unsaved_or_failed_state_keeps_no_copy(tmp_path: Path) -> None:
    path, copy, state = saved_state(tmp_path)
    path.unlink()
    assert not state.keep_copy()
    assert not ReadState(tmp_path / "missing.json", copy=copy).keep_copy()
    assert not copy.exists()


def test_a_state_read_from_its_copy_saves_what_one_dump_of_the_whole_state_writes(tmp_path: Path) -> None:
    """Its fingerprints are JSON text until compared: written as they are, the
    file is byte for byte what writing them decoded gives."""
    from tests.store.test_state_saves_big import plain_dump

    path, copy, state = saved_state(tmp_path, keys=50)
    state.keep_copy()
    again = loaded(path, copy)
    assert any(isinstance(m.seen.fingerprint, str) for m in again.reviews.values() if m.seen)
    again.seen("o/r0#ü")  # one decoded, the others not
    again.set_read("o/r1#2", False)
    again.save()
    assert path.read_bytes() == plain_dump(state.reviews | {"o/r1#2": again.reviews["o/r1#2"]})
    assert path.read_bytes() == plain_dump(loaded(path, tmp_path / "none").reviews)


def test_before_its_marks_are_made_a_state_read_from_its_copy_answers_as_the_file_does(
    tmp_path: Path,
) -> None:
    """What the first frame asks is answered from the copy's columns; every
    review's marks are made only when first needed (here: a mark)."""
    path, copy, state = saved_state(tmp_path)
    state.keep_copy()
    lazy, whole = loaded(path, copy), loaded(path, tmp_path / "none")
    keys = set(whole.reviews) | {"not/there#1"}
    assert lazy._rest is not None  # not made yet
    for key in keys:
        assert lazy.is_read(key) == whole.is_read(key), key
        assert lazy.checked(key) == whole.checked(key), key
        assert lazy.checked(key, {}) == whole.checked(key, {}), key
        assert lazy.seen(key) == whole.seen(key), key
        assert lazy.touched(key) == whole.touched(key), key
    assert lazy.read_set == whole.read_set and lazy.marked_set == whole.marked_set
    assert lazy._rest is not None  # still not made: nothing asked needed them
    assert lazy.adopt_title_marks([]) == 0
    epoch = lazy.epoch
    key = next(k for k in whole.reviews if whole.reviews[k].read and not whole.reviews[k].items)
    lazy.set_checked(key, "focus:9", True, "d9")  # a mark: made now, nothing lost
    assert lazy._rest is None and lazy.epoch == epoch
    assert lazy.reviews[key].read == whole.reviews[key].read
    assert lazy.marked_set == whole.marked_set | {key}
    lazy.save()
    after = loaded(path, tmp_path / "none")
    assert after.reviews[key].read == whole.reviews[key].read and after.checked(key) == {"focus:9"}
    assert len(after.reviews) == len(whole.reviews)


def test_each_state_file_has_its_own_copy_in_the_cache_folder(tmp_path: Path) -> None:
    from tui.store import locations
    from tui.store.marks_at import open_marks

    default, other = open_marks(None), open_marks(tmp_path / "other.json")
    cache = Path(os.environ["XDG_CACHE_HOME"])
    assert default.copy is not None and other.copy is not None
    assert default.copy.is_relative_to(cache) and other.copy.is_relative_to(cache)
    assert default.copy != other.copy
    assert default.copy == locations.state_copy_file(locations.state_file())
    assert open_marks(f"{tmp_path / 'shared'}/").copy is None  # a shared folder keeps its own cache
