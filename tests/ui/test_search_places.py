"""A term's second character answered from the pair index, then its places
found after the key's frame: the next character typed is tested where the
pair is, among the pair's matches only, and every answer is the plain scan's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app_helpers import listed, settled
from tests.bench_corpus import generate
from tests.search_scan import plain_search
from tests.waiting import wait_until, workers_done
from tui.core.search import terms
from tui.ui import search_keys
from tui.ui.app import PrDigestApp


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("corpus") / "c"
    generate(folder, 400, seed=5)
    return folder


async def test_a_character_typed_after_a_pair_is_tested_only_where_the_pair_is(
    tmp_path: Path, corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_keys, "PAIRS_QUIET_S", 0.0)
    app = PrDigestApp([corpus], tmp_path / "state.json", config_path=tmp_path / "config.yaml", watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("slash")
        reader = app.reader
        index, source = reader.search_index, reader._source()
        await wait_until(pilot, lambda: index.work(source, terms("sc")) == 0, "the pair index")
        await pilot.press("s", "c")
        await workers_done(pilot, reader, "search")
        pair = [r.key for r in plain_search(reader.library.reviews, "sc")]
        assert listed(app) == pair and pair
        for typed in ("sch", "sche"):
            # Each text is tested once, where its shorter term begins (work 1
            # a candidate), and no more texts than the answer before held.
            assert index.work(source, terms(typed)) <= len(listed(app)), typed
            await pilot.press(typed[-1])
            await workers_done(pilot, reader, "search")
            assert listed(app) == [r.key for r in plain_search(reader.library.reviews, typed)], typed
