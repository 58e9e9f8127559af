"""Text hygiene for untrusted entry text.

Entry files are written by other people: whatever they contain must reach the
screen as plain characters. Rich and Textual strip only a handful of control
characters, so ANSI/OSC sequences and C0/C1 controls are removed here, once, at
load time; everything downstream can then treat text as clean data.
"""

from __future__ import annotations

import functools
import re
import unicodedata

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), DCS/SOS/PM/APC (ESC P/X/^/_ ... ST),
# 8-bit CSI/OSC (\x9b, \x9d), then any other two-character ESC sequence. Compiled
# when first needed: only text with an escape sequence in it needs it.
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
# Bidi controls can reorder what the terminal shows, and invisible characters
# can hide text or make two different words look the same (a ref `foo\u200bbar`
# is not `foobar`): both are dropped. Bidi embeddings, overrides and isolates;
# the marks LRM, RLM, ALM; ZERO WIDTH SPACE, WORD JOINER, the invisible math
# operators, the deprecated format controls, ZERO WIDTH NO-BREAK SPACE (BOM) and
# the interlinear annotation controls.
_INVISIBLE_CLASS = "\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
_INVISIBLE = re.compile(f"[{_INVISIBLE_CLASS}]")
# ZERO WIDTH JOINER and NON-JOINER are writing, not hiding, where they join: the
# ZWJ inside an emoji sequence (👩‍💻), and either between letters of scripts
# that need them (Persian می‌خواهم, Devanagari क्‍ष). Elsewhere they are dropped.
_JOINERS = re.compile("[\u200c\u200d]")
# Tag characters spell an emoji flag after U+1F3F4 (🏴󠁧󠁢󠁳󠁣󠁴󠁿); anywhere else they are
# invisible text (and a known way to hide words from a reader), so dropped.
_TAGS = re.compile("(\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f)|[\U000e0000-\U000e007f]")
# NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR are line breaks (YAML reads them so
# in a file); terminals draw them as nothing or as a box, so they become "\n".
_BREAKS = re.compile(r"\r\n?|[\x85\u2028\u2029]")
# Controls, line breaks and bidi controls (tab and newline too): not allowed in a
# file name in a folder, nor in a name shown on one line (a key in a message).
_UNSAFE_IN_NAME = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# What `escaped` writes as an escape: the above and the invisible characters.
_SHOWN_ESCAPED = re.compile(
    f"[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029{_INVISIBLE_CLASS}\u200c\u200d\U000e0000-\U000e007f]"
)
# Anything `clean` may change. Most text has none, and one search is cheaper
# than the substitutions.
_DIRTY = re.compile(
    f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u2028\\u2029{_INVISIBLE_CLASS}\u200c\u200d\U000e0000-\U000e007f]"
)

_CODE = re.compile(r"`([^`\n]+)`")


@functools.cache
def _escapes() -> re.Pattern[str]:
    return re.compile(_ESCAPES_PATTERN, re.VERBOSE | re.DOTALL)


def needs_cleaning(text: str) -> bool:
    """False if `clean` would return `text` as it is (True: it may not).

    Every character `clean` may change is a control, format, separator or
    unassigned character, and none of those is printable (`str.isprintable`):
    text that is all printable but for its newlines is told clean by one pass
    in C, at about half the cost of the search (bench/README.md)."""
    if text.replace("\n", "").isprintable():
        return False
    return _DIRTY.search(text) is not None


def clean(text: str) -> str:
    """Return `text` with escape sequences, control characters, bidi controls and
    invisible characters removed (joiners where they join are kept)."""
    if _DIRTY.search(text) is None:
        return text
    text = _BREAKS.sub("\n", text)
    if _INTRODUCERS.search(text):
        text = _escapes().sub("", text)
    text = _CONTROLS.sub("", text)
    text = _INVISIBLE.sub("", text)
    if "\u200c" in text or "\u200d" in text:
        text = _JOINERS.sub(lambda m: m.group() if _joins(m.string, m.start()) else "", text)
    if _TAGS.search(text):
        text = _TAGS.sub(lambda m: m.group(1) or "", text)
    return text


def _emoji(char: str) -> bool:
    """Roughly Extended_Pictographic (which `unicodedata` does not know): the
    emoji blocks, the symbols and dingbats emoji are drawn from."""
    code = ord(char)
    return (
        0x1F000 <= code <= 0x1FAFF
        or 0x2600 <= code <= 0x27BF
        or 0x2300 <= code <= 0x23FF
        or 0x2B00 <= code <= 0x2BFF
    )


def _letter(char: str, *, mark: bool = False) -> bool:
    """A letter (or with `mark`, a combining mark, as a virama) of a script beyond ASCII."""
    return ord(char) > 0x7F and unicodedata.category(char)[0] in ("LM" if mark else "L")


def _joins(text: str, at: int) -> bool:
    """Does the joiner at `text[at]` join: between emoji (ZWJ), or between letters?"""
    if at == 0 or at + 1 >= len(text):
        return False
    before, after = text[at - 1], text[at + 1]
    if text[at] == "\u200d" and _emoji(after) and (_emoji(before) or before in "\ufe0f\u20e3"):
        return True
    return _letter(before, mark=True) and _letter(after)


def one_line(text: str) -> str:
    """`clean`, with line breaks and tabs as spaces: for messages shown on one line."""
    return clean(text).replace("\n", " ").replace("\t", " ")


def unsafe_name(name: str) -> bool:
    """True if `name` holds a control, escape, line-break or bidi-override character."""
    return _UNSAFE_IN_NAME.search(name) is not None


def escaped(name: str) -> str:
    """`name` on one line, each character `clean` would drop written as an
    escape (`\\x1b`, `\\x0a`, `\\u202e`): for file names and paths, shown as they
    are, so the file can be found, and never as what the characters would do."""
    if _SHOWN_ESCAPED.search(name) is None:
        return name
    flags = [match.span(1) for match in _TAGS.finditer(name) if match.group(1)]

    def escape(match: re.Match[str]) -> str:
        char, at = match.group(), match.start()
        if (char in "\u200c\u200d" and _joins(name, at)) or any(a <= at < b for a, b in flags):
            return char
        code = ord(char)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"

    return _SHOWN_ESCAPED.sub(escape, name)


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
