"""Line breaking for mixed Chinese and Latin text, measured in terminal cells.

Rich and Textual break lines at spaces only, so a run of Chinese is one long
"word" that is either pushed whole to the next line or cut at an arbitrary cell.
Here the basics of UAX #14 with the Chinese rules of W3C clreq on top:

- a break is allowed between any two wide (CJK) characters, and between a wide
  character and a Latin word, number, path or code span;
- a run of narrow characters (a Latin word, number, path, identifier, "20+",
  "enforce-eager") is never broken unless it is longer than the line; then it
  is cut at a space (in a code span), after `/` or `::`, then after `.`, `_`,
  `-`, `=` or `,`, and only then at the width; it starts a fresh line when
  that gives it a better kind of cut than the room left on this one;
- closing punctuation (，。、；：？！）」』”’… and the like) never starts a line and
  opening punctuation (（「『“‘ and the like) never ends one, even across spaces:
  the character or word before is pushed down with it (clreq's "push out": a
  terminal cannot hang or squeeze punctuation), and no line starts with a space;
- a slash that separates words (`CNN / RNN`, `推理/部署`) stays with what it
  follows, as closing punctuation does;
- an ASCII quote stays with what it quotes: a lone one is opening after a space
  or an opening mark, closing before a space or a closing mark, and between
  two ideographs whichever the quotes before it in the paragraph make it;
- "——" is never split; a break is allowed before and after it;
- grapheme clusters stay whole: combining marks, emoji ZWJ sequences, emoji
  with VS16 and flags (regional indicator pairs);
- widths are terminal cells as Rich's `cell_len` counts them, so a wide
  character that does not fit in the last cell goes to the next line.

Where this differs from ICU's line breaker (UAX #14 with its Chinese
tailoring, what browsers use), on purpose; tests/test_typesetting.py shows each,
and tests/test_typesetting_corpus.py checks on 1,169 real paragraphs that every
break ICU would not make is one of these:

- a line may break before an option or a negative number (`--freeze_vit`,
  `-100`) and before an absolute path (`/path/to`), which then start the next
  line whole; UAX #14 breaks after their first character instead;
- paths, URLs and hyphenated names (`vllm/models/x.py`, `https://…`,
  `enforce-eager`) are never broken when they fit on a line; UAX #14 breaks
  after every `/` and `-`;
- a line may break before an opening and after a closing ASCII quote
  (`转换成'system'的`); UAX #14 breaks on neither side of one;
- a line may break between a number with its sign and Chinese (`400+` / `模型`),
  which UAX #14 glues;
- a word longer than the line is cut (see above); UAX #14 lets it overflow.

The breaker is greedy: a line takes everything that fits. Runs in and out are
`(text, style)` pairs where `style` is any hashable tag chosen by the caller; a
style listed in `keep_whole` marks runs (code spans) that are one unit when they
fit on a line: neither their spaces nor the Chinese in them are break points;
one longer than the line is cut at those first. Styles travel with the
characters, so a code span keeps its style across a break. `uniseg` (a full
UAX #14 in Python) was measured against this: hundreds of times slower, and its
rules would need the same tailoring (bench/wrap_bench.py has the numbers; tests/core/test_typesetting.py the rules).
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
# Where a too-long path or identifier may be broken before it is cut (after the
# character; after `::` too, as after `/`).
SOFT_BREAK_AFTER = frozenset("/._-=,")
# Spaces as the text has them, and as they are inside a code span.
_SPACES = " \u00a0"

# Character classes. Order matters: everything above _ZW is part of a word ("unit").
# _SL, a slash, is read as _AL or _CLN by what follows it (see `_atoms`), and _QU,
# a lone ASCII quote, as opening or closing by what stands around it (`_quote_class`).
_NONE, _SP, _NL, _ZW, _AL, _ID, _OPN, _OPW, _CLN, _CLW, _B2, _GL, _SL, _QU = range(14)
_CLOSING = (_CLN, _CLW)
_OPENING = (_OPN, _OPW)
# Classes that allow a break on their side: wide characters and dashes.
_BREAKY = (_ID, _OPW, _CLW, _B2)


def _may_break(before: int, after: int) -> bool:
    """May a line break between two adjacent (unspaced) clusters of these classes?"""
    if after in _CLOSING or after == _SL or before in _OPENING or _GL in (before, after):
        return False
    if before == after == _B2:
        return False
    return before in _BREAKY or after in _BREAKY


# _BREAK[before][after], for the classes of two clusters with no space between them.
_BREAK = [[_may_break(b, a) for a in range(14)] for b in range(14)]

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
        # A quote that opens or closes a Latin word (`'auto'`) breaks as the word does.
        first, last = _info(cluster[0])[1], _info(cluster[-1])[2]
        info = (len(cluster), _AL if first == _QU else first, _AL if last == _QU else last)
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
            elif char == "/":
                info = (1, _SL, _AL)  # after a slash, a line breaks as after a letter
                _INFO[char] = info
                return info
            elif char in "'\"":
                kind = _QU
            elif width > 1 or _RI.match(char):
                kind = _ID
            else:
                kind = _AL
        info = (width, kind, kind)
    else:
        width = cell_len(cluster)
        kind = _info(cluster[0])[1]
        if kind in (_ZW, _QU) or kind <= _NL:
            kind = _AL
        if _RI.match(cluster[0]) or (kind == _AL and width > 1):
            kind = _ID  # emoji sequences and flags break like ideographs
        info = (width, kind, _AL if kind == _SL else kind)
    if len(cluster) == 1 or len(_INFO) < 20_000:  # words and clusters: a bounded number
        _INFO[cluster] = info
    return info


def _quote_class(text: str, pos: int) -> int:
    """How a lone ASCII quote at text[pos] breaks: as opening punctuation (it
    stays with what follows) after a space or an opening mark, as closing (it
    stays with what precedes) before a space or a closing mark, as a letter
    next to a Latin word. Between two wide characters, the quotes of the
    paragraph before it tell: an even number before it (apostrophes in words
    not counted), and it opens."""
    before = text[pos - 1] if pos else " "
    after = text[pos + 1] if pos + 1 < len(text) else " "
    if before in " \n\u00a0" or before in NO_END:
        return _OPN
    if after in " \n\u00a0" or after in NO_START:
        return _CLN
    if "!" <= before <= "~" or "!" <= after <= "~":
        return _AL
    quote = text[pos]
    seen = 0
    at = text.find(quote, text.rfind("\n", 0, pos) + 1, pos)
    while at >= 0:
        if not (
            text[at - 1 : at].isascii()
            and text[at - 1 : at].isalpha()
            and text[at + 1].isascii()
            and text[at + 1].isalpha()
        ):
            seen += 1
        at = text.find(quote, at + 1, pos)
    return _CLN if seen % 2 else _OPN


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


def _atoms(units: Iterable[str], text: str) -> tuple[list[int], list[int], list[int]]:
    """Cut the text (given as clusters, or as characters and runs of printable
    ASCII, and whole) into atoms: words that may not be broken (kind _AL), runs
    of spaces (_SP) and hard breaks (_NL).

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
            if kind > _GL:
                if kind == _SL:
                    # Before a Latin word a slash starts a path or an option (`/usr`):
                    # a line may break before it. Else it separates (`CNN / RNN`,
                    # `推理/部署`) and stays with what it follows, as closing marks do.
                    kind = _AL if "!" <= text[pos + 1 : pos + 2] <= "~" else _CLN
                else:
                    kind = right = _quote_class(text, pos)
            elif kind == _ZW:
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


def _glue(starts: list[int], widths: list[int], kinds: list[int], glued: Collection[int]) -> None:
    """Join each word that starts at an offset in `glued` (inside a code span) to
    the word before it, in place."""
    kept = 0
    for index, start in enumerate(starts):
        if kept and start in glued and kinds[index] == _AL and kinds[kept - 1] == _AL:
            widths[kept - 1] += widths[index]
            continue
        starts[kept], widths[kept], kinds[kept] = start, widths[index], kinds[index]
        kept += 1
    del starts[kept:], widths[kept:], kinds[kept:]


def _fold(text: str, source: str, start: int, end: int, width: int, room: int) -> list[int]:
    """Where to cut the atom text[start:end], longer than a line, into pieces.

    `text` is the text as classified (spaces in code spans are U+00A0),
    `source` as given (only its spaces are dropped at a cut).

    The first piece goes on the current line, which has `room` cells left; the
    others fill whole lines. Returns the offsets of the cuts; a first cut at
    `start` means the atom starts on a fresh line. A piece ends after a space
    or where the text would allow a break but for the code span it is in, else
    after `/`, else after `.`, `_`, `-`, `=` or `,`, as long as its line stays
    at least a third full; else it is cut at the width. The atom starts on a
    fresh line rather than being cut hard after text that fills more than half
    the line, or when a fresh line would let it be cut at a better kind of
    place than the room left on this one does (after the space in
    `apply(a, b)` rather than mid-identifier). No piece starts with a space or
    closing punctuation, nor ends with opening punctuation (spaces between or
    not), unless nothing would be left of it: where a space is followed by a
    closing mark, the word before the space goes down with the mark.
    """
    positions: list[int] = []
    sizes: list[int] = []
    kinds: list[int] = []  # class of each cluster's first character
    rights: list[int] = []  # and of its last
    pos = start
    for cluster in _clusters(text[start:end]):
        size, kind, right = _info(cluster)
        if kind == _QU:
            kind = right = _quote_class(text, pos)
        positions.append(pos)
        sizes.append(size)
        kinds.append(kind)
        rights.append(right)
        pos += len(cluster)
    positions.append(end)
    kinds.append(_NONE)
    clusters = (text, source, positions, sizes, kinds, rights)
    cuts: list[int] = []
    first = 0  # index of the first cluster of the current piece
    used = 0
    limit = room
    last = len(sizes) - 1
    for index, size in enumerate(sizes):
        if index < first:
            continue  # a space where the line was cut: dropped
        while used + size > limit and (index > first or limit < width):
            before = width - limit  # cells already on the line
            cut, rank = _soft_cut(clusters, first, index, before, width)
            if before and (
                (cut is None and before > width // 2)
                or (rank < _CUT_AT_SPACE and _fresh_line_rank(clusters, width) > rank)
            ):
                cut = first
            elif cut is None:
                cut = index
                while cut < last and source[positions[cut] : positions[cut + 1]] == " ":
                    cut += 1  # cut at the width just before spaces: they end this line
            cut = _keep_punctuation(text, positions, first, cut, may_be_empty=limit < width)
            cuts.append(positions[cut])
            first = cut
            used = sum(sizes[cut:index])
            limit = width
            if cut > index:
                break
        if index >= first:
            used += size
    return cuts


# What `_soft_cut` found, best last: nothing, a separator, a path separator, a space.
_NO_CUT, _CUT_AFTER_SEPARATOR, _CUT_AFTER_SLASH, _CUT_AT_SPACE = range(4)

_Clusters = tuple[str, str, list[int], list[int], list[int], list[int]]


def _soft_cut(clusters: _Clusters, first: int, stop: int, before: int, width: int) -> tuple[int | None, int]:
    """The best soft cut among clusters first..stop-1 (after `before` cells) and
    its rank, or (None, _NO_CUT).

    Clusters are given as the text (as classified and as given), their offsets,
    widths and classes; a cut after stop-1 may also be one after the space at
    stop, which is dropped with the cut. Best is a space or a place where the
    text would allow a break but for the code span it is in (around Chinese);
    then a `/` or `::`; then `.`, `_`, `-`, `=`, `,`. Only places where
    `_may_cut` allows a cut count.
    """
    text, source, positions, sizes, kinds, rights = clusters
    space = slash = other = None
    pushed = None  # the last space that allows a cut, even early on the line
    filled = before
    may_break = _BREAK
    for index in range(first, stop):
        filled += sizes[index]
        at = positions[index + 1]
        char = text[at - 1]
        spaced = char in _SPACES or may_break[rights[index]][kinds[index + 1]]
        if filled * 3 < width:
            if spaced and _may_cut(text, at):
                pushed = index + 1
            continue
        if spaced:
            if _may_cut(text, at):
                pushed = index + 1
            # Else the mark after the space goes down with the word before it.
            space = pushed
        elif char == "/" or (char == ":" and text[at - 2] == ":" and text[at] != ":"):
            if _may_cut(text, at):
                slash = index + 1
        elif char in SOFT_BREAK_AFTER and _may_cut(text, at):
            other = index + 1
    if (
        stop + 1 < len(sizes)
        and source[positions[stop] : positions[stop + 1]] == " "
        and filled * 3 >= width
        and _may_cut(text, positions[stop + 1])
    ):
        space = stop + 1  # the line is full up to a space: cut there (it is dropped)
    if space:
        return space, _CUT_AT_SPACE
    if slash:
        return slash, _CUT_AFTER_SLASH
    if other:
        return other, _CUT_AFTER_SEPARATOR
    return None, _NO_CUT


def _fresh_line_rank(clusters: _Clusters, width: int) -> int:
    """The rank of the best soft cut the atom would have if started on a fresh line."""
    sizes = clusters[3]
    filled = 0
    stop = 0
    while stop < len(sizes) and filled + sizes[stop] <= width:
        filled += sizes[stop]
        stop += 1
    return _soft_cut(clusters, 0, stop, 0, width)[1]


def _may_cut(text: str, at: int) -> bool:
    """May a word longer than the line be cut before text[at]? Not before a
    space (the line would start with it) or closing punctuation, nor after
    opening punctuation, even with spaces between (`VOLUME [ "/root"`); ASCII
    quotes count as opening or closing as `_quote_class` reads them."""
    char = text[at]
    if char in NO_START or char in _SPACES or (char in "'\"" and _quote_class(text, at) == _CLN):
        return False
    at -= 1
    while at > 0 and text[at] in _SPACES:
        at -= 1
    char = text[at]
    return char not in NO_END and not (char in "'\"" and _quote_class(text, at) == _OPN)


def _keep_punctuation(text: str, positions: list[int], first: int, cut: int, may_be_empty: bool) -> int:
    """Move a cut back so that no piece starts with closing punctuation or a
    space, or ends with opening punctuation, unless the piece would be left
    empty (allowed when it is the first piece: the atom then starts on the
    next line)."""
    moved = cut
    while moved > first and not _may_cut(text, positions[moved]):
        moved -= 1
    if moved > first or may_be_empty:
        return moved
    return cut


def wrap(runs: Sequence[Run], width: int, *, keep_whole: Collection[Hashable] = ()) -> list[Line]:
    """Break styled runs into lines no wider than `width` cells.

    Spaces where a line is broken are dropped; spaces that open a paragraph are
    kept (indentation); `\\n` is a hard break and a tab counts as a space. Runs
    whose style is in `keep_whole` (code spans) are not broken, at their inner
    spaces or around their Chinese, unless longer than the line. A width below
    1 is treated as 1 so a squeezed pane never raises; only a lone wide character can then overflow.
    """
    width = max(1, width)
    if any("\t" in text for text, _ in runs):
        runs = [(text.replace("\t", " "), style) for text, style in runs]
    text = "".join(text for text, _ in runs)
    work = text
    glued: set[int] = set()  # offsets inside code spans that hold wide characters
    if keep_whole:
        parts = []
        pos = 0
        for part, style in runs:
            if style in keep_whole:
                inner = part.strip(" ")
                lead = len(part) - len(part.lstrip(" "))
                if " " in inner:
                    part = part[:lead] + inner.replace(" ", "\u00a0") + part[lead + len(inner) :]
                if not inner.isascii():
                    # Wide characters allow breaks around them; inside a code span they may not.
                    glued.update(range(pos + lead + 1, pos + lead + len(inner)))
            parts.append(part)
            pos += len(part)
        work = "".join(parts)
    if "\n" not in work and cell_len(work) <= width:
        return _slice(runs, [(0, _rstrip(text, len(text)))])  # fits on one line
    units = _clusters(work) if _COMPLEX.search(work) else _TOKENS.findall(work)
    starts, widths, kinds = _atoms(units, work)
    if glued:
        _glue(starts, widths, kinds, glued)
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
            for cut in _fold(work, text, begin, end, width, width - used):
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
