"""Command line: `prdigest-tui [PATH ...]` opens the reader; `check` lints files,
`export` prints the reading list, `locate` prints where things live.

Textual is imported only when the reader is opened, so `check`, `export` and
`locate` stay quick (and work where Textual would not).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from tui import __version__, i18n, runtime
from tui.i18n import words


def _language(arg: str | None) -> str:
    """`--lang`, else the locale (LC_ALL, LC_MESSAGES, LANG): zh* is Chinese."""
    return i18n.normalize(arg) or i18n.from_environment(os.environ)


def _add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help="language of the UI's own words: en or zh (default: from LC_ALL / LC_MESSAGES / LANG)",
    )


def _check(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="prdigest-tui check",
        description="Validate entry files; print file:line:column: message for each problem.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    args = parser.parse_args(argv)
    from tui.core.model import Library
    from tui.load.parse import load_paths

    result = load_paths(args.paths)
    library = Library.build(result.files, result.problems)
    problems = library.all_problems()
    for problem in problems:
        print(problem)
    files = len(result.files)
    print(
        f"{len(library.reviews)} reviews in {files} files, {len(problems)} problems",
        file=sys.stderr,
    )
    return 1 if problems else 0


def _export(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="prdigest-tui export",
        description="Print the reading list (titles, verdicts, tags, unchecked items, URLs) to stdout.",
    )
    parser.add_argument(
        "paths", nargs="*", type=Path, metavar="PATH", help="entry files or folders (default as the reader)"
    )
    parser.add_argument("--unread", action="store_true", help="only reviews not read yet")
    parser.add_argument("--tag", metavar="T", help="only reviews with this tag")
    parser.add_argument("--format", choices=("md", "json"), default="md", help="Markdown (default) or JSON")
    parser.add_argument("--state", type=Path, metavar="FILE", help="where read marks are kept")
    _add_lang(parser)
    args = parser.parse_args(argv)
    i18n.choose(_language(args.lang))

    from tui import export
    from tui.core.model import Library
    from tui.load.parse import load_paths
    from tui.store import locations
    from tui.store.state import ReadState

    result = load_paths(args.paths or locations.default_paths())
    library = Library.build(result.files, result.problems)
    tag = args.tag.removeprefix("#") if args.tag else None
    if tag is not None and tag not in library.tags:
        print(words().no_such_tag.format(tag=tag, tags=", ".join(library.tags) or "-"), file=sys.stderr)
        return 2
    state = ReadState(args.state or locations.state_file())
    state.load()
    for warning in state.warnings:
        print(warning, file=sys.stderr)
    entries = export.reading_list(library, state, unread_only=args.unread, tag=tag)
    if args.format == "json":
        sys.stdout.write(export.to_json(entries))
    else:
        sys.stdout.write(export.to_markdown(entries, heading=", ".join(library.repos)))
    if problems := library.all_problems():
        print(f"{len(problems)} problems in entry files (prdigest-tui check lists them)", file=sys.stderr)
    return 0


LOCATIONS = ("config", "state", "ui", "cache")


def _locate(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="prdigest-tui locate",
        description="Print where prdigest-tui keeps its config, state and cache.",
    )
    parser.add_argument("what", nargs="?", choices=LOCATIONS, help="print only this path")
    args = parser.parse_args(argv)
    from tui.store import locations

    paths = {
        "config": locations.config_file(),
        "state": locations.state_file(),
        "ui": locations.ui_file(),
        "cache": locations.cache_file(),
    }
    if args.what:
        print(paths[args.what])
    else:
        for name, path in paths.items():
            print(f"{name + ':':8}{path}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["check"]:
        return _check(argv[1:])
    if argv[:1] == ["export"]:
        return _export(argv[1:])
    if argv[:1] == ["locate"]:
        return _locate(argv[1:])
    parser = argparse.ArgumentParser(
        prog="prdigest-tui",
        description="A terminal reader for PR review digests. "
        "Subcommands: check PATH..., export [--unread] [--tag T] [--format md|json], locate.",
    )
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="entry files or folders (default: ./entries if present, else the bundled digest)",
    )
    parser.add_argument("--state", type=Path, metavar="FILE", help="where read marks are kept")
    parser.add_argument("--no-watch", action="store_true", help="do not reload when entry files change")
    parser.add_argument(
        "--no-cache", action="store_true", help="parse every file; do not use the parse cache"
    )
    _add_lang(parser)
    parser.add_argument("--version", action="version", version=f"prdigest-tui {__version__}")
    args = parser.parse_args(argv)
    # Before the app is built: every word it draws is read from `words` at draw time.
    i18n.choose(_language(args.lang))

    from tui.load.cache import ParseCache
    from tui.load.first_frame import plan_first_part
    from tui.store import locations

    paths = args.paths or locations.default_paths()
    # Before Textual is imported: files the parse cache cannot answer are parsed
    # in a child process meanwhile (see loading.plan_first_part).
    cache = ParseCache(None if args.no_cache else locations.cache_file(), version_key=__version__)
    first = plan_first_part(paths, cache, fork=True)

    from tui.ui.app import PrDigestApp

    app = PrDigestApp(
        paths,
        args.state or locations.state_file(),
        watch=not args.no_watch,
        config_path=locations.config_file(),
        ui_path=locations.ui_file(),
        first=first,
    )
    app.run()
    return app.return_code or 0


def run() -> None:
    """The console script: every command runs with the process-wide tweaks of
    `tui.runtime` in place (the collector off until the reader has loaded its
    files; check and export end first), and ends with them undone."""
    with runtime.installed():
        code = main()
    sys.exit(code)
