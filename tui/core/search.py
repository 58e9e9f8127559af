"""Incremental search over reviews, without Textual.

A query is split at whitespace into terms; a review matches when every term
occurs, case-insensitively, somewhere in its title, verdict note, summary,
items (focus, read order, actions, caveats) or refs. Text is searched as it is
shown: backticks around code spans are left out.

Each review's searchable text is lowered once and cached per review object, so
a key press in the search box is one pass of `in` tests over precomputed
strings. Highlighting (`spans`, `split_runs`) is computed only for what is
drawn.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Hashable, Iterable, Iterator, Sequence
from itertools import compress, repeat

from tui.core.model import Review
from tui.core.text import without_backticks

Run = tuple[str, Hashable]

MATCH = "match"
"""The style tag `split_runs` adds to matched pieces: (base style, MATCH)."""


def terms(query: str) -> tuple[str, ...]:
    """The query's terms, lowered, longest first (so highlights prefer the longer)."""
    seen = dict.fromkeys(term.lower() for term in query.split())
    return tuple(sorted(seen, key=len, reverse=True))


def shown(text: str) -> str:
    """Text as the reader sees it: code spans without their backticks."""
    if "`" not in text:
        return text
    return without_backticks(text)


def review_fields(review: Review) -> list[str]:
    """Every searchable text of a review, as shown. A packed body is read and
    left packed (`Review.body_once`): a search reads every body."""
    summary, _url, _date, note, *sections = review.body_once()
    fields = [review.title]
    if note:
        fields.append(shown(note))
    fields.append(shown(summary))
    for items in sections:  # in SECTIONS order
        for _section, text, refs, _id in items:
            fields.append(shown(text))
            fields.extend(refs)
    return fields


class SearchIndex:
    """Lowered searchable text per review, computed on first use and kept.

    Keyed by the review object's id, the object kept alive alongside (so its
    id is never another's): a reloaded review is a new object and gets fresh
    text. `retain` drops the text of reviews that are gone. Tests run in C
    (`map`, `compress`) over the kept texts: ~0.2 µs a review, where a Python
    loop took ~0.6.
    """

    RECENT = 8
    """Searches remembered: a backspace finds its answer here, and a query
    typed further is looked for among the answers of the one before."""

    def __init__(self) -> None:
        self._texts: dict[int, str] = {}
        self._alive: dict[int, Review] = {}  # keeps each id taken by its review
        self._recent: list[tuple[Sequence[Review], tuple[str, ...], list[Review]]] = []

    def text(self, review: Review) -> str:
        key = id(review)
        text = self._texts.get(key)
        if text is not None and self._alive[key] is review:
            return text
        text = self._texts[key] = "\n".join(review_fields(review)).lower()
        self._alive[key] = review
        return text

    def matches(self, review: Review, query_terms: Sequence[str]) -> bool:
        text = self.text(review)
        return all(term in text for term in query_terms)

    def select(self, reviews: Iterable[Review], query_terms: Sequence[str]) -> list[Review]:
        """The reviews that match every term, in their order.

        A list searched recently (the same list object: the library makes new
        ones when it changes) is answered from memory, and a query that
        narrows a recent one (each of its terms is in one of the new terms) is
        looked for among that one's answers: typing at 100,000 reviews tests a
        few hundred texts a key, not all of them."""
        if not query_terms:
            return list(reviews)
        terms_ = tuple(query_terms)
        base, found = self._base(reviews, terms_)
        if found is not None:
            return list(found)
        self._read_in_file_order(base)
        out = self._test(base, terms_)
        self._remember(reviews, terms_, out)
        return out

    def work(self, reviews: Sequence[Review], query_terms: Sequence[str]) -> int:
        """How much `select` would do, in tests of a text made (~0.2 µs each);
        a text to make (~20 µs) weighs 100. 0 when it answers from memory."""
        if not query_terms:
            return 0
        base, found = self._base(reviews, tuple(query_terms))
        if found is not None:
            return 0
        # Texts to make, guessed without looking at each review (a look is ~3 ms
        # at 100,000): at least those beyond the number made.
        return len(base) + 100 * max(0, len(base) - len(self._texts))

    def steps(
        self, reviews: Sequence[Review], query_terms: Sequence[str], piece: int = 4096
    ) -> Iterator[None]:
        """`select`'s work in pieces, yielding between them, so a caller can
        let frames be drawn in between; once it is exhausted, `select` of the
        same list and terms answers from memory. A caller may stop at any
        yield: the texts made so far are kept."""
        if not query_terms:
            return
        terms_ = tuple(query_terms)
        base, found = self._base(reviews, terms_)
        if found is not None:
            return
        pages: dict[object, list[Review]] = {}  # a page's reviews one after the other: one inflate
        for start in range(0, len(base), piece * 4):
            for review in self._missing(base[start : start + piece * 4]):
                pages.setdefault(review.location.path, []).append(review)
            yield
        made = 0
        for page in pages.values():
            for review in page:
                self.text(review)
            made += len(page)
            if made >= piece // 32:
                made = 0
                yield
        out: list[Review] = []
        for start in range(0, len(base), piece):
            out += self._test(base[start : start + piece], terms_)
            yield
        self._remember(reviews, terms_, out)

    def _test(self, reviews: Sequence[Review], terms_: tuple[str, ...]) -> list[Review]:
        """Those of `reviews` (their texts made) whose text has every term."""
        out = list(reviews)
        lowered = self._texts.__getitem__
        for term in terms_:
            out = list(compress(out, map(operator.contains, map(lowered, map(id, out)), repeat(term))))
        return out

    def _missing(self, reviews: Sequence[Review]) -> list[Review]:
        return list(compress(reviews, map(operator.not_, map(self._texts.__contains__, map(id, reviews)))))

    def _base(
        self, reviews: Iterable[Review], terms_: tuple[str, ...]
    ) -> tuple[Sequence[Review], list[Review] | None]:
        """What to test (the answer of a recent query this one narrows, or all
        of `reviews`), or the answer itself when this query was asked lately."""
        base: Sequence[Review] = reviews if isinstance(reviews, Sequence) else list(reviews)
        size = len(base)
        for source, before, found in self._recent:
            if source is not reviews:
                continue
            if before == terms_:
                return base, found
            if len(found) < size and all(any(old in new for new in terms_) for old in before):
                base, size = found, len(found)
        return base, None

    def _remember(self, reviews: Iterable[Review], terms_: tuple[str, ...], out: list[Review]) -> None:
        if isinstance(reviews, Sequence):
            self._recent = [*self._recent[-(self.RECENT - 1) :], (reviews, terms_, out)]

    def _read_in_file_order(self, reviews: Sequence[Review]) -> None:
        """Make the texts not made yet in file order: the reviews of a page
        share a compressed block in the parse cache, inflated once for all of
        them (the list's reading order visits each block ~3 times)."""
        missing = self._missing(reviews)
        if len(missing) > 1:
            missing.sort(key=_place)
        for review in missing:
            self.text(review)

    def retain(self, alive: Iterable[Review]) -> None:
        """Forget reviews not in `alive` (after a reload)."""
        keep = {id(review) for review in alive}
        self._texts = {key: text for key, text in self._texts.items() if key in keep}
        self._alive = {key: review for key, review in self._alive.items() if key in keep}
        self._recent = []

    def __len__(self) -> int:
        return len(self._texts)


def _place(review: Review) -> tuple:
    location = review.location
    return location.path.parts, location.line


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
