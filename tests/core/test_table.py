"""`tui.core.table.ReviewTable` answers every question the library's index
answers, the same way: for the fixtures, the bundled digest, generated corpora
with duplicates, stale files and problems, and reviews built in memory."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.bench_corpus import generate
from tests.reviews import bundled
from tests.table_checks import assert_same
from tui import __version__
from tui.core.model import FileUpdate, Library, Location, Problem, Review
from tui.core.rows import Rows
from tui.core.table import CACHE_ROWS
from tui.load.cache import ParseCache
from tui.load.library import load_library
from tui.load.parse import load_paths

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "entries"


def test_the_fixtures() -> None:
    result = load_paths([FIXTURES])
    library = Library.build(result.files, result.problems)
    assert library.reviews and library.all_problems()  # good files and bad ones
    assert_same(library.table(), library)


def test_the_bundled_digest() -> None:
    library = bundled()
    assert len(library.reviews) == 8
    assert_same(library.table(), library)


def _broken(folder: Path) -> Path:
    path = folder / "zz-broken.yaml"
    path.write_text("repo: o/r\nentries:\n  - title: [unclosed\n", encoding="utf-8")
    return path


def test_a_generated_corpus_with_duplicates_stale_files_and_problems(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    files = generate(corpus, 400, seed=3)
    shutil.copy(files[5], corpus / "aa-copy.yaml")  # its reviews come first: the originals are skipped
    shutil.copy(files[7], files[0].parent / "zz-copy.yaml")
    _broken(corpus)
    (corpus / "no-pr.yaml").write_text(
        "repo: o/r\nentries:\n"
        "  - {title: 'no number', repo: o/r, tags: [rocm, x y], verdict: skim, summary: s}\n"
        "  - {title: 'no number, again 二', repo: o/r, tags: [x y], verdict: deep, summary: s}\n",
        encoding="utf-8",
    )
    result = load_paths([corpus])
    library = Library.build(result.files, result.problems)
    assert len(library.duplicates) == 20
    stale_file = files[11]
    library.apply({stale_file: FileUpdate([], [Problem(Location(stale_file, 1, 1), "broken now")])})
    assert library.stale == {stale_file}
    library.add_problems([Problem(Location(tmp_path / "gone", 1, 1), "cannot read")])
    assert any(r.pr is None for r in library.reviews)
    assert_same(library.table(), library)


def test_reviews_built_in_memory() -> None:
    """Odd reviews no parser makes: a verdict it does not know, a tag twice, a key with a newline."""

    def review(
        title: str, verdict: str, tags: tuple[str, ...], path: str, line: int, pr: int | None
    ) -> Review:
        return Review(title, "o/r", verdict, "s", tags, Location(Path(path), line, 1), pr=pr)

    files = {
        Path("b/2.yaml"): [
            review("two\nlines", "odd", ("a", "a"), "b/2.yaml", 1, None),
            review("big", "skip", ("b",), "b/2.yaml", 5, 2**70),
        ],
        Path("a/1.yaml"): [
            review("one", "quick", ("b", "a"), "a/1.yaml", 1, 1),
            review("other", "also odd", (), "a/1.yaml", 9, 3),
            review("dup", "deep", ("c",), "a/1.yaml", 20, 1),
        ],
        Path("c/empty.yaml"): [],
    }
    library = Library.build(
        files, {Path("c/empty.yaml"): [Problem(Location(Path("c/empty.yaml"), 1, 1), "x")]}
    )
    assert_same(library.table(), library)
    assert library.table().file_rows(Path("c/empty.yaml")) == Rows()


def test_an_empty_library() -> None:
    library = Library.build({})
    table = library.table()
    assert_same(table, library)
    with pytest.raises(IndexError):
        table.review(0)


def test_building_it_reads_no_body(tmp_path: Path) -> None:
    """A warm library's bodies stay in the parse cache: the table points at them."""
    corpus = tmp_path / "corpus"
    generate(corpus, 60)
    cache = tmp_path / "cache"
    load_library([corpus], ParseCache(cache, version_key=__version__))
    library = load_library([corpus], ParseCache(cache, version_key=__version__))
    table = library.table()
    assert all(r.body_source is r._blob and callable(r._blob) for r in library.reviews)
    assert all(r._body is None for r in library.reviews)
    first = table.review(0)
    assert first._body is None and first.summary == library.reviews[0].summary
    assert_same(table, library)


def test_the_table_follows_the_library() -> None:
    library = bundled()
    table = library.table()
    assert library.table() is table  # made once per index
    path = next(iter(library.files))
    library.apply({path: None})
    assert library.table() is not table and library.table().n == 0
    before = library.table()
    library.add_problems([Problem(Location(Path("gone"), 1, 1), "cannot read")])
    assert library.table() is not before and library.table().problem_count == 1


def test_reviews_made_are_kept_for_a_while() -> None:
    reviews = {Path(f"{n:04}.yaml"): [_plain(n)] for n in range(CACHE_ROWS + 10)}
    table = Library.build(reviews).table()
    first = table.review(0)
    assert table.review(0) is first
    for row in range(1, CACHE_ROWS + 1):
        table.review(row)
    again = table.review(0)
    assert again is not first and again == first


def _plain(n: int) -> Review:
    return Review(f"r{n}", "o/r", "deep", "s", ("a",), Location(Path(f"{n:04}.yaml"), 1, 1), pr=n + 1)


def test_rows() -> None:
    rows = Rows([2, 5, 9, 14])
    assert len(rows) == 4 and rows[1] == 5 and rows[-1] == 14 and list(rows) == [2, 5, 9, 14]
    assert rows.index_of(9) == 2 and rows.index_of(10) is None and rows.index_of(99) is None
    assert 5 in rows and 6 not in rows and "5" not in rows
    assert rows[1:3] == Rows([5, 9]) and isinstance(rows[1:3], Rows)
    every = Rows.every(10)
    assert every.index_of(4) == 4 and every.index_of(10) is None and every[2:5].tolist() == [2, 3, 4]
    assert every[2:5].index_of(3) == 1
    assert Rows() == Rows(range(0)) and not Rows()
    assert rows != [2, 5, 9, 14]  # a list of rows is not Rows
