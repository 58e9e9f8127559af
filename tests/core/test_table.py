"""`tui.core.table.ReviewTable` answers every question the library's index
answers, the same way: for the fixtures, the bundled digest, generated corpora
with duplicates, stale files and problems, and reviews built in memory."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from tests.bench_corpus import generate
from tests.reviews import bundled
from tui import __version__
from tui.core.model import ALL_TAG, UNREAD_TAG, VERDICTS, FileUpdate, Library, Location, Problem, Review
from tui.core.rows import Rows
from tui.core.table import CACHE_ROWS, ReviewTable
from tui.load.cache import ParseCache
from tui.load.library import load_library
from tui.load.parse import load_paths

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "entries"


def assert_same(table: ReviewTable, library: Library) -> None:
    """Every answer of `table` is the library's."""
    reviews = library.reviews
    assert table.n == len(table) == len(reviews)
    assert [table.key(i) for i in range(table.n)] == [r.key for r in reviews]
    assert table.keys() == [r.key for r in reviews]
    assert [table.title(i) for i in range(table.n)] == [r.title for r in reviews]
    assert [table.tags_of(i) for i in range(table.n)] == [r.tags for r in reviews]
    assert [(table.repo(i), table.verdict(i), table.pr(i), table.checks(i)) for i in range(table.n)] == [
        (r.repo, r.verdict, r.pr, r.checks) for r in reviews
    ]
    assert [table.location(i) for i in range(table.n)] == [r.location for r in reviews]
    made = [table.review(i) for i in range(table.n)]
    assert made == reviews  # location and everything the reader sees, the body too
    assert [table.is_stale(i) for i in range(table.n)] == [library.is_stale(r) for r in reviews]
    for row, review in enumerate(reviews):
        assert table.position(review.key) == row
    assert table.position("no/such#1") is None
    # Tags: the sidebar's order, each tag's reviews in reading order, the counts.
    assert table.tags == tuple(library.tags)
    for tag, under in library.tags.items():
        assert [reviews[row].key for row in table.tag_rows(tag)] == [r.key for r in under]
        assert table.tag_count(tag) == len(under) == len(table.under(tag))
        assert list(table.under(tag)) == list(table.tag_rows(tag))
    assert table.tag_rows("no such tag") == Rows() and table.tag_count("no such tag") == 0
    assert list(table.under(ALL_TAG)) == list(table.under(UNREAD_TAG)) == list(range(len(reviews)))
    # Repos and verdicts.
    assert table.repos == tuple(library.repos)
    assert table.repo_counts() == {repo: Counter(r.repo for r in reviews)[repo] for repo in library.repos}
    for repo in library.repos:
        assert table.repo_count(repo) == sum(1 for r in reviews if r.repo == repo)
    for verdict in {*VERDICTS, *(r.verdict for r in reviews)}:
        rows = table.verdict_rows(verdict)
        assert [reviews[row].key for row in rows] == [r.key for r in reviews if r.verdict == verdict]
        assert table.verdict_count(verdict) == len(rows)
    # Files, stale files, problems and duplicates.
    assert table.files == tuple(sorted(library.files, key=lambda path: path.parts))
    for path in library.files:
        assert [reviews[row].key for row in table.file_rows(path)] == [
            r.key for r in reviews if r.location.path == path
        ]
    assert table.stale == frozenset(library.stale)
    assert list(table.duplicates) == library.duplicates
    assert table.all_problems() == library.all_problems()
    assert table.problem_count == library.problem_count


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
