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

import functools
import operator
import re
import string
from array import array
from collections.abc import Hashable, Iterable, Iterator, Sequence
from itertools import compress, repeat
from operator import itemgetter

from tui.core.model import Review
from tui.core.search_memory import ListAnswers, bits_of, flags_of, narrows
from tui.core.search_scan import Job, Scan, Span
from tui.core.search_widths import Parts, holds, joined, same_width, split
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
    """Lowered searchable text per review, and what searches answered.

    Texts are made on first use (or ahead, by `prepare`) and kept split by
    width (`tui.core.search_widths`: a term is looked for in its width's part
    only), keyed by the review object's id, the object kept alive alongside
    (so its id is never another's): a reloaded review is a new object and
    gets fresh text.
    `retain` drops the text of reviews that are gone. Answers are kept per
    list searched (`tui.core.search_memory`); a list is the same object until
    the library changes, so a reload starts them afresh. Tests run in C
    (`map`, `compress`) over the kept texts: ~0.2 µs a review.
    """

    LISTS = 4
    """Lists whose answers are kept (All, a tag, a view...)."""

    def __init__(self) -> None:
        self._texts: dict[int, Parts] = {}
        self._alive: dict[int, Review] = {}  # keeps each id taken by its review
        self._lists: list[ListAnswers[Review]] = []

    def parts(self, review: Review, whole: bool = False) -> Parts:
        """Its searchable text, lowered, as kept: its two parts. `whole`, if
        made now: kept whole in both (not split: ~10 µs of the ~40 a text
        costs), as a scan that waits for it makes it; `prepare` splits it."""
        key = id(review)
        parts = self._texts.get(key)
        if parts is not None and self._alive[key] is review:
            return parts
        text = "\n".join(review_fields(review)).lower()
        parts = self._texts[key] = (text, text) if whole else split(text)
        self._alive[key] = review
        return parts

    def text(self, review: Review) -> str:
        """Its searchable text, lowered, in its order."""
        return joined(*self.parts(review))

    def matches(self, review: Review, query_terms: Sequence[str]) -> bool:
        parts = self.parts(review)
        return all(holds(parts, term) for term in query_terms)

    def select(self, reviews: Iterable[Review], query_terms: Sequence[str]) -> list[Review]:
        """The reviews that match every term, in their order.

        A query asked of the same list lately (the same list object: the
        library makes new ones when it changes) is answered from memory, and
        one that narrows kept answers is looked for only where they all
        matched: typing at 100,000 reviews tests what the query before found,
        not every review. A scan of it still running (`scan`) is finished.
        The list returned may be one the index keeps: not to be changed."""
        if not query_terms:
            return list(reviews)
        wanted = tuple(query_terms)
        scan = self.scan(reviews, wanted)
        scan.finish()
        answers = scan.answers
        return answers.items(answers.answer(wanted), wanted)

    def answer(self, reviews: Iterable[Review], query_terms: Sequence[str]) -> Sequence[Review]:
        """`select`'s answer, not made into a list of its own: what the index
        keeps of it, or a view of the list (`search_memory.Picked`). To be
        read, not changed: listing 100,000 matches costs the rows drawn."""
        if not query_terms:
            return reviews if isinstance(reviews, Sequence) else list(reviews)
        wanted = tuple(query_terms)
        scan = self.scan(reviews, wanted)
        scan.finish()
        answers = scan.answers
        return answers.picked(answers.answer(wanted), wanted)

    def scan(
        self, reviews: Iterable[Review], query_terms: Sequence[str], first: int | None = None
    ) -> Scan[Review]:
        """The search of `query_terms` (not empty) in `reviews`, to run in
        pieces (`tui.core.search_scan`). The scan of the list still running
        is it if its query is the same, narrowed from if this one narrows it
        (else left: its texts are kept), and replaced either way. `first`:
        while texts are missing, how many matches to look for in the list's
        order before the rest's texts are made (`Scan.first`)."""
        wanted = tuple(query_terms)
        answers = self._answers(reviews)
        running = answers.running
        if running is not None and running.wanted == wanted and not running.done:
            return running
        bits, rest, exact = answers.base(wanted)
        if exact:
            answers.remember(wanted, bits)
            return Scan.answered(answers, wanted)
        scan = None
        if running is not None and narrows(wanted, running.wanted):
            scan = running.narrowed(wanted)
        if scan is None:
            scan = self._plan(answers, wanted, bits, rest, first)
        answers.running = None if scan.done else scan
        return scan

    def work(self, reviews: Sequence[Review], query_terms: Sequence[str]) -> int:
        """How much `select` would do, in tests of a text made (~0.2 µs each:
        a character looked for, or a longer term where a shorter one it begins
        with was found; a longer term looked for from the start weighs 4); a
        text to make (~20 µs) weighs 100. 0 when it answers from memory."""
        if not query_terms:
            return 0
        wanted = tuple(query_terms)
        answers = self._answers(reviews)
        bits, rest, exact = answers.base(wanted)
        if exact:
            return 0
        count = bits.bit_count()
        parent = answers.parent(wanted, rest)
        placed = parent[0] if parent is not None and len(answers.full[parent[1]].term) > 1 else None
        tests = count * sum(1 if len(term) == 1 or term == placed else 4 for term in rest)
        if answers.texts is not None:
            return tests
        # Texts to make, guessed without looking at each review (a look is ~3 ms
        # at 100,000): at least those beyond the number made.
        return tests + 100 * max(0, count - len(self._texts))

    def steps(
        self, reviews: Sequence[Review], query_terms: Sequence[str], piece: int = 4096
    ) -> Iterator[None]:
        """`select`'s work in pieces, yielding between them, so a caller can
        let frames be drawn in between; once it is exhausted, `select` of the
        same list and terms answers from memory. A caller may stop at any
        yield: the texts made so far are kept."""
        if not query_terms:
            return
        scan = self.scan(reviews, query_terms)
        while not scan.advance(piece):
            yield

    PREPARED = string.ascii_lowercase + string.digits + "_"
    """One-character queries `prepare` answers ahead: the first character of
    most queries of code words (a first character tests every text)."""

    def prepare(self, reviews: Sequence[Review], piece: int = 64) -> Iterator[None]:
        """Make the texts not made yet and answer `PREPARED`, then split the
        texts (`tui.core.search_widths`), yielding every `piece` texts or so
        (a caller runs this in the background, so that the first search does
        not read every review's body). Made whole first: a first character
        typed soon after is answered as soon as without the split."""
        yield from self._make(reviews, piece, whole=True)
        answers = self._answers(reviews)
        yield from self._align(answers, piece * 64, again=True)  # (a scan's may be under way)
        texts = answers.texts  # PREPARED characters are Latin-1: found in whole texts or Latin-1 parts
        if texts is None:
            return  # the list changed meanwhile (a reload)
        step = piece * 32  # (~0.3-0.5 µs a text: a slice's share)
        for char in self.PREPARED:
            if (char,) in answers.chars:
                continue
            hits = []
            for start in range(0, len(texts), step):
                hits.append(bytes(map(operator.contains, texts[start : start + step], repeat(char))))
                yield
            answers.remember((char,), bits_of(b"".join(hits)))
        yield from self._split_whole(answers, piece)  # (~10 µs a text: a piece within a slice)

    def _plan(
        self,
        answers: ListAnswers[Review],
        wanted: tuple[str, ...],
        bits: int,
        rest: tuple[str, ...],
        first: int | None = None,
    ) -> Scan[Review]:
        """A scan of `wanted` where `bits` (what kept answers leave) says, for
        the terms of `rest`. Nothing here costs what the list's length costs:
        this runs in a key's turn. Texts that may be missing are made as the
        scan reaches them (`Scan`'s `make`)."""
        size = answers.size
        known = frozenset(term for term in wanted if term not in rest)
        parent = answers.parent(wanted, rest)
        further, among, placed = answers.typed_further(wanted, rest, bits)
        if further is not None:  # its term first: where to look is known for it
            assert parent is not None
            rest = (further.term, *(term for term in rest if term != further.term))
            anchor = answers.full[parent[1]].term
            starts = further.starts
            if not same_width(further.term, anchor):  # its places are in the other part
                starts, placed = array("i", [0]) * len(further.reviews), False
            job = Job(
                rest,
                further.reviews,
                further.texts,
                further.wides,
                further.places,
                starts,
                placed,
                known,
                anchor,
                among,
            )
            return Scan(answers, wanted, [job])
        flags = None if bits == answers.every else flags_of(bits, size)
        texts = self._aligned(answers)
        if texts is not None:
            span = Span(rest, answers.source, (texts, answers.wides), self._lookup, flags, known)
            return Scan(answers, wanted, [span])
        span = Span(rest, answers.source, None, self._text_of, flags, known)
        return Scan(answers, wanted, [span], make=functools.partial(self._make_for, answers), first=first)

    def _split_whole(self, answers: ListAnswers[Review], piece: int) -> Iterator[None]:
        """Split the texts of `answers`' list kept whole (made while a scan
        waited), in its texts and in the index. What holds the whole ones
        (a running scan's matches, kept answers with their places in them)
        keeps them: a place is only ever used with the text it was found in."""
        texts, wides, source = answers.texts, answers.wides, answers.source
        assert texts is not None
        yield from self._forget_whole(answers)  # so that each whole text is freed as it is split
        for start in range(0, len(texts), piece):
            for n in compress(
                range(start, start + piece),
                map(operator.is_, texts[start : start + piece], wides[start : start + piece]),
            ):
                parts = split(texts[n])
                if parts[0] is not parts[1]:  # (a text that holds `SEP` stays whole)
                    texts[n], wides[n] = self._texts[id(source[n])] = parts
            yield
        yield from self._forget_whole(answers)  # (answers kept meanwhile)

    def _forget_whole(self, splitting: ListAnswers[Review]) -> Iterator[None]:
        """Drop what holds texts kept whole beside `_texts` (which splits
        them): answers kept in full and other lists' texts in order (not
        `splitting`'s, split in place), made
        from the whole ones. Kept, they would keep every whole text (~160 MB
        at 100,000) alive beside its split one; each is made again when
        needed (a term typed further is looked for from the start once)."""
        for answers in list(self._lists):
            for wanted, full in list(answers.full.items()):
                if any(map(operator.is_, full.texts, full.wides)) and answers.full.get(wanted) is full:
                    del answers.full[wanted]
                yield  # (~1 ms for 100,000 texts split)
            texts = answers.texts
            if (
                texts is not None
                and answers is not splitting
                and any(map(operator.is_, texts, answers.wides))
            ):
                answers.texts, answers.wides, answers.looked_at = None, [], -1

    def _make_for(
        self, answers: ListAnswers[Review], chunks: Iterable[Sequence[Review]], piece: int
    ) -> Iterator[None]:
        """A scan's `make`: the texts missing of its candidates, then, if every
        text of the list is made now, them in its order (`_align`)."""
        yield from self._make_chunks(chunks, piece, whole=True)
        yield from self._align(answers, piece * 256)

    def _lookup(self, review: Review) -> Parts:
        return self._texts[id(review)]

    def _text_of(self, review: Review) -> Parts:
        """Its text, made now (whole: a scan waits for it) if it is not yet."""
        parts = self._texts.get(id(review))
        return self.parts(review, whole=True) if parts is None else parts

    ALIGN_AT_ONCE = 8192
    """The longest list whose texts `_aligned` looks up in one go (~2 ms); a
    longer one's (~23 ms at 100,000) are looked up by `prepare`, in pieces."""

    def _aligned(self, answers: ListAnswers[Review]) -> list[str] | None:
        """The texts of `answers`' list, one a review in its order, once every
        one is made and they were looked up (a scan of a list whose texts are
        not takes each text by its review: ~0.25 µs a candidate more)."""
        if answers.texts is None and answers.size <= self.ALIGN_AT_ONCE:
            for _ in self._align(answers, max(1, answers.size)):
                pass
        return answers.texts

    def _align(self, answers: ListAnswers[Review], piece: int, again: bool = False) -> Iterator[None]:
        """Look up the texts of `answers`' list in its order (`ListAnswers.texts`),
        `piece` reviews at a time, if every one may be made; no more than once
        for as many texts made unless `again`: a look begun by a scan may be
        left half done (the scan dropped), and `prepare` needs them."""
        made = len(self._texts)
        if answers.texts is not None or made < answers.size or (made == answers.looked_at and not again):
            return
        answers.looked_at = made
        get, source = self._texts.get, answers.source
        texts: list[str] = []
        wides: list[str] = []
        for start in range(0, answers.size, piece):
            found = list(map(get, map(id, source[start : start + piece])))
            if None in found:
                return
            part: list[Parts] = found  # type: ignore[assignment]  # no None in it
            texts.extend(map(itemgetter(0), part))
            wides.extend(map(itemgetter(1), part))
            yield
        if answers.texts is None:  # else another look ended first (and `prepare` may split them)
            answers.texts, answers.wides = texts, wides

    def _answers(self, reviews: Iterable[Review]) -> ListAnswers[Review]:
        if not isinstance(reviews, Sequence):
            return ListAnswers(list(reviews))  # a one-off: nothing to remember it by
        for answers in self._lists:
            if answers.source is reviews and answers.size == len(reviews):
                self._lists.remove(answers)
                self._lists.append(answers)
                return answers
        answers = ListAnswers(reviews)
        self._lists = [*self._lists[-(self.LISTS - 1) :], answers]
        return answers

    def _missing(self, reviews: Sequence[Review]) -> list[Review]:
        return list(compress(reviews, map(operator.not_, map(self._texts.__contains__, map(id, reviews)))))

    def _make(self, reviews: Sequence[Review], piece: int, whole: bool = False) -> Iterator[None]:
        step = piece * 16  # (a chunk's look is ~0.5 µs a review: a slice's share)
        return self._make_chunks(
            (reviews[start : start + step] for start in range(0, len(reviews), step)), piece, whole
        )

    def _make_chunks(
        self, chunks: Iterable[Sequence[Review]], piece: int, whole: bool = False
    ) -> Iterator[None]:
        """Make the missing texts of the reviews in `chunks` a page at a time
        (a page's reviews share a compressed block in the parse cache, inflated
        once for all of them; the list's order visits each block ~3 times),
        yielding after each chunk is looked at and every `piece` texts or so;
        `whole`: not split (`parts`)."""
        pages: dict[object, list[Review]] = {}
        for chunk in chunks:
            for review in self._missing(chunk):
                pages.setdefault(review.location.path, []).append(review)
            yield
        made = 0
        for page in pages.values():
            for review in page:
                self.parts(review, whole)
            made += len(page)
            if made >= piece:
                made = 0
                yield

    def retain(self, alive: Iterable[Review]) -> None:
        """Forget reviews not in `alive` (after a reload), and every answer."""
        keep = {id(review) for review in alive}
        self._texts = {key: text for key, text in self._texts.items() if key in keep}
        self._alive = {key: review for key, review in self._alive.items() if key in keep}
        self._lists = []

    def __len__(self) -> int:
        return len(self._texts)


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
