"""Text hygiene for untrusted entry text.

Entry files are written by other people: whatever they contain must reach the
screen as plain characters. Rich and Textual strip only a handful of control
characters, so ANSI/OSC sequences and C0/C1 controls are removed here, once, at
load time; everything downstream can then treat text as clean data.
"""

from __future__ import annotations

import functools
import re

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), DCS/SOS/PM/APC (ESC P/X/^/_ ... ST),
# 8-bit CSI/OSC (\x9b, \x9d), then any other two-character ESC sequence. Compiled
# when first needed (~0.4 ms): only text with an escape sequence in it needs it.
_ESCAPES_PATTERN = r"""
    \x1b\[[0-?]*[ -/]*[@-~]            # CSI
  | \x9b[0-?]*[ -/]*[@-~]              # 8-bit CSI
  | (?:\x1b\]|\x9d).*?(?:\x07|\x1b\\|\x9c|$)   # OSC
  | (?:\x1b[PX^_]|[\x90\x98\x9e\x9f]).*?(?:\x1b\\|\x9c|$)  # DCS SOS PM APC
  | \x1b[ -/]*[0-~]?                   # other ESC sequences (or a lone ESC)
    """
_INTRODUCERS = re.compile(r"[\x1b\x90\x98\x9b\x9d\x9e\x9f]")
# C0 except \t and \n, DEL, C1. \r is handled by newline normalisation first.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Bidi overrides and isolates can reorder what the terminal shows; drop them too.
_BIDI = re.compile(r"[\u202a-\u202e\u2066-\u2069]")
# NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR are line breaks (YAML reads them so
# in a file); terminals draw them as nothing or as a box, so they become "\n".
_BREAKS = re.compile(r"\r\n?|[\x85\u2028\u2029]")
# Anything `clean` would change, plus tab and newline: not allowed in a name shown
# on one line (a file name, a key in a message).
_UNSAFE_IN_NAME = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# Anything `clean` would change: the above but tab and newline. Most text has none,
# and one search is cheaper than the substitutions.
_DIRTY = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

_CODE = re.compile(r"`([^`\n]+)`")


@functools.cache
def _escapes() -> re.Pattern[str]:
    return re.compile(_ESCAPES_PATTERN, re.VERBOSE | re.DOTALL)


def needs_cleaning(text: str) -> bool:
    """True if `clean` would change `text`."""
    return _DIRTY.search(text) is not None


def clean(text: str) -> str:
    """Return `text` with escape sequences and control characters removed."""
    if _DIRTY.search(text) is None:
        return text
    text = _BREAKS.sub("\n", text)
    if _INTRODUCERS.search(text):
        text = _escapes().sub("", text)
    text = _CONTROLS.sub("", text)
    return _BIDI.sub("", text)


def one_line(text: str) -> str:
    """`clean`, with line breaks and tabs as spaces: for messages shown on one line."""
    return clean(text).replace("\n", " ").replace("\t", " ")


def unsafe_name(name: str) -> bool:
    """True if `name` holds a control, escape, line-break or bidi-override character."""
    return _UNSAFE_IN_NAME.search(name) is not None


def code_spans(text: str) -> list[tuple[str, bool]]:
    """Split text into runs of (text, is_code); backticks themselves are dropped.

    An unmatched backtick stays as a literal character.
    """
    runs: list[tuple[str, bool]] = []
    pos = 0
    for match in _CODE.finditer(text):
        if match.start() > pos:
            runs.append((text[pos : match.start()], False))
        runs.append((match.group(1), True))
        pos = match.end()
    if pos < len(text):
        runs.append((text[pos:], False))
    return runs


def without_backticks(text: str) -> str:
    """The text of `code_spans`' runs joined: code spans without their
    backticks, in one pass in C (a search reads every review's text): split
    at a capturing pattern keeps each span's inside between the text around it."""
    return "".join(_CODE.split(text))


def code_refs(text: str) -> list[str]:
    """The backticked references named in `text`, in order, without duplicates."""
    seen: dict[str, None] = {}
    for match in _CODE.finditer(text):
        seen.setdefault(match.group(1), None)
    return list(seen)
