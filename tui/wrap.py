"""Line breaking for mixed Chinese and Latin text, measured in terminal cells.

Rich and Textual break lines at spaces only, so a run of Chinese is one long
"word" that is either pushed whole to the next line or cut at an arbitrary cell.
Here a break is allowed between any two wide (CJK) characters, Latin words and
code spans stay whole unless longer than the line, closing punctuation never
starts a line and opening punctuation never ends one (the basics of UAX #14 and
W3C clreq). Styles travel with the characters, so a code span keeps its style
across a break.

Runs in and out are `(text, style)` pairs where `style` is any hashable tag
chosen by the caller; this module knows nothing about terminals beyond widths.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Hashable, Sequence
from functools import lru_cache

from rich.cells import get_character_cell_size

Run = tuple[str, Hashable]
Line = list[Run]

# Characters that must not begin a line (clreq "line-start prohibited").
NO_START = frozenset(
    "，。、；：？！）」』”’》〉】〕〗〙〛｝］｠…‥・ー～〜％‰℃"
    ",.;:?!)]}%"
    "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々〻"
)
# Characters that must not end a line.
NO_END = frozenset("（「『“‘《〈【〔〖〘〚｛［｟([{")
# Where a too-long path or identifier may be broken before it is cut.
SOFT_BREAK_AFTER = frozenset("/._-=,")


@lru_cache(maxsize=4096)
def _is_wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


@lru_cache(maxsize=4096)
def _width(char: str) -> int:
    return get_character_cell_size(char)


class _Atom:
    """An unbreakable unit: its characters (with styles), width and kind."""

    __slots__ = ("chars", "space", "width")

    def __init__(self, space: bool = False) -> None:
        self.chars: list[tuple[str, Hashable]] = []
        self.width = 0
        self.space = space

    def add(self, char: str, style: Hashable) -> None:
        self.chars.append((char, style))
        self.width += _width(char)


def _atoms(runs: Sequence[Run]) -> list[_Atom | None]:
    """Split runs into atoms; `None` marks a hard line break."""
    out: list[_Atom | None] = []
    word: _Atom | None = None  # the Latin word being built
    glue_next = False  # the previous atom ended with opening punctuation

    def last_atom() -> _Atom | None:
        return out[-1] if out and out[-1] is not None else None

    for text, style in runs:
        for char in text:
            if char == "\n":
                out.append(None)
                word = None
                glue_next = False
                continue
            if char == "\t":
                char = " "
            if _width(char) == 0 and (prev := last_atom()) is not None:
                prev.add(char, style)  # combining marks stay with their base
                continue
            if char == " ":
                prev = last_atom()
                if prev is not None and prev.space:
                    prev.add(char, style)
                else:
                    atom = _Atom(space=True)
                    atom.add(char, style)
                    out.append(atom)
                word = None
                glue_next = False
                continue
            prev = last_atom()
            wide = _is_wide(char)
            if not wide and word is not None and word is prev:
                word.add(char, style)  # inside a Latin word, path or identifier
                glue_next = False
                continue
            if glue_next and prev is not None:
                prev.add(char, style)
                glue_next = char in NO_END
                word = None if wide else prev
                continue
            if char in NO_START and prev is not None and not prev.space:
                prev.add(char, style)
                glue_next = char in NO_END
                word = None
                continue
            if char == "—" and prev is not None and prev.chars and prev.chars[-1][0] == "—":
                prev.add(char, style)  # never split a "——" dash
                continue
            if wide or char in NO_END:
                atom = _Atom()
                atom.add(char, style)
                out.append(atom)
                word = None
                glue_next = char in NO_END
                continue
            if word is None or word is not prev:
                word = _Atom()
                out.append(word)
            word.add(char, style)
    return out


def _fold(atom: _Atom, width: int, room: int) -> list[list[tuple[str, Hashable]]]:
    """Cut an atom longer than the line into pieces, preferring soft break points.

    The first piece fills `room` cells, the rest `width` cells each. A break
    after `/` is preferred, then after `.`, `_`, `-`, `=` or `,`, then anywhere;
    a soft break is only taken if it keeps at least a third of the line filled.
    """
    pieces: list[list[tuple[str, Hashable]]] = []
    current: list[tuple[str, Hashable]] = []
    used = 0
    limit = room
    for char, style in atom.chars:
        w = _width(char)
        while used + w > limit and current:
            # The first piece may be empty: the atom then starts on the next line.
            cut = _cut(current, char, may_be_empty=limit < width)
            pieces.append(current[:cut])
            current = current[cut:]
            used = sum(_width(c) for c, _ in current)
            limit = width
        current.append((char, style))
        used += w
    if current:
        pieces.append(current)
    return pieces


def _cut(chars: list[tuple[str, Hashable]], following: str, may_be_empty: bool) -> int:
    """Where to cut `chars` (which `following` did not fit after).

    A break after `/` is preferred, then after another soft break character, then
    anywhere. The cut then moves back so that no piece starts with closing or
    ends with opening punctuation, unless nothing would be left before it.
    """
    slash = soft = -1  # indexes after which a break is possible
    for index, (char, _) in enumerate(chars, 1):
        if char == "/":
            slash = index
        elif char in SOFT_BREAK_AFTER:
            soft = index
    cut = next((i for i in (slash, soft) if i * 3 >= len(chars)), len(chars))
    best = cut
    while best > 0 and (
        (chars[best][0] if best < len(chars) else following) in NO_START or chars[best - 1][0] in NO_END
    ):
        best -= 1
    if best > 0 or may_be_empty:
        return best
    return cut


def _to_runs(chars: list[tuple[str, Hashable]]) -> Line:
    runs: Line = []
    for char, style in chars:
        if runs and runs[-1][1] == style:
            runs[-1] = (runs[-1][0] + char, style)
        else:
            runs.append((char, style))
    return runs


def wrap(runs: Sequence[Run], width: int) -> list[Line]:
    """Break styled runs into lines no wider than `width` cells.

    A width below 1 is treated as 1 so a squeezed pane never raises.
    """
    width = max(1, width)
    lines: list[list[tuple[str, Hashable]]] = []
    line: list[tuple[str, Hashable]] = []
    used = 0
    soft_break = False  # the current line began at a soft break
    for atom in _atoms(runs):
        if atom is None:
            lines.append(line)
            line, used = [], 0
            soft_break = False
            continue
        if atom.space:
            # Spaces that open a paragraph are kept (indentation); spaces where
            # a line was broken are dropped.
            if (line or not soft_break) and used + atom.width <= width:
                line.extend(atom.chars)
                used += atom.width
            elif line:
                lines.append(line)
                line, used = [], 0
                soft_break = True
            continue
        soft_break = False
        if used + atom.width <= width:
            line.extend(atom.chars)
            used += atom.width
            continue
        # A line holding only indentation is dropped, not left as a blank line.
        if atom.width <= width:
            if _rstrip(line):
                lines.append(_rstrip(line))
            line, used = list(atom.chars), atom.width
            continue
        # Longer than a whole line: start on a fresh line unless this one is
        # nearly empty, then cut at soft break points.
        if line and used > width // 2:
            if _rstrip(line):
                lines.append(_rstrip(line))
            line, used = [], 0
        pieces = _fold(atom, width, width - used)
        for piece in pieces[:-1]:
            line.extend(piece)
            if _rstrip(line):
                lines.append(_rstrip(line))
            line = []
        line = line + pieces[-1]
        used = sum(_width(c) for c, _ in line)
    lines.append(_rstrip(line))
    return [_to_runs(chars) for chars in lines]


def _rstrip(chars: list[tuple[str, Hashable]]) -> list[tuple[str, Hashable]]:
    while chars and chars[-1][0] == " ":
        chars = chars[:-1]
    return chars


def line_width(line: Line) -> int:
    return sum(_width(c) for text, _ in line for c in text)


def truncate(text: str, width: int, ellipsis: str = "…") -> str:
    """Cut `text` to at most `width` cells, ending in `ellipsis` when cut.

    Never splits a wide character; a line break ends the text.
    """
    text = text.split("\n", 1)[0]
    if width <= 0:
        return ""
    total = 0
    for index, char in enumerate(text):
        total += _width(char)
        if total > width:
            room = width - _width(ellipsis[0]) if ellipsis else width
            out, used = [], 0
            for c in text[:index]:
                if used + _width(c) > room:
                    break
                out.append(c)
                used += _width(c)
            return "".join(out).rstrip() + ellipsis
    return text
