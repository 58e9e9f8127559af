"""A file (or a diff) with syntax colours, a line-number gutter and one marked line.

Line API: `render_line` draws only the rows on screen, and each source line is
lexed the first time it is drawn (Pygments, one line at a time) and kept, so a
10,000-line file opens as fast as a small one and a scroll costs a screenful.
Lexing line by line cannot see a string or comment that spans lines; for a
reader jumping to a definition that is the price of opening at once.

The text is untrusted (it is the user's clone, but also whatever a PR added):
control characters and escape sequences are removed before anything is drawn.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.core.text import clean
from tui.i18n import words
from tui.ui.widgets.scrolling import set_virtual_size

if TYPE_CHECKING:
    from rich.syntax import PygmentsSyntaxTheme

TAB_SIZE = 4


@lru_cache(maxsize=64)
def _lexer(language: str) -> object | None:
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


def language_for(path: str) -> str:
    """The Pygments language of a file, from its name; plain text if unknown."""
    from pygments.lexers import find_lexer_class_for_filename

    try:
        lexer = find_lexer_class_for_filename(path)
    except Exception:  # a name Pygments' patterns choke on is just text
        lexer = None
    return lexer.aliases[0] if lexer is not None and lexer.aliases else "text"


def prepare(path: str) -> None:
    """Load the lexer for `path` ahead (Pygments imports it on first use, ~0.1 s):
    the reader does it off the loop, as it reads the files refs lead to."""
    _lexer(language_for(path))


class CodeFile(NamedTuple):
    """What a code view shows: `path` relative to the clone, its text, the
    line to mark; `absolute` for the editor (None when read from a commit,
    `commit`, which is then shown read-only). A named tuple, not a frozen
    dataclass: this module is imported on the way to the first frame, and
    defining a dataclass takes ~1 ms there, this named tuple ~0.2 ms."""

    path: str
    text: str
    line: int | None = None
    absolute: str | None = None
    commit: str | None = None

    def title(self) -> str:
        """`path:line`, and the commit when it is read from one."""
        where = f"{self.path}:{self.line}" if self.line else self.path
        if self.commit:
            return words().code_read_only.format(path=where, commit=self.commit[:12])
        return where


class CodeView(ScrollView, can_focus=True):
    """`text` with line numbers; `target` (1-based) marked and scrolled to."""

    DEFAULT_CSS = """
    CodeView { background: $surface; }
    CodeView > .code-view--gutter { color: $text-muted; }
    CodeView > .code-view--target { background: $accent 30%; }
    CodeView > .code-view--target-gutter { color: $accent; text-style: bold; }
    """
    COMPONENT_CLASSES = {"code-view--gutter", "code-view--target", "code-view--target-gutter"}

    BINDINGS = [
        Binding("j,down", "scroll_down", "Down", show=False, id="code.down", tooltip="One line down"),
        Binding("k,up", "scroll_up", "Up", show=False, id="code.up", tooltip="One line up"),
        Binding(
            "space,pagedown",
            "page_down",
            "Page down",
            show=False,
            id="code.page-down",
            tooltip="One page down",
        ),
        Binding("b,pageup", "page_up", "Page up", show=False, id="code.page-up", tooltip="One page up"),
        Binding("g,home", "scroll_home", "Top", show=False, id="code.top", tooltip="To the first line"),
        Binding("G,end", "scroll_end", "Bottom", show=False, id="code.bottom", tooltip="To the last line"),
    ]

    target: reactive[int | None] = reactive(None)

    def __init__(
        self,
        text: str,
        language: str = "text",
        target: int | None = None,
        *,
        theme: str = "monokai",
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._theme_name = theme
        self._theme: PygmentsSyntaxTheme | None = (
            None  # made when a line is first lexed: pygments is not needed at start
        )
        self._scroll_when_sized = False
        self._take(text, language, target)

    def _take(self, text: str, language: str, target: int | None) -> None:
        self.lines = text.split("\n")
        if self.lines and self.lines[-1] == "" and len(self.lines) > 1:
            self.lines.pop()  # the newline that ends the file is not a line of its own
        self.language = language
        self._lexed: dict[int, list[Segment]] = {}
        self.gutter_width = len(str(len(self.lines))) + 2
        width = max((len(line) for line in self.lines), default=0)  # ~ cells; exact when drawn
        self._width = self.gutter_width + width + TAB_SIZE
        self.set_reactive(CodeView.target, target)

    def load(self, text: str, language: str = "text", target: int | None = None) -> None:
        """Show another file in this view: the reader keeps one mounted, and
        swapping its lines costs less than mounting a view (or a screen)."""
        self._take(text, language, target)
        set_virtual_size(self, Size(self._width, len(self.lines)))
        if self.target is None:
            self.scroll_to(0, 0, animate=False, immediate=True)
        else:
            self.scroll_to_target()
            # A view shown just now (its pane was hidden) has no height until laid out: on_resize.
            self._scroll_when_sized = not self.scrollable_content_region.height
        self.refresh()

    def on_resize(self) -> None:
        if self._scroll_when_sized and self.scrollable_content_region.height:
            self._scroll_when_sized = False
            self.scroll_to_target()

    def on_mount(self) -> None:
        set_virtual_size(self, Size(self._width, len(self.lines)))
        self.call_after_refresh(self.scroll_to_target)

    def watch_target(self) -> None:
        self.scroll_to_target()
        self.refresh()

    def scroll_to_target(self) -> None:
        """The target line a third of the way down, as an editor's jump puts it."""
        if self.target is None:
            return
        y = max(0, self.target - 1 - self.scrollable_content_region.height // 3)
        self.scroll_to(0, y, animate=False, immediate=True)

    def lexed(self, index: int) -> list[Segment]:
        """Line `index` (0-based) as coloured segments, lexed once."""
        segments = self._lexed.get(index)
        if segments is None:
            line = clean(self.lines[index]).expandtabs(TAB_SIZE)
            lexer = _lexer(self.language)
            if lexer is None or not line:
                segments = [Segment(line)]
            else:
                from pygments import lex

                if self._theme is None:
                    from rich.syntax import PygmentsSyntaxTheme

                    self._theme = PygmentsSyntaxTheme(self._theme_name)
                style_for = self._theme.get_style_for_token
                segments = []
                for token, value in lex(line + "\n", lexer):
                    value = value.rstrip("\n")
                    if value:
                        style = style_for(token)
                        segments.append(
                            Segment(value, Style(color=style.color, bold=style.bold, italic=style.italic))
                        )
            self._lexed[index] = segments
        return segments

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if index >= len(self.lines):
            return Strip.blank(width, base)
        is_target = self.target is not None and index == self.target - 1
        gutter_style = self.get_component_rich_style(
            "code-view--target-gutter" if is_target else "code-view--gutter"
        )
        marker = "▶" if is_target else " "
        gutter = Segment(f"{index + 1:>{self.gutter_width - 2}}{marker} ", base + gutter_style)
        body = Strip(self.lexed(index)).crop(scroll_x, scroll_x + width - self.gutter_width)
        line_style = base + self.get_component_rich_style("code-view--target") if is_target else base
        strip = Strip([gutter, *Segment.apply_style(list(body), line_style)])
        return strip.extend_cell_length(width, line_style).crop(0, width)
