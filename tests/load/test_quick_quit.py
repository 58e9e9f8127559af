"""A first load's work survives a quick quit: a real reader in a real terminal,
ended right after everything is loaded, leaves a parse cache that answers for
every file (the parse workers journal what they parse as they parse it)."""

from __future__ import annotations

import contextlib
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

import pytest

from tui import __version__
from tui.load.cache import ParseCache
from tui.load.cache_format import stamp
from tui.load.discover import discover

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]PX^_][^\x07\x1b]*(\x07|\x1b\\)?|\x1b.")
FILES = 3_000


def _generate(folder: Path, reviews: int, per_file: int) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from make_corpus import generate
    finally:
        sys.path.remove(str(ROOT / "bench"))
    generate(folder, reviews, seed=1, per_file=per_file)


def _start_and_end(argv: list[str], env: dict[str, str], cwd: Path, shown: str, end: str) -> int:
    """Start the reader under a pseudo-terminal; as soon as `shown` is on screen,
    end it (`q`, or a signal); its exit status."""
    pid, fd = pty.fork()
    if pid == 0:
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
            os.chdir(cwd)
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    out, deadline, ended = "", time.monotonic() + 90, False
    try:
        while time.monotonic() < deadline and not ended:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(fd, 1 << 16)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk.decode(errors="replace")
            if shown in ANSI.sub("", out[-20_000:]):
                if end == "q":
                    os.write(fd, b"q")
                else:
                    os.kill(pid, getattr(signal, end))
                ended = True
        if not ended:
            os.kill(pid, signal.SIGKILL)
        # Keep reading: a reader blocked on a full terminal would never exit.
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if select.select([fd], [], [], 0.05)[0]:
                with contextlib.suppress(OSError):
                    os.read(fd, 1 << 16)
    finally:
        os.close(fd)
    assert ended, ANSI.sub("", out)[-2000:]
    return status


@pytest.mark.parametrize("end", ["q", "SIGTERM", "SIGKILL"])
def test_a_reader_ended_right_after_its_first_load_leaves_a_full_cache(
    tmp_path: Path, isolated_dirs: dict[str, Path], end: str
) -> None:
    folder = tmp_path / "entries"
    _generate(folder, FILES, per_file=1)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.update({name: str(path) for name, path in isolated_dirs.items()}, TERM="xterm-256color")
    argv = [sys.executable, "-c", "from tui.cli import run; run()", "--lang", "en", "--no-watch", str(folder)]
    status = _start_and_end(argv, env, tmp_path, f"{FILES:,} reviews · ", end)
    if end == "q":
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    from tui.store import locations

    cache = ParseCache(locations.cache_file(), version_key=__version__)
    assert cache.load()
    files, _ = discover([folder])
    assert len(files) == FILES
    answered = [path for path in files if cache.get(path, stamp(path)) is not None]
    assert len(answered) == FILES
    # And what it answers is what the files hold.
    from tui.load.parse import load_file

    again = ParseCache(locations.cache_file(), version_key=__version__)
    assert again.load()
    for path in files[:: FILES // 10]:
        assert again.get(path, stamp(path)).reviews == load_file(path).reviews  # type: ignore[union-attr]
