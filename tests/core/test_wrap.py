"""The line breaker on the bundled digest at every width, and on crafted edge cases."""

from __future__ import annotations

import re
from collections.abc import Hashable
from functools import cache

import pytest
from rich.cells import cell_len

from tests.wrapped_lines import place, text_of
from tui.core.model import SECTIONS
from tui.core.text import code_spans
from tui.core.wrap import Line, Run, wrap
from tui.load.parse import load_file
from tui.store.locations import bundled_entries

CLOSING = "，。、；：？！）」』”’"
OPENING = "（「『“‘"
WIDTHS = range(1, 121)
WIDE = re.compile(
    r"[\u1100-\u115f\u2e80-\u303e\u3041-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]"
)


@cache
def digest_runs() -> tuple[tuple[Run, ...], ...]:
    """Every text of the bundled digest, as (text, style) runs with code spans styled."""
    reviews = load_file(bundled_entries() / "vllm-tag-view.yaml").reviews
    assert len(reviews) == 8
    texts: list[str] = []
    for review in reviews:
        texts += [review.title, review.summary, review.verdict_note or ""]
        texts += [item.text for section in SECTIONS for item in review.items(section)]
    return tuple(
        tuple((part, "code" if is_code else "text") for part, is_code in code_spans(text))
        for text in texts
        if text
    )


def chars_of(runs: list[Run] | tuple[Run, ...] | Line) -> list[tuple[str, Hashable]]:
    return [(char, style) for text, style in runs for char in text]


def clusters(source: str) -> list[tuple[int, int, int]]:
    """Latin words (any run of narrow non-space characters) as (start, end, width with the
    punctuation glued to them); the glued width is what must fit on a line."""
    out = []
    for match in re.finditer(r"[^\s]+", source):
        token = match.group()
        for word in re.finditer(r"[^\s" + re.escape(CLOSING + OPENING) + r"]+", token):
            if WIDE.search(word.group()):
                continue
            start, end = match.start() + word.start(), match.start() + word.end()
            before = start
            while before > 0 and source[before - 1] in OPENING:
                before -= 1
            after = end
            while after < len(source) and source[after] in CLOSING:
                after += 1
            # Only whole words: not ones glued to CJK characters on either side.
            out.append((start, end, cell_len(source[before:after])))
    return out


# -- the bundled digest at every width ----------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_digest_at_every_width(width: int) -> None:
    for runs in digest_runs():
        source = "".join(text for text, _ in runs)
        lines = wrap(runs, width)
        where = place(source, lines)
        texts = [text_of(line) for line in lines]
        for index, text in enumerate(texts):
            if width == 1 and len(text) == 1:
                assert cell_len(text) <= 2  # a lone wide character cannot be narrower
            else:
                assert cell_len(text) <= width, (width, text)
            if width < 4 or not text:
                continue
            # Below 6 cells "本），" (6 cells) cannot stay whole: only a chain of
            # punctuation too long for the line may then be split.
            before = texts[index - 1] if index else ""
            after = texts[index + 1] if index + 1 < len(texts) else ""
            if text[0] in CLOSING:
                assert width < 6 and before[-1:] in tuple(CLOSING), (width, before, text)
            if text[-1] in OPENING:
                assert width < 6 and after[:1] in tuple(OPENING), (width, text, after)
        # Styles travel with their characters, across breaks too.
        styles = chars_of(runs)
        for line, (start, _end) in zip(lines, where, strict=True):
            assert chars_of(line) == styles[start : start + len(text_of(line))]
        # A word that fits on a line (with its punctuation) is never cut.
        breaks = {start for start, _ in where[1:]}
        for start, end, need in clusters(source):
            if need <= width:
                assert not any(start < b < end for b in breaks), (width, source[start:end])


def test_hard_line_breaks_are_kept() -> None:
    lines = wrap([("first\n\nthird line", None)], 80)
    assert [text_of(line) for line in lines] == ["first", "", "third line"]


def test_indentation_is_kept_but_never_becomes_a_blank_line() -> None:
    assert [text_of(line) for line in wrap([("  ab cd", None)], 10)] == ["  ab cd"]
    assert [text_of(line) for line in wrap([("x\n  ab cd", None)], 10)] == ["x", "  ab cd"]
    for text, width in (("  abcd", 5), ("    abcdefghijkl", 6), ("  （abcdefghijkl", 6), ("    统一", 5)):
        lines = [text_of(line) for line in wrap([(text, None)], width)]
        assert "" not in lines, (text, width, lines)
        assert "".join(lines).strip() == text.strip()


def test_spaces_at_a_break_are_dropped() -> None:
    lines = wrap([("alpha beta gamma", None)], 10)
    assert [text_of(line) for line in lines] == ["alpha beta", "gamma"]
    lines = wrap([("alpha  beta", None)], 6)
    assert [text_of(line) for line in lines] == ["alpha", "beta"]


def test_chinese_breaks_between_characters() -> None:
    lines = wrap([("值得精读但重点不在搬运量", None)], 10)
    assert [text_of(line) for line in lines] == ["值得精读但", "重点不在搬", "运量"]


def test_closing_punctuation_stays_with_the_character_before() -> None:
    lines = wrap([("一二三四，五六", None)], 8)
    assert [text_of(line) for line in lines] == ["一二三", "四，五六"]
    lines = wrap([("一二三（四五）", None)], 8)
    assert [text_of(line) for line in lines] == ["一二三", "（四五）"]


def test_closing_punctuation_after_a_word_longer_than_the_line() -> None:
    # "NVIDIA」" is 8 cells: at width 7 something must give, and it is not the rule
    # that a line never starts with closing punctuation.
    for width in range(6, 9):
        for text in ("即 NVIDIA」回落", "gemma4 惰性 <|tool_response>），若后续", "版本），到期"):
            for line in wrap([(text, None)], width):
                line_text = text_of(line)
                assert cell_len(line_text) <= width
                assert not line_text or line_text[0] not in CLOSING, (width, line_text)
                assert not line_text or line_text[-1] not in OPENING, (width, line_text)


def test_words_shorter_than_the_line_are_not_split() -> None:
    text = "建议直接统一使用 async_tensor_h2d，避免再次引入重复的拷贝工具"
    for width in range(18, 40):
        lines = [text_of(line) for line in wrap([(text, None)], width)]
        assert any("async_tensor_h2d" in line for line in lines), (width, lines)


def test_code_style_is_kept_on_both_sides_of_a_break() -> None:
    runs = [
        ("import ", "text"),
        ("vllm.model_executor.layers.sparse_attn_indexer_kpool", "code"),
        (" now", "text"),
    ]
    lines = wrap(runs, 20)
    code_lines = [line for line in lines if any(style == "code" for _, style in line)]
    assert len(code_lines) >= 3
    assert "".join(text for line in lines for text, style in line if style == "code") == runs[1][0]
    assert all(style == "code" for _, style in code_lines[1])  # a middle line: all code
    assert lines[0][0] == ("import ", "text")


def test_long_path_breaks_after_separators() -> None:
    path = "vllm/model_executor/layers/sparse_attn_indexer_kpool.py"
    for width in range(8, len(path)):
        lines = [text_of(line) for line in wrap([(path, "code")], width)]
        assert "".join(lines) == path
        for line in lines[:-1]:
            # Cut elsewhere only where the piece offers no separator at all.
            assert line[-1] in "/._" or not any(c in "/._" for c in line), (width, lines)
            assert cell_len(line) <= width
        assert any(line.endswith("/") for line in lines[:-1])


def test_unbreakable_token_is_cut_at_the_width() -> None:
    lines = [text_of(line) for line in wrap([("x" * 25, None)], 10)]
    assert lines == ["x" * 10, "x" * 10, "x" * 5]


@pytest.mark.parametrize("width", [0, -1, -80])
def test_zero_and_negative_widths_do_not_raise(width: int) -> None:
    for runs in digest_runs()[:5]:
        lines = wrap(runs, width)
        source = "".join(text for text, _ in runs)
        place(source, lines)
        assert all(len(text_of(line)) <= 1 for line in lines)


def test_empty_input() -> None:
    assert wrap([], 10) == [[]]
    assert wrap([("", None)], 10) == [[]]
