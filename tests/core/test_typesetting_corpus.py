"""The line breaker on real Chinese technical prose that nobody here wrote.

1,169 paragraphs from the Chinese docs of seven open-source projects live in
`../shared/corpora/wrap_corpus_zh.txt` beside the repository (one paragraph a
line; `wrap_corpus_zh.sources.tsv` says where each comes from). They are not
copied into the project: the tests skip when the folder is absent, and
PRDIGEST_CORPORA may point at it from elsewhere (a git worktree, say).

Each paragraph is wrapped as the review pane wraps it (backticked spans styled
as code and kept whole) at 40, 60 and 80 cells and read back line by line.
With PyICU installed (`pip install -e '.[oracle]'`, which compiles against
libicu), every break is also compared with ICU's (UAX #14 with the Chinese
tailoring, what browsers use): each one ICU would not make must be one of the
choices tui/core/breaks.py's docstring names.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest
from rich.cells import cell_len

from tests.wrapped_lines import place, separating_slash, text_of
from tui.core.text import code_spans
from tui.core.wrap import Line, Run, wrap

REPO = Path(__file__).resolve().parents[2]
CORPORA = Path(os.environ.get("PRDIGEST_CORPORA") or REPO.parent / "shared" / "corpora")
CORPUS = CORPORA / "wrap_corpus_zh.txt"
WIDTHS = (40, 60, 80)

# clreq's line-start prohibited marks (closing brackets and quotes, pauses and
# stops, the ellipsis, middle dots, small kana) and their ASCII counterparts.
NO_LINE_START = (
    "，。、；：？！）」』”’》〉】〕〗〙〛｝］｠…‥·・～％‰℃"
    ",.;:?!)]}%"
    "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々ゝゞヽヾ"
)
# clreq's line-end prohibited marks: opening brackets and quotes.
NO_LINE_END = "（「『“‘《〈【〔〖〘〚｛［｟([{"
QUOTES = "'\""


def styled(text: str) -> list[Run]:
    """Runs as the review pane builds them: backticked spans are code."""
    return [(part, "code" if is_code else None) for part, is_code in code_spans(text)]


@cache
def paragraphs() -> tuple[str, ...]:
    if not CORPUS.is_file():
        pytest.skip(
            f"the Chinese corpus is not at {CORPUS} (shared/ beside the repository, or PRDIGEST_CORPORA)"
        )
    return tuple(line for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip())


@cache
def wrapped(width: int) -> tuple[tuple[str, list[Run], list[Line]], ...]:
    out = []
    for paragraph in paragraphs():
        runs = styled(paragraph)
        out.append(("".join(part for part, _ in runs), runs, wrap(runs, width, keep_whole={"code"})))
    return tuple(out)


def is_narrow(char: str) -> bool:
    return char != " " and cell_len(char) == 1


def closed(source: str, end: int) -> int:
    """`end` moved past the closing marks (and separating slashes) that follow,
    spaces between or not: what must go on the line with the text before `end`."""
    while True:
        after = end
        while after < len(source) and source[after] == " ":
            after += 1
        if after < len(source) and (source[after] in NO_LINE_START or separating_slash(source, after)):
            end = after + 1
        else:
            return end


def code_units(source: str, runs: list[Run]) -> Iterator[tuple[int, int, int]]:
    """Each code span as (start, end) with the width of what must stay with it
    on a line: the Latin text glued to it on either side (`(span),W2`), the
    opening marks before it and the closing marks after it, spaces between or not."""
    pos = 0
    for part, style in runs:
        if style == "code" and part.strip():
            start = pos + len(part) - len(part.lstrip(" "))
            end = pos + len(part.rstrip(" "))
            low, high = start, end
            while low > 0 and (is_narrow(source[low - 1]) or source[low - 1] in NO_LINE_END):
                low -= 1
            while high < len(source) and is_narrow(source[high]):
                high += 1
            yield start, end, cell_len(source[low : closed(source, high)])
        pos += len(part)


def faults(width: int) -> list[str]:
    """Every line of the corpus at `width` that breaks a rule, described."""
    found: list[str] = []
    for number, (source, runs, lines) in enumerate(wrapped(width), 1):
        texts = [text_of(line) for line in lines]
        where = place(source, lines)  # nothing lost, nothing added, nothing reordered
        styles = [style for part, style in runs for _ in part]
        for index, (line, text, (start, end)) in enumerate(zip(lines, texts, where, strict=True)):
            here = f"paragraph {number} at {width}: {texts[index - 1] if index else ''!r} / {text!r}"
            if cell_len(text) > width:
                found.append(f"{here}: {cell_len(text)} cells")
            if [style for part, style in line for _ in part] != styles[start:end]:
                found.append(f"{here}: styles moved")
            if not text:
                continue
            if index:
                glued = start == where[index - 1][1]  # broken with no space between
                if text[0] in NO_LINE_START or text[0] == " ":
                    found.append(f"{here}: starts with {text[0]!r}")
                if separating_slash(source, start):
                    found.append(f"{here}: starts with a separating slash")
                if glued and text[0] in QUOTES and source[start + 1 : start + 2] in ("", " ", *NO_LINE_START):
                    found.append(f"{here}: starts with the quote that closes the line before")
            if index + 1 < len(lines):
                following = f"{text!r} / {texts[index + 1]!r}"
                if text[-1] in NO_LINE_END:
                    found.append(f"paragraph {number} at {width}: {following}: ends with {text[-1]!r}")
                glued = end == where[index + 1][0]
                before = source[end - 2 : end - 1]
                if glued and text[-1] in QUOTES and (before in ("", " ") or before in NO_LINE_END):
                    found.append(f"paragraph {number} at {width}: {following}: ends with an opening quote")
        breaks = [start for start, _ in where[1:]]
        for start, end, need in code_units(source, runs):
            if need <= width and any(start < cut < end for cut in breaks):
                found.append(
                    f"paragraph {number} at {width}: code span {source[start:end]!r} broken: {texts}"
                )
    return found


@pytest.mark.parametrize("width", WIDTHS)
def test_the_corpus_wraps_by_the_rules(width: int) -> None:
    found = faults(width)
    assert not found, f"{len(found)} faults:\n" + "\n".join(found[:20])


def test_the_corpus_is_what_the_issue_measured() -> None:
    """A corpus that shrank or changed would let the rules pass on less."""
    assert len(paragraphs()) == 1169
    assert sum(len(wrapped(width)) for width in WIDTHS) == 3 * 1169
    assert sum(len(lines) for width in WIDTHS for _, _, lines in wrapped(width)) > 9000


# -- against ICU ---------------------------------------------------------------------------


def icu_breaks(text: str) -> set[int]:
    """Offsets (in characters) where ICU's line breaker allows a break."""
    import icu

    breaker = icu.BreakIterator.createLineInstance(icu.Locale("zh_CN"))
    breaker.setText(text)
    offsets = {}
    units = 0
    for index, char in enumerate(text):
        offsets[units] = index
        units += 2 if ord(char) > 0xFFFF else 1  # ICU counts UTF-16 code units
    offsets[units] = len(text)
    return {offsets[boundary] for boundary in breaker}


def choice(source: str, cut: int, glued: bool, width: int) -> str | None:
    """Which of the breaker's documented departures from UAX #14 a break is, if any."""
    char, before = source[cut], source[cut - 1]
    after = source[cut + 1 : cut + 2]
    if char == "-" and not (glued and is_narrow(before) and before not in QUOTES):
        return "before an option or a negative number"
    if char == "/" and "!" <= after <= "~":
        return "before an absolute path"
    if char in QUOTES and after not in ("", " ", *NO_LINE_START):
        return "before an opening ASCII quote"
    if before in QUOTES and source[cut - 2 : cut - 1] not in ("", " ", *NO_LINE_END):
        return "after a closing ASCII quote"
    if before == "+" and not is_narrow(char):
        return "between a number with its sign and Chinese"
    low, high = cut, cut
    while low > 0 and is_narrow(source[low - 1]):
        low -= 1
    while high < len(source) and is_narrow(source[high]):
        high += 1
    if (
        glued
        and is_narrow(before)
        and is_narrow(char)
        and cell_len(source[low : closed(source, high)]) > width
    ):
        return "inside a word longer than the line (with its closing marks)"
    return None


@pytest.mark.parametrize("width", WIDTHS)
def test_every_break_icu_would_not_make_is_a_documented_choice(width: int) -> None:
    pytest.importorskip("icu", reason="PyICU is not installed (pip install -e '.[oracle]')")
    unexplained = []
    for number, (source, _, lines) in enumerate(wrapped(width), 1):
        where = place(source, lines)
        allowed = icu_breaks(source)
        for (_, end), (start, _) in pairwise(where):
            if start not in allowed and not choice(source, start, start == end, width):
                unexplained.append(
                    f"paragraph {number}: {source[max(0, end - 20) : end]!r} / {source[start : start + 20]!r}"
                )
    assert not unexplained, f"{len(unexplained)} breaks ICU would not make:\n" + "\n".join(unexplained[:20])
