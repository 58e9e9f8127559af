"""Text hygiene for untrusted entry text.

Entry files are written by other people: whatever they contain must reach the
screen as plain characters. Rich and Textual strip only a handful of control
characters, so ANSI/OSC sequences and C0/C1 controls are removed here, once, at
load time; everything downstream can then treat text as clean data.
"""

from __future__ import annotations

import re

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), DCS/SOS/PM/APC (ESC P/X/^/_ ... ST),
# 8-bit CSI/OSC (\x9b, \x9d), then any other two-character ESC sequence.
_ESCAPES = re.compile(
    r"""
    \x1b\[[0-?]*[ -/]*[@-~]            # CSI
  | \x9b[0-?]*[ -/]*[@-~]              # 8-bit CSI
  | (?:\x1b\]|\x9d).*?(?:\x07|\x1b\\|\x9c|$)   # OSC
  | (?:\x1b[PX^_]|[\x90\x98\x9e\x9f]).*?(?:\x1b\\|\x9c|$)  # DCS SOS PM APC
  | \x1b[ -/]*[0-~]?                   # other ESC sequences (or a lone ESC)
    """,
    re.VERBOSE | re.DOTALL,
)
# C0 except \t and \n, DEL, C1. \r is handled by newline normalisation first.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Bidi overrides and isolates can reorder what the terminal shows; drop them too.
_BIDI = re.compile(r"[\u202a-\u202e\u2066-\u2069]")

_CODE = re.compile(r"`([^`\n]+)`")


def clean(text: str) -> str:
    """Return `text` with escape sequences and control characters removed."""
    if not text:
        return text
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x1b" in text or "\x9b" in text or "\x9d" in text or "\x90" in text:
        text = _ESCAPES.sub("", text)
    text = _CONTROLS.sub("", text)
    return _BIDI.sub("", text)


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


def code_refs(text: str) -> list[str]:
    """The backticked references named in `text`, in order, without duplicates."""
    seen: dict[str, None] = {}
    for match in _CODE.finditer(text):
        seen.setdefault(match.group(1), None)
    return list(seen)
