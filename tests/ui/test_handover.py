"""`o` opens the PR in the browser, `c` copies, `e` edits the entry file in $EDITOR."""

from __future__ import annotations

import json
import stat
import sys
import webbrowser
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.app_helpers import make_app, settled, toasts
from tui.core.model import Library, Location, Review
from tui.ui.app import PrDigestApp


def entries(tmp_path: Path) -> Path:
    folder = tmp_path / "entries"
    folder.mkdir(exist_ok=True)
    (folder / "a.yaml").write_text(
        "repo: o/r\nentries:\n"
        "  - title: first\n    pr: 42\n    tags: [a]\n    verdict: deep\n    summary: s\n"
        "    focus:\n"
        "      - text: see `alpha.beta` and `gamma()`\n        refs: [src/x.py]\n"
        "      - no refs here\n"
        "  - title: second, no link\n    tags: [a]\n    verdict: quick\n    summary: s\n",
        encoding="utf-8",
    )
    return folder


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """URLs handed to the browser (webbrowser is the outside world here)."""
    calls: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: calls.append(url) or True)
    return calls


async def test_o_opens_the_pr_in_the_browser(tmp_path: Path, opened: list[str]) -> None:
    app = make_app(tmp_path, paths=[entries(tmp_path)])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        assert opened == ["https://github.com/o/r/pull/42"]
        await pilot.press("j", "o")
        await pilot.pause()
        assert opened == ["https://github.com/o/r/pull/42"]
        assert any(n.text == "This review has no PR link." for n in toasts(app))


async def test_o_refuses_urls_that_are_not_http(tmp_path: Path, opened: list[str]) -> None:
    """The loader already refuses such URLs; the app refuses them again."""
    # No watcher: its catch-up, a second after it starts, would find entries/a.yaml
    # missing from the library set by hand below and load it back mid-test.
    app = PrDigestApp([entries(tmp_path)], tmp_path / "state" / "state.json", watch=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settled(app, pilot)  # else the load, ending later, replaces the library set here
        where = Location(tmp_path / "x.yaml", 1, 1)
        bad = [
            Review("js", "o/r", "deep", "s", ("a",), where, pr=1, url="javascript:alert(1)"),
            Review("file", "o/r", "deep", "s", ("a",), where, pr=2, url="file:///etc/passwd"),
        ]
        app.reader.library = Library.build({where.path: bad})
        app.reader._refresh_all()
        await pilot.pause()
        await pilot.press("o", "j", "o")
        refused: list[str] = []
        for _ in range(100):  # a toast is mounted a frame or more after its notify
            await pilot.pause(0.02)
            refused = [n.text for n in toasts(app) if n.text.startswith("Not opening")]
            if len(refused) >= 2:
                break
        assert opened == []
        assert len(refused) == 2 and "javascript:alert(1)" in refused[0]


async def test_c_copies_the_ref_under_the_cursor_else_the_url(tmp_path: Path) -> None:
    app = make_app(tmp_path, paths=[entries(tmp_path)])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("c")  # in the list: the PR URL
        assert app.clipboard == "https://github.com/o/r/pull/42"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("c")  # the first item's refs, one per press, round again
        assert app.clipboard == "src/x.py"
        await pilot.press("c")
        assert app.clipboard == "alpha.beta"
        await pilot.press("c")
        assert app.clipboard == "gamma()"
        await pilot.press("c")
        assert app.clipboard == "src/x.py"
        await pilot.press("j", "c")  # an item with no ref: the URL
        assert app.clipboard == "https://github.com/o/r/pull/42"


async def test_c_with_nothing_to_copy_says_so(tmp_path: Path) -> None:
    app = make_app(tmp_path, paths=[entries(tmp_path)])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("j", "c")
        assert app.clipboard == ""
        assert any("Nothing to copy" in n.text for n in toasts(app))


def recording_editor(tmp_path: Path) -> tuple[Path, Path]:
    """A tiny editor that writes its arguments to a file."""
    record = tmp_path / "argv.json"
    script = tmp_path / "fake-editor"
    script.write_text(
        f"#!{sys.executable}\nimport json, sys\nopen({str(record)!r}, 'w').write(json.dumps(sys.argv[1:]))\n",
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script, record


async def test_e_opens_the_entry_file_at_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script, record = recording_editor(tmp_path)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", f"{script} --flag")
    folder = entries(tmp_path)
    app = make_app(tmp_path, paths=[folder])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("j", "e")
        await pilot.pause()
        review = app.reader.library.by_key[app.reader.current_key]
        assert json.loads(record.read_text()) == [
            "--flag",
            f"+{review.location.line}",
            str(folder / "a.yaml"),
        ]
        assert review.location.line == 12
        assert app.is_running
        monkeypatch.setenv("VISUAL", str(script))  # $VISUAL wins
        record.unlink()
        await pilot.press("k", "e")
        await pilot.pause()
        assert json.loads(record.read_text()) == ["+3", str(folder / "a.yaml")]


@pytest.mark.parametrize(
    ("editor", "said"),
    [
        (lambda tmp: str(tmp / "no-such-editor"), "Could not run the editor"),
        (lambda tmp: "false", "exited with status 1"),
    ],
    ids=["missing", "fails"],
)
async def test_e_reports_an_editor_that_cannot_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, editor: Callable[[Path], str], said: str
) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", editor(tmp_path))
    app = make_app(tmp_path, paths=[entries(tmp_path)])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        assert any(said in n.text for n in toasts(app))
        assert app.is_running
