"""Command palette providers of the reader's screen: choose a saved view, and
mute or unmute a tag until the reader quits.

View names and tags come from the user's files: shown as `Content` from the
plain string, never as markup; the help line holds only the UI's own words
and numbers.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import Hit, Hits, Provider

from tui.core.filters import VIEW_PREFIX, is_real_tag, tag_label
from tui.i18n import words
from tui.ui.commands import MATCH_STYLE, highlighted, match

if TYPE_CHECKING:
    from tui.ui.view_keys import ViewKeys


MUTE_WEIGHT = 0.5
"""A tag's name typed is more often a jump to it than a mute: its hit comes first."""


def _reader(provider: Provider) -> ViewKeys:
    return cast("ViewKeys", provider.screen)  # registered only by the reader's screen


class ViewCommands(Provider):
    """Every saved view, with its counts."""

    async def search(self, query: str) -> Hits:
        reader = _reader(self)
        for row in reader.sidebar_rows():
            if not row.tag.startswith(VIEW_PREFIX):
                continue
            name = row.tag.removeprefix(VIEW_PREFIX)
            score, offsets = match(query, name)
            if score > 0:
                yield Hit(
                    score,
                    highlighted(f"{words().palette_view}: ", name, offsets, MATCH_STYLE),
                    partial(reader.choose_view, name),
                    text=name,
                    help=words().palette_view_help.format(unread=row.unread, total=row.total),
                )


class MuteCommands(Provider):
    """Mute each tag not muted, unmute each muted one."""

    async def search(self, query: str) -> Hits:
        reader = _reader(self)
        for tag in reader.library.tags:
            if not is_real_tag(tag):
                continue
            muted = tag in reader.mute
            verb = words().palette_unmute if muted else words().palette_mute
            label = tag_label(tag)
            score, offsets = match(query, f"{verb} {label}")
            if score > 0:
                yield Hit(
                    score * MUTE_WEIGHT,
                    highlighted("", f"{verb} {label}", offsets, MATCH_STYLE),
                    partial(reader.set_muted, tag, not muted),
                    text=f"{verb} {label}",
                    help=words().palette_unmute_help if muted else words().palette_mute_help,
                )
