"""The first frame's files, parsed in a child process while Textual loads.

The command line plans the first part before importing Textual; the files the
parse cache cannot answer are parsed in a forked child (`plan_first_part(...,
fork=True)`), and the app collects them (`finish_first_part`). These tests run
the real fork.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.entry_files import reviews_in
from tests.pty_session import Session, reader_env
from tui.load.cache import ParseCache
from tui.load.first_frame import finish_first_part, first_part, plan_first_part

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")


def corpus(tmp_path: Path, files: int, broken: bool = False) -> Path:
    folder = reviews_in(tmp_path / "entries", range(files), "r{n}")
    if broken:
        (folder / "zz-broken.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    return folder


def shown(result: tuple) -> dict[str, list[str]]:
    hits, _, _ = result
    return {path.name: [review.title for review in update.reviews] for path, update in hits.items()}


def problems(result: tuple) -> list[str]:
    hits, _, _ = result
    return sorted(str(problem) for update in hits.values() for problem in update.problems)


def test_the_child_parses_what_the_parent_would(tmp_path: Path) -> None:
    folder = corpus(tmp_path, 4, broken=True)
    inline = first_part([folder], ParseCache(None))
    cache = ParseCache(tmp_path / "cache.bin")
    plan = plan_first_part([folder], cache, fork=True)
    assert plan.child is not None and len(plan.parse) == 5
    forked = finish_first_part(plan)
    assert shown(forked) == shown(inline) and len(shown(forked)) == 5
    assert problems(forked) and problems(forked) == problems(inline)  # with file:line:column
    assert plan.child is None
    # What the child parsed went into the parent's cache: the next start reads it.
    cache.save()
    warm = plan_first_part([folder], ParseCache(tmp_path / "cache.bin"), fork=True)
    assert warm.child is None and not warm.parse and len(warm.hits) == 5
    assert shown(finish_first_part(warm)) == shown(inline)


def test_nothing_is_forked_when_the_cache_answers_or_there_are_no_files(tmp_path: Path) -> None:
    folder = corpus(tmp_path, 2)
    cache = ParseCache(tmp_path / "cache.bin")
    finish_first_part(plan_first_part([folder], cache))
    cache.save()
    assert plan_first_part([folder], ParseCache(tmp_path / "cache.bin"), fork=True).child is None
    empty = tmp_path / "empty"
    empty.mkdir()
    assert plan_first_part([empty], ParseCache(None), fork=True).child is None


@pytest.mark.parametrize("how", ["killed", "garbage"])
def test_if_the_child_fails_the_files_are_parsed_here(tmp_path: Path, how: str) -> None:
    folder = corpus(tmp_path, 3)
    plan = plan_first_part([folder], ParseCache(None), fork=True)
    assert plan.child is not None
    pid, read_end = plan.child
    if how == "killed":
        os.kill(pid, signal.SIGKILL)
    else:  # a child that answered nonsense: read its answer away, put another in its place
        os.waitpid(pid, 0)
        os.close(read_end)
        fake_read, fake_write = os.pipe()
        os.write(fake_write, b"not marshal")
        os.close(fake_write)
        child = os.fork()
        if child == 0:
            os._exit(0)
        plan.child = (child, fake_read)
    assert shown(finish_first_part(plan)) == shown(first_part([folder], ParseCache(None)))


def test_the_parent_does_not_import_the_parser(tmp_path: Path) -> None:
    """What moves off the way to the first frame: PyYAML and the loader are
    imported in the child only."""
    folder = corpus(tmp_path, 3)
    code = (
        "import sys\nfrom pathlib import Path\n"
        "from tui.load.cache import ParseCache\n"
        "from tui.load.first_frame import plan_first_part, finish_first_part\n"
        f"plan = plan_first_part([Path({str(folder)!r})], ParseCache(None), fork=True)\n"
        "hits, _, _ = finish_first_part(plan)\n"
        "assert len(hits) == 3, hits\n"
        "print(sorted(m for m in sys.modules if m == 'yaml' or m.startswith(('yaml.', 'tui.load.parse'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_child_that_hangs_is_killed_and_the_files_are_parsed_here(tmp_path: Path) -> None:
    from tui.load import first_frame as loading

    folder = corpus(tmp_path, 2)
    plan = plan_first_part([folder], ParseCache(None))
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # never answers
        os.close(read_end)
        signal.pause()
        os._exit(0)
    os.close(write_end)
    plan.child = (child, read_end)
    assert loading._from_child(plan.child, timeout=0.2) is None
    with pytest.raises(ChildProcessError):
        os.waitpid(child, os.WNOHANG)  # killed and reaped
    plan.child = None
    assert len(shown(finish_first_part(plan))) == 2


def _run_in_a_terminal(argv: list[str], env: dict[str, str], cwd: Path, shown: str) -> str:
    """Start the reader under a pseudo-terminal, wait until `shown` is on screen,
    press q; what it drew (escape sequences removed)."""
    with Session(argv, env, cwd) as session:
        session.wait_for(shown)
        session.send(b"q")
        assert session.wait_exit() == 0, session.status
        return session.text


def test_the_reader_opens_a_folder_it_never_parsed_and_caches_it(tmp_path: Path, isolated_dirs) -> None:
    """`prdigest-tui DIR` in a real terminal: the first start parses in the
    child, the reader shows the reviews, and the cache it saves serves the next."""
    folder = corpus(tmp_path, 3)
    env = reader_env(isolated_dirs)
    argv = [sys.executable, "-c", "import sys; from tui.cli import run; run()", "--lang", "en", str(folder)]
    text = _run_in_a_terminal(argv, env, tmp_path, "review 2")
    assert "3 reviews" in text
    caches = list(Path(isolated_dirs["XDG_CACHE_HOME"]).rglob("*"))
    cache_file = next(path for path in caches if path.is_file())
    plan = plan_first_part([folder], ParseCache(cache_file, version_key=_version()), fork=True)
    assert plan.child is None and len(plan.hits) == 3  # the next start needs no parsing
    assert "review 2" in _run_in_a_terminal(argv, env, tmp_path, "review 2")


def _version() -> str:
    from tui import __version__

    return __version__
