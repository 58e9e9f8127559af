"""The promise that every mark is kept, against what others put on disk: planted
lock-file links, a full file system, a device as the state path, clocks that
disagree, interrupted cache saves, a lock held by another process.

Real files, real processes and signals, a real tmpfs; the app through Pilot.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import pty
import select
import signal
import socket
import stat
import struct
import subprocess
import sys
import termios
import textwrap
import time
from pathlib import Path

import pytest

from tests.app_helpers import make_app, toasts, write_review
from tests.cli_helpers import run_tui
from tests.deadline import deadline
from tests.waiting import wait_until
from tui.core.clock import HybridClock, Stamp
from tui.load.cache import ParseCache
from tui.store.saver import StateSaver
from tui.store.state import FORMAT, VERSION, ReadState

REVIEW = "o/r#1"


def fresh(path: Path) -> ReadState:
    state = ReadState(path)
    state.load()
    return state


def one_review_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "entries"
    folder.mkdir()
    write_review(folder / "a.yaml", "Alpha", extra="pr: 1\nfocus:\n  - one\n")
    write_review(folder / "b.yaml", "Beta", extra="pr: 2\n")
    return folder


def run_in_pty(argv: list[str], keys: list[bytes], ready: bytes = b"Alpha", seconds: float = 30.0) -> str:
    """Run `argv` on a real pseudo-terminal, type `keys` once `ready` is drawn,
    and return everything it wrote (screen and stderr) until it exits."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color"}
    child = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    out = bytearray()
    end = time.monotonic() + seconds
    pending = list(keys)
    try:
        while time.monotonic() < end:
            readable, _, _ = select.select([master], [], [], 0.2)
            if readable:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: the child has closed the terminal
                    break
                if not data:
                    break
                out += data
            elif pending and ready in out:
                os.write(master, pending.pop(0))
                time.sleep(0.5)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        os.close(master)
    assert child.returncode == 0, out.decode(errors="replace")[-2000:]
    return out.decode(errors="replace")


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
            return [n for n in toasts(app) if "not a regular file" in n.text]

        await wait_until(pilot, lambda: warned(), "a warning about the lock file")
        assert warned()[0].severity == "warning"
        assert app.reader.state.is_read(app.reader.current_key)
        assert app.is_running
    assert not os.path.lexists(victim)


# -- 9. interrupted parse-cache saves ---------------------------------------------------------

CACHE_SAVER = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from tui.load.cache import ParseCache

    cache = ParseCache(Path(sys.argv[1]), version_key="t")
    blob = os.urandom(1 << 20)  # bodies are compressed: these do not shrink
    # An entry as parse_files makes it: list fields, checklist size, fingerprint digest, body.
    cache.store(
        [(f"/e/{i}.yaml", (1, i), (("t", "o/r", "deep", ("a",), 1, 1, i, 0, blob),), ()) for i in range(24)]
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


def _written(path: Path) -> bool:
    """Has the save written part of the cache into this temp file yet?"""
    try:
        return path.stat().st_size > 0
    except FileNotFoundError:
        return False


def _catch_mid_save(child: subprocess.Popen, folder: Path, sig: int) -> Path:
    """Send `sig` to `child` while one of its temp files exists; that file."""
    with deadline(30):
        while True:
            temps = [temp for temp in _temps(folder) if _written(temp)]
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


# -- 6. clocks that disagree -----------------------------------------------------------------

AN_HOUR = 3600.0


def a_file_from_a_clock_ahead(path: Path, read: bool = True) -> None:
    """Marks written by a reader whose clock is an hour ahead (another machine,
    or this one before NTP stepped its clock back)."""
    ahead = time.time() + AN_HOUR
    path.write_text(
        json.dumps(
            {
                "format": FORMAT,
                "version": VERSION,
                "reviews": {
                    REVIEW: {"read": {"v": read, "t": ahead}, "items": {"focus:a": {"v": True, "t": ahead}}}
                },
            }
        ),
        encoding="utf-8",
    )


def test_a_mark_stamped_in_the_future_can_be_undone(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    a_file_from_a_clock_ahead(path)
    state = fresh(path)
    assert state.is_read(REVIEW) and state.checked(REVIEW) == {"focus:a"}
    state.set_read(REVIEW, False)  # `r`
    state.set_checked(REVIEW, "focus:a", False)
    state.save()
    assert not state.is_read(REVIEW) and state.checked(REVIEW) == frozenset()
    again = fresh(path)
    assert not again.is_read(REVIEW) and again.checked(REVIEW) == frozenset()


def test_a_mark_from_a_clock_ahead_merged_at_save_can_be_undone(tmp_path: Path) -> None:
    """The future mark arrives while the reader runs (another reader saved it):
    the reader's next mark still wins."""
    path = tmp_path / "state.json"
    mine = fresh(path)
    mine.set_read(REVIEW, True)
    mine.save()
    a_file_from_a_clock_ahead(path, read=False)  # another reader, clock ahead, unmarked it
    mine.set_checked(REVIEW, "focus:b", True)
    assert mine.save() is True and not mine.is_read(REVIEW)
    mine.set_read(REVIEW, True)  # read again, now
    mine.save()
    assert fresh(path).is_read(REVIEW)


def test_a_clock_stepped_back_during_a_session_keeps_the_newest_mark(tmp_path: Path) -> None:
    readings = iter([1000.0, 400.0, 400.0, 399.0])  # NTP steps the clock back after the first mark
    path = tmp_path / "state.json"
    state = ReadState(path, clock=HybridClock(wall=lambda: next(readings)))
    state.load()
    state.set_read(REVIEW, True)
    state.save()
    state.set_read(REVIEW, False)
    state.set_checked(REVIEW, "focus:a", True)
    state.set_checked(REVIEW, "focus:a", False)
    state.save()
    again = fresh(path)
    assert not again.is_read(REVIEW) and again.checked(REVIEW) == frozenset()


def test_the_hybrid_clock_orders_stamps_whatever_the_wall_clock_does() -> None:
    walls = iter([10.0, 10.0, 5.0, 12.0, 30.0, 31.0])
    clock = HybridClock(wall=lambda: next(walls))
    first = clock.now()
    assert first == Stamp(10.0, 0)  # the wall clock, while it leads
    stamps = [first, clock.now(), clock.now()]  # the same reading, then an earlier one
    assert stamps == sorted(stamps) and len(set(stamps)) == 3
    clock.observe(Stamp(20.0, 4))  # a mark read from the file, from a clock ahead
    assert clock.now() == Stamp(20.0, 5)  # the wall says 12: later than what was seen anyway
    assert clock.now() == Stamp(30.0, 0)  # the wall clock leads again
    clock.observe(Stamp(1.0, 0))  # an old mark changes nothing
    assert clock.now() == Stamp(31.0, 0) == clock.last


def test_state_files_with_plain_times_still_load_and_counts_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    old = {"format": FORMAT, "version": VERSION, "reviews": {REVIEW: {"read": {"v": True, "t": 1700000000}}}}
    path.write_text(json.dumps(old), encoding="utf-8")  # as the reader wrote before, an int time too
    state = fresh(path)
    assert state.warnings == [] and state.is_read(REVIEW)
    walls = iter([5.0, 5.0])
    behind = ReadState(path, clock=HybridClock(wall=lambda: next(walls)))
    behind.load()
    behind.set_checked(REVIEW, "focus:a", True)
    behind.save()
    raw = json.loads(path.read_text(encoding="utf-8"))["reviews"][REVIEW]
    assert raw["read"] == {"v": True, "t": 1700000000.0}  # no `c` while the clock led
    assert raw["items"]["focus:a"] == {"v": True, "t": 1700000000.0, "c": 1}
    assert fresh(path).checked(REVIEW) == {"focus:a"}


def test_a_bad_count_is_a_broken_state_file(tmp_path: Path) -> None:
    for n, bad in enumerate([True, -1, 1.5, "2", 2**64]):
        path = tmp_path / f"state{n}.json"
        doc = {
            "format": FORMAT,
            "version": VERSION,
            "reviews": {REVIEW: {"read": {"v": True, "t": 1.0, "c": bad}}},
        }
        path.write_text(json.dumps(doc), encoding="utf-8")
        state = fresh(path)
        assert len(state.warnings) == 1 and "unreadable" in state.warnings[0], bad
        assert not state.is_read(REVIEW)


async def test_r_unmarks_a_review_read_in_the_future(tmp_path: Path) -> None:
    path = tmp_path / "state" / "state.json"
    path.parent.mkdir()
    a_file_from_a_clock_ahead(path)
    app = make_app(tmp_path, [one_review_folder(tmp_path)], state=path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.reader.current_key == REVIEW and app.reader.state.is_read(REVIEW)
        await pilot.press("r")
        await wait_until(pilot, lambda: not fresh(path).is_read(REVIEW), "the unmark saved")
        assert not app.reader.state.is_read(REVIEW)
        await pilot.press("z")  # undo: read again, and that wins too
        await wait_until(pilot, lambda: fresh(path).is_read(REVIEW), "the undo saved")
        assert app.reader.state.is_read(REVIEW)


# -- 5. a device, a pipe or a socket as the state path --------------------------------------


def _device(path: Path) -> None:
    """A character device like /dev/null (1, 3), made here: never the real one."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs root")


def _socket(path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX)
    here = os.getcwd()
    os.chdir(path.parent)  # a socket's path is limited to ~100 bytes: bind the short name
    try:
        sock.bind(path.name)
    finally:
        os.chdir(here)
    return sock


def _identity(path: Path) -> tuple[int, int, int, int]:
    info = os.lstat(path)
    return info.st_ino, info.st_mode, info.st_rdev, info.st_size


@pytest.mark.parametrize("kind", ["device", "fifo", "socket", "link-to-device"])
def test_a_state_path_that_is_not_a_regular_file_is_never_renamed_or_written(
    tmp_path: Path, kind: str
) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    path = folder / "state.json"
    keep = None
    if kind == "device":
        _device(path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        keep = _socket(path)
    else:
        _device(tmp_path / "null")
        path.symlink_to(tmp_path / "null")
    before = sorted(os.listdir(folder)), _identity(path)
    with deadline(5):
        state = fresh(path)
        [warning] = state.warnings
        assert "not a regular file" in warning and "left as it is" in warning
        state.set_read(REVIEW, True)
        assert state.save() is False
        state.set_checked(REVIEW, "focus:a", True)
        state.save()
    assert len(state.warnings) == 1  # one warning, not one per mark
    assert state.is_read(REVIEW) and state.checked(REVIEW) == {"focus:a"}  # kept in memory
    assert (sorted(os.listdir(folder)), _identity(path)) == before  # no lock, no temp, nothing renamed
    if kind == "link-to-device":
        assert stat.S_ISCHR(os.stat(tmp_path / "null").st_mode)
    if keep is not None:
        keep.close()


def test_export_with_a_device_as_state_renames_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    device = folder / "null"
    _device(device)
    before = _identity(device)
    out = run_tui("export", "--state", str(device), str(one_review_folder(tmp_path)))
    assert out.returncode == 0, out.stderr
    assert "Alpha" in out.stdout
    assert "not a regular file" in out.stderr
    assert os.listdir(folder) == ["null"] and _identity(device) == before


def test_export_never_moves_a_broken_state_file_aside(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_bytes(b'{"format": "prdig')
    out = run_tui("export", "--state", str(path), str(one_review_folder(tmp_path)))
    assert out.returncode == 0, out.stderr
    assert "unreadable" in out.stderr and "left as it is" in out.stderr
    assert [p.name for p in tmp_path.glob("state.json*")] == ["state.json"]
    assert path.read_bytes() == b'{"format": "prdig'
    fresh(path)  # the reader, which writes, still moves it aside
    assert list(tmp_path.glob("state.json.corrupt-*")) and not path.exists()


async def test_the_reader_with_a_device_as_state_warns_once_and_keeps_marks(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    device = folder / "null"
    _device(device)
    before = _identity(device)
    app = make_app(tmp_path, [one_review_folder(tmp_path)], state=device)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("r", "j", "r")
        await pilot.pause(0.3)
        notes = [n for n in toasts(app) if "not a regular file" in n.text]
        assert len(notes) == 1 and notes[0].severity == "warning"
        assert app.reader.state.is_read("o/r#1") and app.reader.state.is_read("o/r#2")
    assert os.listdir(folder) == ["null"] and _identity(device) == before


# -- 4. a full file system, then space again -------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path):
    """A real 256 KB tmpfs (root only), unmounted afterwards."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    where = tmp_path / "small"
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(where)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode(errors='replace').strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(where: Path) -> Path:
    """Write a file until the file system is full; the file, to free it later."""
    ballast = where / "ballast"
    fd = os.open(ballast, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return ballast


def on_disk_marks(path: Path) -> tuple[set[str], frozenset[str]]:
    state = fresh(path)
    return set(state.read_keys()), state.checked(REVIEW)


def test_marks_made_while_the_disk_is_full_are_saved_once_there_is_room(small_disk: Path) -> None:
    path = small_disk / "state" / "state.json"
    state = fresh(path)
    state.set_read("o/r#0", True)
    state.save()
    ballast = fill(small_disk)
    state.set_read(REVIEW, True)
    state.save()
    [warning] = state.warnings
    assert "No space left on device" in warning and state.unsaved
    state.set_checked(REVIEW, "focus:a", True)
    state.save()
    assert len(state.warnings) == 1  # one warning while it lasts, not one per mark
    assert on_disk_marks(path) == ({"o/r#0"}, frozenset())  # the file as it was
    ballast.unlink()  # space again
    state.set_checked(REVIEW, "focus:b", True)
    state.save()  # the next change saves every mark since
    assert state.failure is None and not state.unsaved
    assert on_disk_marks(path) == ({"o/r#0", REVIEW}, {"focus:a", "focus:b"})
    assert sorted(os.listdir(path.parent)) == ["state.json", "state.json.lock"]  # no temp file left


def test_quitting_retries_and_says_what_could_not_be_saved(small_disk: Path) -> None:
    path = small_disk / "state.json"
    ballast = fill(small_disk)
    saver = StateSaver(fresh(path))
    saver.state.set_read(REVIEW, True)
    saver.request_save()
    with deadline(10):
        while not saver.idle:
            time.sleep(0.01)
    saver.collect()
    assert saver.state.unsaved
    report = saver.close()
    assert report is not None and str(path) in report and "No space left on device" in report
    # Space again before quitting: the quit saves what the failed saves could not.
    ballast.unlink()
    ballast = fill(small_disk)
    saver = StateSaver(fresh(path))
    saver.state.set_read(REVIEW, True)
    saver.request_save()
    with deadline(10):
        while not saver.idle:
            time.sleep(0.01)
    ballast.unlink()
    assert saver.close() is None
    assert fresh(path).is_read(REVIEW)


async def test_the_reader_saves_again_once_the_disk_has_room(tmp_path: Path, small_disk: Path) -> None:
    path = small_disk / "state.json"
    ballast = fill(small_disk)
    app = make_app(tmp_path, [one_review_folder(tmp_path)], state=path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("r")

        def warned() -> list:
            return [n for n in toasts(app) if "Cannot save marks" in n.text]

        await wait_until(pilot, lambda: warned(), "a warning that the disk is full")
        ballast.unlink()
        await pilot.press("j", "r")
        await wait_until(
            pilot, lambda: path.exists() and len(fresh(path).read_keys()) == 2, "both marks saved"
        )
        assert len(warned()) == 1
    assert app.reader.saver.report is None


def test_the_reader_says_at_quit_that_marks_were_not_saved(tmp_path: Path, small_disk: Path) -> None:
    """The real reader on a terminal (a pty): `r` on a full disk, then `q`."""
    path = small_disk / "state.json"
    fill(small_disk)
    out = run_in_pty(
        [sys.executable, "-m", "tui", "--state", str(path), "--no-watch", str(one_review_folder(tmp_path))],
        keys=[b"r", b"q"],
    )
    assert f"prdigest-tui: marks made in this session could not be saved to {path}" in out
    assert "No space left on device" in out


# -- 11. a lock held by another process ------------------------------------------------------

HOLDER = textwrap.dedent(
    """
    import fcntl, os, sys, time
    fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    print("held", flush=True)
    while True:
        time.sleep(1)
    """
)


def hold_lock(path: Path, stop: bool = True) -> subprocess.Popen:
    """Another process holding the state file's lock; stopped (SIGSTOP), it never lets go."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path.with_name(path.name + ".lock"))],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    if stop:
        holder.send_signal(signal.SIGSTOP)
    return holder


def let_go(holder: subprocess.Popen) -> None:
    holder.kill()  # SIGKILL ends a stopped process too
    holder.wait()


def test_a_save_waits_for_a_stopped_lock_holder_only_as_long_as_it_is_told(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    holder = hold_lock(path)
    try:
        state = fresh(path)
        state.set_read(REVIEW, True)
        with deadline(10):  # without a bound, this waits for ever
            assert state.save(lock_wait=0.2) is False
        [warning] = state.warnings
        assert "locked by another program" in warning and state.unsaved
    finally:
        let_go(holder)
    state.set_checked(REVIEW, "focus:a", True)
    state.save(lock_wait=0.2)
    assert on_disk_marks(path) == ({REVIEW}, {"focus:a"}) and not state.unsaved


async def test_a_stopped_lock_holder_never_freezes_the_reader(tmp_path: Path) -> None:
    path = tmp_path / "state" / "state.json"
    path.parent.mkdir()
    holder = hold_lock(path)
    app = make_app(tmp_path, [one_review_folder(tmp_path)], state=path)
    app.reader.saver.lock_wait = 0.3
    try:
        with deadline(30):  # the old reader waited for the lock on the event loop: for ever
            async with app.run_test(size=(120, 40), notifications=True) as pilot:
                await pilot.pause()
                await pilot.press("r", "j")  # keys go on being handled while a save waits
                await pilot.pause()
                assert app.reader.state.is_read("o/r#1") and app.reader.current_key == "o/r#2"

                def warned() -> list:
                    return [n for n in toasts(app) if "locked by another program" in n.text]

                await wait_until(pilot, lambda: warned(), "a warning that the lock is held")
                assert warned()[0].severity == "warning"
                let_go(holder)
                await pilot.press("r")  # the next change saves them all
                await wait_until(
                    pilot, lambda: path.exists() and len(fresh(path).read_keys()) == 2, "both marks saved"
                )
                assert len(warned()) == 1
    finally:
        let_go(holder)
    assert app.reader.saver.report is None


async def test_quitting_while_the_lock_is_held_waits_boundedly_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    holder = hold_lock(path)
    app = make_app(tmp_path, [one_review_folder(tmp_path)], state=path)
    app.reader.saver.lock_wait = 0.3
    try:
        with deadline(30):
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                await pilot.press("r")
                await pilot.pause()
        assert app.reader.saver.report is not None and "locked by another program" in app.reader.saver.report
    finally:
        let_go(holder)
    assert not path.exists()
