"""A first start with no parse cache: the second parse worker is a fork of the
first, made once the reader has drawn (`tui.load.pool_worker`), and it ends
with the load. Real folders, real worker processes, real pipes and journals;
the only waits are for what the workers write or for their end."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from tests.entry_files import reviews_in
from tui.load.cache import ParseCache
from tui.load.discover import discover
from tui.load.journal import journals
from tui.load.parse import load_paths
from tui.load.pool import Pool, collect, start_walking_pool

pytestmark = pytest.mark.skipif(
    not hasattr(os, "posix_spawn") or not hasattr(os, "fork") or not Path("/proc/self").is_dir(),
    reason="no posix_spawn, fork or /proc",
)


def a_tree(tmp_path: Path, count: int) -> tuple[Path, list[Path]]:
    root = tmp_path / "entries"
    reviews_in(root / "a", range(count), "r{n:05}", "a {n}")
    files, _ = discover([root])
    return root, files


def journal_pids(cache: ParseCache) -> dict[int, int]:
    """The pid of each process that wrote a journal, and the bytes it wrote."""
    assert cache.path is not None
    found: dict[int, int] = {}
    for journal in journals(cache.path):
        pid = int(journal.name.removeprefix(cache.path.name + ".").split("-")[0])
        found[pid] = found.get(pid, 0) + journal.stat().st_size
    return found


def running(pid: int) -> bool:
    """Is `pid` a live process (not gone, not a zombie waiting to be reaped)?"""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def wait_until(condition, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def receiver(got: dict[str, list[str]]):
    def receive(answer: list | tuple, files: list[Path]) -> None:
        *_, entries = answer if isinstance(answer, tuple) else (answer,)
        for (_, _, reviews, _), path in zip(entries, files, strict=True):
            assert str(path) not in got, f"{path} answered twice"
            got[str(path)] = [raw[0] for raw in reviews]

    return receive


def first_titles(answer: list | tuple) -> dict[str, list[str]]:
    *_, entries = answer if isinstance(answer, tuple) else (answer,)
    return {name: [raw[0] for raw in reviews] for name, _, reviews, _ in entries}


def as_checked(root: Path) -> dict[str, list[str]]:
    return {str(path): [r.title for r in reviews] for path, reviews in load_paths([root]).files.items()}


def started(tmp_path: Path, count: int) -> tuple[Path, ParseCache, Pool, dict[str, list[str]]]:
    """A walking pool of two workers, one spawned; its first frame's answer taken."""
    root, files = a_tree(tmp_path, count)
    cache = ParseCache(tmp_path / "cache" / "parse-cache.marshal")
    pool = start_walking_pool([root], files[:4], cache.path, cache.version_key, workers=2, early=1)
    assert pool is not None and len(pool.workers) == 1
    answer = pool.first_answer(60)
    assert answer is not None
    return root, cache, pool, first_titles(answer)


def parent_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def test_once_the_reader_has_drawn_the_first_worker_forks_the_second(tmp_path: Path) -> None:
    """Two processes parse, the second not spawned by the reader but forked
    by the first (its parent); every file is answered once, as `check` reads
    it, and no worker is left once the load is in."""
    root, cache, pool, got = started(tmp_path, 3000)
    (spawned,) = [pid for pid, _ in pool.workers]
    parents: dict[int, int | None] = {}

    async def load() -> list[Path]:
        task = asyncio.create_task(collect(pool, receiver(got)))
        while not task.done() and not (set(journal_pids(cache)) - {spawned}):
            await asyncio.sleep(0.005)
        for pid in set(journal_pids(cache)) - {spawned}:
            parents[pid] = parent_of(pid)  # while it parses: a fork parses ~0.3 s of tasks here
        return await task

    try:
        left = asyncio.run(load())
    finally:
        pool.stop()
    assert left == []
    assert got == as_checked(root)
    writers = journal_pids(cache)
    assert spawned in writers and len(writers) == 2, writers
    (fork,) = set(writers) - {spawned}
    assert writers[fork] > 0  # it parsed tasks
    assert parents == {fork: spawned}
    assert not running(fork) and not running(spawned)


def test_no_fork_before_the_reader_has_drawn(tmp_path: Path) -> None:
    """Until the reader says it has drawn, the first worker parses alone:
    its journal grows, no other process writes one."""
    _, cache, pool, _ = started(tmp_path, 3000)
    (spawned,) = [pid for pid, _ in pool.workers]
    try:
        wait_until(lambda: journal_pids(cache).get(spawned, 0) > 0, "the first worker never parsed a task")
        first = journal_pids(cache)[spawned]
        wait_until(lambda: journal_pids(cache)[spawned] > first, "the first worker stopped parsing")
        assert set(journal_pids(cache)) == {spawned}
    finally:
        pool.stop()
    assert set(journal_pids(cache)) == {spawned}
    assert not running(spawned)


def test_a_cancelled_load_ends_the_fork_too(tmp_path: Path) -> None:
    """A quit while the workers parse: the load's task is cancelled once the
    fork has written a journal; the fork then ends (it is not left parsing
    on its own), and so does the first worker."""
    _, cache, pool, got = started(tmp_path, 6000)
    (spawned,) = [pid for pid, _ in pool.workers]
    forks: set[int] = set()

    async def load_then_quit() -> None:
        task = asyncio.create_task(collect(pool, receiver(got)))
        deadline = time.monotonic() + 60
        while not (set(journal_pids(cache)) - {spawned}):
            assert time.monotonic() < deadline, "no fork ever parsed a task"
            assert not task.done(), "the load ended before a fork parsed"
            await asyncio.sleep(0.01)
        forks.update(set(journal_pids(cache)) - {spawned})
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    try:
        asyncio.run(load_then_quit())
    finally:
        pool.stop()
    (fork,) = forks
    wait_until(lambda: not running(fork), "the fork still parses after the load was cancelled", 10)
    assert not running(spawned)
    written = journal_pids(cache)
    time.sleep(0.2)
    assert journal_pids(cache) == written  # nobody parses on
