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
    from tui.store.marks_copy import StatusMarks
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
    paths = args.paths or locations.default_paths()
    where = args.state if args.state is not None else settings.state
    counts = marks = None
    if not status.needs_bodies(settings.views, wanted):
        counts, marks = _lean_counts(paths, where, settings, wanted)
    if counts is None:
        from tui import __version__
        from tui.load.cache import ParseCache
        from tui.store.marks_copy import loaded

        state = loaded(marks) if marks is not None else _read_marks(where)
        cache = ParseCache(locations.cache_file(), version_key=__version__)
        counts = _library_counts(paths, cache, state, settings, wanted)
        told = state.warnings
    else:
        from tui.store.marks_copy import warnings

        told = warnings(marks)  # type: ignore[arg-type]
    for warning in told:
        warn(warning)
    out(status.render(fmt, counts) + "\n")
    return 0


def _marks(where: str | None) -> ReadState:
    from tui.store.marks_at import open_marks

    return open_marks(where)


def _read_marks(where: str | None) -> ReadState:
    state = _marks(where)
    state.load(move_aside=False)  # status only reads
    return state


def _default_format(lang: str | None) -> str:
    """The line in the user's language (the UI's words are read only for it:
    nothing else `status` prints is translated)."""
    from tui import i18n

    return i18n.choose(i18n.normalize(lang) or i18n.from_environment(os.environ)).status_line


def _lean_counts(
    paths: list[Path], where: str | None, settings: Settings, wanted: frozenset[str]
) -> tuple[Counts | None, StatusMarks | None]:
    """The count from `status`'s summary of the entry files and copy of the
    marks (each made again when out of date: from the parse cache's index and
    the state file), with no `Review` built and no body read but those of read
    reviews whose digest is not made yet or differs from the one the marks
    keep. None when the parse cache cannot answer for every file (and the
    marks, if they were opened)."""
    from tui import __version__, status
    from tui.load import status_summary
    from tui.load.discover import discover_names
    from tui.store import locations
    from tui.store.marks_copy import keep, loaded, open_status_marks

    made: list[ParseCache] = []

    def parse_cache() -> ParseCache:
        """The parse cache, for what the summary does not hold (its module imported only then)."""
        if not made:
            from tui.load.cache import ParseCache

            made.append(ParseCache(locations.cache_file(), version_key=__version__))
        return made[0]

    names, _ = discover_names(paths)
    stamps = status_summary.stamps_of(names)
    if stamps is None:
        return None, None
    key = status_summary.version_key(__version__)
    kept_at = locations.status_summary_file()
    summary = status_summary.kept(kept_at, key, names, stamps) or status_summary.from_cache(
        names, stamps, parse_cache(), key
    )
    if summary is None:
        return None, None
    if where is None:
        plain: Path | None = locations.state_file()
    else:
        place, folder = locations.state_place(where)
        plain = None if folder else place
    marks = open_status_marks(plain, locations.marks_copy_file(), lambda: _marks(where))
    keys = summary.keys
    if marks.title_marks:  # `Marks.adopt_title_marks`, on the copy
        titles = summary.titles()
        if titles is None:
            return None, marks
        keys = list(keys)
        known = marks.known
        for row, old in titles.items():
            if keys[row] not in known and old in known:
                keys[row] = old
    read = marks.read
    is_read = [key in read for key in keys] if read else [False] * len(keys)
    news = marks.news
    candidates = [row for row, key in enumerate(keys) if key in news] if news else []
    if not status_summary.fill_digests(summary, candidates, parse_cache):
        return None, marks
    updated = []
    for row in candidates:
        now, mark_key = summary.digests[row], keys[row]
        if now == news[mark_key]:
            continue  # the version the reader saw
        verdict = marks.verdicts.get(mark_key)
        if verdict is None or verdict[0] != now:
            from tui.core.marks import changes

            review = status_summary.review_at(summary, row, parse_cache())
            if review is None:
                return None, marks
            full = loaded(marks)
            full.adopt_title_marks([review])
            verdict = marks.verdicts[mark_key] = (now, changes(full, review) is not None)
            marks.dirty = True
        if verdict[1]:
            updated.append(row)
    try:
        counts = status.count_columns(
            summary, is_read, updated, views=settings.views, mute=settings.mute, wanted_views=wanted
        )
    except (TypeError, ValueError):
        return None, marks
    status_summary.keep(kept_at, summary)
    keep(marks)
    return counts, marks


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
