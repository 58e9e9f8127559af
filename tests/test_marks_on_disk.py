"""The promise that every mark is kept, against what others put on disk: planted
lock-file links, a full file system, a device as the state path, clocks that
disagree, interrupted cache saves, a lock held by another process.

Real files, real processes and signals, a real tmpfs; the app through Pilot.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from app_helpers import make_app, write_review
from deadline import deadline

from tui.load.cache import ParseCache
from tui.store.state import ReadState

REVIEW = "o/r#1"


def fresh(path: Path) -> ReadState:
    state = ReadState(path)
    state.load()
    return state


async def wait_for(pilot: object, condition, what: str, seconds: float = 10.0) -> None:
    """Let the app run until `condition()` holds (a save off the loop has landed)."""
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await pilot.pause(0.02)  # type: ignore[attr-defined]
    raise AssertionError(f"never happened: {what}")


def one_review_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "entries"
    folder.mkdir()
    write_review(folder / "a.yaml", "Alpha", extra="pr: 1\nfocus:\n  - one\n")
    write_review(folder / "b.yaml", "Beta", extra="pr: 2\n")
    return folder


# -- 3. a planted lock-file link ------------------------------------------------------------


def test_a_lock_file_linked_elsewhere_creates_nothing_there(tmp_path: Path) -> None:
    shared = tmp_path / "shared"  # a folder others can write
    shared.mkdir()
    victim = tmp_path / "victim"
    (shared / "state.json.lock").symlink_to(victim)
    state = fresh(shared / "state.json")
    state.set_read(REVIEW, True)
    assert state.save() is False
    assert not os.path.lexists(victim)  # the link was not followed
    [warning] = state.warnings
    assert "lock file" in warning and "not a regular file" in warning
    assert state.is_read(REVIEW)  # kept in memory
    assert sorted(os.listdir(shared)) == ["state.json.lock"]  # nothing written without the lock


def test_a_lock_file_linked_to_an_existing_file_leaves_it_alone(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    before = victim.stat()
    (tmp_path / "state.json.lock").symlink_to(victim)
    state = fresh(tmp_path / "state.json")
    state.set_read(REVIEW, True)
    state.save()
    assert victim.read_bytes() == b"precious" and victim.stat().st_mtime_ns == before.st_mtime_ns
    assert len(state.warnings) == 1 and not (tmp_path / "state.json").exists()


def test_a_lock_that_is_a_fifo_or_a_folder_is_refused_without_hanging(tmp_path: Path) -> None:
    for kind in ("fifo", "folder"):
        folder = tmp_path / kind
        folder.mkdir()
        lock = folder / "state.json.lock"
        os.mkfifo(lock) if kind == "fifo" else lock.mkdir()
        with deadline(5):
            state = fresh(folder / "state.json")
            state.set_read(REVIEW, True)
            state.save()
        assert len(state.warnings) == 1 and "not a regular file" in state.warnings[0], kind
        assert state.is_read(REVIEW)
        assert not stat.S_ISREG(os.lstat(lock).st_mode)  # left as it was


async def test_the_reader_warns_about_a_planted_lock_link_and_keeps_marks(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    victim = tmp_path / "victim"
    (shared / "state.json.lock").symlink_to(victim)
    app = make_app(tmp_path, [one_review_folder(tmp_path)], state=shared / "state.json")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("r")

        def warned() -> list:
            return [n for n in app._notifications if "not a regular file" in n.message]

        await wait_for(pilot, lambda: warned(), "a warning about the lock file")
        assert warned()[0].severity == "warning"
        assert app.state.is_read(app.current_key)
        assert app.is_running
    assert not os.path.lexists(victim)


# -- 9. interrupted parse-cache saves ---------------------------------------------------------

CACHE_SAVER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from tui.load.cache import ParseCache

    cache = ParseCache(Path(sys.argv[1]), version_key="t")
    blob = b"x" * (1 << 20)
    cache.store(
        [(f"/e/{i}.yaml", (1, i), (("t", "o/r", "deep", ("a",), 1, 1, i, blob),), ()) for i in range(24)]
    )
    print("saving", flush=True)
    while True:  # save after save, so a signal lands in the middle of one
        cache.dirty = True
        cache.save()
    """
)


def _cache_saver(path: Path) -> subprocess.Popen:
    child = subprocess.Popen(
        [sys.executable, "-c", CACHE_SAVER, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline() == "saving\n"
    return child


def _temps(folder: Path) -> list[Path]:
    return sorted(folder.glob(".*.tmp"))


def _catch_mid_save(child: subprocess.Popen, folder: Path, sig: int) -> Path:
    """Send `sig` to `child` while one of its temp files exists; that file."""
    with deadline(30):
        while True:
            temps = _temps(folder)
            if temps:
                child.send_signal(sig)
                if sig == signal.SIGTERM:
                    child.wait()
                # Still there now the signal landed: it was caught in the middle.
                still = [t for t in temps if t.exists()]
                if still:
                    return still[0]
                if sig == signal.SIGTERM:
                    raise AssertionError("the save finished before the signal; try again")
                child.send_signal(signal.SIGCONT)


def test_a_cache_save_killed_by_sigterm_leaves_no_temp_file_after_the_next_save(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    path = folder / "parse-cache"
    for _attempt in range(5):
        child = _cache_saver(path)
        try:
            leaked = _catch_mid_save(child, folder, signal.SIGTERM)
            break
        except AssertionError:
            continue
        finally:
            child.kill()
            child.wait()
    else:
        raise AssertionError("never caught a save in the middle")
    assert child.returncode == -signal.SIGTERM
    assert leaked.stat().st_size > 0  # a partial cache, left behind
    # The next start (a fresh process) saves its cache: the leak is gone.
    subprocess.run(
        [sys.executable, "-c", "import sys; from pathlib import Path; from tui.load.cache import ParseCache;"
         "c = ParseCache(Path(sys.argv[1]), version_key='t'); c.load(); c.save()", str(path)],
        check=True,
    )  # fmt: skip
    assert _temps(folder) == []


def test_a_cache_save_still_under_way_in_another_process_keeps_its_temp_file(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    path = folder / "parse-cache"
    child = _cache_saver(path)
    try:
        theirs = _catch_mid_save(child, folder, signal.SIGSTOP)  # stopped in the middle of a save
        mine = ParseCache(path, version_key="t")
        mine.dirty = True
        mine.save()
        assert theirs.exists()  # a live writer's temp file is not ours to delete
        child.send_signal(signal.SIGCONT)
        with deadline(30):
            while theirs.exists():  # renamed into place by its writer
                time.sleep(0.005)
        assert ParseCache(path, version_key="t").load()  # and what it wrote is a whole cache
    finally:
        child.kill()
        child.wait()
