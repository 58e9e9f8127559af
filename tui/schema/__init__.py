"""The JSON Schema of the entry format, shipped as a static file.

Editors that use yaml-language-server read it from `path()` (a
`# yaml-language-server: $schema=<path>` line in an entry file), and
`prdigest-tui schema` prints it. It is written by hand beside
docs/entry-format.md; tests/test_schema.py keeps its limits and enums equal
to the parser's constants, and runs files through it and `check` alike.
"""

from __future__ import annotations

from pathlib import Path

FILE_NAME = "entry.schema.json"


def path() -> Path:
    """Where the schema is installed: a real file beside this module (the wheel
    ships it as package data), so an editor can be pointed at it."""
    return Path(__file__).resolve().with_name(FILE_NAME)


def text() -> str:
    return path().read_text(encoding="utf-8")
