"""Command palette providers: jump to a review by title, to a tag, or run an action.

Review titles and tags are entry text: they are shown as `Content` built from
the plain string, never as markup (a title may hold "[/]"), and the help line
(which the palette parses as markup) holds only the UI's own words.

Matching is linear per candidate: a substring match, else the query's letters
in order (first occurrences). Textual's own fuzzy matcher tries every way the
letters can fall, which is too slow for ten thousand long titles.
"""

from __future__ import annotations

import heapq
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, cast

from textual.binding import Binding, BindingType
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import FuzzySearch

from tui.core.filters import VIEW_PREFIX, tag_label
from tui.core.model import Review
from tui.i18n import words
from tui.ui.presenting import TagCount

MAX_HITS = 50
"""Hits per provider and query: the palette is for jumping, not for browsing."""


@dataclass(frozen=True)
class PaletteAction:
    title: str
    help: str
    run: Callable[[], object]


@dataclass(frozen=True)
class PaletteTag:
    tag: str
    label: str
    unread: int
    total: int


class PaletteHost(Protocol):
    """What the providers ask of the app."""

    def palette_reviews(self) -> Sequence[Review]: ...
    def palette_tags(self) -> Sequence[PaletteTag]: ...
    def palette_actions(self) -> Sequence[PaletteAction]: ...
    def jump_to_review(self, key: str) -> None: ...
    def jump_to_tag(self, tag: str) -> None: ...


def palette_tags(counts: Iterable[TagCount]) -> list[PaletteTag]:
    """The tag list's lines, as the palette names them; views have their own
    provider (`tui.ui.view_commands`)."""
    return [
        PaletteTag(c.tag, tag_label(c.tag), c.unread, c.total)
        for c in counts
        if not c.tag.startswith(VIEW_PREFIX)
    ]


def palette_actions(
    bindings: Iterable[BindingType],
    key_for: Callable[[str], str],
    run_action: Callable[[str], Awaitable[object]],
) -> list[PaletteAction]:
    """Every app action with a key, by its name in the UI's language, its key shown after its help."""
    out = []
    for binding in bindings:
        if not isinstance(binding, Binding) or binding.id in (None, "palette", "back", "quit"):
            continue
        description, tooltip = words().binding_text(binding.id, binding.description, binding.tooltip)
        key = key_for(binding.id) if binding.id else ""
        help_text = f"{tooltip} ({key})" if key else tooltip
        out.append(PaletteAction(description, help_text, _runner(run_action, binding.action)))
    return out


def _runner(run_action: Callable[[str], Awaitable[object]], action: str) -> Callable[[], Awaitable[None]]:
    async def run() -> None:
        await run_action(action)

    return run


_SCORER = FuzzySearch()


def match(query: str, candidate: str) -> tuple[float, list[int]]:
    """Score and matched offsets of `query` in `candidate`, case-insensitive; (0, []) if none."""
    query = query.lower().strip()
    if not query:
        return 0.0, []
    lowered = candidate.lower()
    if len(lowered) != len(candidate):
        lowered = candidate  # a length-changing lowercase: offsets must stay true
    start = lowered.find(query)
    if start >= 0:
        offsets = list(range(start, start + len(query)))
        return _SCORER.score(lowered, offsets) * (2.0 if lowered == query else 1.5), offsets
    offsets = []
    position = 0
    for letter in query:
        if letter.isspace():
            continue
        found = lowered.find(letter, position)
        if found < 0:
            return 0.0, []
        offsets.append(found)
        position = found + 1
    if not offsets:
        return 0.0, []
    return _SCORER.score(lowered, offsets), offsets


def highlighted(prefix: str, text: str, offsets: Sequence[int], style: str) -> Content:
    """`prefix` dimmed, then `text` as plain content with the offsets styled."""
    content = Content(text)
    for offset in offsets:
        if 0 <= offset < len(text) and not text[offset].isspace():
            content = content.stylize(style, offset, offset + 1)
    return Content.assemble((prefix, "$text-muted"), content)


def _host(provider: Provider) -> PaletteHost:
    return cast(PaletteHost, provider.app)  # the providers are only registered by PrDigestApp


MATCH_STYLE = "bold reverse"


class ReviewCommands(Provider):
    """Every review, by title."""

    async def search(self, query: str) -> Hits:
        host = _host(self)
        scored = []
        for n, review in enumerate(host.palette_reviews()):
            score, offsets = match(query, review.title)
            if score > 0:
                scored.append((score, -n, review, offsets))
        for score, _, review, offsets in heapq.nlargest(MAX_HITS, scored, key=lambda s: (s[0], s[1])):
            yield Hit(
                score,
                highlighted(f"{words().palette_review}: ", review.title, offsets, MATCH_STYLE),
                _jump(host.jump_to_review, review.key),
                text=review.title,
                help=f"{words().palette_review_help} · {words().verdict_words.get(review.verdict, '')}",
            )


class TagCommands(Provider):
    """Every tag, and All and Unread."""

    async def search(self, query: str) -> Hits:
        host = _host(self)
        for tag in host.palette_tags():
            score, offsets = match(query, tag.label)
            if score > 0:
                yield Hit(
                    score,
                    highlighted(f"{words().palette_tag}: ", tag.label, offsets, MATCH_STYLE),
                    _jump(host.jump_to_tag, tag.tag),
                    text=tag.label,
                    help=words().palette_tag_help.format(unread=tag.unread, total=tag.total),
                )


class ActionCommands(Provider):
    """Every action the app's keys run, by its name in the UI's language."""

    async def discover(self) -> Hits:
        for action in _host(self).palette_actions():
            yield DiscoveryHit(Content(action.title), action.run, text=action.title, help=action.help)

    async def search(self, query: str) -> Hits:
        for action in _host(self).palette_actions():
            score, offsets = match(query, action.title)
            if score > 0:
                yield Hit(
                    score,
                    highlighted("", action.title, offsets, MATCH_STYLE),
                    action.run,
                    text=action.title,
                    help=action.help,
                )


def _jump(target: Callable[[str], None], value: str) -> Callable[[], None]:
    return lambda: target(value)
