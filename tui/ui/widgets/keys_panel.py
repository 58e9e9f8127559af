"""The keys panel (`?`): Textual's `HelpPanel`, its descriptions wrapped as
the reader wraps prose.

Textual's table of keys is a Rich table, and Rich breaks a cell's text only at
whitespace: a Chinese description is one word to it, cut with "…" in the
panel's 30-odd columns. Here each description is broken by `tui.core.wrap`:
Chinese between any two characters but never before a closing mark, English
at spaces. Descriptions are our words (`tui.i18n`), shown as written (Textual
reads them as markup); Textual's own keys' words are translated
(`Words.textual_keys`). Imported when the panel is first shown.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby
from operator import itemgetter

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import HelpPanel, Static

from tui.core.wrap import line_width, wrap
from tui.i18n import words


class Wrapped:
    """Styled runs that a Rich table lays out in a cell and `tui.core.wrap`
    breaks at the width the table gives."""

    def __init__(self, runs: list[tuple[str, Style]]) -> None:
        self.runs = runs

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = sum(cell_len(text) for text, _ in self.runs)
        narrowest = max((line_width(line) for line in wrap(self.runs, 1)), default=0)
        return Measurement(min(narrowest, widest), widest)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        for line in wrap(self.runs, options.max_width):
            for text, style in line:
                yield Segment(text, style)  # type: ignore[arg-type]  # the runs' styles are Styles
            yield Segment.line()


class BindingsTable(Static):
    """Textual's table of keys (its type name, so the panel's styles apply),
    drawn as Textual 8.2.8 draws it but for the description cells."""

    COMPONENT_CLASSES = {
        "bindings-table--key",
        "bindings-table--description",
        "bindings-table--divider",
        "bindings-table--header",
    }

    DEFAULT_CSS = """
    BindingsTable {
        width: auto;
        height: auto;
    }
    """

    def render(self) -> Table:
        key_style = self.get_component_rich_style("bindings-table--key")
        description_style = self.get_component_rich_style("bindings-table--description")
        header_style = self.get_component_rich_style("bindings-table--header")
        dim = description_style + Style(dim=True)
        divider_transparent = self.get_component_styles("bindings-table--divider").color.a == 0
        table = Table(
            padding=(0, 0),
            show_header=False,
            box=box.SIMPLE if divider_transparent else box.HORIZONTALS,
            border_style=self.get_component_rich_style("bindings-table--divider"),
        )
        table.add_column("", justify="right")
        ours = words().textual_keys
        get_key_display = self.app.get_key_display
        previous_namespace: object = None
        for namespace, grouped in groupby(self.screen.active_bindings.values(), key=itemgetter(0)):
            if namespace.BINDING_GROUP_TITLE:
                table.add_row("", Text(namespace.BINDING_GROUP_TITLE, end="", style=header_style))
            by_action: dict[str, list[Binding]] = {}
            for _, binding, _enabled, _tooltip in grouped:
                if not binding.system:
                    by_action.setdefault(binding.action, []).append(binding)
            for same in by_action.values():
                binding = same[0]
                keys = " ".join(dict.fromkeys(get_key_display(each) for each in same))
                description = ours.get(binding.description, binding.description)
                tooltip = ours.get(binding.tooltip, binding.tooltip)
                runs = [(description, description_style)]
                if tooltip:
                    runs += [(" ", description_style), (tooltip, dim)] if description else [(tooltip, dim)]
                table.add_row(Text(keys, style=key_style), Wrapped(runs))
            if namespace != previous_namespace:
                table.add_section()
            previous_namespace = namespace
        return table


class KeysPanel(HelpPanel):
    def compose(self) -> ComposeResult:
        yield BindingsTable(shrink=True, expand=False)
