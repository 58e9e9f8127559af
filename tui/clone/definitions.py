"""Definitions in a clone: what `git grep` finds for symbol names, and which of
them a ref names.

The patterns for the lines that may define a name (`def`, `class`, an
assignment), the parsing of `git grep`'s output, the class a member is in (read
from the file's lines, in the work tree or at a commit), and the choice among
definitions. Apart from the Resolver (`tui.clone.resolve`), which runs git and
settles candidates: this is the Python-source matching, with no git call but
reading a file at a commit (`tui.clone.content.blobs`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from tui.clone import git
from tui.clone.content import blobs
from tui.clone.find import Clone
from tui.core.refs import Ref

_DEF_LINE = re.compile(r"^(\s*)(?:async\s+)?(def|class)\s+([A-Za-z_][A-Za-z0-9_]*)")
_ASSIGN_LINE = re.compile(r"^(\s*)(?:self\.)?([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=]*)?=(?!=)")


class Definition(NamedTuple):
    path: str
    line: int
    kind: str  # def, class, assign
    indent: int


def grep_patterns(names: Sequence[str], perl: bool) -> list[str]:
    """Patterns for the lines that may define `names` (identifiers only).

    With PCRE, the definitions themselves; without (a git built without it),
    the names as whole words, the lines then sorted out by `parse_grep`:
    glibc's extended expressions with this alternation are many times slower
    than either (bench/README.md).
    """
    alternation = "|".join(re.escape(name) for name in names)
    if perl:
        return [
            rf"^\s*(?:async\s+)?(?:def|class)\s+(?:{alternation})\b",
            rf"^\s*(?:self\.)?(?:{alternation})\s*(?::[^=]*)?=(?!=)",
        ]
    return list(names)


def parse_grep(output: bytes, names: set[str], strip_prefix: str = "") -> dict[str, list[Definition]]:
    """`git grep --null -n` lines as definitions by name."""
    found: dict[str, list[Definition]] = {}
    for raw in output.split(b"\n"):
        if not raw:
            continue
        parts = raw.split(b"\0", 2)
        if len(parts) != 3:
            continue
        path = git.text(parts[0]).removeprefix(strip_prefix)
        try:
            line = int(parts[1])
        except ValueError:
            continue
        content = git.text(parts[2])
        if (match := _DEF_LINE.match(content)) and match.group(3) in names:
            definition = Definition(path, line, match.group(2), len(match.group(1).expandtabs()))
            found.setdefault(match.group(3), []).append(definition)
        elif (
            (match := _ASSIGN_LINE.match(content))
            and match.group(2) in names
            and not content.rstrip().endswith(",")  # a keyword argument or a parameter's default
        ):
            definition = Definition(path, line, "assign", len(match.group(1).expandtabs()))
            found.setdefault(match.group(2), []).append(definition)
    return found


def owner_at(lines: Sequence[str], line: int) -> str | None:
    """The class a definition at `line` (1-based) is a member of: the nearest
    `class` above it at a smaller indent, through the `def` an `self.x =` is in."""
    if not 0 < line <= len(lines):
        return None
    text = lines[line - 1]
    indent = len(text) - len(text.lstrip())
    if indent == 0:
        return None
    for previous in reversed(lines[: line - 1]):
        stripped = previous.lstrip()
        if not stripped or stripped.startswith(("#", "@", ")", "]", '"', "'")):
            continue
        depth = len(previous) - len(stripped)
        if depth >= indent:
            continue
        match = _DEF_LINE.match(previous)
        if match is None:
            if depth == 0:
                return None
            continue  # a line of a wrapped expression or statement
        if match.group(2) == "class":
            return match.group(3)
        indent = depth  # a def: look for the class around it
        if depth == 0:
            return None
    return None


def symbol_definitions(
    ref: Ref, definitions: dict[str, list[Definition]], commit: str | None, lines_of: FileLines
) -> list[Definition]:
    """The definitions a symbol ref names, in path order: a `Class.member` only
    inside its class (else the class itself), and of those only the best kind
    found (a def or class, else a module-level assignment, else any)."""
    assert ref.name is not None
    found = definitions.get(ref.name, [])
    if ref.owner is not None:
        classes = {d.path for d in definitions.get(ref.owner, []) if d.kind == "class"}
        members = [
            d
            for d in found
            if d.path in classes and owner_at(lines_of.get(d.path, commit), d.line) == ref.owner
        ]
        if not members:  # inherited, or set somewhere we cannot see: the class itself
            members = [d for d in definitions.get(ref.owner, []) if d.kind == "class"]
        found = members
    # A def or class outranks an assignment; a module-level assignment a nested one.
    for better in (
        lambda d: d.kind in ("def", "class"),
        lambda d: d.kind == "assign" and d.indent == 0,
    ):
        best = [d for d in found if better(d)]
        if best:
            found = best
            break
    return sorted(found)


class FileLines:
    """Files' lines, read once each: from the work tree, or from a commit
    (`prefetch` reads all the files a review needs with one `git cat-file --batch`)."""

    def __init__(self, clone: Clone) -> None:
        self.clone = clone
        self._lines: dict[tuple[str | None, str], list[str]] = {}

    def prefetch(self, commit: str, paths: Sequence[str]) -> None:
        for path, text in blobs(self.clone, commit, paths).items():
            self._lines[(commit, path)] = text.splitlines()

    def get(self, path: str, commit: str | None) -> list[str]:
        key = (commit, path)
        if key not in self._lines:
            text = ""
            if commit is None:
                target = self.clone.root / path
                if self.clone.contains(target):
                    try:
                        text = target.read_text(encoding="utf-8", errors="replace")
                    except OSError:
                        text = ""
            else:
                text = blobs(self.clone, commit, [path]).get(path, "")
            self._lines[key] = text.splitlines()
        return self._lines[key]
