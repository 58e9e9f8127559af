"""Hot reload with the real watcher on real files: the reader keeps their place."""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
from pathlib import Path

import pytest

from tests.app_helpers import make_app, screen_text, toasts
from tests.waiting import WATCHER_S, busy, wait_until, watched
from tui.load import reload
from tui.load.reload import RELOAD_CHUNK
from tui.store.locations import bundled_entries
from tui.ui.app import PrDigestApp
from tui.ui.presenting import describe_changes
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.tag_list import TagList


def review_yaml(
    title: str, *, tags: str = "[a, b]", verdict: str = "deep", focus: tuple[str, ...] = ("f1", "f2")
) -> str:
    items = "".join(f"  - {text}\n" for text in focus)
    return (
        f"title: {title}\nrepo: o/r\ntags: {tags}\nverdict: {verdict}\nsummary: s of {title}\nfocus:\n{items}"
    )


async def watching(pilot, app: PrDigestApp, folder: Path) -> None:
    """Wait until the watcher sees changes (a probe review added, then removed)."""
    await watched(pilot, app, folder, review_yaml("probe"))


def titles(app: PrDigestApp) -> list[str]:
    return [row.review.title for row in app.query_one(ReviewList).rows]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    entries = tmp_path / "entries"
    entries.mkdir()
    (entries / "one.yaml").write_text(review_yaml("one"), encoding="utf-8")
    (entries / "two.yaml").write_text(review_yaml("two", verdict="skim"), encoding="utf-8")
    return entries


async def test_edit_add_delete_and_rename(tmp_path: Path, folder: Path) -> None:
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await watching(pilot, app, folder)
        assert titles(app) == ["one", "two"]

        (folder / "two.yaml").write_text(review_yaml("two", verdict="deep"), encoding="utf-8")
        await wait_until(pilot, lambda: app.reader.library.by_key["o/r:two"].verdict == "deep", "edit")
        assert titles(app) == ["one", "two"]

        sub = folder / "sub"
        sub.mkdir()
        (sub / "three.yaml").write_text(review_yaml("three", tags="[c]"), encoding="utf-8")
        await wait_until(pilot, lambda: "three" in titles(app), "added file")
        assert "c" in app.query_one(TagList).tags

        (folder / "one.yaml").rename(folder / "uno.yaml")
        await wait_until(
            pilot, lambda: app.reader.library.by_key["o/r:one"].location.path == folder / "uno.yaml", "rename"
        )
        assert sorted(titles(app)) == ["one", "three", "two"]

        (sub / "three.yaml").unlink()
        await wait_until(pilot, lambda: "three" not in titles(app), "deletion")
        assert "c" not in app.query_one(TagList).tags
        messages = [n.text for n in toasts(app)]
        assert any("updated" in m for m in messages) and any("added" in m for m in messages)


async def test_open_review_deleted_moves_to_a_neighbour(tmp_path: Path, folder: Path) -> None:
    (folder / "three.yaml").write_text(review_yaml("three", verdict="skip"), encoding="utf-8")
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40)) as pilot:
        await watching(pilot, app, folder)
        await pilot.press("j", "enter")
        await pilot.pause()
        assert app.query_one(ReviewView).review.title == "two"
        (folder / "two.yaml").unlink()
        await wait_until(pilot, lambda: "two" not in titles(app), "deletion")
        assert app.query_one(ReviewView).review.title == "three"
        assert app.focused is app.query_one(ReviewView)


async def test_atomic_and_vim_style_saves_are_one_update(tmp_path: Path, folder: Path) -> None:
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40)) as pilot:
        await watching(pilot, app, folder)
        before = app.loads.reloads
        # temp file + rename, as many editors and generators do
        tmp = folder / ".one.yaml.tmp123"
        tmp.write_text(review_yaml("one", focus=("atomic",)), encoding="utf-8")
        os.replace(tmp, folder / "one.yaml")
        await wait_until(
            pilot, lambda: app.reader.library.by_key["o/r:one"].focus[0].text == "atomic", "atomic save"
        )
        await pilot.pause(0.3)
        assert app.loads.reloads == before + 1
        # vim: probe 4913, write a backup~, write the file, remove the backup; swap files around it
        before = app.loads.reloads
        (folder / "4913").write_text("", encoding="utf-8")
        (folder / "4913").unlink()
        (folder / ".two.yaml.swp").write_bytes(b"\x00swap")
        shutil.copy(folder / "two.yaml", folder / "two.yaml~")
        (folder / "two.yaml").write_text(review_yaml("two", focus=("vim",)), encoding="utf-8")
        (folder / "two.yaml~").unlink()
        (folder / "#two.yaml#").write_text("emacs autosave", encoding="utf-8")
        (folder / ".#two.yaml").write_text("emacs lock", encoding="utf-8")
        await wait_until(
            pilot, lambda: app.reader.library.by_key["o/r:two"].focus[0].text == "vim", "vim save"
        )
        await pilot.pause(0.3)
        assert app.loads.reloads == before + 1
        assert not app.reader.library.all_problems()  # temp files were never read


async def test_invalid_file_keeps_last_good_version_until_fixed(tmp_path: Path, folder: Path) -> None:
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await watching(pilot, app, folder)
        good = (folder / "one.yaml").read_text(encoding="utf-8")
        (folder / "one.yaml").write_text(good + "tags: [unclosed\n", encoding="utf-8")
        # Wait for this problem, not any: write_text truncates first, and a reload
        # that reads the file in between sees it empty ("empty file", line 1) until
        # the next change event brings the rest.
        await wait_until(pilot, lambda: "invalid YAML" in str(app.reader.library.all_problems()), "problem")
        assert titles(app) == ["one", "two"]  # still shown
        row = app.query_one(ReviewList).rows[0]
        assert row.stale
        assert "stale" in screen_text(app) and "1 problem (p)" in screen_text(app)
        # notify() posts a message: the App adds the notice when it handles it.
        await wait_until(pilot, lambda: any("1 file has a problem" in n.text for n in toasts(app)), "notice")
        problem = app.reader.library.all_problems()[0]
        assert problem.location.path == folder / "one.yaml" and problem.location.line >= 8
        # a half-written file: a schema error this time
        (folder / "one.yaml").write_text("title: one\nrepo: o/r\n", encoding="utf-8")
        await wait_until(
            pilot, lambda: "missing required field" in str(app.reader.library.all_problems()), "schema error"
        )
        assert app.reader.library.by_key["o/r:one"].focus[0].text == "f1"
        (folder / "one.yaml").write_text(good.replace("f1", "fixed"), encoding="utf-8")
        await wait_until(pilot, lambda: not app.reader.library.all_problems(), "fix")
        assert not app.query_one(ReviewList).rows[0].stale
        assert app.reader.library.by_key["o/r:one"].focus[0].text == "fixed"


async def test_place_is_kept_across_a_reload(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    shutil.copytree(bundled_entries(), folder)
    page = folder / "vllm-tag-view.yaml"
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(80, 24)) as pilot:
        await watching(pilot, app, folder)
        tags = app.query_one(TagList)
        await pilot.press("shift+tab", *["j"] * tags.tags.index("refactor"), "enter")
        await pilot.pause()
        await pilot.press("j", "j", "enter")  # the third review under #refactor
        await pilot.pause()
        view = app.query_one(ReviewView)
        for _ in range(5):
            await pilot.press("j")
        key, cursor, scroll = app.reader.current_key, view.cursor, view.scroll_offset.y
        assert scroll > 0
        item = view.checklist[cursor].key
        # an edit above the reader's place, in another review and in this one
        text = page.read_text(encoding="utf-8")
        text = text.replace(
            "值得精读，且建议按",
            "值得精读（补充一句很长的话，让摘要多出一行以上的内容，用来测试位置保持），且建议按",
        )
        text = text.replace("它展示了 vLLM 中", "它展示了 vLLM 里")
        page.write_text(text, encoding="utf-8")
        await wait_until(pilot, lambda: "补充一句" in (view.review.verdict_note or ""), "reload")
        await pilot.pause()
        assert app.reader.filters.tag == "refactor"
        assert app.reader.current_key == key
        assert app.focused is view
        assert view.checklist[view.cursor].key == item
        start = view._item_rows[view.cursor][0]
        assert start - view.scroll_offset.y == view._item_rows[cursor][0] - view.scroll_offset.y
        assert view.scroll_offset.y > scroll  # the text grew above: the view followed it


async def test_updated_since_read_keeps_unchanged_checks(tmp_path: Path, folder: Path) -> None:
    (folder / "one.yaml").write_text(
        review_yaml("one", focus=("keep me", "change me", "drop me")), encoding="utf-8"
    )
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40)) as pilot:
        await watching(pilot, app, folder)
        await pilot.press("r", "enter")
        await pilot.pause()
        await pilot.press("space", "j", "space")  # check "keep me" and "change me"
        view = app.query_one(ReviewView)
        assert len(view.checked) == 2
        (folder / "one.yaml").write_text(
            review_yaml("one", focus=("keep me", "changed", "brand new")).replace("s of one", "new summary"),
            encoding="utf-8",
        )
        await wait_until(pilot, lambda: view.review.summary == "new summary", "reload")
        row = app.query_one(ReviewList).rows[0]
        assert row.updated and row.done == 1
        keep = view.checklist[0]
        assert view.checked == {keep.key}
        assert view.changes is not None
        assert describe_changes(view.changes, view.review) == [
            ("Summary", "edited"),
            ("Focus on", "2 edited"),
        ]
        text = screen_text(app)
        assert "Updated since you read it" in text and "edited changed" in text
        await pilot.press("r")  # read again: the flag clears, the review stays read
        assert app.reader.state.is_read(app.reader.current_key)
        assert not app.query_one(ReviewList).rows[0].updated
        assert "Updated since you read it" not in screen_text(app)
    # across a restart the check on the unchanged item is still there
    again = make_app(tmp_path, paths=[folder], state=app.reader.state.path)
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert again.query_one(ReviewView).checked == {keep.key}
        assert not again.query_one(ReviewList).rows[0].updated


async def test_updated_since_read_survives_a_restart(tmp_path: Path, folder: Path) -> None:
    app = make_app(
        tmp_path,
        paths=[folder],
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
    (folder / "one.yaml").write_text(review_yaml("one", focus=("f1", "f2", "f3")), encoding="utf-8")
    again = make_app(tmp_path, paths=[folder])
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert again.query_one(ReviewList).rows[0].updated
        view = again.query_one(ReviewView)
        assert view.changes is not None
        assert describe_changes(view.changes, view.review) == [("Focus on", "1 added")]


class GatedParse:
    """`tui.load.reload`'s parse, run for real and counted; once armed, held at
    its second trip to a thread until the test opens the gate. While it is held
    a burst is being read, and what the reader does then it does mid-burst."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.trips: list[int] = []  # files a trip, since armed
        self.ended = 0  # trips returned, since armed
        self.on_loop_thread = 0  # trips run on the event loop's thread: there should be none
        self.held = threading.Event()  # the second trip is waiting at the gate
        self.gate = threading.Event()
        self.timed_out = False
        self._armed = False
        self._loop_thread = threading.get_ident()
        self._parse = reload.parse_files
        monkeypatch.setattr(reload, "parse_files", self)

    def arm(self) -> None:
        self.trips, self.ended, self._armed = [], 0, True

    def __call__(self, names: list[str]) -> object:
        self.trips.append(len(names))
        if threading.get_ident() == self._loop_thread:
            self.on_loop_thread += 1  # held here, it would hang the test
        elif self._armed and len(self.trips) == 2:
            self.held.set()
            self.timed_out = not self.gate.wait(WATCHER_S)  # a bound for a hang
        try:
            return self._parse(names)
        finally:
            self.ended += 1

    async def burst(self, pilot, app: PrDigestApp, folder: Path, into: Path, name: str) -> int:
        """With `folder` watched and no reload running, write 500 reviews into
        `into` (`NAME000.yaml`, ... titled `NAME 0`, ...), and let the app run
        until the second trip of their parse is held. The reloads before them."""
        await watching(pilot, app, folder)
        await wait_until(pilot, lambda: not app.loads._applying, "the probe's reload")
        self.arm()
        before = app.loads.reloads
        into.mkdir(exist_ok=True)
        for n in range(500):
            (into / f"{name}{n:03}.yaml").write_text(review_yaml(f"{name} {n}"), encoding="utf-8")
        await wait_until(pilot, self.held.is_set, "the burst's second trip to a thread", WATCHER_S)
        return before


async def test_burst_of_500_files_coalesces_and_keys_work_while_it_is_read(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parse = GatedParse(monkeypatch)
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40)) as pilot:
        before = await parse.burst(pilot, app, folder, folder / "burst", "burst")
        shown = app.query_one(ReviewList)
        start = shown.highlighted
        assert start is not None and app.loads._applying
        await pilot.press("j")  # keys work while the burst is read
        assert shown.highlighted == start + 1 and app.loads._applying
        parse.gate.set()
        await wait_until(pilot, lambda: len(app.reader.library.reviews) == 502, "the whole burst", WATCHER_S)
        await wait_until(pilot, lambda: not app.loads._applying, "the last reload")
        assert app.loads.reloads - before <= 3, app.loads.reloads - before
        assert app.query_one(TagList).counts[0].total == 502
    assert not parse.timed_out and parse.on_loop_thread == 0
    # a chunk a trip, off the event loop (what a key waits for at most); each file once or twice
    assert max(parse.trips) <= RELOAD_CHUNK and 500 <= sum(parse.trips) <= 1000, parse.trips


async def test_quit_while_a_burst_is_read(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parse = GatedParse(monkeypatch)
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40)) as pilot:
        await parse.burst(pilot, app, folder, folder, "q")
        await pilot.press("q")  # with a trip of the burst held: the reader does not wait for it
    assert app.return_code == 0 and not app.is_running
    parse.gate.set()
    await wait_until(None, lambda: parse.ended == len(parse.trips), "the held trip's end")
    await asyncio.sleep(0.3)  # room for a trip that must not come
    assert not parse.timed_out and len(parse.trips) == 2, parse.trips  # none after the quit


async def test_watched_folder_removed_and_recreated(tmp_path: Path, folder: Path) -> None:
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await watching(pilot, app, folder)
        shutil.rmtree(folder)
        await wait_until(pilot, lambda: not app.reader.library.reviews, "folder removal")
        await wait_until(pilot, lambda: any("missing" in n.text for n in toasts(app)), "notice")
        folder.mkdir()
        (folder / "back.yaml").write_text(review_yaml("back"), encoding="utf-8")
        await wait_until(pilot, lambda: titles(app) == ["back"], "re-created folder")
        assert app.is_running


async def test_single_file_path_is_watched(tmp_path: Path, folder: Path) -> None:
    single = folder / "one.yaml"
    app = make_app(tmp_path, paths=[single])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.3)
        for attempt in range(20):
            single.write_text(review_yaml("one", focus=(f"v{attempt}",)), encoding="utf-8")
            for _ in range(25):
                await pilot.pause(0.02)
            if app.reader.library.by_key["o/r:one"].focus[0].text == f"v{attempt}":
                break
        else:
            raise AssertionError("single file never reloaded")
        (folder / "other.yaml").write_text(review_yaml("other"), encoding="utf-8")
        await pilot.pause(0.5)
        assert titles(app) == ["one"]  # only the file given is read


async def test_no_watch_means_no_reload(tmp_path: Path, folder: Path) -> None:
    app = PrDigestApp([folder], tmp_path / "state.json", watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        (folder / "one.yaml").write_text(review_yaml("one", focus=("changed",)), encoding="utf-8")
        await asyncio.sleep(1.0)
        await pilot.pause()
        assert app.reader.library.by_key["o/r:one"].focus[0].text == "f1"
        assert app.loads.reloads == 0


async def test_an_edited_item_with_an_id_loses_its_check(tmp_path: Path, folder: Path) -> None:
    def page(text: str) -> str:
        return review_yaml("one", focus=()).replace(
            "focus:\n", f"focus:\n  - text: {text}\n    id: stable\n  - other\n"
        )

    (folder / "one.yaml").write_text(page("first wording"), encoding="utf-8")
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40)) as pilot:
        await watching(pilot, app, folder)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("space", "j", "space")
        view = app.query_one(ReviewView)
        assert view.checked == {"focus:stable", view.checklist[1].key}
        (folder / "one.yaml").write_text(page("second wording"), encoding="utf-8")
        await wait_until(pilot, lambda: view.checklist[0].text == "second wording", "reload")
        assert view.checked == {view.checklist[1].key}  # same id, new text: unchecked
        assert view.changes.edited == {"focus:stable"}


async def test_the_parse_cache_is_written_once_edits_stop(tmp_path: Path, folder: Path, monkeypatch) -> None:
    """A save writes the whole cache (~22 MB at 10,000 reviews): files edited one
    after another are saved once, when they have stopped changing for a while
    (`Loads.cache_save_quiet_s`), with the last edit in it."""
    from tui.load.cache import ParseCache
    from tui.load.cache_format import stamp

    saves: list[int] = []  # the reloads applied when each save ran
    save = ParseCache.save

    def counting(self: ParseCache) -> None:
        saves.append(app.loads.reloads)
        save(self)

    monkeypatch.setattr(ParseCache, "save", counting)
    cache_file = tmp_path / "cache" / "parse.bin"
    app = PrDigestApp([folder], tmp_path / "state.json", cache_path=cache_file)
    app.loads.cache_save_quiet_s = 1.0
    async with app.run_test(size=(120, 40)) as pilot:
        await watching(pilot, app, folder)
        await wait_until(pilot, lambda: not app.loads._applying, "the probe's reload")
        saves.clear()
        for n in range(4):
            (folder / "one.yaml").write_text(review_yaml(f"one, edit {n}"), encoding="utf-8")
            await wait_until(pilot, lambda n=n: titles(app)[0] == f"one, edit {n}", f"edit {n}")
            assert saves == []  # still editing: the reload did not save
            await pilot.pause(0.2)
        edited, saved_stamp = app.loads.reloads, stamp(folder / "one.yaml")
        await wait_until(pilot, lambda: saves, "the save")
        await pilot.pause(1.5)
        assert saves == [edited]  # once, after the last edit
        await wait_until(pilot, lambda: not busy(app, "cache"), "the save's end")
        warm = ParseCache(cache_file, version_key=app.loads.cache.version_key)
        assert warm.load()  # what was saved is the last edit
        assert warm.get(folder / "one.yaml", saved_stamp).reviews[0].title == "one, edit 3"
        # The wait is the quiet time set: with an hour of it, an edit is not saved
        # in the 1.5 s that saw the last one saved.
        app.loads.cache_save_quiet_s = 3600.0
        (folder / "one.yaml").write_text(review_yaml("one, not saved"), encoding="utf-8")
        await wait_until(pilot, lambda: titles(app)[0] == "one, not saved", "the unsaved edit")
        await pilot.pause(1.5)
        assert saves == [edited]
