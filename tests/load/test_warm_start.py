"""A warm start's walk on the other core (tui.load.warm_start): the command
line's plan forks a child that walks and stats the files the first frame does
not show; the start then gets exactly the library it would get walking here,
changed, added and removed files included, and falls back to walking here if
the child fails."""

from __future__ import annotations

import asyncio
import os
import select
import signal
from pathlib import Path

import pytest

from tui import __version__
from tui.core.model import Library
from tui.load.cache import ParseCache
from tui.load.first_frame import (
    SYNC_FILES,
    FirstPart,
    first_library,
    from_cache,
    parse_in_background,
    plan_first_part,
)
from tui.load.reload import missed_changes

FILES = SYNC_FILES + 16
"""More files than the first frame shows: some are left for `rest`."""


def page(n: int, reviews: int = 3, word: str = "review") -> str:
    """A page of reviews; every seventh file repeats a review of the file before it
    (a duplicate), verdicts and tags vary."""
    verdicts = ["skim", "deep", "skip", "quick"]
    lines = ["repo: o/r", "entries:"]
    for k in range(reviews):
        pr = n * 10 + k if not (n % 7 == 6 and k == 0) else (n - 1) * 10
        lines += [
            f"  - title: {word} {n}-{k}",
            f"    pr: {pr}",
            f"    tags: [t{n % 3}, t{k}, shared]",
            f"    verdict: {verdicts[(n + k) % 4]}",
            f"    summary: summary {n}-{k}",
            "    focus:",
            f"      - focus {n}-{k}",
        ]
    return "\n".join(lines) + "\n"


def corpus(root: Path) -> list[Path]:
    """`FILES` pages in two folders and a subfolder, one file broken."""
    files = []
    for n in range(FILES):
        folder = root / ("a" if n < FILES // 2 else "b") / ("sub" if n % 5 == 0 else "")
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"p{n:03}.yaml"
        path.write_text(page(n) if n != 30 else "repo: o/r\nentries:\n  - title: [broken\n", encoding="utf-8")
        files.append(path)
    return files


def start(
    paths: list[Path], cache_file: Path | None, first: FirstPart | None = None, *, fork: bool = False
) -> tuple[Library, FirstPart, ParseCache]:
    """A start as the reader makes it (`tui.ui.loads`): the first frame's
    library, then the rest from the cache (with the child's stamps, if any) and
    parsed; then the save."""
    if first is None:
        first = plan_first_part(paths, ParseCache(cache_file, version_key=__version__), fork=fork)
    cache = first.cache
    library = first_library(*first.shown())
    rest, problems = first.rest()
    cached, misses = from_cache(rest, cache, first.stamps)
    library.add_problems(problems)
    library.apply(cached, compare=False)
    asyncio.run(
        parse_in_background(misses, cache, lambda batch: library.apply(batch, compare=False), workers=1)
    )
    cache.save()
    return library, first, cache


def picture(library: Library) -> dict:
    """Everything the reader shows of a library, bodies and all."""
    return {
        "reviews": [(r.key, r.location, r.content, r.checks) for r in library.reviews],
        "by_key": {key: review.location for key, review in library.by_key.items()},
        "tags": [(tag, [r.key for r in reviews]) for tag, reviews in library.tags.items()],
        "problems": [str(problem) for problem in library.all_problems()],
        "repos": library.repos,
        "files": {path: [r.location for r in reviews] for path, reviews in library.files.items()},
    }


def fresh(paths: list[Path]) -> dict:
    return picture(start(paths, None)[0])


@pytest.fixture
def loaded(tmp_path: Path) -> tuple[list[Path], Path, list[Path]]:
    """A corpus (two folders and a path that does not exist) and a cache a first start filled."""
    files = corpus(tmp_path / "entries")
    paths = [tmp_path / "entries" / "a", tmp_path / "entries" / "b", tmp_path / "gone"]
    cache_file = tmp_path / "cache.bin"
    start(paths, cache_file)
    return paths, cache_file, files


def test_a_warm_start_walks_on_the_other_core_and_gets_the_same_library(
    loaded: tuple[list[Path], Path, list[Path]],
) -> None:
    paths, cache_file, files = loaded
    want = fresh(paths)
    assert any("duplicate" in p for p in want["problems"]) and any("gone" in p for p in want["problems"])
    library, first, cache = start(paths, cache_file, fork=True)
    assert first.stamps is not None  # the child answered: every other file with its stamp
    assert first.stamps == {path: (path.stat().st_size, path.stat().st_mtime_ns) for path in first.stamps}
    assert set(first.stamps) < set(files)
    assert len(first.stamps) == len(files) - SYNC_FILES
    assert picture(library) == want
    assert not asyncio.run(missed_changes(paths, library.files, cache))
    library, first, _ = start(paths, cache_file)  # no child: walked here
    assert first.stamps is None and picture(library) == want


def change_touch(files: list[Path]) -> None:
    info = files[-1].stat()
    os.utime(files[-1], ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000))


def change_edit(files: list[Path]) -> None:
    files[-1].write_text(page(len(files) - 1, word="edited"), encoding="utf-8")


def change_remove(files: list[Path]) -> None:
    files[-2].unlink()


def change_add(files: list[Path]) -> None:
    (files[-1].parent / "new.yaml").write_text(page(99), encoding="utf-8")


def change_first_frame(files: list[Path]) -> None:
    files[0].write_text(page(0, word="edited"), encoding="utf-8")


@pytest.mark.parametrize("change", [change_touch, change_edit, change_remove, change_add, change_first_frame])
def test_a_file_changed_since_the_save_is_noticed(
    loaded: tuple[list[Path], Path, list[Path]], change
) -> None:
    paths, cache_file, files = loaded
    change(files)
    library, _, cache = start(paths, cache_file, fork=True)
    assert picture(library) == fresh(paths)
    assert not asyncio.run(missed_changes(paths, library.files, cache))


def test_a_file_changed_after_the_child_stated_it_is_caught_up_with(
    loaded: tuple[list[Path], Path, list[Path]],
) -> None:
    """The child's stamps are what the cache is checked against: a file edited
    after them is loaded as it was, and the watcher's catch-up names it."""
    paths, cache_file, files = loaded
    first = plan_first_part(paths, ParseCache(cache_file, version_key=__version__), fork=True)
    assert first.walker is not None
    ready, _, _ = select.select([first.walker[1]], [], [], 30)  # the child has written its answer
    assert ready
    change_edit(files)
    library, first, cache = start(paths, cache_file, first)
    assert library.files[files[-1]][0].title.startswith("review")  # as the child saw it
    assert asyncio.run(missed_changes(paths, library.files, cache)) == {files[-1]}


def test_a_child_that_fails_means_the_walk_is_done_here(loaded: tuple[list[Path], Path, list[Path]]) -> None:
    paths, cache_file, _ = loaded
    want = fresh(paths)
    first = plan_first_part(paths, ParseCache(cache_file, version_key=__version__), fork=True)
    assert first.walker is not None
    pid, answer = first.walker
    garbled, writer = os.pipe()  # its answer replaced by bytes that are not one
    os.write(writer, b"\x00not marshal")
    os.close(writer)
    first.walker = (pid, garbled)
    library, first, _ = start(paths, cache_file, first)
    os.close(answer)
    assert first.stamps is None
    assert picture(library) == want


def test_a_child_killed_means_the_walk_is_done_here(loaded: tuple[list[Path], Path, list[Path]]) -> None:
    paths, cache_file, _ = loaded
    want = fresh(paths)
    first = plan_first_part(paths, ParseCache(cache_file, version_key=__version__), fork=True)
    assert first.walker is not None
    os.kill(first.walker[0], signal.SIGKILL)  # before or after it answered: either way the same library
    library, first, _ = start(paths, cache_file, first)
    assert picture(library) == want


def test_no_child_walks_a_start_without_a_cache(tmp_path: Path) -> None:
    """A first start hands the walk to the parse workers (`tui.load.pool`)."""
    files = corpus(tmp_path / "entries")
    first = plan_first_part([tmp_path / "entries"], ParseCache(tmp_path / "cache.bin"), fork=True)
    assert first.walker is None
    library, _, _ = start([tmp_path / "entries"], None, first)
    assert set(library.files) == set(files)
