"""The end of a first load: the frame that shows it comes before the parse
cache's save (`tui.ui.loads.Loads`), whose thread would share the GIL with
that frame's rendering. A real app on real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app_helpers import make_app, settled
from tests.entry_files import reviews_in
from tui.ui.loads import Loads


async def test_the_parse_cache_is_saved_after_the_frame_that_shows_the_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = reviews_in(tmp_path / "entries", range(80))
    app = make_app(tmp_path, [folder])
    waiting: list[bool] = []  # at each save: was something left to draw?
    save = Loads.save_cache

    def save_and_note(loads: Loads) -> None:
        waiting.append(bool(app.screen._dirty_widgets) or app.reader.load_progress is not None)
        save(loads)

    monkeypatch.setattr(Loads, "save_cache", save_and_note)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        assert len(app.reader.library.reviews) == 80
        await pilot.pause(0.1)
    assert waiting == [False]  # one save, asked once nothing was left to draw
