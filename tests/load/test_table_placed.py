"""The table saved by the parse cache's save that rewrote its main file
(`ParseCache.save` answering where it put each file's bodies, `Placed`, and
`save_library_table(..., placed)` pointing the table's bodies there): a
fresh parse's, or a warm load's with a file parsed again. Read back, it is
the library, bodies included; every refusal of a table that would not be the
library holds."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.bench_corpus import generate
from tests.load.test_table_start_parts import assert_libraries_equal, made
from tui import __version__
from tui.core.model import Library
from tui.core.search import SearchIndex, terms
from tui.core.table_library import TableLibrary
from tui.load.cache import ParseCache
from tui.load.cache_format import CachedBody, Placed
from tui.load.first_frame import first_library, first_part, from_cache, parse_now
from tui.load.library import load_library
from tui.load.parse import load_file
from tui.load.table_file import from_saved, save_library_table, table_path

BROKEN = "repo: o/r\nentries:\n  - title: [\n"


def _corpus(tmp_path: Path) -> tuple[Path, list[Path]]:
    corpus = tmp_path / "corpus"
    files = generate(corpus, 400, seed=4)  # more files than a first frame: two records
    (corpus / "zz-broken.yaml").write_text(BROKEN, encoding="utf-8")
    return corpus, files


def _cache(tmp_path: Path) -> ParseCache:
    return ParseCache(tmp_path / "cache" / "parse-cache", version_key=__version__)


def _unsaved(corpus: Path, cache: ParseCache) -> Library:
    """`load_library` without its save: the test saves, as the reader's save thread
    does (the first frame's files first, in a record of their own)."""
    hits, later, missing = first_part([corpus], cache)
    more, misses = from_cache(later, cache)
    hits.update(more)
    hits.update(parse_now(misses, cache))
    return first_library(hits, missing)


def _read_back(tmp_path: Path, corpus: Path, library: Library) -> TableLibrary:
    table = from_saved(tmp_path / "cache" / "parse-cache", __version__, [corpus])
    assert table is not None
    saved = made(TableLibrary(table))
    assert_libraries_equal(saved, library)
    # The bodies: each review opened, and a search over them, as on the library.
    fields = ("summary", "url", "date", "verdict_note", "focus", "read_order", "actions", "caveats")
    for got, expected in zip(saved.reviews, library.reviews, strict=True):
        assert [getattr(got, name) for name in fields] == [getattr(expected, name) for name in fields]
        # Read from the cache, where the table points (a body not found there
        # would be read again from its YAML file, equal all the same).
        body = got.body_source
        assert isinstance(body, CachedBody) and body.source is not None
        assert body.source.body(body.offset, body.length, body.start, body.end) == expected.blob
    body_line = SearchIndex().text(library.reviews[9]).splitlines()[-1]  # a body field's, not a list field's
    query = terms(body_line[2:8])
    expected_found = SearchIndex().select(library.reviews, query)
    assert expected_found and SearchIndex().select(saved.reviews, query) == expected_found
    return saved


def test_a_fresh_parse_s_save_saves_the_table(tmp_path: Path) -> None:
    corpus, _ = _corpus(tmp_path)
    cache = _cache(tmp_path)
    library = _unsaved(corpus, cache)  # parsed: bodies in journals
    assert not save_library_table(library.files, library.problems, cache, [corpus])  # not in the main file
    placed = cache.save()
    assert placed is not None
    assert save_library_table(library.files, library.problems, cache, [corpus], placed)
    _read_back(tmp_path, corpus, library)


def test_a_warm_save_that_rewrote_the_cache_saves_the_table(tmp_path: Path) -> None:
    corpus, files = _corpus(tmp_path)
    load_library([corpus], _cache(tmp_path))  # parses, then saves the cache
    path = files[3]
    path.write_text(
        path.read_text(encoding="utf-8").replace("title: ", "title: Edited ", 1), encoding="utf-8"
    )
    cache = _cache(tmp_path)
    library = _unsaved(corpus, cache)  # warm, but that file parsed again
    for review in library.reviews[:4]:
        assert review.summary  # bodies read, as opened reviews are
    placed = cache.save()  # rewrites the main file: the bodies point into the old one
    assert placed is not None
    assert not save_library_table(library.files, library.problems, cache, [corpus])
    assert save_library_table(library.files, library.problems, cache, [corpus], placed)
    saved = _read_back(tmp_path, corpus, library)
    assert any(review.title.startswith("Edited ") for review in saved.reviews)


def _parsed_and_saved(tmp_path: Path) -> tuple[Path, list[Path], ParseCache, Library, Placed]:
    """A corpus parsed through a new cache, and that cache saved: what the save answered."""
    corpus, files = _corpus(tmp_path)
    cache = _cache(tmp_path)
    library = _unsaved(corpus, cache)
    placed = cache.save()
    assert placed is not None
    return corpus, files, cache, library, placed


def test_no_table_of_reviews_that_save_did_not_write(tmp_path: Path) -> None:
    corpus, files, cache, library, placed = _parsed_and_saved(tmp_path)
    path = files[2]
    path.write_text(path.read_text(encoding="utf-8").replace("title: ", "title: Later ", 1), encoding="utf-8")
    library.apply({path: load_file(path)})  # parsed again since that save
    assert not save_library_table(library.files, library.problems, cache, [corpus], placed)
    assert not table_path(tmp_path / "cache" / "parse-cache").exists()


def test_no_table_pointing_into_a_main_file_replaced_since(tmp_path: Path) -> None:
    corpus, files, cache, library, placed = _parsed_and_saved(tmp_path)
    cache.forget([files[0]])
    assert cache.save() is not None  # another save replaced the main file
    assert not save_library_table(library.files, library.problems, cache, [corpus], placed)


def test_no_table_with_duplicates_from_the_save_either(tmp_path: Path) -> None:
    corpus, files = _corpus(tmp_path)
    shutil.copy(files[2], corpus / "aa-copy.yaml")
    cache = _cache(tmp_path)
    library = _unsaved(corpus, cache)
    assert library.duplicates
    placed = cache.save()
    assert placed is not None
    assert not save_library_table(library.files, library.problems, cache, [corpus], placed)
    assert not table_path(tmp_path / "cache" / "parse-cache").exists()
