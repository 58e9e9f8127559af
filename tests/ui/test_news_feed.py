"""`notify:` end to end: the reader, a real program recording its stdin and
arguments, the real watcher, and files added and changed while the reader runs."""

from __future__ import annotations

from pathlib import Path

from tests.app_helpers import all_saved, settled
from tests.ui.test_notifier import recorder, runs
from tests.waiting import wait_until, watched
from tui.store import known, locations
from tui.ui.app import PrDigestApp


def entry(title: str, *, tags: str = "[a]", summary: str = "s") -> str:
    return f"title: {title}\nrepo: o/r\ntags: {tags}\nverdict: deep\nsummary: {summary}\n"


def reader(tmp_path: Path, folder: Path) -> PrDigestApp:
    config = tmp_path / "config.yaml"
    # The probe that shows the watcher is running is muted: muted reviews are never news.
    config.write_text(f"notify: [{str(recorder(tmp_path))!r}, '--count={{count}}']\nmute: [probe]\n")
    app = PrDigestApp([folder], tmp_path / "state.json", config_path=config)
    app.news.quiet_s = 0.3
    return app


async def watching(pilot, app: PrDigestApp, folder: Path) -> None:
    """Wait until the watcher sees changes, with a probe that is never news (muted)."""
    await watched(pilot, app, folder, entry("probe", tags="[probe]"))


async def test_new_and_updated_reviews_are_told_at_start_and_on_reload(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "one.yaml").write_text(entry("one"), encoding="utf-8")

    # A first start: no record of an earlier run, so nothing is new; the keys are kept.
    app = reader(tmp_path, folder)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await wait_until(pilot, lambda: known.load(locations.known_file()) is not None, "the known keys")
        await pilot.press("r")  # one is read: a change to it is news from now on
        await all_saved(app, pilot)
        await pilot.pause(0.5)
    assert runs(tmp_path) == []

    # Added while the reader was closed: told at the next start, once the load is done.
    (folder / "two.yaml").write_text(entry("two"), encoding="utf-8")
    (folder / "muted.yaml").write_text(entry("quiet", tags="[probe]"), encoding="utf-8")
    app = reader(tmp_path, folder)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await wait_until(pilot, lambda: len(runs(tmp_path)) == 1, "the start's run")
        assert runs(tmp_path)[0]["argv"] == ["--count=1"]
        assert runs(tmp_path)[0]["stdin"] == "two\n"

        # Added and updated while it runs, seen by the real watcher: one run.
        await watching(pilot, app, folder)
        (folder / "three.yaml").write_text(entry("three"), encoding="utf-8")
        (folder / "one.yaml").write_text(entry("one", summary="changed"), encoding="utf-8")
        await wait_until(pilot, lambda: len(runs(tmp_path)) >= 2, "the reload's run")
        await pilot.pause(0.5)
        got = runs(tmp_path)[1:]
        told = sorted(line for run in got for line in run["stdin"].splitlines())
        assert told == ["one", "three"], got
        assert sum(int(run["argv"][0].removeprefix("--count=")) for run in got) == 2
    assert app.news.told == 3


async def test_no_notify_program_means_no_record_and_no_runs(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "one.yaml").write_text(entry("one"), encoding="utf-8")
    config = tmp_path / "config.yaml"
    config.write_text("mute: [probe]\n")
    app = PrDigestApp([folder], tmp_path / "state.json", config_path=config, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        assert app.news.notifier is None
    assert not locations.known_file().exists()


async def test_a_failing_program_is_one_warning(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "one.yaml").write_text(entry("one"), encoding="utf-8")
    known.save(locations.known_file(), ["o/r:old"])  # an earlier run knew another review
    config = tmp_path / "config.yaml"
    config.write_text(f"notify: [{str(recorder(tmp_path, code=3))!r}]\n")
    app = PrDigestApp([folder], tmp_path / "state.json", config_path=config, watch=False)
    app.news.quiet_s = 0.2
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settled(app, pilot)
        await wait_until(pilot, lambda: runs(tmp_path), "the run")
        await wait_until(
            pilot, lambda: any("status 3" in str(n.message) for n in app._notifications), "warning"
        )
        assert runs(tmp_path)[0]["stdin"] == "one\n"
