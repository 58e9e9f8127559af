"""A search being run: a query's candidates tested in the list's order, a
piece at a time, so that a caller can stop after any piece, show the matches
found so far (the first rows of the answer, in order: nothing later can come
before them) and go on later. No Textual, no clock: the caller says how many
candidates a piece tests.

While texts are missing (the first search of a session, before they are all
made ahead), a scan still starts at once: it tests its candidates in the
list's order and makes each one's text as it reaches it, until it has found
`Scan.first` matches (the first rows); then it makes the texts of the
candidates it has left in file order (the reviews of a page share a block of
the parse cache: ~35 µs a text in the list's order, ~22 in the files') and
goes on testing them.

A query typed further while a scan still runs narrows it rather than starting
again: the part scanned is narrowed from its matches (where the longer term is
looked for from where the shorter one was found), the part not scanned yet
from its candidates, in that order, which is the list's. When the last piece
is tested the answer is kept (`ListAnswers.remember`) exactly as a search done
at once keeps it.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from itertools import compress
from operator import itemgetter
from typing import Generic, TypeVar

from tui.core.search_memory import Found, ListAnswers, bits_at
from tui.core.search_widths import Parts, matching, same_width

T = TypeVar("T")

Make = Callable[[Iterator[Sequence[T]], int], Iterator[None]]
"""`Scan`'s `make(chunks, piece)`: makes the missing texts of the candidates
in `chunks` (lists of them, in the list's order) in file order, yielding after
each chunk is looked at and every `piece` texts or so."""

UNTESTED_STEP = 1024
"""Places of the list a chunk of a scan's candidates not tested yet spans."""


class Job(Generic[T]):
    """Candidates to test, in the list's order: the terms still to test there
    (`rest`), and what is known of every one of them: `known` terms it holds,
    and `starts`, where to look for the first term of `rest` (at or before
    where it first occurs; where `anchor`, a term it begins with, first occurs
    when `placed`; in the part of the first term's width: `search_widths`).
    `texts` and `wides`: the candidates' texts' two parts. `flags`, if given (0/1, one an entry): only the entries
    set are candidates, taken as they are reached (a kept answer narrowed by
    others is not copied first: ~10 ms at 100,000). `at`: how many entries
    are passed."""

    __slots__ = (
        "anchor",
        "at",
        "flags",
        "known",
        "placed",
        "places",
        "rest",
        "reviews",
        "starts",
        "texts",
        "wides",
    )

    def __init__(
        self,
        rest: tuple[str, ...],
        reviews: list[T],
        texts: list[str],
        wides: list[str],
        places: array,
        starts: array,
        placed: bool,
        known: frozenset[str],
        anchor: str | None,
        flags: bytes | None = None,
    ) -> None:
        self.rest, self.reviews, self.texts, self.wides = rest, reviews, texts, wides
        self.places, self.starts, self.placed = places, starts, placed
        self.known, self.anchor, self.flags = known, anchor, flags
        self.at = 0

    @property
    def term(self) -> str | None:
        """The term the matches' places are kept for (the last tested)."""
        return self.rest[-1] if self.rest else self.anchor

    @property
    def size(self) -> int:
        """How far `at` goes: one a candidate."""
        return len(self.reviews)

    def piece(self, start: int, end: int) -> tuple[list[T], list[str], list[str], array, array]:
        """The candidates from `start` to `end`: reviews, texts (their two
        parts), places, starts."""
        flags = self.flags
        if flags is None:
            return (
                self.reviews[start:end],
                self.texts[start:end],
                self.wides[start:end],
                self.places[start:end],
                self.starts[start:end],
            )
        some = flags[start:end]
        return (
            list(compress(self.reviews[start:end], some)),
            list(compress(self.texts[start:end], some)),
            list(compress(self.wides[start:end], some)),
            array("i", compress(self.places[start:end], some)),
            array("i", compress(self.starts[start:end], some)),
        )

    def place_at(self, at: int) -> int:
        """Where in the list the entry at `at` is (no later than the next candidate)."""
        return self.places[at]

    def count_from(self, start: int) -> int:
        return len(self.reviews) - start if self.flags is None else self.flags.count(1, start)

    def untested(self) -> Iterator[Sequence[T]]:
        """Its candidates not tested yet whose texts may be missing: none (a
        job's texts are known)."""
        return iter(())

    def narrowed(self, wanted: tuple[str, ...], start: int = 0) -> Job[T] | None:
        """Its candidates from `start` on, to be tested for `wanted` (which
        narrows what it was testing): the terms not known yet, the one typed
        further from `anchor` first, looked for from the places kept for it
        (from the start for any other term). None if none are left."""
        if start >= len(self.reviews):
            return None
        rest = self._rest(wanted)
        anchor = self.anchor
        longer = [term for term in rest if anchor and term != anchor and term.startswith(anchor)]
        if longer and same_width(longer[0], anchor):
            rest = (longer[0], *(term for term in rest if term != longer[0]))
            starts = self.starts[start:]
            placed = len(anchor or "") > 1
        else:
            starts, placed, anchor = array("i", [0]) * (len(self.reviews) - start), False, None
        return Job(
            rest,
            self.reviews[start:],
            self.texts[start:],
            self.wides[start:],
            self.places[start:],
            starts,
            placed,
            self.known,
            anchor,
            None if self.flags is None else self.flags[start:],
        )

    def _rest(self, wanted: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(term for term in wanted if not any(term in known for known in self.known))


class Span(Job[T]):
    """Candidates to test where `flags` (one a review of the list, None: every
    one) is set, taken from the list as they are reached, one `at` a place in
    it: a scan of a whole list starts without copying ~100,000 of them first
    (~10 ms at 100,000), and only the pieces scanned are ever copied. Looked
    for from the start of each text (no place kept for them). `texts` and
    `wides`: the list's texts' two parts, in its order (None: each review's
    looked up, `lookup`)."""

    __slots__ = ("lookup", "source")

    def __init__(
        self,
        rest: tuple[str, ...],
        source: Sequence[T],
        texts: tuple[Sequence[str], Sequence[str]] | None,
        lookup: Callable[[T], Parts],
        flags: bytes | None,
        known: frozenset[str],
    ) -> None:
        super().__init__(rest, [], [], [], array("i"), array("i"), False, known, None)
        self.source, self.flags, self.lookup = source, flags, lookup
        self.texts, self.wides = texts if texts is not None else (None, None)  # type: ignore[assignment]

    @property
    def size(self) -> int:
        return len(self.source)

    def piece(self, start: int, end: int) -> tuple[list[T], list[str], list[str], array, array]:
        flags = self.flags
        texts: Sequence[str] | None = self.texts
        wides: Sequence[str] = self.wides
        if flags is None:
            reviews = list(self.source[start:end])
            places = array("i", range(start, min(end, len(self.source))))
            if texts is not None:
                latin, wide = list(texts[start:end]), list(wides[start:end])
        else:
            some = flags[start:end]
            reviews = list(compress(self.source[start:end], some))
            places = array("i", compress(range(start, end), some))
            if texts is not None:
                latin, wide = list(compress(texts[start:end], some)), list(compress(wides[start:end], some))
        if texts is None:
            parts = list(map(self.lookup, reviews))
            latin, wide = list(map(itemgetter(0), parts)), list(map(itemgetter(1), parts))
        return reviews, latin, wide, places, array("i", [0]) * len(reviews)

    def place_at(self, at: int) -> int:
        return at

    def count_from(self, start: int) -> int:
        return len(self.source) - start if self.flags is None else self.flags.count(1, start)

    def untested(self) -> Iterator[Sequence[T]]:
        if self.texts is not None:
            return
        source, flags = self.source, self.flags
        for start in range(self.at, len(source), UNTESTED_STEP):
            end = start + UNTESTED_STEP
            yield source[start:end] if flags is None else list(compress(source[start:end], flags[start:end]))

    def narrowed(self, wanted: tuple[str, ...], start: int = 0) -> Job[T] | None:
        if start >= len(self.source):
            return None
        texts = None if self.texts is None else (self.texts, self.wides)
        span = Span(self._rest(wanted), self.source, texts, self.lookup, self.flags, self.known)
        span.at = start
        return span


class Scan(Generic[T]):
    """The search of `wanted` in `answers`' list, run in pieces (`advance`) or
    to its end (`finish`). `found`: the matches so far, in the list's order, a
    first part of the answer; `place`: where in the list the next candidate is
    (the list's size once done). `make`, if its candidates' texts may be
    missing: then the first `first` matches are looked for in the list's
    order, texts made as reached, and the rest's texts are made (`make`)
    before it goes on."""

    FIRST = 64
    """Matches looked for in the list's order while texts are missing, unless
    told: a page of the review list or so."""

    def __init__(
        self,
        answers: ListAnswers[T],
        wanted: tuple[str, ...],
        jobs: list[Job[T]] | None,
        *,
        make: Make[T] | None = None,
        first: int | None = None,
    ) -> None:
        self.answers, self.wanted = answers, wanted
        self.first = self.FIRST if first is None else first
        self.done = False
        self._answered = False
        self._jobs: list[Job[T]] = jobs or []
        self._make = make  # None: every candidate's text is made
        self._making: Iterator[None] | None = None  # the rest's texts, being made
        self._current = 0
        term = next((job.term for job in self._jobs if job.term), None)
        self.out: Found[T] = Found(term or "", [], [], [], array("i"), array("i"))
        if jobs is not None and not jobs:
            self._complete()

    @classmethod
    def answered(cls, answers: ListAnswers[T], wanted: tuple[str, ...]) -> Scan[T]:
        """A scan with nothing to do: the answer is kept already."""
        scan = cls(answers, wanted, None)
        scan.done = scan._answered = True
        return scan

    @property
    def found(self) -> Sequence[T]:
        if self._answered:
            return self.answers.items(self.answers.answer(self.wanted), self.wanted)
        return self.out.reviews

    @property
    def place(self) -> int:
        if self.done:
            return self.answers.size
        for job in self._jobs[self._current :]:
            if job.at < job.size:
                return job.place_at(job.at)
        return self.answers.size

    @property
    def candidates(self) -> int:
        """How many candidates it has left to test."""
        return sum(job.count_from(job.at) for job in self._jobs)

    @property
    def texts_made(self) -> bool:
        """Every candidate's text is made (else they are made as it goes)."""
        return self._make is None

    @property
    def making(self) -> bool:
        """The texts of the candidates left are being made: none is tested meanwhile."""
        return self._making is not None

    def advance(self, piece: int) -> bool:
        """Test about `piece` candidates more: a 32nd of that while their texts
        are made as they are reached (~30 µs a text), or make the texts of
        about `piece // 32` of the rest. True once done."""
        if self.done:
            return True
        if self._make is not None:
            if self._making is None and len(self.out.reviews) >= self.first:
                self._making = self._make(self._untested(), max(1, piece // 32))
            if self._making is not None:
                if next(self._making, self) is self:  # every text left is made
                    self._made()
                return False
            piece = max(1, piece // 32)
        left = piece
        while left > 0 and self._current < len(self._jobs):
            job = self._jobs[self._current]
            end = min(job.at + left, job.size)
            self._take(job, job.at, end)
            left -= end - job.at
            job.at = end
            if job.at >= job.size:
                self._current += 1
        if self._current >= len(self._jobs):
            self._complete()
        return self.done

    def finish(self) -> None:
        """Test every candidate left now (their texts made first, in file order)."""
        if self.done:
            return
        if self._make is not None:
            for _ in self._making or self._make(self._untested(), 1 << 30):
                pass
            self._made()
        for job in self._jobs[self._current :]:
            self._take(job, job.at, job.size)
            job.at = job.size
        self._complete()

    def narrowed(self, wanted: tuple[str, ...]) -> Scan[T] | None:
        """A scan of `wanted` (which narrows this one's query) that goes on from
        where this one is."""
        if self.done:
            return None
        jobs = []
        out = self.out
        if out.reviews:
            known = frozenset(self.wanted)
            matched = Job(
                (), out.reviews, out.texts, out.wides, out.places, out.starts, False, known, out.term
            )
            jobs.append(matched.narrowed(wanted))
        for job in self._jobs[self._current :]:
            jobs.append(job.narrowed(wanted, job.at))
        return Scan(
            self.answers, wanted, [job for job in jobs if job is not None], make=self._make, first=self.first
        )

    def _made(self) -> None:
        """Every candidate's text is made: taken from the list's texts in its
        order, if they were looked up meanwhile (`ListAnswers.texts`)."""
        self._make = self._making = None
        texts = self.answers.texts
        if texts is not None:
            for job in self._jobs:
                if isinstance(job, Span) and job.texts is None:
                    job.texts, job.wides = texts, self.answers.wides

    def _untested(self) -> Iterator[Sequence[T]]:
        for job in self._jobs[self._current :]:
            yield from job.untested()

    def _take(self, job: Job[T], start: int, end: int) -> None:
        if end <= start:
            return
        out = self.out
        reviews, texts, wides, places, starts = job.piece(start, end)
        if not job.rest:  # every candidate holds every term
            out.reviews.extend(reviews)
            out.texts.extend(texts)
            out.wides.extend(wides)
            out.places.extend(places)
            out.starts.extend(starts if job.anchor == out.term else array("i", [0]) * len(reviews))
            return
        more = matching(job.rest, reviews, texts, wides, places, starts, job.placed)
        out.reviews.extend(more.reviews)
        out.texts.extend(more.texts)
        out.wides.extend(more.wides)
        out.places.extend(more.places)
        # Places kept for another term than the answer's are no help to it: from the start.
        out.starts.extend(more.starts if more.term == out.term else array("i", [0]) * len(more.reviews))

    def _complete(self) -> None:
        self.done = True
        answers = self.answers
        answers.remember(self.wanted, bits_at(self.out.places, answers.size), self.out)
        if answers.running is self:
            answers.running = None
