"""A first load's work survives a quick quit: a real reader in a real terminal,
ended right after everything is loaded, leaves a parse cache that answers for
every file (the parse workers journal what they parse as they parse it)."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from tests.pty_session import Session, reader_env
from tui import __version__
from tui.load.cache import ParseCache
from tui.load.cache_format import stamp
from tui.load.discover import discover

ROOT = Path(__file__).resolve().parents[2]
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
    end it (`q`, or a signal); its exit status (or -signal). The session keeps
    reading meanwhile: a reader blocked on a full terminal would never exit."""
    with Session(argv, env, cwd, rows=40, cols=120) as session:
        session.wait_for(shown, timeout=90)
        if end == "q":
            session.send(b"q")
        else:
            os.kill(session.pid, getattr(signal, end))
        return session.wait_exit(timeout=90)


@pytest.mark.parametrize("end", ["q", "SIGTERM", "SIGKILL"])
def test_a_reader_ended_right_after_its_first_load_leaves_a_full_cache(
    tmp_path: Path, isolated_dirs: dict[str, Path], end: str
) -> None:
    folder = tmp_path / "entries"
    _generate(folder, FILES, per_file=1)
    env = reader_env(isolated_dirs)
    argv = [sys.executable, "-c", "from tui.cli import run; run()", "--lang", "en", "--no-watch", str(folder)]
    status = _start_and_end(argv, env, tmp_path, f"{FILES:,} reviews · ", end)
    if end == "q":
        assert status == 0, status
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
