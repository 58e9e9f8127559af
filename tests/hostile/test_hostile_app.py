"""The real app on hostile entries: it renders every one, and nothing in an
entry reaches the terminal as a control character or as styling.

Entries are generated (tests/fuzz_loader.py), written to files and opened
with `PrDigestApp`; every segment the app would send to the terminal is read
back from the compositor.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from textual.app import App
from textual.strip import Strip

from tests.app_helpers import make_app, screen_text, toasts, write_review
from tests.fuzz_loader import HOSTILE_FILES, hostile_review, unsafe_characters, yaml_text
from tui.core.text import code_spans
from tui.ui.app import PrDigestApp
from tui.ui.widgets.review_view import ReviewView

# Words that are styled if the app ever reads entry text as markup or ANSI.
SENTINEL = (
    "PLAINWORD \x1b[1;31mREDWORD\x1b[0m [bold red]BOLDWORD[/] [@click=app.quit]CLICKWORD[/] "
    "[link='x']LINKWORD[/link] \\[ESCWORD [b]"
)
LITERAL = [
    "[bold red]BOLDWORD[/]",
    "[@click=app.quit]CLICKWORD[/]",
    "[link='x']LINKWORD[/link]",
    "\\[ESCWORD",
]

APP_SETTINGS = settings(
    max_examples=20,
    deadline=None,
    database=None,
    print_blob=True,  # a failure prints a blob to rerun it with @reproduce_failure
    # No shrinking: an example costs most of a second, so shrinking one would
    # take minutes. The failure is reported as found.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    # The same examples on every run: an app-level failure must not come and go
    # with the seed. (The loader's fuzz target, quick, is random on every run.)
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def squeeze(text: str) -> str:
    """Text without whitespace, zero-width characters or the focus bar that starts
    every line of a focus item: what survives any line wrapping."""
    return "".join(c for c in text if not c.isspace() and cell_len(c) > 0 and c != "▌")


def shown(text: str) -> str:
    """What the review pane shows for a loaded text: code spans lose their backticks."""
    return "".join(run for run, _ in code_spans(text))


def check_screen(app: App, where: str) -> None:
    """No control character and no link or action from entry text anywhere on screen."""
    for y, strip in enumerate(app.screen._compositor.render_strips()):
        for segment in strip:
            bad = unsafe_characters(segment.text)
            assert not bad, f"{where}: row {y} shows {bad!r} in {segment.text!r}"
            style = segment.style
            if style is not None:
                assert not style.link, f"{where}: row {y} links {segment.text!r} to {style.link!r}"
                clicks = [key for key in style.meta if key.startswith("@click")]
                assert not clicks, f"{where}: row {y} makes {segment.text!r} an action: {style.meta}"


def review_pane_rows(app: App) -> list[Strip]:
    """Every row of the open review, through the widget's own line API, top to bottom."""
    view = app.query_one(ReviewView)
    height = max(1, view.scrollable_content_region.height)
    rows: dict[int, Strip] = {}
    while True:
        view.scroll_to(y=len(rows), animate=False, immediate=True)
        top = view.scroll_offset.y  # the last page stops at the end
        rows.update({top + y: view.render_line(y) for y in range(height)})
        if top >= view.max_scroll_y:
            view.scroll_to(y=0, animate=False, immediate=True)
            return [rows[y] for y in sorted(rows)]


def check_rows(rows: list[Strip], where: str) -> None:
    for y, row in enumerate(rows):
        for segment in row:
            bad = unsafe_characters(segment.text)
            assert not bad, f"{where}: line {y} shows {bad!r} in {segment.text!r}"


def write_entries(folder: Path, good: list[dict], broken: list[dict]) -> None:
    # Distinct keys (duplicates are a different test); the first one carries the sentinel.
    good = [dict(review, pr=n + 1) for n, review in enumerate(good)]
    good[0]["summary"] = SENTINEL + "\n\n" + good[0]["summary"]
    (folder / "good.yaml").write_text(yaml_text({"entries": good}), encoding="utf-8")
    (folder / "broken.yaml").write_text(yaml_text({"entries": broken}), encoding="utf-8")


@APP_SETTINGS
@given(
    good=st.lists(hostile_review(valid_shape=True), min_size=1, max_size=3),
    broken=st.lists(hostile_review(), min_size=1, max_size=2),
)
def test_the_app_renders_hostile_entries_as_plain_text(good: list[dict], broken: list[dict]) -> None:
    folder = Path(tempfile.mkdtemp(prefix="hostile-app-"))
    try:
        write_entries(folder, good, broken)
        asyncio.run(_render_everything(folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def _render_everything(folder: Path) -> None:
    app = PrDigestApp([folder], folder / "state" / "state.json", watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        check_screen(app, "start")
        reviews = app.reader.library.reviews
        assert reviews, [str(p) for p in app.reader.library.all_problems()]
        # Open the first review, check an item, mark it read: the state file is
        # written with hostile keys. (The actions the keys run, called directly:
        # a simulated key press costs a tenth of a second.)
        view = app.query_one(ReviewView)
        view.focus()
        view.action_toggle_item()
        app.reader.action_toggle_read()
        await pilot.pause()
        check_screen(app, "first review marked")
        assert app.reader.state.is_read(reviews[0].key)
        for review in reviews:
            app.reader.current_key = review.key
            await pilot.pause()
            check_screen(app, f"review {review.key!r}")
            assert app.query_one(ReviewView).review is review
            rows = review_pane_rows(app)
            check_rows(rows, f"review {review.key!r}")
            text = squeeze("".join(row.text for row in rows))
            assert squeeze(review.title) in text, f"{review.title!r} is not shown as written"
            for part in (review.summary, *(i.text for i in review.checklist)):
                assert squeeze(shown(part)) in text, f"{part!r} is not shown as written"
            if "PLAINWORD" in review.summary:
                for literal in LITERAL:
                    assert squeeze(literal) in text, f"{literal!r} is not shown literally"
                sentinel_is_unstyled(rows)
        app.reader.action_show_problems()
        await pilot.pause()
        check_screen(app, "problems")
        app.pop_screen()
        await pilot.resize_terminal(34, 12)  # narrow: one pane, long words cut to fit
        await pilot.pause()
        check_screen(app, "narrow")
        assert app.is_running
    assert app.return_code in (None, 0)


def sentinel_is_unstyled(rows: list[Strip]) -> None:
    """Words after markup or an ANSI sequence are drawn like the plain word before them."""
    styles: dict[str, object] = {}
    for row in rows:
        for segment in row:
            for word in ("PLAINWORD", "REDWORD", "BOLDWORD", "CLICKWORD", "LINKWORD", "ESCWORD"):
                if word in segment.text:
                    styles.setdefault(word, segment.style)
    assert set(styles) == {"PLAINWORD", "REDWORD", "BOLDWORD", "CLICKWORD", "LINKWORD", "ESCWORD"}
    for word, style in styles.items():
        assert style == styles["PLAINWORD"], f"{word} is styled {style}, PLAINWORD {styles['PLAINWORD']}"


# -- files and state the app must survive -------------------------------------------------------


async def test_the_app_opens_a_folder_of_hostile_files(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    for name, data in HOSTILE_FILES.items():
        (folder / name).write_bytes(data)
    write_review(folder / "good.yaml", "good one")
    (folder / "loop.yaml").symlink_to("loop.yaml")
    (folder / "out.yaml").symlink_to("/etc/hostname")
    os.mkfifo(folder / "fifo.yaml")
    (folder / "esc\x1b[2J.yaml").write_text("title: x\n", encoding="utf-8")
    app = PrDigestApp([folder], tmp_path / "state.json", watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert sorted(r.title for r in app.reader.library.reviews) == ["bom", "crlf", "good one", "utf16"]
        check_screen(app, "start")
        assert f"{len(app.reader.library.all_problems())} problems" in screen_text(app)
        app.reader.action_show_problems()
        await pilot.pause()
        check_screen(app, "problems")
        assert app.is_running


async def test_an_unwritable_state_folder_warns_once_and_the_app_keeps_working(tmp_path: Path) -> None:
    # Tests run as root, for whom no folder is read-only: the state folder's
    # parent is a file, so the folder can never be made.
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder", encoding="utf-8")
    app = make_app(tmp_path, state=blocker / "prdigest-tui" / "state.json")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        assert not [n for n in toasts(app) if "marks" in n.text]  # nothing to say yet
        await pilot.press("r")  # mark read: the save fails (off the loop)
        for _ in range(500):
            await pilot.pause(0.02)
            if app.reader.saver.idle and not app.reader.state.warnings and app.reader.state.failure:
                break
        await pilot.pause()
        notes = [n for n in toasts(app) if "Cannot save marks" in n.text]
        assert len(notes) == 1 and notes[0].severity == "warning"
        first = app.reader.current_key
        assert app.reader.state.is_read(first)  # kept in memory, and shown
        await pilot.press("j", "r", "enter", "space")  # more marks: no more warnings
        await pilot.pause()
        assert len([n for n in toasts(app) if "Cannot save marks" in n.text]) == 1
        assert app.reader.state.is_read(first) and app.reader.state.is_read(app.reader.current_key)
        assert app.query_one(ReviewView).checked
        assert app.is_running
    assert blocker.read_text(encoding="utf-8") == "not a folder"


# -- leaks found by the property test, one case each ---------------------------------------


async def _shows(tmp_path: Path, entry: str) -> list[str]:
    """Unsafe characters anywhere on screen, with the review open and its list row showing."""
    folder = tmp_path / "entries"
    folder.mkdir(exist_ok=True)
    (folder / "x.yaml").write_text(entry, encoding="utf-8")
    app = PrDigestApp([folder], tmp_path / "state.json", watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.reader.library.reviews, app.reader.library.all_problems()
        found = [c for strip in app.screen._compositor.render_strips() for c in unsafe_characters(strip.text)]
        found += [c for row in review_pane_rows(app) for c in unsafe_characters(row.text)]
        return found


async def test_a_zero_width_joiner_before_a_line_break_does_not_reach_the_screen(tmp_path: Path) -> None:
    entry = 'title: t\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: "x\\u200d\\ny \\U0001F469\\u200d\\n"\n'
    assert await _shows(tmp_path, entry) == []


async def test_a_tab_in_a_title_does_not_reach_the_screen(tmp_path: Path) -> None:
    # The review list cuts titles to fit (`truncate`), past the line breaker.
    entry = 'title: "a\\tb"\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: s\n'
    assert await _shows(tmp_path, entry) == []
