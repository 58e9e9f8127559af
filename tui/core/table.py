"""The library as columns: one value per review in flat arrays, a `Review` made
only for the rows asked for.

At 100,000 reviews a warm start spent most of its time after the first frame
making a `Review` per review and indexing them (bench/README.md, "`tui.core`
on columns"). A table holds the same answers as `tui.core.model.Library`'s
index (the reading order, each tag's reviews, the repos, the verdicts, the
keys, the duplicates skipped, the stale files, the problems) as a few arrays
and two UTF-8 texts, in an order that makes most questions a slice or a count:
the rows are in reading order (deep-read first, then file order), so a row's
number is its rank, a verdict's reviews are a range of rows and every list is
ascending (`tui.core.rows.Rows`).

Made two ways: `ReviewTable.from_reviews` (what `Library._index` does, from a
library's files) and from columns saved by `tui.load.table_file`, which gives
the same `Columns` and a body source per row. Immutable: a library that
changes makes a new table. No Textual, no YAML, no disk here.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from itertools import accumulate, chain, repeat
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import NamedTuple

from tui.core.model import (
    ALL_TAG,
    UNREAD_TAG,
    VERDICTS,
    BodySource,
    Location,
    Problem,
    Review,
    verdict_rank,
)
from tui.core.rows import Rows

NO_PR = -(1 << 63)
"""`pr` of a review without one, in the `pr` column."""
CACHE_ROWS = 256
"""`review(i)` keeps this many reviews made (the rows on screen, the one opened)."""
ENCODING = ("utf-8", "surrogatepass")
"""How titles and keys are held as bytes: any `str` Python holds comes back the same."""

_new = tuple.__new__


def _parts(path: Path) -> tuple[str, ...]:
    return path.parts


# Each column is made by one pass in C over the reviews: a comprehension a column
# made `from_reviews` ~0.47 s at 100,000 (bench/README.md).
_key, _title, _repo, _verdict, _tags, _pr, _checks, _location, _body_source = map(
    attrgetter, ("key", "title", "repo", "verdict", "tags", "pr", "checks", "location", "body_source")
)
_line, _column = itemgetter(1), itemgetter(2)


def _first_of_each_key(
    files: Mapping[Path, Sequence[Review]], paths: list[Path]
) -> tuple[list[Review], list[int], list[str], list[Problem]]:
    """Every review of `paths` in order but those whose key an earlier one has,
    with their files' places in `paths` and their keys; and the skipped ones as
    problems, as `Library._index` words them."""
    every = list(chain.from_iterable(map(files.__getitem__, paths)))
    every_file = list(chain.from_iterable(repeat(f, len(files[path])) for f, path in enumerate(paths)))
    keys = list(map(_key, every))
    if len(set(keys)) == len(keys):
        return every, every_file, keys, []
    kept: list[Review] = []
    kept_file: list[int] = []
    kept_keys: list[str] = []
    first: dict[str, Location] = {}
    duplicates: list[Problem] = []
    for review, f, key in zip(every, every_file, keys, strict=True):
        at = first.get(key)
        if at is not None:
            duplicates.append(Problem(review.location, f"duplicate review (first at {at}); skipped"))
            continue
        first[key] = review.location
        kept.append(review)
        kept_file.append(f)
        kept_keys.append(key)
    return kept, kept_file, kept_keys, duplicates


class Columns(NamedTuple):
    """A table's columns. Each `Sequence[int]` is an `array` (made by
    `from_reviews`) or a `memoryview` of a saved file; `*_at` are offsets, one
    more than what they cut (the last one the end)."""

    n: int
    titles: bytes | memoryview  # UTF-8, one after the other
    title_at: Sequence[int]
    keys: bytes | memoryview  # UTF-8, each followed by a newline
    key_at: Sequence[int]
    repos: tuple[str, ...]  # sorted
    repo_of: Sequence[int]
    verdicts: tuple[str, ...]  # VERDICTS, then any other verdict, sorted
    verdict_of: Sequence[int]
    verdict_bounds: tuple[int, ...]  # where each verdict rank's rows start (len(VERDICTS) + 1 ranks), then n
    tags: tuple[str, ...]  # the sidebar's order: most reviews first, then by name
    tag_flat: Sequence[int]  # each row's tags (indexes into `tags`), in the entry's order
    tag_flat_at: Sequence[int]
    tag_rows: Sequence[int]  # each tag's rows, ascending, the tags in `tags`' order
    tag_rows_at: Sequence[int]
    files: tuple[str, ...]  # every file's name, in file order (as paths compare)
    file_of: Sequence[int]
    line: Sequence[int]
    column: Sequence[int]
    pr: Sequence[int]  # NO_PR: none
    checks: Sequence[int]
    stale: frozenset[int]  # files whose rows are their last good version
    problems: tuple[Problem, ...]  # the files' own and those added since, in the library's order
    duplicates: tuple[Problem, ...]  # reviews skipped, their key taken by an earlier one


def small_ints(values: Iterable[int]) -> array:
    """`values` in the smallest unsigned array that holds them."""
    values = values if isinstance(values, (list, array)) else list(values)
    top = max(values, default=0)
    for code in "BHIQ":
        if top < 1 << (8 * array(code).itemsize):
            return array(code, values)
    raise OverflowError("a column's value does not fit in 64 bits")


def _joined(texts: list[str], end: bytes = b"") -> tuple[bytes, array]:
    """`texts` encoded one after the other (each followed by `end`), and where each starts (and the end)."""
    encoded = [text.encode(*ENCODING) + end for text in texts]
    return b"".join(encoded), small_ints(accumulate(map(len, encoded), initial=0))


class ReviewTable:
    """The reviews of one library version as columns. Rows are numbered in
    reading order; `review(i)` makes row i's `Review`, equal to the library's."""

    def __init__(
        self, columns: Columns, bodies: Sequence[BodySource], paths: Sequence[Path] | None = None
    ) -> None:
        """`bodies`: each row's body (`Review.body_source`); `paths`: the files'
        `Path`s when at hand (made from the names on first use otherwise)."""
        self.columns = columns
        self.n = columns.n
        self.bodies = bodies
        self._paths: list[Path | None] = list(paths) if paths is not None else [None] * len(columns.files)
        self._tag_at = {tag: t for t, tag in enumerate(columns.tags)}
        self._repo_at = {repo: r for r, repo in enumerate(columns.repos)}
        self._cache: dict[int, Review] = {}
        self._position: dict[str, int] | None = None
        self._file_rows: list[Rows] | None = None
        self._file_at: dict[str, int] | None = None
        self._repo_counts: dict[str, int] | None = None

    @classmethod
    def from_reviews(
        cls,
        files: Mapping[Path, Sequence[Review]],
        problems: Mapping[Path, Sequence[Problem]] | None = None,
        stale: Collection[Path] = (),
        body_of: Callable[[Review], BodySource] = _body_source,
    ) -> ReviewTable:
        """The table of a library's files, as `Library._index` orders them: files
        in path order, a key's first review kept (the others listed as
        duplicates), then deep-read first, file order within a verdict.
        `body_of`: each row's body, if not the review's own `body_source`."""
        paths = sorted(files, key=_parts)
        kept, kept_file, kept_keys, duplicates = _first_of_each_key(files, paths)
        verdicts = (*VERDICTS, *sorted(set(map(_verdict, kept)) - set(VERDICTS)))
        verdict_at = {verdict: v for v, verdict in enumerate(verdicts)}
        kept_verdict = list(map(verdict_at.__getitem__, map(_verdict, kept)))
        kept_rank = list(map([verdict_rank(verdict) for verdict in verdicts].__getitem__, kept_verdict))
        order = sorted(range(len(kept)), key=kept_rank.__getitem__)  # stable: file order kept
        reviews = list(map(kept.__getitem__, order))
        ranks = Counter(kept_rank)
        bounds = tuple(accumulate((ranks[rank] for rank in range(len(VERDICTS) + 1)), initial=0))
        row_tags = list(map(_tags, reviews))
        per_tag: dict[str, list[int]] = {}
        for row, tags_of_row in enumerate(row_tags):
            for tag in tags_of_row:
                rows = per_tag.get(tag)
                if rows is None:
                    per_tag[tag] = [row]
                else:
                    rows.append(row)
        tags = tuple(sorted(per_tag, key=lambda tag: (-len(per_tag[tag]), tag)))
        tag_lists = list(map(per_tag.__getitem__, tags))
        repos = tuple(sorted(set(map(_repo, reviews))))
        locations = list(map(_location, reviews))
        titles, title_at = _joined(list(map(_title, reviews)))
        keys, key_at = _joined(list(map(kept_keys.__getitem__, order)), b"\n")
        columns = Columns(
            n=len(reviews),
            titles=titles,
            title_at=title_at,
            keys=keys,
            key_at=key_at,
            repos=repos,
            repo_of=small_ints(
                list(map({repo: r for r, repo in enumerate(repos)}.__getitem__, map(_repo, reviews)))
            ),
            verdicts=verdicts,
            verdict_of=small_ints(list(map(kept_verdict.__getitem__, order))),
            verdict_bounds=bounds,
            tags=tags,
            tag_flat=small_ints(
                list(map({tag: t for t, tag in enumerate(tags)}.__getitem__, chain.from_iterable(row_tags)))
            ),
            tag_flat_at=small_ints(accumulate(map(len, row_tags), initial=0)),
            tag_rows=small_ints(list(chain.from_iterable(tag_lists))),
            tag_rows_at=small_ints(accumulate(map(len, tag_lists), initial=0)),
            files=tuple(map(str, paths)),
            file_of=small_ints(list(map(kept_file.__getitem__, order))),
            line=small_ints(list(map(_line, locations))),
            column=small_ints(list(map(_column, locations))),
            pr=_prs(list(map(_pr, reviews))),
            checks=small_ints(list(map(_checks, reviews))),
            stale=frozenset(f for f, path in enumerate(paths) if path in stale),
            problems=tuple(chain.from_iterable((problems or {}).values())),
            duplicates=tuple(duplicates),
        )
        return cls(columns, list(map(body_of, reviews)), paths)

    # -- one row ---------------------------------------------------------------

    def __len__(self) -> int:
        return self.n

    def _check(self, i: int) -> None:
        if not 0 <= i < self.n:
            raise IndexError(f"row {i} of {self.n}")

    def title(self, i: int) -> str:
        self._check(i)
        at = self.columns.title_at
        return str(self.columns.titles[at[i] : at[i + 1]], *ENCODING)

    def key(self, i: int) -> str:
        self._check(i)
        at = self.columns.key_at
        return str(self.columns.keys[at[i] : at[i + 1] - 1], *ENCODING)

    def repo(self, i: int) -> str:
        return self.columns.repos[self.columns.repo_of[i]]

    def verdict(self, i: int) -> str:
        return self.columns.verdicts[self.columns.verdict_of[i]]

    def tags_of(self, i: int) -> tuple[str, ...]:
        c = self.columns
        names = c.tags
        return tuple([names[t] for t in c.tag_flat[c.tag_flat_at[i] : c.tag_flat_at[i + 1]]])

    def pr(self, i: int) -> int | None:
        pr = self.columns.pr[i]
        return None if pr == NO_PR else pr

    def checks(self, i: int) -> int:
        return self.columns.checks[i]

    def path(self, f: int) -> Path:
        """File `f`'s path (`Columns.files`), one `Path` per file."""
        path = self._paths[f]
        if path is None:
            path = self._paths[f] = Path(self.columns.files[f])
        return path

    def location(self, i: int) -> Location:
        c = self.columns
        return _new(Location, (self.path(c.file_of[i]), c.line[i], c.column[i]))

    def is_stale(self, i: int) -> bool:
        return self.columns.file_of[i] in self.columns.stale

    def review(self, i: int) -> Review:
        """Row `i`'s `Review`, equal to the library's; the last `CACHE_ROWS` made are kept."""
        cache = self._cache
        review = cache.get(i)
        if review is not None:
            return review
        self._check(i)
        fields = (
            self.title(i), self.repo(i), self.verdict(i), self.tags_of(i),
            self.location(i), self.pr(i), self.checks(i), self.key(i),
        )  # fmt: skip
        review = cache[i] = Review.of_row(fields, self.bodies[i])
        if len(cache) > CACHE_ROWS:
            del cache[next(iter(cache))]  # the oldest made
        return review

    def position(self, key: str) -> int | None:
        """The row of `key`, or None. The lookup is made on first use (~25 ms at 100,000)."""
        return self._positions().get(key)

    def rows_of(self, keys: Iterable[str]) -> list[int]:
        """The rows of those of `keys` the table has, in their order: a pass in C
        (a state's read keys, for a read mask)."""
        return [row for row in map(self._positions().get, keys) if row is not None]

    def _positions(self) -> dict[str, int]:
        if self._position is None:
            self._position = dict(zip(self.keys(), range(self.n), strict=True))
        return self._position

    def keys(self) -> list[str]:
        """Every row's key, in reading order."""
        text = str(self.columns.keys, *ENCODING)
        if text.count("\n") == self.n:  # no key holds a newline: split in C
            return text.split("\n")[: self.n]
        return [self.key(i) for i in range(self.n)]

    # -- lists and counts ------------------------------------------------------

    @property
    def tags(self) -> tuple[str, ...]:
        """Every tag, in the sidebar's order (`Library.tags`' order)."""
        return self.columns.tags

    @property
    def repos(self) -> tuple[str, ...]:
        return self.columns.repos

    def tag_rows(self, tag: str) -> Rows:
        """The rows under a tag, ascending (empty for a tag no review has)."""
        t = self._tag_at.get(tag)
        if t is None:
            return Rows()
        at = self.columns.tag_rows_at
        return Rows(memoryview(self.columns.tag_rows)[at[t] : at[t + 1]])  # type: ignore[arg-type]  # an array or a memoryview

    def tag_count(self, tag: str) -> int:
        t = self._tag_at.get(tag)
        if t is None:
            return 0
        at = self.columns.tag_rows_at
        return at[t + 1] - at[t]

    def under(self, tag: str) -> Rows:
        """`Library.under`: a real tag's rows, or every row for All (and Unread, which filters later)."""
        if tag in (ALL_TAG, UNREAD_TAG):
            return Rows.every(self.n)
        return self.tag_rows(tag)

    def verdict_rows(self, verdict: str) -> Rows:
        """The rows of one verdict: a range for the known ones (the reading order is by verdict)."""
        bounds = self.columns.verdict_bounds
        rank = verdict_rank(verdict)
        if rank < len(VERDICTS):
            return Rows(range(bounds[rank], bounds[rank + 1]))
        if verdict not in self.columns.verdicts:
            return Rows()
        v = self.columns.verdicts.index(verdict)
        of = self.columns.verdict_of
        return Rows([row for row in range(bounds[rank], self.n) if of[row] == v])

    def verdict_count(self, verdict: str) -> int:
        return len(self.verdict_rows(verdict))

    def repo_counts(self) -> dict[str, int]:
        """How many rows each repo has, in `repos`' order (counted once)."""
        if self._repo_counts is None:
            counted = Counter(self.columns.repo_of)
            self._repo_counts = {repo: counted[r] for r, repo in enumerate(self.columns.repos)}
        return dict(self._repo_counts)

    def repo_count(self, repo: str) -> int:
        self.repo_counts()
        return self._repo_counts.get(repo, 0) if self._repo_counts is not None else 0

    # -- files and problems ----------------------------------------------------

    @property
    def files(self) -> tuple[Path, ...]:
        """Every file, with reviews or not, in file order."""
        return tuple(self.path(f) for f in range(len(self.columns.files)))

    def file_rows(self, path: Path) -> Rows:
        """The rows of one file's reviews (not those skipped as duplicates), ascending."""
        if self._file_rows is None:
            per_file: list[list[int]] = [[] for _ in self.columns.files]
            for row, f in enumerate(self.columns.file_of):
                per_file[f].append(row)
            self._file_rows = [Rows(rows) for rows in per_file]
        if self._file_at is None:
            self._file_at = {name: f for f, name in enumerate(self.columns.files)}
        at = self._file_at.get(str(path))
        return Rows() if at is None else self._file_rows[at]

    @property
    def stale(self) -> frozenset[Path]:
        return frozenset(self.path(f) for f in self.columns.stale)

    @property
    def duplicates(self) -> tuple[Problem, ...]:
        return self.columns.duplicates

    def all_problems(self) -> list[Problem]:
        """`Library.all_problems`: every problem in file order, then line and column."""
        located = [*self.columns.problems, *self.columns.duplicates]
        return sorted(located, key=lambda p: (p.location.path, p.location.line, p.location.column))

    @property
    def problem_count(self) -> int:
        return len(self.columns.problems) + len(self.columns.duplicates)


def _prs(prs: list[int | None]) -> Sequence[int]:
    """The `pr` column: NO_PR for none; a list if a number is past 64 bits
    (the parser takes any positive number)."""
    values = [NO_PR if pr is None else pr for pr in prs]
    try:
        return array("q", values)
    except OverflowError:
        return values
