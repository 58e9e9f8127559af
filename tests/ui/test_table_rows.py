"""The reader on a table's rows (`tui.ui.table_rows`: a start from the saved
table, before its `Review` index is made) shows what it shows on the
library's reviews, key by key: filters (u, t, v, x), views, mutes, repos,
marks and undo, the tags pane, the to-do and problems views; a search makes
the index and goes on from there."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app_helpers import screen_text, settled
from tests.bench_corpus import generate
from tui.core.table_library import TableLibrary
from tui.ui.app import PrDigestApp
from tui.ui.widgets.tag_list import TagList

CONFIG = """views:
  rocm-deep: {tags: [rocm, kernels], verdict: [deep], unread: true}
  todo: {unchecked: true}
  vllm: {repos: [vllm-project/vllm]}
  quick-ci: {tags: [ci, perf], verdict: [quick]}
mute: [docs]
"""

KEYS: tuple[tuple[str, ...], ...] = (
    ("u",), ("u",), ("t",), ("v",), ("v",), ("v",), ("t",), ("x",),
    ("enter", *("space", "j") * 9, "escape"), ("t",), ("j",), ("t",), ("t",), ("2",), ("x",),
    ("j",), ("r",), ("j", "j", "r"), ("u",), ("z",), ("u",), ("k", "r"),
    ("1",), ("j", "r"), ("2",), ("3",), ("4",), ("t",), ("x",),
    ("tab", "tab"), ("j",), ("j", "j"), ("enter",), ("v",), ("r",), ("u",), ("x",),
    ("R",), ("z",), ("a",), ("escape",), ("p",), ("escape",),
)  # fmt: skip
"""Steps of keys, the screen compared after each; none of them asks for every review."""
SEARCH = ("slash", "k", "e", "r", "n", "enter", "u", "x")
"""Then a search (it reads bodies: the index is made) and the keys after it."""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("corpus")
    generate(path, 400, seed=11)
    (path / "zz-broken.yaml").write_text("repo: o/r\nentries: [\n", encoding="utf-8")
    return path


def shown(app: PrDigestApp) -> str:
    """The screen, and every row of the tags pane (scrolled out of it too)."""
    rows = "\n".join(map(repr, app.query_one(TagList).counts))
    return f"{screen_text(app)}\n{rows}"


async def screens(tmp_path: Path, folder: Path, *, on_rows: bool, mute: bool) -> list[str]:
    config = tmp_path / f"config-{on_rows}.yaml"
    config.write_text(CONFIG if mute else CONFIG.replace("mute: [docs]\n", ""), encoding="utf-8")
    app = PrDigestApp([folder], tmp_path / f"state-{on_rows}.json", config_path=config, watch=False)
    shots = []
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        reader = app.reader
        if on_rows:  # as a start from the saved table has it: its index not made
            # A table start prepares the search's texts once its index is made;
            # those of the library swapped out here are not wanted.
            reader.search_prepared = True
            reader.from_table(TableLibrary(reader.library.table()))
            await pilot.pause()
        shots.append(shown(app))
        for step in KEYS:
            for key in step:
                await pilot.press(key)
            await pilot.pause()
            if on_rows:
                library = reader.library
                assert isinstance(library, TableLibrary) and library.pending is not None, step
            shots.append(shown(app))
        for key in SEARCH:
            await pilot.press(key)
            await pilot.pause()
            shots.append(shown(app))
        if on_rows:
            assert reader.library.pending is None  # the search made the index
    return shots


@pytest.mark.parametrize("mute", [False, True], ids=["no-mute", "a-mute"])
async def test_every_key_shows_on_rows_what_it_shows_on_reviews(
    tmp_path: Path, folder: Path, mute: bool
) -> None:
    expected = await screens(tmp_path, folder, on_rows=False, mute=mute)
    got = await screens(tmp_path, folder, on_rows=True, mute=mute)
    assert len(got) == len(expected)
    for n, (shown, wanted) in enumerate(zip(got, expected, strict=True)):
        assert shown == wanted, f"after step {n}: {([(), *KEYS, *((k,) for k in SEARCH)])[n]}"
