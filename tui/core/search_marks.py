"""Where a search's terms occur in a text as shown: the matched pieces of
styled runs (`split_runs`) and a line's piece around the first match
(`snippet`), computed only for what is drawn."""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence

Run = tuple[str, Hashable]

MATCH = "match"
"""The style tag `split_runs` adds to matched pieces: (base style, MATCH)."""


def spans(text: str, query_terms: Sequence[str]) -> list[tuple[int, int]]:
    """Where the terms occur in `text`, as sorted, non-overlapping (start, end)."""
    if not query_terms or not text:
        return []
    lowered = text.lower()
    found: list[tuple[int, int]] = []
    if len(lowered) == len(text):
        for term in query_terms:
            start = lowered.find(term)
            while start >= 0:
                found.append((start, start + len(term)))
                start = lowered.find(term, start + len(term))
    else:  # lowering changed the length (e.g. "İ"): match on the text itself
        pattern = re.compile("|".join(re.escape(term) for term in query_terms), re.IGNORECASE)
        found = [(m.start(), m.end()) for m in pattern.finditer(text) if m.end() > m.start()]
    found.sort()
    merged: list[tuple[int, int]] = []
    for start, end in found:
        if merged and start < merged[-1][1]:
            continue  # overlaps an earlier (longer-first) match
        merged.append((start, end))
    return merged


def split_runs(runs: Sequence[Run], query_terms: Sequence[str]) -> tuple[list[Run], int]:
    """Cut runs where the terms match; matched pieces get the style (style, MATCH).

    Returns the new runs and how many matches there were. The text is unchanged,
    so line breaking is unchanged.
    """
    if not query_terms:
        return list(runs), 0
    text = "".join(part for part, _ in runs)
    found = spans(text, query_terms)
    if not found:
        return list(runs), 0
    out: list[Run] = []
    pos = 0
    index = 0
    for part, style in runs:
        start, end = pos, pos + len(part)
        cursor = start
        while index < len(found) and found[index][0] < end:
            match_start, match_end = found[index]
            lo, hi = max(match_start, cursor), min(match_end, end)
            if lo > cursor:
                out.append((text[cursor:lo], style))
            if hi > lo:
                out.append((text[lo:hi], (style, MATCH)))
            cursor = max(cursor, hi)
            if match_end <= end:
                index += 1
            else:
                break
        if cursor < end:
            out.append((text[cursor:end], style))
        pos = end
    return out, len(found)


def snippet(text: str, query_terms: Sequence[str], width: int) -> tuple[str, int, int] | None:
    """A piece of `text` around its first match, at most about `width` characters
    of one line, with the match's (start, end) within the piece; None if no match."""
    found = spans(text, query_terms)
    if not found:
        return None
    start, end = found[0]
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    lead = max(line_start, start - max(4, width // 4))
    piece_end = min(line_end, lead + max(width, end - lead))
    prefix = "…" if lead > line_start else ""
    return prefix + text[lead:piece_end], len(prefix) + start - lead, len(prefix) + end - lead
