"""A first start with no parse cache: the parse workers walk the folders
themselves (`tui.load.pool.start_walking_pool`), so the command line lists
only the first frame's files before the first frame; the reader's own walk
comes after it. Real folders, real worker processes, real pipes and journals,
and the real watcher; timings are not asserted."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from tests.app_helpers import write_review
from tests.entry_files import review_yaml, reviews_in
from tui.core.model import Library
from tui.load.cache import ParseCache
from tui.load.first_frame import (
    PROCESS_THRESHOLD,
    SYNC_FILES,
    from_cache,
    parse_in_background,
    plan_first_part,
)
from tui.load.journal import journals
from tui.load.parse import load_paths
from tui.load.pool import WALK_CHUNK, start_walking_pool

pytestmark = pytest.mark.skipif(
    not hasattr(os, "posix_spawn") or not hasattr(os, "fork"), reason="no posix_spawn and fork"
)


def folders(root: Path, sizes: dict[str, int]) -> Path:
    for name, count in sizes.items():
        reviews_in(root / name, range(count), "r{n:05}", f"{name} {{n}}")
    return root


def on_disk(paths: list[Path]) -> dict[str, tuple[list[str], list[str]]]:
    """What `check` reads: each file's reviews' titles and its problems."""
    result = load_paths(paths)
    return {
        str(path): (
            [r.title for r in result.files.get(path, [])],
            [str(p) for p in result.problems.get(path, [])],
        )
        for path in {*result.files, *result.problems}
        if path.is_file()  # not the walk's problems, at folders
    }


def loaded_view(updates: dict) -> dict[str, tuple[list[str], list[str]]]:
    return {
        str(path): ([review.title for review in update.reviews], [str(p) for p in update.problems])
        for path, update in updates.items()
        if update is not None
    }


def wait_for_a_journal(cache: ParseCache) -> None:
    """Until a parse worker has parsed a task: the first worker, or the
    stand-in it forks, which parses until the reader has drawn (each
    writes its journal before it answers; the pool's processes are the
    only writers here)."""
    assert cache.path is not None
    deadline = time.monotonic() + 60
    while not [j for j in journals(cache.path) if j.stat().st_size > 0]:
        assert time.monotonic() < deadline, "no worker ever parsed a task"
        time.sleep(0.01)


class Deliveries:
    """Everything handed to the reader, each file at most once."""

    def __init__(self) -> None:
        self.got: dict = {}

    def __call__(self, batch: dict) -> None:
        twice = set(batch) & set(self.got)
        assert not twice, f"delivered twice: {sorted(map(str, twice))[:3]}"
        self.got.update(batch)


def load_as_the_reader_does(first, cache: ParseCache) -> Deliveries:
    """`tui.ui.loads`' load: the first frame's files, then the rest (the walk
    finished now), what the cache has, then the workers' answers and the files
    they left."""
    delivered = Deliveries()
    shown, _ = first.shown()
    delivered(shown)
    rest, _ = first.rest()
    cached, misses = from_cache(rest, cache)
    delivered(cached)
    asyncio.run(parse_in_background(misses, cache, delivered, pool=first.pool))
    return delivered


def test_the_first_frame_is_planned_before_the_rest_of_the_tree_is_walked(tmp_path: Path) -> None:
    """With no parse cache the plan starts the workers without walking the
    tree: files added afterwards to folders past the first frame's are in the
    reader's walk, and loaded, each once, with the others."""
    root = folders(tmp_path / "entries", {"a": 150, "m": 30, "z": 30})
    cache = ParseCache(tmp_path / "cache" / "parse-cache.marshal")
    first = plan_first_part([root], cache, fork=True)
    assert first.pool is not None and first.pool.roots == [root]
    write_review(root / "m" / "added.yaml", "added in m")
    (root / "n").mkdir()
    write_review(root / "n" / "x.yaml", "a new folder")
    (root / "z" / "r00003.yaml").unlink()
    delivered = load_as_the_reader_does(first, cache)
    assert loaded_view(delivered.got) == on_disk([root])
    assert "added in m" in str(loaded_view(delivered.got)) and "a new folder" in str(
        loaded_view(delivered.got)
    )


def test_every_file_is_loaded_once_with_workers_that_walk(tmp_path: Path) -> None:
    """The workers journal what they parse; the reader's rest of the cache
    does not take those journals' files as cached and then again from the
    workers' answers. Problems keep their file:line:column; the walk's own
    (a name with control characters) come from the reader's walk."""
    root = folders(tmp_path / "entries", {"a": 200, "b": 100, "c/d": 60})
    (root / "b" / "broken.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    (root / "c" / "bad\x1bname.yaml").write_text(review_yaml("bad name"), encoding="utf-8")
    single = tmp_path / "single.yaml"
    write_review(single, "given by name")
    cache = ParseCache(tmp_path / "cache" / "parse-cache.marshal")
    first = plan_first_part([root, single], cache, fork=True)
    assert first.pool is not None
    wait_for_a_journal(cache)  # the workers are ahead of the reader's rest
    delivered = Deliveries()
    shown, _ = first.shown()
    delivered(shown)
    rest, problems = first.rest()
    assert any("control characters" in str(problem) for problem in [*first.problems, *problems])
    cached, misses = from_cache(rest, cache)
    assert not cached, "the workers' files counted as cached: they would come again from the workers"
    asyncio.run(parse_in_background(misses, cache, delivered, pool=first.pool))
    view = loaded_view(delivered.got)
    assert view == on_disk([root, single])
    assert any(":1:" in problem or ":2:" in problem for problem in view[str(root / "b" / "broken.yaml")][1])
    assert view[str(single)][0] == ["given by name"]
    # And the cache saved after the load answers for every file.
    cache.save()
    again = ParseCache(cache.path)
    again.load()
    hits, misses = from_cache([Path(name) for name in view], again)
    assert not misses and loaded_view(hits) == view


def test_workers_whose_walks_differ_still_bring_every_file_once(tmp_path: Path) -> None:
    """Files added at the top of a folder and removed further on once a
    worker (the first's stand-in) has listed it: the workers that parse once
    the reader has drawn walk another tree, so their chunks and the
    stand-in's overlap or leave gaps. Each file on disk is loaded once all
    the same (gaps are parsed by the reader), and the removed ones not at all."""
    root = folders(tmp_path / "entries", {"a": 3000, "b": 300})
    cache = ParseCache(tmp_path / "cache" / "parse-cache.marshal")
    pool = start_walking_pool([root], [], cache.path, cache.version_key, workers=2, early=1)
    assert pool is not None and len(pool.workers) == 1
    wait_for_a_journal(cache)  # a worker has listed folder a
    for n in range(7):
        write_review(root / "a" / f"0-new-{n}.yaml", f"new {n}")
    for n in range(0, 300, 10):
        (root / "b" / f"r{n:05}.yaml").unlink()
    misses = sorted(p for p in root.rglob("*.yaml"))  # the reader's walk, after the changes
    delivered = Deliveries()
    asyncio.run(parse_in_background(misses, cache, delivered, pool=pool))
    view = loaded_view(delivered.got)
    assert view == on_disk([root])
    assert len(view) == 3000 + 7 + 300 - 30


def test_no_walk_before_the_first_frame_and_no_pool_for_a_few_files(tmp_path: Path) -> None:
    """The plan looks only as far as it must: the first frame's files and
    enough beyond them to know the workers are worth starting."""
    few = folders(tmp_path / "few", {"a": SYNC_FILES + PROCESS_THRESHOLD - 1})
    assert plan_first_part([few], ParseCache(None), fork=True).pool is None
    many = folders(tmp_path / "many", {"a": SYNC_FILES + PROCESS_THRESHOLD})
    first = plan_first_part([many], ParseCache(None), fork=True)
    assert first.pool is not None
    first.pool.stop()
    first.shown()
    assert WALK_CHUNK <= PROCESS_THRESHOLD


async def test_the_watcher_sees_changes_made_while_the_workers_load(tmp_path: Path) -> None:
    """The whole reader, planned as the command line plans it (workers that
    walk, journals): files renamed, removed and added while they parse
    reach it, and it settles on what is on disk."""
    from tui.ui.app import PrDigestApp

    root = folders(tmp_path / "entries", {"a": 1200, "b": 800})
    cache = ParseCache(tmp_path / "cache" / "parse-cache.marshal")
    first = plan_first_part([root], cache, fork=True)
    assert first.pool is not None
    app = PrDigestApp([root], tmp_path / "state" / "state.json", first=first)
    async with app.run_test(size=(120, 40)) as pilot:
        for n in range(0, 800, 40):
            (root / "b" / f"r{n:05}.yaml").rename(root / "b" / f"renamed-{n:05}.yaml")
            (root / "b" / f"r{n + 1:05}.yaml").unlink()
        for n in range(20):
            write_review(root / "a" / f"0-new-{n:02}.yaml", f"new {n}")
        expected = on_disk([root])
        deadline = time.monotonic() + 90
        while True:
            library: Library = app.reader.library
            seen = {str(path): [r.title for r in reviews] for path, reviews in library.files.items()}
            if seen == {name: titles for name, (titles, _) in expected.items()}:
                break
            assert time.monotonic() < deadline, f"{len(seen)} files shown, {len(expected)} on disk"
            await pilot.pause(0.1)


def test_the_first_worker_parses_the_first_frame_and_no_child_is_forked(tmp_path: Path) -> None:
    root = folders(tmp_path / "entries", {"a": 120})
    cache = ParseCache(tmp_path / "cache" / "parse-cache.marshal")
    first = plan_first_part([root], cache, fork=True)
    assert first.pool is not None and first.child is None
    assert first.pool.first == first.parse and first.parse
    shown, _ = first.shown()
    assert loaded_view(shown) == {str(p): on_disk([p])[str(p)] for p in first.parse}
    first.pool.stop()


@pytest.mark.parametrize("how", ["killed", "late"])
def test_if_the_first_worker_fails_the_first_frame_is_parsed_here(
    tmp_path: Path, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed before it answers, or not in time: the reader parses the first
    frame's files itself, that worker is ended, and what it took is parsed
    by the reader or the other workers, each file once."""
    import signal

    from tui.load import first_frame

    root = folders(tmp_path / "entries", {"a": 200, "b": 100})
    cache = ParseCache(tmp_path / "cache" / "parse-cache.marshal")
    first = plan_first_part([root], cache, fork=True)
    assert first.pool is not None
    pid, _ = first.pool.workers[0]
    if how == "killed":
        os.kill(pid, signal.SIGKILL)
    else:
        monkeypatch.setattr(first_frame, "CHILD_TIMEOUT_S", 0.0)
    delivered = load_as_the_reader_does(first, cache)
    assert loaded_view(delivered.got) == on_disk([root])
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # ended and reaped
