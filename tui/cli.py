"""Command line: `prdigest-tui [PATH ...]` opens the reader, `check` lints files.

Textual is imported only when the reader is opened, so `check` stays quick in
authors' CI.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__


def _check(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="prdigest-tui check",
        description="Validate entry files; print file:line:column: message for each problem.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    args = parser.parse_args(argv)
    from .loader import load_paths
    from .model import Library

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


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["check"]:
        return _check(argv[1:])
    parser = argparse.ArgumentParser(
        prog="prdigest-tui",
        description="A terminal reader for PR review digests. Subcommand: check PATH...",
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
    parser.add_argument("--version", action="version", version=f"prdigest-tui {__version__}")
    args = parser.parse_args(argv)

    from . import locations
    from .app import PrDigestApp

    paths = args.paths or locations.default_paths()
    app = PrDigestApp(
        paths,
        args.state or locations.state_file(),
        watch=not args.no_watch,
        cache_path=None if args.no_cache else locations.cache_file(),
    )
    app.run()
    return app.return_code or 0


def run() -> None:
    sys.exit(main())
