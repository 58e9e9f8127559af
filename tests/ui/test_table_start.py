"""A warm start from the saved table (`tui.load.table_file`, `tui.core.table_library`),
as a user meets it: the reader started again and again on the same real files,
with a parse cache, the real watcher and the real save thread.

The first start parses, the second (warm) saves the library's table after the
parse cache, the third reads the table and shows the same screen; files
touched, edited, removed or added since make a start fall back to the parse
cache; an edit after a table start reloads; a quit right after one leaves a
parse cache and a table the next start reads."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.app_helpers import screen_text
from tests.bench_corpus import generate
from tests.cli_helpers import run_tui
from tests.waiting import wait_until
from tui import __version__
from tui.core.table_library import TableLibrary
from tui.load.cache import ParseCache
from tui.load.cache_format import stamp
from tui.load.table_file import read_saved, table_path
from tui.ui.app import PrDigestApp

BROKEN = "repo: o/r\nentries:\n  - {title: broken, verdict: deep\n"


def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    generate(folder, 600, seed=5)
    (folder / "zz-broken.yaml").write_text(BROKEN, encoding="utf-8")
    return folder


def settled_now(app: PrDigestApp) -> bool:
    """Loaded, indexed, watched, and no save running."""
    running = {worker.group for worker in app.workers if not worker.is_finished}
    return (
        app.reader.load_progress is None
        and not running & {"load", "index", "cache"}
        and "watch" in running
        and getattr(app.reader.library, "pending", None) is None
    )


class Start:
    """One start of the reader on `folder`, with the test's parse cache and state."""

    def __init__(self, tmp_path: Path, folder: Path) -> None:
        self.tmp_path, self.folder = tmp_path, folder
        self.cache = tmp_path / "cache" / "parse-cache"
        self.table_started = False
        self.screen = ""

    def app(self) -> PrDigestApp:
        return PrDigestApp([self.folder], self.tmp_path / "state.json", cache_path=self.cache)

    async def run(self, *keys: str, edit: bool = False, quit_at_once: bool = False) -> str:
        """Start, wait for everything (or only the first frame, `quit_at_once`),
        press `keys`, maybe edit a file and wait for its reload; the screen."""
        app = self.app()
        async with app.run_test(size=(120, 40)) as pilot:
            if quit_at_once:
                await wait_until(
                    pilot, lambda: isinstance(app.reader.library, TableLibrary), "the table start"
                )
                self.table_started = True
                assert app.reader.library.pending is not None  # quit before its index is made
                return screen_text(app)
            await wait_until(pilot, lambda: settled_now(app), "the start to settle", 60)
            self.table_started = isinstance(app.reader.library, TableLibrary)
            for key in keys:
                await pilot.press(key)
            if edit:  # the open review's title, in its file
                review = app.reader.review_view.review
                assert review is not None
                reloads = app.loads.reloads
                app.loads.cache_save_quiet_s = 0.05  # the save after the reload, before the quit
                path = review.location.path
                text = path.read_text(encoding="utf-8")
                assert text.count(review.title) == 1
                path.write_text(text.replace(review.title, "Edited " + review.title), encoding="utf-8")
                await wait_until(pilot, lambda: app.loads.reloads > reloads, "the edit's reload")
                await pilot.pause(0.3)
                await wait_until(pilot, lambda: settled_now(app), "the reload to settle")
            await pilot.pause()
            self.screen = screen_text(app)
        return self.screen


def every_file_cached(start: Start) -> bool:
    """The parse cache answers every entry file as it is now (no parse needed)."""
    cache = ParseCache(start.cache, version_key=__version__)
    cache.load()
    return all(cache.get(path, stamp(path)) is not None for path in sorted(start.folder.rglob("*.yaml")))


async def test_the_third_start_reads_the_table_and_shows_what_the_second_showed(tmp_path: Path) -> None:
    start = Start(tmp_path, corpus(tmp_path))
    await start.run()  # parses: its bodies are in journals, no table saved
    assert not start.table_started
    assert not table_path(start.cache).exists()
    second = await start.run()  # warm: the table saved after the cache
    assert not start.table_started
    assert read_saved(start.cache, __version__) is not None
    third = await start.run()
    assert start.table_started
    assert third == second
    assert "1 problem" in third or "problem" in third  # the broken file's problem counted as before
    # The same keys on both: filters, verdicts, a mark, the view of the open review.
    keys = ("u", "v", "v", "t", "j", "r", "x", "j", "enter")
    assert await start.run(*keys) == await _plain(tmp_path, start.folder, *keys)


async def _plain(tmp_path: Path, folder: Path, *keys: str) -> str:
    """The screen of a start with no parse cache at all (no table either)."""
    app = PrDigestApp([folder], tmp_path / "plain-state.json")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: settled_now(app), "the plain start to settle", 60)
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        return screen_text(app)


def _touch(folder: Path) -> None:
    path = sorted(folder.rglob("*.yaml"))[3]
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000))


def _edit(folder: Path) -> None:
    path = sorted(folder.rglob("*.yaml"))[4]
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("title: ", "title: Changed ", 1), encoding="utf-8")


def _remove(folder: Path) -> None:
    sorted(folder.rglob("*.yaml"))[5].unlink()


def _add(folder: Path) -> None:
    (folder / "new.yaml").write_text(
        "repo: o/new\nentries:\n  - {title: Added since, pr: 7, tags: [fresh], verdict: deep, summary: s}\n",
        encoding="utf-8",
    )


@pytest.mark.parametrize(
    "change", [_touch, _edit, _remove, _add], ids=["touched", "edited", "removed", "added"]
)
async def test_files_changed_since_the_save_fall_back_to_the_parse_cache(tmp_path: Path, change) -> None:
    start = Start(tmp_path, corpus(tmp_path))
    await start.run()
    await start.run()
    assert read_saved(start.cache, __version__) is not None
    change(start.folder)
    shown = await start.run()
    assert not start.table_started
    assert shown == await _plain(tmp_path, start.folder)
    assert every_file_cached(start)
    # That start's save rewrote the parse cache, which its reviews' bodies are
    # not in: the next start, warm, saves the table, and the one after reads it.
    assert await start.run() == shown
    assert not start.table_started
    assert await start.run() == shown
    assert start.table_started


async def test_an_edit_after_a_table_start_reloads_and_the_next_start_needs_no_parse(tmp_path: Path) -> None:
    start = Start(tmp_path, corpus(tmp_path))
    await start.run()
    await start.run()
    shown = await start.run(edit=True)
    assert start.table_started
    assert "Edited " in shown
    assert shown == await _plain(tmp_path, start.folder)
    assert every_file_cached(start)  # the save after the reload kept the files the table start never read
    assert await start.run() == shown  # from the parse cache: the table no longer matches
    assert not start.table_started
    assert await start.run() == shown  # and from the table saved after that start
    assert start.table_started


async def test_a_quit_right_after_a_table_start_leaves_a_cache_and_a_table_to_start_from(
    tmp_path: Path,
) -> None:
    start = Start(tmp_path, corpus(tmp_path))
    await start.run()
    second = await start.run()
    await start.run(quit_at_once=True)
    assert start.table_started
    assert every_file_cached(start)
    assert await start.run() == second
    assert start.table_started


async def test_export_and_status_after_a_table_start_are_as_before(tmp_path: Path) -> None:
    start = Start(tmp_path, corpus(tmp_path))
    await start.run()
    await start.run()
    before = [run_tui(command, str(start.folder)).stdout for command in ("export", "status")]
    await start.run("j", "r")
    assert start.table_started
    await start.run("j", "r")  # the same mark toggled back, from the table again
    assert start.table_started
    after = [run_tui(command, str(start.folder)).stdout for command in ("export", "status")]
    assert after == before
