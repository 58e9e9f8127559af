"""`prdigest-tui status` as a command: its arguments, the config, the marks and
the count, importing only what a status bar's call needs (`tui.entry` starts
it without `tui.cli`, argparse or YAML when the parse cache is warm and there
is no config file).

Arguments in the plain forms (`PATH ...`, `--format F`, `--format=F`,
`--state S`, `--lang L`) are read here; anything else (`--help`, a mistyped or
abbreviated option, paths on both sides of an option) goes to argparse
(`tui.cli.status_parser`), which answers exactly as it always has.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from tui.output import guarded, out, warn

if TYPE_CHECKING:
    from tui.load.cache import ParseCache
    from tui.status import Counts
    from tui.store.config_cache import Settings
    from tui.store.state import ReadState

OPTIONS = ("--format", "--state", "--lang")


class Arguments(NamedTuple):
    paths: list[Path]
    format: str | None
    state: str | None
    lang: str | None


def plain_arguments(argv: Sequence[str]) -> Arguments | None:
    """What argparse would make of `argv`, when it is in a plain form; None
    when it is not (argparse then reads it, errors and `--help` included)."""
    values: dict[str, str | None] = dict.fromkeys(OPTIONS)
    paths: list[str] = []
    runs = 0  # runs of paths between options: argparse takes only one
    after_path = False
    i = 0
    while i < len(argv):
        arg = argv[i]
        if not arg.startswith("-"):
            if not after_path:
                runs += 1
            after_path = True
            paths.append(arg)
            i += 1
            continue
        after_path = False
        name, equals, value = arg.partition("=")
        if name not in OPTIONS:
            return None
        if not equals:
            if i + 1 == len(argv) or argv[i + 1].startswith("-"):
                return None
            value = argv[i + 1]
            i += 1
        values[name] = value
        i += 1
    if runs > 1:
        return None
    return Arguments([Path(p) for p in paths], values["--format"], values["--state"], values["--lang"])


def main(argv: Sequence[str]) -> int:
    args = plain_arguments(argv)
    if args is None:
        from tui.cli import status_parser

        parsed = status_parser().parse_args(argv)
        args = Arguments(parsed.paths, parsed.format, parsed.state, parsed.lang)
    from tui import status
    from tui.load.cache import ParseCache
    from tui.store import locations

    fmt = args.format if args.format is not None else _default_format(args.lang)
    try:
        wanted = status.view_names(fmt)
    except status.FormatError as exc:
        warn(f"prdigest-tui status: --format: {exc}")
        return 2
    from tui.store.config_cache import settings as read_settings

    settings = read_settings(locations.config_file(), locations.config_copy_file())
    if missing := sorted(wanted - settings.views.keys()):
        known = ", ".join(settings.views) or "none configured"
        warn(f"prdigest-tui status: no view named {', '.join(missing)} (views: {known})")
        return 2
    from tui import __version__
    from tui.store.marks_at import open_marks

    cache = ParseCache(locations.cache_file(), version_key=__version__)
    paths = args.paths or locations.default_paths()
    state = open_marks(args.state if args.state is not None else settings.state)
    state.load(move_aside=False)  # status only reads
    for warning in state.warnings:
        warn(warning)
    counts = None
    if not status.needs_bodies(settings.views, wanted):
        counts = _lean_counts(paths, cache, state, settings, wanted)
    if counts is None:
        counts = _library_counts(paths, cache, state, settings, wanted)
    out(status.render(fmt, counts) + "\n")
    return 0


def _default_format(lang: str | None) -> str:
    """The line in the user's language (the UI's words are read only for it:
    nothing else `status` prints is translated)."""
    from tui import i18n

    return i18n.choose(i18n.normalize(lang) or i18n.from_environment(os.environ)).status_line


def _lean_counts(
    paths: list[Path], cache: ParseCache, state: ReadState, settings: Settings, wanted: frozenset[str]
) -> Counts | None:
    """The count from the parse cache's index alone: no `Review` built, no body
    read but those of read reviews whose fingerprint digest differs from the
    one the marks keep. None when the cache cannot answer for every file."""
    from tui import status
    from tui.load.rows import cached_rows, changed_since_seen

    rows = cached_rows(paths, cache)
    if rows is None:
        return None
    state.adopt_title_marks(rows)
    marked = state.reviews  # most reviews have no marks: no call for them
    try:
        return status.count(
            rows,
            is_read=state.is_read,
            updated=lambda row: row.key in marked and changed_since_seen(state, row),
            views=settings.views,
            mute=settings.mute,
            wanted_views=wanted,
        )
    except (TypeError, ValueError):  # an entry of the cache is not what it writes
        return None


def _library_counts(
    paths: list[Path], cache: ParseCache, state: ReadState, settings: Settings, wanted: frozenset[str]
) -> Counts:
    """`status` from the whole library: a file the cache cannot answer (parsed
    here, and the cache saved), or a view that reads bodies."""
    from tui import status
    from tui.core.filters import has_unchecked
    from tui.core.marks import changes, checked_items
    from tui.core.search import SearchIndex
    from tui.load.library import load_library

    library = load_library(paths, cache)
    state.adopt_title_marks(library.reviews)
    index = SearchIndex()
    return status.count(
        library.reviews,
        is_read=state.is_read,
        updated=lambda review: changes(state, review) is not None,
        views=settings.views,
        mute=settings.mute,
        wanted_views=wanted,
        has_unchecked=lambda review: has_unchecked(review, checked_items(state, review)),
        matches=index.matches,
    )


def run() -> None:
    """`prdigest-tui status ...` from `tui.entry`: a short-lived process that
    builds many objects and little garbage, so without the collector; and it
    ends without the interpreter's teardown, which would free the rows and the
    cache's index object by object (~4 ms of a call, bench/README.md). Nothing
    is left to do then: every line was flushed as it was written, and the
    files were only read."""
    import gc

    gc.disable()
    code = guarded("prdigest-tui status", lambda: main(sys.argv[2:]))
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # what `out` could not write it said already
            stream.flush()
    os._exit(code)
