"""100,000 reviews (pages of ten, as `bench/make_corpus.py` writes them) open,
navigate, search and count right, loaded the real way: the first part, then two
parse workers journaling into a parse cache in tmp_path. The expected figures
come from the YAML text itself, not from the loader. Runs in CI with the rest
(~30-40 s alone); `-m "not slow"` leaves it out."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tests.bench_corpus import generate
from tests.waiting import wait_until
from tui.core.model import ALL_TAG, VERDICTS
from tui.ui.app import PrDigestApp
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.tag_list import TagList

REVIEWS = 100_000
TERM = "GPUInputBatch"  # a code ref of the generator's pool, in some reviews' text and refs

pytestmark = pytest.mark.slow


def _expected(folder: Path) -> tuple[Counter, Counter, int]:
    """Verdicts, tags and reviews holding TERM, read off the YAML text."""
    verdicts: Counter = Counter()
    tags: Counter = Counter()
    term = 0
    for path in sorted(folder.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        for chunk in text.split("\n  - title: ")[1:]:
            verdicts[re.search(r"\n    verdict: (\w+)", chunk).group(1)] += 1  # type: ignore[union-attr]
            tags.update(re.search(r"\n    tags: \[(.*)\]", chunk).group(1).split(", "))  # type: ignore[union-attr]
            term += TERM.lower() in chunk.lower()
    return verdicts, tags, term


async def test_a_hundred_thousand_reviews_open_navigate_search_and_count(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    generate(folder, REVIEWS, seed=0, per_file=10)
    verdicts, tags, with_term = _expected(folder)
    assert sum(verdicts.values()) == REVIEWS and 0 < with_term < REVIEWS
    app = PrDigestApp(
        [folder], tmp_path / "state.json", cache_path=tmp_path / "cache" / "parse.bin", watch=False
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        listing = app.query_one(ReviewList)
        assert listing.rows  # reviews on screen before loading ends
        await wait_until(
            pilot,
            lambda: app.reader.load_progress is None and len(app.reader.library.reviews) == REVIEWS,
            "the load's end",
            150,
            0.1,
        )
        await pilot.pause()
        assert not app.reader.library.all_problems()
        counts = {c.tag: (c.unread, c.total) for c in app.query_one(TagList).counts}
        assert counts[ALL_TAG] == (REVIEWS, REVIEWS)
        assert {tag: total for tag, (_, total) in counts.items() if not tag.startswith("\x00")} == dict(tags)
        shown = [r.verdict for r in listing.reviews]
        assert shown == sorted(shown, key=VERDICTS.index)  # deep reads first, all the way down

        # Navigate: down the list, open, back; the end of the list.
        await pilot.press("j", "j", "j", "enter")
        await pilot.pause()
        assert app.query_one(ReviewView).review.key == listing.reviews[3].key
        await pilot.press("escape", "end")
        await pilot.pause()
        assert app.reader.current_key == listing.reviews[-1].key
        await pilot.press("home", "r")
        assert app.reader.state.is_read(listing.reviews[0].key)
        counts = {c.tag: c.unread for c in app.query_one(TagList).counts}
        assert counts[ALL_TAG] == REVIEWS - 1

        # Filters: each verdict in turn, then unread only.
        for verdict in VERDICTS:
            await pilot.press("v")
            await pilot.pause()
            assert app.reader.filters.verdict == verdict
            assert len(listing.reviews) == verdicts[verdict], verdict
            assert {r.verdict for r in listing.reviews} == {verdict}
        (read_key,) = app.reader.state.read_keys()
        await pilot.press("v", "u")  # every verdict again, unread only (the open review is another)
        await pilot.pause()
        assert app.reader.filters.verdict is None and app.reader.current_key != read_key
        assert len(listing.reviews) == REVIEWS - 1 and read_key not in listing
        await pilot.press("u")
        await pilot.pause()

        # Search as you type, then backspace to a shorter query.
        await pilot.press("slash", *TERM.lower())
        await pilot.pause()
        assert len(listing.reviews) == with_term
        assert all(TERM.lower() in app.reader.search_index.text(r) for r in listing.reviews)
        await pilot.press(*["backspace"] * 5)
        await pilot.pause()
        assert len(listing.reviews) >= with_term
        await pilot.press("escape")
        await pilot.pause()
        assert len(listing.reviews) == REVIEWS
