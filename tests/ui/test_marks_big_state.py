"""The mark keys with a big state file (a reader who has read for months: many
more keys than the library holds, a third read): after each key the sidebar's
and the status bar's counts are a recount's, the marks reach the file, and
marks another instance saved meanwhile are merged in."""

from __future__ import annotations

import random
from pathlib import Path

from tests.app_helpers import all_saved, settled
from tests.bench_corpus import generate
from tui.core.marks import Marks
from tui.core.model import SECTIONS
from tui.store.state import ReadState
from tui.ui.app import PrDigestApp
from tui.ui.sidebar import SidebarCounts
from tui.ui.widgets.status_bar import StatusBar
from tui.ui.widgets.tag_list import TagList

CONFIG = """\
views:
  deep-kernels: {tags: [kernels, rocm], verdict: [deep]}
  unread-quick: {verdict: [quick, skim], unread: true}
  todo: {unchecked: true}
"""


def big_state(path: Path, keys: list[str], extra: int) -> None:
    """A third of the library's keys read, some items checked, and `extra` keys of reviews gone."""
    rng = random.Random(7)
    state = ReadState(path)
    for n, key in enumerate(keys):
        if n % 3 == 0:
            state.set_read(key, True)
        elif n % 3 == 1:
            state.set_read(key, False)
    for n in range(extra):
        state.set_read(f"gone/repo#{n}", rng.random() < 0.33)
        if n % 10 == 0:
            state.set_checked(f"gone/repo#{n}", "focus:x", True, "d")
    state.save()


def recount_matches(app: PrDigestApp) -> None:
    reader = app.reader
    fresh = Marks()
    fresh.reviews = dict(reader.state.reviews)
    rows = SidebarCounts().rows(reader.library, fresh, reader.views, reader.mute, reader.search_index)
    assert app.query_one(TagList).counts == rows
    status = app.query_one(StatusBar)
    assert reader.sidebar.all == rows[0]
    assert f"{rows[0].unread:,} unread" in str(status.render())


async def test_mark_keys_with_a_big_state(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    generate(corpus, 300, seed=5)
    config = tmp_path / "config.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    state_file = tmp_path / "state.json"
    first = PrDigestApp([corpus], tmp_path / "probe.json", config_path=config, watch=False)
    async with first.run_test(size=(120, 40)) as pilot:
        await settled(first, pilot)
        keys = [review.key for review in first.reader.library.reviews]
    big_state(state_file, keys, 20000)

    app = PrDigestApp([corpus], state_file, config_path=config, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        reader = app.reader
        assert len(reader.state.reviews) == 20200  # two thirds of the 300, and the gone
        recount_matches(app)
        for key in ("r", "j", "r", "j", "r", "z", "z", "enter", "space", "down", "space", "escape"):
            await pilot.press(key)
            recount_matches(app)
        await all_saved(app, pilot)

        # Another instance saves marks meanwhile: the next save merges them in.
        other = ReadState(state_file)
        other.load()
        unread = next(k for k in keys if not reader.state.is_read(k) and k != reader.current_key)
        other.set_read(unread, True)
        review = reader.library.by_key[keys[4]]
        item = next(i for s in SECTIONS for i in review.items(s))
        other.set_checked(review.key, item.key, True, item.digest)
        other.save()
        await pilot.press("r")
        await all_saved(app, pilot)
        assert reader.state.is_read(unread) and item.key in reader.state.checked(review.key)
        recount_matches(app)

        await pilot.press("shift+tab", "j", "j")  # a tag
        await pilot.pause()
        for key in ("tab", "R", "z", "R", "u", "t", "t", "u", "x", "1", "2", "3", "x", "z"):
            await pilot.press(key)
            await pilot.pause()
            recount_matches(app)
        await all_saved(app, pilot)
        in_memory = dict(reader.state.reviews)
    on_disk = ReadState(state_file)
    on_disk.load()
    assert {k: (m.read, m.items, m.seen) for k, m in on_disk.reviews.items()} == {
        k: (m.read, m.items, m.seen) for k, m in in_memory.items()
    }
