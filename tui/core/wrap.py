"""Line breaking for mixed Chinese and Latin text, measured in terminal cells.

Rich and Textual break lines at spaces only, so a run of Chinese is one long
"word" that is either pushed whole to the next line or cut at an arbitrary cell.
Here the basics of UAX #14 with the Chinese rules of W3C clreq on top:

- a break is allowed between any two wide (CJK) characters, and between a wide
  character and a Latin word, number, path or code span;
- a run of narrow characters (a Latin word, number, path, identifier, "20+",
  "enforce-eager") is never broken unless it is longer than the line; then it
  is cut after `/`, then after `.`, `_`, `-`, `=` or `,`, and only then at the
  width (a tailoring of UAX #14, which would break after every `/` and `-`);
- closing punctuation (，。、；：？！）」』”’… and the like) never starts a line and
  opening punctuation (（「『“‘ and the like) never ends one, even across spaces;
  the character before is pushed down with it (clreq's "push out": a terminal
  cannot hang or squeeze punctuation);
- "——" is never split; a break is allowed before and after it;
- grapheme clusters stay whole: combining marks, emoji ZWJ sequences, emoji
  with VS16 and flags (regional indicator pairs);
- widths are terminal cells as Rich's `cell_len` counts them, so a wide
  character that does not fit in the last cell goes to the next line.

The breaker is greedy: a line takes everything that fits. Runs in and out are
`(text, style)` pairs where `style` is any hashable tag chosen by the caller; a
style listed in `keep_whole` marks runs (code spans) whose inner spaces are not
break points. Styles travel with the characters, so a code span keeps its
style across a break. `uniseg` (a full UAX #14 in Python) was measured against
this: hundreds of times slower, and its rules would need the same tailoring
(bench/wrap_bench.py has the numbers; tests/core/test_typesetting.py the rules).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Hashable, Iterable, Sequence

from rich.cells import cell_len, get_character_cell_size

Run = tuple[str, Hashable]
Line = list[Run]

# Characters that must not begin a line (clreq "line-start prohibited", UAX #14 CL/CP/EX/IS/NS).
NO_START = frozenset(
    "，。、；：？！）」』”’》〉】〕〗〙〛｝］｠…‥⋯・·ー～〜％‰℃"
    ",.;:?!)]}%"
    "｡｣､"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ々〻ゝゞヽヾ"
)
# Characters that must not end a line (UAX #14 OP, opening quotation marks).
NO_END = frozenset("（「『“‘《〈【〔〖〘〚｛［｟([{｢")
# "——" is never split, but a line may break before or after it (UAX #14 B2).
DASHES = frozenset("—―")
# Where a too-long path or identifier may be broken before it is cut (after the character).
SOFT_BREAK_AFTER = frozenset("/._-=,")

# Character classes. Order matters: everything above _ZW is part of a word ("unit").
_NONE, _SP, _NL, _ZW, _AL, _ID, _OPN, _OPW, _CLN, _CLW, _B2, _GL = range(12)
_CLOSING = (_CLN, _CLW)
_OPENING = (_OPN, _OPW)
# Classes that allow a break on their side: wide characters and dashes.
_BREAKY = (_ID, _OPW, _CLW, _B2)


def _may_break(before: int, after: int) -> bool:
    """May a line break between two adjacent (unspaced) clusters of these classes?"""
    if after in _CLOSING or before in _OPENING or _GL in (before, after):
        return False
    if before == after == _B2:
        return False
    return before in _BREAKY or after in _BREAKY


# _BREAK[before][after], for the classes of two clusters with no space between them.
_BREAK = [[_may_break(b, a) for a in range(12)] for b in range(12)]

# Text with any of these needs grapheme clusters built first; other text is read
# character by character (combining marks are handled there too).
_COMPLEX = re.compile("[\u200d\ufe0f\U0001f1e6-\U0001f1ff]")
_RI = re.compile("[\U0001f1e6-\U0001f1ff]")

# Runs of printable ASCII are read whole: nothing breaks inside them.
_TOKENS = re.compile(r"[!-~]{2,}|.", re.DOTALL)

_INFO: dict[str, tuple[int, int, int]] = {}


def _info(cluster: str) -> tuple[int, int, int]:
    """(cell width, class of the first character, class of the last) of a
    grapheme cluster or a run of printable ASCII, cached."""
    info = _INFO.get(cluster)
    if info is not None:
        return info
    if len(cluster) > 1 and cluster.isascii():
        info = (len(cluster), _info(cluster[0])[1], _info(cluster[-1])[1])
    elif len(cluster) == 1:
        char = cluster
        if char in " \t":
            width, kind = 1, _SP
        elif char == "\n":
            width, kind = 0, _NL
        else:
            width = get_character_cell_size(char)
            if char == "\u00a0":
                kind = _GL
            elif width == 0:
                kind = _ZW
            elif char in NO_START:
                kind = _CLW if width > 1 else _CLN
            elif char in NO_END:
                kind = _OPW if width > 1 else _OPN
            elif char in DASHES:
                kind = _B2
            elif width > 1 or _RI.match(char):
                kind = _ID
            else:
                kind = _AL
        info = (width, kind, kind)
    else:
        width = cell_len(cluster)
        kind = _info(cluster[0])[1]
        if kind == _ZW or kind <= _NL:
            kind = _AL
        if _RI.match(cluster[0]) or (kind == _AL and width > 1):
            kind = _ID  # emoji sequences and flags break like ideographs
        info = (width, kind, kind)
    if len(cluster) == 1 or len(_INFO) < 20_000:  # words and clusters: a bounded number
        _INFO[cluster] = info
    return info


def _clusters(text: str) -> list[str]:
    """Grapheme clusters as Rich measures them: zero-width characters (combining
    marks, VS16, skin tones) join the character before (a space too, but not a
    line break), a ZWJ joins the characters on both sides, and regional
    indicators pair up into flags."""
    out: list[str] = []
    join = False  # the last cluster ends with a ZWJ
    flag = False  # the last cluster is a lone regional indicator
    for char in text:
        if out and join and char not in " \t\n":
            out[-1] += char
            join = flag = False
            continue
        if char == "\u200d" and out and out[-1][-1] != "\n":
            out[-1] += char
            join = True
            continue
        if char in " \t\n":
            out.append(char)
            flag = False
            continue
        if out and get_character_cell_size(char) == 0 and out[-1][-1] != "\n":
            out[-1] += char  # even after a space, as Rich measures it
            flag = False
            continue
        if flag and _RI.match(char):
            out[-1] += char
            flag = False
            continue
        out.append(char)
        flag = _RI.match(char) is not None
    return out


def _atoms(units: Iterable[str]) -> tuple[list[int], list[int], list[int]]:
    """Cut the text (given as clusters, or as characters and runs of printable
    ASCII) into atoms: words that may not be broken (kind _AL), runs of spaces
    (_SP) and hard breaks (_NL).

    Atoms cover the text without gaps; returns their start offsets, widths and kinds.
    """
    starts: list[int] = []
    widths: list[int] = []
    kinds: list[int] = []
    last = _NONE  # class of the last cluster; _SP after spaces, _NONE at a paragraph start
    before_space = _NONE  # class of the last cluster before those spaces
    pos = 0
    info_of = _INFO.get
    may_break = _BREAK
    for unit in units:
        info = info_of(unit) or _info(unit)
        width, kind, right = info
        if kind == _SP:
            if last in (_SP, _OPN, _OPW):
                # More spaces, or spaces after opening punctuation (no break there).
                widths[-1] += width
            else:
                starts.append(pos)
                widths.append(width)
                kinds.append(_SP)
                before_space = last
                last = _SP
        elif kind == _NL:
            starts.append(pos)
            widths.append(0)
            kinds.append(_NL)
            last = _NONE
        elif kind == _ZW and last > _ZW:
            pass  # a combining mark stays with its base (and adds no width)
        elif kind == _ZW and last == _SP:
            # A mark after a space: Rich draws both in one cell, so the last
            # space and the mark become a word.
            if widths[-1] > 1:
                widths[-1] -= 1
                starts.append(pos - 1)
                widths.append(1)
                kinds.append(_AL)
            else:
                kinds[-1] = _AL
            last = _AL
        else:
            if kind == _ZW:
                kind = right = _AL  # a mark starting a paragraph: a word of its own
            if last > _ZW and not may_break[last][kind]:
                widths[-1] += width
            elif last == _SP and kind in _CLOSING and before_space > _ZW:
                # Closing punctuation after spaces: glue word, spaces and mark.
                starts.pop()
                kinds.pop()
                spaces = widths.pop()
                widths[-1] += spaces + width
            else:
                starts.append(pos)
                widths.append(width)
                kinds.append(_AL)
            last = right
        pos += len(unit)
    return starts, widths, kinds


def _fold(text: str, start: int, end: int, width: int, room: int) -> list[int]:
    """Where to cut the atom text[start:end], longer than a line, into pieces.

    The first piece goes on the current line, which has `room` cells left; the
    others fill whole lines. Returns the offsets of the cuts; a first cut at
    `start` means the atom starts on a fresh line. A piece ends after a space
    (inside a code span), else after `/`, else after `.`, `_`, `-`, `=` or `,`,
    as long as its line stays at least a third full; else it is cut at the
    width. The atom starts on a fresh line rather than being cut hard after
    text that fills more than half the line, or when a fresh line would let it
    break at a soft break point. No piece starts with closing or ends with
    opening punctuation unless nothing would be left of it.
    """
    positions: list[int] = []
    sizes: list[int] = []
    pos = start
    for cluster in _clusters(text[start:end]):
        positions.append(pos)
        sizes.append(_info(cluster)[0])
        pos += len(cluster)
    positions.append(end)
    cuts: list[int] = []
    first = 0  # index of the first cluster of the current piece
    used = 0
    limit = room
    for index, size in enumerate(sizes):
        while used + size > limit and (index > first or limit < width):
            before = width - limit  # cells already on the line
            cut = _soft_cut(text, positions, sizes, first, index, before, width)
            if (
                cut is None
                and before
                and (before > width // 2 or _fresh_line_helps(text, positions, sizes, width))
            ):
                cut = first
            elif cut is None:
                cut = index
            cut = _keep_punctuation(text, positions, first, cut, may_be_empty=limit < width)
            cuts.append(positions[cut])
            first = cut
            used = sum(sizes[cut:index])
            limit = width
        used += size
    return cuts


def _soft_cut(
    text: str, positions: list[int], sizes: list[int], first: int, stop: int, before: int, width: int
) -> int | None:
    """The best soft cut among clusters first..stop-1 (after `before` cells), or None."""
    space = slash = other = None
    filled = before
    for index in range(first, stop):
        filled += sizes[index]
        if filled * 3 < width:
            continue
        char = text[positions[index + 1] - 1]
        if char in " \u00a0":
            space = index + 1
        elif char == "/":
            slash = index + 1
        elif char in SOFT_BREAK_AFTER:
            other = index + 1
    return space or slash or other


def _fresh_line_helps(text: str, positions: list[int], sizes: list[int], width: int) -> bool:
    """Would the atom, started on a fresh line, have a soft cut on it?"""
    filled = 0
    stop = 0
    while stop < len(sizes) and filled + sizes[stop] <= width:
        filled += sizes[stop]
        stop += 1
    return _soft_cut(text, positions, sizes, 0, stop, 0, width) is not None


def _keep_punctuation(text: str, positions: list[int], first: int, cut: int, may_be_empty: bool) -> int:
    """Move a cut back so that no piece starts with closing or ends with opening
    punctuation, unless the piece would be left empty (allowed when it is the
    first piece: the atom then starts on the next line)."""
    moved = cut
    while moved > first and (text[positions[moved]] in NO_START or text[positions[moved] - 1] in NO_END):
        moved -= 1
    if moved > first or may_be_empty:
        return moved
    return cut


def wrap(runs: Sequence[Run], width: int, *, keep_whole: Collection[Hashable] = ()) -> list[Line]:
    """Break styled runs into lines no wider than `width` cells.

    Spaces where a line is broken are dropped; spaces that open a paragraph are
    kept (indentation); `\\n` is a hard break and a tab counts as a space. Runs
    whose style is in `keep_whole` (code spans) are not broken at their inner
    spaces unless longer than the line. A width below 1 is treated as 1 so a
    squeezed pane never raises; only a lone wide character can then overflow.
    """
    width = max(1, width)
    if any("\t" in text for text, _ in runs):
        runs = [(text.replace("\t", " "), style) for text, style in runs]
    text = "".join(text for text, _ in runs)
    work = text
    if keep_whole:
        parts = []
        for part, style in runs:
            if style in keep_whole and " " in part.strip(" "):
                inner = part.strip(" ")
                lead = len(part) - len(part.lstrip(" "))
                part = part[:lead] + inner.replace(" ", "\u00a0") + part[lead + len(inner) :]
            parts.append(part)
        work = "".join(parts)
    if "\n" not in work and cell_len(work) <= width:
        return _slice(runs, [(0, _rstrip(text, len(text)))])  # fits on one line
    starts, widths, kinds = _atoms(_clusters(work) if _COMPLEX.search(work) else _TOKENS.findall(work))
    return _slice(runs, _fill(work, text, starts, widths, kinds, width))


def _fill(
    work: str, text: str, starts: list[int], widths: list[int], kinds: list[int], width: int
) -> list[tuple[int, int]]:
    """Lay atoms out greedily; returns each line as (start, end) offsets into the text."""
    count = len(starts)
    starts.append(len(work))
    lines: list[tuple[int, int]] = []
    line_start = -1  # -1: nothing on the line yet
    content_end = -1  # end of the last word on the line; -1: only spaces so far
    used = 0
    soft = False  # the line began where a line was broken at spaces
    for index in range(count):
        kind = kinds[index]
        size = widths[index]
        if kind == _AL:
            soft = False
            if used + size <= width:
                if line_start < 0:
                    line_start = starts[index]
                used += size
                content_end = starts[index + 1]
                continue
            if size <= width:
                # A line holding only indentation is dropped, not left as a blank line.
                if content_end >= 0:
                    lines.append((line_start, content_end))
                line_start, used, content_end = starts[index], size, starts[index + 1]
                continue
            # Longer than a whole line: start on a fresh line unless this one is
            # at most half full, then cut at soft break points.
            if line_start >= 0 and used > width // 2:
                if content_end >= 0:
                    lines.append((line_start, content_end))
                line_start, used, content_end = -1, 0, -1
            begin, end = starts[index], starts[index + 1]
            for cut in _fold(work, begin, end, width, width - used):
                if cut > begin:
                    lines.append((begin if line_start < 0 else line_start, _rstrip(text, cut)))
                elif content_end >= 0:
                    lines.append((line_start, content_end))
                line_start, begin = -1, cut
            line_start = begin if line_start < 0 else line_start
            content_end = end
            used = cell_len(work[line_start:end])
        elif kind == _SP:
            if line_start < 0:
                if not soft and size <= width:
                    line_start, used = starts[index], size  # indentation
            elif used + size <= width:
                used += size
            else:
                if content_end >= 0:
                    lines.append((line_start, content_end))
                line_start, used, content_end = -1, 0, -1
                soft = True
        else:  # a hard line break
            lines.append((line_start, content_end) if content_end >= 0 else (0, 0))
            line_start, used, content_end = -1, 0, -1
            soft = False
    lines.append((line_start, content_end) if content_end >= 0 else (0, 0))
    return lines


def _rstrip(text: str, end: int) -> int:
    while end > 0 and text[end - 1] == " ":
        end -= 1
    return end


def _slice(runs: Sequence[Run], spans: list[tuple[int, int]]) -> list[Line]:
    """Cut the runs at the line spans, merging neighbours of the same style."""
    bounds: list[tuple[int, int, str, Hashable]] = []
    pos = 0
    for part, style in runs:
        if part:
            bounds.append((pos, pos + len(part), part, style))
            pos += len(part)
    out: list[Line] = []
    first = 0
    for start, end in spans:
        line: Line = []
        if start < end:
            while bounds[first][1] <= start:
                first += 1
            for run_start, run_end, part, style in bounds[first:]:
                if run_start >= end:
                    break
                piece = part[max(start, run_start) - run_start : min(end, run_end) - run_start]
                if line and line[-1][1] == style:
                    line[-1] = (line[-1][0] + piece, style)
                else:
                    line.append((piece, style))
        out.append(line)
    return out


def line_width(line: Line) -> int:
    """Cells a line takes, as Rich measures them."""
    return cell_len("".join(text for text, _ in line))


def truncate(text: str, width: int, ellipsis: str = "…") -> str:
    """Cut `text` to at most `width` cells, ending in `ellipsis` when cut.

    Never splits a wide character or a grapheme cluster; a line break ends the
    text and a tab counts as a space, as in `wrap`.
    """
    text = text.split("\n", 1)[0].replace("\t", " ")
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return text
    room = width - cell_len(ellipsis)
    if room < 0:
        return ""
    used = 0
    end = 0
    for cluster in _clusters(text) if _COMPLEX.search(text) else text:
        used += _info(cluster)[0]
        if used > room:
            break
        end += len(cluster)
    return text[:end].rstrip() + ellipsis
