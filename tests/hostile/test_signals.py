"""SIGTERM and SIGHUP end the reader as `q` does: the real program in a real pty.

The reader is started as a user starts it (`python -m tui`, its own session
with the pty as its controlling terminal, TERM=xterm-256color), a review is
marked read with `r`, then the signal is sent. What a normal `q` writes last
(leaving the alternate screen, mouse reporting off) is read from a run ended
with `q`, and the signalled run must end with the same.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from tests.entry_files import review_yaml, reviews_in
from tui.load.parse import load_paths
from tui.store.state import ReadState

START_S = 30.0
"""Bounds, not timings: a start, a save and an exit on a busy 2-core machine."""
EXIT_S = 10.0
ALT_SCREEN_OFF = b"\x1b[?1049l"
MOUSE_OFF = (b"\x1b[?1000l", b"\x1b[?1003l", b"\x1b[?1006l")


class Reader:
    """`prdigest-tui FOLDER` running in a pty, its output drained as it comes."""

    def __init__(self, folder: Path, state: Path) -> None:
        argv = [sys.executable, "-m", "tui", "--lang", "en", "--state", str(state), str(folder)]
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "", "LINES": ""}
        # Its own folders beside the state file: the module's `quit_ending` runs
        # before the per-test XDG folders are set, and its reader writes a cache.
        home = state.parent / "home"
        env["HOME"] = str(home)
        for name in ("XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
            env[name] = str(home / name.lower())
        env.pop("COLUMNS")
        env.pop("LINES")
        env.pop("TEXTUAL_ALLOW_SIGNALS", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: a new session, the pty its controlling terminal
            try:
                # As a terminal starts its shell: SIGHUP at its default. Under
                # `nohup` it is inherited ignored, and the reader keeps it so.
                signal.signal(signal.SIGHUP, signal.SIG_DFL)
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.output = bytearray()
        self._lock = threading.Lock()
        self._open = True
        self._drain = threading.Thread(target=self._read, daemon=True)
        self._drain.start()
        self.status: int | None = None

    def _read(self) -> None:
        while self._open:
            try:
                ready, _, _ = select.select([self.fd], [], [], 0.05)
                if not ready:
                    continue
                chunk = os.read(self.fd, 1 << 16)
            except (OSError, ValueError):
                return
            if not chunk:
                return
            with self._lock:
                self.output += chunk

    def text(self) -> bytes:
        with self._lock:
            return bytes(self.output)

    def wait_for(self, marker: bytes, timeout: float = START_S) -> None:
        deadline = time.monotonic() + timeout
        while marker not in self.text():
            assert time.monotonic() < deadline, f"never showed {marker!r}"
            assert self.poll() is None, f"exited early: {self.status}"
            time.sleep(0.05)

    def press(self, key: bytes) -> None:
        os.write(self.fd, key)

    def poll(self) -> int | None:
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = status
        return self.status

    def wait(self, timeout: float = EXIT_S) -> int:
        """The exit status (as os.waitpid gives it); killed if it outlasts `timeout`."""
        deadline = time.monotonic() + timeout
        while self.poll() is None:
            if time.monotonic() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                _, self.status = os.waitpid(self.pid, 0)
                raise AssertionError(f"still running {timeout} s later")
            time.sleep(0.02)
        self._drain.join(timeout=2)  # what it wrote last
        return self.status

    def close_terminal(self) -> None:
        """Hang up: the terminal's side of the pty goes away."""
        self._open = False
        self._drain.join(timeout=2)
        os.close(self.fd)
        self.fd = -1

    def close(self) -> None:
        if self.poll() is None:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        self._open = False
        if self.fd >= 0:
            os.close(self.fd)


@pytest.fixture
def digest(tmp_path: Path) -> tuple[Path, Path]:
    return reviews_in(tmp_path / "entries", range(3), "r{n}"), tmp_path / "state" / "state.json"


def first_key(folder: Path) -> str:
    """The key of the review the reader opens on: the first in reading order."""
    from tui.core.model import Library

    result = load_paths([folder])
    return Library.build(result.files, result.problems).reviews[0].key


def is_read(state: Path, key: str) -> bool:
    """As the state file says (read as the reader reads it)."""
    marks = ReadState(state)
    marks.load()
    return marks.is_read(key)


def start_and_mark(folder: Path, state: Path) -> Reader:
    reader = Reader(folder, state)
    reader.wait_for(b"review 0")
    reader.press(b"r")
    deadline = time.monotonic() + START_S
    while not is_read(state, first_key(folder)):
        assert time.monotonic() < deadline, "the mark was never saved"
        time.sleep(0.05)
    return reader


def ending(output: bytes) -> bytes:
    """What the program wrote from where it began restoring the terminal
    (Textual turns bracketed paste off first) to its end."""
    start = output.rfind(b"\x1b[?2004l")
    return output[start:] if start >= 0 else b""


@pytest.fixture(scope="module")
def quit_ending(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """What a normal `q` writes after the last frame."""
    root = tmp_path_factory.mktemp("quit")
    folder = root / "entries"
    folder.mkdir()
    (folder / "r.yaml").write_text(review_yaml("review 0"), encoding="utf-8")
    reader = Reader(folder, root / "state.json")
    try:
        reader.wait_for(b"review 0")
        reader.press(b"q")
        assert reader.wait() == 0
        tail = ending(reader.text())
    finally:
        reader.close()
    assert ALT_SCREEN_OFF in tail and all(seq in tail for seq in MOUSE_OFF), tail
    assert re.fullmatch(rb"(\x1b\[[?<]?[0-9;]*[a-zA-Z])+", tail), (
        f"more than the terminal's restoring: {tail!r}"
    )
    return tail


def test_sigterm_saves_restores_the_terminal_and_exits_0(digest, quit_ending: bytes) -> None:
    folder, state = digest
    reader = start_and_mark(folder, state)
    try:
        before = termios.tcgetattr(reader.fd)
        assert not before[3] & termios.ECHO, "the reader runs with echo off"
        os.kill(reader.pid, signal.SIGTERM)
        status = reader.wait()
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"status {status:#x}"
        output = reader.text()
        assert ending(output) == quit_ending, output[-300:]
        assert output.rfind(ALT_SCREEN_OFF) > output.rfind(b"\x1b[?1049h")
        assert all(output.rfind(seq) > output.rfind(seq.replace(b"l", b"h")) for seq in MOUSE_OFF)
        after = termios.tcgetattr(reader.fd)
        assert after[3] & termios.ECHO and after[3] & termios.ICANON, "echo and line editing back on"
        assert is_read(state, first_key(folder))
    finally:
        reader.close()


def test_a_q_typed_before_the_first_frame_ends_as_any_q(digest, quit_ending: bytes) -> None:
    """Typed as the reader starts: the quit is queued before the load after
    the first frame has started, and the reader ends as after any `q`, with
    nothing on the terminal after it is restored (no warning of a worker's
    coroutine never awaited)."""
    folder, state = digest
    reader = Reader(folder, state)
    try:
        reader.press(b"q")
        status = reader.wait(START_S)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"status {status:#x}"
        assert ending(reader.text()) == quit_ending, reader.text()[-300:]
    finally:
        reader.close()


def test_sighup_after_the_terminal_is_gone_saves_and_exits_0(digest) -> None:
    folder, state = digest
    reader = start_and_mark(folder, state)
    try:
        reader.close_terminal()
        os.kill(reader.pid, signal.SIGHUP)
        status = reader.wait()
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"status {status:#x}"
        assert is_read(state, first_key(folder))
    finally:
        reader.close()


def test_sighup_while_frames_are_being_drawn_exits_0(digest) -> None:
    """The terminal goes away in the middle of output, so Textual's output
    thread meets the dead terminal before the signal arrives: nothing waits on
    it. The moment is a race, hence a few tries."""
    folder, state = digest
    reviews_in(folder, range(3, 30), "r{n}")
    for _ in range(6):
        reader = Reader(folder, state)
        try:
            reader.wait_for(b"review 0")
            reader.press(b"jk" * 500)  # frames on their way for a while
            time.sleep(0.05)
            reader.close_terminal()
            os.kill(reader.pid, signal.SIGHUP)
            status = reader.wait()
            assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"status {status:#x}"
        finally:
            reader.close()


def test_sigterm_right_after_a_mark_of_a_big_state_saves_it_and_keeps_a_copy(digest) -> None:
    """A big state's save waits for a quiet moment (`tui.store.saver`): a signal
    within it still saves, at once, and leaves the copy the next start reads."""
    from tui.store.saver import BIG_STATE

    folder, state = digest
    state.parent.mkdir(parents=True)
    big = ReadState(state)
    for n in range(BIG_STATE):
        big.set_read(f"gone/repo#{n}", n % 2 == 0)
    big.save()
    reader = Reader(folder, state)
    try:
        reader.wait_for(b"review 0")
        reader.wait_for(b"3 unread")
        reader.press(b"r")
        reader.wait_for(b"2 unread")  # the mark is made
        assert not is_read(state, first_key(folder)), "saved at once: not waiting for a quiet moment"
        os.kill(reader.pid, signal.SIGTERM)
        status = reader.wait()
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"status {status:#x}"
    finally:
        reader.close()
    assert is_read(state, first_key(folder))
    copies = list((state.parent / "home" / "xdg_cache_home").rglob("state-copies/*.marshal"))
    assert len(copies) == 1
    again = ReadState(state, copy=copies[0])
    again.load()
    assert again._copy_of is not None and again.is_read(first_key(folder))
    assert len(again.reviews) == BIG_STATE + 1
