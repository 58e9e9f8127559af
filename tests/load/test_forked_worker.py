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
from tui.load.pool_stand_in import NICE as STAND_IN_NICE

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
    # The first worker, its fork, and its stand-in if it took a task before `collect` said "drawn".
    assert spawned in writers and len(writers) in (2, 3), writers
    assert set(parents.values()) == {spawned}
    assert sum(writers.values()) > writers[spawned]  # the others parsed tasks
    assert not any(running(pid) for pid in writers)


def priority(pid: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, pid)


def test_until_the_reader_has_drawn_a_stand_in_parses_at_a_lower_priority(tmp_path: Path) -> None:
    """Until the reader says it has drawn, the tasks are parsed by one
    process, a fork of the first worker at a lower priority; the first worker
    keeps the reader's priority and waits. Once the reader has drawn, the
    stand-in ends and the first worker and its fork parse, at the reader's
    priority; every file is answered once, as `check` reads it."""
    root, cache, pool, got = started(tmp_path, 3000)
    (spawned,) = [pid for pid, _ in pool.workers]
    mine = priority(0)
    try:
        wait_until(lambda: set(journal_pids(cache)) - {spawned}, "nobody parsed a task")
        (stand_in,) = set(journal_pids(cache)) - {spawned}
        assert parent_of(stand_in) == spawned
        assert priority(stand_in) == min(19, mine + STAND_IN_NICE) > mine
        assert priority(spawned) == mine
        first_worker, so_far = journal_pids(cache)[spawned], journal_pids(cache)[stand_in]
        wait_until(lambda: journal_pids(cache)[stand_in] > so_far, "the stand-in stopped parsing")
        assert journal_pids(cache)[spawned] == first_worker  # it waits for the reader
        assert set(journal_pids(cache)) == {spawned, stand_in}  # and has forked nobody else
        seen: dict[int, int] = {}

        async def load() -> list[Path]:
            task = asyncio.create_task(collect(pool, receiver(got)))  # the reader has drawn
            while not task.done():
                for pid in set(journal_pids(cache)) - {stand_in}:
                    if running(pid):
                        seen[pid] = priority(pid)
                await asyncio.sleep(0.005)
            return await task

        left = asyncio.run(load())
    finally:
        pool.stop()
    assert left == []
    assert got == as_checked(root)
    writers = journal_pids(cache)
    assert len(writers) == 3 and writers[spawned] > first_worker  # the first worker parsed tasks
    (fork,) = set(writers) - {spawned, stand_in}
    assert writers[fork] > 0
    assert seen == {spawned: mine, fork: mine}
    assert not any(running(pid) for pid in writers)


def test_until_the_reader_has_drawn_the_stand_in_parses_on_with_nobody_reading(tmp_path: Path) -> None:
    """The reader reads none of the stand-in's answers until it has drawn:
    the stand-in parses on regardless, task after task, until the tasks run
    out (with a pipe of Linux's default size, 64 KB, it would wait after a
    few tasks, its core idle while the reader starts). Its answers, ~40
    tasks of 48 files here, then wait in its pipe, and every file is
    answered once, as `check` reads it."""
    root, cache, pool, got = started(tmp_path, 2000)
    (spawned,) = [pid for pid, _ in pool.workers]
    try:
        wait_until(lambda: children_of(spawned), "no stand-in")
        (stand_in,) = children_of(spawned)
        wait_until(lambda: not running(stand_in), "the stand-in was held up before the tasks ran out", 30)
        parsed = journaled_files(cache)[stand_in]
        left = asyncio.run(collect(pool, receiver(got)))  # the reader has drawn: now it reads
    finally:
        pool.stop()
    assert left == []
    assert got == as_checked(root)
    assert len(parsed) > 1000  # over 64 KB of answers: ~190 bytes a file here


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
    for fork in forks:  # the fork made at the reader's word, and its stand-in if it had taken a task
        wait_until(
            lambda fork=fork: not running(fork), "a fork still parses after the load was cancelled", 10
        )
    assert not running(spawned)
    written = journal_pids(cache)
    time.sleep(0.2)
    assert journal_pids(cache) == written  # nobody parses on


def journaled_files(cache: ParseCache) -> dict[int, set[str]]:
    """The pid of each process that wrote a journal, and the files it wrote there."""
    from tui.load.cache_format import records

    assert cache.path is not None
    found: dict[int, set[str]] = {}
    for journal in journals(cache.path):
        pid = int(journal.name.removeprefix(cache.path.name + ".").split("-")[0])
        fd = os.open(journal, os.O_RDONLY)
        try:
            for _, index, _ in records(fd, os.fstat(fd).st_size, cache.version_key):
                found.setdefault(pid, set()).update(index)
        finally:
            os.close(fd)
    return found


def cpu_of(pid: int) -> float:
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def test_once_the_reader_has_drawn_the_stand_in_hands_back_the_rest_of_its_task(tmp_path: Path) -> None:
    """The reader draws while the stand-in parses the first file of a task (a
    big one, of 6,000 reviews): the stand-in stops after that file, not after
    its task's 48, and the first worker parses the task's other files, at the
    reader's priority; every file is answered once, as `check` reads it."""
    root, files = a_tree(tmp_path, 600)
    first, big = files[:4], files[4]  # the walk's first task: files[4:52]
    entry = "  - title: big {n}\n    repo: o/r\n    tags: [a]\n    verdict: deep\n    summary: s\n    focus:\n      - item {n}\n"
    big.write_text(
        "repo: o/r\nentries:\n" + "".join(entry.format(n=n) for n in range(6000)), encoding="utf-8"
    )
    cache = ParseCache(tmp_path / "cache" / "parse-cache.marshal")
    pool = start_walking_pool([root], first, cache.path, cache.version_key, workers=2, early=1)
    assert pool is not None
    answer = pool.first_answer(60)
    assert answer is not None
    got = first_titles(answer)
    (spawned,) = [pid for pid, _ in pool.workers]
    try:
        wait_until(lambda: [pid for pid in children_of(spawned)], "no stand-in")
        (stand_in,) = children_of(spawned)
        wait_until(lambda: cpu_of(stand_in) > 0.05, "the stand-in is not parsing")  # in the big file
        left = asyncio.run(collect(pool, receiver(got)))  # the reader has drawn
    finally:
        pool.stop()
    assert left == []
    assert got == as_checked(root)
    written = journaled_files(cache)
    task = {str(path) for path in files[4:52]}
    assert written[stand_in] == {str(big)}
    assert task - {str(big)} <= written[spawned]


def children_of(pid: int) -> list[int]:
    try:
        return [int(kid) for kid in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except (OSError, ValueError):
        return []
