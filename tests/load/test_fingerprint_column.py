"""The parse cache keeps each review's fingerprint digest (`cache_format.FINGERPRINT`):
`status` tells a read review unchanged by comparing it with the digest of the
fingerprint the state file kept, without reading the review's body."""

from __future__ import annotations

import asyncio
import marshal
import os
from pathlib import Path

from tests.app_helpers import write_review
from tui.core.changes import fingerprint, fingerprint_digest
from tui.load.cache import ParseCache
from tui.load.cache_format import FINGERPRINT, FORMAT, VERSION
from tui.load.first_frame import first_part, from_cache, parse_in_background
from tui.load.library import load_library
from tui.load.rows import cached_rows, changed_since_seen
from tui.store.state import ReadState


def folder_of_reviews(tmp_path: Path) -> Path:
    folder = tmp_path / "entries"
    folder.mkdir()
    write_review(folder / "a.yaml", "Alpha", extra="pr: 1\nfocus: [one, two]\nactions: [do it]\n")
    write_review(folder / "b.yaml", "Beta", extra="pr: 2\n")
    (folder / "c.yaml").write_text(
        "repo: o/r\nentries:\n"
        "  - title: Gamma\n    pr: 3\n    tags: [a, b]\n    verdict: skim\n    summary: s\n"
        "    verdict_note: why\n    url: https://example.com/3\n    date: '2026-01-02'\n"
        "    focus: [{text: same, id: first}, same, same, {text: other, refs: [x.py]}]\n"
        "    caveats: [careful]\n"
        "  - {title: No PR, tags: [c], verdict: deep, summary: t, read_order: [a, a]}\n",
        encoding="utf-8",
    )
    return folder


def index_digests(cache_path: Path, folder: Path) -> dict[str, bytes]:
    rows = cached_rows([folder], ParseCache(cache_path))
    assert rows is not None
    return {row.title: row.raw[FINGERPRINT] for row in rows}


def test_the_column_is_the_digest_of_the_fingerprint_whichever_way_the_cache_was_filled(
    tmp_path: Path,
) -> None:
    folder = folder_of_reviews(tmp_path)
    library = load_library([folder], ParseCache(None))
    expected = {r.title: fingerprint_digest(fingerprint(r)) for r in library.reviews}
    assert len(set(expected.values())) == 4

    # Parsed in this process and saved (load_library), ...
    saved = tmp_path / "saved.marshal"
    load_library([folder], ParseCache(saved))
    assert index_digests(saved, folder) == expected

    # ... parsed in the background into a journal, folded in by the save, ...
    journaled = tmp_path / "journal.marshal"
    cache = ParseCache(journaled)
    _, rest, _ = first_part([folder], cache)
    _, misses = from_cache(rest, cache)
    asyncio.run(parse_in_background(misses, cache, lambda updates: None))
    cache.save()
    assert index_digests(journaled, folder) == expected

    # ... and saved again from the cache itself (the digest carried, no body read).
    again = ParseCache(saved)
    load_library([folder], again)
    again.dirty = True
    again.save()
    assert index_digests(saved, folder) == expected


def test_the_digest_survives_the_state_file(tmp_path: Path) -> None:
    """The fingerprint read back from the state file (JSON) has the digest of
    the one written: no body is read for a read review that did not change."""
    folder = folder_of_reviews(tmp_path)
    library = load_library([folder], ParseCache(None))
    state = ReadState(tmp_path / "state.json")
    for review in library.reviews:
        state.set_read(review.key, True)
        state.set_seen(review.key, fingerprint(review))
    state.save()
    again = ReadState(tmp_path / "state.json")
    again.load()
    for review in library.reviews:
        seen = again.seen(review.key)
        assert seen is not None and fingerprint_digest(seen) == fingerprint_digest(fingerprint(review))


def test_an_edited_review_is_updated_and_an_unchanged_one_is_not(tmp_path: Path) -> None:
    folder = folder_of_reviews(tmp_path)
    cache_path = tmp_path / "cache.marshal"
    library = load_library([folder], ParseCache(cache_path))
    state = ReadState(tmp_path / "state.json")
    for review in library.reviews:
        state.set_read(review.key, True)
        state.set_seen(review.key, fingerprint(review))
    rows = cached_rows([folder], ParseCache(cache_path))
    assert rows is not None
    assert not any(changed_since_seen(state, row) for row in rows)

    # Edited after the cache was written: the cache cannot answer for it ...
    path = folder / "a.yaml"
    path.write_text(path.read_text().replace("do it", "do it now"), encoding="utf-8")
    assert cached_rows([folder], ParseCache(cache_path)) is None
    load_library([folder], ParseCache(cache_path))  # ... until it is parsed again (status does this)
    rows = cached_rows([folder], ParseCache(cache_path))
    assert rows is not None
    assert {row.title: changed_since_seen(state, row) for row in rows} == {
        "Alpha": True,
        "Beta": False,
        "Gamma": False,
        "No PR": False,
    }


def test_a_fingerprint_kept_in_another_order_is_compared_in_full(tmp_path: Path) -> None:
    """Another digest is not taken as a change: the fingerprints are compared as the reader does."""
    folder = folder_of_reviews(tmp_path)
    cache_path = tmp_path / "cache.marshal"
    library = load_library([folder], ParseCache(cache_path))
    state = ReadState(tmp_path / "state.json")
    for review in library.reviews:
        state.set_read(review.key, True)
        seen = fingerprint(review)
        state.set_seen(review.key, {"items": seen["items"], "fields": seen["fields"]})
    rows = cached_rows([folder], ParseCache(cache_path))
    assert rows is not None
    assert all(row.raw[FINGERPRINT] != fingerprint_digest(state.seen(row.key) or {}) for row in rows)
    assert not any(changed_since_seen(state, row) for row in rows)


def test_a_cache_of_the_version_before_the_column_is_not_trusted(tmp_path: Path) -> None:
    """An index written before the column (version 7: 12 fields a review) is
    ignored, whether its header says so or not, and the files are parsed again."""
    folder = folder_of_reviews(tmp_path)
    path = folder / "b.yaml"
    info = os.stat(path)
    stamp = (info.st_size, info.st_mtime_ns)
    old_review = ("Beta", "o/r", "deep", ("a",), 1, 1, 2, 0, 0, 0, 0, 0)  # no digest column
    cache_path = tmp_path / "cache.marshal"
    for version in (VERSION - 1, VERSION):
        doc = marshal.dumps((FORMAT, version, "", {str(path): (stamp, (old_review,), ())}, 0, True))
        cache_path.write_bytes(len(doc).to_bytes(8, "little") + doc)
        cache = ParseCache(cache_path)
        cache.load()
        assert cache.get(path, stamp) is None
        assert cached_rows([path], ParseCache(cache_path)) is None
        library = load_library([path], ParseCache(cache_path))  # parsed, and the cache written again
        assert [r.title for r in library.reviews] == ["Beta"]
        assert index_digests(cache_path, path) == {
            "Beta": fingerprint_digest(fingerprint(library.reviews[0]))
        }


def test_a_review_tuple_cut_short_is_no_rows(tmp_path: Path) -> None:
    folder = folder_of_reviews(tmp_path)
    path = folder / "b.yaml"
    info = os.stat(path)
    stamp = (info.st_size, info.st_mtime_ns)
    cache_path = tmp_path / "cache.marshal"
    doc = marshal.dumps(
        (FORMAT, VERSION, "", {str(path): (stamp, (("Beta", "o/r", "deep", ("a",), 1, 1, 2),), ())}, 0, True)
    )
    cache_path.write_bytes(len(doc).to_bytes(8, "little") + doc)
    assert cached_rows([path], ParseCache(cache_path)) is None
