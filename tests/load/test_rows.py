"""The parse cache's index read alone (`tui.load.rows`): what `status` counts
from it is what it counts from the whole library."""

from __future__ import annotations

from pathlib import Path

from tests.app_helpers import write_review
from tui import status
from tui.core.changes import fingerprint
from tui.core.filters import has_unchecked
from tui.core.marks import changes, checked_items
from tui.core.search import SearchIndex
from tui.core.views import View
from tui.load.cache import ParseCache
from tui.load.library import load_library
from tui.load.rows import cached_rows
from tui.store.state import ReadState

VIEWS = {
    "rocm": View("rocm", tags=frozenset({"rocm"})),
    "beta-unread": View("beta-unread", repos=frozenset({"o/beta"}), unread=True),
    "deep": View("deep", verdicts=frozenset({"deep"})),
}


def corpus(folder: Path) -> None:
    folder.mkdir()
    write_review(folder / "a.yaml", "Alpha", tags="[rocm]", extra="pr: 1\nfocus: [one]\n")
    write_review(folder / "b.yaml", "Beta", tags="[rocm, ci]", verdict="skim", extra="pr: 2\n")
    write_review(folder / "c.yaml", "Gamma", tags="[docs]", extra="pr: 3\n")
    write_review(folder / "c2.yaml", "Gamma again", tags="[docs]", extra="pr: 3\n")  # a duplicate key
    (folder / "d.yaml").write_text(
        "repo: o/beta\nentries:\n"
        "  - {title: Delta, pr: 4, tags: [docs], verdict: quick, summary: s}\n"
        "  - {title: No PR, tags: [rocm], verdict: deep, summary: s}\n",
        encoding="utf-8",
    )


def counts_both_ways(folder: Path, cache_path: Path, state: ReadState) -> tuple[status.Counts, status.Counts]:
    wanted = frozenset(VIEWS)
    mute = frozenset({"ci"})
    library = load_library([folder], ParseCache(cache_path))
    full = status.count(
        library.reviews,
        is_read=state.is_read,
        updated=lambda review: changes(state, review) is not None,
        views=VIEWS,
        mute=mute,
        wanted_views=wanted,
        has_unchecked=lambda review: has_unchecked(review, checked_items(state, review)),
        matches=SearchIndex().matches,
    )
    rows = cached_rows([folder], ParseCache(cache_path))
    assert rows is not None
    assert sorted(row.key for row in rows) == sorted(review.key for review in library.reviews)
    lean = status.count(
        rows,
        is_read=state.is_read,
        updated=lambda row: state.touched(row.key) and changes(state, row.review()) is not None,
        views=VIEWS,
        mute=mute,
        wanted_views=wanted,
    )
    return full, lean


def test_index_only_counts_match_the_library(tmp_path: Path) -> None:
    folder, cache_path = tmp_path / "entries", tmp_path / "cache" / "parse.marshal"
    corpus(folder)
    state = ReadState(tmp_path / "state.json")
    library = load_library([folder], ParseCache(cache_path))
    for review in library.reviews:
        if review.title in ("Alpha", "Delta"):
            state.set_read(review.key, True)
            state.set_seen(review.key, fingerprint(review))
    full, lean = counts_both_ways(folder, cache_path, state)
    assert full == lean
    # Beta is muted, "Gamma again" a duplicate; Alpha and Delta read.
    assert (lean.unread, lean.total, lean.updated) == (2, 4, 0)
    assert lean.views == {"rocm": 1, "beta-unread": 1, "deep": 2}  # unread ones: No PR; No PR; Gamma, No PR

    (folder / "a.yaml").write_text((folder / "a.yaml").read_text().replace("summary: s", "summary: t"))
    assert cached_rows([folder], ParseCache(cache_path)) is None  # changed since cached: the library path
    full, lean = counts_both_ways(folder, cache_path, state)  # (the library path saved the cache)
    assert full == lean and lean.updated == 1


def test_no_cache_file_is_no_rows(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    corpus(folder)
    assert cached_rows([folder], ParseCache(tmp_path / "none.marshal")) is None
