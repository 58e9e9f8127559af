"""Command line: `prdigest-tui [PATH ...]` opens the reader; `check` lints files,
`schema` prints the entry format's JSON Schema, `export` prints the reading list,
`refs` where each ref is in your clone,
`locate` prints where things live.

Textual is imported only when the reader is opened, so `check`, `schema`,
`export` and `locate` stay quick (and work where Textual would not).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tui import __version__, i18n, runtime
from tui.i18n import words
from tui.output import guarded, out, warn

if TYPE_CHECKING:
    from tui.clone.resolve import ReviewRefs
    from tui.core.model import Library
    from tui.store.config import Config
    from tui.store.state import ReadState


def _language(arg: str | None) -> str:
    """`--lang`, else the locale (LC_ALL, LC_MESSAGES, LANG): zh* is Chinese."""
    return i18n.normalize(arg) or i18n.from_environment(os.environ)


def _add_paths(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="*", type=Path, metavar="PATH", help="entry files or folders (default as the reader)"
    )


def _warn_problems(library: Library) -> None:
    if problems := library.all_problems():
        warn(f"{len(problems)} problems in entry files (prdigest-tui check lists them)")


def _read_state(given: str | None, library: Library) -> ReadState:
    """The read marks, for a command that only reads them (never moved aside):
    `--state`, else the config's `state:` (see `_marks`)."""
    state = _marks(given)
    state.load(move_aside=False)
    state.adopt_title_marks(library.reviews)
    for warning in state.warnings:
        warn(warning)
    return state


def _add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help="language of the UI's own words: en or zh (default: from LC_ALL / LC_MESSAGES / LANG)",
    )


def _check(argv: Sequence[str]) -> int:
    from tui import check_formats  # not on the reader's way to its first frame

    parser = argparse.ArgumentParser(
        prog="prdigest-tui check",
        description="Validate entry files; print file:line:column: message for each problem.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument(
        "--format",
        choices=check_formats.FORMATS,
        default="text",
        help="text: file:line:column: message (default); github: workflow commands that "
        "annotate a pull request; json: a list of {file, line, column, severity, message}",
    )
    parser.add_argument(
        "--repo-dir",
        type=Path,
        metavar="DIR",
        help="also warn about refs that this clone does not have, or has more than one of",
    )
    args = parser.parse_args(argv)
    from tui.core.model import Library
    from tui.load.parse import load_paths

    result = load_paths(args.paths)
    library = Library.build(result.files, result.problems)
    problems = library.all_problems()
    warnings = []
    if args.repo_dir is not None:
        from tui import refs_report

        results, _ = _resolve_refs(library, args.repo_dir)
        for note in dict.fromkeys(r.note for r in results if r.clone is None and r.note):
            warn(note)  # PRs the clone lacks are warnings at their reviews
        warnings = refs_report.warnings(library, results)
    found = sorted([*problems, *warnings], key=lambda p: tuple(p.location))
    out(check_formats.render(args.format, [(problem.severity, problem) for problem in found]))
    summary = f"{len(library.reviews)} reviews in {len(result.files)} files, {len(problems)} problems"
    if args.repo_dir is not None:
        summary += f", {len(warnings)} warnings"
    warn(summary)
    return 1 if problems else 0


def _schema(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="prdigest-tui schema",
        description="Print the JSON Schema (draft 2020-12) of entry files, for editors and generators.",
    )
    parser.add_argument("--path", action="store_true", help="print where the schema file is installed")
    args = parser.parse_args(argv)
    from tui import schema

    if args.path:
        out(f"{schema.path()}\n")
    else:
        out(schema.text())
    return 0


def _resolve_refs(library: Library, repo_dir: Path | None) -> tuple[list[ReviewRefs], list[str]]:
    from tui import refs_report
    from tui.store import locations

    settings = _settings()
    for warning in settings.warnings:
        warn(warning)
    return refs_report.resolve_all(
        library.reviews,
        repo_dir=repo_dir,
        configured=settings.repos,
        cwd=Path.cwd(),
        config_path=locations.config_file(),
        cache_dir=locations.clone_cache_dir(),
    )


def _refs(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="prdigest-tui refs",
        description="Print every ref of every review with where it resolves in your clone. "
        "TSV columns: review, pr, ref, kind, status, path, line, candidates (space-separated).",
    )
    _add_paths(parser)
    parser.add_argument(
        "--repo-dir", type=Path, metavar="DIR", help="the clone to look in (default: config repos:, else .)"
    )
    parser.add_argument("--format", choices=("tsv", "json"), default="tsv", help="TSV (default) or JSON")
    args = parser.parse_args(argv)
    from tui import refs_report
    from tui.core.model import Library
    from tui.load.parse import load_paths
    from tui.store import locations

    result = load_paths(args.paths or locations.default_paths())
    library = Library.build(result.files, result.problems)
    results, notes = _resolve_refs(library, args.repo_dir)
    for note in notes:
        warn(note)
    out(refs_report.to_json(results) if args.format == "json" else refs_report.to_tsv(results))
    _warn_problems(library)
    return 0


def _export(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="prdigest-tui export",
        description="Print the reading list (titles, verdicts, tags, unchecked items, URLs) to stdout.",
    )
    _add_paths(parser)
    parser.add_argument("--unread", action="store_true", help="only reviews not read yet")
    parser.add_argument("--tag", metavar="T", help="only reviews with this tag")
    parser.add_argument("--format", choices=("md", "json"), default="md", help="Markdown (default) or JSON")
    parser.add_argument("--state", metavar="PATH", help=STATE_HELP)
    _add_lang(parser)
    args = parser.parse_args(argv)
    i18n.choose(_language(args.lang))

    from tui import export
    from tui.core.model import Library
    from tui.load.parse import load_paths
    from tui.store import locations

    result = load_paths(args.paths or locations.default_paths())
    library = Library.build(result.files, result.problems)
    tag = args.tag.removeprefix("#") if args.tag else None
    if tag is not None and tag not in library.tags:
        warn(words().no_such_tag.format(tag=tag, tags=", ".join(library.tags) or "-"))
        return 2
    state = _read_state(args.state, library)
    entries = export.reading_list(library, state, unread_only=args.unread, tag=tag)
    if args.format == "json":
        out(export.to_json(entries))
    else:
        out(export.to_markdown(entries, heading=", ".join(library.repos)))
    _warn_problems(library)
    return 0


def status_parser() -> argparse.ArgumentParser:
    """`status`'s arguments, for what `tui.status_command` does not read itself."""
    parser = argparse.ArgumentParser(
        prog="prdigest-tui status",
        description="Print one line for a status bar: unread and updated reviews, a view's count.",
    )
    _add_paths(parser)
    parser.add_argument(
        "--format",
        metavar="FORMAT",
        help="the line, with {unread} {total} {updated} {deep} {view:NAME} (default: '{unread} unread · {updated} updated')",
    )
    parser.add_argument("--state", metavar="PATH", help=STATE_HELP)
    _add_lang(parser)
    return parser


def _status(argv: Sequence[str]) -> int:
    from tui.status_command import main as status_main

    return status_main(argv)


STATE_HELP = "where read marks are kept: a file, or a folder shared between machines (ends in / or exists)"


def _marks(given: str | None, settings: Config | None = None) -> ReadState:
    """The marks `--state` names, else the config's `state:`, else the default
    state file. The config (`settings`, if read already) is read (and a shared
    folder's code imported) only when there is one."""
    from tui.store import locations
    from tui.store.marks_at import open_marks

    if given is None and (settings is not None or locations.config_file().exists()):
        given = (settings or _settings()).state
    return open_marks(given)


def _settings() -> Config:
    """config.yaml, its keymap unchecked (the App checks it against its bindings)."""
    from tui.store import config, locations

    return config.load(locations.config_file(), keys=False)


LOCATIONS = ("config", "state", "ui", "cache")


def _locate(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="prdigest-tui locate",
        description="Print where prdigest-tui keeps its config, state and cache.",
    )
    parser.add_argument("what", nargs="?", choices=LOCATIONS, help="print only this path")
    args = parser.parse_args(argv)
    from tui.core.text import escaped
    from tui.store import locations

    paths = {
        "config": locations.config_file(),
        "state": locations.state_file(),
        "ui": locations.ui_file(),
        "cache": locations.cache_file(),
    }
    if args.what:
        out(f"{escaped(str(paths[args.what]))}\n")
    else:
        out("".join(f"{name + ':':8}{escaped(str(path))}\n" for name, path in paths.items()))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = {
        "check": _check,
        "schema": _schema,
        "export": _export,
        "status": _status,
        "refs": _refs,
        "locate": _locate,
    }
    if argv[:1] and argv[0] in commands:
        command = commands[argv[0]]
        return guarded(f"prdigest-tui {argv[0]}", lambda: command(argv[1:]))
    from tui import read_ahead

    read_ahead.start()  # the reader's cold start: its module files asked for at once (not a command's)
    parser = argparse.ArgumentParser(
        prog="prdigest-tui",
        description="A terminal reader for PR review digests. "
        "Subcommands: check [--format text|github|json] [--repo-dir DIR] PATH..., schema [--path], "
        "export [--unread] [--tag T] [--format md|json], status [--format FORMAT], "
        "refs [--repo-dir DIR] [--format tsv|json], locate.",
    )
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="entry files or folders (default: ./entries if present, else the bundled digest)",
    )
    parser.add_argument("--state", metavar="PATH", help=STATE_HELP)
    parser.add_argument("--no-watch", action="store_true", help="do not reload when entry files change")
    parser.add_argument(
        "--repo-dir",
        type=Path,
        metavar="DIR",
        help="the clone refs open in (default: config repos:, else the current folder's)",
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="parse every file; do not use the parse cache"
    )
    _add_lang(parser)
    parser.add_argument("--version", action="version", version=f"prdigest-tui {__version__}")
    args = parser.parse_args(argv)
    # Before the app is built: every word it draws is read from `words` at draw time.
    i18n.choose(_language(args.lang))
    if (refused := _refused(argv, args.paths)) is not None:
        return refused

    from tui.load.cache import ParseCache
    from tui.load.first_frame import plan_first_part
    from tui.store import locations

    paths = args.paths or locations.default_paths()
    # Before Textual is imported: files the parse cache cannot answer are parsed
    # in a child process meanwhile (see loading.plan_first_part).
    cache = ParseCache(None if args.no_cache else locations.cache_file(), version_key=__version__)
    first = plan_first_part(paths, cache, fork=True)

    from tui.ui.app import PrDigestApp
    from tui.ui.patches import survives_hang_up

    settings = _settings() if locations.config_file().exists() else None  # parsed once, for both
    app = PrDigestApp(
        paths,
        _marks(args.state, settings),
        watch=not args.no_watch,
        config_path=locations.config_file(),
        ui_path=locations.ui_file(),
        first=first,
        config=settings,
        styles_path=locations.style_copy_file(),
        shipped_styles=locations.shipped_style_file(),
    )
    app.reader.repo_dir = args.repo_dir
    app.driver_class = survives_hang_up(app.driver_class)  # a closed terminal cannot hang the reader
    app.run()
    if app.reader.saver.report:  # after the terminal is restored, where it stays in view
        warn(f"prdigest-tui: {app.reader.saver.report}")
    return app.return_code or 0


def _refused(argv: Sequence[str], paths: Sequence[Path]) -> int | None:
    """2, said on stderr, when the reader cannot start: its first path looks like a
    mistyped command (a bare word naming nothing: `chek`), or there is no terminal
    to draw on or read keys from (a script, a pipe, a redirect; the reader would
    otherwise wait there for keys that never come). None when it can start."""
    first = str(paths[0]) if paths else ""
    if first and first in argv and "/" not in first and "." not in first and not os.path.lexists(first):
        warn(words().no_such_command.format(name=first))
        return 2
    for fd, stream in ((0, "standard input"), (1, "standard output")):
        if not os.isatty(fd):
            warn(
                words().needs_terminal.format(stream=stream if words().language == "en" else _STREAMS[stream])
            )
            return 2
    return None


_STREAMS = {"standard input": "标准输入", "standard output": "标准输出"}


def run() -> None:
    """The console script: every command runs with the process-wide tweaks of
    `tui.runtime` in place (the collector off until the reader has loaded its
    files; check and export end first), and ends with them undone; what is
    left is then frozen for the interpreter's end (`runtime.exiting`)."""
    with runtime.installed():
        code = main()
    runtime.exiting()
    sys.exit(code)
