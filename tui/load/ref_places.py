"""Where in its entry file each ref of a review is written, for warnings at
file:line:column (`prdigest-tui check --repo-dir`).

The model keeps a review's position, not its refs'; a ref is found again in the
file's text, between its review's start and the next review's: its first
backticked or quoted appearance, else its first appearance, else the review's
own position.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from pathlib import Path

from tui.core.model import Location, Review

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class FileText:
    """One entry file's text, with line starts to turn offsets into locations."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.text = text
        self.starts = [0, *(m.end() for m in _LINE_BREAK.finditer(text))]

    @classmethod
    def read(cls, path: Path) -> FileText:
        try:
            return cls(path, path.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            return cls(path, "")

    def offset(self, location: Location) -> int:
        line = min(max(location.line, 1), len(self.starts))
        return min(self.starts[line - 1] + location.column - 1, len(self.text))

    def location(self, offset: int) -> Location:
        line = bisect.bisect_right(self.starts, offset)
        return Location(self.path, line, offset - self.starts[line - 1] + 1)


def ref_locations(file: FileText, review: Review, end: int, texts: Iterable[str]) -> dict[str, Location]:
    """The location of each ref text of `review`, whose text ends at offset `end`."""
    start = file.offset(review.location)
    out: dict[str, Location] = {}
    for text in texts:
        best = -1
        for quote in ("`", '"', "'"):
            found = file.text.find(f"{quote}{text}{quote}", start, end)
            if found >= 0 and (best < 0 or found < best):
                best = found + 1
        if best < 0:
            best = file.text.find(text, start, end)
        out[text] = file.location(best) if best >= 0 else review.location
    return out


def review_ends(file: FileText, reviews: list[Review]) -> dict[int, int]:
    """Each review's end offset (the next review's start, or the end of the
    file), by `id` of the review."""
    ordered = sorted(reviews, key=lambda r: (r.location.line, r.location.column))
    starts = [file.offset(r.location) for r in ordered]
    ends = [*starts[1:], len(file.text)]
    return {id(review): end for review, end in zip(ordered, ends, strict=True)}
