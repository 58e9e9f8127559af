"""How `prdigest-tui check` prints problems: `text` (file:line:column: message),
`github` (workflow commands, so a pull request shows each problem at its line)
or `json` (a list of {"file", "line", "column", "severity", "message"}).

Paths and messages come from other people's files. A problem's message is
one line with no control characters (`safe_problem`), and its file is the
path as `Location` formats it; each format then escapes what it must, and
escapes any control character left rather than print it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from tui.core.model import Location, Problem

FORMATS = ("text", "github", "json")
SEVERITIES = ("error", "warning")

# What a terminal or log viewer must not receive raw: C0 (tab and newline
# included: each problem is one line), DEL, C1, line and paragraph separators,
# bidi overrides and isolates.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# Of those, what json.dumps leaves raw in a string (it escapes C0 itself).
_UNSAFE_IN_JSON = re.compile(r"[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

Finding = tuple[str, Problem]
"""A problem and its severity, "error" or "warning"."""


def file_of(location: Location) -> str:
    """The location's file as `Location` prints it (`str(location)` is
    `file:line:column`), so the three formats name files alike."""
    return str(location).removesuffix(f":{location.line}:{location.column}")


def text(findings: Iterable[Finding]) -> str:
    return "".join(f"{problem}\n" for _, problem in findings)


def _github_data(value: str) -> str:
    """A workflow command's message: % CR LF escaped as the runner decodes them;
    any other control character as %XX too, shown so (never raw)."""
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return _UNSAFE.sub(lambda m: f"%{ord(m.group()):02X}", value)


def _github_property(value: str) -> str:
    """A workflow command's property value: the message's escapes, and `:` and `,`."""
    return _github_data(value).replace(":", "%3A").replace(",", "%2C")


def github(findings: Iterable[Finding]) -> str:
    lines = []
    for severity, problem in findings:
        where = problem.location
        lines.append(
            f"::{severity} file={_github_property(file_of(where))},"
            f"line={where.line},col={where.column}::{_github_data(problem.message)}\n"
        )
    return "".join(lines)


def to_json(findings: Iterable[Finding]) -> str:
    """A JSON list, indented; non-ASCII text as it is, but DEL, C1, the
    separators and bidi controls as \\u escapes (json escapes only C0)."""
    records = [
        {
            "file": file_of(problem.location),
            "line": problem.location.line,
            "column": problem.location.column,
            "severity": severity,
            "message": problem.message,
        }
        for severity, problem in findings
    ]
    # Every character `_UNSAFE_IN_JSON` matches is inside a string here (the
    # structure is ASCII), and a \u escape is valid anywhere in a string.
    out = json.dumps(records, ensure_ascii=False, indent=2)
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", out) + "\n"


def render(format_name: str, findings: Iterable[Finding]) -> str:
    if format_name == "github":
        return github(findings)
    if format_name == "json":
        return to_json(findings)
    return text(findings)
