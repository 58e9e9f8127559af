"""Refs in the reader (Pilot): `enter` on an item or a note opens its ref in the
code pane at the right line, `e` the editor, `d` / `D` the PR's diff, `escape` back with
the review's place kept, the picker, `space` checking the step or note, no clone."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.app_helpers import all_saved, screen_text, settled
from tests.clone_repo import ENGINE, REPO, build, commit
from tests.waiting import wait_until
from tui.ui.app import PrDigestApp
from tui.ui.screens.diff import DiffScreen
from tui.ui.screens.ref_picker import RefPicker
from tui.ui.widgets.code_pane import CodePane
from tui.ui.widgets.review_view import ReviewView

ENTRY = f"""\
repo: {REPO}
entries:
  - title: The second scheduler
    pr: 10
    tags: [sched]
    verdict: deep
    summary: Read `pkg/engine.py` first.
    focus:
      - text: How `Engine.start` begins, then `helper`
        refs: ["Engine.start", "helper"]
      - text: The new `schedule` function
    read_order:
      - text: Start at `pkg/sched/scheduler.py`
      - text: Then `tune()` in the engine
      - text: Then `scheduler.py`, the one the PR added
      - text: 第四步：`不存在的符号` 与 `missing_thing`
    actions:
      - text: Run the tests once `tune()` is in
      - text: Compare with `pkg/other.py`
    caveats:
      - text: Mind `Other.start`, not the engine's
  - title: Two schedulers
    tags: [sched]
    verdict: quick
    summary: No PR to settle which.
    focus:
      - text: Which `scheduler.py`?
  - title: A long file
    tags: [sched]
    verdict: skim
    summary: Its definition is far down.
    focus:
      - text: Read `far_away`
"""

LONG = "".join(f"VALUE_{n} = {n}\n" for n in range(3_000)) + "\n\ndef far_away() -> None:\n    pass\n"
FAR = 3_003


START = ENGINE.splitlines().index("    def start(self) -> None:") + 1
HELPER = ENGINE.splitlines().index("def helper() -> int:") + 1


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    root = tmp_path / "widgets"
    build(root)
    commit(root, {"pkg/long.py": LONG}, "A long module (#40)")
    return root


@pytest.fixture
def entries(tmp_path: Path) -> Path:
    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "widgets.yaml").write_text(ENTRY, encoding="utf-8")
    return folder


def reader_app(tmp_path: Path, entries: Path, repo_dir: Path | None) -> PrDigestApp:
    app = PrDigestApp([entries], tmp_path / "state" / "state.json", watch=False)
    app.reader.repo_dir = repo_dir
    app.reader.clones  # noqa: B018  # made now, to point it at a folder outside any clone
    app.reader.clones.cwd = tmp_path
    return app


async def resolved(app: PrDigestApp, pilot: object, count: int = 1) -> None:
    """The selected review's refs resolved and delivered."""
    await wait_until(pilot, lambda: app.reader.clones.resolved >= count, "the refs to be resolved")
    await pilot.pause()  # type: ignore[attr-defined]


async def code_shown(app: PrDigestApp, pilot: object) -> CodePane:
    pane = app.reader.code_pane
    await wait_until(pilot, lambda: pane.has_class("-open") and pane.display, "the code pane to open")
    await pilot.pause()  # type: ignore[attr-defined]
    return pane


async def open_review(app: PrDigestApp, pilot: object) -> ReviewView:
    await settled(app, pilot)
    await resolved(app, pilot)
    await pilot.press("enter")  # type: ignore[attr-defined]  # the review list: open the review
    await pilot.pause()  # type: ignore[attr-defined]
    view = app.query_one(ReviewView)
    assert app.focused is view
    return view


def visible_code(pane: CodePane) -> list[str]:
    view = pane.code_view
    return [view.render_line(y).text for y in range(view.scrollable_content_region.height)]


async def test_enter_opens_the_items_ref_at_its_line_and_again_the_next(
    tmp_path: Path, clone: Path, entries: Path
) -> None:
    app = reader_app(tmp_path, entries, clone)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_review(app, pilot)
        assert {"Engine.start", "helper", "pkg/engine.py"} <= view.resolved_refs
        await pilot.press("enter")
        pane = await code_shown(app, pilot)
        assert pane.file is not None and pane.file.path == "pkg/engine.py"
        assert pane.file.line == START  # `def start` inside `class Engine`
        assert pane.file.absolute == str(clone.resolve() / "pkg/engine.py")
        marked = [line for line in visible_code(pane) if "▶" in line]
        assert len(marked) == 1 and "def start(self)" in marked[0]
        assert f"pkg/engine.py:{START}" in screen_text(app)
        assert not view.display  # the code pane is in the review's place
        # escape: back to the review, its cursor where it was
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is view and view.display and view.cursor == 0
        await pilot.press("enter")  # again: the item's next ref
        pane = await code_shown(app, pilot)
        assert pane.file is not None and (pane.file.path, pane.file.line) == ("pkg/engine.py", HELPER)


async def test_j_and_k_reach_the_notes_and_enter_opens_a_notes_ref(
    tmp_path: Path, clone: Path, entries: Path
) -> None:
    app = reader_app(tmp_path, entries, clone)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_review(app, pilot)
        assert len(view.checklist) == 6
        await pilot.press(*["j"] * 7)  # past the six checklist items: the second action
        await pilot.pause()
        assert view.cursor_place == ("actions", 1)
        assert view.cursor_item is not None and view.cursor_item.text == "Compare with `pkg/other.py`"
        start, _ = view._item_rows[view.cursor]
        assert start - view.scroll_offset.y in range(view.scrollable_content_region.height)
        await pilot.press("enter")
        pane = await code_shown(app, pilot)
        assert pane.file is not None and pane.file.path == "pkg/other.py"
        assert pane.file.absolute == str(clone.resolve() / "pkg/other.py")
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is view and view.cursor_place == ("actions", 1)
        await pilot.press("j")  # the caveat, the last stop
        await pilot.pause()
        assert view.cursor_place == ("caveats", 0)
        await pilot.press("enter")
        pane = await code_shown(app, pilot)
        assert pane.file is not None and (pane.file.path, pane.file.line) == ("pkg/other.py", 2)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("j")  # past the last: the text scrolls, the cursor stays
        await pilot.pause()
        assert view.cursor_place == ("caveats", 0)
        await pilot.press("k", "k", "k")  # back over the notes to the last read-order step
        await pilot.pause()
        assert view.cursor_place == ("read_order", 3)


async def test_space_on_a_note_checks_it_as_the_to_do_view_does(
    tmp_path: Path, clone: Path, entries: Path
) -> None:
    app = reader_app(tmp_path, entries, clone)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_review(app, pilot)
        await pilot.press(*["j"] * 6, "space")  # the first action
        await all_saved(app, pilot)
        note = view.stops[6]
        assert note.section == "actions" and view.cursor_place == ("actions", 0)
        assert note.key in app.reader.state.checked(app.reader.current_key)
        assert "✓ Run the tests once tune() is in" in screen_text(app)
        assert "0/2" in screen_text(app)  # the checklist's count is the checklist's
        await pilot.press("space")
        await all_saved(app, pilot)
        assert note.key not in app.reader.state.checked(app.reader.current_key)
        assert "• Run the tests once tune() is in" in screen_text(app)


async def test_a_definition_far_down_a_long_file_is_scrolled_to(
    tmp_path: Path, clone: Path, entries: Path
) -> None:
    assert LONG.splitlines()[FAR - 1] == "def far_away() -> None:"
    app = reader_app(tmp_path, entries, clone)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        await pilot.press("j", "j")
        await resolved(app, pilot, 2)
        await pilot.press("enter", "enter")
        pane = await code_shown(app, pilot)
        assert pane.file is not None and (pane.file.path, pane.file.line) == ("pkg/long.py", FAR)
        marked = [line for line in visible_code(pane) if "▶" in line]
        assert len(marked) == 1 and marked[0].startswith(f"{FAR}▶ def far_away()")


async def test_escape_keeps_the_reviews_place(tmp_path: Path, clone: Path, entries: Path) -> None:
    app = reader_app(tmp_path, entries, clone)
    async with app.run_test(size=(80, 24)) as pilot:
        view = await open_review(app, pilot)
        await pilot.press("j", "j", "j")  # the second read-order step
        await pilot.pause()
        cursor, scroll = view.cursor, view.scroll_offset.y
        await pilot.press("enter")
        pane = await code_shown(app, pilot)
        assert pane.file is not None and pane.file.line is not None
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is view and (view.cursor, view.scroll_offset.y) == (cursor, scroll)


async def test_space_in_the_code_pane_checks_the_step_it_was_opened_from(
    tmp_path: Path, clone: Path, entries: Path
) -> None:
    app = reader_app(tmp_path, entries, clone)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_review(app, pilot)
        await pilot.press("j", "j")  # the first read-order step
        await pilot.press("enter")
        pane = await code_shown(app, pilot)
        assert pane.file is not None and pane.file.path == "pkg/sched/scheduler.py"
        assert "1/4 [ ]" in screen_text(app)
        await pilot.press("space")
        await all_saved(app, pilot)
        step = view.checklist[2].key
        assert step in app.reader.state.checked(app.reader.current_key)
        assert "1/4 [✓]" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert "[✓] 1. Start at" in screen_text(app)


async def test_space_in_the_code_pane_checks_the_note_it_was_opened_from(
    tmp_path: Path, clone: Path, entries: Path
) -> None:
    app = reader_app(tmp_path, entries, clone)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_review(app, pilot)
        await pilot.press(*["j"] * 7)  # the second action: `pkg/other.py`
        await pilot.press("enter")
        pane = await code_shown(app, pilot)
        assert pane.file is not None and pane.file.path == "pkg/other.py"
        assert "What to do 2/2 •" in screen_text(app)
        note = view.stops[7].key
        await pilot.press("space")
        await all_saved(app, pilot)
        assert note in app.reader.state.checked(app.reader.current_key)
        assert "What to do 2/2 ✓" in screen_text(app)
        await pilot.press("space")  # and back, as in the review pane
        await all_saved(app, pilot)
        assert note not in app.reader.state.checked(app.reader.current_key)
        assert "What to do 2/2 •" in screen_text(app)
        await pilot.press("space", "escape")
        await all_saved(app, pilot)
        assert app.focused is view and "✓ Compare with pkg/other.py" in screen_text(app)


async def test_e_opens_the_editor_at_the_line_with_the_absolute_path(
    tmp_path: Path, clone: Path, entries: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "argv.txt"
    editor = tmp_path / "fake-editor"
    editor.write_text(
        f"#!{sys.executable}\nimport sys\nopen({str(record)!r}, 'w').write('\\n'.join(sys.argv[1:]))\n"
    )
    editor.chmod(0o755)
    monkeypatch.setenv("VISUAL", str(editor))
    app = reader_app(tmp_path, entries, clone)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_review(app, pilot)
        await pilot.press("enter")
        await code_shown(app, pilot)
        await pilot.press("e")
        await pilot.pause()
    assert record.read_text().split("\n") == [f"+{START}", str(clone.resolve() / "pkg/engine.py")]


async def test_e_on_a_file_read_from_a_commit_says_read_only_and_starts_no_editor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "widgets"
    commits = build(root)
    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "legacy.yaml").write_text(
        f"repo: {REPO}\nentries:\n  - title: Legacy out\n    pr: 20\n    tags: [old]\n    verdict: quick\n"
        "    summary: Gone.\n    focus:\n      - text: What `old_copy()` was\n",
        encoding="utf-8",
    )
    record = tmp_path / "argv.txt"
    editor = tmp_path / "fake-editor"
    editor.write_text(f"#!{sys.executable}\nopen({str(record)!r}, 'w').write('started')\n")
    editor.chmod(0o755)
    monkeypatch.setenv("VISUAL", str(editor))
    monkeypatch.setenv("EDITOR", str(editor))
    app = reader_app(tmp_path, folder, root)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await open_review(app, pilot)
        await pilot.press("enter")
        pane = await code_shown(app, pilot)
        parent = commits["10"]  # the parent of the PR that deleted it
        assert pane.file is not None and (pane.file.path, pane.file.line) == ("pkg/legacy.py", 6)
        assert pane.file.absolute is None and pane.file.commit == parent
        read_only = f"pkg/legacy.py:6 as of {parent[:12]}, before the PR (read-only)"
        assert read_only in screen_text(app)  # the title
        await pilot.press("e")
        await pilot.pause()
        assert [n.message for n in app._notifications] == [read_only]
        assert app.screen is app.reader and pane.has_class("-open")
    assert not record.exists()


async def test_d_and_D_show_the_prs_diff(tmp_path: Path, clone: Path, entries: Path) -> None:
    app = reader_app(tmp_path, entries, clone)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_review(app, pilot)
        await pilot.press("enter")
        await code_shown(app, pilot)
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffScreen), "the diff")
        assert isinstance(app.screen, DiffScreen)
        assert [path for path, _ in app.screen.parts] == ["pkg/engine.py"]
        assert "+def tune() -> None:" in app.screen.text
        assert "PR #10: pkg/engine.py" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.reader and app.reader.code_pane.has_class("-open")
        await pilot.press("D")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffScreen), "the diff")
        assert isinstance(app.screen, DiffScreen)
        assert sorted(path for path, _ in app.screen.parts) == ["pkg/engine.py", "pkg/sched/scheduler.py"]


async def test_a_ref_the_pr_settles_opens_the_prs_file(tmp_path: Path, clone: Path, entries: Path) -> None:
    app = reader_app(tmp_path, entries, clone)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_review(app, pilot)
        await pilot.press("j", "j", "j", "j")  # `scheduler.py`: two files of that name, one the PR's
        await pilot.press("enter")
        pane = await code_shown(app, pilot)
        assert pane.file is not None and pane.file.path == "pkg/sched/scheduler.py"


async def test_an_ambiguous_ref_opens_a_picker(tmp_path: Path, clone: Path, entries: Path) -> None:
    app = reader_app(tmp_path, entries, clone)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("j")  # the review with no PR
        await resolved(app, pilot, 2)
        await pilot.press("enter", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, RefPicker), "the picker")
        picker = app.screen
        assert isinstance(picker, RefPicker)
        assert picker.places == ["pkg/core/scheduler.py", "pkg/sched/scheduler.py"]
        assert "`scheduler.py` names 2 places" in screen_text(app)
        assert screen_text(app).splitlines()[-1].split() == ["esc", "Close"]  # its keys, not the reader's
        await pilot.press("j", "enter")
        pane = await code_shown(app, pilot)
        assert pane.file is not None and pane.file.path == "pkg/sched/scheduler.py"
        await pilot.press("escape", "enter")  # again: the picker, and escape opens nothing
        await pilot.pause(0.1)
        assert isinstance(app.screen, RefPicker)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.reader and not app.reader.code_pane.has_class("-open")


async def test_a_missing_ref_says_so(tmp_path: Path, clone: Path, entries: Path) -> None:
    app = reader_app(tmp_path, entries, clone)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await open_review(app, pilot)
        await pilot.press("j", "j", "j", "j", "j")  # the last step: nothing it names is in the clone
        await pilot.press("enter")
        await pilot.pause()
        assert not app.reader.code_pane.has_class("-open")
        assert any("`missing_thing` is not in the clone" in n.message for n in app._notifications)


async def test_without_a_clone_enter_says_once_how_to_set_one(tmp_path: Path, entries: Path) -> None:
    app = reader_app(tmp_path, entries, None)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        view = await open_review(app, pilot)
        assert view.resolved_refs == frozenset()
        await pilot.press("enter", "enter")
        await pilot.pause()
        messages = [n.message for n in app._notifications]
        assert sum("map it under `repos:`" in m and "--repo-dir DIR" in m for m in messages) == 1
        assert f"No clone of {REPO} to open refs in" in messages
        assert not app.reader.code_pane.has_class("-open")
        await pilot.press("space")  # the review works as before
        await all_saved(app, pilot)
        assert view.checklist[0].key in app.reader.state.checked(app.reader.current_key)


async def test_the_clone_is_found_from_the_current_folder(tmp_path: Path, clone: Path, entries: Path) -> None:
    app = reader_app(tmp_path, entries, None)
    app.reader.clones.cwd = clone / "pkg"
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_review(app, pilot)
        assert "Engine.start" in view.resolved_refs


async def test_the_clone_is_found_from_the_configs_repos(tmp_path: Path, clone: Path, entries: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(f"repos:\n  {REPO}: {clone}\n", encoding="utf-8")
    app = PrDigestApp([entries], tmp_path / "state" / "state.json", watch=False, config_path=config)
    app.reader.clones.cwd = tmp_path
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_review(app, pilot)
        assert "Engine.start" in view.resolved_refs
