"""The library's snapshot in the parse cache (tui.load.snapshot): a warm start
whose files are all as saved builds the library from it, and gets exactly the
library a fresh parse gives; any change since the save, or a snapshot that
cannot be trusted, and the start reads the cache's index (and parses) as before."""

from __future__ import annotations

import asyncio
import marshal
import os
import zlib
from pathlib import Path

import pytest

from tui import __version__
from tui.core.model import Library
from tui.load import snapshot
from tui.load.cache import ParseCache
from tui.load.cache_format import HEADER
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


def page(n: int, reviews: int = 3) -> str:
    """A page of reviews; every seventh file repeats a review of the file before it
    (a duplicate), verdicts and tags vary."""
    verdicts = ["skim", "deep", "skip", "quick"]
    lines = ["repo: o/r", "entries:"]
    for k in range(reviews):
        pr = n * 10 + k if not (n % 7 == 6 and k == 0) else (n - 1) * 10
        lines += [
            f"  - title: review {n}-{k}",
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


def reader_start(
    paths: list[Path], cache_file: Path | None, *, fork: bool = False
) -> tuple[Library, FirstPart, ParseCache]:
    """A start as the reader makes it (`tui.ui.loads`): the first frame's
    library, then the whole library from the snapshot, or the rest from the
    cache and parsed; then the save."""
    cache = ParseCache(cache_file, version_key=__version__)  # the reader's
    first = plan_first_part(paths, cache, fork=fork)
    library = first_library(*first.shown())
    rest, problems = first.rest(whole=True)
    if first.library is not None:
        library.adopt(first.library)
        library.add_problems(problems)
    else:
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
        "duplicates": [str(problem) for problem in library.duplicates],
        "repos": library.repos,
        "files": {path: [r.location for r in reviews] for path, reviews in library.files.items()},
        "count": library.problem_count,
    }


def fresh(paths: list[Path]) -> dict:
    return picture(reader_start(paths, None)[0])


@pytest.fixture
def loaded(tmp_path: Path) -> tuple[list[Path], Path, list[Path]]:
    """A corpus (two folders and a path that does not exist) and a cache a first start filled."""
    files = corpus(tmp_path / "entries")
    paths = [tmp_path / "entries" / "a", tmp_path / "entries" / "b", tmp_path / "gone"]
    cache_file = tmp_path / "cache.bin"
    reader_start(paths, cache_file)
    return paths, cache_file, files


@pytest.mark.parametrize("fork", [False, True])
def test_a_warm_start_builds_the_library_from_the_snapshot_as_a_fresh_parse_would(
    loaded: tuple[list[Path], Path, list[Path]], fork: bool
) -> None:
    paths, cache_file, _ = loaded
    library, first, _ = reader_start(paths, cache_file, fork=fork)
    assert first.library is not None  # the snapshot answered
    want = fresh(paths)
    assert (
        want["duplicates"]
        and any("gone" in p for p in want["problems"])
        and any("p030" in p for p in want["problems"])
    )
    assert picture(library) == want


def spoil_index_and_files(cache_file: Path, files: list[Path]) -> None:
    """The index records after the first frame's spoilt, and every entry file
    unparseable (same size and mtime): only the snapshot can give the library."""
    data = bytearray(cache_file.read_bytes())
    first_length = int.from_bytes(data[:HEADER], "little")
    first_doc = marshal.loads(bytes(data[HEADER : HEADER + first_length]))
    second = HEADER + first_length + first_doc[4]
    data[second + HEADER : second + HEADER + 16] = b"\xff" * 16  # the second record's index
    cache_file.write_bytes(bytes(data))
    for path in files:
        info = path.stat()
        path.write_bytes(b"x" * info.st_size)
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def test_the_snapshot_answers_without_the_index_nor_the_files(
    loaded: tuple[list[Path], Path, list[Path]],
) -> None:
    paths, cache_file, files = loaded
    want = fresh(paths)
    spoil_index_and_files(cache_file, files)
    library, first, _ = reader_start(paths, cache_file)
    assert first.library is not None
    assert picture(library) == want


def change_touch(files: list[Path]) -> None:
    os.utime(files[-1], ns=(files[-1].stat().st_atime_ns, files[-1].stat().st_mtime_ns + 1_000_000))


def change_edit(files: list[Path]) -> None:
    text = files[-1].read_text(encoding="utf-8").replace("review", "edited")
    files[-1].write_text(text, encoding="utf-8")


def change_remove(files: list[Path]) -> None:
    files[-2].unlink()


def change_add(files: list[Path]) -> None:
    (files[-1].parent / "new.yaml").write_text(page(99), encoding="utf-8")


def change_first_frame(files: list[Path]) -> None:
    files[0].write_text(page(0).replace("review", "edited"), encoding="utf-8")


@pytest.mark.parametrize("change", [change_touch, change_edit, change_remove, change_add, change_first_frame])
@pytest.mark.parametrize("fork", [False, True])
def test_a_file_changed_since_the_save_is_noticed(
    loaded: tuple[list[Path], Path, list[Path]], change, fork: bool
) -> None:
    paths, cache_file, files = loaded
    change(files)
    library, first, _ = reader_start(paths, cache_file, fork=fork)
    assert first.library is None  # not the snapshot's
    assert picture(library) == fresh(paths)
    # The save made a snapshot of the files as they are now: the next start uses it.
    again, first, _ = reader_start(paths, cache_file, fork=fork)
    assert first.library is not None and picture(again) == picture(library)


def test_after_a_warm_start_the_cache_knows_each_files_stamp_and_is_not_rewritten(
    loaded: tuple[list[Path], Path, list[Path]],
) -> None:
    paths, cache_file, files = loaded
    before = cache_file.stat()
    library, first, cache = reader_start(paths, cache_file)
    assert first.library is not None
    after = cache_file.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)  # nothing to save
    assert not asyncio.run(missed_changes(paths, library.files, cache))
    change_edit(files)
    assert asyncio.run(missed_changes(paths, library.files, cache)) == {files[-1]}
    assert library.files[files[-1]][-1].focus[0].text.startswith("focus")  # bodies read from the cache


def snapshot_doc(cache_file: Path) -> tuple[bytes, int, tuple]:
    data = cache_file.read_bytes()
    at = int.from_bytes(data[-snapshot.TRAILER + len(snapshot.MAGIC) : -8], "little")
    return data, at, marshal.loads(data[at : -snapshot.TRAILER])


def rewrite(cache_file: Path, data: bytes, at: int, doc: tuple) -> None:
    """The snapshot replaced by `doc`, with a right checksum."""
    body = marshal.dumps(doc)
    trailer = snapshot.MAGIC + at.to_bytes(8, "little") + zlib.adler32(body).to_bytes(8, "little")
    cache_file.write_bytes(data[:at] + body + trailer)


def changed(cache_file: Path, **fields: object) -> None:
    """The snapshot with some of its fields replaced."""
    data, at, (form, version, key, doc) = snapshot_doc(cache_file)
    rewrite(cache_file, data, at, (form, version, key, {**doc, **fields}))


def spoil_byte(cache_file: Path) -> None:
    data, at, _ = snapshot_doc(cache_file)
    spoilt = bytearray(data)
    spoilt[at + 100] ^= 0xFF
    cache_file.write_bytes(bytes(spoilt))


def spoil_trailer(cache_file: Path) -> None:
    data = cache_file.read_bytes()
    cache_file.write_bytes(data[: -snapshot.TRAILER] + b"\x00" * snapshot.TRAILER)


def cut_short(cache_file: Path) -> None:
    data, at, _ = snapshot_doc(cache_file)
    cache_file.write_bytes(data[: at + 1000])


def old_version(cache_file: Path) -> None:
    data, at, doc = snapshot_doc(cache_file)
    rewrite(cache_file, data, at, (doc[0], doc[1] - 1, *doc[2:]))


def out_of_range(cache_file: Path) -> None:
    rows = snapshot_doc(cache_file)[2][3]["file_reviews"]
    changed(cache_file, file_reviews=[len(rows) + 5, *rows[1:]])


def negative(cache_file: Path) -> None:
    rows = snapshot_doc(cache_file)[2][3]["file_reviews"]
    changed(cache_file, file_reviews=[-1, *rows[1:]])


def too_many_listed(cache_file: Path) -> None:
    changed(cache_file, listed=[10**6])


def miscounted(cache_file: Path) -> None:
    counts = snapshot_doc(cache_file)[2][3]["counts"]
    changed(cache_file, counts=[*counts[:3], counts[3] + 1, *counts[4:]])


def a_field_missing(cache_file: Path) -> None:
    data, at, (form, version, key, doc) = snapshot_doc(cache_file)
    del doc["by_tag"]
    rewrite(cache_file, data, at, (form, version, key, doc))


def not_whole_numbers(cache_file: Path) -> None:
    starts = snapshot_doc(cache_file)[2][3]["starts"]
    changed(cache_file, starts=[0.5, *starts[1:]])


def a_key_twice(cache_file: Path) -> None:
    keys = snapshot_doc(cache_file)[2][3]["keys"]
    changed(cache_file, keys=[keys[1], *keys[1:]])


def not_a_list(cache_file: Path) -> None:
    changed(cache_file, lines=7)


@pytest.mark.parametrize(
    "damage",
    [
        spoil_byte,
        spoil_trailer,
        cut_short,
        old_version,
        out_of_range,
        negative,
        too_many_listed,
        miscounted,
        a_field_missing,
        not_whole_numbers,
        a_key_twice,
        not_a_list,
    ],
)
def test_a_damaged_or_old_snapshot_is_ignored(loaded: tuple[list[Path], Path, list[Path]], damage) -> None:
    paths, cache_file, _ = loaded
    damage(cache_file)
    library, first, _ = reader_start(paths, cache_file)
    assert first.library is None
    assert picture(library) == fresh(paths)
    again, first, _ = reader_start(paths, cache_file)  # the save wrote a good one
    assert first.library is not None and picture(again) == picture(library)


def test_a_snapshot_of_another_version_key_is_ignored(loaded: tuple[list[Path], Path, list[Path]]) -> None:
    paths, cache_file, _ = loaded
    cache = ParseCache(cache_file, version_key="another")
    first = plan_first_part(paths, cache)
    first.shown()
    first.rest(whole=True)
    assert first.library is None


def test_a_journal_since_the_save_means_the_snapshot_is_not_used(
    loaded: tuple[list[Path], Path, list[Path]],
) -> None:
    """Something parsed since the save (a worker's journal, a reader killed before
    it saved): the files may all match, the snapshot is still not trusted."""
    paths, cache_file, files = loaded
    journal = ParseCache(cache_file, version_key=__version__).journal()
    assert journal is not None
    from tui.load.journal import parse_files

    parse_files([str(files[-1])], journal)
    journal.close()
    library, first, _ = reader_start(paths, cache_file)
    assert first.library is None
    assert picture(library) == fresh(paths)


def test_the_rest_without_whole_lists_the_files_as_before(
    loaded: tuple[list[Path], Path, list[Path]],
) -> None:
    """`first_part` and `load_library` (status) read the rest from the index, snapshot or not."""
    paths, cache_file, files = loaded
    cache = ParseCache(cache_file, version_key=__version__)
    first = plan_first_part(paths, cache, fork=True)
    hits, _ = first.shown()
    rest, _ = first.rest()
    assert first.library is None
    assert sorted([*hits, *rest]) == sorted(path for path in files if path.exists())
    cached, misses = from_cache(rest, cache)
    assert misses == [] and len(cached) == len(rest)


def test_the_reader_starts_from_the_snapshot_and_reloads_a_file_edited_after(
    loaded: tuple[list[Path], Path, list[Path]], tmp_path: Path
) -> None:
    """The reader's own start (`tui.ui.loads`), with the cache's index after the
    first frame's record spoilt and every entry file unparseable (same size and
    mtime): the library from the snapshot, counted in the sidebar, marks work;
    then a file edited is reloaded by the watcher, and the next start builds
    from the snapshot of the files as they are then."""
    from tui.ui.app import PrDigestApp

    paths, cache_file, files = loaded
    want = fresh(paths)
    spoil_index_and_files(cache_file, files)
    app = PrDigestApp(paths, tmp_path / "state.json", cache_path=cache_file, watch=True)
    asyncio.run(run_reader(app, files, want))
    now = picture(app.reader.library)
    library, first, _ = reader_start(paths, cache_file)
    assert first.library is not None and picture(library) == now


async def run_reader(app, files: list[Path], want: dict) -> None:
    from tests.app_helpers import settled
    from tui.core.model import ALL_TAG
    from tui.ui.widgets.tag_list import TagList

    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        assert picture(app.reader.library) == want
        assert app.loads.cache.stamp_of(files[-1]) == (files[-1].stat().st_size, files[-1].stat().st_mtime_ns)
        counts = {c.tag: (c.unread, c.total) for c in app.query_one(TagList).counts}
        assert counts[ALL_TAG] == (len(want["reviews"]), len(want["reviews"]))
        await pilot.press("r")  # marks the review read
        await pilot.pause()
        counts = {c.tag: (c.unread, c.total) for c in app.query_one(TagList).counts}
        assert counts[ALL_TAG] == (len(want["reviews"]) - 1, len(want["reviews"]))
        reloads = app.loads.reloads
        files[-1].write_text(page(len(files) - 1).replace("review", "edited"), encoding="utf-8")
        for _ in range(250):
            await pilot.pause(0.02)
            if app.loads.reloads > reloads:
                break
        titles = [r.title for r in app.reader.library.files[files[-1]]]
        assert titles and all(title.startswith("edited") for title in titles)
        assert len(app.reader.library.reviews) == len(want["reviews"])
        app.loads.cache.save()
