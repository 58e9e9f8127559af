"""A cold start's module files asked for ahead (tui/read_ahead.py): which files,
that a grandchild really brings them into the page cache and leaves no child
behind, and that only a process that read from the disk does it.

Files are dropped from the page cache and their residency read with
tests/page_cache.py; where the file system keeps them (tmpfs), the tests that
need it are skipped."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.page_cache import evict, resident
from tui import read_ahead


def evicted(path: Path, size: int = 4 << 20) -> Path:
    """`path`, `size` random bytes, written, synced and out of the page cache."""
    path.write_bytes(os.urandom(size))
    evict([path])
    if resident(path) > 0.1:
        pytest.skip("this file system keeps the file in memory (tmpfs?)")
    return path


def no_children() -> bool:
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_the_compiled_files_of_packages_are_found_and_nothing_else(tmp_path: Path) -> None:
    tag = sys.implementation.cache_tag
    wanted = [
        tmp_path / "pkg" / "__pycache__" / f"a.{tag}.pyc",
        tmp_path / "pkg" / "sub" / "__pycache__" / f"b.{tag}.pyc",
    ]
    others = [
        tmp_path / "pkg" / "__pycache__" / f"a.{tag}.opt-1.pyc",
        tmp_path / "pkg" / "__pycache__" / "a.cpython-20.pyc",
        tmp_path / "pkg" / ".hidden" / "__pycache__" / f"c.{tag}.pyc",
        tmp_path / "pkg" / "a.py",
    ]
    for path in wanted + others:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")
    assert sorted(read_ahead.compiled_files(str(tmp_path / "pkg"), tag)) == sorted(map(str, wanted))
    assert list(read_ahead.compiled_files(str(tmp_path / "pkg"), tag, deep=False)) == [str(wanted[0])]
    assert list(read_ahead.compiled_files(str(tmp_path / "none"), tag)) == []


def test_the_files_read_ahead_are_the_modules_a_start_imports() -> None:
    import textual.app

    found = set(read_ahead.module_files())
    assert all(path.endswith(f".{sys.implementation.cache_tag}.pyc") for path in found)
    for module in (textual.app, read_ahead, os):
        compiled = importlib.util.cache_from_source(module.__file__ or "")
        if os.path.exists(compiled):  # written unless bytecode writing is off
            assert compiled in found


def test_a_grandchild_brings_the_files_in_and_no_child_is_left(tmp_path: Path) -> None:
    files = [evicted(tmp_path / f"module-{n}.pyc") for n in range(3)]
    assert no_children()
    assert read_ahead.spawn(str(path) for path in files)
    assert no_children()  # the child ended and was waited for; its child is not ours
    deadline = time.monotonic() + 10
    while min(resident(path) for path in files) < 0.9 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [resident(path) for path in files] == [pytest.approx(1.0, abs=0.1)] * 3


PROBE = """\
import os, sys
from tests.page_cache import evict, resident
from tui import read_ahead
print(read_ahead.cold())
with open(sys.argv[1], "rb") as f:
    f.read()
print(read_ahead.cold())
"""


def test_only_a_process_that_read_from_the_disk_counts_as_cold(tmp_path: Path) -> None:
    path = evicted(tmp_path / "entries.yaml")
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, check=True
    )
    lines = done.stdout.split()
    assert lines[1] == "True"  # its read of the evicted file came from the disk
    if lines[0] == "True":  # the interpreter's own start read from the disk too: nothing to compare
        return
    assert resident(path) > 0.9
    again = subprocess.run(
        [sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, check=True
    )
    assert again.stdout.split() == ["False", "False"]  # everything it read was in the page cache


COMMAND = """\
import sys
from tui import entry
with open(sys.argv[1], "rb") as f:
    f.read()  # this process has read from the disk: a cold start
sys.argv = ["prdigest-tui", *sys.argv[2:]]
try:
    entry.run()  # the console script
except SystemExit:
    pass
"""


@pytest.mark.parametrize(("argv", "reads_ahead"), [(["--version"], True), (["locate"], False)])
def test_the_reader_reads_ahead_and_a_command_does_not(
    tmp_path: Path, argv: list[str], reads_ahead: bool
) -> None:
    """`--version` goes the reader's way (the read-ahead starts before its
    arguments are parsed); `locate`, like `check`, is a command that imports
    no Textual: Textual's compiled files stay out of the page cache."""
    import textual.widget

    compiled = Path(importlib.util.cache_from_source(textual.widget.__file__ or ""))
    if not compiled.exists():
        pytest.skip("no compiled Textual module to watch (bytecode writing off)")
    evict([compiled])
    if resident(compiled) > 0.1:
        pytest.skip("this file system keeps the file in memory (tmpfs?)")
    probe = evicted(tmp_path / "entries.yaml")
    subprocess.run([sys.executable, "-c", COMMAND, str(probe), *argv], capture_output=True, check=True)
    deadline = time.monotonic() + (10 if reads_ahead else 1)
    while resident(compiled) < 0.9 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert (resident(compiled) >= 0.9) is reads_ahead
