"""The parts of a start from the saved table below the screen: the checker
process (`tui.load.table_check`), the library made from a table
(`tui.core.table_library`) equal to the library a load makes, the table saved
after a warm load (`save_library_table`), and the parse cache holding the
files such a start never read (`ParseCache.hold`) for its next save."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.bench_corpus import generate
from tests.table_checks import assert_same
from tui import __version__
from tui.core.model import Library
from tui.core.table_library import TableLibrary, readable
from tui.load.cache import ParseCache
from tui.load.cache_format import CachedBody, stamp
from tui.load.library import load_library
from tui.load.table_check import start_check
from tui.load.table_file import from_saved, save_library_table, table_path

BROKEN = "repo: o/r\nentries:\n  - title: [\n"


class Warm:
    """A corpus with a broken file and no duplicate, its parse cache filled,
    a warm load of it, and its table saved as the reader saves it."""

    def __init__(self, tmp_path: Path) -> None:
        self.corpus = tmp_path / "corpus"
        self.files = generate(self.corpus, 150, seed=9)
        (self.corpus / "zz-broken.yaml").write_text(BROKEN, encoding="utf-8")
        self.cache_path = tmp_path / "cache" / "parse-cache"
        load_library([self.corpus], self.cache())  # parses, then saves the cache
        self.parse_cache = self.cache()
        self.library = load_library([self.corpus], self.parse_cache)
        for review in self.library.reviews[:5]:
            assert review.summary  # bodies read, as the reader reads the reviews it opens
        assert save_library_table(self.library.files, self.library.problems, self.parse_cache, [self.corpus])

    def cache(self) -> ParseCache:
        return ParseCache(self.cache_path, version_key=__version__)


@pytest.fixture
def warm(tmp_path: Path) -> Warm:
    return Warm(tmp_path)


def made(library: TableLibrary) -> TableLibrary:
    for _ in library.steps():
        pass
    return library


def assert_libraries_equal(got: Library, expected: Library) -> None:
    assert got.reviews == expected.reviews
    assert set(got.by_key) == set(expected.by_key)
    assert all(got.by_key[review.key] is review for review in got.reviews)
    assert list(got.tags) == list(expected.tags)
    assert all(got.tags[tag] == expected.tags[tag] for tag in expected.tags)
    assert sorted(got.files) == sorted(expected.files)
    assert all(got.files[path] == expected.files[path] for path in expected.files)
    assert got.problems == expected.problems
    assert got.all_problems() == expected.all_problems()
    assert got.repos == expected.repos and got.duplicates == expected.duplicates
    assert got.stale == expected.stale == set()


def test_a_library_from_the_saved_table_is_the_loaded_library(warm: Warm) -> None:
    table = from_saved(warm.cache_path, __version__, [warm.corpus])
    assert table is not None and readable(table)
    library = TableLibrary(table)
    assert library.pending is table
    # Before its index is made: lookups from the table, nothing made.
    first = warm.library.reviews[7]
    assert library.by_key[first.key] == first and first.key in library.by_key
    assert "no/such#1" not in library.by_key and library.by_key.get("no/such#1") is None
    assert list(library.tags) == list(warm.library.tags) and "rocm" in library.tags
    assert set(library.files) == set(warm.library.files)
    assert library.problem_count == warm.library.problem_count
    assert library.pending is table
    assert_libraries_equal(made(library), warm.library)
    assert library.pending is None
    assert library.table() is table  # kept until a change
    assert [review.summary for review in library.reviews] == [
        review.summary for review in warm.library.reviews
    ]


def test_asking_for_the_reviews_makes_the_rest_of_the_index(warm: Warm) -> None:
    table = from_saved(warm.cache_path, __version__, [warm.corpus])
    assert table is not None
    library = TableLibrary(table)
    steps = library.steps()
    for _ in range(3):
        next(steps)  # the first slices, as the reader makes them after the loaded frame
    assert library.pending is not None
    assert library.reviews == warm.library.reviews  # the rest now
    assert library.pending is None
    assert_libraries_equal(library, warm.library)
    assert next(library.steps(), None) is None  # nothing made twice


def test_a_table_library_applies_a_change_as_a_library_does(warm: Warm) -> None:
    table = from_saved(warm.cache_path, __version__, [warm.corpus])
    assert table is not None
    library = TableLibrary(table)
    path = warm.files[3]
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("title: ", "title: Changed ", 1), encoding="utf-8")
    from tui.load.parse import load_file

    update = {path: load_file(path), warm.files[4]: None}
    changes = library.apply(update)  # before its index is made: made first
    expected = warm.library.apply(update)
    assert (changes.added, changes.removed, changes.updated) == (
        expected.added,
        expected.removed,
        expected.updated,
    )
    assert_libraries_equal(library, warm.library)


def test_no_table_library_from_a_table_with_duplicates(warm: Warm) -> None:
    shutil.copy(warm.files[2], warm.corpus / "aa-copy.yaml")
    library = load_library([warm.corpus], warm.cache())
    assert library.duplicates
    assert not readable(library.table())
    cache = ParseCache(warm.cache_path, version_key=__version__)
    library = load_library([warm.corpus], cache)
    assert not save_library_table(library.files, library.problems, cache, [warm.corpus])


def test_a_fresh_parse_saves_no_table(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    generate(corpus, 40)
    cache = ParseCache(tmp_path / "cache" / "parse-cache", version_key=__version__)
    library = load_library([corpus], cache)  # parsed: bodies in journals, then in memory
    assert not save_library_table(library.files, library.problems, cache, [corpus])
    assert not table_path(tmp_path / "cache" / "parse-cache").exists()


def test_a_review_read_keeps_its_body_in_the_cache(warm: Warm) -> None:
    """A body read (the review opened) stays where the cache has it: the table
    saved afterwards points there, and the review reads it again when asked."""
    review = warm.library.reviews[0]
    assert review.summary
    assert isinstance(review.body_source, CachedBody)
    assert review.blob == review.blob and review.summary == warm.library.reviews[0].summary


def test_the_checker_answers_as_the_table_file_does(warm: Warm) -> None:
    check = start_check(warm.cache_path, __version__, [warm.corpus])
    assert check is not None
    saved = check.saved()
    assert saved is not None
    assert_same(saved.table(), warm.library)


@pytest.mark.parametrize("change", ["touched", "removed", "added", "damaged", "other roots"])
def test_the_checker_refuses_what_the_table_file_refuses(warm: Warm, change: str) -> None:
    path = warm.files[5]
    roots = [warm.corpus]
    if change == "touched":
        info = path.stat()
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 1000))
    elif change == "removed":
        path.unlink()
    elif change == "added":
        shutil.copy(path, warm.corpus / "new.yaml")
    elif change == "damaged":
        table = table_path(warm.cache_path)
        data = bytearray(table.read_bytes())
        data[len(data) // 2] ^= 0x40
        table.write_bytes(bytes(data))
    else:
        roots = [warm.corpus, warm.files[0]]
    check = start_check(warm.cache_path, __version__, roots)
    assert check is not None
    assert check.saved() is None


def test_no_checker_without_a_table(tmp_path: Path) -> None:
    assert start_check(tmp_path / "parse-cache", __version__, [tmp_path]) is None


def test_a_checker_not_wanted_ends(warm: Warm) -> None:
    check = start_check(warm.cache_path, __version__, [warm.corpus])
    assert check is not None
    check.close()
    assert check.saved() is None


def test_a_save_after_a_table_start_keeps_the_files_it_never_read(warm: Warm) -> None:
    """A start from the table reads the first record of the parse cache only;
    its next save (after a reload) still writes every file as the cache had it."""
    table = from_saved(warm.cache_path, __version__, [warm.corpus])
    assert table is not None
    cache = warm.cache()
    first = [Path(name) for name in table.columns.files[:3]]
    cache.load(first=[str(path) for path in first])
    for path in first:
        assert cache.get(path, stamp(path)) is not None
    held = {name: stamp(Path(name)) for name in table.columns.files}  # the files as loaded
    cache.hold({name: value for name, value in held.items() if value is not None})
    assert all(cache.stamp_of(path) == stamp(path) for path in warm.library.files)
    cache.save()  # nothing parsed since: the main file is left as it is
    assert from_saved(warm.cache_path, __version__, [warm.corpus]) is not None
    edited = warm.files[6]
    edited.write_text(
        edited.read_text(encoding="utf-8").replace("title: ", "title: New ", 1), encoding="utf-8"
    )
    from tui.load.journal import parse_files

    cache.store(parse_files([str(edited)]))
    gone = warm.files[7]
    gone.unlink()
    cache.forget([gone])
    cache.save()
    again = warm.cache()
    again.load()
    for path in sorted(warm.corpus.rglob("*.yaml")):
        update = again.get(path, stamp(path))
        assert update is not None, path
        if path == edited:
            assert any(review.title.startswith("New ") for review in update.reviews)
    assert not again.has(gone)
