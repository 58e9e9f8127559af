"""`prdigest-tui status`: one line for a status bar or a prompt, without Textual.

    prdigest-tui status                       # 3 unread · 1 updated
    prdigest-tui status --format '{deep}📖 {view:rocm-deep}'

The fields: `{unread}`, `{total}`, `{updated}` (reviews changed since they were
read), `{deep}` (unread deep reads) and `{view:NAME}` (a view's unread count).
Reviews with a muted tag count nowhere, as in the reader's All and Unread.
A format is not Python's `str.format`: only these fields are filled in (`{{` and
`}}` are braces), so a format from a shell's config can reach no attribute.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # at run time only where views are counted: `status` without a config has none
    from tui.core.views import R, View
    from tui.load.status_summary import Summary as Columns

FIELD = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
NAMES = ("unread", "total", "updated", "deep")


class FormatError(ValueError):
    """A format naming a field that does not exist (the message says which)."""


class Counts(NamedTuple):
    """(A NamedTuple: importing `dataclasses` costs `status` a few ms, see bench/README.md.)"""

    unread: int
    total: int
    updated: int
    deep: int
    views: dict[str, int]


def needs_bodies(views: Mapping[str, View], wanted: frozenset[str]) -> bool:
    """Does counting the wanted views read review bodies (a search text) or
    checklists (`unchecked`)? If not, the parse cache's index is enough."""
    return any(view.search or view.unchecked for name, view in views.items() if name in wanted)


def count(
    reviews: Sequence[R],
    *,
    is_read: Callable[[str], bool],
    updated: Callable[[R], bool],
    views: Mapping[str, View],
    mute: frozenset[str] = frozenset(),
    wanted_views: frozenset[str] = frozenset(),
    has_unchecked: Callable[[R], bool] | None = None,
    matches: Callable[[R, tuple[str, ...]], bool] | None = None,
) -> Counts:
    """The numbers a status line may show. Only the views in `wanted_views`
    are counted; `has_unchecked` and `matches` are needed only for views with
    `unchecked` or a search text (`needs_bodies`)."""
    from tui.core.views import unmuted

    shown = unmuted(reviews, mute)
    unread = [review for review in shown if not is_read(review.key)]
    view_counts: dict[str, int] = {}
    for name, view in views.items():
        if name not in wanted_views:
            continue
        query = view.terms
        if (view.unchecked and has_unchecked is None) or (query and matches is None):
            raise ValueError(f"view {name!r} reads review bodies")
        listed = [review for review in unread if view.admits(review)]
        if view.unchecked and has_unchecked is not None:
            listed = [review for review in listed if has_unchecked(review)]
        if query and matches is not None:
            listed = [review for review in listed if matches(review, query)]
        view_counts[name] = len(listed)
    return Counts(
        unread=len(unread),
        total=len(shown),
        updated=sum(1 for review in shown if updated(review)),
        deep=sum(1 for review in unread if review.verdict == "deep"),
        views=view_counts,
    )


def count_columns(
    summary: Columns,
    read: Sequence[bool],
    updated: Iterable[int],
    *,
    views: Mapping[str, View],
    mute: frozenset[str] = frozenset(),
    wanted_views: frozenset[str] = frozenset(),
) -> Counts:
    """`count`, of reviews given as columns (`tui.load.status_summary.Summary`):
    review `i` is read if `read[i]`; `updated` the reviews updated since read.
    Tags are bits of one int a review, so a view or a mute is a mask (and what
    `View.admits` says is said with ints). No view may read bodies."""
    bit = {tag: 1 << number for number, tag in enumerate(summary.tags)}
    tags_of, verdict_of, repo_of = summary.tags_of, summary.verdict_of, summary.repo_of
    muted = sum(bit.get(tag, 0) for tag in mute)
    if muted:
        shown = [not tags & muted for tags in tags_of]
        unread = [i for i, is_read in enumerate(read) if not is_read and shown[i]]
        total = sum(shown)
        updated = [i for i in updated if shown[i]]
    else:
        unread = [i for i, is_read in enumerate(read) if not is_read]
        total = len(read)
    deep = summary.verdicts.index("deep") if "deep" in summary.verdicts else -1
    view_counts: dict[str, int] = {}
    for name, view in views.items():
        if name not in wanted_views:
            continue
        if view.unchecked or view.terms:
            raise ValueError(f"view {name!r} reads review bodies")
        listed = unread
        if view.tags:
            tags = sum(bit.get(tag, 0) for tag in view.tags)
            listed = [i for i in listed if tags_of[i] & tags]
        if view.verdicts:
            verdicts = {n for n, verdict in enumerate(summary.verdicts) if verdict in view.verdicts}
            listed = [i for i in listed if verdict_of[i] in verdicts]
        if view.repos:
            repos = {n for n, repo in enumerate(summary.repos) if repo in view.repos}
            listed = [i for i in listed if repo_of[i] in repos]
        view_counts[name] = len(listed)
    return Counts(
        unread=len(unread),
        total=total,
        updated=sum(1 for _ in updated),
        deep=sum(1 for i in unread if verdict_of[i] == deep),
        views=view_counts,
    )


def fields(fmt: str) -> list[str]:
    """The fields a format names, in order; FormatError for an unknown one or a lone brace."""
    out = []
    for match in FIELD.finditer(fmt):
        token = match.group(0)
        if token in ("{{", "}}"):
            continue
        name = match.group(1)
        if name is None:
            raise FormatError(f"a lone {token!r}: write {token * 2!r} for a brace")
        if name not in NAMES and not name.startswith("view:"):
            known = ", ".join("{" + n + "}" for n in (*NAMES, "view:NAME"))
            raise FormatError(f"unknown field {{{name}}} (known: {known})")
        out.append(name)
    return out


def view_names(fmt: str) -> frozenset[str]:
    return frozenset(name.removeprefix("view:") for name in fields(fmt) if name.startswith("view:"))


def render(fmt: str, counts: Counts) -> str:
    """`fmt` with its fields filled in; a view not configured is an error (checked by the caller)."""
    fields(fmt)  # raises for what render below would not understand

    def value(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        name = match.group(1)
        if name.startswith("view:"):
            return str(counts.views[name.removeprefix("view:")])
        return str(getattr(counts, name))

    return FIELD.sub(value, fmt)
