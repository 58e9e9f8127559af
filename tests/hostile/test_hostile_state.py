"""The reader's marks under abuse: killed writers, broken state files, folders
that cannot be written, two readers at once.

Real state files and real processes; `kill -9` is a real SIGKILL.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.deadline import deadline
from tests.privileges import unprivileged
from tui.core.changes import compare
from tui.core.model import Item, Location, Review
from tui.store.state import FORMAT, VERSION, ReadState

REVIEW = "o/r#1"
SHOWN = Review("t", "o/r", "deep", "s", ("a",), Location(Path("x.yaml"), 1, 1), focus=(Item("focus", "a"),))


def fresh(path: Path) -> ReadState:
    state = ReadState(path)
    state.load()
    return state


def doc(reviews: dict) -> dict:
    return {"format": FORMAT, "version": VERSION, "reviews": reviews}


# -- kill -9 during a storm of saves -------------------------------------------------------

STORM = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from tui.store.state import ReadState

    path, review = Path(sys.argv[1]), sys.argv[2]
    state = ReadState(path)
    state.load()
    assert not state.warnings, state.warnings
    step = 0
    while True:
        # Toggle items and the read mark in a fixed pattern, so the marks after
        # any step are known; report each save once it has returned.
        state.set_checked(review, f"focus:{step % 7}", (step // 7) % 2 == 0)
        state.set_read(review, step % 3 == 0)
        state.save()
        assert not state.warnings, state.warnings
        print(step, flush=True)
        step += 1
    """
)


def expected_after(step: int) -> tuple[dict[str, bool], bool]:
    """The storm's marks once save number `step` has been written."""
    items: dict[str, bool] = {}
    for n in range(step + 1):
        items[f"focus:{n % 7}"] = (n // 7) % 2 == 0
    return items, step % 3 == 0


def marks_on_disk(path: Path, review: str) -> tuple[dict[str, bool], bool]:
    state = fresh(path)
    assert state.warnings == [], state.warnings  # parses, nothing moved aside
    marks = state.reviews[review]
    return {key: mark.value for key, mark in marks.items.items()}, bool(marks.read and marks.read.value)


def test_kill_9_during_a_storm_of_saves_leaves_a_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "state" / "state.json"
    rng = random.Random()
    seed = rng.randrange(1 << 30)
    rng.seed(seed)
    for round_ in range(5):
        review = f"o/r#{round_}"
        worker = subprocess.Popen(
            [sys.executable, "-c", STORM, str(path), review],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert worker.stdout is not None
        first = worker.stdout.readline()  # saves are under way
        assert first.strip() == "0", worker.stderr.read() if worker.stderr else ""
        time.sleep(rng.uniform(0.02, 0.3))
        worker.send_signal(signal.SIGKILL)
        out, err = worker.communicate(timeout=10)
        assert worker.returncode == -signal.SIGKILL, err
        steps = [int(line) for line in (first + out).split()]
        last = steps[-1]  # the last save known to have returned
        # On disk: that save, or the next one if it landed before the kill.
        got = marks_on_disk(path, review)
        assert got in (expected_after(last), expected_after(last + 1)), f"seed {seed}, round {round_}"
        for earlier in range(round_):  # earlier rounds' marks are all still there
            assert f"o/r#{earlier}" in fresh(path).reviews
    # Temp files of killed writes are cleared by the next save.
    state = fresh(path)
    state.set_read("o/r#last", True)
    state.save()
    assert sorted(os.listdir(path.parent)) == ["state.json", "state.json.lock"]


def test_leftover_temp_files_are_removed_by_the_next_save(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    leftover = tmp_path / ".state.json.abc123.tmp"
    leftover.write_bytes(b'{"format": "prdigest-tui/state", "vers')  # a write killed half way
    unrelated = tmp_path / ".other.json.abc123.tmp"
    unrelated.write_bytes(b"not ours")
    state = fresh(path)
    state.set_read(REVIEW, True)
    state.save()
    assert not leftover.exists()
    assert unrelated.exists()
    assert fresh(path).is_read(REVIEW)


# -- broken state files ------------------------------------------------------------------------

BROKEN = {
    "deeply-nested": b"[" * 100_000,
    "huge-number": json.dumps(doc({})).replace("1", "1" * 5000, 1).encode(),
    "nan-time": json.dumps(doc({REVIEW: {"read": {"v": True, "t": float("nan")}}})).encode(),
    "infinite-time": b'{"format": "prdigest-tui/state", "version": 1, "reviews": {"o/r#1": {"read": {"v": true, "t": Infinity}}}}',
    "too-big-time": json.dumps(doc({REVIEW: {"read": {"v": True, "t": 10**400}}})).encode(),
    "bool-time": json.dumps(doc({REVIEW: {"read": {"v": True, "t": True}}})).encode(),
    "seen-items-not-pairs": json.dumps(
        doc({REVIEW: {"seen": {"v": {"fields": {}, "items": {"focus": [1, 2]}}, "t": 1.0}}})
    ).encode(),
    "seen-fields-not-text": json.dumps(
        doc({REVIEW: {"seen": {"v": {"fields": {"title": [1]}, "items": {}}, "t": 1.0}}})
    ).encode(),
    "items-a-list": json.dumps(doc({REVIEW: {"items": ["focus:a"]}})).encode(),
    "null": b"null",
    "string": b'"state"',
    "number": b"42",
    "utf16": json.dumps(doc({})).encode("utf-16"),
    "nul-bytes": b"\x00" * 4096,
    "bom-and-garbage": b"\xef\xbb\xbf{\x1b[31m",
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_broken_state_is_moved_aside_and_later_marks_are_saved(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "state.json"
    path.write_bytes(BROKEN[kind])
    state = fresh(path)  # never raises
    assert state.reviews == {}
    [warning] = state.warnings
    [aside] = tmp_path.glob("state.json.corrupt-*")
    assert aside.read_bytes() == BROKEN[kind]
    assert str(aside) in warning and "\x1b" not in warning and len(warning) < 500
    state.set_checked(REVIEW, "focus:a", True)
    state.save()
    again = fresh(path)
    assert again.warnings == []
    assert again.checked(REVIEW) == {"focus:a"}


def test_two_broken_files_in_the_same_second_are_both_kept(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_bytes(b"first broken file")
    state = fresh(path)
    path.write_bytes(b"second broken file")  # broken again, at once, by someone else
    state.set_read(REVIEW, True)
    state.save()
    asides = sorted(p.read_bytes() for p in tmp_path.glob("state.json.corrupt-*"))
    assert asides == [b"first broken file", b"second broken file"]
    assert len(state.warnings) == 2
    assert fresh(path).is_read(REVIEW)


def test_a_folder_in_place_of_the_state_file_is_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.mkdir()
    (path / "keep.txt").write_text("mine")
    state = fresh(path)
    [warning] = state.warnings
    assert "a folder, not a regular file" in warning and "left as it is" in warning
    state.set_read(REVIEW, True)
    state.save()  # refused: marks stay in memory
    assert state.is_read(REVIEW) and len(state.warnings) == 1
    assert (path / "keep.txt").read_text() == "mine"
    assert [p.name for p in tmp_path.glob("state.json*")] == ["state.json"]


def test_a_fifo_in_place_of_the_state_file_does_not_block(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    os.mkfifo(path)
    with deadline(5):  # reading a pipe with no writer would wait for ever
        state = fresh(path)
        state.set_read(REVIEW, True)
        state.save()
    assert len(state.warnings) == 1 and "a named pipe, not a regular file" in state.warnings[0]
    assert state.is_read(REVIEW)
    assert stat.S_ISFIFO(os.lstat(path).st_mode)  # never renamed or replaced
    assert [p.name for p in tmp_path.glob("state.json*")] == ["state.json"]


_JSON = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=True) | st.integers() | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=20,
)


@st.composite
def _state_documents(draw: st.DrawFn) -> bytes:
    """Garbage, arbitrary JSON, and valid state with one part replaced by anything."""
    kind = draw(st.sampled_from(["bytes", "json", "mutated"]))
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "json":
        return json.dumps(draw(_JSON)).encode()
    mark = {"v": True, "t": 1.5, "h": "abc"}
    good = doc(
        {
            REVIEW: {
                "read": mark,
                "items": {"focus:a": mark},
                "seen": {"v": {"fields": {}, "items": {}}, "t": 1.0},
            }
        }
    )
    places = ["format", "version", "reviews", "review", "read", "items", "item", "seen", "v", "t"]
    places += ["fingerprint", "fields", "field", "sections", "section", "pair"]
    where = draw(st.sampled_from(places))
    junk = draw(_JSON)
    entry = good["reviews"][REVIEW]
    fingerprint = entry["seen"]["v"]
    fingerprint.update({"fields": {"title": "d1"}, "items": {"focus": [["focus:a", "d2"]]}})
    if where in ("format", "version", "reviews"):
        good[where] = junk
    elif where == "review":
        good["reviews"][REVIEW] = junk
    elif where in ("read", "items", "seen"):
        entry[where] = junk
    elif where == "item":
        entry["items"]["focus:a"] = junk
    elif where == "fingerprint":
        entry["seen"]["v"] = junk
    elif where in ("fields", "sections"):
        fingerprint["fields" if where == "fields" else "items"] = junk
    elif where == "field":
        fingerprint["fields"]["title"] = junk
    elif where == "section":
        fingerprint["items"]["focus"] = junk
    elif where == "pair":
        fingerprint["items"]["focus"][0] = junk
    else:
        entry["read"] = dict(mark, **{where: junk})
    return json.dumps(good).encode()


@settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_state_documents())
def test_any_state_file_loads_or_is_moved_aside(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "state.json"
        path.write_bytes(data)
        state = fresh(path)  # never raises
        moved = list(Path(folder).glob("state.json.corrupt-*"))
        if state.warnings:
            assert len(state.warnings) == 1 and len(moved) == 1 and not path.exists()
            assert moved[0].read_bytes() == data
        else:
            assert moved == [] and path.read_bytes() == data
        # Whatever was there, marks made now are saved and read back.
        state.set_checked("p/q#9", "focus:new", True)
        state.save()
        assert fresh(path).warnings == []
        assert fresh(path).checked("p/q#9") == {"focus:new"}
        for key in state.reviews:  # what was kept can be shown
            state.checked(key)
            state.is_read(key)
            if (seen := state.seen(key)) is not None:
                compare(seen, SHOWN)  # "updated since read" is worked out from it


# -- a state folder that cannot be written -----------------------------------------------------


def test_a_read_only_state_folder_keeps_marks_in_memory(tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="prdigest-state-"))
    try:
        path = folder / "state.json"
        before = fresh(path)
        before.set_checked(REVIEW, "focus:old", True)
        before.save()
        folder.chmod(0o755)  # readable by all, writable by its owner (root) only
        path.chmod(0o644)
        (folder / "state.json.lock").chmod(0o644)
        saved = path.read_bytes()
        with unprivileged():
            state = fresh(path)
            assert state.warnings == [] and state.checked(REVIEW) == {"focus:old"}
            state.set_checked(REVIEW, "focus:new", True)
            state.save()
            [warning] = state.warnings
            state.set_checked(REVIEW, "focus:newer", True)
            state.save()  # stops trying: one warning, not one per mark
        assert warning.startswith(f"Cannot save marks to {path}: Permission denied.")
        assert len(state.warnings) == 1
        assert state.checked(REVIEW) == {"focus:old", "focus:new", "focus:newer"}
        assert path.read_bytes() == saved  # the file on disk is untouched
        assert sorted(os.listdir(folder)) == ["state.json", "state.json.lock"]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# -- two readers at once ------------------------------------------------------------------------

TOGGLER = textwrap.dedent(
    """
    import json, random, sys, time
    from pathlib import Path
    from tui.store.state import ReadState

    path, prefix, seconds, go = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3]), Path(sys.argv[4])
    state = ReadState(path)
    state.load()
    while not go.exists():
        time.sleep(0.001)
    rng = random.Random(prefix)
    mine: dict[str, bool] = {}
    read = False
    saves = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        item = f"focus:{prefix}{rng.randrange(40)}"
        mine[item] = not mine.get(item, False)
        state.set_checked("o/r#1", item, mine[item])
        if rng.random() < 0.2:
            read = not read
            state.set_read(f"o/r#{prefix}", read)
        state.save()
        saves += 1
        time.sleep(rng.uniform(0, 0.004))
    assert not state.warnings, state.warnings
    print(json.dumps({"items": mine, "read": read, "saves": saves}))
    """
)


def test_two_readers_toggling_for_ten_seconds_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "state" / "state.json"
    go = tmp_path / "go"
    workers = {
        prefix: subprocess.Popen(
            [sys.executable, "-c", TOGGLER, str(path), prefix, "10", str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for prefix in ("a", "b")
    }
    time.sleep(0.3)  # both started and waiting
    go.touch()
    final = {}
    for prefix, worker in workers.items():
        out, err = worker.communicate(timeout=60)
        assert worker.returncode == 0, err
        final[prefix] = json.loads(out)
        assert final[prefix]["saves"] > 100  # a storm, not a trickle
    state = fresh(path)
    assert state.warnings == []
    checked = state.checked("o/r#1")
    for prefix, result in final.items():
        for item, value in result["items"].items():
            assert (item in checked) is value, (prefix, item)
        assert state.is_read(f"o/r#{prefix}") is result["read"]
    assert sorted(os.listdir(path.parent)) == ["state.json", "state.json.lock"]
