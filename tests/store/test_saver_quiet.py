"""A big state's saves wait for a quiet moment (boundedly), and never lose a
mark: `close` (quit, SIGTERM, SIGHUP) saves at once, and a save killed half-way
leaves the file as the last whole save wrote it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tui.store import saver as saver_module
from tui.store.saver import StateSaver
from tui.store.state import ReadState

BIG = saver_module.BIG_STATE


def big_state(path: Path, reviews: int = BIG) -> ReadState:
    state = ReadState(path)
    for n in range(reviews):
        state.set_read(f"o/r#{n}", n % 3 == 0)
    state.save()
    return state


def on_disk(path: Path) -> dict:
    return json.loads(path.read_bytes())["reviews"]


def test_a_big_states_save_waits_for_a_quiet_moment_and_close_saves_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A quiet moment far longer than any write here, however loaded the machine.
    monkeypatch.setattr(saver_module, "QUIET_S", 30.0)
    monkeypatch.setattr(saver_module, "MAX_DELAY_S", 60.0)
    path = tmp_path / "state.json"
    big_state(path)
    state = ReadState(path)
    state.load()
    saver = StateSaver(state)
    state.set_read("new#1", True)
    saver.request_save()
    time.sleep(0.3)
    assert "new#1" not in on_disk(path) and not saver.idle  # waiting, not written yet
    started = time.monotonic()
    assert saver.close() is None
    assert time.monotonic() - started < saver_module.QUIET_S  # not after the quiet moment: now
    assert on_disk(path)["new#1"]["read"]["v"] is True


def test_marks_made_without_a_pause_are_saved_within_the_bound(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    big_state(path)
    state = ReadState(path)
    state.load()
    saver = StateSaver(state)
    saved_at = None
    started = time.monotonic()
    n = 0
    while time.monotonic() - started < saver_module.MAX_DELAY_S + 3.0:
        state.set_read(f"burst#{n}", True)  # never quiet for QUIET_S
        saver.request_save()
        n += 1
        time.sleep(saver_module.QUIET_S / 4)
        saver.collect()
        if saved_at is None and "burst#0" in on_disk(path):
            saved_at = time.monotonic() - started
    saver.close()
    assert saved_at is not None, "never saved while marks kept coming"
    assert all(f"burst#{i}" in on_disk(path) for i in range(n))


def test_a_small_states_save_does_not_wait(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    state = ReadState(path)
    saver = StateSaver(state)
    state.set_read("a#1", True)
    saver.request_save()
    deadline = time.monotonic() + 10.0
    while not saver.idle and time.monotonic() < deadline:
        time.sleep(0.005)
    assert "a#1" in on_disk(path)
    saver.close()


CHILD = """
import sys
from pathlib import Path
from tui.store.state import ReadState
state = ReadState(Path(sys.argv[1]))
state.load()
print("ready", flush=True)
n = 0
while True:
    state.set_checked(f"o/r#{n % 5000}", "focus:1", True, "d")
    state.save()
    n += 1
"""


def test_a_save_killed_half_way_loses_no_mark_a_whole_save_wrote(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    before = big_state(path)
    read = {key for key in before.reviews if before.is_read(key)}
    for delay in (0.05, 0.13, 0.21, 0.34):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(path)],
            stdout=subprocess.PIPE,
            cwd=Path(__file__).resolve().parents[2],
        )
        assert child.stdout is not None and child.stdout.readline() == b"ready\n"
        time.sleep(delay)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        after = ReadState(path)
        after.load()
        assert not after.warnings
        assert read <= after.read_set and len(after.reviews) >= len(before.reviews)
