"""A first start on a cold disk: the first parse worker reads its tasks' files
only once the reader has drawn (`tui.load.pool_wait`), and at once when the
files are in the page cache. Real files evicted from the page cache
(`posix_fadvise`), real worker processes and journals; the only waits are for
what a worker writes."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from tests.entry_files import reviews_in
from tests.page_cache import evict
from tui.load.cache import ParseCache
from tui.load.discover import discover
from tui.load.journal import journals
from tui.load.parse import load_paths
from tui.load.pool import Pool, collect, start_walking_pool
from tui.load.pool_wait import GO_WAIT_S, read_from_disk, wait_if_cold

LONG_WAIT_S = 120.0
"""The first worker's longest wait for the reader, in these tests: far above
`GO_WAIT_S`, so that a wait is told from a slow start on a loaded machine."""
assert LONG_WAIT_S > GO_WAIT_S

pytestmark = pytest.mark.skipif(
    not hasattr(os, "posix_spawn") or not hasattr(os, "posix_fadvise"), reason="no posix_spawn or fadvise"
)


def cold_in_a_new_process(path: Path) -> bool:
    """Does reading `path` (in a fresh process) read blocks from the device?"""
    code = (
        "import resource, sys; before = resource.getrusage(resource.RUSAGE_SELF).ru_inblock;"
        "open(sys.argv[1], 'rb').read();"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_inblock > before)"
    )
    return (
        subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True).stdout
        == "True\n"
    )


def journal_size(cache: ParseCache, pool: Pool) -> int:
    """What the workers parsed so far: every journal's size (the first
    worker's, and its stand-in's, `tui.load.pool_stand_in`)."""
    assert cache.path is not None
    return sum(j.stat().st_size for j in journals(cache.path))


def a_tree(tmp_path: Path) -> tuple[Path, list[Path]]:
    root = tmp_path / "entries"
    reviews_in(root / "a", range(300), "r{n:05}", "a {n}")
    files, _ = discover([root])
    return root, files


def loaded(pool: Pool, first: dict) -> dict[str, list[str]]:
    got = dict(first)

    def receive(answer: list | tuple, files: list[Path]) -> None:
        *_, entries = answer if isinstance(answer, tuple) else (answer,)
        for (_, _, reviews, _), path in zip(entries, files, strict=True):
            assert str(path) not in got
            got[str(path)] = [raw[0] for raw in reviews]

    left = asyncio.run(collect(pool, receive))
    assert left == []
    return got


def as_checked(root: Path) -> dict[str, list[str]]:
    result = load_paths([root])
    return {str(path): [r.title for r in reviews] for path, reviews in result.files.items()}


def first_titles(answer: list | tuple) -> dict[str, list[str]]:
    *_, entries = answer if isinstance(answer, tuple) else (answer,)
    return {name: [raw[0] for raw in reviews] for name, _, reviews, _ in entries}


def test_on_a_cold_disk_the_first_worker_waits_for_the_first_frame(tmp_path: Path) -> None:
    root, files = a_tree(tmp_path)
    evict(files)
    if not cold_in_a_new_process(files[-1]):
        pytest.skip("this file system keeps the files in memory: no cold read to see")
    evict(files)
    cache = ParseCache(tmp_path / "cache" / "parse-cache.marshal")
    pool = start_walking_pool(
        [root], files[:4], cache.path, cache.version_key, workers=2, early=1, go_wait=LONG_WAIT_S
    )
    assert pool is not None
    try:
        answer = pool.first_answer(60)
        assert answer is not None  # the first frame's files come first, cold or not
        after_first = journal_size(cache, pool)
        assert after_first > 0
        time.sleep(1.0)
        assert journal_size(cache, pool) == after_first  # no task read while the reader starts
        # The reader has drawn: the first worker goes on, with the others.
        assert loaded(pool, first_titles(answer)) == as_checked(root)
    finally:
        pool.stop()


def goes_on_without_the_reader(root: Path, files: list[Path], cache: ParseCache) -> None:
    """A task is parsed after the first worker's first answer while the reader
    has not drawn (`Pool.go` is not called), by its stand-in: it did not wait. A wait would
    last `LONG_WAIT_S`, far longer than a loaded machine's slowest start."""
    pool = start_walking_pool(
        [root], files[:4], cache.path, cache.version_key, workers=2, early=1, go_wait=LONG_WAIT_S
    )
    assert pool is not None
    try:
        answer = pool.first_answer(60)
        assert answer is not None
        after_first = journal_size(cache, pool)
        deadline = time.monotonic() + LONG_WAIT_S / 2
        while journal_size(cache, pool) == after_first:
            assert time.monotonic() < deadline, "the first worker waited for the reader"
            time.sleep(0.01)
        assert loaded(pool, first_titles(answer)) == as_checked(root)
    finally:
        pool.stop()


def test_with_the_files_in_the_page_cache_the_first_worker_does_not_wait(tmp_path: Path) -> None:
    root, files = a_tree(tmp_path)
    for path in files:
        path.read_bytes()
    goes_on_without_the_reader(root, files, ParseCache(tmp_path / "cache" / "parse-cache.marshal"))


def worker_modules() -> list[Path]:
    """The files a parse worker reads as it imports this project and PyYAML."""
    import tui

    found = [*Path(tui.__file__).parent.rglob("*.pyc")]
    for package in (yaml, getattr(yaml, "_yaml", None)):
        if package is not None and getattr(package, "__file__", None):
            found += [p for p in Path(package.__file__).parent.rglob("*") if p.is_file()]
    return found


def test_only_the_first_frames_reads_count_not_the_workers_modules(tmp_path: Path) -> None:
    """The files in the page cache, the worker's own modules not (a busy
    machine dropped them): its imports read the disk during its first answer,
    the first frame's files do not, and it does not wait for the reader."""
    root, files = a_tree(tmp_path)
    modules = worker_modules()
    evict(modules)
    if not cold_in_a_new_process(modules[0]):
        pytest.skip("this file system keeps the files in memory: no cold read to see")
    for path in files:
        path.read_bytes()
    evict(modules)
    goes_on_without_the_reader(root, files, ParseCache(tmp_path / "cache" / "parse-cache.marshal"))


def test_what_counts_as_cold_is_the_named_files_reads_alone(tmp_path: Path) -> None:
    """`read_from_disk` reads as the parse does: a named pipe, a folder or a
    missing file are passed over (not opened: a pipe would block), and files
    in the page cache are not cold."""
    warm = tmp_path / "warm.yaml"
    warm.write_text("title: t\n")
    warm.read_bytes()
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    assert read_from_disk([str(fifo), str(tmp_path), str(tmp_path / "missing.yaml"), str(warm)]) is False
    cold = tmp_path / "cold.yaml"
    cold.write_bytes(b"title: t\n" * 4096)
    evict([cold])
    if not cold_in_a_new_process(cold):
        pytest.skip("this file system keeps the files in memory: no cold read to see")
    evict([cold])
    assert read_from_disk([str(cold)]) is True


def test_a_warm_first_worker_closes_its_go_pipe_at_once() -> None:
    read, write = os.pipe()
    try:
        started = time.monotonic()
        assert wait_if_cold(False, LONG_WAIT_S, read) is False
        assert time.monotonic() - started < LONG_WAIT_S / 2
        with pytest.raises(OSError):
            os.fstat(read)  # closed
    finally:
        os.close(write)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="no /proc")
def test_a_pool_leaves_no_pipe_open_in_the_reader(tmp_path: Path) -> None:
    """The go pipe's ends, the tasks' pipe and the answers' pipes are all
    closed once the pool is stopped, whether its workers ran or not."""
    root, files = a_tree(tmp_path)
    cache = ParseCache(tmp_path / "cache" / "parse-cache.marshal")
    before = set(os.listdir("/proc/self/fd"))
    pool = start_walking_pool([root], files[:4], cache.path, cache.version_key, workers=2, early=1)
    assert pool is not None
    pool.stop()  # a quit before the first frame
    pool = start_walking_pool([root], files[:4], cache.path, cache.version_key, workers=2, early=1)
    assert pool is not None
    answer = pool.first_answer(60)
    assert answer is not None
    assert loaded(pool, first_titles(answer)) == as_checked(root)
    pool.stop()
    assert set(os.listdir("/proc/self/fd")) - before == set()
