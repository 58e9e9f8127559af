"""A program run under a real pseudo-terminal, for tests where the terminal matters:
what the program wrote (raw, and with escape sequences removed), keys sent to it,
and how it ended."""

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
import time
from pathlib import Path

_SEQUENCES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]PX^_][^\x07\x1b]*(\x07|\x1b\\)?|\x1b.")


def reader_env(isolated_dirs: dict[str, Path], **extra: str) -> dict[str, str]:
    """The environment for a reader under test: this one without Textual's test
    switches, the test's own XDG folders and HOME, a colour terminal, English."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.update({name: str(path) for name, path in isolated_dirs.items()})
    env.update(TERM="xterm-256color", LC_ALL="C.UTF-8", LANG="C.UTF-8")
    env.update(extra)
    return env


READER = [sys.executable, "-m", "tui"]


class Session:
    """`argv` started in a pty of `rows` x `cols` in `cwd`."""

    def __init__(
        self, argv: list[str], env: dict[str, str], cwd: Path, rows: int = 30, cols: int = 100
    ) -> None:
        self.raw = b""
        self.status: int | None = None
        self._closed = False
        self._mark = 0  # where the output after the last key sent starts
        pid, fd = pty.fork()
        if pid == 0:
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
                os.chdir(cwd)
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd

    @property
    def text(self) -> str:
        return _SEQUENCES.sub("", self.raw.decode(errors="replace"))

    @property
    def since_sent(self) -> str:
        """The text written since the last key was sent."""
        return _SEQUENCES.sub("", self.raw[self._mark :].decode(errors="replace"))

    def _read(self, timeout: float) -> bool:
        """Read what is there within `timeout`; False once the program's side is closed."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 1 << 16)
        except OSError:
            return False
        self.raw += chunk
        return bool(chunk)

    def wait_for(self, shown: str, timeout: float = 30) -> str:
        """Until `shown` is in the text written since the last key sent; the text."""
        deadline = time.monotonic() + timeout
        while shown not in self.since_sent:
            if time.monotonic() > deadline or not self._read(0.1):
                raise AssertionError(f"{shown!r} never shown; last output: {self.text[-1500:]!r}")
        return self.text

    def send(self, keys: bytes) -> None:
        self._mark = len(self.raw)
        os.write(self.fd, keys)

    def wait_exit(self, timeout: float = 30) -> int:
        """The exit status (or -signal), reading output meanwhile; killed past `timeout`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                while self._read(0.05) and select.select([self.fd], [], [], 0)[0]:
                    pass
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
            if not self._read(0.05):
                time.sleep(0.05)
        self.close()
        raise AssertionError(f"still running after {timeout} s; last output: {self.text[-1500:]!r}")

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self.status = -signal.SIGKILL
        os.close(self.fd)

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
