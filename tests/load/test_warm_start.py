"""A warm start (the reviews decoded from the parse cache's index,
`cache_format._decode_all`) gets exactly the library a fresh parse gives:
order, keys, tags, duplicates, problems, bodies; with files changed, added or
removed since the save; and a save after it keeps every body (copied from the
cache's blocks)."""

from __future__ import annotations

import asyncio
import os
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


def start(paths: list[Path], cache_file: Path | None) -> tuple[Library, FirstPart, ParseCache]:
    """A start as the reader makes it (`tui.ui.loads`): the first frame's
    library, then the rest from the cache and parsed; then the save."""
    first = plan_first_part(paths, ParseCache(cache_file, version_key=__version__))
    cache = first.cache
    library = first_library(*first.shown())
    rest, problems = first.rest()
    cached, misses = from_cache(rest, cache)
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


def test_a_warm_start_gets_the_library_a_fresh_parse_gives(
    loaded: tuple[list[Path], Path, list[Path]],
) -> None:
    paths, cache_file, files = loaded
    want = fresh(paths)
    assert any("duplicate" in p for p in want["problems"]) and any("gone" in p for p in want["problems"])
    assert any("p030" in p for p in want["problems"])  # the broken file
    for path in files:  # unparseable, same size and mtime: only the cache can answer
        info = path.stat()
        path.write_bytes(b"x" * info.st_size)
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    library, _, cache = start(paths, cache_file)
    assert picture(library) == want
    cache.dirty = True
    cache.save()  # every block copied from the cache file as it is
    again, _, _ = start(paths, cache_file)
    assert picture(again) == want


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
    library, _, cache = start(paths, cache_file)
    assert picture(library) == fresh(paths)
    assert not asyncio.run(missed_changes(paths, library.files, cache))
