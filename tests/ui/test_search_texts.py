"""The search's texts are made in the background once the files are loaded
(and the first characters of code words answered): the first character typed
then tests texts and reads no review's body; keys typed while they are being
made are answered as a plain scan would."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app_helpers import settled
from tests.bench_corpus import generate
from tests.search_scan import plain_search
from tests.waiting import busy, workers_done
from tui.core.search import terms
from tui.ui import search_keys
from tui.ui.app import PrDigestApp
from tui.ui.widgets.review_list import ReviewList


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("corpus") / "c"
    generate(folder, 600, seed=4)
    return folder


def plain(app: PrDigestApp, query: str) -> list[str]:
    return [r.key for r in plain_search(app.reader.library.reviews, query)]


@pytest.fixture(autouse=True)
def at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_keys, "PREPARE_AFTER_S", 0.01)  # not 2 s after the load


async def test_every_text_is_made_once_loading_ends(tmp_path: Path, corpus: Path) -> None:
    app = PrDigestApp([corpus], tmp_path / "state.json", watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        for _ in range(100):
            if busy(app.reader, "search-texts"):
                break
            await pilot.pause(0.01)
        await workers_done(pilot, app.reader, "search-texts")
        reader = app.reader
        source = reader._source()
        assert len(reader.search_index) == len(reader.library.reviews) == 600
        assert reader.search_index.work(source, terms("调")) == len(source)  # tests only: nothing to make
        assert reader.search_index.work(source, terms("k")) == 0  # answered ahead


async def test_keys_typed_while_the_texts_are_made(
    tmp_path: Path, corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_keys, "PREPARE_SLICE_S", 0.0)  # a slice a page: many of them
    monkeypatch.setattr(search_keys, "PREPARE_PAUSE_S", 0.05)
    app = PrDigestApp([corpus], tmp_path / "state.json", watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        for _ in range(100):
            if busy(app.reader, "search-texts") and len(app.reader.search_index):
                break
            await pilot.pause(0.005)
        assert 0 < len(app.reader.search_index) < 600  # still making them
        await pilot.press("slash", *"sched")
        await pilot.pause()
        await workers_done(pilot, app.reader, "search")
        assert app.reader.filters.query == "sched"
        assert [r.key for r in app.query_one(ReviewList).reviews] == plain(app, "sched") != []
        await workers_done(pilot, app.reader, "search-texts")
        assert len(app.reader.search_index) == 600
        await pilot.press("backspace", "backspace", "backspace", "backspace")
        await pilot.pause()
        await workers_done(pilot, app.reader, "search")
        assert [r.key for r in app.query_one(ReviewList).reviews] == plain(app, "s")


async def test_a_large_library_makes_its_texts_when_the_box_opens(
    tmp_path: Path, corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past `PREPARE_AHEAD_MAX` reviews nothing is made unasked (a reader who
    never searches does not hold every text); `/` starts it."""
    monkeypatch.setattr(search_keys, "PREPARE_AHEAD_MAX", 599)
    app = PrDigestApp([corpus], tmp_path / "state.json", watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.pause(0.2)  # 20 times PREPARE_AFTER_S
        assert not busy(app.reader, "search-texts") and len(app.reader.search_index) == 0
        await pilot.press("slash")
        for _ in range(100):
            if len(app.reader.search_index):
                break
            await pilot.pause(0.01)
        await workers_done(pilot, app.reader, "search-texts")
        assert len(app.reader.search_index) == 600
        await pilot.press(*"sched")
        await pilot.pause()
        await workers_done(pilot, app.reader, "search")
        assert [r.key for r in app.query_one(ReviewList).reviews] == plain(app, "sched") != []
