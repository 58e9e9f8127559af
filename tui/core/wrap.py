"""Line filling: styled runs into lines no wider than a width, in terminal cells.

Lays out the atoms `tui.core.breaks` cuts the text into, where its rules (the
module's docstring lists them, with where they depart from ICU) allow a break,
and cuts a word longer than the line. Also the width of a line and the
truncation of one-line text, measured the same way.

The filler is greedy: a line takes everything that fits. Runs in and out are
`(text, style)` pairs where `style` is any hashable tag chosen by the caller; a
style listed in `keep_whole` marks runs (code spans) that are one unit when they
fit on a line: neither their spaces nor the Chinese in them are break points;
one longer than the line is cut at those first. Styles travel with the
characters, so a code span keeps its style across a break. `uniseg` (a full
UAX #14 in Python) is not used: far slower, and its rules would need the same
tailoring (bench/README.md, "Measurements behind the code's choices").
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence

from rich.cells import cell_len

from tui.core.breaks import (
    AL,
    BREAK,
    CLN,
    COMPLEX,
    NO_END,
    NO_START,
    NONE,
    OPN,
    QU,
    SOFT_BREAK_AFTER,
    SP,
    SPACES,
    TOKENS,
    atoms,
    cell_info,
    glue,
    grapheme_clusters,
    quote_class,
)

Run = tuple[str, Hashable]
Line = list[Run]


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
    for cluster in grapheme_clusters(text[start:end]):
        size, kind, right = cell_info(cluster)
        if kind == QU:
            kind = right = quote_class(text, pos)
        positions.append(pos)
        sizes.append(size)
        kinds.append(kind)
        rights.append(right)
        pos += len(cluster)
    positions.append(end)
    kinds.append(NONE)
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
    may_break = BREAK
    for index in range(first, stop):
        filled += sizes[index]
        at = positions[index + 1]
        char = text[at - 1]
        spaced = char in SPACES or may_break[rights[index]][kinds[index + 1]]
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
    quotes count as opening or closing as `quote_class` reads them."""
    char = text[at]
    if char in NO_START or char in SPACES or (char in "'\"" and quote_class(text, at) == CLN):
        return False
    at -= 1
    while at > 0 and text[at] in SPACES:
        at -= 1
    char = text[at]
    return char not in NO_END and not (char in "'\"" and quote_class(text, at) == OPN)


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
    units = grapheme_clusters(work) if COMPLEX.search(work) else TOKENS.findall(work)
    starts, widths, kinds = atoms(units, work)
    if glued:
        glue(starts, widths, kinds, glued)
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
        if kind == AL:
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
        elif kind == SP:
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
    for cluster in grapheme_clusters(text) if COMPLEX.search(text) else text:
        used += cell_info(cluster)[0]
        if used > room:
            break
        end += len(cluster)
    return text[:end].rstrip() + ellipsis
