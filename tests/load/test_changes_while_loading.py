"""Files changed while the reader loads are seen: the real watcher on real files.

Between the folder scan (before the first frame) and the watcher's start
(after the background load) nothing watches the folder; whatever changed then
must still reach the reader, which settles on what `check` sees on disk.
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.app_helpers import make_app
from tests.entry_files import review_yaml, reviews_in
from tui.core.model import Library
from tui.load.cache import ParseCache
from tui.load.first_frame import parse_in_background
from tui.load.parse import load_paths

FILES = 2000
SETTLE_S = 60.0
"""A bound, not a timing: 2,000 files parsed on a busy 2-core machine, then the catch-up."""


def mutate(folder: Path) -> None:
    """Rename 100 files, delete 100, add 50, all over the folder (the first
    frame's files among them)."""
    for n in range(0, FILES, 20):
        (folder / f"r{n:04}.yaml").rename(folder / f"renamed-{n:04}.yaml")
        (folder / f"r{n + 10:04}.yaml").unlink()
    for n in range(50):
        (folder / f"new-{n:02}.yaml").write_text(review_yaml(f"new {n}"), encoding="utf-8")


def on_disk(folder: Path) -> tuple[set[str], list[str]]:
    """What `check` sees: every review's key with its file, and every problem."""
    result = load_paths([folder])
    library = Library.build(result.files, result.problems)
    return library_view(library)


def library_view(library: Library) -> tuple[set[str], list[str]]:
    return (
        {f"{review.key}@{review.location.path.name}" for review in library.reviews},
        [str(problem) for problem in library.all_problems()],
    )


async def settles_on_disk(pilot, app, folder: Path) -> None:
    expected = on_disk(folder)
    assert len(expected[0]) == FILES - 100 + 50 and not expected[1]
    deadline = time.monotonic() + SETTLE_S
    while library_view(app.reader.library) != expected:
        if time.monotonic() > deadline:
            reviews, problems = library_view(app.reader.library)
            raise AssertionError(
                f"the reader shows {len(reviews)} reviews and {len(problems)} problems "
                f"(first: {problems[:2]}); on disk: {len(expected[0])} reviews, no problems; "
                f"missing {sorted(expected[0] - reviews)[:3]}, extra {sorted(reviews - expected[0])[:3]}"
            )
        await pilot.pause(0.1)


async def test_files_changed_right_after_the_first_paint_are_seen(tmp_path: Path) -> None:
    folder = reviews_in(tmp_path / "entries", range(FILES))
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40)) as pilot:
        mutate(folder)
        await settles_on_disk(pilot, app, folder)
        assert app.is_running


async def test_files_changed_during_the_background_load_are_seen(tmp_path: Path) -> None:
    folder = reviews_in(tmp_path / "entries", range(FILES))
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40)) as pilot:
        deadline = time.monotonic() + SETTLE_S
        while app.reader.load_progress is None or app.reader.load_progress[0] == 0:
            assert time.monotonic() < deadline, "the background load never started"
            await pilot.pause(0.01)
        mutate(folder)
        assert app.reader.load_progress is not None, "the load ended before the files changed: no test"
        await settles_on_disk(pilot, app, folder)


async def test_a_file_deleted_before_its_background_parse_is_gone_not_a_problem(tmp_path: Path) -> None:
    folder = reviews_in(tmp_path / "entries", range(60))
    misses = sorted(folder.iterdir())
    for path in misses[::3]:
        path.unlink()
    delivered: dict[Path, object] = {}
    await parse_in_background(misses, ParseCache(None), delivered.update)  # 60 files: worker processes
    assert set(delivered) == set(misses)
    for path in misses[::3]:
        assert delivered[path] is None, f"{path.name}: {delivered[path]}"
    assert all(delivered[path] is not None and delivered[path].reviews for path in misses if path.exists())
