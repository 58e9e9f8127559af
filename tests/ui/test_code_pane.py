"""The code pane and the diff screen in a small test App (Pilot): the pane on
a screen of its own with the key bar, recording what it asks of the reader."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.screen import Screen

from tests.clone_repo import ENGINE
from tui.ui.screens.diff import DiffScreen
from tui.ui.widgets.code_pane import CodePane
from tui.ui.widgets.code_view import CodeFile, CodeView, language_for
from tui.ui.widgets.key_bar import KeyBar

SOURCE = "".join(f"def f{n}():\n    return {n}\n" for n in range(200))


class PaneScreen(Screen[None]):
    """The code pane alone, as the reader shows it in the review's place; what
    the pane posts to its screen is recorded."""

    def __init__(self, file: CodeFile) -> None:
        super().__init__()
        self.file = file
        self.asked: list[tuple[str, object]] = []

    def compose(self) -> ComposeResult:
        yield CodePane(id="code")
        yield KeyBar()

    def on_mount(self) -> None:
        pane = self.query_one(CodePane)
        pane.show_file(self.file)
        pane.code_view.focus()

    def on_code_pane_open_editor(self, message: CodePane.OpenEditor) -> None:
        self.asked.append(("editor", (message.path, message.line)))

    def on_code_pane_show_diff(self, message: CodePane.ShowDiff) -> None:
        self.asked.append(("diff", message.path))

    def on_code_pane_check_item(self, message: CodePane.CheckItem) -> None:
        self.asked.append(("check", None))

    def on_code_pane_closed(self, message: CodePane.Closed) -> None:
        self.asked.append(("back", None))


class Host(App[None]):
    def __init__(self, screen: Screen[None]) -> None:
        super().__init__()
        self.first = screen

    def on_mount(self) -> None:
        self.push_screen(self.first)


def pane_host(file: CodeFile) -> tuple[Host, PaneScreen]:
    screen = PaneScreen(file)
    return Host(screen), screen


def screen_text(app: App[None]) -> str:
    return "\n".join(line.text for line in app.screen._compositor.render_update(full=True).strips)  # type: ignore[attr-defined]


async def test_the_code_view_opens_at_the_target_line_marked() -> None:
    file = CodeFile("pkg/mod.py", SOURCE, 301, "/abs/pkg/mod.py")
    app, screen = pane_host(file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = screen.query_one(CodeView)
        assert app.focused is view
        assert screen.query_one("#code-title").render().plain == "pkg/mod.py:301"  # type: ignore[union-attr]
        top = view.scroll_offset.y
        assert top <= 300 < top + view.scrollable_content_region.height
        lines = [view.render_line(y).text for y in range(view.scrollable_content_region.height)]
        marked = [line for line in lines if "▶" in line]
        assert marked == [next(line for line in lines if line.startswith("301▶"))]
        assert "def f150():" in marked[0]
        await pilot.press("e", "d", "D", "space", "escape")
        await pilot.pause()
        assert screen.asked == [
            ("editor", ("/abs/pkg/mod.py", 301)),
            ("diff", "pkg/mod.py"),
            ("diff", None),
            ("check", None),
            ("back", None),
        ]
        assert view.scroll_offset.y == top  # space is the reader's check, not a page down


async def test_a_file_read_from_a_commit_gives_the_editor_no_path() -> None:
    file = CodeFile("pkg/old.py", "x = 1\n", 1, None, "a" * 40)
    app, screen = pane_host(file)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        title = screen.query_one("#code-title").render().plain  # type: ignore[union-attr]
        assert title == f"pkg/old.py:1 as of {'a' * 12}, before the PR (read-only)"
        await pilot.press("e")
        await pilot.pause()
        assert screen.asked == [("editor", ("", 1))]  # no path: the reader says read-only (test_ref_keys)


async def test_hostile_text_is_drawn_as_plain_characters() -> None:
    text = 'x = "\x1b]0;owned\x07[bold]y[/]"\n\x1b[31mred\n'
    app, screen = pane_host(CodeFile("evil.py", text, 1, "/abs/evil.py"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = screen.query_one(CodeView)
        first, second = view.render_line(0).text, view.render_line(1).text
        assert "\x1b" not in first + second and "owned" not in first
        assert "[bold]y[/]" in first and second.endswith("red" + " " * (len(second) - len(second.rstrip())))


async def test_a_big_file_draws_only_what_is_on_screen() -> None:
    big = "".join(f"value_{n} = {n}  # a comment\n" for n in range(10_000))
    app, screen = pane_host(CodeFile("big.py", big, 9_000, "/abs/big.py"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        view = screen.query_one(CodeView)
        assert len(view._lexed) <= 2 * view.scrollable_content_region.height
        assert view.virtual_size.height == 10_000


async def test_the_diff_view_steps_through_files() -> None:
    parts = [
        ("a.py", "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n"),
        ("b.py", "diff --git a/b.py b/b.py\n--- a/b.py\n+++ b/b.py\n@@ -1 +1 @@\n-p\n+q\n"),
    ]
    app = Host(DiffScreen("PR #10", parts))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        title = app.screen.query_one("#diff-title")
        assert title.render().plain == "PR #10 · 1/2 a.py"  # type: ignore[union-attr]
        await pilot.press("n")
        assert title.render().plain == "PR #10 · 2/2 b.py"  # type: ignore[union-attr]
        assert app.screen.query_one(CodeView).target == 7
        await pilot.press("n", "p")
        assert title.render().plain == "PR #10 · 1/2 a.py"  # type: ignore[union-attr]
        view = app.screen.query_one(CodeView)
        added = view.lexed(5)
        removed = view.lexed(4)
        assert added[0].style.color != removed[0].style.color  # + and - lines differ in colour
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, DiffScreen)


def test_languages_from_file_names() -> None:
    assert language_for("a/b.py") == "python"
    assert language_for("k.cu") in ("cuda", "cu")
    assert language_for("README") == "text"


CODE = ENGINE[: ENGINE.index("\n    def stop")]  # the refs tests' engine, up to `def start` (line 12)


def test_code_pane_snapshot_120x40(snap_compare) -> None:
    app, _ = pane_host(CodeFile("pkg/engine.py", CODE, 12, "/abs"))
    assert snap_compare(app, terminal_size=(120, 40))


def test_code_pane_snapshot_80x24(snap_compare) -> None:
    app, _ = pane_host(CodeFile("pkg/engine.py", CODE * 8, 60, "/abs"))
    assert snap_compare(app, terminal_size=(80, 24))
