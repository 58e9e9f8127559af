"""A library's table saved next to the parse cache (`tui.load.table_file`):
read back, it answers as the library does; any change to the entry files, the
cache file or the table file since the save makes it unusable (None), never an
error."""

from __future__ import annotations

import marshal
import os
import shutil
from pathlib import Path

import pytest

from tests.bench_corpus import generate
from tests.table_checks import assert_same
from tui import __version__
from tui.core.model import FileUpdate, Library, Location, Problem
from tui.load.cache import ParseCache
from tui.load.library import load_library
from tui.load.table_file import (
    HEAD,
    MAGIC,
    from_saved,
    read_saved,
    save_table,
    table_path,
)


class Warm:
    """A corpus with duplicates and a broken file, its parse cache filled, and a warm load of it."""

    def __init__(self, tmp_path: Path, reviews: int = 120) -> None:
        self.corpus = tmp_path / "corpus"
        self.files = generate(self.corpus, reviews, seed=5)
        shutil.copy(self.files[2], self.corpus / "aa-copy.yaml")
        (self.corpus / "zz-broken.yaml").write_text("repo: o/r\nentries:\n  - title: [\n", encoding="utf-8")
        self.cache_path = tmp_path / "cache" / "parse-cache"
        load_library([self.corpus], self.cache())  # parses, then saves the cache
        self.library = self.load()

    def cache(self) -> ParseCache:
        return ParseCache(self.cache_path, version_key=__version__)

    def load(self) -> Library:
        self.parse_cache = self.cache()
        return load_library([self.corpus], self.parse_cache)

    def save(self) -> bool:
        return save_table(self.library.table(), self.parse_cache, [self.corpus])

    def saved(self) -> object:
        return from_saved(self.cache_path, __version__, [self.corpus])


@pytest.fixture
def warm(tmp_path: Path) -> Warm:
    return Warm(tmp_path)


def test_saved_then_read_answers_as_the_library(warm: Warm) -> None:
    assert warm.library.duplicates and warm.library.problems
    assert warm.save()
    table = warm.saved()
    assert table is not None
    assert_same(table, warm.library)  # every answer, a row's `Review` and its body too
    assert [table.review(i).summary for i in range(table.n)] == [r.summary for r in warm.library.reviews]


def test_a_library_with_a_stale_file_is_not_saved(warm: Warm) -> None:
    """A start has no last good version of a broken file to show: such a table
    is not what a start would load."""
    path = warm.files[4]
    warm.library.apply({path: FileUpdate([], [Problem(Location(path, 1, 1), "broken now")])})
    assert warm.library.table().stale == {path}
    assert not warm.save()
    assert warm.saved() is None


def test_a_fresh_parse_is_not_saved(tmp_path: Path) -> None:
    """Its bodies are in the journals the save folded in (and removed), not in the main file."""
    corpus = tmp_path / "corpus"
    generate(corpus, 30)
    cache = ParseCache(tmp_path / "cache", version_key=__version__)
    library = load_library([corpus], cache)
    assert not save_table(library.table(), cache, [corpus])
    assert not table_path(tmp_path / "cache").exists()


def test_files_the_cache_did_not_load_are_not_saved(warm: Warm) -> None:
    assert not save_table(warm.library.table(), warm.cache(), [warm.corpus])  # a cache that loaded nothing


@pytest.mark.parametrize("change", ["touched", "edited", "removed", "added", "new folder"])
def test_a_changed_entry_file_rejects_it(warm: Warm, change: str) -> None:
    assert warm.save() and warm.saved() is not None
    path = warm.files[9]
    if change == "touched":
        info = path.stat()
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 1000))
    elif change == "edited":  # the same size, another text
        text = path.read_text(encoding="utf-8")
        path.write_text(
            text.replace("deep", "skip", 1) if "deep" in text else text.replace("skip", "deep", 1)
        )
        assert path.stat().st_size == len(text.encode())
    elif change == "removed":
        path.unlink()
    elif change == "added":
        shutil.copy(path, path.with_name("new.yaml"))
    else:
        (warm.corpus / "more").mkdir()
        shutil.copy(path, warm.corpus / "more" / "x.yaml")
    assert warm.saved() is None


def test_other_roots_or_another_version_reject_it(warm: Warm) -> None:
    assert warm.save()
    assert from_saved(warm.cache_path, __version__, [warm.corpus, warm.files[0]]) is None
    assert from_saved(warm.cache_path, __version__ + "+other", [warm.corpus]) is None
    assert warm.saved() is not None


def test_a_cache_saved_since_rejects_it(warm: Warm) -> None:
    """The bodies it points at are the old main file's."""
    assert warm.save()
    os.utime(warm.cache_path, ns=(1, 1))
    assert warm.saved() is None


def _rewritten(path: Path, header_change: dict) -> None:
    """The table with its header changed (and its CRC made right again)."""
    import zlib

    data = path.read_bytes()
    length = int.from_bytes(data[len(MAGIC) : len(MAGIC) + 8], "little")
    header = marshal.loads(data[HEAD : HEAD + length])
    header.update(header_change)
    head = marshal.dumps(header)
    head += bytes(-(HEAD + len(head)) % 8)
    rest = head + data[HEAD + length :]
    path.write_bytes(MAGIC + len(head).to_bytes(8, "little") + zlib.crc32(rest).to_bytes(8, "little") + rest)


def test_an_old_version_is_not_read(warm: Warm) -> None:
    assert warm.save()
    _rewritten(table_path(warm.cache_path), {"version": 0})
    assert warm.saved() is None


def test_a_header_pointing_outside_is_not_read(warm: Warm) -> None:
    """Right CRC, wrong content: a column past the end, an index past its table."""
    assert warm.save()
    path = table_path(warm.cache_path)
    saved = path.read_bytes()
    length = int.from_bytes(saved[len(MAGIC) : len(MAGIC) + 8], "little")
    header = marshal.loads(saved[HEAD : HEAD + length])
    at, size, code = header["sections"]["repo_of"]
    for change in (
        {"sections": {**header["sections"], "repo_of": (at, size + 10**9, code)}},
        {"repos": header["repos"][:1]},
        {"n": header["n"] + 1},
        {"tags": ()},
        {"verdict_bounds": (0, 0, 0, 0, 0, 1)},
        {"problems": (("x", "1", 1, "m", "error"),)},
        {"records": ((0, "yes"),)},
    ):
        path.write_bytes(saved)
        _rewritten(path, change)
        assert warm.saved() is None, change
    path.write_bytes(saved)
    assert warm.saved() is not None


def test_damage_anywhere_is_caught(warm: Warm) -> None:
    assert warm.save()
    path = table_path(warm.cache_path)
    saved = path.read_bytes()
    for at in range(0, len(saved), max(1, len(saved) // 300)):
        damaged = bytearray(saved)
        damaged[at] ^= 0x41
        path.write_bytes(bytes(damaged))
        assert warm.saved() is None, at
    for cut in (0, 1, len(MAGIC), HEAD, HEAD + 5, len(saved) // 2, len(saved) - 1):
        path.write_bytes(saved[:cut])
        assert warm.saved() is None, cut
    path.write_bytes(saved + b"\0" * 8)
    assert warm.saved() is None
    path.unlink()
    path.mkdir()  # not a file
    assert warm.saved() is None
    path.rmdir()
    assert read_saved(warm.cache_path, __version__) is None  # none at all


def test_a_walk_with_problems_rejects_it(warm: Warm, tmp_path: Path) -> None:
    """A root that is missing (or a folder that cannot be read) is today's path's to report."""
    missing = tmp_path / "missing"
    assert save_table(warm.library.table(), warm.parse_cache, [warm.corpus, missing])
    assert from_saved(warm.cache_path, __version__, [warm.corpus, missing]) is None
